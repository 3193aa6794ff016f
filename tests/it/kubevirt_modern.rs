//! KubeVirt v0.18.0 → v0.22.0 published both ways in tag order, end to end against the real
//! peers: the app registry (appr) as in 2019, and a registry+v1 bundle image per tag in the
//! real OCI registry listed in a file-based catalog by digest; then the same history migrated
//! from the app registry by `olm-release migrate`. The catalogs validate, their edges equal the
//! app-registry chain's, `graph --registry` and `graph CATALOG` print the same graph, a
//! `--dry-run` prints the digest it would push and the catalog diff and writes nothing, and a
//! rerun changes nothing.

use std::path::{Path, PathBuf};

use olm_release_oci::{ImageLocation, NoEvents, Store, StoreOptions};
use olm_release_olm::fbc::{self, ReleaseModel};
use olm_release_olm::{Level, archive};

use crate::appr::unique;
use crate::kubevirt_chain::TAGS;
use crate::support::{self, Work, assert_code, file_contents, peer, stderr, stdout};

const PACKAGE: &str = "kubevirt-operatorhub";

/// kubevirt-release.yaml with the bundle-image and catalog stages, without GitHub.
fn both_ways_pipeline(work: &Work) -> PathBuf {
    let text =
        std::fs::read_to_string(support::root().join("pipelines/kubevirt-release.yaml")).unwrap();
    let all = "stages: [render, fetch-previous, package, verify, push, release]";
    assert!(
        text.contains(all),
        "the KubeVirt pipeline changed its stages"
    );
    let path = work.path().join("kubevirt-both.yaml");
    let both = "stages: [render, fetch-previous, package, verify, push, bundle-image, catalog]";
    std::fs::write(&path, text.replace(all, both)).unwrap();
    path
}

struct Run<'a> {
    work: &'a Work,
    pipeline: PathBuf,
    shared: PathBuf,
    appr: String,
    ns: String,
    image: String,
    out: PathBuf,
}

impl Run<'_> {
    fn catalog(&self) -> PathBuf {
        self.out.join("catalog")
    }

    fn tag(&self, tag: &str, extra: &[&str]) -> std::process::Output {
        let source = self.shared.join("kubevirt").join(tag);
        let mut args = vec![
            "run",
            self.pipeline.to_str().unwrap(),
            "--source",
            source.to_str().unwrap(),
            "--out",
            self.out.to_str().unwrap(),
        ];
        args.extend(extra);
        let catalog = self.catalog();
        self.work.run(
            &args,
            &[
                ("TRAVIS_TAG", tag),
                ("REGISTRY_URL", &self.appr),
                ("QUAY_REPOSITORY", &self.ns),
                ("PACKAGE_NAME", PACKAGE),
                ("CHANNEL", "alpha"),
                ("BUNDLE_IMAGE", &self.image),
                ("CATALOG_DIR", catalog.to_str().unwrap()),
                ("SOURCE_DATE_EPOCH", "1554422400"),
            ],
        )
    }
}

async fn tag_at(image: &str, tag: &str) -> Option<String> {
    let store = Store::open(
        &ImageLocation::parse(image).unwrap(),
        StoreOptions::default(),
        &olm_release_oci::NoEvents,
    )
    .unwrap();
    store.resolve(tag, &NoEvents).await.unwrap()
}

/// The catalog at `dir` validates and its release model's edges.
fn catalog_edges(dir: &Path) -> Vec<String> {
    let loaded = fbc::disk::read(dir).unwrap();
    let errors: Vec<String> = fbc::validate(&loaded.catalog)
        .iter()
        .filter(|f| f.level == Level::Error)
        .map(|f| f.to_string())
        .collect();
    assert!(errors.is_empty(), "{}: {errors:#?}", dir.display());
    let model = ReleaseModel::from_catalog(&loaded.catalog, PACKAGE).unwrap();
    model.edges().iter().map(|e| format!("{e:?}")).collect()
}

/// The edges of the app registry's default release.
async fn registry_edges(url: &str, ns: &str) -> Vec<String> {
    let client = olm_release_appregistry::appr::ApprClient::new(url, None).unwrap();
    let releases = client.releases(ns, PACKAGE).await.unwrap();
    let gz = client
        .pull_blob(ns, PACKAGE, &releases[0].digest)
        .await
        .unwrap();
    let bundle = archive::unpack_release(&gz, &releases[0].digest, &Default::default()).unwrap();
    ReleaseModel::from_bundle(&bundle)
        .edges()
        .iter()
        .map(|e| format!("{e:?}"))
        .collect()
}

