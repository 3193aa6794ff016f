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

/// On a tagged release, images of the CSV still at `latest` (or untagged) or at a tag other
/// than the release's (`v1.2.0` or `1.2.0` for tag `v1.2.0`) are probably a forgotten
/// variable: the CSV would install other code than the release names. Digests are exact and
/// never warned about. One warning per image reference.
pub fn image_tags(csv: &Manifest, tag: &str) -> Vec<String> {
    let bare = tag.strip_prefix('v').unwrap_or(tag);
    let mut out = Vec::new();
    for (repo, refs) in crate::semdiff::csv_images(csv) {
        for at in refs {
            if at.starts_with('@') || at == tag || at == bare {
                continue;
            }
            let why = if at == "latest" {
                "still points at latest".to_string()
            } else {
                format!("is at tag {at}")
            };
            out.push(format!(
                "image {repo}:{at} in the CSV {why}, not at this release's tag {tag} (set the image tag variable of the templates to the release's tag)"
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests;
