//! The engine as a pipeline uses it: typed `render.vars`, the `render.functions: sprig`
//! opt-in, and template errors as the user sees them (exit 2, file:line:column, a caret).

use serde_yaml_ng::Value;

use crate::support::{Work, assert_code, stderr};

const EPOCH: &str = "1554465600";

/// The sample work folder with `extra` appended under `render:` in the pipeline and the
/// template `text` added beside the sample's own templates.
fn work_with(extra: &str, text: &str) -> Work {
    let work = Work::sample();
    let p = work.path().join("pipelines/sample.yaml");
    let pipeline = std::fs::read_to_string(&p).unwrap();
    let pipeline = pipeline.replace("  vars:\n", &format!("{extra}  vars:\n"));
    std::fs::write(&p, pipeline).unwrap();
    std::fs::write(
        work.path()
            .join("fixtures/sample-operator/olm/extra.yaml.in"),
        text,
    )
    .unwrap();
    work
}

#[test]
fn typed_vars_can_be_ranged_over_and_sprig_is_opt_in() {
    let extra = "  functions: sprig\n";
    let vars = "  vars:\n    Images: {operator: quay.io/op:v1, api: quay.io/api:v1}\n    Channels: [alpha, stable]\n    Replicas: 3\n    Debug: false\n";
    let text = "kind: ConfigMap\napiVersion: v1\nmetadata: {name: extra}\ndata:\n{{- range $name, $image := .Images}}\n  {{$name}}: {{quote $image}}\n{{- end}}\n  channels: {{join \",\" .Channels | quote}}\n  replicas: {{add1 .Replicas}}\n";
    let work = work_with(extra, text);
    let p = work.path().join("pipelines/sample.yaml");
    let pipeline = std::fs::read_to_string(&p)
        .unwrap()
        .replacen("  vars:\n", vars, 1);
    std::fs::write(&p, &pipeline).unwrap();
    let run = |out: &str| {
        work.run(
            &["render", "pipelines/sample.yaml", "--out", out],
            &[("SOURCE_DATE_EPOCH", EPOCH)],
        )
    };
    // `add1` is sprig's but not in the subset: unknown, as in Go without it.
    let o = run("out");
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains("function \"add1\" not defined"),
        "{}",
        stderr(&o)
    );

    let t = work
        .path()
        .join("fixtures/sample-operator/olm/extra.yaml.in");
    let fixed = text.replace(
        "{{add1 .Replicas}}",
        "{{.Replicas}}{{if not .Debug}} # no debug{{end}}",
    );
    std::fs::write(&t, fixed).unwrap();
    let o = run("out");
    assert_code(&o, 0);
    let out = std::fs::read_to_string(work.path().join("out/extra.yaml")).unwrap();
    assert_eq!(
        out,
        "kind: ConfigMap\napiVersion: v1\nmetadata: {name: extra}\ndata:\n  api: \"quay.io/api:v1\"\n  operator: \"quay.io/op:v1\"\n  channels: \"alpha,stable\"\n  replicas: 3 # no debug\n"
    );
    let doc: Value = serde_yaml_ng::from_str(&out).unwrap();
    assert_eq!(doc["data"]["replicas"], Value::from(3));

    // Without the opt-in, `quote` is an unknown function.
    std::fs::write(&p, pipeline.replace(extra, "")).unwrap();
    let o = run("out2");
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains("function \"quote\" not defined"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_unknown_functions_value_is_an_input_error() {
    let work = work_with("  functions: jinja\n", "a: 1\n");
    let o = work.run(&["render", "pipelines/sample.yaml", "--out", "out"], &[]);
    assert_code(&o, 2);
    assert!(stderr(&o).contains("jinja"), "{}", stderr(&o));
}

#[test]
fn a_syntax_error_reads_like_go_with_line_column_and_caret() {
    let work = work_with("", "a: 1\nimage: {{ .Namespace }\n");
    let o = work.run(&["render", "pipelines/sample.yaml", "--out", "out"], &[]);
    assert_code(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains(
            "fixtures/sample-operator/olm/extra.yaml.in:2:22: unexpected \"}\" in operand"
        ),
        "{err}"
    );
    assert!(
        err.contains("   2 | image: {{ .Namespace }\n     |                      ^"),
        "{err}"
    );
}

#[test]
fn a_missing_key_names_file_line_column_and_the_fix() {
    let work = work_with("", "a: 1\nb: {{ .Nested.Name }}\n");
    let o = work.run(&["render", "pipelines/sample.yaml", "--out", "out"], &[]);
    assert_code(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains("extra.yaml.in:2:7: executing")
            && err.contains("map has no entry for key \"Nested\" (define it under render.vars"),
        "{err}"
    );
}
