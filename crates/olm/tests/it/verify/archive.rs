//! The bundle tarball (what operator-courier packs and operator-registry reads): flattened bundle.yaml with string-valued data.*, the
//! nested option, and reproducibility (same inputs → same bytes; both digests right).

use std::io::Read;

use olm_release_olm::Bundle;
use olm_release_olm::archive::{self, Layout};
use olm_release_olm::validate::{Options, verify_tarball};
use serde_yaml_ng::Value;

use super::corpus_dir;

/// The corpus's valid chain bundle, in memory.
fn chain() -> Bundle {
    let path = corpus_dir().join("valid/chain");
    archive::read_path(&path, &Default::default()).unwrap()
}

fn gunzip(gz: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_end(&mut out)
        .unwrap();
    out
}

#[test]
fn same_inputs_give_the_same_bytes_and_both_digests() {
    let b = chain();
    let files = archive::bundle_files(&b, Layout::Flat).unwrap();
    let one = archive::pack(&files, 1_560_000_000).unwrap();
    let mut reversed = files.clone();
    reversed.reverse();
    let two = archive::pack(&reversed, 1_560_000_000).unwrap();
    assert_eq!(one.gz, two.gz, "entry order of the input changed the bytes");
    let tar = gunzip(&one.gz);
    assert_eq!(
        one.digest,
        olm_release_base::digest::sha256_hex(&tar),
        "digest = sha256 of the uncompressed tar"
    );
    assert_eq!(one.gz_digest, olm_release_base::digest::sha256_hex(&one.gz));
    assert_eq!(one.tar_size, tar.len() as u64);
    assert_ne!(one.digest, one.gz_digest);
    let later = archive::pack(&files, 1_560_000_001).unwrap();
    assert_ne!(
        one.digest, later.digest,
        "SOURCE_DATE_EPOCH is the entries' mtime"
    );
}

#[test]
fn tar_and_gzip_headers_carry_nothing_machine_specific() {
    let packed =
        archive::pack(&archive::bundle_files(&chain(), Layout::Nested).unwrap(), 7).unwrap();
    // gzip: magic, deflate, no flags (no file name), mtime 0.
    assert_eq!(&packed.gz[..4], &[0x1f, 0x8b, 8, 0]);
    assert_eq!(&packed.gz[4..8], &[0, 0, 0, 0]);
    let tar = gunzip(&packed.gz);
    let mut a = tar::Archive::new(tar.as_slice());
    let mut paths = Vec::new();
    for e in a.entries().unwrap() {
        let e = e.unwrap();
        let h = e.header();
        assert_eq!(
            (h.uid().unwrap(), h.gid().unwrap(), h.mtime().unwrap()),
            (0, 0, 7)
        );
        let dir = h.entry_type().is_dir();
        assert_eq!(h.mode().unwrap(), if dir { 0o755 } else { 0o644 });
        assert!(h.username().unwrap().unwrap_or("").is_empty());
        paths.push(e.path().unwrap().to_string_lossy().into_owned());
    }
    let files: Vec<_> = paths
        .iter()
        .filter(|p| !p.ends_with('/'))
        .cloned()
        .collect();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted, "entries are sorted");
    assert!(files.iter().any(|p| p == "widget-operator/1.1.0/widget-operator.v1.1.0.clusterserviceversion.yaml"), "{files:?}");
    assert!(
        files
            .iter()
            .any(|p| p == "widget-operator/widget-operator.package.yaml")
    );
}

#[test]
fn the_flat_layout_is_one_bundle_yaml_with_string_valued_data() {
    let b = chain();
    let files = archive::bundle_files(&b, Layout::Flat).unwrap();
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].0, "widget-operator/bundle.yaml");
    let top: Value = serde_yaml_ng::from_slice(&files[0].1).unwrap();
    for (key, len) in [
        ("customResourceDefinitions", 1),
        ("clusterServiceVersions", 3),
        ("packages", 1),
    ] {
        let text = top["data"][key]
            .as_str()
            .unwrap_or_else(|| panic!("data.{key} is not a string"));
        let list: Vec<Value> = serde_yaml_ng::from_str(text).unwrap();
        assert_eq!(list.len(), len, "data.{key}");
    }
    // Read back, the bundle is the same, and it verifies clean under the registry's reading.
    let packed = archive::pack(&files, 0).unwrap();
    let (unpacked, digest) = archive::unpack(&packed.gz, Default::default()).unwrap();
    assert_eq!(digest, packed.digest);
    let back = archive::read_bundle(&unpacked, &Default::default()).unwrap();
    assert_eq!(back.package, b.package);
    let docs = |b: &Bundle| b.csvs.iter().map(|c| c.doc.clone()).collect::<Vec<_>>();
    // Written (and so read back) in the canonical order: the newest CSV first.
    let canonical = olm_release_olm::canonical_csv_order(&b.csvs)
        .into_iter()
        .map(|i| b.csvs[i].doc.clone())
        .collect::<Vec<_>>();
    assert_eq!(docs(&back), canonical);
    let r = verify_tarball("chain.tar.gz", &packed.gz, &Options::default());
    assert!(r.is_valid(), "{}", super::show(&r));
    assert_eq!(r.digest.as_deref(), Some(packed.digest.as_str()));
    assert_eq!(r.gz_digest.as_deref(), Some(packed.gz_digest.as_str()));
}

#[test]
fn the_nested_layout_verifies_the_same_as_the_flat_one() {
    let b = chain();
    let nested = archive::pack(&archive::bundle_files(&b, Layout::Nested).unwrap(), 0).unwrap();
    let r = verify_tarball("nested.tar.gz", &nested.gz, &Options::default());
    assert!(r.is_valid(), "{}", super::show(&r));
}

#[test]
fn a_corrupt_tarball_is_a_finding_not_a_crash() {
    let r = verify_tarball(
        "x.tar.gz",
        &[0x1f, 0x8b, 8, 0, 1, 2, 3],
        &Options::default(),
    );
    assert!(!r.is_valid());
    assert_eq!(r.findings[0].rule, "bundle-format");
}
