//! A git remote that accepts and never answers (issue 35, item 3): the run ends within
//! `catalog.retry_max_seconds` and a small margin, with a message naming the command and the
//! remote, never the credentials.

use std::time::{Duration, Instant};

use crate::catalog_git::pipeline;
use crate::support::{Work, assert_code, hanging_port, stderr};

#[test]
fn a_git_remote_that_never_answers_ends_the_run_within_the_budget() {
    let work = Work::sample();
    let port = hanging_port();
    let url = format!("http://127.0.0.1:{port}/catalog.git");
    let file = pipeline(
        &work,
        "git.yaml",
        &format!("git:{url}"),
        "  branch: olm-catalog\n  retry_max_seconds: 2\n",
    );
    let started = Instant::now();
    let out = work.run(
        &["run", &file, "--var", "VERSION=0.1.0"],
        &[
            ("SOURCE_DATE_EPOCH", "1570449600"),
            ("GIT_TOKEN", "hunter2-never-shown"),
        ],
    );
    let took = started.elapsed();
    assert!(took < Duration::from_secs(12), "took {took:?}");
    assert_code(&out, 1);
    let err = stderr(&out);
    assert!(
        err.contains("`git ls-remote --symref")
            && err.contains(&format!(
                "got no answer from {url} within the retry budget of 2 s"
            )),
        "{err}"
    );
    assert!(!err.contains("hunter2"), "{err}");
}
