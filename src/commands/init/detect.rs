//! What `init` makes of a scanned repository: the layout of its OLM manifests and what the
//! pipelines need from them.
//!
//! Layouts, in the order they are looked for:
//! - **templates**: a folder of templates whose bundle sub-folder holds a CSV template and a
//!   package file (KubeVirt's `manifests/release/olm/bundle/`); the pipelines render it in place;
//! - **operator-sdk**: a `deploy/olm-catalog/<package>/` tree with a package file and one folder
//!   per version; the newest version's CSV and CRDs are included by thin templates;
//! - **plain**: Kubernetes manifests (CRDs, the operator's Deployment, its RBAC), with or
//!   without a CSV; `init` writes a CSV template around them.
//!
//! The operator's own parts come from [`super::parts`]. Template variables are collected from
//! every file the pipeline renders, so none is left undefined.

use std::collections::{BTreeMap, BTreeSet};

use super::parts::{self, Crd, Deployment, Permissions};
use super::scan::{Scan, YamlFile, actions};

/// Template variables the render stage defines itself.
pub(crate) const BUILT_IN: &[&str] = &[
    "CsvVersion",
    "PackageName",
    "Channel",
    "ReplacesCsvVersion",
    "CreatedAt",
];

/// How the repository's OLM manifests are laid out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Templates rendered in place: `templates` holds the `bundle` sub-folder.
    Templates { templates: String, bundle: String },
    /// operator-sdk's catalog: `catalog` holds the package file and `catalog/version/`.
    OperatorSdk { catalog: String, version: String },
    /// Plain manifests; `csv` is a CSV file if the repository has one.
    Plain { csv: Option<String> },
}

impl Layout {
    pub fn describe(&self) -> String {
        match self {
            Layout::Templates { templates, bundle } => {
                format!("templates in {templates}/, bundle in {templates}/{bundle}/")
            }
            Layout::OperatorSdk { catalog, version } => {
                format!("operator-sdk catalog {catalog}/, newest version {version}")
            }
            Layout::Plain { csv: Some(csv) } => format!("plain manifests with the CSV {csv}"),
            Layout::Plain { csv: None } => "plain manifests, no CSV yet".into(),
        }
    }
}

/// Everything the pipelines are written from.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub layout: Layout,
    /// The package and where the name came from.
    pub package: Option<(String, String)>,
    /// Whether the package file writes `packageName` literally (not `{{.PackageName}}`).
    pub literal_package: bool,
    pub channel: Option<String>,
    /// The CSV template or file.
    pub csv: Option<String>,
    /// `metadata.name` with `{version}` for the version, when it can be told.
    pub csv_name: Option<String>,
    pub crds: Vec<Crd>,
    pub deployment: Option<Deployment>,
    pub permissions: Option<Permissions>,
    pub icon: Option<String>,
    /// Include folders by template variable (`{{index .Var "FILE"}}`).
    pub includes: BTreeMap<String, String>,
    /// Template variables the pipeline must define, with the files that use them.
    pub vars: BTreeMap<String, BTreeSet<String>>,
    /// Rendered names of OperatorSource manifests (release assets).
    pub operator_sources: Vec<String>,
    /// Example custom resources of the CRDs (for a new CSV's `alm-examples`).
    pub examples: Vec<serde_json::Value>,
}

