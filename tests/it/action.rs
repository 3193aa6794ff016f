//! GitHub Actions, natively: with `GITHUB_ACTIONS=true` findings and problems are workflow
//! commands (`::error file=…,line=…::`), the job summary is appended to `$GITHUB_STEP_SUMMARY`
//! (what was published and the upgrade graph as Mermaid) and the outputs to `$GITHUB_OUTPUT`;
//! and the repository's `action.yml`, parsed, has its shell steps run as a runner would run
//! them, installing from the loopback releases server of `install.rs`.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::install::{Releases, dist_files, version};
use crate::support::{Work, assert_code, root, stderr, stdout};

/// The environment of a step on a runner, with its files in `dir`.
fn runner_env(dir: &Path) -> Vec<(String, String)> {
    for f in ["summary.md", "output", "path"] {
        std::fs::write(dir.join(f), "").unwrap();
    }
    let p = |f: &str| dir.join(f).display().to_string();
    vec![
        ("GITHUB_ACTIONS".into(), "true".into()),
        ("GITHUB_REF".into(), "refs/heads/main".into()),
        ("GITHUB_STEP_SUMMARY".into(), p("summary.md")),
        ("GITHUB_OUTPUT".into(), p("output")),
        ("GITHUB_PATH".into(), p("path")),
    ]
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

#[test]
fn a_run_in_github_actions_writes_its_summary_outputs_and_groups() {
    let work = Work::sample();
    let files = tempfile::tempdir().unwrap();
    let env = runner_env(files.path());
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let o = work.run(&["run", "pipelines/sample.yaml"], &env);
    assert_code(&o, 0);
    assert!(stderr(&o).contains("::group::render"), "{}", stderr(&o));

    let outputs = read(&files.path().join("output"));
    for needle in [
        "outcome=ok\n",
        "version=0.1.0\n",
        "channel=alpha\n",
        "channel-head=sample-operator.v0.1.0\n",
    ] {
        assert!(outputs.contains(needle), "missing {needle:?} in\n{outputs}");
    }
    let digests = outputs
        .lines()
        .find_map(|l| l.strip_prefix("digests="))
        .expect("a digests output");
    let digests: serde_json::Value = serde_json::from_str(digests).unwrap();
    let digests = digests.as_array().unwrap();
    assert!(!digests.is_empty(), "{outputs}");
    assert!(
        digests
            .iter()
            .all(|d| d["digest"].as_str().unwrap().starts_with("sha256:")),
        "{outputs}"
    );

    let summary = read(&files.path().join("summary.md"));
    for needle in [
        "### olm-release run: sample-operator 0.1.0 on channel alpha",
        "Channel head: `sample-operator.v0.1.0`",
        "| published | bundle release 0.1.0",
        "```mermaid\ngraph RL\n",
        "ch0([\"alpha\"]) --> csv0",
        "sample-operator.v0.1.0<br/>0.1.0",
        "| OLM v0 | yes |",
        "| OLM v1 | yes |",
    ] {
        assert!(summary.contains(needle), "missing {needle:?} in\n{summary}");
    }

    // A rerun publishes nothing and says so; the files are appended to, not replaced.
    let o = work.run(&["run", "pipelines/sample.yaml"], &env);
    assert_code(&o, 0);
    let summary = read(&files.path().join("summary.md"));
    assert_eq!(
        summary.matches("### olm-release run").count(),
        2,
        "{summary}"
    );
    assert!(summary.contains("| unchanged |"), "{summary}");

    // Outside GitHub Actions neither file is touched and no workflow command is printed.
    let before = read(&files.path().join("output"));
    let plain: Vec<(&str, &str)> = env
        .iter()
        .copied()
        .filter(|(k, _)| *k != "GITHUB_ACTIONS")
        .collect();
    let o = work.run(&["run", "pipelines/sample.yaml"], &plain);
    assert_code(&o, 0);
    assert!(!stderr(&o).contains("::"), "{}", stderr(&o));
    assert_eq!(read(&files.path().join("output")), before);
}

#[test]
fn findings_and_problems_are_annotations_on_their_files_and_lines() {
    let work = Work::sample();
    let files = tempfile::tempdir().unwrap();
    let env = runner_env(files.path());
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();

    // A CSV whose Deployment has no selector: an error annotation on the CSV's file.
    let bundle = work.path().join("bundle");
    crate::support::copy_dir(&root().join("fixtures/verify/valid/single"), &bundle);
    let csv_file = bundle.join("widget-operator.v1.0.0.clusterserviceversion.yaml");
    let csv = read(&csv_file);
    let broken = csv.replacen("selector:", "notSelector:", 1);
    assert_ne!(csv, broken, "the fixture's Deployment has a selector");
    std::fs::write(&csv_file, broken).unwrap();
    let o = work.run(&["verify", "bundle"], &env);
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        out.contains(
            "::error file=bundle/widget-operator.v1.0.0.clusterserviceversion.yaml,title=deployment-selector::"
        ),
        "{out}"
    );

    // A pipeline file with an unknown key: an error annotation on its line.
    let pipeline = read(&work.path().join("pipelines/sample.yaml"));
    std::fs::write(
        work.path().join("pipelines/typo.yaml"),
        pipeline.replacen("stages:", "stagse:", 1),
    )
    .unwrap();
    let o = work.run(&["run", "pipelines/typo.yaml"], &env);
    assert_code(&o, 2);
    let line = pipeline
        .lines()
        .position(|l| l.starts_with("stages:"))
        .unwrap()
        + 1;
    let needle = format!("::error file=pipelines/typo.yaml,line={line},");
    assert!(
        stderr(&o).contains(&needle),
        "missing {needle:?} in\n{}",
        stderr(&o)
    );
    let summary = read(&files.path().join("summary.md"));
    assert!(summary.contains("**Failed** (exit 2)"), "{summary}");
    assert!(read(&files.path().join("output")).contains("outcome=failed\n"));
}

