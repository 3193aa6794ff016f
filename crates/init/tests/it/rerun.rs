//! Re-running `init` over its own output: nothing changes and it says so; a file still as
//! `init` wrote it is refreshed when the repository changed, and one it writes no more is
//! removed; a file the user changed is never overwritten without --force (it is kept and named
//! as a conflict, with the command that shows the difference, while the rest is refreshed); the
//! CSV to start from is the user's once written; a file that is missing is written again.
//! (That the pipeline still runs after a rerun is the application's test.)

use std::path::Path;

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
fn a_rerun_over_its_own_output_changes_nothing_and_never_overwrites_an_edit_without_force() {
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

    // One edit to the pipeline: kept as it is and named as a conflict, while a missing file is
    // written; force replaces the edit.
    let pipeline = r.join("pipelines/release.yaml");
    let edited = std::fs::read_to_string(&pipeline)
        .unwrap()
        .replace("channel: ${CHANNEL:-alpha}", "channel: ${CHANNEL:-stable}");
    std::fs::write(&pipeline, &edited).unwrap();
    std::fs::remove_file(r.join(".travis.yml")).unwrap();
    let kept = widget_init(r, false).unwrap();
    assert_eq!(fate(&kept, r, "pipelines/release.yaml"), Fate::Conflict);
    assert_eq!(fate(&kept, r, ".travis.yml"), Fate::Wrote);
    let text = said(&kept);
    assert!(
        text.contains(&format!(
            "conflict: {} was changed since init wrote it: kept as it is, not refreshed",
            pipeline.display()
        )),
        "{text}"
    );
    assert!(
        text.contains("resolve the conflict (pipelines/release.yaml): see what init writes now with `olm-release init --out _out/init` (with the options you gave) and `diff -u pipelines/release.yaml _out/init/pipelines/release.yaml`"),
        "{text}"
    );
    assert!(!text.contains("nothing changed"), "{text}");
    assert_eq!(std::fs::read_to_string(&pipeline).unwrap(), edited);
    // Still the user's on the next run: the conflict is said again.
    let again = widget_init(r, false).unwrap();
    assert_eq!(fate(&again, r, "pipelines/release.yaml"), Fate::Conflict);
    assert!(again.changed_nothing(), "{:?}", again.files);
    let forced = widget_init(r, true).unwrap();
    assert_eq!(fate(&forced, r, "pipelines/release.yaml"), Fate::Replaced);
    assert_eq!(fate(&forced, r, ".travis.yml"), Fate::Unchanged);
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

#[test]
fn a_rerun_refreshes_what_init_wrote_and_removes_what_it_writes_no_more() {
    let repo = plain();
    let r = repo.path();
    widget_init(r, false).unwrap();
    let record = std::fs::read_to_string(r.join("pipelines/.olm-release-init.sha256")).unwrap();
    assert!(
        record
            .lines()
            .any(|l| l.ends_with("  pipelines/release.yaml")),
        "{record}"
    );
    // The operator's container is renamed and its CRD file goes: the pipeline names the new
    // container, and the template including the CRD is gone.
    let operator = r.join("deploy/operator.yaml");
    let renamed = std::fs::read_to_string(&operator)
        .unwrap()
        .replace("- name: widget-operator\n", "- name: manager\n");
    std::fs::write(&operator, renamed).unwrap();
    std::fs::remove_file(r.join("deploy/crds/widgets.yaml")).unwrap();
    let included = "olm/bundle/widgets.yaml.in";
    assert!(r.join(included).exists());
    let again = widget_init(r, false).unwrap();
    let text = said(&again);
    assert_eq!(
        fate(&again, r, "pipelines/release.yaml"),
        Fate::Refreshed,
        "{text}"
    );
    assert_eq!(fate(&again, r, included), Fate::Removed, "{text}");
    assert!(!r.join(included).exists());
    assert!(
        std::fs::read_to_string(r.join("pipelines/release.yaml"))
            .unwrap()
            .contains("manager: quay.io/example/widget-operator:v${VERSION}"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "refreshed {}",
            r.join("pipelines/release.yaml").display()
        )),
        "{text}"
    );
    assert!(!text.contains("conflict"), "{text}");
}
