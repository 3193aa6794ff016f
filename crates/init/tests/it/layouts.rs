//! `init` where it cannot adopt the repository (a folder with no operator, a GitHub repository
//! that is not OWNER/REPO, a write failing part-way) and where it adopts it with a warning (an
//! include no folder holds).
//! The layouts it adopts, and their pipelines run, are the application's tests.

use olm_release_base::{Class, Classified};
use olm_release_init::{Fate, FileFate, InitError, init};

use crate::support::{list_files, put, request, root, said, sample_repo};

#[test]
fn init_says_what_to_do_in_a_folder_without_an_operator() {
    let dir = tempfile::tempdir().unwrap();
    let err = init(&request(dir.path(), None)).unwrap_err();
    assert_eq!(err.class(), Class::Input, "exit 2");
    assert!(matches!(err, InitError::Nothing { .. }), "{err:?}");
    assert!(
        err.to_string()
            .contains("no OLM manifests, CRDs or operator Deployment found"),
        "{err}"
    );
    assert!(list_files(dir.path()).is_empty());
    let mut bad = request(&root().join("fixtures/sample-operator"), Some("nope"));
    bad.out = Some("/nonexistent".into());
    let err = init(&bad).unwrap_err();
    assert_eq!(err.class(), Class::Input, "exit 2");
    assert_eq!(err.to_string(), "--github 'nope' is not OWNER/REPO");
}

#[test]
fn init_names_an_include_no_folder_holds() {
    let repo = sample_repo();
    let r = repo.path();
    put(
        r,
        "olm/sample-preconditions.yaml.in",
        "{{index .Generated \"cluster-critical.yaml\"}}\n",
    );
    let mut asked = request(r, None);
    asked.ci = Some(Vec::new());
    let outcome = init(&asked).unwrap();
    assert!(
        said(&outcome).contains("olm/sample-preconditions.yaml.in includes cluster-critical.yaml ({{index .Generated \"cluster-critical.yaml\"}}), which no folder of the repository holds: render fails until it exists (generate it first, or fix the name)"),
        "{}",
        said(&outcome)
    );
}

#[test]
fn a_write_failing_part_way_keeps_what_was_done_before_it() {
    let repo = sample_repo();
    let r = repo.path();
    // `.github` a file: the workflow's folder cannot be made, after the pipeline and
    // .travis.yml are written.
    put(r, ".github", "not a folder\n");
    let err = init(&request(r, None)).unwrap_err();
    assert_eq!(err.class(), Class::Stage, "exit 1");
    assert!(
        matches!(&err, InitError::Write { path, .. } if path == &r.join(".github/workflows")),
        "{err:?}"
    );
    let so_far = err.outcome_so_far().expect("what was done before");
    assert_eq!(
        so_far.files,
        [
            FileFate {
                path: r.join("pipelines/release.yaml"),
                fate: Fate::Wrote,
            },
            FileFate {
                path: r.join(".travis.yml"),
                fate: Fate::Wrote,
            },
        ]
    );
    assert!(so_far.next_steps.is_empty());
    let lines = so_far.progress_lines();
    assert_eq!(
        lines.first().map(String::as_str),
        Some("found: layout: templates in olm/, bundle in olm/bundle/")
    );
    assert_eq!(
        lines.last().unwrap(),
        &format!("wrote {}", r.join(".travis.yml").display())
    );
}
