//! Pipeline files: strict keys, errors naming file and line, `${VAR}` forms, `--var` overrides,
//! stage order, and URL checks.

use olm_release::pipeline::{self, Vars};
use olm_release_base::Classified as _;

use crate::support::{Work, assert_code, stderr};

const GOOD: &str = "\
name: t
package: p
channel: alpha
version: ${VERSION:-0.1.0}
render:
  templates: olm
registry:
  url: dir:_out/registry
  namespace: ns
stages: [render, package, verify, push]
";

fn vars(env: &[(&str, &str)], overrides: &[(&str, &str)]) -> Vars {
    let map = |p: &[(&str, &str)]| {
        p.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    Vars {
        env: map(env),
        overrides: map(overrides),
    }
}

#[test]
fn expands_defaults_prefixes_and_overrides() {
    let p = pipeline::parse("t.yaml", GOOD, &vars(&[], &[])).unwrap();
    assert_eq!(p.version, "0.1.0");
    let text = GOOD.replace("${VERSION:-0.1.0}", "${TRAVIS_TAG#v}");
    let p = pipeline::parse("t.yaml", &text, &vars(&[("TRAVIS_TAG", "v0.17.0")], &[])).unwrap();
    assert_eq!(p.version, "0.17.0");
    let p = pipeline::parse(
        "t.yaml",
        &text,
        &vars(&[("TRAVIS_TAG", "v0.17.0")], &[("TRAVIS_TAG", "v0.18.1")]),
    )
    .unwrap();
    assert_eq!(p.version, "0.18.1", "--var wins over the environment");
}

#[test]
fn unknown_key_names_file_and_line() {
    let text = GOOD.replace("  namespace: ns\n", "  namespace: ns\n  namespaec: typo\n");
    let err = pipeline::parse("pipelines/x.yaml", &text, &vars(&[], &[])).unwrap_err();
    assert_eq!(err.class().exit_code(), 2);
    assert!(
        err.to_string().starts_with("pipelines/x.yaml:10:"),
        "{}",
        err.to_string()
    );
    assert!(
        err.to_string().contains("unknown field `namespaec`"),
        "{}",
        err.to_string()
    );
}

#[test]
fn wrong_type_and_missing_key_name_the_line() {
    let text = GOOD.replace("stages: [render, package, verify, push]", "stages: render");
    let err = pipeline::parse("x.yaml", &text, &vars(&[], &[])).unwrap_err();
    assert!(
        err.to_string().starts_with("x.yaml:10:"),
        "{}",
        err.to_string()
    );
    let text = GOOD.replace("version: ${VERSION:-0.1.0}\n", "");
    let err = pipeline::parse("x.yaml", &text, &vars(&[], &[])).unwrap_err();
    assert!(
        err.to_string().contains("missing field `version`"),
        "{}",
        err.to_string()
    );
    let text = GOOD.replace(
        "stages: [render, package, verify, push]",
        "stages: [render, publish]",
    );
    let err = pipeline::parse("x.yaml", &text, &vars(&[], &[])).unwrap_err();
    assert!(
        err.to_string().starts_with("x.yaml:10:") && err.to_string().contains("publish"),
        "{}",
        err.to_string()
    );
}

#[test]
fn unset_variable_names_line_and_variable() {
    let text = GOOD.replace("  namespace: ns", "  namespace: ${QUAY_REPOSITORY}");
    let err = pipeline::parse("x.yaml", &text, &vars(&[], &[])).unwrap_err();
    assert_eq!(err.class().exit_code(), 2);
    assert!(
        err.to_string()
            .starts_with("x.yaml:9: variable QUAY_REPOSITORY is not set"),
        "{}",
        err.to_string()
    );
    let text = GOOD.replace("  namespace: ns", "  namespace: ${QUAY_REPOSITORY");
    let err = pipeline::parse("x.yaml", &text, &vars(&[], &[])).unwrap_err();
    assert!(
        err.to_string().starts_with("x.yaml:9: malformed"),
        "{}",
        err.to_string()
    );
}

/// Writes a pipeline into a sample work folder and runs `plan` on it.
fn plan_with(edit: impl Fn(String) -> String) -> std::process::Output {
    let work = Work::sample();
    let p = work.path().join("pipelines/sample.yaml");
    std::fs::write(&p, edit(std::fs::read_to_string(&p).unwrap())).unwrap();
    work.run(&["plan", "pipelines/sample.yaml"], &[])
}

#[test]
fn stage_order_is_checked() {
    let out = plan_with(|t| {
        t.replace(
            "stages: [render, fetch-previous, package, verify, push, bundle-image, catalog, release]",
            "stages: [render, package, push]",
        )
    });
    assert_code(&out, 2);
    assert!(
        stderr(&out).contains("'push' needs 'verify' before it"),
        "{}",
        stderr(&out)
    );
    let out = plan_with(|t| {
        t.replace(
            "stages: [render, fetch-previous, package, verify, push, bundle-image, catalog, release]",
            "stages: [render, render]",
        )
    });
    assert_code(&out, 2);
    assert!(stderr(&out).contains("listed twice"), "{}", stderr(&out));
}

#[test]
fn plain_http_only_on_loopback() {
    let out = plan_with(|t| {
        t.replace(
            "url: dir:_out/registry",
            "url: http://registry.example.com/cnr",
        )
    });
    assert_code(&out, 2);
    assert!(
        stderr(&out).contains("plain http:// on a non-loopback host"),
        "{}",
        stderr(&out)
    );
    let out = plan_with(|t| t.replace("url: dir:_out/registry", "url: http://127.0.0.1:5000/cnr"));
    assert_code(&out, 0);
    let out = plan_with(|t| t.replace("url: dir:_out/registry", "url: ftp://x"));
    assert_code(&out, 2);
}
