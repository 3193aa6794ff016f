//! The command line end to end on the sample operator and the embedded `dir:` registry: exit
//! codes, the second release's `replaces`, re-runs, conflicts, `--force`, `--dry-run` writing
//! nothing, `plan` touching nothing, and `--help` on everything.

use std::path::Path;

use olm_release_appregistry::ReleaseInfo;
use olm_release_appregistry::dir::DirRegistry;
use olm_release_olm::{Bundle, archive};

use crate::support::{Work, assert_code, list_files, stderr, stdout};

const SAMPLE: &str = "pipelines/sample.yaml";

fn registry(work: &Work) -> DirRegistry {
    DirRegistry::new(work.path().join("_out/registry"))
}

fn releases(work: &Work) -> Vec<ReleaseInfo> {
    registry(work)
        .releases("sample", "sample-operator")
        .unwrap()
}

/// The bundle published as `release`, read back from the registry.
fn published(work: &Work, release: &str) -> Bundle {
    let info = releases(work)
        .into_iter()
        .find(|r| r.release == release)
        .expect("release published");
    let gz = registry(work)
        .pull("sample", "sample-operator", &info.digest)
        .unwrap();
    let (files, digest) = archive::unpack(&gz, Default::default()).unwrap();
    assert_eq!(digest, info.digest, "the stored blob matches its digest");
    archive::read_bundle(&files, &Default::default()).unwrap()
}

fn run(work: &Work, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["run", SAMPLE];
    args.extend_from_slice(extra);
    work.run(&args, &[])
}

#[test]
fn first_release_then_second_replaces_it() {
    let work = Work::sample();
    let first = run(&work, &[]);
    assert_code(&first, 0);
    assert!(
        stderr(&first).contains("has no replaces"),
        "{}",
        stderr(&first)
    );
    let b1 = published(&work, "0.1.0");
    assert_eq!(b1.csvs.len(), 1);
    assert_eq!(b1.csvs[0].replaces(), None);
    assert_eq!(
        b1.package.channel("alpha").unwrap().current_csv,
        "sample-operator.v0.1.0"
    );

    let second = run(&work, &["--var", "VERSION=0.2.0"]);
    assert_code(&second, 0);
    assert!(
        stderr(&second).contains("sample-operator.v0.2.0 replaces sample-operator.v0.1.0"),
        "{}",
        stderr(&second)
    );
    let b2 = published(&work, "0.2.0");
    let names: Vec<_> = b2.csvs.iter().map(|c| c.name().unwrap()).collect();
    assert_eq!(names, ["sample-operator.v0.2.0", "sample-operator.v0.1.0"]);
    assert_eq!(
        b2.csv("sample-operator.v0.2.0").unwrap().replaces(),
        Some("sample-operator.v0.1.0")
    );
    assert_eq!(
        b2.package.channel("alpha").unwrap().current_csv,
        "sample-operator.v0.2.0"
    );
    assert_eq!(b2.crds.len(), 1, "the CRD is carried once");
    // `default` is now 0.2.0, and the release folder holds its assets with their sums and
    // the release notes.
    assert_eq!(releases(&work)[0].release, "0.2.0");
    let assets = list_files(&work.path().join("_out/release/v0.2.0"));
    assert_eq!(
        assets,
        [
            "NOTES.md",
            "SHA256SUMS",
            "sample-operator.v0.2.0.clusterserviceversion.yaml",
            "sample-operatorsource.yaml"
        ]
    );
    let sums = std::fs::read_to_string(work.path().join("_out/release/v0.2.0/SHA256SUMS")).unwrap();
    let csv = std::fs::read(
        work.path()
            .join("_out/release/v0.2.0/sample-operator.v0.2.0.clusterserviceversion.yaml"),
    )
    .unwrap();
    assert!(sums.contains(&format!(
        "{}  sample-operator.v0.2.0.clusterserviceversion.yaml",
        olm_release_base::digest::sha256_hex(&csv)
    )));
    assert!(
        String::from_utf8_lossy(&csv).contains("replaces: sample-operator.v0.1.0"),
        "the attached CSV is the published one"
    );
}

