//! Catalog templates and deprecations through the pipeline (`catalog.template`,
//! `catalog.deprecate`), offline with the sample operator: a basic template gains each
//! release's bundle stub and channel entry and is rendered into the catalog; a semver template
//! gains the image under its archetype (in the file's own key spelling) and renders generated
//! channels; a rerun writes nothing; an image the catalog cannot render is an error naming it;
//! deprecations land in the package's `olm.deprecations` and are validated.

use olm_release_olm::fbc;

use crate::support::{Work, assert_code, stderr};

const PIPELINE: &str = "pipelines/sample-catalog.yaml";
const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");
const CATALOG: &str = "_out/catalog-only/catalog";

/// The sample-catalog pipeline with `extra` lines added to its `catalog:` section and
/// `channel` as its channel.
fn pipeline(work: &Work, channel: &str, extra: &str) {
    let path = work.path().join(PIPELINE);
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text
        .replace("\nchannel: alpha\n", &format!("\nchannel: {channel}\n"))
        .replace("  older: refuse", &format!("  older: refuse\n{extra}"));
    std::fs::write(&path, text).unwrap();
}

fn run(work: &Work, version: &str) -> std::process::Output {
    let var = format!("VERSION={version}");
    work.run(&["run", PIPELINE, "--var", &var], &[EPOCH])
}

fn catalog(work: &Work) -> fbc::Catalog {
    fbc::disk::read(&work.path().join(CATALOG)).unwrap().catalog
}

fn edges(c: &fbc::Catalog, channel: &str) -> Vec<String> {
    c.channel("sample-operator", channel)
        .unwrap()
        .entries
        .iter()
        .map(|e| format!("{} <{}>", e.name, e.replaces.as_deref().unwrap_or("")))
        .collect()
}

#[test]
fn a_basic_template_gains_each_release_and_renders_the_catalog() {
    let work = Work::sample();
    std::fs::create_dir_all(work.path().join("catalog-templates")).unwrap();
    let template = work.path().join("catalog-templates/basic.yaml");
    std::fs::write(
        &template,
        "schema: olm.template.basic\nentries:\n- schema: olm.package\n  name: sample-operator\n  defaultChannel: alpha\n  description: The sample operator.\n- schema: olm.channel\n  package: sample-operator\n  name: alpha\n  entries: []\n",
    )
    .unwrap();
    pipeline(&work, "alpha", "  template: catalog-templates/basic.yaml");
    assert_code(&run(&work, "0.1.0"), 0);
    assert_code(&run(&work, "0.2.0"), 0);
    let text = std::fs::read_to_string(&template).unwrap();
    assert_eq!(
        text.matches(
            "- schema: olm.bundle\n  image: quay.io/sample/sample-operator-bundle@sha256:"
        )
        .count(),
        2,
        "{text}"
    );
    assert!(text.contains("replaces: sample-operator.v0.1.0"), "{text}");
    let c = catalog(&work);
    assert_eq!(
        edges(&c, "alpha"),
        [
            "sample-operator.v0.1.0 <>",
            "sample-operator.v0.2.0 <sample-operator.v0.1.0>"
        ]
    );
    assert_eq!(
        c.package("sample-operator").unwrap().description.as_deref(),
        Some("The sample operator."),
        "the template's package document is rendered"
    );
    let b = c
        .bundle("sample-operator", "sample-operator.v0.2.0")
        .unwrap();
    assert_eq!(
        b.properties.last().unwrap().type_,
        "olm.csv.metadata",
        "full entries"
    );
    assert!(fbc::validate(&c).is_empty());
    // A rerun changes neither file.
    let (before_t, before_c) = (
        std::fs::read(&template).unwrap(),
        crate::support::file_contents(&work.path().join(CATALOG)),
    );
    assert_code(&run(&work, "0.2.0"), 0);
    assert_eq!(std::fs::read(&template).unwrap(), before_t);
    assert_eq!(
        crate::support::file_contents(&work.path().join(CATALOG)),
        before_c
    );
    // A dry-run shows both diffs and writes neither file.
    let var = "VERSION=0.3.0";
    let dry = work.run(&["run", PIPELINE, "--var", var, "--dry-run"], &[EPOCH]);
    assert_code(&dry, 0);
    let err = stderr(&dry);
    for needle in [
        "+- schema: olm.bundle",
        "+  replaces: sample-operator.v0.2.0",
        "catalog template entry sample-operator.v0.3.0",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in\n{err}");
    }
    assert_eq!(std::fs::read(&template).unwrap(), before_t);
    assert_eq!(
        crate::support::file_contents(&work.path().join(CATALOG)),
        before_c
    );
    // An image the catalog does not list cannot be rendered: nothing is written.
    let stray = "- schema: olm.bundle\n  image: quay.io/other/bundle@sha256:0000000000000000000000000000000000000000000000000000000000000000\n";
    std::fs::write(
        &template,
        format!("{}{stray}", String::from_utf8_lossy(&before_t)),
    )
    .unwrap();
    let out = run(&work, "0.3.0");
    assert_code(&out, 2);
    let err = stderr(&out);
    assert!(
        err.contains("catalog template ")
            && err.contains("lists bundle image quay.io/other/bundle@sha256:0000"),
        "{err}"
    );
    assert_eq!(
        crate::support::file_contents(&work.path().join(CATALOG)),
        before_c
    );
}

