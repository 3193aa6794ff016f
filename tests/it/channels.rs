//! An already-published version joins another channel: a new release of the same
//! bundle whose package file adds the channel, named above the highest release
//! (`0.2.0` → `0.2.1-0.1`); a rerun writes nothing; a changed CSV or a channel headed by a CSV
//! it does not replace is refused; a later real release is the highest again and keeps the
//! channel. Against the `dir:` registry with the catalog (the sample pipeline's every stage)
//! and against the real appr server (`APPR_URL`, the app-registry stages).

use crate::appr::{PKG, pipeline_at, run, show, unique};
use crate::support::{Work, assert_code, list_files, peer, stderr, stdout};

/// Rewrites the pipeline `file` (a copy of the sample) to publish to `channels`.
fn on(work: &Work, file: &str, channels: &str) -> String {
    let sample = std::fs::read_to_string(work.path().join(file)).unwrap();
    let base = sample
        .lines()
        .filter(|l| !l.starts_with("channel: ") && !l.starts_with("channels: "))
        .collect::<Vec<_>>()
        .join("\n");
    let text = base.replacen(
        "package: sample-operator",
        &format!("package: sample-operator\nchannels: [{channels}]"),
        1,
    );
    let out = format!("pipelines/on-{}.yaml", channels.replace(", ", "-"));
    std::fs::write(work.path().join(&out), text + "\n").unwrap();
    out
}

fn channel<'a>(shown: &'a serde_json::Value, name: &str) -> Option<&'a serde_json::Value> {
    shown["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
}

fn csv_names(shown: &serde_json::Value) -> Vec<String> {
    shown["csvs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            c.as_str()
                .map_or_else(|| c["name"].to_string(), str::to_string)
        })
        .collect()
}

/// The run's JSON summary.
fn summary(o: &std::process::Output) -> serde_json::Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

/// publish 0.1.0 and 0.2.0 to stable, then add 0.2.0 to fast; `registry` is how `show` reaches
/// it. Returns the pipeline file of [stable, fast].
fn publish_then_add(work: &Work, file: &str, registry: &str, ns: &str) -> String {
    let stable = on(work, file, "stable");
    for v in ["0.1.0", "0.2.0"] {
        assert_code(&run(work, &stable, v, &[], &[]), 0);
    }
    let both = on(work, file, "stable, fast");
    // A dry-run names the release and writes nothing.
    let o = run(work, &both, "0.2.0", &["--dry-run"], &[]);
    assert_code(&o, 0);
    assert!(stderr(&o).contains("release 0.2.1-0.1"), "{}", stderr(&o));
    assert_eq!(
        show(work, registry, ns, "default")["release"]["release"],
        "0.2.0"
    );
    let before = show(work, registry, ns, "0.2.0");
    let o = run(work, &both, "0.2.0", &["--format", "json"], &[]);
    assert_code(&o, 0);
    let s = summary(&o);
    assert_eq!(s["decision"]["kind"], "add_channels", "{s}");
    assert_eq!(s["decision"]["release"], "0.2.1-0.1");
    assert_eq!(s["decision"]["channels"], serde_json::json!(["fast"]));
    assert!(
        s["published"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["what"].as_str().unwrap().contains("release 0.2.1-0.1")),
        "{s}"
    );
    let after = show(work, registry, ns, "default");
    assert_eq!(after["release"]["release"], "0.2.1-0.1", "{after}");
    for c in ["stable", "fast"] {
        assert_eq!(
            channel(&after, c).unwrap_or_else(|| panic!("{c}: {after}"))["head"],
            format!("{PKG}.v0.2.0")
        );
    }
    assert_eq!(csv_names(&after), csv_names(&before));
    assert_eq!(after["crds"], before["crds"]);
    // The rerun of the same command is SameVersion with the channel-add release: nothing written.
    let o = run(work, &both, "0.2.0", &["--format", "json"], &[]);
    assert_code(&o, 0);
    let s = summary(&o);
    assert_eq!(s["decision"]["kind"], "same_version", "{s}");
    assert_eq!(s["decision"]["release"], "0.2.1-0.1");
    assert_eq!(s["published"], serde_json::json!([]), "{s}");
    both
}

/// The CSVs of a pulled release as published: their canonical bytes are in the tarball the
/// registry serves, so the bundle digest of two releases with the same CSVs differs only by
/// the package file; compared here through `registry pull`.
fn pulled_csv(work: &Work, registry: &str, ns: &str, release: &str) -> String {
    let into = work.path().join(format!("_pulled-{release}"));
    let pkg = format!("{ns}/{PKG}");
    let o = work.run(
        &[
            "registry",
            "pull",
            "--registry",
            registry,
            &pkg,
            release,
            "--out",
            into.to_str().unwrap(),
        ],
        &[],
    );
    assert_code(&o, 0);
    let mut found = Vec::new();
    for e in list_files(&into) {
        if e.contains("v0.2.0") && e.ends_with(".yaml") && e.contains("clusterserviceversion") {
            found.push(std::fs::read_to_string(into.join(&e)).unwrap());
        }
    }
    assert_eq!(found.len(), 1, "{release}: {found:?}");
    found.remove(0)
}

