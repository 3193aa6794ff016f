//! The kubebuilder / operator-sdk projects whose `make bundle` builds a kustomization and pipes
//! it into `operator-sdk generate bundle`: `init` builds the same kustomization (the Makefile's
//! `bundle` target names it, [`super::makefile`]; `config/manifests` by default), turns it
//! into the bundle operator-sdk would write ([`super::generate_bundle`]) and writes that as a
//! snapshot, one file a manifest, under [`SNAPSHOT`]. The pipeline includes the snapshot's
//! files as they are (its CSV complete: deployments, permissions, webhook definitions) and names
//! the kustomization in `render.kustomize`, so each release first checks the snapshot against a
//! fresh build ([`check`]) and stops, naming `olm-release init`, when `config/` has changed.

use std::path::Path;

use serde_yaml_ng::Value;

use super::found::{Found, Layout};
use super::generate_bundle::{self, Ask, GeneratedBundle};
use super::kustomize;
use super::makefile::{self, BundleTarget};
use super::parts::{Crd, Deployment};
use super::scan::{MARK, Scan, parse};

/// Where `init` writes the generated bundle's manifests, relative to the repository.
pub(crate) const SNAPSHOT: &str = "olm/kustomize/manifests";

/// The kustomization `make bundle` builds: the Makefile's `bundle` target, else
/// `config/manifests` when it is a kustomization.
pub(crate) fn target(scan: &Scan, source: &Path) -> Option<BundleTarget> {
    let from_makefile = std::fs::read_to_string(source.join("Makefile"))
        .ok()
        .and_then(|m| makefile::bundle_target(&m));
    let target = from_makefile.unwrap_or_else(|| BundleTarget {
        dir: "config/manifests".into(),
        image: None,
    });
    let is_kustomization = ["kustomization.yaml", "kustomization.yml", "Kustomization"]
        .iter()
        .any(|k| {
            scan.file(&format!("{}/{k}", target.dir)).is_some()
                || source.join(&target.dir).join(k).is_file()
        });
    is_kustomization.then_some(target)
}

/// The snapshot's files, (path, text), as `init` writes them, and the generated bundle.
pub(crate) fn snapshot(
    source: &Path,
    dir: &str,
) -> Result<(Vec<(String, String)>, GeneratedBundle), String> {
    let built = kustomize::build(source, dir)?;
    let bundle = generate_bundle::generate(&parse(&built), &Ask::default()).ok_or_else(|| {
        format!(
            "{} printed neither a CSV nor a Deployment",
            kustomize::command(dir)
        )
    })?;
    let header = format!(
        "{MARK}: `{}` as `operator-sdk generate bundle` writes it. olm-release init refreshes it; a release stops while config/ says otherwise.\n",
        kustomize::command(dir)
    );
    let file = |name: &str, v: &Value| {
        (
            format!("{SNAPSHOT}/{name}"),
            format!("{header}{}", olm_release_base::yaml::to_string(v)),
        )
    };
    let mut files = vec![file(&bundle.csv.0, &bundle.csv.1)];
    files.extend(bundle.objects.iter().map(|(n, v)| file(n, v)));
    Ok((files, bundle))
}

/// The layout and parts of a project built as `make bundle` builds it. `Err` says why it could
/// not be built (the caller then reads `config/` as before and passes the reason on).
pub(crate) fn read(source: &Path, target: &BundleTarget) -> Result<Found, String> {
    let (files, bundle) = snapshot(source, &target.dir)?;
    let mut found = Found::new(Layout::MakeBundle {
        dir: target.dir.clone(),
        snapshot: SNAPSHOT.into(),
    });
    let csv_path = format!("{SNAPSHOT}/{}", bundle.csv.0);
    let csv = &bundle.csv.1;
    let name = super::scan::str_at(csv, &["metadata", "name"]).unwrap_or("");
    let stem = name.split_once(".v").map_or(name, |(s, _)| s).to_string();
    found.csv = Some(csv_path.clone());
    found.csv_name = Some(format!("{stem}.v{{version}}"));
    found.complete_csv = true;
    found.package = Some((
        stem,
        format!("the name of the CSV base {} builds", target.dir),
    ));
    for (file, o) in &bundle.objects {
        let path = format!("{SNAPSHOT}/{file}");
        match crd(&path, o) {
            Some(c) => found.crds.push(c),
            None => found.objects.push(path),
        }
    }
    if let Some(d) = csv
        .get("spec")
        .and_then(|s| s.get("install"))
        .and_then(|i| i.get("spec"))
        .and_then(|s| s.get("deployments"))
        .and_then(Value::as_sequence)
        .and_then(|d| d.first())
    {
        found.deployment = Some(deployment(&csv_path, d));
    }
    found.images = images(found.deployment.as_ref(), target);
    found.notes.extend(bundle.notes.iter().cloned());
    found.kustomize = Some((target.dir.clone(), SNAPSHOT.into()));
    found.built = files;
    Ok(found)
}

fn crd(file: &str, o: &Value) -> Option<Crd> {
    use super::scan::str_at;
    (str_at(o, &["kind"]) == Some("CustomResourceDefinition")).then(|| Crd {
        file: file.into(),
        name: str_at(o, &["metadata", "name"]).unwrap_or("").into(),
        group: str_at(o, &["spec", "group"]).unwrap_or("").into(),
        version: o
            .get("spec")
            .and_then(|s| s.get("versions"))
            .and_then(Value::as_sequence)
            .and_then(|v| v.first())
            .and_then(|v| str_at(v, &["name"]))
            .unwrap_or("")
            .into(),
        kind: str_at(o, &["spec", "names", "kind"]).unwrap_or("").into(),
        plural: str_at(o, &["spec", "names", "plural"]).unwrap_or("").into(),
        copies: Vec::new(),
    })
}

