//! The app-registry client, push and fetch-previous against the real appr 0.7.4 server
//! (`scripts/peers/appr.sh`, `APPR_URL`), and the `registry` subcommands against it and the
//! `dir:` registry. Quay-only behaviour and faults are in `quay_fake::tests`.
//!
//! Each test uses its own namespace, so tests share one server and run in parallel. The helpers
//! here (`pipeline_at`, `unique`, `tarball`, `show`) are shared with the fake's tests.

use std::path::PathBuf;

use olm_release_appregistry::appr::ApprClient;
use olm_release_appregistry::{PushOutcome, Registry};

use crate::quay_fake::digest_of;
use crate::support::{Work, assert_code, peer, stderr, stdout};

pub const PKG: &str = "sample-operator";

/// A namespace no other test (or earlier run against the same server) uses.
pub fn unique(name: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("{name}-{}-{nanos}", std::process::id())
}

/// Writes `pipelines/at.yaml`: the sample pipeline pointed at `url`/`ns`, with extra lines
/// for the `registry:` section (e.g. `  retries: 0`). Returns its relative path.
pub fn pipeline_at(work: &Work, url: &str, ns: &str, extra: &str) -> &'static str {
    let sample = std::fs::read_to_string(work.path().join("pipelines/sample.yaml")).unwrap();
    let from = "registry:\n  url: dir:_out/registry\n  namespace: sample\n";
    assert!(sample.contains(from), "the sample pipeline changed shape");
    let to = format!("registry:\n  url: {url}\n  namespace: {ns}\n{extra}");
    // The app-registry path only: these tests seed and read the registry on their own, and a
    // catalog that never saw those releases would (rightly) stop the run before any write.
    let stages =
        "stages: [render, fetch-previous, package, verify, push, bundle-image, catalog, release]";
    assert!(
        sample.contains(stages),
        "the sample pipeline changed its stages"
    );
    let text = sample.replace(from, &to).replace(
        stages,
        "stages: [render, fetch-previous, package, verify, push, release]",
    );
    std::fs::write(work.path().join("pipelines/at.yaml"), text).unwrap();
    "pipelines/at.yaml"
}

/// Runs the pipeline at `version` with `env`.
pub fn run(
    work: &Work,
    file: &str,
    version: &str,
    more: &[&str],
    env: &[(&str, &str)],
) -> std::process::Output {
    let var = format!("VERSION={version}");
    let mut args = vec!["run", file, "--var", &var];
    args.extend_from_slice(more);
    work.run(&args, env)
}

/// The tarball the last run of `version` packaged.
pub fn tarball(work: &Work, version: &str) -> PathBuf {
    work.path()
        .join(format!("_out/sample-release/{PKG}-{version}.tar.gz"))
}

/// `registry show --format json` of one release.
pub fn show(work: &Work, registry: &str, ns: &str, release: &str) -> serde_json::Value {
    let pkg = format!("{ns}/{PKG}");
    let o = work.run(
        &[
            "registry",
            "show",
            "--registry",
            registry,
            &pkg,
            release,
            "--format",
            "json",
        ],
        &[],
    );
    assert_code(&o, 0);
    serde_json::from_str(&stdout(&o)).unwrap()
}

pub fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Release → digest, as the server reports it.
pub fn published(url: &str, ns: &str) -> Vec<(String, String)> {
    let client = ApprClient::new(url, None).unwrap();
    rt().block_on(client.releases(ns, PKG))
        .unwrap()
        .into_iter()
        .map(|r| (r.release, r.digest))
        .collect()
}

