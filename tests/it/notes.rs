//! Integration tests: the release notes (`release.notes`) through the real binary — the GitHub
//! release's body on create and its update on a re-run (against the in-process fake), the
//! `dir:` target's `NOTES.md` (the changelog section, the semantic summary), `none`, and the
//! plan problems of a missing file or summary without fetch-previous.

use std::process::Output;

use crate::github_fake::{Fake, TOKEN};
use crate::support::{self, Work, assert_code, stderr};

const CHANGELOG: &str = "# Changelog\n\n## [Unreleased]\n\n- later\n\n## [0.1.0] - 2019-06-01\n\n### Added\n- The sample operator.\n\n## [0.0.9]\n- older\n";

/// `run pipelines/gh.yaml` (the sample rendered, released to the fake) off the runtime.
async fn run_gh(work: &Work, extra: &[&str]) -> Output {
    let dir = work.path().to_path_buf();
    let mut args = vec!["run".to_string(), "pipelines/gh.yaml".to_string()];
    args.extend(extra.iter().map(|s| s.to_string()));
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        support::olm_release(&dir, &args, &[("GITHUB_TOKEN", TOKEN)])
    })
    .await
    .unwrap()
}

fn gh_pipeline(work: &Work, api: &str, extra: &str) {
    let options = r#"retry_delay_ms: "5", retries: "2""#;
    crate::github::write_pipeline(work, api, options, extra);
}

fn body(fake: &Fake) -> Option<String> {
    fake.world().release("v0.1.0").and_then(|r| r.body.clone())
}