#[test]
fn rerun_changes_nothing_and_different_content_is_refused() {
    let work = Work::sample();
    assert_code(&run(&work, &[]), 0);
    let before = releases(&work);
    let index = std::fs::read(
        work.path()
            .join("_out/registry/sample/sample-operator/releases.json"),
    )
    .unwrap();

    let again = run(&work, &[]);
    assert_code(&again, 0);
    assert!(
        stderr(&again).contains("unchanged: bundle release 0.1.0"),
        "{}",
        stderr(&again)
    );
    assert_eq!(releases(&work), before);
    assert_eq!(
        std::fs::read(
            work.path()
                .join("_out/registry/sample/sample-operator/releases.json")
        )
        .unwrap(),
        index
    );

    // Same version, different content: refused with both digests, nothing changes.
    change_namespace(work.path());
    let conflict = run(&work, &[]);
    assert_code(&conflict, 1);
    let err = stderr(&conflict);
    assert!(
        err.contains("already published with different content"),
        "{err}"
    );
    assert!(
        err.contains(&format!("published sha256:{}", before[0].digest)),
        "{err}"
    );
    assert_eq!(releases(&work), before);

    // --force overwrites it.
    let forced = run(&work, &["--force"]);
    assert_code(&forced, 0);
    let after = releases(&work);
    assert_eq!(after.len(), 1);
    assert_ne!(after[0].digest, before[0].digest);
}

/// Changes the rendered content without changing the version.
fn change_namespace(root: &Path) {
    let p = root.join(SAMPLE);
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains("Namespace: sample"));
    std::fs::write(
        &p,
        text.replace("Namespace: sample", "Namespace: sample-other"),
    )
    .unwrap();
}

#[test]
fn dry_run_writes_nothing_and_says_what_it_skipped() {
    let work = Work::sample();
    let out = run(&work, &["--dry-run"]);
    assert_code(&out, 0);
    let err = stderr(&out);
    assert!(
        err.contains("dry-run: skipped bundle release 0.1.0 ("),
        "{err}"
    );
    assert!(err.contains("sha256:"), "{err}");
    assert!(
        err.contains("dry-run: skipped asset sample-operatorsource.yaml"),
        "{err}"
    );
    assert!(err.contains("dry-run: skipped asset SHA256SUMS"), "{err}");
    assert!(
        !work.path().join("_out/registry").exists(),
        "the registry was not written"
    );
    assert!(
        !work.path().join("_out/release").exists(),
        "the release target was not written"
    );
    // It still rendered and packaged, proving what a real run would publish.
    assert!(
        work.path()
            .join("_out/sample-release/sample-operator-0.1.0.tar.gz")
            .is_file()
    );

    // A dry-run of the next release after a real one reads the registry and decides replaces.
    assert_code(&run(&work, &[]), 0);
    let before = list_files(&work.path().join("_out/registry"));
    let next = run(&work, &["--dry-run", "--var", "VERSION=0.2.0"]);
    assert_code(&next, 0);
    assert!(
        stderr(&next).contains("replaces sample-operator.v0.1.0"),
        "{}",
        stderr(&next)
    );
    // The maintainers' review: the diff against the published head and the bundle's contents.
    let review = stderr(&next);
    for needle in [
        "changes from sample-operator.v0.1.0, the published head of the channel (release 0.1.0):",
        "version       0.1.0 → 0.2.0",
        "replaces      - → sample-operator.v0.1.0",
        "~ spec.version: \"0.1.0\" → \"0.2.0\"",
        "package       channel alpha: sample-operator.v0.1.0 → sample-operator.v0.2.0",
        "channel alpha → sample-operator.v0.2.0",
        "CSV sample-operator.v0.2.0 (replaces sample-operator.v0.1.0)",
    ] {
        assert!(review.contains(needle), "missing {needle:?} in\n{review}");
    }
    assert_eq!(list_files(&work.path().join("_out/registry")), before);
    assert!(!work.path().join("_out/release/v0.2.0").exists());
}