#[test]
fn a_sequence_of_releases_chains_replaces_and_carries_every_csv() {
    let Some(url) = peer("APPR_URL") else { return };
    let work = Work::sample();
    let ns = unique("seq");
    let file = pipeline_at(&work, &url, &ns, "");
    let mut digests = Vec::new();
    for v in ["0.1.0", "0.2.0", "0.3.0-rc.1", "0.3.0"] {
        let o = run(&work, file, v, &[], &[]);
        assert_code(&o, 0);
        let err = stderr(&o);
        assert!(
            err.contains(&format!(
                "published {ns}/{PKG} release {v}, channel alpha head {PKG}.v{v}"
            )),
            "{err}"
        );
        digests.push((
            v.to_string(),
            digest_of(&std::fs::read(tarball(&work, v)).unwrap()),
        ));
    }
    let o = run(&work, file, "0.2.0", &[], &[]);
    assert!(stderr(&o).contains("0.3.0"), "{}", stderr(&o));
    // The server reports exactly the digests we packaged, highest first.
    digests.reverse();
    let mut by_semver = digests.clone();
    by_semver.sort_by_key(|(v, _)| std::cmp::Reverse(semver::Version::parse(v).unwrap()));
    assert_eq!(published(&url, &ns), by_semver);
    let head = show(&work, &url, &ns, "default");
    assert_eq!(head["release"]["release"], "0.3.0");
    let alpha = &head["channels"][0];
    assert_eq!(alpha["head"], format!("{PKG}.v0.3.0"));
    let chain: Vec<String> = ["0.3.0", "0.3.0-rc.1", "0.2.0", "0.1.0"]
        .iter()
        .map(|v| format!("{PKG}.v{v}"))
        .collect();
    assert_eq!(alpha["chain"], serde_json::json!(chain));
    assert_eq!(alpha["broken"], serde_json::Value::Null);
    assert_eq!(head["csvs"].as_array().unwrap().len(), 4);
    assert_eq!(head["crds"], serde_json::json!(["samples.example.com"]));
    // A release below the head (a z-stream of an older branch) is refused: replaces never
    // points forward.
    let o = run(&work, file, "0.2.1", &[], &[]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("is older than"), "{}", stderr(&o));
    assert_eq!(published(&url, &ns).len(), 4);
}

#[test]
fn rerun_conflict_and_forced_overwrite() {
    let Some(url) = peer("APPR_URL") else { return };
    let work = Work::sample();
    let ns = unique("rerun");
    let file = pipeline_at(&work, &url, &ns, "");
    assert_code(&run(&work, file, "0.1.0", &[], &[]), 0);
    let first = published(&url, &ns);
    // Rerun after success: nothing to do.
    let o = run(&work, file, "0.1.0", &[], &[]);
    assert_code(&o, 0);
    assert!(stderr(&o).contains("already published"), "{}", stderr(&o));
    assert_eq!(published(&url, &ns), first);
    // Different content under the same release: refused, both digests named, nothing changed.
    let crd = work
        .path()
        .join("fixtures/sample-operator/olm/bundle/samples.example.com.crd.yaml");
    let text = std::fs::read_to_string(&crd).unwrap();
    let changed = text.replacen(
        "  name: samples.example.com\n",
        "  name: samples.example.com\n  labels: {edited: \"yes\"}\n",
        1,
    );
    assert_ne!(text, changed);
    std::fs::write(&crd, changed).unwrap();
    let o = run(&work, file, "0.1.0", &[], &[]);
    let ours = digest_of(&std::fs::read(tarball(&work, "0.1.0")).unwrap());
    let err = stderr(&o);
    assert_ne!(ours, first[0].1, "editing the CRD must change the bundle");
    assert_code(&o, 1);
    assert!(
        err.contains(&format!("published sha256:{}", first[0].1))
            && err.contains(&format!("this bundle sha256:{ours}")),
        "{err}"
    );
    assert!(err.contains("--force"), "{err}");
    assert_eq!(published(&url, &ns), first);
    // --force overwrites, and the proof pulls back the new digest.
    let o = run(&work, file, "0.1.0", &["--force"], &[]);
    assert_code(&o, 0);
    assert!(stderr(&o).contains("force=true"), "{}", stderr(&o));
    assert_eq!(published(&url, &ns), vec![("0.1.0".to_string(), ours)]);
}

#[test]
fn a_release_that_is_not_semver_never_reaches_the_server_and_the_server_says_422() {
    let Some(url) = peer("APPR_URL") else { return };
    let work = Work::sample();
    let ns = unique("semver");
    let file = pipeline_at(&work, &url, &ns, "");
    let o = run(&work, file, "v0.2.0", &[], &[]);
    assert_code(&o, 2);
    assert!(stderr(&o).contains("not strict SemVer"), "{}", stderr(&o));
    assert!(published(&url, &ns).is_empty());
    // The client sends what it is given; the server's 422 reads clearly.
    assert_code(&run(&work, file, "0.2.0", &["--dry-run"], &[]), 0);
    let gz = std::fs::read(tarball(&work, "0.2.0")).unwrap();
    let client = ApprClient::new(url.as_str(), None).unwrap();
    let e = rt()
        .block_on(client.push(&ns, PKG, "1.0", &gz, false))
        .unwrap_err();
    assert!(
        e.to_string().contains(&format!(
            "POST /cnr/api/v1/packages/{ns}/{PKG}: HTTP 422 invalid-release"
        )),
        "{e}"
    );
    assert!(published(&url, &ns).is_empty());
    // And a second push of one release is a 409, which the client reports as Exists.
    assert_eq!(
        rt().block_on(client.push(&ns, PKG, "0.2.0", &gz, false))
            .unwrap(),
        PushOutcome::Pushed
    );
    assert_eq!(
        rt().block_on(client.push(&ns, PKG, "0.2.0", &gz, false))
            .unwrap(),
        PushOutcome::Exists
    );
}