#[test]
fn dir_an_already_published_version_joins_another_channel_in_registry_and_catalog() {
    let work = Work::sample();
    let registry = format!("dir:{}", work.path().join("_out/registry").display());
    let both = publish_then_add(&work, "pipelines/sample.yaml", &registry, "sample");
    assert_eq!(
        pulled_csv(&work, &registry, "sample", "0.2.0"),
        pulled_csv(&work, &registry, "sample", "0.2.1-0.1")
    );
    // The catalog has the bundle in fast, an entry that replaces nothing there.
    let catalog = std::fs::read_to_string(
        work.path()
            .join("_out/catalog/sample-operator/catalog.yaml"),
    )
    .or_else(|_| {
        std::fs::read_to_string(
            work.path()
                .join("_out/catalog/sample-operator/catalog.json"),
        )
    })
    .unwrap_or_else(|_| panic!("{:?}", list_files(&work.path().join("_out/catalog"))));
    assert!(catalog.contains("name: fast"), "{catalog}");
    // The registry's graph shows fast.
    let g = work.run(
        &[
            "graph",
            "--registry",
            &registry,
            "--namespace",
            "sample",
            "--package",
            PKG,
        ],
        &[],
    );
    assert_code(&g, 0);
    assert!(stdout(&g).contains("channel fast"), "{}", stdout(&g));
    // A later real release on both channels is the highest and carries fast.
    assert_code(&run(&work, &both, "0.3.0", &[], &[]), 0);
    let top = show(&work, &registry, "sample", "default");
    assert_eq!(top["release"]["release"], "0.3.0");
    assert_eq!(
        channel(&top, "fast").unwrap()["head"],
        format!("{PKG}.v0.3.0")
    );
    // Its bundle image names both channels, as the package file and the catalog do.
    let annotations = std::fs::read_to_string(
        work.path()
            .join("_out/sample-release/bundle-image/metadata/annotations.yaml"),
    )
    .unwrap();
    assert!(
        annotations.contains("operators.operatorframework.io.bundle.channels.v1: stable,fast\n"),
        "{annotations}"
    );
    // 0.2.0, below the highest release, starts channel lts on its own: release 0.3.1-0.1; its
    // bundle image (labelled stable when pushed) is kept, the catalog gets the lts entry, and
    // a rerun writes nothing.
    let lts = on(&work, "pipelines/sample.yaml", "lts");
    let o = run(&work, &lts, "0.2.0", &["--format", "json"], &[]);
    assert_code(&o, 0);
    assert_eq!(summary(&o)["decision"]["release"], "0.3.1-0.1");
    let catalog = std::fs::read_to_string(
        work.path()
            .join("_out/catalog/sample-operator/catalog.yaml"),
    )
    .unwrap();
    assert!(catalog.contains("name: lts"), "{catalog}");
    let o = run(&work, &lts, "0.2.0", &["--format", "json"], &[]);
    assert_code(&o, 0);
    assert_eq!(
        summary(&o)["published"],
        serde_json::json!([]),
        "{}",
        stdout(&o)
    );
}

#[test]
fn appr_an_already_published_version_joins_another_channel() {
    let Some(url) = peer("APPR_URL") else { return };
    let work = Work::sample();
    let ns = unique("chan");
    let file = pipeline_at(&work, &url, &ns, "");
    let both = publish_then_add(&work, file, &url, &ns);
    assert_eq!(
        pulled_csv(&work, &url, &ns, "0.2.0"),
        pulled_csv(&work, &url, &ns, "0.2.1-0.1")
    );
    // A changed CSV for 0.2.0 is refused, naming what differs.
    let text = std::fs::read_to_string(work.path().join(&both)).unwrap();
    let changed = text.replace("DockerTag: v${VERSION:-0.1.0}", "DockerTag: v0.2.0-patched");
    assert_ne!(text, changed);
    std::fs::write(
        work.path().join("pipelines/changed.yaml"),
        changed.replace("[stable, fast]", "[stable, beta]"),
    )
    .unwrap();
    let o = run(&work, "pipelines/changed.yaml", "0.2.0", &[], &[]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{PKG}.v0.2.0 is already published"))
            && err.contains("v0.2.0-patched"),
        "{err}"
    );
    // Nothing was written by the refusals.
    let top = show(&work, &url, &ns, "default");
    assert_eq!(top["release"]["release"], "0.2.1-0.1");
    // 0.3.0 on both channels is the highest release and carries fast.
    assert_code(&run(&work, &both, "0.3.0", &[], &[]), 0);
    let top = show(&work, &url, &ns, "default");
    assert_eq!(top["release"]["release"], "0.3.0");
    assert_eq!(
        channel(&top, "fast").unwrap()["head"],
        format!("{PKG}.v0.3.0")
    );
    assert_eq!(
        channel(&top, "stable").unwrap()["head"],
        format!("{PKG}.v0.3.0")
    );
}

