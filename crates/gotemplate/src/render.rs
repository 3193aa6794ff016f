//! The entry points: rendering a template with the variables of its data, or with another
//! value as its dot.

use crate::data::Data;
use crate::error::Error;
use crate::value::Value;

/// Renders `text`; `name` names the template in errors.
pub fn render(name: &str, text: &str, data: &Data) -> Result<String, Error> {
    let root = Value::Map(data.vars.clone());
    crate::execute::run(name, text, data, &root, 0)
}

/// Renders `text` with `.` (and `$`) set to `dot` instead of the variables of `data`.
pub fn render_dot(name: &str, text: &str, data: &Data, dot: &Value) -> Result<String, Error> {
    crate::execute::run(name, text, data, dot, 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Functions;

    fn data(pairs: &[(&str, Value)]) -> Data {
        Data {
            vars: pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
            functions: Functions::Go,
        }
    }

    fn s(v: &str) -> Value {
        Value::Str(v.into())
    }

    #[test]
    fn variables_conditions_and_trimming() {
        let d = data(&[("Sha", s("")), ("Tag", s("v1")), ("P", s("reg"))]);
        let t = "image: {{.P}}/op{{if .Sha}}@{{.Sha}}{{else}}:{{.Tag}}{{end}}\n{{- /* c */}}\n";
        assert_eq!(render("t", t, &d).unwrap(), "image: reg/op:v1\n");
        let d = data(&[("Sha", s("sha256:ab")), ("Tag", s("v1")), ("P", s("reg"))]);
        assert_eq!(render("t", t, &d).unwrap(), "image: reg/op@sha256:ab\n");
    }

    #[test]
    fn undefined_variable_names_file_line_and_variable() {
        let e = render("csv.yaml.in", "a: 1\nb: {{.Nope}}\n", &Data::default()).unwrap_err();
        let at = e.location();
        assert_eq!(
            (at.file.as_str(), at.line, at.column),
            ("csv.yaml.in", 2, 6)
        );
        assert!(e.message().contains("\"Nope\""), "{e}");
        assert!(
            e.to_string()
                .contains("executing \"csv.yaml.in\" at <.Nope>"),
            "{e}"
        );
        let e = render("t", "{{if .Missing}}x{{end}}", &Data::default()).unwrap_err();
        assert!(e.message().contains("\"Missing\""), "{e}");
    }

    #[test]
    fn includes_render_their_own_actions() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("inc.yaml.in"),
            "ns: {{.Ns}}\nx: {{.Nope}}\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("ok.yaml.in"), "ns: {{.Ns}}\n").unwrap();
        let d = data(&[
            ("Ns", s("kubevirt")),
            ("G", Value::Files(dir.path().to_path_buf())),
        ]);
        let out = render("t", "a: 1\n{{index .G \"ok.yaml.in\"}}", &d).unwrap();
        assert_eq!(out, "a: 1\nns: kubevirt\n");
        let e = render("t", "{{index .G \"inc.yaml.in\"}}", &d).unwrap_err();
        assert!(
            e.location().file.ends_with("inc.yaml.in") && e.location().line == 2,
            "{e}"
        );
        let e = render("t", "{{index .G \"../x\"}}", &d).unwrap_err();
        assert!(e.message().contains("../x"), "{e}");
        let e = render("t", "{{index .G \"absent\"}}", &d).unwrap_err();
        assert!(matches!(e, Error::Include { .. }), "{e}");
        assert!(std::error::Error::source(&e).is_some());
    }

    #[test]
    fn text_folders_insert_their_files_as_they_are() {
        let dir = tempfile::tempdir().unwrap();
        let crd = "description: resolve `{{ .app.path.path }}` in an ApplicationSet\n";
        std::fs::write(dir.path().join("crd.yaml"), crd).unwrap();
        let d = data(&[
            ("T", Value::Texts(dir.path().to_path_buf())),
            ("G", Value::Files(dir.path().to_path_buf())),
        ]);
        let out = render("t", "a: 1\n{{index .T \"crd.yaml\"}}", &d).unwrap();
        assert_eq!(out, format!("a: 1\n{crd}"));
        // The same file included as a template fails on its text.
        let e = render("t", "{{index .G \"crd.yaml\"}}", &d).unwrap_err();
        assert!(e.message().contains("\"app\""), "{e}");
        // The same rules for names: inside the folder, present.
        let e = render("t", "{{index .T \"../x\"}}", &d).unwrap_err();
        assert!(e.message().contains("../x"), "{e}");
        let e = render("t", "{{index .T \"absent\"}}", &d).unwrap_err();
        assert!(matches!(e, Error::Include { .. }), "{e}");
    }

    #[test]
    fn functions_with_range_and_pipes() {
        let d = data(&[
            ("L", Value::List(vec![s("a"), s("b")])),
            ("N", Value::Int(2)),
        ]);
        let t = r#"{{range .L}}[{{.}}]{{end}} {{len .L}} {{if eq .N 2}}two{{end}} {{"x" | printf "%s-%d" "y" | print}} {{and 1 0}} {{or "" "z"}} {{not .N}}"#;
        assert_eq!(
            render("t", t, &d).unwrap(),
            "[a][b] 2 two y-%!d(string=x) 0 z false"
        );
        let t = r#"{{with .N}}{{.}}{{end}}{{with $.L}}{{index . 1}}{{end}}{{printf "%q %v %%" "a" .N}}"#;
        assert_eq!(render("t", t, &d).unwrap(), "2b\"a\" 2 %");
    }

    #[test]
    fn blocks_follow_the_column_of_their_action() {
        let rules: serde_yaml_ng::Value =
            serde_yaml_ng::from_str("- apiGroups: ['']\n  verbs: [get]\n").unwrap();
        let d = data(&[("Rules", Value::Block(rules.clone()))]);
        for t in [
            "spec:\n  rules:\n{{.Rules}}\n  other: 1\n",
            "spec:\n  rules:\n    {{.Rules}}\n  other: 1\n",
            "spec:\n  rules: {{.Rules}}\n  other: 1\n",
        ] {
            let out = render("t", t, &d).unwrap();
            let v: serde_yaml_ng::Value = serde_yaml_ng::from_str(&out).unwrap();
            assert_eq!(v["spec"]["rules"], rules, "{t}\n{out}");
            assert_eq!(v["spec"]["other"], serde_yaml_ng::Value::from(1));
        }
    }
}
