//! The limit reaches what a registry serves: the pipeline's fetch-previous step (the flag and
//! the variable, through the settings into the plan's step) and `registry show`, where a blob
//! past the limit is the server's failure (exit 1), not the user's input.

use super::stderr;
use crate::support::{Work, assert_code};

const SAMPLE: &str = "pipelines/sample.yaml";

fn assert_stage_failure(o: &std::process::Output, expected: &str) {
    assert_code(o, 1);
    assert!(stderr(o).contains(expected), "{}", stderr(o));
}

#[test]
fn a_served_release_past_the_limit_is_a_stage_failure() {
    let work = Work::sample();
    assert_code(&work.run(&["run", SAMPLE], &[]), 0);
    let next = ["run", SAMPLE, "--var", "VERSION=0.2.0"];

    let mut flag = next.to_vec();
    flag.extend(["--max-bundle-bytes", "1KiB"]);
    let o = work.run(&flag, &[]);
    assert_stage_failure(&o, "release 0.1.0 of");
    assert_stage_failure(&o, "expands past the limit of 1024 bytes");

    let o = work.run(&next, &[("OLM_RELEASE_MAX_BUNDLE_BYTES", "2KiB")]);
    assert_stage_failure(&o, "expands past the limit of 2048 bytes");
    // The flag wins over the variable.
    let mut both = next.to_vec();
    both.extend(["--max-bundle-bytes", "64MiB", "--dry-run"]);
    let o = work.run(&both, &[("OLM_RELEASE_MAX_BUNDLE_BYTES", "2KiB")]);
    assert_code(&o, 0);

    let show = [
        "registry",
        "show",
        "--registry",
        "dir:_out/registry",
        "sample/sample-operator",
        "0.1.0",
    ];
    assert_code(&work.run(&show, &[]), 0);
    let mut small = show.to_vec();
    small.extend(["--max-bundle-bytes", "1KiB"]);
    assert_stage_failure(
        &work.run(&small, &[]),
        "expands past the limit of 1024 bytes",
    );
}

#[test]
fn a_variable_that_is_not_a_size_is_an_input_error_naming_it() {
    let work = Work::sample();
    for args in [&["plan", SAMPLE][..], &["verify", "pipelines"][..]] {
        let o = work.run(args, &[("OLM_RELEASE_MAX_BUNDLE_BYTES", "lots")]);
        assert_code(&o, 2);
        assert!(
            stderr(&o).contains("OLM_RELEASE_MAX_BUNDLE_BYTES: 'lots' is not a size"),
            "{}",
            stderr(&o)
        );
    }
}
