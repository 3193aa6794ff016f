//! Property tests ("fuzzing" with a bounded case count, so CI time stays bounded): the case
//! counts every crate's property tests run with (`PROPTEST_CASES` raises them for a longer
//! local run), and arbitrary YAML values for the readers and writers of YAML.

use proptest::prelude::*;

/// The case count for property tests: `PROPTEST_CASES`, or 512; no failure files written.
pub fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(512);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// For cases that build megabytes (bombs, long lists): an eighth of the count, at least 16.
pub fn config_heavy() -> ProptestConfig {
    let c = config();
    ProptestConfig {
        cases: (c.cases / 8).max(16),
        ..c
    }
}

/// Arbitrary YAML values: scalars of every kind, strings that look like other types, nesting.
pub fn yaml_value() -> impl Strategy<Value = serde_yaml_ng::Value> {
    use serde_yaml_ng::Value;
    let tricky = prop_oneof![
        Just("yes".to_string()),
        Just("on".to_string()),
        Just("2019-04-05".to_string()),
        Just("0.10".to_string()),
        Just("1:20".to_string()),
        Just("<<".to_string()),
        Just("- x".to_string()),
        Just("--- x".to_string()),
        Just("... y".to_string()),
        "\\PC{0,30}",
        "[a-z0-9 :#'\"\\-\\n]{0,40}",
        "[ \\t\\n]{0,4}[a-z]{0,5}[ \\n]{0,3}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| Value::Number(n.into())),
        (-1e6f64..1e6).prop_map(|f| Value::Number(f.into())),
        tricky.prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Sequence),
            proptest::collection::vec(("[a-zA-Z0-9 ._:-]{0,12}", inner), 0..5).prop_map(|kv| {
                Value::Mapping(kv.into_iter().map(|(k, v)| (Value::String(k), v)).collect())
            }),
        ]
    })
}
