//! KubeVirt's real inputs, released in tag order v0.16.0 → v0.22.0 against the real appr 0.7.4
//! server, the way Travis would have run `pipelines/kubevirt-release.yaml` on each tag — and
//! interoperability with operator-courier in both directions.
//!
//! History is replayed faithfully: v0.16.0 went to package `kubevirt` on channel `beta`; from
//! v0.17.0 the package is `kubevirt-operatorhub`, still on `beta`; from v0.18.0 the channel is
//! `alpha`. So the alpha chain starts at 0.18.0 (no `replaces`: its channel had no head yet),
//! while the 0.17.0 CSV stays in the bundle as the head of `beta`.

use std::path::{Path, PathBuf};
use std::process::Command;

use olm_release_olm::validate::Profile;
use olm_release_olm::{Bundle, archive};

use crate::appr::unique;
use crate::support::{self, Work, assert_code, peer, stderr, stdout};
use crate::verify::{courier_verify, ours, show};

pub(crate) const TAGS: [&str; 8] = [
    "v0.16.0", "v0.17.0", "v0.18.0", "v0.19.0", "v0.20.0", "v0.20.1", "v0.21.0", "v0.22.0",
];

/// The KubeVirt release pipeline without its GitHub stage (GitHub is tested on its own).
pub(crate) fn registry_only_pipeline(work: &Work) -> PathBuf {
    let text =
        std::fs::read_to_string(support::root().join("pipelines/kubevirt-release.yaml")).unwrap();
    let all = "stages: [render, fetch-previous, package, verify, push, release]";
    assert!(
        text.contains(all),
        "the KubeVirt pipeline changed its stages"
    );
    let path = work.path().join("kubevirt-registry.yaml");
    std::fs::write(
        &path,
        text.replace(
            all,
            "stages: [render, fetch-previous, package, verify, push]",
        ),
    )
    .unwrap();
    path
}

