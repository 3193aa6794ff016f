//! `olm-release publish DIR`: the package, verify and push stages as one command. It must pack a
//! folder exactly as the pipeline does (same digest), push through the push stage's rules
//! (idempotent by digest, conflict unless --force, dry-run sends nothing), verify before pushing,
//! and refuse a --package that is not the bundle's packageName.

use std::path::{Path, PathBuf};

use olm_release_appregistry::ReleaseInfo;
use olm_release_appregistry::dir::DirRegistry;

use crate::appr::unique;
use crate::support::{Work, assert_code, peer, stderr};

/// The sample pipeline run into its dir: registry; returns the bundle folder and the digest the
/// pipeline published.
fn pipeline_bundle(work: &Work) -> (PathBuf, String) {
    let o = work.run(&["run", "pipelines/sample.yaml"], &[]);
    assert_code(&o, 0);
    let published = releases(&work.path().join("_out/registry"), "sample");
    (
        work.path().join("_out/sample-release/bundle"),
        published[0].digest.clone(),
    )
}

fn releases(registry: &Path, ns: &str) -> Vec<ReleaseInfo> {
    DirRegistry::new(registry)
        .releases(ns, "sample-operator")
        .unwrap()
}

fn publish(
    work: &Work,
    bundle: &Path,
    registry: &str,
    ns: &str,
    extra: &[&str],
) -> std::process::Output {
    let mut args = vec![
        "publish",
        bundle.to_str().unwrap(),
        "--registry",
        registry,
        "--namespace",
        ns,
        "--package",
        "sample-operator",
        "--release",
        "0.1.0",
    ];
    args.extend_from_slice(extra);
    work.run(&args, &[])
}

#[test]
fn publish_packs_like_the_pipeline_and_pushes_idempotently() {
    let work = Work::sample();
    let (bundle, pipeline_digest) = pipeline_bundle(&work);
    let reg = work.path().join("published");
    let url = format!("dir:{}", reg.display());

    let first = publish(&work, &bundle, &url, "t", &[]);
    assert_code(&first, 0);
    let got = releases(&reg, "t");
    assert_eq!(got.len(), 1);
    assert_eq!(
        got[0].digest, pipeline_digest,
        "publish of the pipeline's bundle folder gives the pipeline's digest"
    );
    for stage in ["==> package", "==> verify", "==> push"] {
        assert!(
            stderr(&first).contains(stage),
            "{stage}:\n{}",
            stderr(&first)
        );
    }

    let again = publish(&work, &bundle, &url, "t", &[]);
    assert_code(&again, 0);
    assert!(stderr(&again).contains("unchanged"), "{}", stderr(&again));

    // Other content under the same release: refused, then overwritten with --force.
    let nested = publish(&work, &bundle, &url, "t", &["--layout", "nested"]);
    assert_code(&nested, 1);
    assert!(stderr(&nested).contains("already published with different content"));
    assert_eq!(releases(&reg, "t")[0].digest, pipeline_digest);
    let forced = publish(
        &work,
        &bundle,
        &url,
        "t",
        &["--layout", "nested", "--force"],
    );
    assert_code(&forced, 0);
    assert_ne!(releases(&reg, "t")[0].digest, pipeline_digest);
}

#[test]
fn publish_dry_run_sends_nothing() {
    let work = Work::sample();
    let (bundle, _) = pipeline_bundle(&work);
    let reg = work.path().join("published");
    let o = publish(
        &work,
        &bundle,
        &format!("dir:{}", reg.display()),
        "t",
        &["--dry-run"],
    );
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains("dry-run: skipped bundle release 0.1.0"),
        "{}",
        stderr(&o)
    );
    assert!(releases(&reg, "t").is_empty());
}

#[test]
fn publish_refuses_another_package_name_and_an_invalid_bundle() {
    let work = Work::sample();
    let (bundle, _) = pipeline_bundle(&work);
    let reg = work.path().join("published");
    let url = format!("dir:{}", reg.display());

    let o = work.run(
        &[
            "publish",
            bundle.to_str().unwrap(),
            "--registry",
            &url,
            "--namespace",
            "t",
            "--package",
            "other",
            "--release",
            "0.1.0",
        ],
        &[],
    );
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains("packageName is 'sample-operator'"),
        "{}",
        stderr(&o)
    );

    // The channel head names a CSV the bundle does not hold: verify stops it before the push.
    let pkg = bundle.join("sample-operator.package.yaml");
    let text = std::fs::read_to_string(&pkg).unwrap();
    std::fs::write(
        &pkg,
        text.replace("sample-operator.v0.1.0", "sample-operator.v9.9.9"),
    )
    .unwrap();
    let o = publish(&work, &bundle, &url, "t", &[]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("stage verify"), "{}", stderr(&o));
    assert!(releases(&reg, "t").is_empty(), "nothing was pushed");

    let o = publish(&work, &bundle, &url, "t", &["--release", "v0.1.0"]);
    assert_code(&o, 2);
}

#[test]
fn publish_to_the_real_appr_server() {
    let Some(appr) = peer("APPR_URL") else { return };
    let work = Work::sample();
    let (bundle, pipeline_digest) = pipeline_bundle(&work);
    let ns = unique("publish");
    let o = publish(&work, &bundle, &appr, &ns, &["-v"]);
    assert_code(&o, 0);
    assert!(stderr(&o).contains(&format!(
        "proof: pulled release 0.1.0 back, sha256:{pipeline_digest}"
    )));
    let show = work.run(
        &[
            "registry",
            "show",
            "--registry",
            &appr,
            &format!("{ns}/sample-operator"),
            "--format",
            "json",
        ],
        &[],
    );
    assert_code(&show, 0);
    let listed: Vec<ReleaseInfo> = serde_json::from_slice(&show.stdout).unwrap();
    assert_eq!(listed[0].digest, pipeline_digest);
    let again = publish(&work, &bundle, &appr, &ns, &[]);
    assert_code(&again, 0);
    assert!(stderr(&again).contains("unchanged"));
}

