//! Output a program can rely on: the JSON summary matches `schemas/summary.v1.json` for every
//! outcome (success, conflict, wrong input before and after the plan exists, a refused command
//! line), with typed fields; `-q` prints the summary and errors only; a closed pipe ends
//! quietly; retry notes reach the user on every command, once each.

use std::io::Read;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::quay_fake::{self, FaultKind, Route};
use crate::support::{Work, assert_code, root, stderr, stdout};

const SAMPLE: &str = "pipelines/sample.yaml";

/// Checks `doc` against the summary schema, listing every violation.
#[track_caller]
pub fn assert_summary(doc: &Value) {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("schemas/summary.v1.json")).unwrap(),
    )
    .unwrap();
    let errors = crate::schema_check::check(&schema, doc);
    assert!(errors.is_empty(), "{errors:#?}\nin\n{doc:#}");
}

fn json(o: &std::process::Output) -> Value {
    serde_json::from_str(&stdout(o))
        .unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}):\n{}", stdout(o)))
}

#[test]
fn the_json_summary_matches_its_schema_for_every_outcome() {
    let work = Work::sample();
    // Success: typed decision, channel head, writes with digests.
    let ok = work.run(&["--format", "json", "run", SAMPLE], &[]);
    assert_code(&ok, 0);
    let doc = json(&ok);
    assert_summary(&doc);
    assert_eq!(doc["outcome"], "ok");
    assert_eq!(doc["decision"]["kind"], "first");
    assert_eq!(doc["channel_head"], "sample-operator.v0.1.0");
    let bundle = &doc["published"][0];
    assert!(
        bundle["what"]
            .as_str()
            .unwrap()
            .starts_with("bundle release 0.1.0")
    );
    assert_eq!(bundle["digest"].as_str().unwrap().len(), 64);

    // The next version: replaces, as data.
    let next = work.run(
        &[
            "--format",
            "json",
            "run",
            SAMPLE,
            "--var",
            "VERSION=0.2.0",
            "--dry-run",
        ],
        &[],
    );
    assert_code(&next, 0);
    let doc = json(&next);
    assert_summary(&doc);
    assert_eq!(doc["decision"]["kind"], "replaces");
    assert_eq!(doc["decision"]["head"], "sample-operator.v0.1.0");
    assert_eq!(doc["decision"]["head_release"], "0.1.0");

    // A conflict: exit 1, the error with its class.
    let p = work.path().join(SAMPLE);
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, text.replace("Namespace: sample", "Namespace: other")).unwrap();
    let conflict = work.run(&["--format", "json", "run", SAMPLE], &[]);
    assert_code(&conflict, 1);
    let doc = json(&conflict);
    assert_summary(&doc);
    assert_eq!(
        (doc["outcome"].as_str(), doc["exit_code"].as_i64()),
        (Some("failed"), Some(1))
    );
    assert_eq!(doc["error"]["class"], "stage");
    assert!(
        doc["error"]["message"]
            .as_str()
            .unwrap()
            .contains("already published with different content")
    );
    assert_eq!(doc["stages"][4]["status"], "failed");

    // Wrong input before a plan exists, from the plan's checks, and on the command line.
    for (args, needle) in [
        (
            vec!["run", "pipelines/none.yaml"],
            "cannot read the pipeline file",
        ),
        (
            vec!["run", SAMPLE, "--var", "VERSION=v1"],
            "not strict SemVer",
        ),
        (
            vec!["plan", "nowhere.yaml"],
            "cannot read the pipeline file",
        ),
        (vec!["run", SAMPLE, "--no-such-flag"], "unexpected argument"),
    ] {
        let mut all = vec!["--format", "json"];
        all.extend(args.iter().copied());
        let o = work.run(&all, &[]);
        assert_code(&o, 2);
        let doc = json(&o);
        assert_summary(&doc);
        assert_eq!(doc["error"]["class"], "input", "{args:?}");
        let said = format!("{}{}", doc["error"]["message"], stderr(&o));
        assert!(said.contains(needle), "{args:?}: {said}");
    }
    let problems = work.run(
        &["--format", "json", "run", SAMPLE, "--var", "VERSION=v1"],
        &[],
    );
    assert_eq!(
        json(&problems)["error"]["problems"][0]["at"],
        "pipelines/sample.yaml:6"
    );
}

#[test]
fn quiet_prints_the_summary_and_errors_only() {
    let work = Work::sample();
    // Without SOURCE_DATE_EPOCH outside a git checkout, render warns about createdAt.
    let loud = work.run(&["run", SAMPLE, "--dry-run"], &[]);
    assert!(
        stderr(&loud).contains("warning[created-at]"),
        "{}",
        stderr(&loud)
    );
    let quiet = work.run(&["-q", "run", SAMPLE, "--dry-run"], &[]);
    assert_code(&quiet, 0);
    let err = stderr(&quiet);
    assert!(
        err.starts_with("Summary (dry-run): sample-operator 0.1.0"),
        "{err}"
    );
    assert!(!err.contains("warning"), "{err}");
    assert!(!err.contains("==> "), "{err}");
    // Errors still show.
    let bad = work.run(&["-q", "run", SAMPLE, "--var", "VERSION=v1"], &[]);
    assert_code(&bad, 2);
    assert!(stderr(&bad).contains("error: "), "{}", stderr(&bad));
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let work = Work::sample();
    for args in [
        vec!["completions", "bash"],
        vec!["man"],
        vec!["plan", SAMPLE],
        vec!["--format", "json", "run", SAMPLE, "--dry-run"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_olm-release"))
            .args(&args)
            .current_dir(work.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away at once, like `| head -0`.
        drop(child.stdout.take());
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = child.wait().unwrap();
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(status.code(), Some(0), "{args:?}: {err}");
    }
}

#[test]
fn retry_notes_reach_the_user_on_every_command_once_each() {
    let fake = quay_fake::Fake::start();
    let work = Work::sample();
    let ns = crate::appr::unique("notes");
    let file = crate::appr::pipeline_at(&work, &fake.url, &ns, "  retries: 2\n");
    let login = [
        ("QUAY_USERNAME", quay_fake::WRITER.0),
        ("QUAY_PASSWORD", quay_fake::WRITER.1),
    ];
    assert_code(&crate::appr::run(&work, file, "0.1.0", &[], &login), 0);
    let pkg = format!("{ns}/sample-operator");
    for args in [
        vec!["registry", "show", "--registry", &fake.url, &pkg],
        vec!["registry", "show", "--registry", &fake.url, &pkg, "0.1.0"],
        vec![
            "graph",
            "--registry",
            &fake.url,
            "--namespace",
            &ns,
            "--package",
            "sample-operator",
        ],
    ] {
        fake.fault(Route::Releases, FaultKind::Status(503), 1);
        let o = work.run(&args, &login);
        assert_code(&o, 0);
        let err = stderr(&o);
        assert_eq!(
            err.matches("HTTP 503; retrying in").count(),
            1,
            "{args:?}: one note per retry:\n{err}"
        );
    }
}
