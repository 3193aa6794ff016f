//! Secrets never leak: every command, at every verbosity and output format, in success and in
//! failure, runs with known token and password values, and none of them may appear in stdout,
//! stderr, the JSON summary, the plan, or any file the run wrote.

use crate::support::{Work, list_files, stderr, stdout};

pub const SECRETS: [(&str, &str); 5] = [
    ("QUAY_TOKEN", "basic c2VrcmV0LXF1YXktdG9rZW4="),
    ("QUAY_USERNAME", "robot+olm"),
    ("QUAY_PASSWORD", "SEKRET-quay-password-4711"),
    ("GITHUB_TOKEN", "ghp_SEKRETgithubtoken0000000000000000"),
    ("GH_TOKEN", "gho_SEKRETghtoken1111111111111111111"),
];

/// Fails if any secret value (other than the user name, which is not secret) appears in `text`.
#[track_caller]
pub fn assert_no_secret(what: &str, text: &str) {
    for (name, value) in SECRETS.iter().filter(|(n, _)| *n != "QUAY_USERNAME") {
        assert!(
            !text.contains(value),
            "{name}'s value leaked into {what}:\n{text}"
        );
        // Also the base64 payload of a Basic token and the bare password inside it.
        if let Some(b64) = value.strip_prefix("basic ") {
            assert!(!text.contains(b64), "{name}'s payload leaked into {what}");
        }
    }
}

/// Checks the outputs and every file under the work folder's `_out`.
#[track_caller]
pub fn check_run(work: &Work, label: &str, out: &std::process::Output) {
    assert_no_secret(&format!("{label} stdout"), &stdout(out));
    assert_no_secret(&format!("{label} stderr"), &stderr(out));
    for file in list_files(&work.path().join("_out")) {
        let bytes = std::fs::read(work.path().join("_out").join(&file)).unwrap();
        assert_no_secret(
            &format!("{label}: _out/{file}"),
            &String::from_utf8_lossy(&bytes),
        );
    }
}

const VERBOSITY: [&[&str]; 5] = [&["-q"], &[], &["-v"], &["-vv"], &["--format", "json", "-v"]];

#[test]
fn no_command_prints_a_secret_in_success_or_failure() {
    let work = Work::sample();
    let env: Vec<(&str, &str)> = SECRETS.to_vec();
    for v in VERBOSITY {
        let with = |args: &[&str]| -> Vec<String> {
            v.iter().chain(args).map(|s| s.to_string()).collect()
        };
        let cases: Vec<(&str, Vec<String>)> = vec![
            ("plan", with(&["plan", "pipelines/sample.yaml"])),
            (
                "dry-run",
                with(&["run", "pipelines/sample.yaml", "--dry-run"]),
            ),
            ("run", with(&["run", "pipelines/sample.yaml"])),
            ("rerun", with(&["run", "pipelines/sample.yaml"])),
            ("render", with(&["render", "pipelines/sample.yaml"])),
            ("verify", with(&["verify", "_out/sample-release/bundle"])),
            (
                "bad var",
                with(&["run", "pipelines/sample.yaml", "--var", "VERSION=bad"]),
            ),
            ("missing file", with(&["run", "pipelines/missing.yaml"])),
            ("verify missing", with(&["verify", "nowhere"])),
        ];
        for (label, args) in cases {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = work.run(&args, &env);
            check_run(&work, &format!("{label} {v:?}"), &out);
        }
    }
    // A failing stage: the release conflicts with what is published.
    let p = work.path().join("pipelines/sample.yaml");
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, text.replace("Namespace: sample", "Namespace: changed")).unwrap();
    for v in VERBOSITY {
        let mut args: Vec<&str> = v.to_vec();
        args.extend(["run", "pipelines/sample.yaml"]);
        let out = work.run(&args, &env);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        check_run(&work, &format!("conflict {v:?}"), &out);
    }
}
