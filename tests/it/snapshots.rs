//! What users see, as reviewed snapshots (insta, files under `tests/it/snapshots/`): the plan of
//! every pipeline in `pipelines/`, the `--help` of every command, the JSON summary of a
//! success, a conflict and an input error, and the text of the most common errors. Digests,
//! ports, temporary paths and times are filtered, so a snapshot changes only when what a user
//! reads changes. `cargo insta review` (or `INSTA_UPDATE=always`) updates them after a
//! deliberate change.

use std::path::Path;

use crate::support::{Work, assert_code, stderr, stdout};

const SAMPLE: &str = "pipelines/sample.yaml";
/// 2019-10-07T12:00:00Z: the same `createdAt` and tar times on every machine.
const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");

/// Filters for what differs between runs and machines.
fn settings(work: &Path) -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_prepend_module_to_snapshot(false);
    s.add_filter(&regex::escape(&work.display().to_string()), "[WORK]");
    s.add_filter(r"\b[0-9a-f]{64}\b", "[SHA256]");
    s.add_filter(r"127\.0\.0\.1:\d+", "127.0.0.1:[PORT]");
    s.add_filter(r"\d+\.\d+s\b", "[TIME]s");
    s.add_filter(r#""seconds": [0-9.e-]+"#, r#""seconds": [SECONDS]"#);
    s.add_filter(
        r"olm-release \d+\.\d+\.\d+ \([^)]*\)",
        "olm-release [VERSION]",
    );
    s
}

/// A KubeVirt-shaped source folder with just enough for a plan: the template folders and the
/// files the release attaches (a plan lists names; it renders nothing).
fn kubevirt_source(work: &Work) -> std::path::PathBuf {
    let src = work.path().join("kubevirt");
    let olm = src.join("manifests/release/olm");
    std::fs::create_dir_all(olm.join("bundle")).unwrap();
    std::fs::create_dir_all(src.join("manifests/generated")).unwrap();
    for f in [
        "kubevirt-operatorsource.yaml.in",
        "bundle/kubevirtoperator.VERSION.clusterserviceversion.yaml.in",
        "bundle/kubevirt.package.yaml.in",
    ] {
        std::fs::write(olm.join(f), "").unwrap();
    }
    src
}

#[test]
fn the_plan_of_every_pipeline() {
    let work = Work::sample();
    let src = kubevirt_source(&work);
    let src = src.to_str().unwrap();
    // What scripts/dist.sh leaves for the self-release.
    let dist = work.path().join("_dist");
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(
        dist.join("olm-release-0.3.0-x86_64-unknown-linux-gnu.tar.gz"),
        b"archive",
    )
    .unwrap();
    std::fs::write(
        dist.join("SHA256SUMS"),
        format!(
            "{}  olm-release-0.3.0-x86_64-unknown-linux-gnu.tar.gz\n",
            olm_release_base::digest::sha256_hex(b"archive")
        ),
    )
    .unwrap();
    let cases: [(&str, Vec<&str>); 8] = [
        ("plan_sample", vec!["plan", SAMPLE]),
        (
            "plan_sample_catalog",
            vec!["plan", "pipelines/sample-catalog.yaml"],
        ),
        (
            "plan_sample_catalog_json",
            vec!["--format", "json", "plan", "pipelines/sample-catalog.yaml"],
        ),
        (
            "plan_sample_dry_run_json",
            vec!["--format", "json", "plan", SAMPLE, "--dry-run"],
        ),
        (
            "plan_kubevirt_release_dry_run",
            vec![
                "plan",
                "pipelines/kubevirt-release.yaml",
                "--dry-run",
                "--source",
                src,
                "--var",
                "TRAVIS_TAG=v0.22.0",
            ],
        ),
        (
            "plan_kubevirt_release_with_credentials",
            vec![
                "plan",
                "pipelines/kubevirt-release.yaml",
                "--source",
                src,
                "--var",
                "TRAVIS_TAG=v0.22.0",
            ],
        ),
        (
            "plan_kubevirt_alpha_dry_run",
            vec![
                "plan",
                "pipelines/kubevirt-alpha.yaml",
                "--dry-run",
                "--source",
                src,
                "--var",
                "CSV_VERSION=0.23.0-alpha.7",
            ],
        ),
        (
            "plan_olm_release_dry_run",
            vec![
                "plan",
                "pipelines/olm-release.yaml",
                "--dry-run",
                "--var",
                "VERSION=0.3.0",
            ],
        ),
    ];
    let creds = [
        EPOCH,
        ("QUAY_TOKEN", "basic c2VjcmV0"),
        ("GITHUB_TOKEN", "ghp_secret"),
    ];
    for (name, args) in cases {
        let env: &[(&str, &str)] = if name.ends_with("with_credentials") {
            &creds
        } else {
            &[EPOCH]
        };
        let o = work.run(&args, env);
        assert_code(&o, 0);
        settings(work.path()).bind(|| insta::assert_snapshot!(name, stdout(&o)));
    }
}

#[test]
fn the_help_of_every_command() {
    let work = Work::sample();
    let commands: [&[&str]; 16] = [
        &[],
        &["run"],
        &["plan"],
        &["render"],
        &["verify"],
        &["graph"],
        &["next-version"],
        &["completions"],
        &["man"],
        &["publish"],
        &["registry"],
        &["registry", "list"],
        &["registry", "show"],
        &["registry", "pull"],
        &["registry", "channels"],
        &["registry", "delete"],
    ];
    for cmd in commands {
        let mut args = cmd.to_vec();
        args.push("--help");
        let o = work.run(&args, &[]);
        assert_code(&o, 0);
        let name = format!(
            "help_{}",
            if cmd.is_empty() {
                "olm_release".to_string()
            } else {
                cmd.join("_").replace('-', "_")
            }
        );
        settings(work.path()).bind(|| insta::assert_snapshot!(name, stdout(&o)));
    }
}

