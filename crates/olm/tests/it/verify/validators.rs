//! The two validators a bundle is put through: operator-courier 2.1.11 (the `COURIER` peer
//! `scripts/test.sh` starts; a test skips without it) and ours (`olm::validate`), and the
//! corpus (fixtures/verify) they are checked against. Shared with the application's tests,
//! which include this file (tests/it/verify.rs), so it names only other crates.

use std::path::{Path, PathBuf};
use std::process::Command;

use olm_release_olm::validate::{self, Options, Profile, Report};

use olm_release_testsupport as support;

/// `fixtures/verify`.
pub fn corpus_dir() -> PathBuf {
    support::root().join("fixtures/verify")
}

/// Runs `$COURIER verify [--ui_validate_io] DIR` and returns its exit code and the JSON it
/// wrote with `--validation-output` (`None` when courier failed before validating, e.g. on a
/// structural error). `None` overall when the COURIER peer is not set up (the test skips).
pub fn courier_verify(dir: &Path, ui: bool) -> Option<(i32, Option<serde_json::Value>)> {
    let courier = support::peer("COURIER")?;
    let out = tempfile::tempdir().unwrap();
    let json = out.path().join("validation.json");
    let mut cmd = Command::new(courier);
    cmd.arg("verify");
    if ui {
        cmd.arg("--ui_validate_io");
    }
    cmd.arg("--validation-output").arg(&json).arg(dir);
    let o = cmd.output().expect("operator-courier runs");
    let parsed = std::fs::read_to_string(&json)
        .ok()
        .map(|t| serde_json::from_str(&t).expect("courier writes JSON"));
    Some((o.status.code().unwrap_or(-1), parsed))
}

/// Our verification of a path (folder, bundle.yaml or .tar.gz) with the library.
pub fn ours(path: &Path, profile: Profile, operatorhub: bool) -> Report {
    let opts = Options {
        profile,
        operatorhub,
        ..Options::default()
    };
    validate::verify_path(path, &opts).unwrap_or_else(|e| panic!("{e}"))
}

/// The findings of a report, one per line, for assertion messages.
pub fn show(r: &Report) -> String {
    r.findings
        .iter()
        .map(|f| format!("  {f}\n"))
        .collect::<String>()
}

/// Asserts a bundle folder passes both tools, with and without OperatorHub rules: no error
/// from us, exit 0 and no error from courier.
#[track_caller]
pub fn assert_valid_for_both(dir: &Path) {
    for hub in [false, true] {
        let r = ours(dir, Profile::Appregistry2019, hub);
        assert!(
            r.is_valid(),
            "{} (operatorhub {hub}):\n{}",
            dir.display(),
            show(&r)
        );
        if let Some((code, json)) = courier_verify(dir, hub) {
            assert_eq!(
                code,
                0,
                "courier rejects {} (ui {hub}): {json:?}",
                dir.display()
            );
            let errors = json.as_ref().and_then(|j| j["errors"].as_array().cloned());
            assert_eq!(errors, Some(vec![]), "courier errors on {}", dir.display());
        }
    }
}
