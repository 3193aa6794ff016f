//! Property tests ("fuzzing" with a bounded case count; `PROPTEST_CASES` raises it): the
//! template renderer never panics, and its errors name the file.

use olm_release_testsupport::fuzz::config;
use proptest::prelude::*;

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