#[test]
fn a_semver_template_gains_the_image_and_renders_generated_channels() {
    let work = Work::sample();
    let template = work.path().join("semver.yaml");
    std::fs::write(
        &template,
        "Schema: olm.semver\nGenerateMajorChannels: true\nGenerateMinorChannels: false\nStable:\n  Bundles: []\n",
    )
    .unwrap();
    // The pipeline names a default channel the semver template does not render: a note.
    pipeline(
        &work,
        "stable\ndefault_channel: stable",
        "  template: semver.yaml",
    );
    for v in ["0.1.0", "0.2.0", "1.0.0"] {
        let out = run(&work, v);
        assert_code(&out, 0);
        let err = stderr(&out);
        assert!(
            err.contains("not the pipeline's default_channel stable; set it in the template"),
            "{err}"
        );
    }
    let text = std::fs::read_to_string(&template).unwrap();
    assert_eq!(
        text.matches("  - Image: quay.io/sample/sample-operator-bundle@sha256:")
            .count(),
        3,
        "{text}"
    );
    let c = catalog(&work);
    assert_eq!(
        edges(&c, "stable-v0"),
        [
            "sample-operator.v0.1.0 <>",
            "sample-operator.v0.2.0 <sample-operator.v0.1.0>"
        ]
    );
    assert_eq!(edges(&c, "stable-v1"), ["sample-operator.v1.0.0 <>"]);
    assert_eq!(
        c.package("sample-operator")
            .unwrap()
            .default_channel
            .as_deref(),
        Some("stable-v1")
    );
    assert!(fbc::validate(&c).is_empty(), "{:?}", fbc::validate(&c));
    // A channel that is not an archetype cannot be added to a semver template.
    let work = Work::sample();
    std::fs::write(work.path().join("semver.yaml"), "schema: olm.semver\n").unwrap();
    pipeline(&work, "alpha", "  template: semver.yaml");
    let out = run(&work, "0.1.0");
    assert_code(&out, 2);
    assert!(
        stderr(&out).contains("lists bundles under candidate, fast and stable"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_release_deprecates_older_bundles() {
    let work = Work::sample();
    assert_code(&run(&work, "0.1.0"), 0);
    pipeline(
        &work,
        "alpha",
        "  deprecate:\n    - bundle: sample-operator.v0.1.0\n      message: 0.1.0 loses data on upgrade; install 0.2.0",
    );
    assert_code(&run(&work, "0.2.0"), 0);
    let c = catalog(&work);
    let d = c
        .others
        .iter()
        .find(|o| o.schema == "olm.deprecations")
        .unwrap();
    assert_eq!(d.package(), "sample-operator");
    assert!(fbc::validate(&c).is_empty());
    let text = std::fs::read_to_string(
        work.path()
            .join(CATALOG)
            .join("sample-operator/catalog.yaml"),
    )
    .unwrap();
    assert!(
        text.ends_with("---\nschema: olm.deprecations\npackage: sample-operator\nentries:\n- reference:\n    schema: olm.bundle\n    name: sample-operator.v0.1.0\n  message: '0.1.0 loses data on upgrade; install 0.2.0'\n"),
        "{text}"
    );
    // A rerun: nothing changes. A deprecation of a bundle the package lacks is refused.
    let before = crate::support::file_contents(&work.path().join(CATALOG));
    assert_code(&run(&work, "0.2.0"), 0);
    assert_eq!(
        crate::support::file_contents(&work.path().join(CATALOG)),
        before
    );
    let path = work.path().join(PIPELINE);
    let text = std::fs::read_to_string(&path).unwrap().replace(
        "bundle: sample-operator.v0.1.0",
        "bundle: sample-operator.v0.0.9",
    );
    std::fs::write(&path, text).unwrap();
    let out = run(&work, "0.3.0");
    assert_code(&out, 2);
    assert!(
        stderr(&out).contains(
            "names olm.bundle sample-operator.v0.0.9, which package sample-operator does not have"
        ),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        crate::support::file_contents(&work.path().join(CATALOG)),
        before
    );
}

#[test]
fn template_and_deprecations_are_checked_before_anything_runs() {
    let work = Work::sample();
    pipeline(
        &work,
        "alpha",
        "  template: ../outside.yaml\n  deprecate:\n    - bundle: sample-operator.v0.1.0\n      channel: alpha\n      message: m\n    - package: true\n      message: ' '",
    );
    let out = run(&work, "0.1.0");
    assert_code(&out, 2);
    let err = stderr(&out);
    for says in [
        "catalog.template: ",
        "is not a file inside the source folder",
        "catalog.deprecate[0]: name exactly one of bundle: NAME, channel: NAME or package: true",
        "catalog.deprecate[1]: message is empty",
    ] {
        assert!(err.contains(says), "{says}: {err}");
    }
    assert!(
        !work.path().join(CATALOG).exists(),
        "nothing is written: {err}"
    );
}
