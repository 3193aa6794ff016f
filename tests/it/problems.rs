//! Every problem at once: every unset variable of a pipeline in one run, each with its
//! line, and only where the command reads (`render` never asks for the release's
//! `TRAVIS_REPO_SLUG`); every CRD rendered twice, each with its source files; `plan` and
//! `render` warn about a `--var` the file never reads, as `run` does. Also the pipeline's variants: merged over the file, each checked on every run.

use olm_release::pipeline::{self, Select, Uses, Vars};

use crate::support::{Work, assert_code, stderr, stdout};

/// The sample pipeline, written over with `edit`, in a work folder.
fn sample(edit: impl Fn(String) -> String) -> Work {
    let work = Work::sample();
    let p = work.path().join("pipelines/sample.yaml");
    std::fs::write(&p, edit(std::fs::read_to_string(&p).unwrap())).unwrap();
    work
}

#[test]
fn every_unset_variable_is_named_in_one_run_with_its_line() {
    let work = sample(|t| {
        t.replace("  namespace: sample\n", "  namespace: ${QUAY_NAMESPACE}\n")
            .replace(
                "target: dir:_out/release",
                "target: github:${TRAVIS_REPO_SLUG}",
            )
            .replace("version: ${VERSION:-0.1.0}", "version: ${VERSION}")
    });
    let text = std::fs::read_to_string(work.path().join("pipelines/sample.yaml")).unwrap();
    let line = |needle: &str| text.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let o = work.run(&["plan", "pipelines/sample.yaml"], &[]);
    assert_code(&o, 2);
    let err = stderr(&o);
    for (needle, var) in [
        ("version: ${VERSION}", "VERSION"),
        ("${QUAY_NAMESPACE}", "QUAY_NAMESPACE"),
        ("${TRAVIS_REPO_SLUG}", "TRAVIS_REPO_SLUG"),
    ] {
        let want = format!(
            "pipelines/sample.yaml:{}: variable {var} is not set",
            line(needle)
        );
        assert!(err.contains(&want), "missing {want:?} in\n{err}");
    }
    assert!(err.contains("3 problems; nothing was run:"), "{err}");

    // render reads neither the registry nor the release: only VERSION is asked for.
    let o = work.run(&["render", "pipelines/sample.yaml"], &[]);
    assert_code(&o, 2);
    let err = stderr(&o);
    assert!(err.contains("variable VERSION is not set"), "{err}");
    assert!(
        !err.contains("TRAVIS_REPO_SLUG") && !err.contains("QUAY_NAMESPACE"),
        "{err}"
    );
    let o = work.run(
        &["render", "pipelines/sample.yaml", "--var", "VERSION=0.1.0"],
        &[],
    );
    assert_code(&o, 0);

    // plan and run need only the sections of their stages: without release, no TRAVIS_REPO_SLUG.
    let work = sample(|t| {
        t.replace("target: dir:_out/release", "target: github:${TRAVIS_REPO_SLUG}")
            .replace(
                "stages: [render, fetch-previous, package, verify, push, bundle-image, catalog, release]",
                "stages: [render, fetch-previous, package, verify, push]",
            )
    });
    let o = work.run(&["plan", "pipelines/sample.yaml"], &[]);
    assert_code(&o, 0);
}