/// `${{ inputs.NAME }}` replaced by the input's value (or its default).
fn expand(text: &str, inputs: &BTreeMap<String, String>) -> String {
    let mut out = text.to_string();
    for (k, v) in inputs {
        out = out.replace(&format!("${{{{ inputs.{k} }}}}"), v);
    }
    assert!(
        !out.contains("${{"),
        "an expression the test does not know: {out}"
    );
    out
}

#[test]
fn the_action_installs_the_pinned_release_and_runs_a_pipeline() {
    let action: serde_yaml_ng::Value =
        serde_yaml_ng::from_str(&read(&root().join("action.yml"))).unwrap();
    assert_eq!(action["runs"]["using"].as_str(), Some("composite"));
    // The default version is this one, so a tag of the action installs its own release.
    assert_eq!(
        action["inputs"]["version"]["default"].as_str(),
        Some(version())
    );
    for out in ["version", "digests", "channel-head", "outcome"] {
        assert_eq!(
            action["outputs"][out]["value"].as_str(),
            Some(format!("${{{{ steps.run.outputs.{out} }}}}").as_str()),
            "output {out}"
        );
    }
    // README's example and the book's GitHub Actions page use the action of this version.
    for doc in ["README.md", "docs/src/ci/github-actions.md"] {
        assert!(
            read(&root().join(doc))
                .contains(&format!("uses: olm-release/olm-release@v{}", version())),
            "{doc}: the GitHub Actions example names another version"
        );
    }
    let Some(files) = dist_files() else { return };
    let server = Releases::serve(files);
    let sha = olm_release_base::digest::sha256_hex(
        &std::fs::read(
            std::path::PathBuf::from(std::env::var("OLM_RELEASE_DIST").unwrap())
                .join(crate::install::archive_name()),
        )
        .unwrap(),
    );

    let work = Work::sample();
    let runner = tempfile::tempdir().unwrap();
    let mut inputs: BTreeMap<String, String> = action["inputs"]
        .as_mapping()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            let default = v["default"].as_str().unwrap_or_default().to_string();
            (k.as_str().unwrap().to_string(), default)
        })
        .collect();
    inputs.insert("pipeline".into(), "pipelines/sample.yaml".into());
    inputs.insert("args".into(), "--var VERSION=0.2.0".into());
    inputs.insert("sha256".into(), sha);
    let env = runner_env(runner.path());
    let steps = action["runs"]["steps"].as_sequence().unwrap();
    for step in steps {
        assert_eq!(step["shell"].as_str(), Some("bash"));
        let script = step["run"].as_str().unwrap();
        let mut cmd = Command::new("bash");
        cmd.args([
            "--noprofile",
            "--norc",
            "-e",
            "-o",
            "pipefail",
            "-c",
            script,
        ])
        .current_dir(work.path())
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap())
        .env("HOME", runner.path())
        .env("RUNNER_TEMP", runner.path())
        .env("GITHUB_ACTION_PATH", root())
        .env("OLM_RELEASE_INSTALL_BASE", &server.base)
        .envs(env.iter().map(|(k, v)| (k, v)));
        if let Some(vars) = step["env"].as_mapping() {
            for (k, v) in vars {
                cmd.env(k.as_str().unwrap(), expand(v.as_str().unwrap(), &inputs));
            }
        }
        let o = cmd.output().unwrap();
        assert!(
            o.status.success(),
            "step {:?}:\n{}\n{}",
            step["id"],
            stdout(&o),
            stderr(&o)
        );
    }
    assert_eq!(
        read(&runner.path().join("path")).trim(),
        runner.path().join("olm-release/bin").display().to_string()
    );
    let outputs = read(&runner.path().join("output"));
    assert!(outputs.contains("version=0.2.0\n"), "{outputs}");
    assert!(
        outputs.contains("channel-head=sample-operator.v0.2.0\n"),
        "{outputs}"
    );
    let summary = read(&runner.path().join("summary.md"));
    assert!(summary.contains("```mermaid"), "{summary}");

    // A wrong pin installs nothing and fails the step.
    let runner2 = tempfile::tempdir().unwrap();
    inputs.insert("sha256".into(), "0".repeat(64));
    let install = &steps[0];
    let mut cmd = Command::new("bash");
    cmd.args(["-e", "-c", install["run"].as_str().unwrap()])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap())
        .env("RUNNER_TEMP", runner2.path())
        .env("GITHUB_ACTION_PATH", root())
        .env("GITHUB_PATH", runner2.path().join("path"))
        .env("OLM_RELEASE_INSTALL_BASE", &server.base);
    for (k, v) in install["env"].as_mapping().unwrap() {
        cmd.env(k.as_str().unwrap(), expand(v.as_str().unwrap(), &inputs));
    }
    let o = cmd.output().unwrap();
    assert!(!o.status.success());
    assert!(stderr(&o).contains("checksum mismatch"), "{}", stderr(&o));
    assert!(!runner2.path().join("olm-release/bin/olm-release").exists());
}

