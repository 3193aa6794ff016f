//! Go `text/template` compatible rendering of `.yaml.in` files.
//!
//! Operators that released through app registries in 2019 (KubeVirt first among them) wrote
//! their OLM manifests as Go templates, so this engine reads that syntax: `{{.Var}}`, field
//! chains, `{{if}}/{{else if}}/{{else}}/{{end}}`, `{{with}}`, `{{range}}`, pipelines, comments,
//! `{{-`/`-}}` trimming and the built-in functions manifests use (`index`, `not`, `and`, `or`,
//! `eq`, `ne`, `len`, `print`, `printf`). It is split into [`lexer`] (text → actions and
//! tokens), [`parser`] (tokens → tree) and [`exec`] (tree + data → text).
//!
//! Two rules differ from Go on purpose. First, an undefined variable is always an error that
//! names the file, the line and the variable (Go's default prints `<no value>`). Second, values
//! of kind [`Value::Block`] are structured YAML printed at the indentation where the action
//! stands ([`block`]), so a placeholder for a rules list or a Deployment spec works at any
//! column instead of only the one its text was pre-indented for.
//!
//! Includes: a [`Value::Files`] value names a folder; `{{index .GeneratedManifests "FILE"}}`
//! reads that file and renders it as a template with the same data. KubeVirt's templater did
//! this in two passes over the whole text (includes first, then variables); rendering the
//! included file on its own gives the same text for includes that start a line, as all of
//! KubeVirt's do, and lets an error name the included file and its own line.

pub mod block;
pub mod exec;
pub mod funcs;
pub mod lexer;
pub mod parser;

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

/// A template value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Str(String),
    Bool(bool),
    Int(i64),
    /// Structured YAML, printed re-indented to where the action stands.
    Block(serde_yaml_ng::Value),
    List(Vec<Value>),
    Map(BTreeMap<String, Value>),
    /// A folder whose files `index` includes, rendered as templates with the same data.
    Files(PathBuf),
    Nil,
}

/// The data a template sees: `.Name` reads `vars["Name"]`.
#[derive(Debug, Clone, Default)]
pub struct Data {
    pub vars: BTreeMap<String, Value>,
}

impl Data {
    /// Sets a string variable.
    pub fn set_str(&mut self, name: &str, value: impl Into<String>) {
        self.vars.insert(name.to_string(), Value::Str(value.into()));
    }
}

/// A template error: the file, the 1-based line and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub file: String,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for Error {}

/// Most nested includes allowed (a file including itself would otherwise never end).
const MAX_DEPTH: usize = 8;

/// Renders `text`; `name` names the template in errors.
pub fn render(name: &str, text: &str, data: &Data) -> Result<String, Error> {
    let root = Value::Map(data.vars.clone());
    render_in(name, text, &root, 0)
}

/// Renders with an already built root value, at include depth `depth`.
fn render_in(name: &str, text: &str, root: &Value, depth: usize) -> Result<String, Error> {
    let err = |(line, message): (usize, String)| Error {
        file: name.to_string(),
        line,
        message,
    };
    if depth > MAX_DEPTH {
        return Err(err((
            1,
            format!("includes nested more than {MAX_DEPTH} deep (does a file include itself?)"),
        )));
    }
    let pieces = lexer::lex(text).map_err(err)?;
    let nodes = parser::parse(pieces).map_err(err)?;
    let mut out = String::with_capacity(text.len());
    exec::Exec {
        file: name,
        root,
        depth,
    }
    .run(&nodes, root, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(pairs: &[(&str, Value)]) -> Data {
        Data {
            vars: pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
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
        assert_eq!((e.file.as_str(), e.line), ("csv.yaml.in", 2));
        assert!(e.message.contains(".Nope"), "{e}");
        let e = render("t", "{{if .Missing}}x{{end}}", &Data::default()).unwrap_err();
        assert!(e.message.contains(".Missing"), "{e}");
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
        assert!(e.file.ends_with("inc.yaml.in") && e.line == 2, "{e}");
        let e = render("t", "{{index .G \"../x\"}}", &d).unwrap_err();
        assert!(e.message.contains("../x"), "{e}");
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
