//! Parity with the upstream validators' own test suites (their inputs and asserted verdicts,
//! read through `support::shared()`): every case of `expectations.yaml` (operator-courier's
//! test bundles under `appregistry-2019`,
//! operator-framework/api's test data under `modern`, `--operatorhub` where the upstream test
//! is an OperatorHub one) is made into a bundle folder as the case says, verified, and
//! compared with the verdict the upstream test asserts. The test prints a table per suite
//! (agree / too strict / too lenient), the rejected invalid cases and how many of the upstream
//! messages of invalid cases have a finding of the matching rule, and asserts the targets:
//! no valid case rejected unless listed in [`DELIBERATE`] with the reason, every invalid
//! courier case and at least 95 % of the api ones rejected, at least 90 % of the messages
//! matched. A case whose Deployment the Kubernetes API server refuses (a tool both profiles
//! follow, which no upstream suite runs) is listed in [`APISERVER`] with what it refuses. Cases whose verdict is courier's own (`expect: courier`) run the real
//! operator-courier 2.1.11 (the COURIER peer).

mod compose;

use std::path::Path;

use olm_release_olm::validate::{self, Options, Profile, Report};
use serde::Deserialize;

use crate::support;

/// Cases where olm-release deliberately rejects what the upstream test accepts, and why.
const DELIBERATE: &[(&str, &str)] = &[
    (
        "courier/prometheus_valid_nested_bundle_2",
        "the package's only channel names prometheusoperator.0.22.2 as its head, and no folder of the tree holds that CSV, so nothing can be installed from it: courier skips the head check in nested mode (it validates each version folder with the package appended), but the registry loader fails the package (no bundle found for csv prometheusoperator.0.22.2)",
    ),
    (
        "courier/multiplecrds",
        "the operator's image is the placeholder REPLACE_IMAGE, which a build system replaces before shipping: released as it is, the kubelet refuses to pull it (InvalidImageName) and the pod never starts (deployment-image)",
    ),
];

/// Cases whose upstream test runs one validator of operator-framework/api (or compares only the
/// warnings) while api's other validators reject the same input. olm-release runs them all, so
/// it reports those errors, and only errors api itself raises (asserted).
const NARROWER: &[(&str, &str)] = &[
    (
        "api/manifests/valid_package",
        "the test only loads the package; its apiextensions.k8s.io/v1 CRDs carry spec.version and no spec.versions, which api's own CRD validator refuses (as in the api/deprecatedVersion.crd case)",
    ),
    (
        "api/valid_bundle_2(bundle)",
        "the test runs only the bundle validator; api's CSV validator requires spec.displayName and spec.install, which this CSV lacks",
    ),
    (
        "api/correct.csv.empty.example",
        "the test compares warnings only; api's CSV validator also requires spec.displayName",
    ),
    (
        "api/correct.csv.olm.properties.annotation",
        "the test compares warnings only; api's CSV validator also requires spec.displayName and refuses examples of APIs the CSV does not provide",
    ),
    (
        "api/valid_bundle_v1(good practices)",
        "the test runs only the good-practices validator; api's bundle validator refuses a ServiceAccount manifest named as the deployment's service account",
    ),
];

/// Cases whose CSV a cluster cannot install: its Deployment is one the Kubernetes API server
/// refuses (the `apiserver` tool every profile follows; no upstream validator decodes a
/// Deployment's spec). Such a case may carry errors attributed to the API server besides the
/// ones its tool raises (asserted: only those, and at least one).
const APISERVER: &[(&str, &str)] = &[
    (
        "api/correct.csv.empty.example",
        "the etcd-operator Deployment has no spec.selector (spec.selector: Required value)",
    ),
    (
        "api/correct.csv.olm.properties.annotation",
        "the etcd-operator Deployment has no spec.selector (spec.selector: Required value)",
    ),
];

