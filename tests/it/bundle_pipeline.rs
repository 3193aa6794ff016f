//! The bundle-image and catalog stages on the embedded default, offline: the sample publishes
//! both ways, a rerun changes nothing, a dry-run writes nothing, the plan's static checks cover
//! the new write targets, and `graph CATALOG` and `migrate` agree with the app registry.

use crate::support::{Work, assert_code, file_contents, layout_digest, stderr, stdout};

const SAMPLE: &str = "pipelines/sample.yaml";
const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");

fn catalog_text(work: &Work) -> String {
    std::fs::read_to_string(
        work.path()
            .join("_out/catalog/sample-operator/catalog.yaml"),
    )
    .unwrap()
}

#[test]
fn the_sample_publishes_both_ways_and_a_rerun_changes_nothing() {
    let work = Work::sample();
    let first = work.run(&["run", SAMPLE], &[EPOCH]);
    assert_code(&first, 0);
    assert!(work.path().join("_out/registry").is_dir());
    let digest = layout_digest(
        &work.path().join("_out/oci/sample-operator-bundle"),
        "0.1.0",
    );
    let text = catalog_text(&work);
    assert!(
        text.contains(&format!(
            "image: quay.io/sample/sample-operator-bundle@{digest}"
        )),
        "{text}"
    );
    let bundle = work.path().join("_out/sample-release/bundle-image");
    assert!(bundle.join("metadata/annotations.yaml").is_file());
    assert!(bundle.join("bundle.Dockerfile").is_file());

    let before = file_contents(&work.path().join("_out"));
    let again = work.run(&["run", SAMPLE], &[EPOCH]);
    assert_code(&again, 0);
    let err = stderr(&again);
    assert!(err.contains("unchanged: bundle image"), "{err}");
    assert!(err.contains("unchanged: catalog entry"), "{err}");
    assert_eq!(
        file_contents(&work.path().join("_out")),
        before,
        "a rerun changed files"
    );

    // 0.2.0: a new image, its entry replacing the catalog's head.
    let next = work.run(&["run", SAMPLE, "--var", "VERSION=0.2.0"], &[EPOCH]);
    assert_code(&next, 0);
    let text = catalog_text(&work);
    assert!(
        text.contains("- name: sample-operator.v0.2.0\n  replaces: sample-operator.v0.1.0"),
        "{text}"
    );
    assert_ne!(
        layout_digest(
            &work.path().join("_out/oci/sample-operator-bundle"),
            "0.2.0"
        ),
        digest
    );

    // A dry-run of 0.3.0 prints the digest and the diff, and writes nothing.
    let before = file_contents(&work.path().join("_out/oci"));
    let catalog = catalog_text(&work);
    let dry = work.run(
        &["run", SAMPLE, "--var", "VERSION=0.3.0", "--dry-run"],
        &[EPOCH],
    );
    assert_code(&dry, 0);
    let err = stderr(&dry);
    for needle in [
        "would push sha256:",
        "the tag holds nothing",
        "+- name: sample-operator.v0.3.0",
        "+  replaces: sample-operator.v0.2.0",
        "dry-run: skipped catalog entry sample-operator.v0.3.0",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in\n{err}");
    }
    assert_eq!(file_contents(&work.path().join("_out/oci")), before);
    assert_eq!(catalog_text(&work), catalog);
}

#[test]
fn graph_of_the_catalog_and_migrate_agree_with_the_app_registry() {
    let work = Work::sample();
    for v in ["0.1.0", "0.2.0", "0.3.0"] {
        let o = work.run(&["run", SAMPLE, "--var", &format!("VERSION={v}")], &[EPOCH]);
        assert_code(&o, 0);
    }
    let registry = [
        "graph",
        "--registry",
        "dir:_out/registry",
        "--namespace",
        "sample",
        "--package",
        "sample-operator",
    ];
    let from_registry = work.run(&registry, &[]);
    assert_code(&from_registry, 0);
    let from_catalog = work.run(&["graph", "_out/catalog"], &[]);
    assert_code(&from_catalog, 0);
    assert!(stdout(&from_catalog).contains("sample-operator.v0.3.0"));
    assert_eq!(stdout(&from_catalog), stdout(&from_registry));

    let migrate = |extra: &[&str]| {
        let mut args = vec![
            "migrate",
            "--registry",
            "dir:_out/registry",
            "--namespace",
            "sample",
            "--package",
            "sample-operator",
            "--image-target",
            "oci:_out/migrated-oci",
            "--image",
            "quay.io/sample/migrated",
            "--catalog",
            "_out/migrated",
        ];
        args.extend(extra);
        work.run(&args, &[EPOCH])
    };
    let dry = migrate(&["--dry-run"]);
    assert_code(&dry, 0);
    assert!(
        stderr(&dry).contains("would push sha256:"),
        "{}",
        stderr(&dry)
    );
    assert!(!work.path().join("_out/migrated").exists());
    assert!(!work.path().join("_out/migrated-oci").exists());
    let first = migrate(&[]);
    assert_code(&first, 0);
    let drawn = work.run(&["graph", "_out/migrated"], &[]);
    assert_eq!(stdout(&drawn), stdout(&from_registry));
    let before = file_contents(&work.path().join("_out"));
    let second = migrate(&[]);
    assert_code(&second, 0);
    assert!(
        !stderr(&second).contains("published"),
        "{}",
        stderr(&second)
    );
    assert_eq!(file_contents(&work.path().join("_out")), before);
}

