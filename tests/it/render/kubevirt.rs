//! KubeVirt's real release inputs at eight tags, rendered with pipelines/kubevirt-release.yaml.
//!
//! The expectations are computed here independently of the code under test: the RBAC and
//! Deployment files are read with plain text substitution of their few `{{.Var}}` actions, the
//! rules concatenated and compared by what they allow, the icon compared byte for byte, and the
//! manifests checked against the OLM CRD schemas of the time (OLM 0.10.0) and of today.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use olm_release::PipelineArgs;
use olm_release::Rendered;
use olm_release_olm::{Finding, Level};
use serde_yaml_ng::Value;

use super::oracle::{canonical, decode, docs, expected_deployment_spec, expected_rules, read};
use super::{EPOCH, EPOCH_TEXT, schema};
use crate::support::{self, assert_code, stderr};

/// Renders one tag through the library, as `olm-release render` does.
fn render(src: &Path, tag: &str, extra: &[(&str, &str)], out: &Path) -> Rendered {
    let mut vars = vec![
        ("TRAVIS_TAG".to_string(), tag.to_string()),
        (
            "REGISTRY_URL".to_string(),
            format!("dir:{}", out.join("registry").display()),
        ),
    ];
    vars.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let args = PipelineArgs {
        pipeline: support::root().join("pipelines/kubevirt-release.yaml"),
        variant: None,
        vars,
        source: src.to_path_buf(),
        out: Some(out.to_path_buf()),
        insecure: false,
    };
    let env = BTreeMap::from([("SOURCE_DATE_EPOCH".to_string(), EPOCH.to_string())]);
    olm_release::render(&args, &env, &out.join("render")).unwrap_or_else(|e| panic!("{tag}: {e}"))
}

fn by_rule<'a>(findings: &'a [Finding], rule: &str) -> Vec<&'a Finding> {
    findings.iter().filter(|f| f.rule == rule).collect()
}

fn validate(label: &str, doc: &Value, crds: &[(&str, &str)], shared: &Path) {
    let api = doc["apiVersion"].as_str().unwrap();
    for (dir, file) in crds {
        let s = schema::from_crd(&shared.join("olm-crds").join(dir).join(file), api);
        let errors = schema::check(&s, doc);
        assert!(
            errors.is_empty(),
            "{label} against {dir}/{file}:\n{errors:#?}"
        );
    }
}

