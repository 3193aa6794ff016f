//! The shapes real operators' package-manifest trees take, each reproduced by a small tree
//! written for this suite (fixtures/verify/trees, built by generate.py) or in memory, with what
//! the upstream tools make of it: operator-courier 2.1.11 (the COURIER peer, where it has a
//! verdict) and the rules of operator-registry and operator-framework/api.

use olm_release_olm::validate::{self, Options, Profile};
use olm_release_olm::{Level, archive};
use serde_yaml_ng::Value;

use super::{corpus_dir, courier_verify, ours, show};

/// A deterministic string of `n` base64 characters that gzip cannot shrink much.
fn noise(n: usize) -> String {
    const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            B64[(x % 64) as usize] as char
        })
        .collect()
}

#[test]
fn the_bundle_size_limit_is_api_s_one_mib_gzipped() {
    let size_findings = |chars: usize| {
        let mut b =
            archive::read_path(&corpus_dir().join("valid/single"), &Default::default()).unwrap();
        b.csvs[0].doc["spec"]["description"] = Value::from(noise(chars));
        validate::validate_with(&b, &Options::new(Profile::Modern))
            .into_iter()
            .filter(|f| f.rule.starts_with("bundle-size"))
            .map(|f| (f.rule, f.level))
            .collect::<Vec<_>>()
    };
    // About 830 KB gzipped: under api's limit and its 85 % warning (gzip, not gzip + base64).
    assert_eq!(size_findings(1_100_000), vec![]);
    // About 1.2 MB gzipped: over it.
    assert_eq!(
        size_findings(1_600_000),
        vec![("bundle-size".to_string(), Level::Error)]
    );
}

#[test]
fn version_folders_in_the_registry_v1_layout_are_courier_s_error_only() {
    let dir = corpus_dir().join("trees/tree-bundle-folders");
    let r = ours(&dir, Profile::Appregistry2019, false);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == "bundle-csv")
        .unwrap_or_else(|| panic!("{}", show(&r)));
    assert_eq!((f.level, f.mirrors.as_str()), (Level::Error, "courier"));
    assert!(f.message.contains("1.0.0/manifests/"), "{f}");
    assert!(f.fix.contains("1.0.0/"), "{f}");
    // The registry loader and operator-framework/api read every version folder.
    let modern = ours(&dir, Profile::Modern, false);
    assert!(modern.is_valid(), "{}", show(&modern));
    if let Some((code, _)) = courier_verify(&dir, false) {
        assert_ne!(code, 0, "courier accepts a tree it cannot read");
    }
}

#[test]
fn olm_examples_is_read_by_api_only() {
    let mut b =
        archive::read_path(&corpus_dir().join("valid/single"), &Default::default()).unwrap();
    let ann = b.csvs[0].doc["metadata"]["annotations"]
        .as_mapping_mut()
        .unwrap();
    ann.remove("alm-examples");
    ann.insert("olm.examples".into(), "[{not json".into());
    let judge = |profile| {
        validate::validate_with(&b, &Options::new(profile))
            .into_iter()
            .filter(|f| f.rule == "alm-examples")
            .map(|f| (f.level, f.mirrors, f.field))
            .collect::<Vec<_>>()
    };
    // courier parses alm-examples only, so the 2019 profile has nothing to say about it.
    assert_eq!(judge(Profile::Appregistry2019), vec![]);
    assert_eq!(
        judge(Profile::Modern),
        vec![(
            Level::Error,
            "api".to_string(),
            "metadata.annotations.olm.examples".to_string()
        )]
    );
}

#[test]
fn an_object_beside_a_csv_is_kept_in_the_bundle_not_dropped() {
    // The registry loader adds every object of a CSV's folder to the bundle; only courier's
    // checks skip it. The finding must not tell the user to delete a Service the operator needs.
    let dir = corpus_dir().join("trees/tree-pruned-tail");
    let r = ours(&dir, Profile::Appregistry2019, false);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == "file-unknown" && f.file.ends_with(".service.yaml"))
        .unwrap_or_else(|| panic!("{}", show(&r)));
    assert_eq!(f.level, Level::Warning, "{f}");
    assert!(f.message.contains("is a Service"), "{f}");
    assert!(f.fix.starts_with("nothing to do if"), "{f}");
    assert!(r.is_valid(), "{}", show(&r));
}
