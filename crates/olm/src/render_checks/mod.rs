//! The render checks: defects rendering can see in an operator's inputs, reported as findings
//! with the template file and the field, so a release never publishes them silently. The
//! executor renders and parses the templates, then calls [`check`] once with what it rendered;
//! [`image_tags`] is the tagged release's look at the CSV's images.
//!
//! - **Folded descriptor paths**: a descriptor written without its `x-descriptors:` key is
//!   repaired in the CSV and warned about; any other path holding whitespace is an error.
//! - **Subscription vs package**: a rendered Subscription that names another package or a
//!   channel the package file does not have would never resolve (KubeVirt's kept `kubevirt` /
//!   `beta` after the package and channel changed). A warning.
//! - **Package vs pipeline**: the package file must be the pipeline's package (the app-registry
//!   repository must equal `packageName`) and hold one of the pipeline's channels; otherwise an
//!   error, which stops the pipeline at verify before anything is published.

mod consistency;
mod descriptors;

use serde_yaml_ng::Value;

use crate::{Finding, Manifest, PackageManifest};

/// What rendering produced, as the checks read it.
#[derive(Debug)]
pub struct Rendered<'a> {
    /// The rendered CSV document; a folded descriptor is repaired in it.
    pub csv: &'a mut Value,
    /// The CSV's template, as the pipeline names it.
    pub csv_template: &'a str,
    /// The template's own text (where a folded descriptor's line is found).
    pub csv_template_text: &'a str,
    /// The rendered package file.
    pub package: &'a PackageManifest,
    /// The package file, as the pipeline names it.
    pub package_file: &'a str,
    /// The rendered manifests outside the bundle (Subscriptions and other helpers), each with
    /// its template.
    pub helpers: &'a [(String, Value)],
}

/// What the pipeline publishes: its package and every channel of the release.
#[derive(Debug, Clone, Copy)]
pub struct Wanted<'a> {
    /// The pipeline's package.
    pub package: &'a str,
    /// The release's channels, the pipeline's `channel` first.
    pub channels: &'a [String],
}

/// Every render check, in the order the findings are reported: the CSV's descriptor paths
/// (repairing folded ones), the package file against the pipeline, then the Subscriptions
/// against the package file.
pub fn check(rendered: Rendered<'_>, wanted: Wanted<'_>) -> Vec<Finding> {
    let mut findings = descriptors::descriptor_paths(
        rendered.csv,
        rendered.csv_template,
        rendered.csv_template_text,
    );
    findings.extend(consistency::package(
        wanted.package,
        wanted.channels,
        rendered.package,
        rendered.package_file,
    ));
    findings.extend(consistency::subscriptions(
        rendered.helpers,
        rendered.package,
    ));
    findings
}

/// The warning when `createdAt` has no source but the UNIX epoch: `SOURCE_DATE_EPOCH` is unset
/// and `source` (as shown) is not a git checkout; `pipeline_file` is where it is reported.
pub fn epoch_created_at(pipeline_file: &str, source: &str) -> Finding {
    Finding {
        level: crate::Level::Warning,
        rule: "created-at".into(),
        mirrors: String::new(),
        file: pipeline_file.into(),
        object: "ClusterServiceVersion".into(),
        field: "metadata.annotations.createdAt".into(),
        message: format!(
            "SOURCE_DATE_EPOCH is not set and {source} is not a git checkout; createdAt is 1970-01-01T00:00:00Z"
        ),
        fix: "set SOURCE_DATE_EPOCH (e.g. to the tag's commit time) or run from the operator's git checkout".into(),
        accepted: None,
    }
}

/// On a tagged release, the operator's own images still at `latest` (or untagged) or at a tag
/// other than the release's (`v1.2.0` or `1.2.0` for tag `v1.2.0`) are probably a forgotten
/// variable: the CSV would install other code than the release names. The operator's own are
/// the images of its organisation (the registry and path of the CSV's `containerImage`; every
/// image when the CSV has none): a third-party sidecar such as
/// `gcr.io/kubebuilder/kube-rbac-proxy:v0.13.0` keeps its own tag and is never warned about.
/// Digests are exact and never warned about either. One warning per image reference, with the
/// pipeline key that sets it (`render.csv.images`, by container name).
pub fn image_tags(csv: &Manifest, tag: &str) -> Vec<String> {
    let bare = tag.strip_prefix('v').unwrap_or(tag);
    let organisation = |repo: &str| repo.rsplit_once('/').map_or("", |(o, _)| o).to_string();
    let own = csv
        .annotation("containerImage")
        .map(|i| organisation(&crate::semdiff::split_reference(i).0));
    let containers = container_names(&csv.doc);
    let mut out = Vec::new();
    for (repo, refs) in crate::semdiff::csv_images(csv) {
        if own.as_ref().is_some_and(|o| *o != organisation(&repo)) {
            continue;
        }
        for at in refs {
            if at.starts_with('@') || at == tag || at == bare {
                continue;
            }
            let why = if at == "latest" {
                "still points at latest".to_string()
            } else {
                format!("is at tag {at}")
            };
            let reference = format!("{repo}:{at}");
            // No image reference at all is verify's to refuse (deployment-image), not a tag.
            if crate::validate::text::image_reference_problem(&reference).is_some() {
                continue;
            }
            let key = match containers.iter().find(|(_, image)| *image == reference) {
                Some((name, _)) => format!("render.csv.images.{name}"),
                None => "render.csv.images (by container name)".to_string(),
            };
            out.push(format!(
                "image {reference} in the CSV {why}, not at this release's tag {tag} (set {key} in the pipeline to {repo}:{tag}, or write the release's version into the template's image)"
            ));
        }
    }
    out
}

/// (container name, image) of every container and init container of the CSV's deployments.
fn container_names(csv: &Value) -> Vec<(String, String)> {
    let deployments = csv
        .get("spec")
        .and_then(|s| s.get("install"))
        .and_then(|i| i.get("spec"))
        .and_then(|s| s.get("deployments"))
        .and_then(Value::as_sequence);
    let mut out = Vec::new();
    for d in deployments.into_iter().flatten() {
        let pod = d
            .get("spec")
            .and_then(|s| s.get("template"))
            .and_then(|t| t.get("spec"));
        for list in ["containers", "initContainers"] {
            for c in pod
                .and_then(|p| p.get(list))
                .and_then(Value::as_sequence)
                .into_iter()
                .flatten()
            {
                if let (Some(n), Some(i)) = (
                    c.get("name").and_then(Value::as_str),
                    c.get("image").and_then(Value::as_str),
                ) {
                    out.push((n.to_string(), i.to_string()));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
