//! Options appear only where they work: `--format dot|mermaid` on `graph` alone, `--insecure`
//! on the commands that use a network, and the `registry` subcommands name a package with
//! `--namespace`/`--package` as `graph` does (NAMESPACE/PACKAGE still works).

use crate::support::{Work, assert_code, stderr, stdout};

#[test]
fn drawing_formats_belong_to_graph_and_insecure_to_the_network() {
    let work = Work::sample();
    let help = |cmd: &str| stdout(&work.run(&[cmd, "--help"], &[]));
    assert!(help("graph").contains("mermaid"), "{}", help("graph"));
    for cmd in ["run", "plan", "render", "verify", "publish"] {
        assert!(!help(cmd).contains("mermaid"), "{cmd}: {}", help(cmd));
    }
    for cmd in ["run", "plan", "graph", "publish", "migrate"] {
        assert!(help(cmd).contains("--insecure"), "{cmd}: {}", help(cmd));
    }
    for cmd in ["render", "verify", "next-version", "init", "man"] {
        assert!(!help(cmd).contains("--insecure"), "{cmd}: {}", help(cmd));
    }
    let o = work.run(&["plan", "pipelines/sample.yaml", "--format", "dot"], &[]);
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains("[possible values: human, json]"),
        "{}",
        stderr(&o)
    );

    let o = work.run(&["run", "pipelines/sample.yaml"], &[]);
    assert_code(&o, 0);
    for format in ["dot", "mermaid"] {
        let o = work.run(
            &["graph", "_out/sample-release/bundle", "--format", format],
            &[],
        );
        assert_code(&o, 0);
    }
    // json before or after the command, as before.
    let before = work.run(
        &["--format", "json", "graph", "_out/sample-release/bundle"],
        &[],
    );
    let after = work.run(
        &["graph", "_out/sample-release/bundle", "--format", "json"],
        &[],
    );
    assert_code(&before, 0);
    assert_eq!(stdout(&before), stdout(&after));
    assert!(stdout(&before).starts_with('{'));
}

#[test]
fn registry_subcommands_take_namespace_and_package_flags() {
    let work = Work::sample();
    assert_code(&work.run(&["run", "pipelines/sample.yaml"], &[]), 0);
    let reg = format!("dir:{}", work.path().join("_out/registry").display());
    let r = |args: &[&str]| {
        let mut all = vec!["registry", args[0], "--registry", &reg];
        all.extend_from_slice(&args[1..]);
        work.run(&all, &[])
    };
    let same = |old: &[&str], new: &[&str]| {
        let (a, b) = (r(old), r(new));
        assert_code(&a, 0);
        assert_code(&b, 0);
        assert_eq!(stdout(&a), stdout(&b), "{old:?} vs {new:?}");
        assert!(!stdout(&a).is_empty());
    };
    let flags = ["--namespace", "sample", "--package", "sample-operator"];
    same(&["list", "sample"], &["list", "--namespace", "sample"]);
    let mut show = vec!["show"];
    show.extend(flags);
    same(&["show", "sample/sample-operator"], &show);
    let mut show_default = show.clone();
    show_default.push("default");
    same(
        &["show", "sample/sample-operator", "default"],
        &show_default,
    );

    let out = work.path().join("pulled");
    let out = out.to_str().unwrap();
    let mut pull = vec!["pull", "-o", out];
    pull.extend(flags);
    let o = r(&pull);
    assert_code(&o, 0);
    assert!(work.path().join("pulled/bundle").is_dir());

    let mut delete = vec!["delete"];
    delete.extend(flags);
    let o = r(&delete);
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains("delete needs the exact release"),
        "{}",
        stderr(&o)
    );

    // The package named twice, or not at all: an input error that says how to name it.
    let mut twice = vec!["show", "sample/sample-operator"];
    twice.extend(flags);
    let o = r(&twice);
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains("name the package once"),
        "{}",
        stderr(&o)
    );
    let o = r(&["channels"]);
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains("--namespace NS --package PKG"),
        "{}",
        stderr(&o)
    );
    let o = r(&["show", "--namespace", "sample"]);
    assert_code(&o, 2);
}
