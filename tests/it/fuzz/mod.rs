//! Property tests ("fuzzing" with a bounded case count, so CI time stays bounded): the pipeline
//! file parser, the `${VAR}` expander and the bundle reader never panic on arbitrary input, and
//! what they accept round-trips. `PROPTEST_CASES` raises the count for a longer local run.

mod readers;

use olm_release::pipeline::{self, Vars, interpolate};
use olm_release_base::Classified as _;
use olm_release_olm::archive::{self, Limits};
use proptest::prelude::*;

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

const PIPELINE: &str = "name: t\npackage: p\nchannel: alpha\nversion: ${VERSION:-0.1.0}\nrender:\n  templates: olm\nregistry:\n  url: dir:_out/registry\n  namespace: ns\nstages: [render, package, verify, push]\n";

proptest! {
    #![proptest_config(config())]

    #[test]
    fn pipeline_parser_never_panics(text in "\\PC{0,400}") {
        let _ = pipeline::parse("fuzz.yaml", &text, &Vars::default());
    }

    #[test]
    fn pipeline_parser_survives_mutations(pos in 0usize..PIPELINE.len(), insert in "[ :\\-\\[\\]{}$#&*!|>'\"\\n\\ta-z0-9]{0,12}", cut in 0usize..8) {
        let mut text = PIPELINE.to_string();
        let pos = (0..=pos).rev().find(|p| text.is_char_boundary(*p)).unwrap_or(0);
        let end = (pos + cut).min(text.len());
        let end = (end..=text.len()).find(|p| text.is_char_boundary(*p)).unwrap_or(text.len());
        text.replace_range(pos..end, &insert);
        if let Err(e) = pipeline::parse("fuzz.yaml", &text, &Vars::default()) {
            prop_assert!(e.to_string().starts_with("fuzz.yaml"), "errors name the file: {}", e.to_string());
            prop_assert_eq!(e.class().exit_code(), 2);
        }
    }

    #[test]
    fn expander_never_panics_and_is_identity_without_dollars(text in "\\PC{0,200}") {
        let vars = Vars::default();
        let expanded = interpolate::expand(&text, &vars);
        if !text.contains('$') {
            prop_assert_eq!(expanded.unwrap(), text);
        }
    }

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

fn template_data() -> olm_release_gotemplate::Data {
    use olm_release_gotemplate::{Data, Value};
    let mut d = Data::default();
    d.set_str("Name", "x");
    d.vars.insert("Flag".into(), Value::Bool(true));
    d.vars.insert("N".into(), Value::Int(3));
    d.vars.insert(
        "Rules".into(),
        Value::Block(serde_yaml_ng::from_str("- a: 1\n- b: [x, y]\n").unwrap()),
    );
    d.vars.insert(
        "L".into(),
        Value::List(vec![Value::Str("a".into()), Value::Nil]),
    );
    d
}

proptest! {
    #![proptest_config(config())]

    /// The template renderer never panics: arbitrary text, and text built from the action
    /// vocabulary the KubeVirt templates use, either renders or fails with a located error.
    #[test]
    fn template_renderer_never_panics(text in "\\PC{0,200}") {
        let _ = olm_release_gotemplate::render("fuzz.yaml.in", &text, &template_data());
    }

    #[test]
    fn template_renderer_survives_action_soup(parts in proptest::collection::vec(prop_oneof![
        Just("{{".to_string()), Just("}}".to_string()), Just("{{-".to_string()), Just("-}}".to_string()),
        Just("{{.Name}}".to_string()), Just("{{.Missing}}".to_string()), Just("{{if .Flag}}".to_string()),
        Just("{{else}}".to_string()), Just("{{end}}".to_string()), Just("{{range .L}}".to_string()),
        Just("{{with .N}}".to_string()), Just("{{index .L 1}}".to_string()), Just("{{.Rules}}".to_string()),
        Just("{{/* c */}}".to_string()), Just("{{printf \"%s\" .Name}}".to_string()), Just("|".to_string()),
        Just("\n  ".to_string()), Just("key: ".to_string()), Just("\"".to_string()), Just("(".to_string()),
        "[a-z .:-]{0,6}",
    ], 0..24)) {
        let text: String = parts.concat();
        if let Err(e) = olm_release_gotemplate::render("soup.yaml.in", &text, &template_data()) {
            let msg = e.to_string();
            prop_assert!(msg.contains("soup.yaml.in"), "errors name the file: {}", msg);
        }
    }
}
