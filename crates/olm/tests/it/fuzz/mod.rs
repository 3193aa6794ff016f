//! Property tests ("fuzzing" with a bounded case count, so CI time stays bounded): the bundle
//! reader never panics on arbitrary input, and what it packs round-trips. `PROPTEST_CASES`
//! raises the count for a longer local run (`olm_release_testsupport::fuzz`). The pipeline
//! file's are the application's (tests/it/fuzz.rs), the YAML writer's the base crate's and the
//! template renderer's the gotemplate crate's.

mod readers;

use olm_release_olm::archive::{self, Limits};
use proptest::prelude::*;

pub use olm_release_testsupport::fuzz::{config, config_heavy, yaml_value};

proptest! {
    #![proptest_config(config())]

    #[test]
    fn bundle_reader_never_panics_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = archive::unpack(&bytes, Limits::default());
        let mut gz = vec![0x1f, 0x8b];
        gz.extend_from_slice(&bytes);
        let _ = archive::unpack(&gz, Limits::default());
    }

    #[test]
    fn bundle_reader_never_panics_on_yaml(text in "\\PC{0,600}") {
        let _ = archive::read_bundle(&[("pkg/bundle.yaml".to_string(), text.clone().into_bytes())], &Default::default());
        let _ = archive::read_bundle(&[
            ("pkg/a.yaml".to_string(), text.into_bytes()),
            ("pkg/p.package.yaml".to_string(), b"packageName: p\nchannels: []\n".to_vec()),
        ], &Default::default());
    }

    #[test]
    fn packed_bundles_are_reproducible_and_round_trip(names in proptest::collection::btree_set("[a-z]{1,8}", 1..6), body in "[ -~]{0,200}") {
        let files: Vec<(String, Vec<u8>)> = names.iter().map(|n| (format!("pkg/{n}.yaml"), body.clone().into_bytes())).collect();
        let a = archive::pack(&files, 0).unwrap();
        let b = archive::pack(&files, 0).unwrap();
        prop_assert_eq!(&a.gz, &b.gz);
        let (back, digest) = archive::unpack(&a.gz, Limits::default()).unwrap();
        prop_assert_eq!(digest, a.digest);
        prop_assert_eq!(back, files);
    }
}