/// Reading a folder one CSV at a time (what `publish` does, to keep a large bundle's memory
/// bounded) finds exactly what the whole-bundle check finds, and packs to the same bytes, on
/// every bundle of the verify corpus, valid and broken alike, under both profiles (the modern
/// one checks the objects beside the CSVs, and each container's resource requests).
#[test]
fn streamed_verification_equals_whole_bundle_verification() {
    use olm_release_olm::validate::{Options, Profile};
    for profile in [Profile::Appregistry2019, Profile::Modern] {
        streamed_equals_whole(&Options::new(profile));
    }
}

fn streamed_equals_whole(opts: &olm_release_olm::validate::Options) {
    use olm_release_olm::archive;
    use olm_release_olm::validate::{self, Sink};

    let root = crate::support::root().join("fixtures/verify");
    let mut dirs = Vec::new();
    for group in ["valid", "broken"] {
        for entry in std::fs::read_dir(root.join(group)).unwrap() {
            dirs.push(entry.unwrap().path());
        }
    }
    dirs.sort();
    let mut compared = 0;
    for dir in dirs {
        let Ok(whole) = archive::read_path_contents(&dir, &Default::default()) else {
            // Folders that cannot be read as a bundle at all are refused the same way both ways.
            assert!(
                archive::read_dir_with(&dir, &Default::default(), |m| (m, ())).is_err(),
                "{}",
                dir.display()
            );
            continue;
        };
        let (skeletons, items) = archive::read_dir_with(&dir, &Default::default(), |csv| {
            let mut sink = Sink::new(opts);
            validate::check_csv(&csv, &mut sink);
            (
                validate::skeleton(&csv),
                (sink.out, archive::csv_list_item(&csv)),
            )
        })
        .unwrap();
        let mut per_csv = Vec::new();
        let mut list = String::new();
        let mut items: Vec<Option<_>> = items.into_iter().map(Some).collect();
        for i in olm_release_olm::canonical_csv_order(&skeletons.bundle.csvs) {
            let (f, item) = items[i].take().unwrap();
            per_csv.extend(f);
            list.push_str(&item);
        }
        per_csv.extend(validate::check_size_streamed(&list, &skeletons, opts));
        let sk = &skeletons.bundle;
        if sk.csvs.is_empty() {
            list.push_str("[]\n");
        }
        assert_eq!(skeletons.objects, whole.objects, "{}", dir.display());
        let flat = archive::flatten(&whole.bundle).unwrap();
        let streamed = archive::flatten_parts(&sk.crds, list, &sk.package).unwrap();
        assert_eq!(flat, streamed, "{}: the same bundle.yaml", dir.display());
        let path = format!("{}/bundle.yaml", whole.bundle.package.package_name);
        let packed = archive::pack(&[(path, flat.into_bytes())], 0).unwrap();
        let a = validate::verify_packed("b", &whole, &packed, opts);
        let b = validate::verify_packed_streamed("b", &skeletons, per_csv, &packed, opts);
        assert_eq!(
            a.findings,
            b.findings,
            "{}: the same findings",
            dir.display()
        );
        compared += 1;
    }
    assert!(
        compared >= 50,
        "the corpus was compared ({compared} bundles)"
    );
}

/// A release pulled with `registry pull` and published again from that folder
/// has the digest the registry has, although the folder lists its CSVs by file name (0.1.0
/// before 0.2.0) and the pipeline wrote the newest first: both are written in one canonical
/// order. So a re-publish from a pulled copy is recognised as already published.
#[test]
fn a_pulled_release_published_again_has_the_registrys_digest() {
    let work = Work::sample();
    assert_code(&work.run(&["run", "pipelines/sample.yaml"], &[]), 0);
    let next = work.run(
        &["run", "pipelines/sample.yaml", "--var", "VERSION=0.2.0"],
        &[],
    );
    assert_code(&next, 0);
    let registry = work.path().join("_out/registry");
    let url = format!("dir:{}", registry.display());
    let published = releases(&registry, "sample");
    let head = published.iter().find(|r| r.release == "0.2.0").unwrap();

    let pulled = work.path().join("pulled");
    let o = work.run(
        &[
            "registry",
            "pull",
            "--registry",
            &url,
            "sample/sample-operator",
            "0.2.0",
            "--out",
            pulled.to_str().unwrap(),
        ],
        &[],
    );
    assert_code(&o, 0);
    let folder = pulled.join("bundle");
    let mut csvs: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".clusterserviceversion.yaml"))
        .collect();
    csvs.sort();
    assert_eq!(
        csvs.len(),
        2,
        "the 0.2.0 release carries both CSVs: {csvs:?}"
    );

    let mut args = vec![
        "publish",
        folder.to_str().unwrap(),
        "--registry",
        &url,
        "--namespace",
        "sample",
        "--package",
        "sample-operator",
        "--release",
        "0.2.0",
    ];
    let again = work.run(&args, &[]);
    assert_code(&again, 0);
    assert!(
        stderr(&again).contains("already published"),
        "{}",
        stderr(&again)
    );
    assert_eq!(
        releases(&registry, "sample"),
        published,
        "nothing was written"
    );

    let fresh = work.path().join("fresh");
    let fresh_url = format!("dir:{}", fresh.display());
    args[3] = &fresh_url;
    assert_code(&work.run(&args, &[]), 0);
    let copy = releases(&fresh, "sample");
    assert_eq!(copy.len(), 1);
    assert_eq!(
        copy[0].digest, head.digest,
        "the same bundle, the same digest"
    );
}