fn deployment(file: &str, d: &Value) -> Deployment {
    use super::scan::str_at;
    let pod = d
        .get("spec")
        .and_then(|s| s.get("template"))
        .and_then(|t| t.get("spec"));
    let containers: Vec<(String, String)> = pod
        .and_then(|p| p.get("containers"))
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
        .filter_map(|c| {
            Some((
                str_at(c, &["name"])?.to_string(),
                str_at(c, &["image"])?.to_string(),
            ))
        })
        .collect();
    Deployment {
        file: file.into(),
        name: str_at(d, &["name"]).unwrap_or("").into(),
        service_account: pod
            .and_then(|p| str_at(p, &["serviceAccountName"]))
            .map(str::to_string),
        namespace: None,
        image: containers.first().map(|(_, i)| i.clone()),
        containers,
    }
}

/// The images a release sets, by container: the container running the image the Makefile sets
/// (`kustomize edit set image controller=$(IMG)`: still `controller`, or the image a previous
/// `make bundle` wrote into the kustomization) gets the Makefile's image, and no other (a
/// kube-rbac-proxy sidecar keeps its own); without one, images whose tag holds a version follow
/// the release's.
fn images(d: Option<&Deployment>, target: &BundleTarget) -> Vec<(String, String)> {
    let Some(d) = d else { return Vec::new() };
    let repo_of = |image: &str| {
        let name = image.split('@').next().unwrap_or(image);
        match name.rsplit_once(':') {
            Some((repo, tag)) if !tag.contains('/') => repo.to_string(),
            _ => name.to_string(),
        }
    };
    match &target.image {
        Some((name, image)) => d
            .containers
            .iter()
            .filter(|(_, current)| {
                let repo = repo_of(current);
                repo == *name || repo == repo_of(image)
            })
            .take(1)
            .map(|(container, _)| (container.clone(), image.clone()))
            .collect(),
        None => super::images::follow_version(&d.containers, None),
    }
}

/// Why a release stops: the snapshot differs from what the kustomization builds now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaleSnapshot {
    /// The kustomization, relative to the repository.
    pub dir: String,
    /// The snapshot folder, relative to the repository.
    pub snapshot: String,
    /// The files that differ, are missing or are left over, relative to the repository.
    pub files: Vec<String>,
    /// Why the fresh build could not be made, when it could not (no kustomize, a build error).
    pub unbuilt: Option<String>,
}

impl std::fmt::Display for StaleSnapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.unbuilt {
            Some(why) => write!(
                f,
                "render.kustomize: {why}; the release checks {} against a fresh build of {} ({})",
                self.snapshot,
                self.dir,
                kustomize::fix_before_release()
            ),
            None => write!(
                f,
                "render.kustomize: {} is stale: {} builds something else now ({}); run `olm-release init` to refresh it (it keeps files you changed), then commit it",
                self.snapshot,
                self.dir,
                olm_release_base::words::some(&self.files, 4)
            ),
        }
    }
}

impl std::error::Error for StaleSnapshot {}

/// Checks the snapshot `snapshot` of the repository `source` against a fresh build of the
/// kustomization `dir`, as data (comments and layout aside): a folder is what
/// `operator-sdk generate bundle` makes of the build, a `.yaml` file the build itself.
pub fn check_kustomize_snapshot(
    source: &Path,
    dir: &str,
    snapshot: &str,
) -> Result<(), StaleSnapshot> {
    let stale = |files: Vec<String>, unbuilt: Option<String>| StaleSnapshot {
        dir: dir.into(),
        snapshot: snapshot.into(),
        files,
        unbuilt,
    };
    if snapshot.ends_with(".yaml") {
        // A file: kustomize's output as it is (a kubebuilder project's config/default).
        let built = kustomize::build(source, dir).map_err(|why| stale(Vec::new(), Some(why)))?;
        let old = std::fs::read_to_string(source.join(snapshot)).unwrap_or_default();
        return match parse(&old) == parse(&built) {
            true => Ok(()),
            false => Err(stale(vec![snapshot.into()], None)),
        };
    }
    let (fresh, _) =
        snapshot_at(source, dir, snapshot).map_err(|why| stale(Vec::new(), Some(why)))?;
    let mut differ = Vec::new();
    for (path, text) in &fresh {
        let same =
            std::fs::read_to_string(source.join(path)).is_ok_and(|old| parse(&old) == parse(text));
        if !same {
            differ.push(path.clone());
        }
    }
    if let Ok(entries) = std::fs::read_dir(source.join(snapshot)) {
        for e in entries.flatten() {
            let path = format!("{snapshot}/{}", e.file_name().to_string_lossy());
            if !fresh.iter().any(|(p, _)| *p == path) {
                differ.push(path);
            }
        }
    }
    differ.sort();
    if differ.is_empty() {
        Ok(())
    } else {
        Err(stale(differ, None))
    }
}

/// [`snapshot`] written under another folder than [`SNAPSHOT`].
fn snapshot_at(
    source: &Path,
    dir: &str,
    folder: &str,
) -> Result<(Vec<(String, String)>, GeneratedBundle), String> {
    let (files, bundle) = snapshot(source, dir)?;
    let files = files
        .into_iter()
        .map(|(p, t)| (p.replacen(SNAPSHOT, folder, 1), t))
        .collect();
    Ok((files, bundle))
}
