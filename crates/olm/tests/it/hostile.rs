//! Bundles from a registry are untrusted archives: every malformed or malicious blob is refused
//! with an error naming the entry, and nothing is written while reading.

use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;
use olm_release_olm::archive::{self, Limits};

/// A raw tar entry: the name is written byte for byte, bypassing the tar crate's path checks.
fn entry(name: &[u8], kind: tar::EntryType, content: &[u8], link: Option<&[u8]>) -> Vec<u8> {
    let mut header = tar::Header::new_old();
    header.as_old_mut().name[..name.len()].copy_from_slice(name);
    header.set_entry_type(kind);
    header.set_mode(0o644);
    header.set_size(content.len() as u64);
    if let Some(link) = link {
        header.as_old_mut().linkname[..link.len()].copy_from_slice(link);
    }
    header.set_cksum();
    let mut out = header.as_bytes().to_vec();
    out.extend_from_slice(content);
    out.resize(out.len().div_ceil(512) * 512, 0);
    out
}

fn gz(tar: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(tar).unwrap();
    e.finish().unwrap()
}

fn tar_of(entries: &[Vec<u8>]) -> Vec<u8> {
    let mut t: Vec<u8> = entries.concat();
    t.extend_from_slice(&[0u8; 1024]);
    t
}

fn refused(blob: &[u8], limits: Limits) -> String {
    archive::unpack(blob, limits)
        .expect_err("the blob must be refused")
        .to_string()
}

#[test]
fn path_traversal_and_absolute_paths_are_refused() {
    let dotdot = gz(&tar_of(&[entry(
        b"pkg/../../etc/passwd",
        tar::EntryType::Regular,
        b"x",
        None,
    )]));
    assert!(refused(&dotdot, Limits::default()).contains("entry pkg/../../etc/passwd: '..'"));
    let absolute = gz(&tar_of(&[entry(
        b"/etc/passwd",
        tar::EntryType::Regular,
        b"x",
        None,
    )]));
    assert!(refused(&absolute, Limits::default()).contains("entry /etc/passwd: absolute"));
}

#[test]
fn links_and_devices_are_refused() {
    for (kind, what) in [
        (tar::EntryType::Symlink, "Symlink"),
        (tar::EntryType::Link, "Link"),
        (tar::EntryType::Char, "Char"),
        (tar::EntryType::Block, "Block"),
        (tar::EntryType::Fifo, "Fifo"),
    ] {
        let blob = gz(&tar_of(&[entry(
            b"pkg/bundle.yaml",
            kind,
            b"",
            Some(b"/etc/shadow"),
        )]));
        let err = refused(&blob, Limits::default());
        assert!(
            err.contains("entry pkg/bundle.yaml") && err.contains(what),
            "{what}: {err}"
        );
    }
}

#[test]
fn too_many_entries_and_gzip_bombs_are_refused() {
    let many: Vec<_> = (0..20)
        .map(|i| {
            entry(
                format!("pkg/f{i}.yaml").as_bytes(),
                tar::EntryType::Regular,
                b"a: 1\n",
                None,
            )
        })
        .collect();
    let blob = gz(&tar_of(&many));
    let err = refused(
        &blob,
        Limits {
            max_entries: 10,
            ..Limits::default()
        },
    );
    assert!(err.contains("more than 10 entries"), "{err}");

    // 64 MiB of zeros compress to about 64 KiB: a ratio of ~1000:1.
    let zeros = vec![0u8; 64 << 20];
    let bomb = gz(&tar_of(&[entry(
        b"pkg/bundle.yaml",
        tar::EntryType::Regular,
        &zeros,
        None,
    )]));
    let err = refused(
        &bomb,
        Limits {
            max_ratio: 100,
            ..Limits::default()
        },
    );
    assert!(err.contains("gzip bomb"), "{err}");
    let err = refused(
        &bomb,
        Limits {
            max_bytes: 1 << 20,
            ..Limits::default()
        },
    );
    assert!(err.contains("gzip bomb"), "{err}");
}

#[test]
fn non_gzip_and_truncated_data_are_refused() {
    assert!(refused(b"PK\x03\x04 a zip file", Limits::default()).contains("not gzip"));
    let good = archive::pack(&[("pkg/bundle.yaml".into(), b"data: {}\n".to_vec())], 0)
        .unwrap()
        .gz;
    let err = refused(&good[..good.len() / 2], Limits::default());
    assert!(err.contains("truncated or corrupt"), "{err}");
    assert!(
        refused(
            &gz(b"not a tar at all, just text that is long enough to matter"),
            Limits::default()
        )
        .contains("tar")
    );
}

fn flattened(text: &str) -> Result<olm_release_olm::Bundle, String> {
    archive::read_bundle(
        &[("pkg/bundle.yaml".to_string(), text.as_bytes().to_vec())],
        &Default::default(),
    )
    .map_err(|e| e.to_string())
}

#[test]
fn yaml_that_is_not_the_format_is_refused() {
    let wrong_type = "data:\n  clusterServiceVersions: [1, 2]\n  packages: x\n";
    assert!(
        flattened(wrong_type)
            .unwrap_err()
            .contains("must be a YAML string")
    );
    let two_docs = "data: {}\n---\ndata: {}\n";
    assert!(
        flattened(two_docs)
            .unwrap_err()
            .contains("more than one YAML document")
    );
    let no_data = "kind: Something\n";
    assert!(
        flattened(no_data)
            .unwrap_err()
            .contains("no top-level 'data'")
    );
    let two_packages = "data:\n  clusterServiceVersions: \"[]\"\n  packages: \"[{packageName: a, channels: []}, {packageName: b, channels: []}]\"\n";
    assert!(
        flattened(two_packages)
            .unwrap_err()
            .contains("exactly one package")
    );
    // Aliases that expand without bound ("billion laughs") are refused by the parser.
    let mut laughs = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 0..9 {
        let (prev, next) = ((b'a' + i) as char, (b'a' + i + 1) as char);
        laughs.push_str(&format!("{next}: &{next} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
    }
    laughs.push_str("data: *j\n");
    assert!(flattened(&laughs).is_err(), "alias bombs are refused");
}

#[test]
fn a_well_formed_bundle_round_trips() {
    let text = "data:\n  customResourceDefinitions: \"\"\n  clusterServiceVersions: |\n    - apiVersion: operators.coreos.com/v1alpha1\n      kind: ClusterServiceVersion\n      metadata: {name: p.v1.0.0}\n      spec: {version: 1.0.0}\n  packages: |\n    - packageName: p\n      channels: [{name: alpha, currentCSV: p.v1.0.0}]\n";
    let b = flattened(text).unwrap();
    assert_eq!(b.csvs[0].name(), Some("p.v1.0.0"));
    let packed = archive::pack(
        &archive::bundle_files(&b, archive::Layout::Flat).unwrap(),
        0,
    )
    .unwrap();
    let (files, digest) = archive::unpack(&packed.gz, Limits::default()).unwrap();
    assert_eq!(digest, packed.digest);
    assert_eq!(
        archive::read_bundle(&files, &Default::default()).unwrap(),
        b
    );
}