/// Upstream message (a substring) → the rule olm-release reports it under.
const MESSAGES: &[(&str, &str)] = &[
    ("does not contain any packages", "package"),
    ("does not contain any clusterServiceVersions", "bundle-csv"),
    ("should be a list", "field-type"),
    ("must be a list of name & url pairs", "field-type"),
    ("install.strategy not defined", "install"),
    ("install.spec not defined", "install"),
    ("install.strategy must be one of", "install"),
    ("is not a valid semver", "csv-version"),
    ("is not a valid capabilities level", "csv-capabilities"),
    ("is not a valid mediatype", "icon-hub"),
    ("is not a valid category", "csv-categories"),
    ("Only 1 package is expected", "package"),
    ("crd spec.", "crd-fields"),
    (
        "not defined for item in spec.customresourcedefinitions",
        "crd-owned",
    ),
    ("does not match CSV.spec.crd.owned", "crd-owned"),
    ("is not in CRD.spec.versions list", "crd-owned"),
    ("apiVersion removed", "csv-required"),
    ("spec.installModes removed", "install-modes"),
    ("Courier requires valid input YAML files", "file-yaml"),
    ("not found in bundle", "crd-owned"),
    ("packageName empty", "package"),
    ("bundle manifests dir", "file-layout"),
    ("is present in bundle but not defined in CSV", "crd-unowned"),
    ("duplicate CRD", "crd-duplicate"),
    ("invalid service account found in bundle", "service-account"),
    ("Provider.Name not specified", "csv-provider"),
    ("csv.Spec.Maintainers", "csv-maintainers"),
    ("csv.Spec.Links", "csv-links"),
    ("Annotations.Capabilities", "csv-capabilities"),
    ("Icon should only have one element", "icon-hub"),
    ("set of standard categories", "csv-categories"),
    ("csv.Spec.Version must be set", "csv-version-missing"),
    ("install modes not found", "install-modes"),
    (
        "only AllNamespaces InstallModeType",
        "webhook-install-modes",
    ),
    ("uses wrong case", "annotation-case"),
    ("metadata.name is invalid", "csv-name"),
    ("invalid example", "alm-examples"),
    ("MinKubeVersion has an invalid value", "min-kube-version"),
    ("a field of the wrong data type", "field-type"),
    ("unique version names", "crd-versions"),
    ("(v1 CRD with spec.version)", "crd-versions"),
    ("conversionReviewVersions: Required value", "crd-conversion"),
    ("cannot be set to 100%", "object-pdb"),
    ("cannot be set to 0 or 0%", "object-pdb"),
    (
        "globalDefault field cannot be set to true",
        "object-priority-class",
    ),
    ("modify default securitycontextconstraints", "object-rbac"),
    (
        "provided API should have an example",
        "alm-examples-coverage",
    ),
    ("olm.properties annotation", "olm-properties"),
    ("create/update poddisruptionbudgets", "object-rbac-pdb"),
    ("no resource requests", "resource-requests"),
    (
        "not following the recommended naming convention",
        "channel-name",
    ),
    ("removed in v1.", "deprecated-api"),
    ("not defined", "csv-recommended"),
];

fn rule_for(message: &str) -> &'static str {
    MESSAGES
        .iter()
        .find(|(pattern, _)| message.contains(pattern))
        .map(|(_, rule)| *rule)
        .unwrap_or_else(|| panic!("no rule mapped for the upstream message {message:?}"))
}

#[derive(Debug, Deserialize)]
pub(super) struct Case {
    pub(super) id: String,
    pub(super) suite: String,
    pub(super) path: String,
    pub(super) test: String,
    pub(super) tier: String,
    pub(super) expect: String,
    pub(super) profile: Profile,
    pub(super) operatorhub: bool,
    pub(super) input: String,
    #[serde(default)]
    pub(super) upstream_messages: Vec<String>,
    #[serde(default)]
    pub(super) files: Vec<String>,
    #[serde(default)]
    #[allow(dead_code)]
    note: Option<String>,
}

fn verify(suites: &Path, c: &Case, path: &Path) -> Report {
    let categories = c.id.contains("custom_categories").then(|| {
        let file = suites.join("api/pkg/validation/internal/testdata/categories.json");
        validate::read_categories(&file).unwrap()
    });
    let opts = Options {
        profile: c.profile,
        operatorhub: c.operatorhub,
        categories,
        ..Options::default()
    };
    validate::verify_path(path, &opts).unwrap_or_else(|e| panic!("{}: {e}", c.id))
}

#[derive(Default)]
struct Tally {
    agree: usize,
    too_strict: usize,
    too_lenient: usize,
    skipped: usize,
    invalid: usize,
    rejected: usize,
    messages: usize,
    matched: usize,
    warnings: usize,
    warned: usize,
}

