//! Integration tests of the render stage: the sample operator's manifests against snapshots,
//! determinism, `createdAt`, template errors, and KubeVirt's real inputs at all eight release
//! tags (from ../shared; skipped locally when absent, required under CI=true).

mod install_schemas;
mod kubevirt;
mod oracle;
mod schema;

use std::path::{Path, PathBuf};

use serde_yaml_ng::Value;

use crate::support::{self, Work, assert_code, list_files, stderr};

/// A fixed `SOURCE_DATE_EPOCH`: 2019-04-05T00:00:00Z, the day v0.16.0 was released.
const EPOCH: &str = "1554422400";
const EPOCH_TEXT: &str = "2019-04-05T00:00:00Z";

fn yaml_file(path: &Path) -> Value {
    serde_yaml_ng::from_str(&std::fs::read_to_string(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Renders the sample pipeline in `work` into `out` with `env`.
fn render_sample(work: &Work, out: &str, env: &[(&str, &str)]) -> PathBuf {
    let o = work.run(&["render", "pipelines/sample.yaml", "--out", out], env);
    assert_code(&o, 0);
    work.path().join(out)
}

#[test]
fn sample_manifests_match_the_snapshots_and_are_deterministic() {
    let work = Work::sample();
    let a = render_sample(&work, "a", &[("SOURCE_DATE_EPOCH", EPOCH)]);
    let b = render_sample(&work, "b", &[("SOURCE_DATE_EPOCH", EPOCH)]);
    let files = list_files(&a);
    assert_eq!(files, list_files(&b));
    for f in &files {
        assert_eq!(
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
            "{f} differs between two renders of the same inputs"
        );
    }
    let snapshots = support::root().join("tests/snapshots/render/sample");
    if std::env::var("UPDATE_SNAPSHOTS").as_deref() == Ok("1") {
        let _ = std::fs::remove_dir_all(&snapshots);
        support::copy_dir(&a, &snapshots);
    }
    assert_eq!(
        files,
        list_files(&snapshots),
        "rendered files differ from tests/snapshots/render/sample (UPDATE_SNAPSHOTS=1 rewrites them)"
    );
    for f in &files {
        let got = std::fs::read_to_string(a.join(f)).unwrap();
        let want = std::fs::read_to_string(snapshots.join(f)).unwrap();
        assert!(
            got == want,
            "{f} differs from its snapshot (UPDATE_SNAPSHOTS=1 rewrites it)\n--- got\n{got}\n--- want\n{want}"
        );
    }
}

#[test]
fn sample_csv_is_assembled_from_rbac_deployment_and_icon_files() {
    let work = Work::sample();
    let out = render_sample(&work, "out", &[("SOURCE_DATE_EPOCH", EPOCH)]);
    let csv = yaml_file(&out.join("bundle/sample-operator.v0.1.0.clusterserviceversion.yaml"));
    let fixture = work.path().join("fixtures/sample-operator");

    let icon = &csv["spec"]["icon"][0];
    assert_eq!(icon["mediatype"].as_str(), Some("image/png"));
    assert_eq!(
        oracle::decode(icon["base64data"].as_str().unwrap()),
        std::fs::read(fixture.join("icon.png")).unwrap()
    );

    // The operator's ClusterRole rules, then the sample-workload Role's.
    let rbac = oracle::docs(&std::fs::read_to_string(fixture.join("rbac/rbac.yaml.in")).unwrap());
    let rules_of = |name: &str| {
        rbac.iter()
            .find(|d| d["metadata"]["name"].as_str() == Some(name) && d.get("rules").is_some())
            .unwrap()["rules"]
            .as_sequence()
            .unwrap()
            .clone()
    };
    let mut expected = rules_of("sample-operator");
    expected.extend(rules_of("sample-workload"));
    let perms = &csv["spec"]["install"]["spec"]["clusterPermissions"];
    assert_eq!(
        perms[0]["serviceAccountName"].as_str(),
        Some("sample-operator")
    );
    assert_eq!(perms[0]["rules"], Value::Sequence(expected));

    let deploy = oracle::substitute(
        &std::fs::read_to_string(fixture.join("deploy/operator.yaml.in")).unwrap(),
        &[("{{.Namespace}}", "sample"), ("{{.DockerTag}}", "v0.1.0")],
    );
    let deploy: Value = serde_yaml_ng::from_str(&deploy).unwrap();
    let d = &csv["spec"]["install"]["spec"]["deployments"][0];
    assert_eq!(d["name"].as_str(), Some("sample-operator"));
    assert_eq!(d["spec"], deploy["spec"]);

    let annotations = &csv["metadata"]["annotations"];
    assert_eq!(annotations["createdAt"].as_str(), Some(EPOCH_TEXT));
    assert_eq!(
        annotations["containerImage"].as_str(),
        Some("quay.io/example/sample-operator:v0.1.0")
    );
    assert_eq!(csv["spec"]["version"].as_str(), Some("0.1.0"));
}

#[test]
fn created_at_comes_from_the_source_commit_without_source_date_epoch() {
    let work = Work::sample();
    let git = |args: &[&str]| {
        let o = std::process::Command::new("git")
            .current_dir(work.path())
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .env("GIT_COMMITTER_DATE", "2019-08-20T10:11:12Z")
            .env("GIT_AUTHOR_DATE", "2019-08-20T10:11:12Z")
            .output()
            .expect("git is needed for this test");
        assert!(
            o.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "sample"]);
    let out = render_sample(&work, "out", &[]);
    let csv = yaml_file(&out.join("bundle/sample-operator.v0.1.0.clusterserviceversion.yaml"));
    assert_eq!(
        csv["metadata"]["annotations"]["createdAt"].as_str(),
        Some("2019-08-20T10:11:12Z")
    );
}

#[test]
fn an_undefined_variable_names_the_file_line_and_variable() {
    let work = Work::sample();
    let t = work
        .path()
        .join("fixtures/sample-operator/olm/sample-operatorgroup.yaml.in");
    let text = std::fs::read_to_string(&t).unwrap();
    std::fs::write(&t, format!("{text}  labels: {{{{.NoSuchVar}}}}\n")).unwrap();
    let o = work.run(&["render", "pipelines/sample.yaml", "--out", "out"], &[]);
    assert_code(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains("fixtures/sample-operator/olm/sample-operatorgroup.yaml.in:6:")
            && err.contains(".NoSuchVar"),
        "{err}"
    );
    assert!(
        !work.path().join("out").exists(),
        "nothing is written on error"
    );
}

#[test]
fn an_image_that_is_not_png_jpeg_gif_or_svg_is_refused() {
    let work = Work::sample();
    std::fs::write(
        work.path().join("fixtures/sample-operator/icon.png"),
        b"BM\x36\x00\x00\x00 not an image OLM shows",
    )
    .unwrap();
    let o = work.run(&["render", "pipelines/sample.yaml", "--out", "out"], &[]);
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains("icon.png: not a PNG, JPEG, GIF or SVG image"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_svg_icon_gets_its_media_type_from_the_content() {
    let work = Work::sample();
    std::fs::write(
        work.path().join("fixtures/sample-operator/icon.png"),
        "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\"/>\n",
    )
    .unwrap();
    let out = render_sample(&work, "out", &[("SOURCE_DATE_EPOCH", EPOCH)]);
    let csv = yaml_file(&out.join("bundle/sample-operator.v0.1.0.clusterserviceversion.yaml"));
    assert_eq!(
        csv["spec"]["icon"][0]["mediatype"].as_str(),
        Some("image/svg+xml")
    );
}
