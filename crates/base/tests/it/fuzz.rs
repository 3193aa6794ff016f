//! Property tests ("fuzzing" with a bounded case count; `PROPTEST_CASES` raises it): what the
//! YAML writer emits reads back as exactly the same value.

use olm_release_testsupport::fuzz::{config, yaml_value};
use proptest::prelude::*;

proptest! {
    #![proptest_config(config())]

    /// What the bundle writer emits reads back as exactly the same value.
    #[test]
    fn yaml_writer_round_trips(value in yaml_value()) {
        let text = olm_release_base::yaml::to_string(&value);
        let back: serde_yaml_ng::Value = serde_yaml_ng::from_str(&text)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(back, value, "{}", text);
    }
}
