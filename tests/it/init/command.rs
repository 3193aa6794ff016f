//! What `olm-release init` adds to crates/init: the CI configurations pin the installer of this
//! version (its URL at this version's tag, its sha256), the outcome is said on stderr with
//! paths as given, an edited file is kept and named as a conflict (exit 0) until --force, and
//! the pipeline still runs after a rerun over its own output.

use std::path::Path;

use super::{run_variant, sample_repo};
use crate::support::{assert_code, olm_release, root, stderr};

#[test]
fn init_pins_the_installer_of_this_version() {
    let repo = sample_repo();
    let r = repo.path();
    assert_code(
        &olm_release(r, &["init", "--ci", "travis", "--ci", "github"], &[]),
        0,
    );
    let version = env!("CARGO_PKG_VERSION");
    let installer = std::fs::read(root().join("scripts/install.sh")).unwrap();
    let sha = olm_release_base::digest::sha256_hex(&installer);
    let url = format!(
        "{}/v{version}/scripts/install.sh",
        env!("CARGO_PKG_REPOSITORY")
            .replace("https://github.com/", "https://raw.githubusercontent.com/")
    );
    let travis = std::fs::read_to_string(r.join(".travis.yml")).unwrap();
    for needle in [
        format!("curl -fsSL -o /tmp/olm-release-install.sh {url}\n"),
        format!("echo \"{sha}  /tmp/olm-release-install.sh\" | sha256sum -c -\n"),
        format!("OLM_RELEASE_VERSION={version}\n"),
    ] {
        assert!(travis.contains(&needle), "missing {needle:?} in\n{travis}");
    }
    let gha = std::fs::read_to_string(r.join(".github/workflows/olm-release.yml")).unwrap();
    for needle in [
        format!("{url}\n"),
        format!("echo \"{sha}  $RUNNER_TEMP/olm-release-install.sh\" | sha256sum -c -\n"),
        format!("OLM_RELEASE_VERSION: \"{version}\"\n"),
    ] {
        assert!(gha.contains(&needle), "missing {needle:?} in\n{gha}");
    }
}

#[test]
fn a_rerun_says_nothing_changed_keeps_an_edit_as_a_conflict_and_its_pipeline_still_runs() {
    let repo = sample_repo();
    let r = repo.path();
    let init = |extra: &[&str]| {
        let mut args = vec![
            "init",
            "--github",
            "example/sample-operator",
            "--ci",
            "travis",
            "--ci",
            "github",
        ];
        args.extend_from_slice(extra);
        olm_release(r, &args, &[])
    };
    assert_code(&init(&[]), 0);
    let again = init(&[]);
    assert_code(&again, 0);
    let said = stderr(&again);
    for needle in [
        "found: layout: templates in olm/, bundle in olm/bundle/\n",
        "unchanged ./pipelines/release.yaml\n",
        "unchanged ./.travis.yml\n",
        "nothing changed: every file init writes is already as it would write it\n",
        "try it, offline: olm-release run pipelines/release.yaml --variant local --var VERSION=0.0.1",
    ] {
        assert!(said.contains(needle), "missing {needle:?} in\n{said}");
    }
    assert!(!said.contains("wrote "), "{said}");
    run_variant(r, Path::new("."), "local", "0.1.0", &[], true);

    let travis = r.join(".travis.yml");
    std::fs::write(&travis, "language: minimal\n").unwrap();
    let kept = init(&[]);
    assert_code(&kept, 0);
    assert!(
        stderr(&kept).contains("conflict: ./.travis.yml was changed since init wrote it: kept as it is, not refreshed\n"),
        "{}",
        stderr(&kept)
    );
    assert!(
        stderr(&kept).contains("diff -u .travis.yml _out/init/.travis.yml"),
        "{}",
        stderr(&kept)
    );
    assert_eq!(
        std::fs::read_to_string(&travis).unwrap(),
        "language: minimal\n"
    );
    let forced = init(&["--force"]);
    assert_code(&forced, 0);
    assert!(
        stderr(&forced).contains("replaced ./.travis.yml\n"),
        "{}",
        stderr(&forced)
    );
}

#[test]
fn a_write_failing_part_way_says_what_was_written_before_the_error() {
    let repo = sample_repo();
    let r = repo.path();
    std::fs::write(r.join(".github"), "not a folder\n").unwrap();
    let out = olm_release(r, &["init", "--ci", "travis", "--ci", "github"], &[]);
    assert_code(&out, 1);
    let said = stderr(&out);
    let found = said.find("found: layout: templates in olm/").expect(&said);
    let wrote = said.find("wrote ./.travis.yml\n").expect(&said);
    let error = said.find("./.github/workflows: ").expect(&said);
    assert!(found < wrote && wrote < error, "{said}");
    assert!(!said.contains("try it, offline"), "no next steps:\n{said}");
}