/// Runs the pipeline for `tag` from the shared KubeVirt checkout of that tag.
pub(crate) fn release(
    work: &Work,
    pipeline: &Path,
    shared: &Path,
    tag: &str,
    url: &str,
    ns: &str,
) -> std::process::Output {
    let (package, channel) = match tag {
        "v0.16.0" => ("kubevirt", "beta"),
        "v0.17.0" => ("kubevirt-operatorhub", "beta"),
        _ => ("kubevirt-operatorhub", "alpha"),
    };
    let source = shared.join("kubevirt").join(tag);
    let out = work.path().join("_out").join(tag);
    let args = [
        "run",
        pipeline.to_str().unwrap(),
        "--source",
        source.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let env = [
        ("TRAVIS_TAG", tag),
        ("REGISTRY_URL", url),
        ("QUAY_REPOSITORY", ns),
        ("PACKAGE_NAME", package),
        ("CHANNEL", channel),
        ("SOURCE_DATE_EPOCH", "1554422400"),
    ];
    work.run(&args, &env)
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// The bundle the server serves as `default` for `ns/pkg`, and its release.
fn served(url: &str, ns: &str, pkg: &str) -> (String, String, Bundle) {
    rt().block_on(async {
        let client = olm_release_appregistry::appr::ApprClient::new(url, None).unwrap();
        let releases = client.releases(ns, pkg).await.unwrap();
        let default = releases.first().expect("the package has releases").clone();
        let gz = client.pull_blob(ns, pkg, &default.digest).await.unwrap();
        let (files, digest) = archive::unpack(&gz, Default::default()).unwrap();
        assert_eq!(
            digest, default.digest,
            "the server's digest is the tar's sha256"
        );
        (
            default.release,
            default.digest,
            archive::read_bundle(&files, &Default::default()).unwrap(),
        )
    })
}

fn csv_names(b: &Bundle) -> Vec<String> {
    let mut names: Vec<String> = b
        .csvs
        .iter()
        .filter_map(|c| c.name().map(str::to_string))
        .collect();
    names.sort();
    names
}

#[test]
fn kubevirt_tags_in_order_build_the_chain_on_the_real_server() {
    let (Some(shared), Some(url)) = (support::shared(), peer("APPR_URL")) else {
        return;
    };
    let work = Work::sample();
    let pipeline = registry_only_pipeline(&work);
    let ns = unique("kubevirt");
    for tag in TAGS {
        let out = release(&work, &pipeline, &shared, tag, &url, &ns);
        assert_code(&out, 0);
        let version = &tag[1..];
        let pkg = if tag == "v0.16.0" {
            "kubevirt"
        } else {
            "kubevirt-operatorhub"
        };
        let (default, digest, bundle) = served(&url, &ns, pkg);
        assert_eq!(default, version, "{tag} is the package's default release");
        let channel = if matches!(tag, "v0.16.0" | "v0.17.0") {
            "beta"
        } else {
            "alpha"
        };
        let head = &bundle
            .package
            .channel(channel)
            .expect("the channel exists")
            .current_csv;
        assert_eq!(
            head,
            &format!("kubevirtoperator.{version}"),
            "{tag} heads {channel}"
        );
        let tar = work
            .path()
            .join("_out")
            .join(tag)
            .join(format!("{pkg}-{version}.tar.gz"));
        let (_, ours_digest) =
            archive::unpack(&std::fs::read(&tar).unwrap(), Default::default()).unwrap();
        assert_eq!(
            digest, ours_digest,
            "{tag}: the server reports the digest we pushed"
        );
        let err = stderr(&out);
        let expected = match tag {
            "v0.16.0" | "v0.17.0" => "has no replaces".to_string(),
            "v0.18.0" => "first release on channel alpha".to_string(),
            _ => {
                let prev = TAGS[TAGS.iter().position(|t| *t == tag).unwrap() - 1];
                format!(
                    "kubevirtoperator.{version} replaces kubevirtoperator.{}",
                    &prev[1..]
                )
            }
        };
        assert!(
            err.contains(&expected),
            "{tag}: expected {expected:?} in\n{err}"
        );
        if tag == "v0.18.0" {
            // A second channel appears: the old implicit default stays the default.
            assert!(
                err.contains("the package now has channels beta, alpha; defaultChannel is beta"),
                "{err}"
            );
        }
        // Each bundle we publish passes courier (as KubeVirt's Travis ran it, without UI rules)
        // and our own verify.
        let dir = work.path().join("_out").join(tag).join("bundle");
        let report = ours(&dir, Profile::Appregistry2019, false);
        assert!(report.is_valid(), "{tag}:\n{}", show(&report));
        if let Some((code, json)) = courier_verify(&dir, false) {
            assert_eq!(code, 0, "courier rejects the {tag} bundle: {json:?}");
        }
    }
    let (_, _, last) = served(&url, &ns, "kubevirt-operatorhub");
    assert_eq!(
        csv_names(&last),
        [
            "kubevirtoperator.0.17.0",
            "kubevirtoperator.0.18.0",
            "kubevirtoperator.0.19.0",
            "kubevirtoperator.0.20.0",
            "kubevirtoperator.0.20.1",
            "kubevirtoperator.0.21.0",
            "kubevirtoperator.0.22.0"
        ]
    );
    let chain: Vec<(String, Option<String>)> =
        ["0.22.0", "0.21.0", "0.20.1", "0.20.0", "0.19.0", "0.18.0"]
            .iter()
            .map(|v| {
                let csv = last.csv(&format!("kubevirtoperator.{v}")).unwrap();
                (v.to_string(), csv.replaces().map(str::to_string))
            })
            .collect();
    assert_eq!(
        chain,
        [
            ("0.22.0".into(), Some("kubevirtoperator.0.21.0".into())),
            ("0.21.0".into(), Some("kubevirtoperator.0.20.1".into())),
            ("0.20.1".into(), Some("kubevirtoperator.0.20.0".into())),
            ("0.20.0".into(), Some("kubevirtoperator.0.19.0".into())),
            ("0.19.0".into(), Some("kubevirtoperator.0.18.0".into())),
            ("0.18.0".into(), None),
        ]
    );
    assert_eq!(
        last.package.channel("alpha").unwrap().current_csv,
        "kubevirtoperator.0.22.0"
    );
    assert_eq!(
        last.package.channel("beta").unwrap().current_csv,
        "kubevirtoperator.0.17.0"
    );
    assert_eq!(last.package.default_channel.as_deref(), Some("beta"));
    assert_eq!(last.crds.len(), 1, "the KubeVirt CRD is carried once");
    // Re-running the last tag is a no-op; a z-stream of an older branch is refused.
    let again = release(&work, &pipeline, &shared, "v0.22.0", &url, &ns);
    assert_code(&again, 0);
    assert!(
        stderr(&again).contains("nothing to do"),
        "{}",
        stderr(&again)
    );
}

/// `APPR_URL` without its `/cnr` suffix: what courier's wrapper rewrites https://quay.io to.
fn courier_base(url: &str) -> String {
    url.trim_end_matches('/')
        .trim_end_matches("/cnr")
        .to_string()
}

#[test]
fn a_bundle_pushed_by_courier_is_read_by_fetch_previous() {
    let (Some(url), Some(python)) = (peer("APPR_URL"), peer("COURIER_PYTHON")) else {
        return;
    };
    let work = Work::sample();
    let ns = unique("courier");
    // Our 0.1.0 bundle folder, pushed by operator-courier itself (through the loopback wrapper).
    let built = work.run(&["-q", "run", "pipelines/sample.yaml", "--dry-run"], &[]);
    assert_code(&built, 0);
    let folder = work.path().join("_out/sample-release/bundle");
    let pushed = Command::new(&python)
        .arg(support::root().join("scripts/courier_local.py"))
        .args([
            "push",
            folder.to_str().unwrap(),
            &ns,
            "sample-operator",
            "0.1.0",
            "basic dGVzdDp0ZXN0",
        ])
        .env("APPR_LOCAL", courier_base(&url))
        .output()
        .unwrap();
    assert!(
        pushed.status.success(),
        "courier push failed: {}{}",
        stdout(&pushed),
        stderr(&pushed)
    );
    // Our 0.2.0 builds on it.
    let pipeline = crate::appr::pipeline_at(&work, &url, &ns, "");
    let next = crate::appr::run(&work, pipeline, "0.2.0", &[], &[]);
    assert_code(&next, 0);
    assert!(
        stderr(&next).contains("sample-operator.v0.2.0 replaces sample-operator.v0.1.0"),
        "{}",
        stderr(&next)
    );
    let (default, _, bundle) = served(&url, &ns, "sample-operator");
    assert_eq!(default, "0.2.0");
    assert_eq!(
        csv_names(&bundle),
        ["sample-operator.v0.1.0", "sample-operator.v0.2.0"]
    );
}

#[test]
fn a_bundle_we_push_unpacks_by_the_reference_rules() {
    let Some(url) = peer("APPR_URL") else { return };
    let work = Work::sample();
    let ns = unique("reference");
    let pipeline = crate::appr::pipeline_at(&work, &url, &ns, "");
    assert_code(&crate::appr::run(&work, pipeline, "0.1.0", &[], &[]), 0);
    let (_, digest, _) = served(&url, &ns, "sample-operator");
    let gz = rt().block_on(async {
        olm_release_appregistry::appr::ApprClient::new(url.as_str(), None)
            .unwrap()
            .pull_blob(&ns, "sample-operator", &digest)
            .await
            .unwrap()
    });
    // operator-registry's rule: exactly one regular file means a flattened bundle.yaml whose
    // data.* values are strings holding YAML lists.
    let (files, _) = archive::unpack(&gz, Default::default()).unwrap();
    assert_eq!(
        files.len(),
        1,
        "one regular file: {:?}",
        files.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    assert!(files[0].0.ends_with("/bundle.yaml"));
    let top: serde_yaml_ng::Value = serde_yaml_ng::from_slice(&files[0].1).unwrap();
    for key in [
        "customResourceDefinitions",
        "clusterServiceVersions",
        "packages",
    ] {
        let text = top["data"][key]
            .as_str()
            .unwrap_or_else(|| panic!("data.{key} is a string"));
        let list: serde_yaml_ng::Value = serde_yaml_ng::from_str(text).unwrap();
        assert!(list.is_sequence(), "data.{key} holds a list");
    }
    // And what marketplace did: gunzip, untar, concatenate the regular files, parse.
    if let Some(python) = peer("COURIER_PYTHON") {
        let script = "import sys,tarfile,io,yaml\nt=tarfile.open(fileobj=io.BytesIO(sys.stdin.buffer.read()),mode='r:gz')\nb=b''.join(t.extractfile(m).read() for m in t.getmembers() if m.isfile())\nd=yaml.safe_load(b)['data']\nprint(len(yaml.safe_load(d['clusterServiceVersions'])), yaml.safe_load(d['packages'])[0]['packageName'])";
        let mut child = Command::new(python)
            .args(["-c", script])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(&gz).unwrap();
        let o = child.wait_with_output().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&o.stdout).trim(),
            "1 sample-operator"
        );
    }
}

/// KubeVirt's alpha releases (v0.18.0 → v0.22.0), released tag by tag, then kept as a
/// package-manifest tree (the package file, one folder per version with its CSV and CRDs) and
/// published again with `publish --history`: the registry serves the same graph.
#[test]
fn kubevirt_tags_kept_as_a_tree_publish_with_history_to_the_same_graph() {
    let Some(shared) = support::shared() else {
        return;
    };
    let work = Work::sample();
    let pipeline = registry_only_pipeline(&work);
    let chain = format!("dir:{}", work.path().join("chain").display());
    let tags = &TAGS[2..];
    for tag in tags {
        let o = release(&work, &pipeline, &shared, tag, &chain, "kubevirt");
        assert_code(&o, 0);
    }
    let last = work
        .path()
        .join("_out")
        .join(tags[tags.len() - 1])
        .join("bundle");
    let bundle = archive::read_path(&last, &Default::default()).unwrap();
    let tree = work.path().join("tree");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::write(
        tree.join(bundle.package.file_name()),
        serde_yaml_ng::to_string(&bundle.package).unwrap(),
    )
    .unwrap();
    for csv in &bundle.csvs {
        let dir = tree.join(csv.spec_version().unwrap());
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join(olm_release_olm::csv_file_name(csv.name().unwrap())),
            serde_yaml_ng::to_string(&csv.doc).unwrap(),
        )
        .unwrap();
        for crd in &bundle.crds {
            std::fs::write(
                dir.join(olm_release_olm::crd_file_name(crd)),
                serde_yaml_ng::to_string(&crd.doc).unwrap(),
            )
            .unwrap();
        }
    }
    let history = format!("dir:{}", work.path().join("history").display());
    let package = bundle.package.package_name.as_str();
    let o = work.run(
        &[
            "publish",
            "--history",
            tree.to_str().unwrap(),
            "--registry",
            &history,
            "--namespace",
            "kubevirt",
            "--package",
            package,
        ],
        &[],
    );
    assert_code(&o, 0);
    let draw = |registry: &str| {
        let o = work.run(
            &[
                "graph",
                "--registry",
                registry,
                "--namespace",
                "kubevirt",
                "--package",
                package,
            ],
            &[],
        );
        assert_code(&o, 0);
        stdout(&o)
    };
    let served = draw(&history);
    assert_eq!(served, draw(&chain));
    assert_eq!(served.matches("↑").count() + 1, tags.len(), "{served}");
}
