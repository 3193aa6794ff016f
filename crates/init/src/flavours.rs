//! Bundle flavours: one package built into several registry+v1 bundle folders, one per
//! catalog it ships to — `bundle/community` and `bundle/openshift` (opentelemetry-operator's
//! `BUNDLE_VARIANT`), `bundle/stable` and `bundle/next`, or sibling `bundle*/` folders. Each
//! is a bundle of its own, never a copy to skip: `init --operator bundle/openshift` releases
//! that one; without it `init` releases the flavour the Makefile names (a `…VARIANT`/`…FLAVOUR`
//! variable whose value is a flavour's folder name), else `bundle/` itself, else one named
//! `stable`, `community` or `upstream`, else the first by name — and writes a pipeline variant
//! per other flavour (`--variant openshift`), with its own templates (`olm-openshift/`), its
//! own bundle image repository and catalog folder, so the flavours' releases never overwrite
//! each other.

use std::fmt::Write;
use std::path::Path;

use super::bundles::BundleDir;
pub(crate) use super::bundles::is_flavour;
use super::vars::yq;

/// Names a flavour's folder is preferred by, in order, when nothing else says.
const PREFERRED: [&str; 3] = ["stable", "community", "upstream"];

/// Whether `--operator asked` names the bundle folder `b` (its folder, or a path inside it).
pub(crate) fn names_folder(b: &BundleDir, asked: &str) -> bool {
    let asked = asked.trim_start_matches("./").trim_end_matches('/');
    !asked.is_empty()
        && (asked == b.root
            || asked
                .strip_prefix(&b.root)
                .is_some_and(|r| r.starts_with('/')))
}

/// The flavours of `chosen`'s package among `all` (`chosen` included), by folder.
pub(crate) fn of<'a>(all: &'a [BundleDir], chosen: &BundleDir) -> Vec<&'a BundleDir> {
    if !is_flavour(chosen) {
        return Vec::new();
    }
    let mut out: Vec<&BundleDir> = all
        .iter()
        .filter(|b| is_flavour(b) && b.package == chosen.package)
        .collect();
    out.sort_by(|a, b| a.root.cmp(&b.root));
    if out.len() < 2 { Vec::new() } else { out }
}

/// The flavour released when the user did not choose.
pub(crate) fn preferred<'a>(flavours: &[&'a BundleDir], source: &Path) -> Option<&'a BundleDir> {
    let last = |b: &BundleDir| b.root.rsplit('/').next().unwrap_or("").to_string();
    let makefile = std::fs::read_to_string(source.join("Makefile")).unwrap_or_default();
    let named = makefile.lines().find_map(|line| {
        let (name, value) = line.split_once('=')?;
        let name = name.trim_end_matches(['?', ':', ' ']).trim();
        let upper = name.to_ascii_uppercase();
        if !(upper.contains("VARIANT") || upper.contains("FLAVOUR") || upper.contains("FLAVOR")) {
            return None;
        }
        let value = value.trim().trim_matches(['"', '\'']);
        flavours.iter().copied().find(|b| last(b) == value)
    });
    named
        .or_else(|| flavours.iter().copied().find(|b| b.root == "bundle"))
        .or_else(|| {
            PREFERRED
                .iter()
                .find_map(|p| flavours.iter().copied().find(|b| last(b) == *p))
        })
        .or_else(|| flavours.first().copied())
}

/// A flavour's name as a variant: its folder's last part (`bundle/openshift` → `openshift`,
/// `bundle-openshift` → `openshift`).
pub(crate) fn variant_name(b: &BundleDir) -> String {
    let last = b.root.rsplit('/').next().unwrap_or(&b.root);
    let name = last
        .strip_prefix("bundle")
        .map(|r| r.trim_start_matches(['-', '_', '.']))
        .filter(|r| !r.is_empty())
        .unwrap_or(last);
    name.chars()
        .map(|ch| {
            if ch.is_ascii_alphanumeric() {
                ch.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// Where a flavour variant's templates go (outside `olm/`, whose every file the release
/// renders).
pub(crate) fn templates_dir(b: &BundleDir) -> String {
    format!("{}-{}", super::starter::TEMPLATES, variant_name(b))
}

/// What a flavour's variant replaces.
pub(crate) struct Variant {
    pub name: String,
    pub templates: String,
    /// `render.files` of its templates.
    pub files: Vec<(String, String)>,
    /// `render.csv.images` of its CSV.
    pub images: Vec<(String, String)>,
}

/// The variants' text, appended under the pipeline's `variants:`.
pub(crate) fn variants_text(variants: &[Variant], package: &str, bundle_image: &str) -> String {
    let mut s = String::new();
    for v in variants {
        let name = &v.name;
        let _ = writeln!(
            s,
            "  {name}:{}# --variant {name}: the bundle flavour of {}",
            " ".repeat(32usize.saturating_sub(name.len() + 1)),
            v.templates
        );
        let _ = writeln!(s, "    name: {package}-{name}");
        let _ = writeln!(s, "    render:");
        let _ = writeln!(s, "      templates: {}", yq(&v.templates));
        if !v.files.is_empty() {
            let _ = writeln!(s, "      files:");
            for (var, dir) in &v.files {
                let _ = writeln!(s, "        {var}: {}", yq(dir));
            }
        }
        if !v.images.is_empty() {
            let _ = writeln!(s, "      csv:\n        images:");
            for (n, i) in &v.images {
                let _ = writeln!(s, "          {}: {}", yq(n), yq(i));
            }
        }
        let repo = bundle_image.strip_suffix("-bundle").unwrap_or(bundle_image);
        let _ = writeln!(s, "    bundle_image:");
        let _ = writeln!(s, "      target: {}", yq(&format!("{repo}-{name}-bundle")));
        let _ = writeln!(s, "    catalog:\n      path: catalog-{name}");
    }
    s
}