#[tokio::test]
async fn kubevirt_tags_publish_bundle_images_and_a_catalog_and_migrate() {
    let (Some(shared), Some(appr), Some(registry)) =
        (support::shared(), peer("APPR_URL"), peer("OCI_REGISTRY"))
    else {
        return;
    };
    let work = Work::sample();
    let run = Run {
        work: &work,
        pipeline: both_ways_pipeline(&work),
        shared,
        appr: appr.clone(),
        ns: unique("kubevirt"),
        image: format!("{registry}/{}", crate::oci::repo("kubevirt-bundle")),
        out: work.path().join("_out/run"),
    };
    let tags: Vec<&str> = TAGS
        .iter()
        .copied()
        .skip_while(|t| *t != "v0.18.0")
        .collect();
    assert_eq!(tags.first(), Some(&"v0.18.0"));
    for (i, tag) in tags.iter().enumerate() {
        let version = &tag[1..];
        if i > 0 {
            // A dry-run first: the digest it would push, the catalog diff; nothing written.
            let before = file_contents(&run.catalog());
            let dry = run.tag(tag, &["--dry-run"]);
            assert_code(&dry, 0);
            let err = stderr(&dry);
            let prev = &tags[i - 1][1..];
            for needle in [
                "would push sha256:".to_string(),
                format!("+- name: kubevirtoperator.{version}"),
                format!("+  replaces: kubevirtoperator.{prev}"),
                format!("dry-run: skipped catalog entry kubevirtoperator.{version}"),
            ] {
                assert!(err.contains(&needle), "{tag}: missing {needle:?} in\n{err}");
            }
            assert_eq!(
                file_contents(&run.catalog()),
                before,
                "{tag}: the dry-run wrote the catalog"
            );
            assert_eq!(
                tag_at(&run.image, version).await,
                None,
                "{tag}: pushed by a dry-run"
            );
        }
        let out = run.tag(tag, &[]);
        assert_code(&out, 0);
        let err = stderr(&out);
        assert!(
            err.contains(&format!("published bundle image {}", run.image)),
            "{tag}: {err}"
        );
        let pushed = tag_at(&run.image, version).await.expect("the tag exists");
        let text =
            std::fs::read_to_string(run.catalog().join(PACKAGE).join("catalog.yaml")).unwrap();
        assert!(
            text.contains(&format!("{}@{pushed}", run.image)),
            "{tag}: the catalog pins the pushed digest\n{text}"
        );
    }
    // The catalog validates and keeps the app registry's upgrade graph.
    let edges = catalog_edges(&run.catalog());
    assert_eq!(edges, registry_edges(&appr, &run.ns).await);
    assert!(edges.len() >= tags.len() - 1, "{edges:#?}");
    // `graph --registry` and `graph CATALOG` print the same graph.
    let from_registry = work.run(
        &[
            "graph",
            "--registry",
            &appr,
            "--namespace",
            &run.ns,
            "--package",
            PACKAGE,
        ],
        &[],
    );
    assert_code(&from_registry, 0);
    let from_catalog = work.run(&["graph", run.catalog().to_str().unwrap()], &[]);
    assert_code(&from_catalog, 0);
    assert_eq!(stdout(&from_catalog), stdout(&from_registry));

    // A rerun of the last tag changes nothing, anywhere.
    let before = file_contents(&run.catalog());
    let again = run.tag(tags.last().unwrap(), &[]);
    assert_code(&again, 0);
    assert!(
        stderr(&again).contains("unchanged: bundle image"),
        "{}",
        stderr(&again)
    );
    assert_eq!(file_contents(&run.catalog()), before);

    // Migrating the same history from the app registry gives the same graph.
    let image2 = format!("{registry}/{}", crate::oci::repo("kubevirt-migrated"));
    let migrated = work.path().join("_out/migrated");
    let migrate = |extra: &[&str]| {
        let mut args = vec![
            "migrate",
            "--registry",
            &appr,
            "--namespace",
            &run.ns,
            "--package",
            PACKAGE,
            "--image-target",
            &image2,
            "--catalog",
            migrated.to_str().unwrap(),
        ];
        args.extend(extra);
        work.run(&args, &[("SOURCE_DATE_EPOCH", "1554422400")])
    };
    let dry = migrate(&["--dry-run"]);
    assert_code(&dry, 0);
    assert!(
        stderr(&dry).contains("would push sha256:"),
        "{}",
        stderr(&dry)
    );
    assert!(!migrated.exists(), "a dry-run migrate wrote the catalog");
    assert_eq!(tag_at(&image2, "0.22.0").await, None);
    let first = migrate(&[]);
    assert_code(&first, 0);
    assert_eq!(catalog_edges(&migrated), edges);
    for tag in &tags {
        assert!(tag_at(&image2, &tag[1..]).await.is_some(), "{tag} migrated");
    }
    let drawn = work.run(&["graph", migrated.to_str().unwrap()], &[]);
    assert_eq!(stdout(&drawn), stdout(&from_registry));
    let before = file_contents(&migrated);
    let second = migrate(&[]);
    assert_code(&second, 0);
    assert!(
        !stderr(&second).contains("published"),
        "{}",
        stderr(&second)
    );
    assert_eq!(file_contents(&migrated), before);
}