#[test]
fn the_plan_checks_the_new_write_targets() {
    let work = Work::sample();
    let p = work.path().join(SAMPLE);
    let text = std::fs::read_to_string(&p).unwrap();
    let edited = text
        .replace(
            "target: oci:_out/oci/sample-operator-bundle",
            "target: http://registry.example.com/acme/bundle",
        )
        .replace("dir: _out/catalog", "dir: /etc/olm-catalog");
    std::fs::write(work.path().join("pipelines/p.yaml"), edited).unwrap();
    let o = work.run(&["plan", "pipelines/p.yaml"], &[("OCI_USERNAME", "robot")]);
    assert_code(&o, 2);
    let err = stderr(&o);
    for needle in [
        "bundle_image.target: plain http to registry.example.com/acme/bundle is refused off loopback",
        "catalog.dir: /etc/olm-catalog is outside the source folder",
        "OCI_USERNAME / OCI_PASSWORD: set both",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in\n{err}");
    }
    // A registry off loopback needs the credentials to push (not to dry-run).
    let remote = text.replace(
        "target: oci:_out/oci/sample-operator-bundle",
        "target: quay.io/acme/bundle",
    );
    std::fs::write(work.path().join("pipelines/q.yaml"), remote).unwrap();
    let o = work.run(&["plan", "pipelines/q.yaml"], &[]);
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains(
            "OCI_USERNAME: pushing the bundle image to quay.io/acme/bundle needs credentials"
        ),
        "{}",
        stderr(&o)
    );
    let o = work.run(&["plan", "pipelines/q.yaml", "--dry-run"], &[]);
    assert_code(&o, 0);
    // The password is never printed.
    let o = work.run(
        &["plan", "pipelines/q.yaml"],
        &[("OCI_USERNAME", "robot"), ("OCI_PASSWORD", "s3cr3t-value")],
    );
    assert_code(&o, 0);
    assert!(stdout(&o).contains("credentials: OCI_USERNAME and OCI_PASSWORD"));
    assert!(!stdout(&o).contains("s3cr3t-value") && !stderr(&o).contains("s3cr3t-value"));
}

#[test]
fn another_image_at_the_tag_is_refused_unless_forced() {
    let work = Work::sample();
    let p = work.path().join(SAMPLE);
    let text = std::fs::read_to_string(&p).unwrap().replace(
        "stages: [render, fetch-previous, package, verify, push, bundle-image, catalog, release]",
        "stages: [render, package, verify, bundle-image, catalog]",
    );
    std::fs::write(&p, &text).unwrap();
    let first = work.run(&["run", SAMPLE], &[EPOCH]);
    assert_code(&first, 0);
    let old = layout_digest(
        &work.path().join("_out/oci/sample-operator-bundle"),
        "0.1.0",
    );
    // The same version with other content: another digest.
    std::fs::write(
        &p,
        text.replace("Namespace: sample", "Namespace: elsewhere"),
    )
    .unwrap();
    let refused = work.run(&["run", SAMPLE], &[EPOCH]);
    assert_code(&refused, 1);
    let err = stderr(&refused);
    assert!(err.contains(&format!("already holds {old}")), "{err}");
    assert!(err.contains("--force"), "{err}");
    assert_eq!(
        layout_digest(
            &work.path().join("_out/oci/sample-operator-bundle"),
            "0.1.0"
        ),
        old
    );
    assert!(catalog_text(&work).contains(&old));
    let forced = work.run(&["run", SAMPLE, "--force"], &[EPOCH]);
    assert_code(&forced, 0);
    let new = layout_digest(
        &work.path().join("_out/oci/sample-operator-bundle"),
        "0.1.0",
    );
    assert_ne!(new, old);
    let text = catalog_text(&work);
    assert!(text.contains(&new) && !text.contains(&old), "{text}");
}