/// Reads the layout and the operator's parts out of `scan`.
pub(crate) fn detect(scan: &Scan) -> Found {
    let layout = layout(scan);
    let outside = |f: &&YamlFile| match &layout {
        Layout::Templates { templates, .. } => !under(&f.rel, templates),
        Layout::OperatorSdk { catalog, .. } => !under(&f.rel, catalog),
        Layout::Plain { .. } => true,
    };
    let deployment = parts::deployment(scan.yaml.iter().filter(outside));
    let permissions = parts::permissions(scan.yaml.iter().filter(outside), deployment.as_ref());
    let mut found = Found {
        layout: layout.clone(),
        package: None,
        literal_package: false,
        channel: None,
        csv: None,
        csv_name: None,
        crds: Vec::new(),
        deployment,
        permissions,
        icon: parts::icon(&scan.images),
        includes: BTreeMap::new(),
        vars: BTreeMap::new(),
        operator_sources: Vec::new(),
        examples: Vec::new(),
    };
    let mut rendered: Vec<&YamlFile> = Vec::new();
    match &layout {
        Layout::Templates { templates, bundle } => {
            let files: Vec<&YamlFile> = scan
                .yaml
                .iter()
                .filter(|f| under(&f.rel, templates))
                .collect();
            let bundle_dir = format!("{templates}/{bundle}");
            for f in &files {
                for a in actions(&f.text) {
                    if let Some((var, file)) = include_of(a)
                        && let Some(hit) = scan
                            .yaml
                            .iter()
                            .find(|g| g.rel.ends_with(&format!("/{file}")))
                    {
                        let dir = hit.rel[..hit.rel.len() - file.len() - 1].to_string();
                        found.includes.entry(var.to_string()).or_insert(dir);
                        rendered.push(hit);
                    }
                }
                if f.has_kind("OperatorSource") {
                    let rel = &f.rel[templates.len() + 1..];
                    found
                        .operator_sources
                        .push(rel.strip_suffix(".in").unwrap_or(rel).to_string());
                }
            }
            if let Some(pkg) = files
                .iter()
                .find(|f| f.dir() == bundle_dir && f.is_package())
            {
                read_package(pkg, &mut found);
            }
            if let Some(csv) = files.iter().find(|f| f.dir() == bundle_dir && f.is_csv()) {
                found.csv = Some(csv.rel.clone());
                let text = expand_includes(scan, &csv.text, &found.includes);
                found.csv_name = csv_name(&text);
            }
            rendered.extend(files);
        }
        Layout::OperatorSdk { catalog, version } => {
            if let Some(pkg) = scan
                .yaml
                .iter()
                .find(|f| f.dir() == catalog && f.is_package())
            {
                read_package(pkg, &mut found);
                found.literal_package = false;
            }
            let dir = format!("{catalog}/{version}");
            found.crds = parts::crds(scan.yaml.iter().filter(|f| f.dir() == dir));
            if let Some(csv) = scan.yaml.iter().find(|f| f.dir() == dir && f.is_csv()) {
                found.csv = Some(csv.rel.clone());
                found.csv_name = csv_name(&csv.text);
            }
        }
        Layout::Plain { csv } => {
            found.crds = parts::crds(scan.yaml.iter());
            if let Some(csv) = csv.as_ref().and_then(|c| scan.file(c)) {
                found.csv = Some(csv.rel.clone());
                found.csv_name = csv_name(&csv.text);
            }
        }
    }
    found.examples = parts::examples(scan, &found.crds);
    if let Some(d) = &found.deployment {
        rendered.extend(scan.file(&d.file));
    }
    if let Some(p) = &found.permissions {
        rendered.extend(p.files.iter().filter_map(|f| scan.file(f)));
    }
    for f in rendered.iter().filter(|f| f.is_template()) {
        for a in actions(&f.text) {
            for var in variables(a) {
                if !BUILT_IN.contains(&var) && !found.includes.contains_key(var) {
                    found
                        .vars
                        .entry(var.to_string())
                        .or_default()
                        .insert(f.rel.clone());
                }
            }
        }
    }
    found
}

fn under(rel: &str, dir: &str) -> bool {
    rel.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
}

fn layout(scan: &Scan) -> Layout {
    // Templates: a CSV template beside a package file, one folder below the templates folder.
    let mut candidates: Vec<(String, String)> = scan
        .yaml
        .iter()
        .filter(|f| f.is_template() && f.is_csv())
        .filter(|f| {
            scan.yaml
                .iter()
                .any(|g| g.dir() == f.dir() && g.is_package())
        })
        .filter_map(|f| {
            let (templates, bundle) = f.dir().rsplit_once('/')?;
            Some((templates.to_string(), bundle.to_string()))
        })
        .collect();
    candidates.sort_by_key(|(t, _)| (t != "manifests/release/olm", t.matches('/').count()));
    if let Some((templates, bundle)) = candidates.into_iter().next() {
        return Layout::Templates { templates, bundle };
    }
    // operator-sdk: olm-catalog/<package>/<version>/ with the package file one level up.
    let mut versions: Vec<(semver::Version, String, String)> = scan
        .yaml
        .iter()
        .filter(|f| f.is_csv() && f.rel.contains("olm-catalog/"))
        .filter_map(|f| {
            let (catalog, version) = f.dir().rsplit_once('/')?;
            let v = semver::Version::parse(version.trim_start_matches('v')).ok()?;
            scan.yaml
                .iter()
                .any(|g| g.dir() == catalog && g.is_package())
                .then(|| (v, catalog.to_string(), version.to_string()))
        })
        .collect();
    versions.sort();
    if let Some((_, catalog, version)) = versions.pop() {
        return Layout::OperatorSdk { catalog, version };
    }
    Layout::Plain {
        csv: scan
            .yaml
            .iter()
            .find(|f| !f.is_template() && f.has_kind("ClusterServiceVersion"))
            .map(|f| f.rel.clone()),
    }
}

