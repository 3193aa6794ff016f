//! fetch-previous from the catalog, for a pipeline that publishes only the modern way
//! (`pipelines/sample-catalog.yaml`: bundle image to an `oci:` layout, a file-based catalog, no
//! `registry:`), offline: the CSV inside each pushed image replaces what its catalog entry
//! replaces, a rerun writes nothing, a version below the head is refused (or skipped by
//! `catalog.older`) and writes nothing, two channels give `skips`, a dry-run says which source
//! it read, and a broken catalog is an error naming the file.

use std::io::Read;
use std::path::Path;

use crate::support::{Work, assert_code, file_contents, layout_digest, stderr};

const PIPELINE: &str = "pipelines/sample-catalog.yaml";
const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");
const OUT: &str = "_out/catalog-only";

fn run(work: &Work, pipeline: &str, version: &str, extra: &[&str]) -> std::process::Output {
    let var = format!("VERSION={version}");
    let mut args = vec!["run", pipeline, "--var", &var];
    args.extend(extra);
    work.run(&args, &[EPOCH])
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn blob(layout: &Path, digest: &str) -> Vec<u8> {
    let hex = digest.strip_prefix("sha256:").unwrap();
    std::fs::read(layout.join("blobs/sha256").join(hex)).unwrap()
}

/// The CSV inside the image the layout tags `tag`, read back from its layer.
fn image_csv(work: &Work, tag: &str) -> serde_yaml_ng::Value {
    let layout = work.path().join(OUT).join("oci/sample-operator-bundle");
    let manifest = layout_digest(&layout, tag);
    let manifest: serde_json::Value = serde_json::from_slice(&blob(&layout, &manifest)).unwrap();
    let layer = blob(&layout, manifest["layers"][0]["digest"].as_str().unwrap());
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(&layer[..]));
    for entry in tar.entries().unwrap() {
        let mut entry = entry.unwrap();
        let path = entry.path().unwrap().display().to_string();
        if path.ends_with(".clusterserviceversion.yaml") {
            let mut text = String::new();
            entry.read_to_string(&mut text).unwrap();
            return serde_yaml_ng::from_str(&text).unwrap();
        }
    }
    panic!("no CSV in the image tagged {tag}")
}

fn replaces(csv: &serde_yaml_ng::Value) -> Option<String> {
    csv["spec"]["replaces"].as_str().map(str::to_string)
}