fn check_tag(tag: &str) {
    let Some(shared) = support::shared() else {
        return;
    };
    let src = shared.join("kubevirt").join(tag);
    let minor: u32 = tag.split('.').nth(1).unwrap().parse().unwrap();
    let extra: &[(&str, &str)] = match minor {
        16 => &[("PACKAGE_NAME", "kubevirt"), ("CHANNEL", "beta")],
        17 => &[("CHANNEL", "beta")],
        _ => &[],
    };
    let tmp = tempfile::tempdir().unwrap();
    let r = render(&src, tag, extra, tmp.path());
    let version = tag.trim_start_matches('v');

    // The CSV parses, under the name KubeVirt's templates give it.
    let csv_rel = if minor < 18 {
        format!("bundle/kubevirtoperator.{version}.csv.yaml")
    } else {
        format!("bundle/kubevirtoperator.{tag}.clusterserviceversion.yaml")
    };
    let csv: Value = serde_yaml_ng::from_str(&read(&r.dir, &csv_rel)).unwrap();
    assert_eq!(csv, r.bundle.csvs[0].doc, "{tag}: written CSV = bundle CSV");
    assert_eq!(
        csv["metadata"]["name"].as_str(),
        Some(format!("kubevirtoperator.{version}").as_str())
    );
    assert_eq!(csv["spec"]["version"].as_str(), Some(version));
    assert!(
        csv["spec"].get("replaces").is_none(),
        "{tag}: replaces is fetch-previous's"
    );
    // The annotations are the template's: v0.17 on write createdAt and containerImage
    // themselves; v0.16's CSV has neither, and the pipeline asks for none.
    let annotations = &csv["metadata"]["annotations"];
    if minor >= 17 {
        assert_eq!(annotations["createdAt"].as_str(), Some(EPOCH_TEXT));
        let image = format!("index.docker.io/kubevirt/virt-operator:{tag}");
        assert_eq!(annotations["containerImage"].as_str(), Some(image.as_str()));
    } else {
        assert!(annotations.get("createdAt").is_none(), "{tag}: createdAt");
        assert!(
            annotations.get("containerImage").is_none(),
            "{tag}: containerImage"
        );
    }

    // Rules: exactly the concatenation, by count and content, with no repeated items.
    let perms = csv["spec"]["install"]["spec"]["clusterPermissions"]
        .as_sequence()
        .unwrap();
    assert_eq!(perms.len(), 1);
    assert_eq!(
        perms[0]["serviceAccountName"].as_str(),
        Some("kubevirt-operator")
    );
    let rules = perms[0]["rules"].as_sequence().unwrap();
    let expected = expected_rules(&src, tag);
    assert_eq!(rules.len(), expected.len(), "{tag}: rule count");
    assert_eq!(
        rules.iter().map(canonical).collect::<Vec<_>>(),
        expected,
        "{tag}: rules"
    );
    for r in rules {
        for (k, v) in r.as_mapping().unwrap() {
            let items = v.as_sequence().unwrap();
            let unique: BTreeSet<_> = items.iter().map(|i| i.as_str().unwrap()).collect();
            assert_eq!(unique.len(), items.len(), "{tag}: repeated items in {k:?}");
        }
    }

    // The deployment is the virt-operator Deployment's spec.
    let deployments = csv["spec"]["install"]["spec"]["deployments"]
        .as_sequence()
        .unwrap();
    assert_eq!(deployments.len(), 1);
    assert_eq!(deployments[0]["name"].as_str(), Some("virt-operator"));
    assert_eq!(
        deployments[0]["spec"],
        expected_deployment_spec(&src, tag),
        "{tag}: deployment"
    );

    // The icon is the logo's bytes, typed by its content.
    let icon = &csv["spec"]["icon"].as_sequence().unwrap()[..];
    assert_eq!(icon.len(), 1);
    assert_eq!(icon[0]["mediatype"].as_str(), Some("image/png"));
    assert_eq!(
        decode(icon[0]["base64data"].as_str().unwrap()),
        std::fs::read(src.join("assets/kubevirt_logo.png")).unwrap()
    );

    if minor < 20 {
        placeholders_fill_the_template_at_their_place(&src, tag, &csv);
    }

    // Schemas of 2019 (OLM 0.10.0) and today.
    validate(
        &format!("{tag} CSV"),
        &csv,
        &[
            (
                "olm-0.10.0",
                "0000_50_olm_03-clusterserviceversion.crd.yaml",
            ),
            (
                "operator-framework-api",
                "operators.coreos.com_clusterserviceversions.yaml",
            ),
        ],
        &shared,
    );
    let sub = &docs(&read(&r.dir, "kubevirt-subscription.yaml"))[0];
    validate(
        &format!("{tag} Subscription"),
        sub,
        &[
            ("olm-0.10.0", "0000_50_olm_05-subscription.crd.yaml"),
            (
                "operator-framework-api",
                "operators.coreos.com_subscriptions.yaml",
            ),
        ],
        &shared,
    );
    let og = &docs(&read(&r.dir, "operatorgroup.yaml"))[0];
    validate(
        &format!("{tag} OperatorGroup"),
        og,
        &[
            ("olm-0.8.1", "0000_50_olm_09-operatorgroup.crd.yaml"),
            ("olm-0.10.0", "0000_50_olm_10-operatorgroup.crd.yaml"),
            (
                "operator-framework-api",
                "operators.coreos.com_operatorgroups.yaml",
            ),
        ],
        &shared,
    );

    // The README's known defects, reported with file and field; nothing else, no errors.
    let folded = by_rule(&r.findings, "descriptor-path-folded");
    if minor < 20 {
        let template = if minor < 18 {
            "manifests/release/olm/bundle/kubevirtoperator.VERSION.csv.yaml.in"
        } else {
            "manifests/release/olm/bundle/kubevirtoperator.vVERSION.clusterserviceversion.yaml.in"
        };
        let fields: Vec<&str> = folded.iter().map(|f| f.field.as_str()).collect();
        let want: Vec<String> = (2..=6)
            .map(|i| format!("spec.customresourcedefinitions.owned[0].statusDescriptors[{i}].path"))
            .collect();
        assert_eq!(fields, want, "{tag}");
        assert!(
            folded
                .iter()
                .all(|f| f.file == template && f.level == Level::Warning)
        );
        let d = &csv["spec"]["customresourcedefinitions"]["owned"][0]["statusDescriptors"][2];
        assert_eq!(
            d["path"].as_str(),
            Some("observedKubeVirtVersion"),
            "{tag}: repaired"
        );
        assert_eq!(
            d["x-descriptors"][0].as_str(),
            Some("urn:alm:descriptor:text")
        );
    } else {
        assert!(folded.is_empty(), "{tag}: {folded:?}");
    }
    let sub_pkg = by_rule(&r.findings, "subscription-package");
    let sub_channel = by_rule(&r.findings, "subscription-channel");
    assert_eq!(
        sub_pkg.len(),
        usize::from(minor >= 17),
        "{tag}: {:?}",
        r.findings
    );
    assert_eq!(
        sub_channel.len(),
        usize::from(minor >= 18),
        "{tag}: {:?}",
        r.findings
    );
    for f in sub_pkg.iter().chain(&sub_channel) {
        assert_eq!(
            f.file,
            "manifests/release/olm/kubevirt-subscription.yaml.in"
        );
        assert!(f.field == "spec.name" || f.field == "spec.channel");
    }
    assert_eq!(
        r.findings.len(),
        folded.len() + sub_pkg.len() + sub_channel.len(),
        "{tag}: unexpected findings {:?}",
        r.findings
    );
    assert!(r.findings.iter().all(|f| f.level == Level::Warning));

    // Same inputs, same bytes.
    let again = render(&src, tag, extra, &tmp.path().join("again"));
    for f in &r.files {
        assert_eq!(
            std::fs::read(r.dir.join(&f.path)).unwrap(),
            std::fs::read(again.dir.join(&f.path)).unwrap(),
            "{tag}: {} differs between two renders",
            f.path
        );
    }
}

