//! Messages that lead to the fix: a write failure names the option that chose the path.

use crate::support::{Work, assert_code, stderr};

#[test]
fn a_write_failure_names_the_option_that_chose_the_path() {
    let work = Work::sample();
    std::fs::write(work.path().join("blocker"), b"a file, not a folder").unwrap();
    let o = work.run(
        &[
            "run",
            "pipelines/sample.yaml",
            "--dry-run",
            "--out",
            "blocker/out",
        ],
        &[],
    );
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("error: stage render: cannot write "), "{err}");
    assert!(
        err.contains("blocker/out") && err.contains("(the output folder is chosen by --out;"),
        "{err}"
    );
    assert_eq!(err.matches("cannot write").count(), 1, "said once:\n{err}");
}
