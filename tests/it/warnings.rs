//! Warnings where a release is probably wrong, though nothing stops it.

use crate::support::{Work, assert_code, stderr};

const SAMPLE: &str = "pipelines/sample.yaml";

#[test]
fn a_first_release_past_the_first_minor_names_what_the_namespace_has() {
    let work = Work::sample();
    // Nothing at all in the namespace.
    let o = work.run(
        &["run", SAMPLE, "--dry-run", "--var", "VERSION=0.22.0"],
        &[],
    );
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains(
            "warning: first release of sample/sample-operator at version 0.22.0: no earlier release was found at sample/sample-operator (namespace sample has no packages)"
        ),
        "{}",
        stderr(&o)
    );
    // A usual first version: no warning.
    let o = work.run(&["run", SAMPLE], &[]);
    assert_code(&o, 0);
    assert!(
        !stderr(&o).contains("warning: first release"),
        "{}",
        stderr(&o)
    );
    // A misspelt package: the namespace's packages are listed.
    let text = std::fs::read_to_string(work.path().join(SAMPLE)).unwrap();
    std::fs::write(
        work.path().join("pipelines/typo.yaml"),
        text.replace("package: sample-operator ", "package: sample-operatr "),
    )
    .unwrap();
    let o = work.run(
        &[
            "run",
            "pipelines/typo.yaml",
            "--dry-run",
            "--var",
            "VERSION=0.22.0",
        ],
        &[],
    );
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains("(namespace sample has 1 package: sample-operator)"),
        "{}",
        stderr(&o)
    );
    // A namespace of hundreds: a few names, the nearest first, and the count.
    let ns = work.path().join("_out/registry/sample");
    for i in 0..400 {
        let dir = ns.join(format!("a-package-{i:03}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(
            ns.join("sample-operator/releases.json"),
            dir.join("releases.json"),
        )
        .unwrap();
    }
    let o = work.run(
        &[
            "run",
            "pipelines/typo.yaml",
            "--dry-run",
            "--var",
            "VERSION=0.22.0",
        ],
        &[],
    );
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains(
            "(namespace sample has 401 packages: sample-operator, a-package-000, a-package-001, a-package-002, a-package-003 and 396 more)"
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_image_not_at_the_release_tag_warns_on_a_tagged_release() {
    let work = Work::sample();
    // At the release's tag: no warning.
    let o = work.run(&["run", SAMPLE, "--dry-run"], &[]);
    assert_code(&o, 0);
    assert!(!stderr(&o).contains("warning: image"), "{}", stderr(&o));
    let text = std::fs::read_to_string(work.path().join(SAMPLE)).unwrap();
    let at = "DockerTag: v${VERSION:-0.1.0}";
    assert!(text.contains(at), "the sample pipeline changed");
    std::fs::write(
        work.path().join("pipelines/latest.yaml"),
        text.replace(at, "DockerTag: latest"),
    )
    .unwrap();
    let o = work.run(&["run", "pipelines/latest.yaml", "--dry-run"], &[]);
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains(
            "warning: image quay.io/example/sample-operator:latest in the CSV still points at latest, not at this release's tag v0.1.0"
        ),
        "{}",
        stderr(&o)
    );
    // Another tag, named by the CI's tag.
    std::fs::write(
        work.path().join("pipelines/other.yaml"),
        text.replace(at, "DockerTag: v0.0.9"),
    )
    .unwrap();
    let o = work.run(
        &["run", "pipelines/other.yaml", "--dry-run"],
        &[("TRAVIS", "true"), ("TRAVIS_TAG", "v0.1.0")],
    );
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains(
            "sample-operator:v0.0.9 in the CSV is at tag v0.0.9, not at this release's tag v0.1.0"
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_var_the_pipeline_never_reads_warns_with_the_closest_name() {
    let work = Work::sample();
    let o = work.run(&["run", SAMPLE, "--dry-run", "--var", "VERSOIN=0.2.0"], &[]);
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains(
            "warning: --var VERSOIN: pipelines/sample.yaml never reads ${VERSOIN}, so it changes nothing; did you mean VERSION?"
        ),
        "{}",
        stderr(&o)
    );
    let o = work.run(&["run", SAMPLE, "--dry-run", "--var", "VERSION=0.2.0"], &[]);
    assert_code(&o, 0);
    assert!(!stderr(&o).contains("warning: --var"), "{}", stderr(&o));
}
