//! `graph` draws upgrade graphs as text, dot and mermaid (from a bundle or a registry), and the
//! CLI's generated artefacts (completions, man page, next alpha version) work.

use crate::support::{Work, assert_code, stdout};

/// A work folder where 0.1.0 and 0.2.0 of the sample are published.
fn two_releases() -> Work {
    let work = Work::sample();
    assert_code(&work.run(&["-q", "run", "pipelines/sample.yaml"], &[]), 0);
    assert_code(
        &work.run(
            &[
                "-q",
                "run",
                "pipelines/sample.yaml",
                "--var",
                "VERSION=0.2.0",
            ],
            &[],
        ),
        0,
    );
    work
}

#[test]
fn text_dot_and_mermaid_show_the_channel_chain() {
    let work = two_releases();
    let text = stdout(&work.run(&["graph", "_out/sample-release/bundle"], &[]));
    assert!(text.contains("channel alpha (default)"), "{text}");
    let head = text
        .find("● sample-operator.v0.2.0 (0.2.0)  ← head")
        .expect("head first");
    let tail = text
        .find("↑ sample-operator.v0.1.0 (0.1.0)")
        .expect("then its predecessor");
    assert!(head < tail);

    let dot = stdout(&work.run(
        &[
            "graph",
            "_out/sample-release/sample-operator-0.2.0.tar.gz",
            "--format",
            "dot",
        ],
        &[],
    ));
    assert!(dot.starts_with("digraph \"sample-operator\" {"), "{dot}");
    assert!(
        dot.contains(
            "\"sample-operator.v0.2.0\" -> \"sample-operator.v0.1.0\" [label=\"replaces\"];"
        ),
        "{dot}"
    );
    assert!(
        dot.contains("\"channel:alpha\" -> \"sample-operator.v0.2.0\";"),
        "{dot}"
    );
    assert!(
        dot.contains("[label=\"sample-operator.v0.1.0\\n0.1.0\"]"),
        "labels break lines with \\n: {dot}"
    );
    assert!(dot.trim_end().ends_with('}'));

    let args = [
        "graph",
        "--registry",
        "dir:_out/registry",
        "--namespace",
        "sample",
        "--package",
        "sample-operator",
        "--format",
        "mermaid",
    ];
    let mermaid = stdout(&work.run(&args, &[]));
    assert!(mermaid.starts_with("graph RL\n"), "{mermaid}");
    assert!(
        mermaid.contains("csv0[\"sample-operator.v0.2.0<br/>0.2.0\"]"),
        "{mermaid}"
    );
    assert!(mermaid.contains("ch0([\"alpha\"]) --> csv0"), "{mermaid}");
    assert!(mermaid.contains("csv0 -->|replaces| csv1"), "{mermaid}");

    let json: serde_json::Value = serde_json::from_str(&stdout(&work.run(
        &["graph", "_out/sample-release/bundle", "--format", "json"],
        &[],
    )))
    .unwrap();
    assert_eq!(
        json["channels"][0]["chain"],
        serde_json::json!(["sample-operator.v0.2.0", "sample-operator.v0.1.0"])
    );
}

#[test]
fn graph_formats_only_apply_to_graph() {
    let work = Work::sample();
    assert_code(
        &work.run(&["--format", "dot", "plan", "pipelines/sample.yaml"], &[]),
        2,
    );
    assert_code(&work.run(&["graph"], &[]), 2);
}

#[test]
fn next_version_orders_alpha_builds() {
    let work = Work::sample();
    let out = work.run(&["next-version", "--last", "v0.22.0", "--build", "41"], &[]);
    assert_code(&out, 0);
    assert_eq!(stdout(&out).trim(), "0.23.0-alpha.41");
    // From the newest tag of a git checkout.
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .current_dir(work.path())
            .args(args)
            .output()
            .unwrap()
            .status
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"]);
    git(&[
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@e",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "x",
    ]);
    git(&["tag", "v0.9.0"]);
    git(&["tag", "v0.10.1"]);
    git(&["tag", "not-a-version"]);
    let out = work.run(&["next-version", "--build", "3"], &[]);
    assert_code(&out, 0);
    assert_eq!(stdout(&out).trim(), "0.11.0-alpha.3");
}

#[test]
fn completions_and_man_page_come_from_the_cli_definition() {
    let work = Work::sample();
    let bash = stdout(&work.run(&["completions", "bash"], &[]));
    for word in ["olm-release", "--dry-run", "next-version", "graph"] {
        assert!(bash.contains(word), "bash completion knows {word}");
    }
    let man = stdout(&work.run(&["man"], &[]));
    assert!(man.contains(".TH olm-release 1"), "{man}");
    assert!(man.contains("run") && man.contains("verify"));
}
