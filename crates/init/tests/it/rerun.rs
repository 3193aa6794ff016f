//! Re-running `init` over its own output: nothing changes and it says so; a file the user
//! changed is never overwritten without --force (nothing at all is written then, and the file
//! is named); the CSV to start from is the user's once written; a file that is missing is
//! written again. (That the pipeline still runs after a rerun is the application's test.)

use std::path::Path;

use olm_release_base::{Class, Classified};
use olm_release_init::{Fate, FileFate, InitError, Outcome, init};

use crate::support::{file_contents, put, request, said};

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

/// `init --github example/widget` of `r`, `--force` when `force`.
fn widget_init(r: &Path, force: bool) -> Result<Outcome, InitError> {
    let mut asked = request(r, Some("example/widget"));
    asked.force = force;
    init(&asked)
}

/// What became of `rel` (relative to `r`).
fn fate(outcome: &Outcome, r: &Path, rel: &str) -> Fate {
    let path = r.join(rel);
    let file: &FileFate = outcome
        .files
        .iter()
        .find(|f| f.path == path)
        .unwrap_or_else(|| panic!("{rel} not in {:?}", outcome.files));
    file.fate
}

#[test]
fn a_rerun_over_its_own_output_changes_nothing_and_never_overwrites_without_force() {
    let repo = plain();
    let r = repo.path();
    widget_init(r, false).unwrap();
    let csv = "olm/bundle/widget-operator.vVERSION.clusterserviceversion.yaml.in";
    let written = file_contents(r);
    // The user completes the CSV to start from: it is theirs now.
    let mine = std::fs::read_to_string(r.join(csv))
        .unwrap()
        .replace("widget-operator on Kubernetes.", "Widgets, managed.");
    std::fs::write(r.join(csv), &mine).unwrap();
    let again = widget_init(r, false).unwrap();
    assert!(again.changed_nothing(), "{:?}", again.files);
    let text = said(&again);
    assert!(
        text.contains("nothing changed: every file init writes is already as it would write it"),
        "{text}"
    );
    assert_eq!(
        fate(&again, r, "pipelines/release.yaml"),
        Fate::Unchanged,
        "{text}"
    );
    assert_eq!(fate(&again, r, csv), Fate::Kept, "{text}");
    assert!(
        text.contains(&format!("kept {} (yours to edit)", r.join(csv).display())),
        "{text}"
    );
    assert!(
        again
            .found
            .contains(&"layout: plain manifests, no CSV yet".to_string()),
        "init's own templates are not taken for the project's:\n{text}"
    );
    assert!(!text.contains("wrote "), "{text}");
    assert_eq!(std::fs::read_to_string(r.join(csv)).unwrap(), mine);

    // One edit to the pipeline: kept, named, nothing written; force replaces it.
    let pipeline = r.join("pipelines/release.yaml");
    let edited = std::fs::read_to_string(&pipeline)
        .unwrap()
        .replace("channel: ${CHANNEL:-alpha}", "channel: ${CHANNEL:-stable}");
    std::fs::write(&pipeline, &edited).unwrap();
    std::fs::remove_file(r.join(".travis.yml")).unwrap();
    let before = file_contents(r);
    let refused = widget_init(r, false).unwrap_err();
    assert_eq!(refused.class(), Class::Input, "exit 2");
    assert!(
        matches!(&refused, InitError::Exists { files } if files == &["pipelines/release.yaml"]),
        "{refused:?}"
    );
    assert_eq!(
        refused.to_string(),
        "not overwriting pipelines/release.yaml: it differs from what init writes now; pass --force to replace it, or --out DIR to write elsewhere"
    );
    assert_eq!(file_contents(r), before, "nothing at all was written");
    let forced = widget_init(r, true).unwrap();
    assert_eq!(fate(&forced, r, "pipelines/release.yaml"), Fate::Replaced);
    assert_eq!(fate(&forced, r, ".travis.yml"), Fate::Wrote);
    assert_eq!(fate(&forced, r, csv), Fate::Kept);
    let text = said(&forced);
    assert!(
        text.contains(&format!("replaced {}", pipeline.display())),
        "{text}"
    );
    assert!(!text.contains("nothing changed"), "{text}");
    let mut expected = written.clone();
    for (rel, bytes) in &mut expected {
        if rel == csv {
            *bytes = mine.clone().into_bytes();
        }
    }
    assert_eq!(
        file_contents(r),
        expected,
        "force wrote back what init writes"
    );
}