fn skips(csv: &serde_yaml_ng::Value) -> Vec<String> {
    csv["spec"]["skips"]
        .as_sequence()
        .map(|s| s.iter().map(|v| v.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

/// The catalog entry of `name` in `channel`, as the catalog folder has it.
fn entry(work: &Work, channel: &str, name: &str) -> olm_release_olm::fbc::Entry {
    let loaded = olm_release_olm::fbc::disk::read(&work.path().join(OUT).join("catalog")).unwrap();
    loaded
        .catalog
        .channel("sample-operator", channel)
        .and_then(|c| c.entry(name))
        .unwrap_or_else(|| panic!("no entry {name} in channel {channel}"))
        .clone()
}

/// The sample-catalog pipeline with `line` in place of `channel: alpha` and `catalog.older`.
fn variant(work: &Work, file: &str, line: &str, older: &str) -> String {
    let text = std::fs::read_to_string(work.path().join(PIPELINE)).unwrap();
    assert!(text.contains("\nchannel: alpha\n") && text.contains("  older: refuse"));
    let text = text
        .replace("\nchannel: alpha\n", &format!("\n{line}\n"))
        .replace("  older: refuse", &format!("  older: {older}"));
    std::fs::write(work.path().join(file), text).unwrap();
    file.to_string()
}

#[test]
fn catalog_only_releases_put_the_catalog_head_in_the_csv_and_refuse_an_older_version() {
    let work = Work::sample();
    let out = work.path().join(OUT);

    let first = run(&work, PIPELINE, "0.1.0", &[]);
    assert_code(&first, 0);
    let err = stderr(&first);
    assert!(
        err.contains("first release: sample-operator.v0.1.0 has no replaces (the catalog ./_out/catalog-only/catalog does not exist yet)"),
        "{err}"
    );
    assert_eq!(replaces(&image_csv(&work, "0.1.0")), None);

    for (version, previous) in [("0.2.0", "0.1.0"), ("0.3.0", "0.2.0")] {
        let o = run(&work, PIPELINE, version, &[]);
        assert_code(&o, 0);
        let err = stderr(&o);
        assert!(
            err.contains(&format!(
                "previous: read from the catalog ./_out/catalog-only/catalog (no registry: section): channel alpha head sample-operator.v{previous} ({previous})"
            )),
            "{err}"
        );
        let csv = image_csv(&work, version);
        let expected = format!("sample-operator.v{previous}");
        assert_eq!(replaces(&csv).as_deref(), Some(expected.as_str()));
        let name = format!("sample-operator.v{version}");
        assert_eq!(
            entry(&work, "alpha", &name).replaces,
            replaces(&csv),
            "the catalog entry and the CSV in the image name the same predecessor"
        );
        // The bundle folder the image was built from says the same.
        let folder = work
            .path()
            .join("_out/sample-catalog/bundle-image/manifests")
            .join(format!("{name}.clusterserviceversion.yaml"));
        let text = std::fs::read_to_string(folder).unwrap();
        assert!(text.contains(&format!("replaces: {expected}")), "{text}");
    }

    // A rerun of 0.3.0: the same version, the same image, the same catalog; nothing written.
    let before = file_contents(&out);
    let again = run(&work, PIPELINE, "0.3.0", &[]);
    assert_code(&again, 0);
    let err = stderr(&again);
    for needle in [
        "sample-operator.v0.3.0 is already the head of alpha in the catalog ./_out/catalog-only/catalog: re-publishing the same version (replaces sample-operator.v0.2.0",
        "unchanged: bundle image",
        "unchanged: catalog entry",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in\n{err}");
    }
    assert_eq!(
        file_contents(&out),
        before,
        "a rerun of 0.3.0 changed files"
    );

    // 0.2.5 after 0.3.0: refused by fetch-previous, as from an app registry; nothing written.
    let older = run(&work, PIPELINE, "0.2.5", &[]);
    assert_code(&older, 1);
    let err = stderr(&older);
    assert!(
        err.contains("sample-operator.v0.2.5 (version 0.2.5) is older than sample-operator.v0.3.0 (version 0.3.0), the head of channel alpha in the catalog ./_out/catalog-only/catalog")
            && err.contains("set catalog.older: skip"),
        "{err}"
    );
    assert!(!err.contains("==> bundle-image"), "{err}");
    assert_eq!(file_contents(&out), before, "a refused 0.2.5 changed files");

    // A dry-run says which source it read and what it would replace.
    let dry = run(&work, PIPELINE, "0.4.0", &["--dry-run"]);
    assert_code(&dry, 0);
    let err = stderr(&dry);
    for needle in [
        "previous: read from the catalog ./_out/catalog-only/catalog (no registry: section)",
        "sample-operator.v0.4.0 replaces sample-operator.v0.3.0, head of alpha in the catalog",
        "+  replaces: sample-operator.v0.3.0",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in\n{err}");
    }
    assert_eq!(file_contents(&out), before, "a dry-run changed files");
}

#[test]
fn two_channels_read_from_the_catalog_give_replaces_and_skips_and_rerun_unchanged() {
    let work = Work::sample();
    let out = work.path().join(OUT);
    let beta = variant(&work, "beta.yaml", "channel: beta", "refuse");
    let both = variant(&work, "both.yaml", "channels: [alpha, beta]", "refuse");
    // catalog.skips and catalog.skip_range (the catalog section ends the file) reach the CSV in
    // the image as its spec.skips and olm.skipRange, as well as the catalog entries.
    let text = std::fs::read_to_string(work.path().join(&both)).unwrap();
    let text = format!("{text}  skips: [sample-operator.v0.0.9]\n  skip_range: '>=0.0.1 <0.0.9'\n");
    std::fs::write(work.path().join(&both), text).unwrap();
    assert_code(&run(&work, PIPELINE, "0.1.0", &[]), 0);
    assert_code(&run(&work, &beta, "0.2.0", &[]), 0);

    let o = run(&work, &both, "0.3.0", &[]);
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(
        err.contains("channel alpha head sample-operator.v0.1.0 (0.1.0), channel beta head sample-operator.v0.2.0 (0.2.0)")
            && err.contains("sample-operator.v0.3.0 skips sample-operator.v0.2.0, head of channel beta"),
        "{err}"
    );
    let csv = image_csv(&work, "0.3.0");
    assert_eq!(replaces(&csv).as_deref(), Some("sample-operator.v0.1.0"));
    assert_eq!(
        skips(&csv),
        ["sample-operator.v0.0.9", "sample-operator.v0.2.0"]
    );
    assert_eq!(
        csv["metadata"]["annotations"]["olm.skipRange"].as_str(),
        Some(">=0.0.1 <0.0.9")
    );
    // The first channel's entry replaces what the CSV replaces, and skips what it skips; each
    // channel its own head.
    let alpha = entry(&work, "alpha", "sample-operator.v0.3.0");
    assert_eq!(alpha.replaces, replaces(&csv));
    assert_eq!(alpha.skips, skips(&csv));
    assert_eq!(alpha.skip_range.as_deref(), Some(">=0.0.1 <0.0.9"));
    let beta_entry = entry(&work, "beta", "sample-operator.v0.3.0");
    assert_eq!(
        beta_entry.replaces.as_deref(),
        Some("sample-operator.v0.2.0")
    );
    // beta's entry replaces the head the CSV skips, and does not skip it as well.
    assert_eq!(beta_entry.skips, ["sample-operator.v0.0.9"]);

    // The rerun rebuilds the CSV from its catalog entry: the same image, nothing written.
    let before = file_contents(&out);
    let again = run(&work, &both, "0.3.0", &[]);
    assert_code(&again, 0);
    assert!(stderr(&again).contains("already the head of alpha"));
    assert_eq!(file_contents(&out), before, "a rerun changed files");
}

#[test]
fn catalog_older_skip_publishes_nothing_and_a_broken_catalog_names_its_file() {
    let work = Work::sample();
    let out = work.path().join(OUT);
    let skip = variant(&work, "skip.yaml", "channel: alpha", "skip");
    assert_code(&run(&work, &skip, "0.3.0", &[]), 0);
    let before = file_contents(&out);
    let o = run(&work, &skip, "0.2.5", &[]);
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(
        err.contains("sample-operator.v0.2.5 is older than sample-operator.v0.3.0, the head of alpha in the catalog ./_out/catalog-only/catalog; policy 'skip': nothing to publish"),
        "{err}"
    );
    assert_eq!(file_contents(&out), before, "a skipped 0.2.5 changed files");

    // A catalog file that does not parse: an input error naming it, before anything is built.
    std::fs::write(out.join("catalog/broken.yaml"), "schema: [\n").unwrap();
    let o = run(&work, PIPELINE, "0.4.0", &[]);
    assert_code(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains("stage fetch-previous: broken.yaml, document 1: not valid YAML"),
        "{err}"
    );
    // A catalog that parses but breaks opm validate's rules (a second alpha channel document):
    // fetch-previous cannot trust its heads.
    std::fs::write(
        out.join("catalog/broken.yaml"),
        "schema: olm.channel\npackage: sample-operator\nname: alpha\nentries:\n- name: sample-operator.v9.0.0\n",
    )
    .unwrap();
    let o = run(&work, PIPELINE, "0.4.0", &[]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("the catalog ./_out/catalog-only/catalog has")
            && err.contains("so fetch-previous cannot tell what this release replaces")
            && err.contains("fbc-duplicate"),
        "{err}"
    );
    let index = json(&out.join("oci/sample-operator-bundle/index.json"));
    assert!(!index.to_string().contains("\"0.4.0\""), "{index}");
}

/// `pipelines/widget.yaml` (an operator-sdk style package whose CSVs bring their own
/// `replaces`, channels stable and fast, the appregistry-2019 profile) without `registry:`,
/// publishing a bundle image listed in a catalog.
fn widget_catalog_only(w: &Work) -> String {
    let text = std::fs::read_to_string(w.path().join("pipelines/widget.yaml")).unwrap();
    let (start, end) = (
        text.find("registry:\n").unwrap(),
        text.find("verify:\n").unwrap(),
    );
    let stages = "stages: [render, fetch-previous, package, verify, push]";
    assert!(text.contains(stages), "pipelines/widget.yaml changed shape");
    let text = format!("{}{}", &text[..start], &text[end..]).replace(
        stages,
        &format!(
            // The layout folder `image_csv` reads.
            "bundle_image:\n  target: oci:{OUT}/oci/sample-operator-bundle\n  image: quay.io/example/widget-operator-bundle\n\
             catalog:\n  dir: {OUT}/catalog\n\
             stages: [render, fetch-previous, package, verify, bundle-image, catalog]"
        ),
    );
    let file = "pipelines/widget-catalog.yaml";
    std::fs::write(w.path().join(file), text).unwrap();
    file.into()
}

#[test]
fn a_first_release_from_the_catalog_clears_a_dangling_replaces_and_2019_verify_accepts_the_next() {
    let w = crate::operator_sdk::work();
    let pipeline = widget_catalog_only(&w);
    // 0.2.0's CSV says it replaces 0.1.0, which the (missing) catalog does not have.
    let o = run(&w, &pipeline, "0.2.0", &[]);
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(
        err.contains("widget-operator.v0.2.0: cleared spec.replaces 'widget-operator.v0.1.0': it names nothing published, so this is a first release"),
        "{err}"
    );
    assert_eq!(replaces(&image_csv(&w, "0.2.0")), None);
    let loaded = olm_release_olm::fbc::disk::read(&w.path().join(OUT).join("catalog")).unwrap();
    for channel in ["stable", "fast"] {
        let e = loaded
            .catalog
            .channel("widget-operator", channel)
            .and_then(|c| c.entry("widget-operator.v0.2.0"))
            .unwrap_or_else(|| panic!("no 0.2.0 in {channel}"));
        assert_eq!(e.replaces, None, "{channel}");
    }

    // 0.3.0 replaces the catalog's head; the app-registry profile accepts a replaces naming a
    // CSV outside the one-CSV bundle (a warning: a pruned tail), as registry+v1 bundles are.
    let o = run(&w, &pipeline, "0.3.0", &[]);
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(
        err.contains("channel stable head widget-operator.v0.2.0 (0.2.0), channel fast head widget-operator.v0.2.0 (0.2.0)")
            && err.contains("warning[replaces-pruned]")
            && err.contains("bundle valid under profile appregistry-2019"),
        "{err}"
    );
    let csv = image_csv(&w, "0.3.0");
    assert_eq!(replaces(&csv).as_deref(), Some("widget-operator.v0.2.0"));
    assert!(skips(&csv).is_empty(), "both channels had the same head");
}

/// A published version joins another channel on the catalog-only path, and the same command
/// run again writes nothing: the image at the version's tag is the same bundle, labelled with
/// the channel it was first published on, so it is kept. A changed bundle at the same version
/// is still refused at the tag.
#[test]
fn a_published_version_joins_a_channel_from_the_catalog_and_a_rerun_writes_nothing() {
    let work = Work::sample();
    let out = work.path().join(OUT);
    let both = variant(&work, "both.yaml", "channels: [alpha, beta]", "refuse");
    assert_code(&run(&work, PIPELINE, "0.1.0", &[]), 0);
    assert_code(&run(&work, PIPELINE, "0.2.0", &[]), 0);
    let image = image_csv(&work, "0.2.0");
    // 0.2.0 joins beta: a new entry there, the image kept.
    let o = run(&work, &both, "0.2.0", &[]);
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains("the same bundle labelled with channel alpha: kept"),
        "{}",
        stderr(&o)
    );
    assert_eq!(image_csv(&work, "0.2.0"), image);
    // Its entry in the new channel carries the CSV's own replaces, as opm writes it (a
    // channel's tail may replace a bundle the channel does not hold).
    assert_eq!(
        entry(&work, "beta", "sample-operator.v0.2.0").replaces,
        replaces(&image)
    );
    assert_eq!(replaces(&image).as_deref(), Some("sample-operator.v0.1.0"));
    // The same command again: nothing written.
    let before = file_contents(&out);
    let again = run(&work, &both, "0.2.0", &[]);
    assert_code(&again, 0);
    assert_eq!(file_contents(&out), before, "{}", stderr(&again));
    // Another bundle at the published version's tag is refused, as before.
    let csv = work
        .path()
        .join("fixtures/sample-operator/olm/bundle/sample-operator.vVERSION.clusterserviceversion.yaml.in");
    let text = std::fs::read_to_string(&csv).unwrap();
    std::fs::write(
        &csv,
        text.replacen(
            "description: Runs Sample workloads.",
            "description: Runs Sample workloads, changed.",
            1,
        ),
    )
    .unwrap();
    let before = file_contents(&out);
    let changed = run(&work, &both, "0.2.0", &[]);
    assert_code(&changed, 1);
    assert!(
        stderr(&changed).contains("a published tag is not moved silently")
            && stderr(&changed)
                .contains("sample-operator.v0.2.0 is already published, and sha256:")
            && stderr(&changed).contains("is not this run's bundle with other channel labels"),
        "{}",
        stderr(&changed)
    );
    assert_eq!(file_contents(&out), before);
}

/// A catalog-only run holds the catalog folder's lock from fetch-previous to the catalog write,
/// so racing jobs on one folder read, decide and write one after the other.
#[test]
fn a_catalog_only_run_holds_the_folder_lock_from_fetch_previous_to_the_write() {
    let work = Work::sample();
    assert_code(&run(&work, PIPELINE, "0.1.0", &[]), 0);
    let catalog = work.path().join(OUT).join("catalog");
    let before = file_contents(&catalog);
    let held = std::fs::File::open(&catalog).unwrap();
    held.lock().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_olm-release"))
        .current_dir(work.path())
        .args(["run", PIPELINE, "--var", "VERSION=0.2.0"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap())
        .env(EPOCH.0, EPOCH.1)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the job went on while another held the catalog"
    );
    assert_eq!(file_contents(&catalog), before);
    drop(held);
    let o = child.wait_with_output().unwrap();
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(
        err.contains(
            "waited for another job publishing to the catalog ./_out/catalog-only/catalog"
        ),
        "{err}"
    );
    assert!(
        err.contains("channel alpha head sample-operator.v0.1.0"),
        "{err}"
    );
}

#[test]
fn a_catalog_skip_range_other_than_the_csvs_is_a_problem_with_its_line() {
    let work = Work::sample();
    let text = std::fs::read_to_string(work.path().join(PIPELINE)).unwrap();
    let text = text.replace(
        "\nchannel: alpha\n",
        "\nchannel: alpha\nskip_range: '<0.1.0'\n",
    );
    let text = format!("{text}  skip_range: '<0.0.5'\n");
    std::fs::write(work.path().join("ranges.yaml"), &text).unwrap();
    let line = text
        .lines()
        .position(|l| l.starts_with("  skip_range"))
        .unwrap()
        + 1;
    let o = run(&work, "ranges.yaml", "0.1.0", &[]);
    assert_code(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains(&format!("ranges.yaml:{line}"))
            && err.contains("catalog.skip_range '<0.0.5' differs from skip_range '<0.1.0'"),
        "{err}"
    );
    assert!(!work.path().join(OUT).exists(), "nothing runs");
}