/// Package name and channel from a package file.
fn read_package(file: &YamlFile, found: &mut Found) {
    let literal = |key: &str| {
        file.text.lines().find_map(|l| {
            let v = l.trim().strip_prefix(key)?.trim().trim_matches(['"', '\'']);
            (!v.is_empty() && !v.contains("{{")).then(|| v.to_string())
        })
    };
    if let Some(p) = literal("packageName:") {
        found.package = Some((p, format!("packageName in {}", file.rel)));
        found.literal_package = true;
    } else {
        let stem = file
            .name()
            .trim_end_matches(".in")
            .trim_end_matches(".yaml")
            .trim_end_matches(".yml")
            .trim_end_matches("package")
            .trim_end_matches(['.', '-', '_']);
        if !stem.is_empty() {
            found.package = Some((stem.to_string(), format!("the name of {}", file.rel)));
        }
    }
    found.channel = literal("defaultChannel:").or_else(|| literal("- name:"));
}

/// `metadata.name` of a CSV text, with `{version}` for the version.
fn csv_name(text: &str) -> Option<String> {
    let mut in_metadata = false;
    for line in text.lines() {
        if line.starts_with("metadata:") {
            in_metadata = true;
        } else if in_metadata && !line.starts_with(' ') && !line.trim().is_empty() {
            in_metadata = false;
        } else if in_metadata && let Some(v) = line.strip_prefix("  name:") {
            let v = v.trim().trim_matches(['"', '\'']);
            let v = v
                .replace("{{.CsvVersion}}", "{version}")
                .replace("{{ .CsvVersion }}", "{version}");
            if v.contains("{{") {
                return None;
            }
            // A literal name (operator-sdk's `memcached-operator.v0.0.2`): the version part.
            if !v.contains("{version}") {
                let (stem, ver) = v.rsplit_once(".v")?;
                semver::Version::parse(ver).ok()?;
                return Some(format!("{stem}.v{{version}}"));
            }
            return Some(v);
        }
    }
    None
}

/// Inlines `{{index .Var "FILE"}}` lines, so a CSV template that includes its body can be read.
fn expand_includes(scan: &Scan, text: &str, includes: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let inc = actions(line)
            .first()
            .and_then(|a| include_of(a))
            .and_then(|(var, file)| scan.file(&format!("{}/{file}", includes.get(var)?)));
        match inc {
            Some(f) if line.trim().starts_with("{{") => out.push_str(&f.text),
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// `index .Var "FILE"` → (Var, FILE).
fn include_of(action: &str) -> Option<(&str, &str)> {
    let rest = action.strip_prefix("index")?.trim_start();
    let rest = rest.strip_prefix('.')?;
    let (var, file) = rest.split_once(char::is_whitespace)?;
    Some((var, file.trim().strip_prefix('"')?.strip_suffix('"')?))
}

/// The `.Name` fields an action reads (`if .Sha`, `.Namespace`, `index .Files "f"`).
fn variables(action: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for (i, _) in action.match_indices('.') {
        let before = action[..i].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ')' || c == '$') {
            continue;
        }
        let name: &str = &action[i + 1..];
        let end = name
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(name.len());
        if end > 0 && name.starts_with(|c: char| c.is_ascii_uppercase()) {
            out.push(&name[..end]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_actions() {
        assert_eq!(
            include_of(r#"index .GeneratedManifests "a.yaml.in""#),
            Some(("GeneratedManifests", "a.yaml.in"))
        );
        assert_eq!(variables("if .VirtApiSha"), ["VirtApiSha"]);
        assert_eq!(variables(".Namespace"), ["Namespace"]);
        assert!(variables("$x.Field").is_empty());
        assert_eq!(
            csv_name(
                "metadata:\n  annotations:\n    a: b\n  name: kubevirtoperator.{{.CsvVersion}}\n"
            )
            .as_deref(),
            Some("kubevirtoperator.{version}")
        );
        assert_eq!(
            csv_name("metadata:\n  name: memcached-operator.v0.0.2\n").as_deref(),
            Some("memcached-operator.v{version}")
        );
    }
}
