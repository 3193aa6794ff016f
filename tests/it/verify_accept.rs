//! Accepting an error of olm-release's own: a project that ships a CRD whose served versions
//! differ without a conversion webhook (as OpenShift's external-dns-operator does) says so in
//! `verify.accept` with its reason, and the release goes on with a warning carrying it. Only
//! rules no upstream tool enforces can be accepted, a reason is required, an entry that
//! accepts nothing is a warning, and `verify --accept` does the same for a folder.

use crate::support::{Work, assert_code, stderr, stdout};

const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");
const CRD: &str = "fixtures/sample-operator/olm/bundle/samples.example.com.crd.yaml";
const REASON: &str = "v1alpha1 is served for old clients only; paused is lost through it";

/// The sample with its CRD serving v1alpha1 and v1beta1, whose schemas differ (v1beta1 adds
/// `spec.paused`), converted with strategy None.
fn two_versions() -> Work {
    let w = Work::sample();
    let version = |name: &str, storage: bool, extra: &str| {
        format!(
            "    - name: {name}\n      served: true\n      storage: {storage}\n      schema:\n        openAPIV3Schema:\n          type: object\n          properties:\n            spec:\n              type: object\n              properties:\n                size:\n                  type: integer\n{extra}"
        )
    };
    let crd = format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: samples.example.com\nspec:\n  group: example.com\n  scope: Namespaced\n  names:\n    kind: Sample\n    listKind: SampleList\n    plural: samples\n    singular: sample\n  versions:\n{}{}",
        version("v1alpha1", true, ""),
        version(
            "v1beta1",
            false,
            "                paused:\n                  type: boolean\n"
        )
    );
    std::fs::write(w.path().join(CRD), crd).unwrap();
    w
}

/// Appends `verify:` with `accept` entries (YAML, indented under `accept:`) to the sample
/// pipeline.
fn accepting(w: &Work, entries: &str) {
    let path = w.path().join("pipelines/sample.yaml");
    let mut text = std::fs::read_to_string(&path).unwrap();
    assert!(
        !text.contains("\nverify:"),
        "the sample has its own verify: section"
    );
    text.push_str(&format!("verify:\n  accept:\n{entries}"));
    std::fs::write(&path, text).unwrap();
}

fn dry_run(w: &Work) -> std::process::Output {
    w.run(
        &[
            "--format",
            "json",
            "run",
            "pipelines/sample.yaml",
            "--dry-run",
        ],
        &[EPOCH],
    )
}

#[test]
fn the_error_says_how_to_accept_it_and_an_accepted_one_is_a_warning_with_its_reason() {
    let w = two_versions();
    let refused = dry_run(&w);
    assert_code(&refused, 1);
    let err = stderr(&refused);
    assert!(err.contains("error[crd-conversion-schemas]"), "{err}");
    assert!(
        err.contains("verify.accept in the pipeline with rule: crd-conversion-schemas, object: samples.example.com, because: WHY (verify --accept crd-conversion-schemas:samples.example.com=WHY)"),
        "{err}"
    );

    accepting(
        &w,
        &format!(
            "    - rule: crd-conversion-schemas\n      object: samples.example.com\n      because: {REASON}\n"
        ),
    );
    let plan = w.run(&["plan", "pipelines/sample.yaml"], &[EPOCH]);
    assert_code(&plan, 0);
    let text = stdout(&plan);
    assert!(
        text.contains(&format!(
            "accept crd-conversion-schemas for samples.example.com as a warning (verify.accept: {REASON})"
        )),
        "{text}"
    );
    assert!(text.contains("  OLM v0: yes\n"), "{text}");

    let run = dry_run(&w);
    assert_code(&run, 0);
    let err = stderr(&run);
    assert!(
        err.contains(
            "warning[crd-conversion-schemas] samples.example.com.crd.yaml: samples.example.com spec.versions:"
        ) && err.contains(&format!("(olm-release's own check; accepted: {REASON})")),
        "{err}"
    );
    assert!(!err.contains("error["), "{err}");
    let summary: serde_json::Value = serde_json::from_str(&stdout(&run)).unwrap();
    assert_eq!(
        summary["installable"]["olm_v0"]["installs"], true,
        "{summary}"
    );
}

#[test]
fn an_acceptance_for_another_object_accepts_nothing_and_says_so() {
    let w = two_versions();
    accepting(
        &w,
        &format!(
            "    - rule: crd-conversion-schemas\n      object: others.example.com\n      because: {REASON}\n"
        ),
    );
    let run = dry_run(&w);
    assert_code(&run, 1);
    let err = stderr(&run);
    assert!(err.contains("error[crd-conversion-schemas]"), "{err}");
    assert!(
        err.contains("verify.accept names crd-conversion-schemas for others.example.com, but no finding of this release is accepted by it"),
        "{err}"
    );
}