#[test]
fn the_json_summary_of_success_conflict_and_input_error() {
    let work = Work::sample();
    let json = |args: &[&str], code: i32| {
        let mut all = vec!["--format", "json"];
        all.extend_from_slice(args);
        let o = work.run(&all, &[EPOCH]);
        assert_code(&o, code);
        let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        crate::output::assert_summary(&doc);
        serde_json::to_string_pretty(&doc).unwrap()
    };
    let success = json(&["run", SAMPLE], 0);
    let p = work.path().join(SAMPLE);
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, text.replace("Namespace: sample", "Namespace: other")).unwrap();
    let conflict = json(&["run", SAMPLE], 1);
    let input = json(&["run", SAMPLE, "--var", "VERSION=v0.2.0"], 2);
    let s = settings(work.path());
    s.bind(|| {
        insta::assert_snapshot!("summary_success", success);
        insta::assert_snapshot!("summary_conflict", conflict);
        insta::assert_snapshot!("summary_input_error", input);
    });
}

/// Writes `pipelines/e.yaml`: the sample with `edit` applied.
fn edited(work: &Work, edit: impl Fn(&str) -> String) -> &'static str {
    let text = std::fs::read_to_string(work.path().join(SAMPLE)).unwrap();
    let new = edit(&text);
    assert_ne!(new, text, "the sample pipeline changed shape");
    std::fs::write(work.path().join("pipelines/e.yaml"), new).unwrap();
    "pipelines/e.yaml"
}

#[test]
fn the_text_of_the_most_common_errors() {
    let work = Work::sample();
    // A published 0.2.0 for the conflict and the older-version errors.
    assert_code(
        &work.run(&["run", SAMPLE, "--var", "VERSION=0.2.0"], &[EPOCH]),
        0,
    );
    type Case = (&'static str, Box<dyn Fn(&Work) -> Vec<String>>, i32);
    let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let cases: Vec<Case> = vec![
        (
            "error_missing_pipeline_file",
            Box::new(move |_| args(&["run", "pipelines/nope.yaml"])),
            2,
        ),
        (
            "error_unknown_key",
            Box::new(move |w| {
                let f = edited(w, |t| {
                    t.replace(
                        "  namespace: sample\n",
                        "  namespace: sample\n  namepsace: typo\n",
                    )
                });
                args(&["run", f])
            }),
            2,
        ),
        (
            "error_unset_variable",
            Box::new(move |w| {
                let f = edited(w, |t| {
                    t.replace("namespace: sample\n", "namespace: ${QUAY_REPOSITORY}\n")
                });
                args(&["run", f])
            }),
            2,
        ),
        (
            "error_version_with_a_v",
            Box::new(move |_| args(&["run", SAMPLE, "--var", "VERSION=v0.3.0"])),
            2,
        ),
        (
            "error_stage_order",
            Box::new(move |w| {
                let f = edited(w, |t| {
                    t.replace(
                        "stages: [render, fetch-previous, package, verify, push, bundle-image, catalog, release]",
                        "stages: [render, package, push]",
                    )
                });
                args(&["run", f])
            }),
            2,
        ),
        (
            "error_missing_credentials_and_option_typo",
            Box::new(move |w| {
                let f = edited(w, |t| {
                    t.replace("url: dir:_out/registry", "url: https://quay.io/cnr").replace(
                        "  target: dir:_out/release\n",
                        "  target: github:acme/sample-operator\n  options: { concurrency: \"3\", retires: \"2\" }\n",
                    )
                });
                args(&["run", f])
            }),
            2,
        ),
        (
            "error_asset_not_rendered",
            Box::new(move |w| {
                let f = edited(w, |t| {
                    t.replace("sample-operatorsource.yaml]", "operatorsource.yaml]")
                });
                args(&["run", f])
            }),
            2,
        ),
        (
            "error_plain_http_registry",
            Box::new(move |w| {
                let f = edited(w, |t| {
                    t.replace(
                        "url: dir:_out/registry",
                        "url: http://registry.example.com/cnr",
                    )
                });
                args(&["run", f])
            }),
            2,
        ),
        (
            "error_older_version",
            Box::new(move |_| args(&["run", SAMPLE, "--var", "VERSION=0.1.5"])),
            1,
        ),
        (
            "error_conflict",
            Box::new(move |w| {
                let f = edited(w, |t| t.replace("Namespace: sample", "Namespace: other"));
                args(&["run", f, "--var", "VERSION=0.2.0"])
            }),
            1,
        ),
        (
            "error_invalid_bundle",
            Box::new(move |w| {
                std::fs::create_dir_all(w.path().join("broken")).unwrap();
                std::fs::write(
                    w.path().join("broken/p.package.yaml"),
                    "packageName: p\nchannels: [{name: alpha, currentCSV: p.v1.0.0}]\n",
                )
                .unwrap();
                args(&[
                    "publish",
                    "broken",
                    "--registry",
                    "dir:_out/reg",
                    "--namespace",
                    "ns",
                    "--package",
                    "p",
                    "--release",
                    "1.0.0",
                ])
            }),
            1,
        ),
    ];
    for (name, make, code) in cases {
        let a = make(&work);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let o = work.run(&a, &[EPOCH]);
        assert_code(&o, code);
        let err = stderr(&o);
        let last: Vec<&str> = err
            .lines()
            .skip_while(|l| !l.starts_with("error:"))
            .collect();
        assert!(!last.is_empty(), "{name}: no error line:\n{err}");
        settings(work.path()).bind(|| insta::assert_snapshot!(name, last.join("\n")));
    }
}