#[test]
fn json_summary_on_stdout() {
    let work = Work::sample();
    let out = work.run(&["--format", "json", "run", SAMPLE, "--dry-run"], &[]);
    assert_code(&out, 0);
    let summary: serde_json::Value =
        serde_json::from_str(&stdout(&out)).expect("stdout is one JSON document");
    assert_eq!(summary["version"], "0.1.0");
    assert_eq!(summary["dry_run"], true);
    assert_eq!(summary["channel_head"], "sample-operator.v0.1.0");
    assert_eq!(summary["decision"]["kind"], "first");
    crate::output::assert_summary(&summary);
    assert_eq!(
        summary["skipped"].as_array().unwrap().len(),
        7,
        "bundle + bundle image + catalog + 3 assets + NOTES.md"
    );
    assert_eq!(summary["published"].as_array().unwrap().len(), 0);
    let stages: Vec<_> = summary["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["stage"].as_str().unwrap())
        .collect();
    assert_eq!(
        stages,
        [
            "render",
            "fetch-previous",
            "package",
            "verify",
            "push",
            "bundle-image",
            "catalog",
            "release"
        ]
    );
}

#[test]
fn older_version_is_refused_or_skipped_by_policy() {
    let work = Work::sample();
    assert_code(&run(&work, &["--var", "VERSION=0.2.0"]), 0);
    let before = releases(&work);
    let older = run(&work, &["--var", "VERSION=0.1.5"]);
    assert_code(&older, 1);
    assert!(
        stderr(&older).contains("is older than sample-operator.v0.2.0"),
        "{}",
        stderr(&older)
    );
    assert_eq!(releases(&work), before);

    let p = work.path().join(SAMPLE);
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(
        &p,
        text.replace(
            "  namespace: sample\n",
            "  namespace: sample\n  older: skip\n",
        ),
    )
    .unwrap();
    let skipped = run(&work, &["--var", "VERSION=0.1.5"]);
    assert_code(&skipped, 0);
    assert!(
        stderr(&skipped).contains("nothing to publish"),
        "{}",
        stderr(&skipped)
    );
    assert_eq!(releases(&work), before);
}

#[test]
fn plan_prints_the_steps_and_touches_nothing() {
    let work = Work::sample();
    let out = work.run(&["plan", SAMPLE, "--var", "VERSION=1.2.3"], &[]);
    assert_code(&out, 0);
    let text = stdout(&out);
    for needle in [
        "sample-operator 1.2.3 on channel alpha",
        "1. render",
        "4. verify",
        "push release 1.2.3",
        "assets: {csv}",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
    assert!(!work.path().join("_out").exists(), "plan wrote nothing");
}

#[test]
fn exit_codes_for_bad_input() {
    let work = Work::sample();
    let missing = work.run(&["run", "pipelines/nope.yaml"], &[]);
    assert_code(&missing, 2);
    assert!(
        stderr(&missing).contains("pipelines/nope.yaml"),
        "{}",
        stderr(&missing)
    );

    let bad_var = work.run(&["run", SAMPLE, "--var", "NOEQUALS"], &[]);
    assert_code(&bad_var, 2);

    let bad_version = work.run(&["run", SAMPLE, "--var", "VERSION=v0.3.0"], &[]);
    assert_code(&bad_version, 2);
    assert!(
        stderr(&bad_version).contains("drop the leading 'v'"),
        "{}",
        stderr(&bad_version)
    );

    let bad_flag = work.run(&["run", SAMPLE, "--no-such-flag"], &[]);
    assert_code(&bad_flag, 2);
    assert!(!work.path().join("_out").exists());
}

#[test]
fn help_on_every_command() {
    let work = Work::sample();
    let top = work.run(&["--help"], &[]);
    assert_code(&top, 0);
    for cmd in ["run", "plan", "render", "verify"] {
        assert!(stdout(&top).contains(cmd), "top-level help lists {cmd}");
        let help = work.run(&[cmd, "--help"], &[]);
        assert_code(&help, 0);
        assert!(stdout(&help).contains("Usage: olm-release"), "{cmd} --help");
    }
    // Every option of every command has a doc line: text after the flag on its line.
    for cmd in ["run", "plan", "render", "verify"] {
        let help = stdout(&work.run(&[cmd, "--help"], &[]));
        let lines: Vec<&str> = help.lines().collect();
        for (i, line) in lines.iter().enumerate().filter(|(_, l)| {
            let indent = l.len() - l.trim_start().len();
            indent < 8 && l.trim_start().starts_with('-')
        }) {
            let flag = line
                .split_whitespace()
                .find(|w| w.starts_with("--"))
                .unwrap_or(line);
            // Short form: "  --flag <V>  Doc"; long form: the doc on the next, deeper line.
            let same_line = line.split("  ").filter(|p| !p.trim().is_empty()).nth(1);
            let next_line = lines
                .get(i + 1)
                .filter(|n| n.starts_with("          "))
                .map(|n| n.trim());
            let doc = same_line.or(next_line);
            assert!(
                doc.is_some_and(|d| d.trim().len() > 5),
                "{cmd}: {flag} has no doc line: {line:?}"
            );
        }
    }
    let version = work.run(&["--version"], &[]);
    assert_code(&version, 0);
    assert!(stdout(&version).starts_with(&format!("olm-release {}", env!("CARGO_PKG_VERSION"))));
}

#[test]
fn ci_logs_fold_each_stage() {
    let work = Work::sample();
    let travis = work.run(
        &["run", SAMPLE, "--dry-run"],
        &[
            ("TRAVIS", "true"),
            ("TRAVIS_TAG", "v0.1.0"),
            ("TRAVIS_BUILD_NUMBER", "7"),
        ],
    );
    assert_code(&travis, 0);
    let err = stderr(&travis);
    for stage in [
        "render",
        "fetch-previous",
        "package",
        "verify",
        "push",
        "bundle-image",
        "catalog",
        "release",
    ] {
        let start = err
            .find(&format!("travis_fold:start:olm-release.{stage}\n"))
            .expect(stage);
        let end = err
            .find(&format!("travis_fold:end:olm-release.{stage}\n"))
            .expect(stage);
        assert!(start < end, "{stage} folds in order");
    }
    assert!(!err.contains('\u{1b}'), "no control codes in CI logs");
    let gha = work.run(
        &["run", SAMPLE, "--dry-run"],
        &[
            ("GITHUB_ACTIONS", "true"),
            ("GITHUB_REF", "refs/tags/v0.1.0"),
        ],
    );
    assert_code(&gha, 0);
    assert_eq!(stderr(&gha).matches("::group::").count(), 8);
    assert_eq!(stderr(&gha).matches("::endgroup::").count(), 8);
    let plan = work.run(
        &["plan", SAMPLE],
        &[
            ("TRAVIS", "true"),
            ("TRAVIS_TAG", "v0.1.0"),
            ("TRAVIS_BUILD_NUMBER", "7"),
        ],
    );
    assert!(
        stdout(&plan).contains("CI: travis (tag v0.1.0, branch -, build 7)"),
        "{}",
        stdout(&plan)
    );
}

#[test]
fn a_rerun_after_a_failed_release_stage_completes_without_publishing_twice() {
    let work = Work::sample();
    // The release target cannot be written: `_out/release` is a file.
    std::fs::create_dir_all(work.path().join("_out")).unwrap();
    std::fs::write(work.path().join("_out/release"), "in the way").unwrap();
    let failed = run(&work, &[]);
    assert_code(&failed, 1);
    assert!(
        stderr(&failed).contains("stage release"),
        "{}",
        stderr(&failed)
    );
    let pushed = releases(&work);
    assert_eq!(pushed.len(), 1, "the push before the failing stage landed");

    std::fs::remove_file(work.path().join("_out/release")).unwrap();
    let again = run(&work, &[]);
    assert_code(&again, 0);
    let err = stderr(&again);
    assert!(
        err.contains("unchanged: bundle release 0.1.0"),
        "push did nothing the second time:\n{err}"
    );
    assert!(
        err.contains("published asset SHA256SUMS"),
        "the release stage completed:\n{err}"
    );
    assert_eq!(
        releases(&work),
        pushed,
        "the registry is exactly as after the first run"
    );
}
