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

#[test]
fn a_missing_input_run_from_another_folder_hints_at_source() {
    let work = Work::sample();
    let elsewhere = work.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let o = crate::support::olm_release(&elsewhere, &["plan", "../pipelines/sample.yaml"], &[]);
    assert_code(&o, 2);
    let root = work.path().canonicalize().unwrap();
    let hint = format!(
        "is not a folder (paths are relative to --source .); it exists under {0}: run with --source {0}",
        root.display()
    );
    assert!(
        stderr(&o).contains(&hint),
        "missing {hint:?} in\n{}",
        stderr(&o)
    );
}
