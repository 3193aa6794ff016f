//! What `init` says: what it found (the layout, the package and channels and where they came
//! from, the operators to choose from, each CRD and the copies not taken), and what is left to
//! do (variables and secrets to set, the command to try the pipeline with, offline).

use super::choices::Choices;
use super::found::Found;
use super::pipeline_file;
use super::plain::some;
use super::vars::{Kind, var_values};
use olm_release_base::words::count;

/// The `found:` lines.
pub(crate) fn found_lines(found: &Found, c: &Choices) -> Vec<String> {
    let mut out = vec![format!("layout: {}", found.layout.describe())];
    let from = found
        .package
        .as_ref()
        .map(|(_, from)| format!(" (from {from})"))
        .unwrap_or_default();
    let channels = match c.channels.as_slice() {
        [one] => format!("channel {one}"),
        many => format!("channels {}", many.join(", ")),
    };
    let channels = match (&c.channels_from, &c.default_channel) {
        (Some(from), Some(d)) => format!("{channels}, default {d} (from {from})"),
        (Some(from), None) => format!("{channels} (from {from})"),
        (None, Some(d)) => format!("{channels}, default {d}"),
        (None, None) => channels,
    };
    out.push(format!("package {}{from}, {channels}", c.package));
    if !found.operators.is_empty() {
        out.push(format!(
            "{} here (--operator NAME chooses): {}",
            count(found.operators.len(), "operator"),
            found
                .operators
                .iter()
                .map(|(_, d)| d.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    if let Some(csv) = &found.csv {
        let complete = if found.complete_csv {
            " (complete: its deployments and permissions stay as written)"
        } else {
            ""
        };
        out.push(format!("CSV {csv}{complete}"));
    }
    for crd in &found.crds {
        let copies = match crd.copies.len() {
            0 => String::new(),
            n => format!(
                " (also in {}, not taken: {})",
                count(n, "other file"),
                olm_release_base::words::some(&crd.copies, 2)
            ),
        };
        out.push(format!("CRD {} in {}{copies}", crd.name, crd.file));
    }
    if !found.objects.is_empty() {
        out.push(format!(
            "{} beside the CSV: {}",
            count(found.objects.len(), "other object file"),
            some(&found.objects)
        ));
    }
    if let Some(d) = &found.dependencies {
        out.push(format!("dependencies {d}"));
    }
    if let Some(p) = &found.properties {
        out.push(format!("properties {p}"));
    }
    match (&found.deployment, found.complete_csv) {
        (_, true) => {}
        (Some(d), false) => out.push(format!("Deployment {} in {}", d.name, d.file)),
        (None, false) => {
            out.push("no operator Deployment file: the CSV template's own deployment stays".into())
        }
    }
    if let Some(p) = &found.permissions {
        out.push(format!(
            "service account {}, role {}, RBAC {}",
            p.service_account,
            p.role,
            p.files.join(", ")
        ));
    }
    for p in &found.accounts {
        let mut roles = vec![p.role.clone()];
        roles.extend(p.include.iter().cloned());
        out.push(format!(
            "service account {}: {} {} ({})",
            p.service_account,
            if p.cluster {
                "clusterPermissions from"
            } else {
                "permissions from"
            },
            roles.join(", "),
            p.files.join(", ")
        ));
    }
    for (name, image) in &found.images {
        out.push(format!("image of container {name}: {image}"));
    }
    if let Some(icon) = &found.icon {
        out.push(format!("icon {icon}"));
    }
    for (var, dir) in &c.includes {
        out.push(format!(
            "includes {{{{index .{var} \"FILE\"}}}} from {dir}/"
        ));
    }
    for (var, dir) in &c.files {
        out.push(format!(
            "inserts {{{{index .{var} \"FILE\"}}}} from {dir}/ as it is"
        ));
    }
    out.extend(found.notes.iter().cloned());
    out
}

/// What is left to do.
pub(crate) fn next_steps(found: &Found, c: &Choices) -> Vec<String> {
    let mut out = Vec::new();
    let required: Vec<String> = var_values(Kind::Release, found, c)
        .into_iter()
        .filter(|v| v.required)
        .map(|v| format!("{} (for {{{{.{}}}}})", v.env, v.name))
        .collect();
    if !required.is_empty() {
        out.push(format!(
            "set these variables in CI (or edit their defaults into the pipeline): {}",
            required.join(", ")
        ));
    }
    let registry = if c.app_registry {
        ", QUAY_USERNAME and QUAY_PASSWORD (or QUAY_TOKEN) for the app registry"
    } else {
        ""
    };
    out.push(format!(
        "set these secrets in CI: OCI_USERNAME and OCI_PASSWORD for the bundle image {}{registry}, GITHUB_TOKEN for the release (GitHub Actions provides it)",
        c.bundle_image()
    ));
    out.push(format!(
        "the catalog is kept in catalog/ on the {} branch of {}, pushed by the release job with GITHUB_TOKEN (contents: write): point catalog.target elsewhere to keep it in another repository or an image",
        pipeline_file::CATALOG_BRANCH,
        c.github.as_deref().unwrap_or("this repository"),
    ));
    if c.github.is_none() {
        out.push("no GitHub remote found: the release target reads GITHUB_REPOSITORY or TRAVIS_REPO_SLUG (or pass --github OWNER/REPO)".into());
    }
    if found.literal_package {
        out.push(format!(
            "the package file writes packageName literally, so alpha builds go to {} too: write {{{{.PackageName}}}} there to publish them apart",
            c.package
        ));
    }
    let vars: String = var_values(Kind::Release, found, c)
        .into_iter()
        .filter(|v| v.required)
        .map(|v| format!(" --var {}=…", v.env))
        .collect();
    out.push(format!(
        "try it, offline: olm-release run {} --variant local --var VERSION=0.0.1{vars} (into _out/local/; then 0.0.2 for an upgrade)",
        pipeline_file::PATH
    ));
    out
}