/// The v0.16–v0.19 CSV templates hold `{{.OperatorRules}}` and `{{.OperatorDeploymentSpec}}`
/// at column 0 under their keys; rendered with the engine alone (no structural assembly after
/// it), the blocks must land under those keys.
fn placeholders_fill_the_template_at_their_place(src: &Path, tag: &str, csv: &Value) {
    use olm_release_gotemplate::{Data, Value as T, render};
    let dir = src.join("manifests/release/olm/bundle");
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("kubevirtoperator."))
        .unwrap();
    let rules = csv["spec"]["install"]["spec"]["clusterPermissions"][0]["rules"].clone();
    let spec = expected_deployment_spec(src, tag);
    let mut data = Data::default();
    for (k, v) in [
        ("CsvVersion", tag.trim_start_matches('v')),
        ("ReplacesCsvVersion", ""),
        ("KubeVirtLogo", "eA=="),
        ("DockerPrefix", "index.docker.io/kubevirt"),
        ("DockerTag", tag),
        ("CreatedAt", EPOCH_TEXT),
    ] {
        data.set_str(k, v);
    }
    data.vars
        .insert("OperatorRules".into(), T::Block(rules.clone()));
    data.vars
        .insert("OperatorDeploymentSpec".into(), T::Block(spec.clone()));
    let text = render("csv", &std::fs::read_to_string(&file).unwrap(), &data).unwrap();
    let out: Value = serde_yaml_ng::from_str(&text).unwrap();
    let install = &out["spec"]["install"]["spec"];
    assert_eq!(
        install["clusterPermissions"][0]["rules"], rules,
        "{tag}: rules block"
    );
    assert_eq!(
        install["deployments"][0]["spec"], spec,
        "{tag}: deployment block"
    );
}