fn body_patches(fake: &Fake) -> usize {
    // Publishing is a PATCH too; count the ones after the create that carry notes by effect.
    fake.world()
        .requests("PATCH /repos/acme/sample-operator/releases/")
        .len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn github_body_is_the_changelog_section_and_updated_only_when_it_changes() {
    let fake = Fake::start(false).await;
    let work = Work::sample();
    std::fs::write(work.path().join("CHANGELOG.md"), CHANGELOG).unwrap();
    gh_pipeline(&work, &fake.api, "");
    let o = run_gh(&work, &[]).await;
    assert_code(&o, 0);
    assert_eq!(
        body(&fake).as_deref(),
        Some("### Added\n- The sample operator.\n")
    );
    // Create (as a draft, with the body) and publish: one PATCH.
    assert_eq!(body_patches(&fake), 1, "{:#?}", fake.world().log);

    // A re-run with the same notes writes nothing.
    let o = run_gh(&work, &[]).await;
    assert_code(&o, 0);
    assert_eq!(body_patches(&fake), 1, "{:#?}", fake.world().log);
    assert!(!stderr(&o).contains("release notes"), "{}", stderr(&o));

    // Changed notes: a dry-run says it would update them, a run updates them.
    std::fs::write(
        work.path().join("CHANGELOG.md"),
        CHANGELOG.replace("The sample operator.", "The sample operator, fixed."),
    )
    .unwrap();
    let o = run_gh(&work, &["--dry-run"]).await;
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains("dry-run: skipped update the release notes of v0.1.0"),
        "{}",
        stderr(&o)
    );
    assert_eq!(body_patches(&fake), 1);
    let o = run_gh(&work, &[]).await;
    assert_code(&o, 0);
    assert_eq!(body_patches(&fake), 2, "{:#?}", fake.world().log);
    assert_eq!(
        body(&fake).as_deref(),
        Some("### Added\n- The sample operator, fixed.\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn github_notes_none_sends_no_body_and_leaves_one_alone() {
    let fake = Fake::start(false).await;
    let work = Work::sample();
    std::fs::write(work.path().join("CHANGELOG.md"), CHANGELOG).unwrap();
    gh_pipeline(&work, &fake.api, "  notes: none\n");
    let o = run_gh(&work, &[]).await;
    assert_code(&o, 0);
    assert_eq!(body(&fake), None);
    // A body written by hand stays.
    fake.world().releases[0].body = Some("by hand".into());
    let o = run_gh(&work, &[]).await;
    assert_code(&o, 0);
    assert_eq!(body(&fake).as_deref(), Some("by hand"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn github_notes_from_a_file() {
    let fake = Fake::start(false).await;
    let work = Work::sample();
    std::fs::create_dir_all(work.path().join("docs")).unwrap();
    std::fs::write(work.path().join("docs/notes.md"), "Hand-written notes.\n").unwrap();
    gh_pipeline(&work, &fake.api, "  notes: docs/notes.md\n");
    let o = support::olm_release(
        work.path(),
        &["plan", "pipelines/gh.yaml", "--dry-run"],
        &[],
    );
    assert_code(&o, 0);
    assert!(
        support::stdout(&o).contains("notes: file docs/notes.md (\"Hand-written notes.\")"),
        "{}",
        support::stdout(&o)
    );
    let o = run_gh(&work, &[]).await;
    assert_code(&o, 0);
    assert_eq!(body(&fake).as_deref(), Some("Hand-written notes.\n"));
}

#[test]
fn a_missing_notes_file_or_summary_without_fetch_previous_is_a_plan_problem() {
    let work = Work::sample();
    let dir = tempfile::tempdir().unwrap();
    crate::github::write_pipeline(&work, "http://127.0.0.1:9", "", "  notes: chnagelog\n");
    let o = work.run(&["run", "pipelines/gh.yaml"], &[("GITHUB_TOKEN", TOKEN)]);
    assert_code(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains(
            "pipelines/gh.yaml:21: release.notes: 'chnagelog' is not changelog, summary or none"
        ),
        "{err}"
    );
    assert!(!work.path().join("_out").exists(), "nothing may be written");
    crate::github::write_pipeline(&work, "http://127.0.0.1:9", "", "  notes: summary\n");
    let o = work.run(&["plan", "pipelines/gh.yaml"], &[]);
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains("release.notes: summary needs the fetch-previous stage"),
        "{}",
        stderr(&o)
    );
    drop(dir);
}

/// The sample pipeline (dir: registry and release target), at `version`.
fn sample(work: &Work, version: &str) -> Output {
    let var = format!("VERSION={version}");
    work.run(&["run", "pipelines/sample.yaml", "--var", &var], &[])
}

fn notes_md(work: &Work, tag: &str) -> String {
    std::fs::read_to_string(work.path().join("_out/release").join(tag).join("NOTES.md"))
        .unwrap_or_else(|e| panic!("NOTES.md of {tag}: {e}"))
}

#[test]
fn dir_target_writes_the_summary_as_notes_md_idempotently() {
    let work = Work::sample();
    let o = sample(&work, "0.1.0");
    assert_code(&o, 0);
    assert_eq!(
        notes_md(&work, "v0.1.0"),
        "First release of sample-operator: sample-operator.v0.1.0 starts channel alpha.\n"
    );
    let o = sample(&work, "0.2.0");
    assert_code(&o, 0);
    let notes = notes_md(&work, "v0.2.0");
    assert!(
        notes.starts_with(
            "Changes since sample-operator.v0.1.0, the previous head of channel alpha (release 0.1.0):\n\n```\n"
        ),
        "{notes}"
    );
    assert!(notes.contains("version       0.1.0 → 0.2.0"), "{notes}");
    assert!(notes.contains("replaces"), "{notes}");
    // A re-run keeps the notes as they are.
    let o = sample(&work, "0.2.0");
    assert_code(&o, 0);
    assert!(
        !stderr(&o).contains("published release notes"),
        "{}",
        stderr(&o)
    );
    assert_eq!(notes_md(&work, "v0.2.0"), notes);
}

#[test]
fn dir_target_takes_the_changelog_section_or_falls_back_with_a_note() {
    let work = Work::sample();
    std::fs::write(work.path().join("CHANGELOG.md"), CHANGELOG).unwrap();
    let o = work.run(&["plan", "pipelines/sample.yaml"], &[]);
    assert_code(&o, 0);
    assert!(
        support::stdout(&o).contains("notes: CHANGELOG.md section 0.1.0 (\"### Added\")"),
        "{}",
        support::stdout(&o)
    );
    let o = sample(&work, "0.1.0");
    assert_code(&o, 0);
    assert_eq!(
        notes_md(&work, "v0.1.0"),
        "### Added\n- The sample operator.\n"
    );
    // No section for 0.2.0: the summary, and the plan says so.
    let o = sample(&work, "0.2.0");
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains("CHANGELOG.md has no section for 0.2.0; the semantic summary instead"),
        "{}",
        stderr(&o)
    );
    assert!(notes_md(&work, "v0.2.0").starts_with("Changes since sample-operator.v0.1.0"));
}