#[test]
fn rules_upstream_tools_enforce_and_acceptances_without_a_reason_are_refused_with_their_lines() {
    let w = Work::sample();
    accepting(
        &w,
        "    - rule: csv-version\n      because: we know\n    - rule: crd-conversion-schemas\n      because: \"  \"\n    - rule: deployment-references\n      because: the admin creates it\n",
    );
    let out = w.run(&["plan", "pipelines/sample.yaml"], &[EPOCH]);
    assert_code(&out, 2);
    let err = stderr(&out);
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("verify.accept:"))
        .collect();
    assert_eq!(lines.len(), 3, "{err}");
    // Each names the line of its entry's own key.
    let text = std::fs::read_to_string(w.path().join("pipelines/sample.yaml")).unwrap();
    let line = |needle: &str| 1 + text.lines().position(|l| l.contains(needle)).unwrap();
    for (problem, at) in lines.iter().zip([
        line("- rule: csv-version"),
        line("because: \"  \""),
        line("- rule: deployment-references"),
    ]) {
        assert!(
            problem.contains(&format!("pipelines/sample.yaml:{at}: ")),
            "{problem} is not at line {at}"
        );
    }
    assert!(
        lines[0].contains("rule csv-version is enforced by")
            && lines[0].contains("acceptable there: "),
        "{err}"
    );
    assert!(lines[1].contains("needs a reason in because:"), "{err}");
    assert!(
        lines[2].contains(
            "name each object the cluster admin creates before installing in verify.provided"
        ),
        "{err}"
    );
}

#[test]
fn verify_accepts_on_the_command_line_and_warns_of_what_matched_nothing() {
    let w = two_versions();
    assert_code(&dry_run(&w), 1);
    let bundle = "_out/sample-release/bundle";
    let refused = w.run(&["verify", bundle], &[]);
    assert_code(&refused, 1);
    let out = w.run(
        &[
            "verify",
            bundle,
            "--accept",
            &format!("crd-conversion-schemas:samples.example.com={REASON}"),
            "--accept",
            "object-webhook-configuration",
        ],
        &[],
    );
    assert_code(&out, 0);
    let (text, err) = (stdout(&out), stderr(&out));
    assert!(text.contains(&format!("accepted: {REASON})")), "{text}");
    assert!(
        err.contains("--accept object-webhook-configuration matched no finding"),
        "{err}"
    );
    let json = w.run(
        &[
            "--format",
            "json",
            "verify",
            bundle,
            "--accept",
            "crd-conversion-schemas",
        ],
        &[],
    );
    assert_code(&json, 0);
    let report: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    let finding = &report["findings"][0];
    assert_eq!(finding["level"], "warning", "{report}");
    assert_eq!(finding["accepted"], "accepted with --accept", "{report}");
    let unknown = w.run(&["verify", bundle, "--accept", "no-such-rule"], &[]);
    assert_code(&unknown, 2);
    assert!(stderr(&unknown).contains("there is no rule \"no-such-rule\""));
}

#[test]
fn publish_accepts_on_the_command_line_too() {
    let w = two_versions();
    assert_code(&dry_run(&w), 1);
    let publish = |extra: &[&str]| {
        let mut args = vec![
            "publish",
            "_out/sample-release/bundle",
            "--registry",
            "dir:_out/registry",
            "--namespace",
            "sample",
            "--package",
            "sample-operator",
            "--release",
            "0.1.0",
        ];
        args.extend_from_slice(extra);
        w.run(&args, &[EPOCH])
    };
    let refused = publish(&[]);
    assert_code(&refused, 1);
    assert!(stderr(&refused).contains("error[crd-conversion-schemas]"));
    // A rule a tool enforces is refused before anything runs, naming the option.
    let enforced = publish(&["--accept", "csv-version"]);
    assert_code(&enforced, 2);
    assert!(
        stderr(&enforced).contains("--accept: rule csv-version is enforced by"),
        "{}",
        stderr(&enforced)
    );
    let out = publish(&["--accept", &format!("crd-conversion-schemas={REASON}")]);
    assert_code(&out, 0);
    let err = stderr(&out);
    assert!(err.contains(&format!("accepted: {REASON})")), "{err}");
    assert!(w.path().join("_out/registry").is_dir());
}