#[test]
fn appr_a_head_the_csv_replaces_moves_and_another_head_is_refused() {
    let Some(url) = peer("APPR_URL") else { return };
    let work = Work::sample();
    let ns = unique("chanhead");
    let file = pipeline_at(&work, &url, &ns, "");
    // 0.1.0 heads stable and old; 0.1.5 starts edge on its own; 0.2.0 replaces 0.1.0 on stable.
    assert_code(
        &run(&work, &on(&work, file, "stable, old"), "0.1.0", &[], &[]),
        0,
    );
    assert_code(&run(&work, &on(&work, file, "edge"), "0.1.5", &[], &[]), 0);
    assert_code(
        &run(&work, &on(&work, file, "stable"), "0.2.0", &[], &[]),
        0,
    );
    // old's head 0.1.0 is what 0.2.0 replaces: the head moves, and the run says so.
    let o = run(&work, &on(&work, file, "stable, old"), "0.2.0", &[], &[]);
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains(&format!(
            "channel old: its head moves from {PKG}.v0.1.0 to {PKG}.v0.2.0"
        )),
        "{}",
        stderr(&o)
    );
    let top = show(&work, &url, &ns, "default");
    assert_eq!(top["release"]["release"], "0.2.1-0.1");
    assert_eq!(
        channel(&top, "old").unwrap()["head"],
        format!("{PKG}.v0.2.0")
    );
    assert_eq!(
        channel(&top, "edge").unwrap()["head"],
        format!("{PKG}.v0.1.5")
    );
    // edge's head 0.1.5 is neither replaced nor skipped by 0.2.0: refused, nothing written.
    let o = run(&work, &on(&work, file, "stable, edge"), "0.2.0", &[], &[]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains(&format!("channel edge has head {PKG}.v0.1.5"))
            && err.contains(&format!("publish a new version that replaces {PKG}.v0.1.5")),
        "{err}"
    );
    assert_eq!(
        show(&work, &url, &ns, "default")["release"]["release"],
        "0.2.1-0.1"
    );
}

/// Starts `olm-release run FILE --var VERSION=version` in `work` (its own output folder)
/// without waiting.
fn spawn(work: &Work, file: &str, version: &str) -> std::process::Child {
    let out = format!("_out/job-{version}");
    std::process::Command::new(env!("CARGO_BIN_EXE_olm-release"))
        .current_dir(work.path())
        .args([
            "run",
            file,
            "--var",
            &format!("VERSION={version}"),
            "--out",
            &out,
        ])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// A channel-add job (0.2.0 joins fast) and a real release (0.3.0 on stable) started together:
/// whichever order the registry sees, the channel is never lost silently. Either the
/// channel-add job succeeds and the highest release has fast, or it fails saying why (it was
/// withdrawn below a release that did not take it in) and the highest release is 0.3.0.
#[test]
fn appr_a_channel_add_racing_a_real_release_is_not_lost() {
    let Some(url) = peer("APPR_URL") else { return };
    for trial in 0..3 {
        let work = Work::sample();
        let ns = unique(&format!("chanrace{trial}"));
        let file = pipeline_at(&work, &url, &ns, "  concurrent_wait_seconds: 20\n");
        let stable = on(&work, file, "stable");
        for v in ["0.1.0", "0.2.0"] {
            assert_code(&run(&work, &stable, v, &[], &[]), 0);
        }
        let fast = on(&work, file, "fast");
        let a = spawn(&work, &stable, "0.3.0");
        let b = spawn(&work, &fast, "0.2.0");
        let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
        assert_code(&a, 0);
        let top = show(&work, &url, &ns, "default");
        let release = top["release"]["release"].as_str().unwrap().to_string();
        if b.status.success() {
            let fast = channel(&top, "fast").unwrap_or_else(|| panic!("fast lost: {top}"));
            assert_eq!(fast["head"], format!("{PKG}.v0.2.0"), "{top}");
            assert_eq!(
                channel(&top, "stable").unwrap()["head"],
                format!("{PKG}.v0.3.0")
            );
            assert!(release == "0.3.0" || release == "0.3.1-0.1", "{release}");
        } else {
            assert_eq!(release, "0.3.0");
            assert!(stderr(&b).contains("withdrawn"), "{}", stderr(&b));
        }
    }
}
