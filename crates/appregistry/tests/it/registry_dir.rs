//! The embedded `dir:` registry has the app registry's semantics: strict SemVer releases,
//! `default` = highest SemVer (pre-releases included), conflicts unless forced, blobs by the
//! digest of the uncompressed tar, atomic writes under a lock.

use olm_release_appregistry::PushOutcome;
use olm_release_appregistry::dir::DirRegistry;
use olm_release_olm::archive;

fn blob(text: &str) -> archive::Packed {
    archive::pack(
        &[("pkg/bundle.yaml".to_string(), text.as_bytes().to_vec())],
        0,
    )
    .unwrap()
}

#[test]
fn default_is_the_highest_semver_not_the_last_pushed() {
    let dir = tempfile::tempdir().unwrap();
    let reg = DirRegistry::new(dir.path());
    for (release, text) in [
        ("0.2.0", "a"),
        ("0.10.0", "b"),
        ("0.11.0-rc.1", "c"),
        ("0.3.0", "d"),
    ] {
        assert_eq!(
            reg.push("ns", "pkg", release, &blob(text).gz, false)
                .unwrap(),
            PushOutcome::Pushed
        );
    }
    let order: Vec<_> = reg
        .releases("ns", "pkg")
        .unwrap()
        .into_iter()
        .map(|r| r.release)
        .collect();
    assert_eq!(order, ["0.11.0-rc.1", "0.10.0", "0.3.0", "0.2.0"]);
    assert!(
        reg.releases("ns", "other").unwrap().is_empty(),
        "a missing package has no releases"
    );
    assert_eq!(reg.packages("ns").unwrap(), ["pkg"]);
}

#[test]
fn existing_release_conflicts_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let reg = DirRegistry::new(dir.path());
    let (a, b) = (blob("a"), blob("b"));
    reg.push("ns", "pkg", "1.0.0", &a.gz, false).unwrap();
    assert_eq!(
        reg.push("ns", "pkg", "1.0.0", &b.gz, false).unwrap(),
        PushOutcome::Exists
    );
    assert_eq!(reg.releases("ns", "pkg").unwrap()[0].digest, a.digest);
    assert_eq!(
        reg.push("ns", "pkg", "1.0.0", &b.gz, true).unwrap(),
        PushOutcome::Pushed
    );
    let now = &reg.releases("ns", "pkg").unwrap()[0];
    assert_eq!(
        (now.digest.as_str(), now.size),
        (b.digest.as_str(), b.gz.len() as u64)
    );
    assert_eq!(
        reg.pull("ns", "pkg", &b.digest).unwrap(),
        b.gz,
        "blobs are served byte for byte"
    );
}

#[test]
fn refuses_bad_releases_names_and_blobs() {
    let dir = tempfile::tempdir().unwrap();
    let reg = DirRegistry::new(dir.path());
    let gz = blob("a").gz;
    for bad in ["1.0", "v0.2.0", "1", "latest"] {
        let err = reg.push("ns", "pkg", bad, &gz, false).unwrap_err();
        assert!(
            err.to_string().contains("not strict SemVer"),
            "{bad}: {}",
            err
        );
    }
    assert!(
        reg.push("../x", "pkg", "1.0.0", &gz, false).is_err(),
        "no path tricks in names"
    );
    assert!(reg.push("ns", "pkg", "1.0.0", b"not gzip", false).is_err());
    assert!(reg.pull("ns", "pkg", "../../etc/passwd").is_err());
    assert!(
        reg.releases("ns", "pkg").unwrap().is_empty(),
        "nothing was stored"
    );
}

#[test]
fn concurrent_pushes_do_not_corrupt_the_index() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    let handles: Vec<_> = (0..8)
        .map(|i| {
            let root = root.clone();
            std::thread::spawn(move || {
                let reg = DirRegistry::new(root);
                reg.push(
                    "ns",
                    "pkg",
                    &format!("1.{i}.0"),
                    &blob(&format!("content {i}")).gz,
                    false,
                )
                .unwrap()
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), PushOutcome::Pushed);
    }
    let reg = DirRegistry::new(&root);
    let releases = reg.releases("ns", "pkg").unwrap();
    assert_eq!(
        releases.len(),
        8,
        "every concurrent push landed in the index"
    );
    for r in releases {
        let gz = reg.pull("ns", "pkg", &r.digest).unwrap();
        assert_eq!(
            archive::unpack(&gz, Default::default()).unwrap().1,
            r.digest
        );
    }
}
