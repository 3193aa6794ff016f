//! Re-running `init` over its own output: nothing changes and it says so; a file the user
//! changed is never overwritten without --force (nothing at all is written then, and the file
//! is named); the CSV to start from is the user's once written; a file that is missing is
//! written again. The pipeline still runs after each rerun.

use std::path::Path;

use super::{put, run_variant};
use crate::support::{assert_code, file_contents, olm_release, stderr};

/// Plain manifests: a Deployment, its RBAC, a CRD.
fn plain() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    put(
        d,
        "deploy/operator.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: widget-operator\nspec:\n  selector:\n    matchLabels: {name: widget-operator}\n  template:\n    metadata:\n      labels: {name: widget-operator}\n    spec:\n      serviceAccountName: widget-operator\n      containers:\n      - name: widget-operator\n        image: quay.io/example/widget-operator:v0.1.0\n",
    );
    put(
        d,
        "deploy/role.yaml",
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: widget-operator\nrules:\n- apiGroups: [example.com]\n  resources: [widgets]\n  verbs: [get, list, watch]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: widget-operator\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: widget-operator}\nsubjects:\n- {kind: ServiceAccount, name: widget-operator, namespace: widgets}\n",
    );
    put(
        d,
        "deploy/crds/widgets.yaml",
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets, listKind: WidgetList, singular: widget}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema: {type: object}\n",
    );
    dir
}

fn init(r: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["init", "--github", "example/widget"];
    args.extend_from_slice(extra);
    olm_release(r, &args, &[])
}

#[test]
fn a_rerun_over_its_own_output_changes_nothing_and_never_overwrites_without_force() {
    let repo = plain();
    let r = repo.path();
    assert_code(&init(r, &[]), 0);
    let csv = "olm/bundle/widget-operator.vVERSION.clusterserviceversion.yaml.in";
    let written = file_contents(r);
    // The user completes the CSV to start from: it is theirs now.
    let mine = std::fs::read_to_string(r.join(csv))
        .unwrap()
        .replace("widget-operator on Kubernetes.", "Widgets, managed.");
    std::fs::write(r.join(csv), &mine).unwrap();
    let again = init(r, &[]);
    assert_code(&again, 0);
    let said = stderr(&again);
    assert!(
        said.contains("nothing changed: every file init writes is already as it would write it"),
        "{said}"
    );
    assert!(
        said.contains("unchanged ./pipelines/release.yaml"),
        "{said}"
    );
    assert!(
        said.contains(&format!("kept ./{csv} (yours to edit)")),
        "{said}"
    );
    assert!(
        said.contains("found: layout: plain manifests, no CSV yet"),
        "init's own templates are not taken for the project's:\n{said}"
    );
    assert!(!said.contains("wrote "), "{said}");
    assert_eq!(std::fs::read_to_string(r.join(csv)).unwrap(), mine);
    run_variant(r, Path::new("."), "local", "0.1.0", &[], true);
    std::fs::remove_dir_all(r.join("_out")).unwrap();

    // One edit to the pipeline: kept, named, nothing written; --force replaces it.
    let pipeline = r.join("pipelines/release.yaml");
    let edited = std::fs::read_to_string(&pipeline)
        .unwrap()
        .replace("channel: ${CHANNEL:-alpha}", "channel: ${CHANNEL:-stable}");
    std::fs::write(&pipeline, &edited).unwrap();
    std::fs::remove_file(r.join(".travis.yml")).unwrap();
    let before = file_contents(r);
    let refused = init(r, &[]);
    assert_code(&refused, 2);
    assert!(
        stderr(&refused).contains("not overwriting pipelines/release.yaml: it differs from what init writes now; pass --force to replace it, or --out DIR to write elsewhere"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(file_contents(r), before, "nothing at all was written");
    let forced = init(r, &["--force"]);
    assert_code(&forced, 0);
    let said = stderr(&forced);
    assert!(said.contains("replaced ./pipelines/release.yaml"), "{said}");
    assert!(said.contains("wrote ./.travis.yml"), "{said}");
    assert!(said.contains(&format!("kept ./{csv}")), "{said}");
    let mut expected = written.clone();
    for (rel, bytes) in &mut expected {
        if rel == csv {
            *bytes = mine.clone().into_bytes();
        }
    }
    assert_eq!(
        file_contents(r),
        expected,
        "--force wrote back what init writes"
    );
}