#[test]
fn dry_run_prints_the_request_sends_nothing_and_needs_no_credentials() {
    let Some(url) = peer("APPR_URL") else { return };
    let work = Work::sample();
    let ns = unique("dry");
    let file = pipeline_at(&work, &url, &ns, "");
    let token = "basic ZHJ5OnJ1bi10b2tlbi12YWx1ZQ==";
    for env in [&[][..], &[("QUAY_TOKEN", token)][..]] {
        let o = run(&work, file, "0.1.0", &["--dry-run"], env);
        assert_code(&o, 0);
        let all = format!("{}{}", stderr(&o), stdout(&o));
        let digest = digest_of(&std::fs::read(tarball(&work, "0.1.0")).unwrap());
        let size = std::fs::metadata(tarball(&work, "0.1.0")).unwrap().len();
        assert!(
            all.contains(&format!(
                "dry-run: skipped bundle release 0.1.0 (media_type helm, {size}-byte .tar.gz) → POST {url}/api/v1/packages/{ns}/{PKG} (sha256:{digest})"
            )),
            "{all}"
        );
        assert!(!all.contains("ZHJ5OnJ1bi10b2tlbi12YWx1ZQ"), "{all}");
        if !env.is_empty() {
            assert!(
                all.contains("Authorization from QUAY_TOKEN (not shown)"),
                "{all}"
            );
        }
    }
    assert!(published(&url, &ns).is_empty());
}

#[test]
fn username_and_password_work_against_appr_which_has_no_login_route() {
    let Some(url) = peer("APPR_URL") else { return };
    let work = Work::sample();
    let ns = unique("login");
    let file = pipeline_at(&work, &url, &ns, "");
    let o = run(
        &work,
        file,
        "0.1.0",
        &[],
        &[
            ("QUAY_USERNAME", "someone"),
            ("QUAY_PASSWORD", "pw-never-shown"),
        ],
    );
    assert_code(&o, 0);
    assert!(!format!("{}{}", stderr(&o), stdout(&o)).contains("pw-never-shown"));
    assert_eq!(published(&url, &ns).len(), 1);
}

#[test]
fn client_channels_show_and_delete_against_appr() {
    let Some(url) = peer("APPR_URL") else { return };
    let work = Work::sample();
    let ns = unique("chan");
    let file = pipeline_at(&work, &url, &ns, "");
    assert_code(&run(&work, file, "0.1.0", &[], &[]), 0);
    assert_code(&run(&work, file, "0.2.0", &[], &[]), 0);
    let c = ApprClient::new(url.as_str(), None).unwrap();
    let rt = rt();
    assert!(rt.block_on(c.channels(&ns, PKG)).unwrap().is_empty());
    assert_eq!(rt.block_on(c.channel(&ns, PKG, "alpha")).unwrap(), None);
    let ch = rt
        .block_on(c.set_channel(&ns, PKG, "alpha", "0.2.0"))
        .unwrap();
    assert_eq!(ch.current.as_deref(), Some("0.2.0"));
    assert_eq!(rt.block_on(c.channels(&ns, PKG)).unwrap()[0].name, "alpha");
    let shown = rt.block_on(c.show(&ns, PKG, "default")).unwrap().unwrap();
    assert_eq!(
        (shown.release.as_str(), shown.channels.clone()),
        ("0.2.0", vec!["alpha".to_string()])
    );
    assert_eq!(rt.block_on(c.show(&ns, PKG, "9.9.9")).unwrap(), None);
    assert!(rt.block_on(c.delete_channel(&ns, PKG, "alpha")).unwrap());
    assert!(rt.block_on(c.delete(&ns, PKG, "0.2.0")).unwrap());
    assert!(!rt.block_on(c.delete(&ns, PKG, "0.2.0")).unwrap());
    assert_eq!(
        published(&url, &ns)
            .iter()
            .map(|r| r.0.as_str())
            .collect::<Vec<_>>(),
        ["0.1.0"]
    );
    // Reading a package that does not exist is "no releases", never an error...
    assert!(
        rt.block_on(c.releases(&ns, "nothing-here"))
            .unwrap()
            .is_empty()
    );
    // ...but a wrong base URL (an HTML 404) is.
    let wrong = ApprClient::new(format!("{}/nope", url.trim_end_matches("/cnr")), None).unwrap();
    let e = rt.block_on(wrong.releases(&ns, PKG)).unwrap_err();
    assert!(e.to_string().contains("HTML page"), "{e}");
    assert_eq!(Registry::Appr(Box::new(c)).describe(), url);
}