/// When a pipeline publishes both ways, the app registry's head and the
/// catalog's head must agree before any write. A catalog that lost the published 0.1.0 stops
/// the 0.2.0 run with both heads named and nothing written anywhere; the one allowed difference,
/// this very release on one side only (the catalog write of an earlier run did not happen), is
/// completed.
#[test]
fn the_registry_and_the_catalog_must_agree_on_the_head_before_any_write() {
    let work = Work::sample();
    assert_code(&work.run(&["run", SAMPLE], &[EPOCH]), 0);
    let catalog = work.path().join("_out/catalog");

    // The registry is ahead by this very release: a rerun of 0.1.0 writes the catalog again.
    std::fs::remove_dir_all(&catalog).unwrap();
    let again = work.run(&["run", SAMPLE], &[EPOCH]);
    assert_code(&again, 0);
    assert!(
        stderr(&again).contains("already has sample-operator.v0.1.0 at the head of channel alpha"),
        "{}",
        stderr(&again)
    );
    assert!(catalog_text(&work).contains("name: sample-operator.v0.1.0"));

    // The catalog lost 0.1.0 while the registry has it: 0.2.0 would fork the graph.
    std::fs::remove_dir_all(&catalog).unwrap();
    let registry = file_contents(&work.path().join("_out/registry"));
    let layout = file_contents(&work.path().join("_out/oci"));
    let o = work.run(&["run", SAMPLE, "--var", "VERSION=0.2.0"], &[EPOCH]);
    assert_code(&o, 1);
    let err = stderr(&o);
    for part in [
        "channel alpha has two different heads",
        "says sample-operator.v0.1.0",
        "says no head (nothing published)",
        "nothing was written",
        "olm-release migrate",
    ] {
        assert!(err.contains(part), "{part}:\n{err}");
    }
    assert_eq!(file_contents(&work.path().join("_out/registry")), registry);
    assert_eq!(file_contents(&work.path().join("_out/oci")), layout);
    assert!(!catalog.exists(), "no catalog was written");
}

/// All or nothing across targets: the push to the app registry comes before
/// the bundle image, so a tag that holds another image of this version is asked about before
/// that first write. The run stops in preflight naming the tag and both digests, and neither
/// the registry, the image layout nor the catalog is written.
#[test]
fn a_bundle_image_the_tag_would_refuse_stops_the_run_before_the_registry_push() {
    let work = Work::sample();
    let p = work.path().join(SAMPLE);
    let text = std::fs::read_to_string(&p).unwrap();
    assert_code(&work.run(&["run", SAMPLE], &[EPOCH]), 0);
    let layout = work.path().join("_out/oci/sample-operator-bundle");
    let old = layout_digest(&layout, "0.1.0");
    // Only the image survives; the next run of 0.1.0 builds other content.
    std::fs::remove_dir_all(work.path().join("_out/registry")).unwrap();
    std::fs::remove_dir_all(work.path().join("_out/catalog")).unwrap();
    std::fs::write(
        &p,
        text.replace("Namespace: sample", "Namespace: elsewhere"),
    )
    .unwrap();
    let images = file_contents(&work.path().join("_out/oci"));
    let refused = work.run(&["run", SAMPLE], &[EPOCH]);
    assert_code(&refused, 1);
    let err = stderr(&refused);
    for part in [
        "stage preflight",
        &format!("already holds {old}"),
        "--force",
    ] {
        assert!(err.contains(part), "{part}:\n{err}");
    }
    assert!(
        !work.path().join("_out/registry").exists()
            || file_contents(&work.path().join("_out/registry")).is_empty(),
        "the app registry was written before the refusal:\n{err}"
    );
    assert_eq!(file_contents(&work.path().join("_out/oci")), images);
    assert!(!work.path().join("_out/catalog").exists(), "{err}");
    // --force publishes both ways.
    assert_code(&work.run(&["run", SAMPLE, "--force"], &[EPOCH]), 0);
    assert_ne!(layout_digest(&layout, "0.1.0"), old);
    assert!(catalog_text(&work).contains("name: sample-operator.v0.1.0"));
}
