//! The bundle writer's YAML reads back identically in PyYAML (YAML 1.1, what operator-courier
//! and Marketplace tooling use): strings that YAML 1.1 would take for booleans, dates or numbers
//! stay strings.

use serde_yaml_ng::Value;

use crate::support::peer;

#[test]
fn pyyaml_reads_every_tricky_string_as_a_string() {
    let Some(python) = peer("COURIER_PYTHON") else {
        return;
    };
    let tricky = [
        "yes",
        "no",
        "on",
        "off",
        "y",
        "n",
        "Y",
        "true",
        "null",
        "~",
        "2019-04-05",
        "1970-01-01T00:00:00Z",
        "0.10",
        "1.0.0",
        "0755",
        "0x1f",
        "1_000",
        "1:20",
        "1e3",
        ".inf",
        "<<",
        "=",
        "--- x",
        "- x",
        "a: b",
        "#c",
        "multi\nline\n",
        "  lead",
        "trail ",
        "tab\there",
        "quote'd",
        "\"dq\"",
    ];
    let mut map = serde_yaml_ng::Mapping::new();
    for (i, s) in tricky.iter().enumerate() {
        map.insert(Value::String(format!("k{i}")), Value::String(s.to_string()));
        map.insert(
            Value::String(s.to_string()),
            Value::String(format!("as key {i}")),
        );
    }
    let text = olm_release_base::yaml::to_string(&Value::Mapping(map.clone()));
    let out = std::process::Command::new(python)
        .args([
            "-c",
            "import sys, json, yaml; print(json.dumps(yaml.safe_load(sys.stdin.read())))",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(text.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success(), "PyYAML failed on:\n{text}");
    let back: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for (i, s) in tricky.iter().enumerate() {
        assert_eq!(
            back[format!("k{i}")],
            serde_json::json!(s),
            "value {s:?} in\n{text}"
        );
        assert_eq!(
            back[*s],
            serde_json::json!(format!("as key {i}")),
            "key {s:?} in\n{text}"
        );
    }
}