/// `registry list|show|pull` against one registry holding 0.1.0 and 0.2.0 of the sample.
fn registry_commands(work: &Work, registry: &str, ns: &str) {
    let pkg = format!("{ns}/{PKG}");
    let o = work.run(&["registry", "list", "--registry", registry, ns], &[]);
    assert_code(&o, 0);
    assert!(
        stdout(&o).contains(&format!("{PKG}  default 0.2.0  releases 0.2.0, 0.1.0")),
        "{}",
        stdout(&o)
    );
    let d1 = digest_of(&std::fs::read(tarball(work, "0.1.0")).unwrap());
    let d2 = digest_of(&std::fs::read(tarball(work, "0.2.0")).unwrap());
    let o = work.run(&["registry", "show", "--registry", registry, &pkg], &[]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains(&format!("0.2.0  sha256:{d2}"))
            && out.contains(&format!("0.1.0  sha256:{d1}")),
        "{out}"
    );
    let o = work.run(
        &["registry", "show", "--registry", registry, &pkg, "0.2.0"],
        &[],
    );
    assert!(
        stdout(&o).contains(&format!("chain {PKG}.v0.2.0 -> {PKG}.v0.1.0")),
        "{}",
        stdout(&o)
    );
    let out_dir = work.path().join(format!("pulled-{ns}"));
    let o = work.run(
        &[
            "registry",
            "pull",
            "--registry",
            registry,
            &pkg,
            "0.1.0",
            "--out",
            out_dir.to_str().unwrap(),
        ],
        &[],
    );
    assert_code(&o, 0);
    let gz = std::fs::read(out_dir.join(format!("{ns}_{PKG}_0.1.0.tar.gz"))).unwrap();
    assert_eq!(digest_of(&gz), d1);
    assert!(
        out_dir
            .join(format!("bundle/{PKG}.v0.1.0.clusterserviceversion.yaml"))
            .is_file()
    );
    let o = work.run(
        &["registry", "show", "--registry", registry, &pkg, "7.0.0"],
        &[],
    );
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("has no release 7.0.0"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn registry_commands_against_appr() {
    let Some(url) = peer("APPR_URL") else { return };
    let work = Work::sample();
    let ns = unique("cmds");
    let file = pipeline_at(&work, &url, &ns, "");
    for v in ["0.1.0", "0.2.0"] {
        assert_code(&run(&work, file, v, &[], &[]), 0);
    }
    registry_commands(&work, &url, &ns);
}

#[test]
fn registry_commands_against_dir() {
    let work = Work::sample();
    for v in ["0.1.0", "0.2.0"] {
        assert_code(&run(&work, "pipelines/sample.yaml", v, &[], &[]), 0);
    }
    let registry = format!("dir:{}", work.path().join("_out/registry").display());
    registry_commands(&work, &registry, "sample");
}

#[test]
fn fetch_previous_reads_a_nested_tree_from_the_server() {
    let Some(url) = peer("APPR_URL") else { return };
    let work = Work::sample();
    let ns = unique("nested");
    let file = pipeline_at(&work, &url, &ns, "  layout: nested\n");
    assert_code(&run(&work, file, "0.1.0", &[], &[]), 0);
    let o = run(&work, file, "0.2.0", &[], &[]);
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains(&format!("{PKG}.v0.2.0 replaces {PKG}.v0.1.0, head of alpha in release 0.1.0; bundle carries 2 CSVs")),
        "{}",
        stderr(&o)
    );
    let head = show(&work, &url, &ns, "0.2.0");
    assert_eq!(
        head["channels"][0]["chain"],
        serde_json::json!([format!("{PKG}.v0.2.0"), format!("{PKG}.v0.1.0")])
    );
}