macro_rules! tags {
    ($($name:ident => $tag:literal),* $(,)?) => {
        $(#[test] fn $name() { check_tag($tag) })*
    };
}

tags! {
    kubevirt_v0_16_0_renders => "v0.16.0",
    kubevirt_v0_17_0_renders => "v0.17.0",
    kubevirt_v0_18_0_renders => "v0.18.0",
    kubevirt_v0_19_0_renders => "v0.19.0",
    kubevirt_v0_20_0_renders => "v0.20.0",
    kubevirt_v0_20_1_renders => "v0.20.1",
    kubevirt_v0_21_0_renders => "v0.21.0",
    kubevirt_v0_22_0_renders => "v0.22.0",
}

#[test]
fn kubevirt_v0_16_package_file_disagreeing_with_the_pipeline_is_an_error() {
    let Some(shared) = support::shared() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    // Defaults: package kubevirt-operatorhub, channel alpha; v0.16.0's package file hard-codes
    // package kubevirt on channel beta.
    let r = render(&shared.join("kubevirt/v0.16.0"), "v0.16.0", &[], tmp.path());
    let errors: Vec<(&str, &str)> = r
        .findings
        .iter()
        .filter(|f| f.level == Level::Error)
        .map(|f| (f.rule.as_str(), f.field.as_str()))
        .collect();
    assert_eq!(
        errors,
        [
            ("package-name", "packageName"),
            ("package-channel", "channels")
        ]
    );
}

/// The CLI, as CI runs it from a KubeVirt checkout: `render` alone, `--source`, `--var`.
#[test]
fn kubevirt_release_and_alpha_pipelines_render_from_the_command_line() {
    let Some(shared) = support::shared() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let src = shared.join("kubevirt/v0.22.0");
    let src = src.to_str().unwrap();
    let run = |pipeline: &str, vars: &[&str], out: &PathBuf| {
        let mut args = vec![
            "render",
            pipeline,
            "--source",
            src,
            "--out",
            out.to_str().unwrap(),
        ];
        for v in vars {
            args.extend(["--var", v]);
        }
        support::olm_release(&support::root(), &args, &[("SOURCE_DATE_EPOCH", EPOCH)])
    };
    let out = tmp.path().join("release");
    let o = run(
        "pipelines/kubevirt-release.yaml",
        &["TRAVIS_TAG=v0.22.0", "REGISTRY_URL=dir:/tmp/unused"],
        &out,
    );
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains("warning[subscription-channel]"),
        "{}",
        stderr(&o)
    );
    assert!(
        out.join("bundle/kubevirtoperator.v0.22.0.clusterserviceversion.yaml")
            .is_file()
    );

    let out = tmp.path().join("alpha");
    let o = run(
        "pipelines/kubevirt-alpha.yaml",
        &["CSV_VERSION=0.23.0-alpha.42"],
        &out,
    );
    assert_code(&o, 0);
    let csv = &docs(&read(
        &out,
        "bundle/kubevirtoperator.v0.23.0-alpha.42.clusterserviceversion.yaml",
    ))[0];
    assert_eq!(
        csv["metadata"]["name"].as_str(),
        Some("kubevirtoperator.0.23.0-alpha.42")
    );
    let package = &docs(&read(&out, "bundle/kubevirt-package.yaml"))[0];
    assert_eq!(package["packageName"].as_str(), Some("kubevirt-dev"));
    assert_eq!(
        csv["metadata"]["annotations"]["containerImage"].as_str(),
        Some("index.docker.io/kubevirt/virt-operator:latest")
    );

    // A tag build without its tag is an input error naming the variable.
    let o = run(
        "pipelines/kubevirt-release.yaml",
        &[],
        &tmp.path().join("none"),
    );
    assert_code(&o, 2);
    assert!(stderr(&o).contains("TRAVIS_TAG"), "{}", stderr(&o));
}