#[test]
fn plan_and_render_warn_about_a_var_the_file_never_reads() {
    let work = Work::sample();
    for command in ["plan", "render"] {
        let o = work.run(
            &[command, "pipelines/sample.yaml", "--var", "VERSOIN=0.2.0"],
            &[],
        );
        assert_code(&o, 0);
        assert!(
            stderr(&o).contains("warning: --var VERSOIN: pipelines/sample.yaml never reads ${VERSOIN}, so it changes nothing; did you mean VERSION?"),
            "{command}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn every_crd_rendered_twice_is_named_with_its_files() {
    let work = Work::sample();
    let bundle = work.path().join("fixtures/sample-operator/olm/bundle");
    let crd = std::fs::read_to_string(bundle.join("samples.example.com.crd.yaml")).unwrap();
    std::fs::write(bundle.join("copy.crd.yaml"), &crd).unwrap();
    let other = crd
        .replace("samples.example.com", "gadgets.example.com")
        .replace("plural: samples", "plural: gadgets");
    std::fs::write(bundle.join("gadgets-1.yaml"), &other).unwrap();
    std::fs::write(bundle.join("gadgets-2.yaml"), &other).unwrap();
    let o = work.run(&["render", "pipelines/sample.yaml"], &[]);
    assert_code(&o, 2);
    let err = stderr(&o);
    let b = "fixtures/sample-operator/olm/bundle";
    for want in [
        "2 CRDs are rendered more than once; a bundle holds each CRD once: keep one copy of each:"
            .to_string(),
        format!(
            "CRD samples.example.com is rendered from {b}/copy.crd.yaml and {b}/samples.example.com.crd.yaml"
        ),
        format!(
            "CRD gadgets.example.com is rendered from {b}/gadgets-1.yaml and {b}/gadgets-2.yaml"
        ),
    ] {
        assert!(err.contains(&want), "missing {want:?} in\n{err}");
    }
}

const BASE: &str = "\
name: t
package: p
channel: alpha
version: ${VERSION:-0.1.0}
render:
  templates: olm
  vars: {Tag: v1, Namespace: ns}
registry:
  url: dir:_out/registry
  namespace: ns
release:
  target: dir:_out/release
  tag: v1
stages: [render, package, verify, push, release]
variants:
  alpha:
    package: p-dev
    render: {vars: {Tag: latest}}
    release: null
    stages: [render, package, verify, push]
  named:
    name: other
";

fn vars() -> Vars {
    Vars::default()
}

#[test]
fn a_variant_merges_over_the_file_and_every_variant_is_checked() {
    let select = |variant| Select {
        variant,
        uses: Uses::All,
    };
    let p = pipeline::parse_as("t.yaml", BASE, &vars(), &select(Some("alpha"))).unwrap();
    assert_eq!(
        p.name, "t-alpha",
        "a variant without a name is named after it"
    );
    assert_eq!(p.package.as_deref(), Some("p-dev"));
    let render = p.render.unwrap();
    assert_eq!(render.vars["Tag"], "latest", "one variable replaced");
    assert_eq!(render.vars["Namespace"], "ns", "the others kept");
    assert!(p.release.is_none(), "null removes a section");
    assert_eq!(p.stages.len(), 4, "a list is replaced whole");
    assert!(p.variants.is_empty());
    let p = pipeline::parse_as("t.yaml", BASE, &vars(), &select(Some("named"))).unwrap();
    assert_eq!(p.name, "other");
    let p = pipeline::parse("t.yaml", BASE, &vars()).unwrap();
    assert_eq!((p.name.as_str(), p.package.as_deref()), ("t", Some("p")));

    let err = pipeline::parse_as("t.yaml", BASE, &vars(), &select(Some("beta"))).unwrap_err();
    assert_eq!(
        err.to_string(),
        "t.yaml:15: --variant beta: the pipeline has variants alpha, named"
    );
    // A typo in a variant fails every job, with its line.
    let typo = BASE.replace("    release: null\n", "    relase: null\n");
    let err = pipeline::parse("t.yaml", &typo, &vars()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("t.yaml:19: variants.alpha: unknown field `relase`"),
        "{err}"
    );
}

#[test]
fn run_plan_and_render_take_the_variant() {
    let work = sample(|t| {
        format!("{t}variants:\n  quick:\n    stages: [render, fetch-previous, package, verify]\n")
    });
    let o = work.run(
        &["plan", "pipelines/sample.yaml", "--variant", "quick"],
        &[],
    );
    assert_code(&o, 0);
    let plan = stdout(&o);
    assert!(plan.starts_with("Plan: sample-release-quick —"), "{plan}");
    assert!(!plan.contains(". push"), "{plan}");
    let o = work.run(&["plan", "pipelines/sample.yaml", "--variant", "slow"], &[]);
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains("--variant slow: the pipeline has variants quick"),
        "{}",
        stderr(&o)
    );
}

/// A template variable is one folder: rendered (`render.includes`) or inserted as it is
/// (`render.files`), never both; the plan names the line.
#[test]
fn a_variable_in_both_includes_and_files_is_a_problem_with_its_line() {
    let work = sample(|t| {
        t.replace(
            "  templates: fixtures/sample-operator/olm\n",
            "  templates: fixtures/sample-operator/olm\n  includes:\n    Shared: fixtures\n  files:\n    Shared: fixtures\n",
        )
    });
    let text = std::fs::read_to_string(work.path().join("pipelines/sample.yaml")).unwrap();
    assert!(text.contains("  files:\n    Shared: fixtures\n"), "{text}");
    let line = text
        .lines()
        .enumerate()
        .skip_while(|(_, l)| *l != "  files:")
        .nth(1)
        .map(|(i, _)| i + 1)
        .unwrap();
    let o = work.run(&["plan", "pipelines/sample.yaml"], &[]);
    assert_code(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "pipelines/sample.yaml:{line}: render.files.Shared: Shared is in render.includes too"
        )),
        "{err}"
    );
}

/// A folder of `render.includes` or `render.files` that does not exist is a problem with its
/// line, both named in one run, before anything renders.
#[test]
fn include_and_file_folders_that_do_not_exist_are_problems_with_their_lines() {
    let work = sample(|t| {
        t.replace(
            "  templates: fixtures/sample-operator/olm\n",
            "  templates: fixtures/sample-operator/olm\n  includes:\n    Generated: manifests/generated\n  files:\n    Bundle: bundle/manifests\n",
        )
    });
    let o = work.run(&["plan", "pipelines/sample.yaml"], &[]);
    assert_code(&o, 2);
    let err = stderr(&o);
    for want in [
        "pipelines/sample.yaml:10: render.includes.Generated: ./manifests/generated is not a folder",
        "pipelines/sample.yaml:12: render.files.Bundle: ./bundle/manifests is not a folder",
    ] {
        assert!(err.contains(want), "{want}\n{err}");
    }
}