/// The run step's arguments as the runner hands them to olm-release: `args` split on spaces,
/// or one argument per line when the value has several lines (a YAML block), so an argument may
/// hold spaces; nothing is expanded as a glob. A stand-in binary prints what it was given.
#[test]
fn the_actions_args_are_split_on_spaces_or_one_per_line() {
    use std::os::unix::fs::PermissionsExt;
    let action: serde_yaml_ng::Value =
        serde_yaml_ng::from_str(&read(&root().join("action.yml"))).unwrap();
    let run = action["runs"]["steps"]
        .as_sequence()
        .unwrap()
        .iter()
        .find(|s| s["id"].as_str() == Some("run"))
        .expect("a step with id run")
        .clone();
    let runner = tempfile::tempdir().unwrap();
    let bin = runner.path().join("olm-release/bin");
    std::fs::create_dir_all(&bin).unwrap();
    let stub = bin.join("olm-release");
    std::fs::write(
        &stub,
        "#!/bin/sh\nfor a in \"$@\"; do printf '[%s]\\n' \"$a\"; done\n",
    )
    .unwrap();
    std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
    // A file a glob would match, in the step's working folder.
    std::fs::write(runner.path().join("x.yaml"), "").unwrap();
    let given = |args: &str| -> String {
        let inputs: BTreeMap<String, String> = [
            ("command", "run"),
            ("pipeline", "pipelines/release.yaml"),
            ("args", args),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let mut cmd = Command::new("bash");
        cmd.args([
            "--noprofile",
            "--norc",
            "-e",
            "-o",
            "pipefail",
            "-c",
            run["run"].as_str().unwrap(),
        ])
        .current_dir(runner.path())
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap())
        .env("RUNNER_TEMP", runner.path());
        for (k, v) in run["env"].as_mapping().unwrap() {
            cmd.env(k.as_str().unwrap(), expand(v.as_str().unwrap(), &inputs));
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    assert_eq!(
        given("--dry-run --var  VERSION=1.2.3 *.yaml"),
        "[run]\n[pipelines/release.yaml]\n[--dry-run]\n[--var]\n[VERSION=1.2.3]\n[*.yaml]\n"
    );
    assert_eq!(
        given("--var\nTITLE=Release 1.2.3 (two words)\n\n--dry-run\n"),
        "[run]\n[pipelines/release.yaml]\n[--var]\n[TITLE=Release 1.2.3 (two words)]\n[--dry-run]\n"
    );
    assert_eq!(given(""), "[run]\n[pipelines/release.yaml]\n");
}