#[test]
fn upstream_test_suites_agree() {
    let Some(shared) = support::shared() else {
        return;
    };
    let suites = shared.join("peer-suites");
    let text = std::fs::read_to_string(suites.join("expectations.yaml")).unwrap();
    let cases: Vec<Case> = serde_yaml_ng::from_str(&text).unwrap();
    let courier = support::peer("COURIER").is_some();
    let mut tallies: std::collections::BTreeMap<String, Tally> = Default::default();
    let mut problems = Vec::new();
    let mut strict = Vec::new();
    let mut unmatched = Vec::new();
    for c in &cases {
        let t = tallies.entry(c.suite.clone()).or_default();
        let input = compose::compose(&suites, c);
        let ours = verify(&suites, c, &input.path);
        let expect_valid = match c.expect.as_str() {
            "valid" => true,
            "invalid" => false,
            "courier" => {
                if !courier {
                    t.skipped += 1;
                    continue;
                }
                super::courier_verify(&input.path, c.operatorhub).unwrap().0 == 0
            }
            other => panic!("{}: expect {other}", c.id),
        };
        match (expect_valid, ours.is_valid()) {
            (true, true) | (false, false) => t.agree += 1,
            (true, false) => {
                t.too_strict += 1;
                strict.push(c.id.clone());
                let narrower = NARROWER.iter().any(|(id, _)| *id == c.id);
                let cluster = APISERVER.iter().any(|(id, _)| *id == c.id);
                let by = |f: &olm_release_olm::Finding, tool: &str| {
                    f.mirrors.split(", ").any(|t| t == tool)
                };
                let errors = || {
                    ours.findings
                        .iter()
                        .filter(|f| f.level == olm_release_olm::Level::Error)
                };
                let foreign: Vec<String> = errors()
                    .filter(|f| !(by(f, "api") || (cluster && by(f, "apiserver"))))
                    .map(|f| format!("  {f}"))
                    .collect();
                if cluster && !errors().any(|f| by(f, "apiserver")) {
                    problems.push(format!(
                        "{}: listed in APISERVER, but no error is the API server's",
                        c.id
                    ));
                }
                if narrower && !foreign.is_empty() {
                    problems.push(format!(
                        "{}: errors api does not raise:\n{}",
                        c.id,
                        foreign.join("\n")
                    ));
                }
                if !narrower && !DELIBERATE.iter().any(|(id, _)| *id == c.id) {
                    problems.push(format!(
                        "{} ({}, {}): upstream accepts, we reject:\n{}",
                        c.id,
                        c.test,
                        c.tier,
                        super::show(&ours)
                    ));
                }
            }
            (false, true) => {
                t.too_lenient += 1;
                problems.push(format!(
                    "{} ({}): upstream rejects, we accept:\n{}",
                    c.id,
                    c.test,
                    super::show(&ours)
                ));
            }
        }
        if !expect_valid {
            t.invalid += 1;
            t.rejected += usize::from(!ours.is_valid());
        }
        for m in &c.upstream_messages {
            let rule = rule_for(m);
            let found = ours.findings.iter().any(|f| f.rule == rule);
            if m.starts_with("warn:") {
                t.warnings += 1;
                t.warned += usize::from(found);
            } else if !expect_valid {
                t.messages += 1;
                t.matched += usize::from(found);
            }
            if !found {
                unmatched.push(format!("{}: {m:?} (rule {rule})", c.id));
            }
        }
    }
    let pct = |a: usize, b: usize| {
        if b == 0 {
            100.0
        } else {
            a as f64 * 100.0 / b as f64
        }
    };
    eprintln!("\nupstream suites ({} cases):", cases.len());
    eprintln!(
        "  {:<8} {:>6} {:>11} {:>12} {:>8} {:>14} {:>18} {:>16}",
        "suite",
        "agree",
        "too strict",
        "too lenient",
        "skipped",
        "invalid caught",
        "messages matched",
        "warnings shown"
    );
    for (suite, t) in &tallies {
        eprintln!(
            "  {suite:<8} {:>6} {:>11} {:>12} {:>8} {:>9}/{:<4} {:>8}/{:<3} {:>4.0}% {:>8}/{:<3}",
            t.agree,
            t.too_strict,
            t.too_lenient,
            t.skipped,
            t.rejected,
            t.invalid,
            t.matched,
            t.messages,
            pct(t.matched, t.messages),
            t.warned,
            t.warnings
        );
    }
    for (id, why) in DELIBERATE {
        eprintln!("  stricter on purpose: {id}: {why}");
    }
    for (id, why) in NARROWER {
        eprintln!("  upstream test checks less than its tool: {id}: {why}");
    }
    for (id, why) in APISERVER {
        eprintln!("  the API server refuses it too: {id}: {why}");
    }
    for u in &unmatched {
        eprintln!("  no finding of the matching rule: {u}");
    }
    for (id, _) in DELIBERATE.iter().chain(NARROWER) {
        assert!(
            strict.contains(&id.to_string()),
            "{id} is listed as stricter but is not"
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let courier_t = &tallies["courier"];
    assert_eq!(
        courier_t.rejected, courier_t.invalid,
        "every invalid courier case is rejected"
    );
    let api = &tallies["api"];
    assert!(
        pct(api.rejected, api.invalid) >= 95.0,
        "api invalid cases rejected: {}/{}",
        api.rejected,
        api.invalid
    );
    let (m, n) = tallies
        .values()
        .fold((0, 0), |(m, n), t| (m + t.matched, n + t.messages));
    assert!(pct(m, n) >= 90.0, "messages matched: {m}/{n}");
}
