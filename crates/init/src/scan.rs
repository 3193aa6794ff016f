//! Reading an operator repository for `init`: every YAML file (templates included) with its
//! documents, and the image files that could be the operator's icon.
//!
//! Templates (`*.yaml.in`) do not parse as YAML while their actions stand in them
//! (`namespace: {{.Namespace}}` opens a flow mapping), so each is read through
//! [`neutralise`]: a line holding only actions (`{{.OperatorRules}}`, `{{end}}`) is dropped and
//! an action inside a line becomes `x`. That keeps kinds, names, service accounts and role
//! references, which is all the scan needs; the pipeline `init` writes renders the real thing.
//! Folders that never hold the operator's own manifests (VCS data, vendored code, build output,
//! tests, docs, examples, a Helm chart's `templates/`) are skipped. Files `init` wrote itself
//! (they open with [`MARK`]) are read but marked, so a rerun never mistakes its own output for
//! the project's manifests; files a `kustomization.yaml` lists as patches are marked too
//! ([`super::kustomize`]): a patch is never an object of its own.

use std::path::Path;

use serde::Deserialize;
use serde_yaml_ng::Value;

/// Folders not scanned, by name.
const SKIP_DIRS: &[&str] = &[
    ".git",
    ".github",
    ".tools",
    "_out",
    "_dist",
    "node_modules",
    "target",
    "vendor",
    "test",
    "tests",
    "testing",
    "docs",
    "examples",
    "hack",
    "pipelines",
];
/// How deep the scan goes below the repository root.
const MAX_DEPTH: usize = 8;
/// Larger files are not manifests anyone writes by hand.
const MAX_FILE: u64 = 4 << 20;

/// The first line of every file `init` writes (pipelines, thin templates, CI files).
pub(crate) const MARK: &str = "# Written by olm-release init";

/// One YAML file of the repository.
pub(crate) struct YamlFile {
    /// Path relative to the repository root, with `/`.
    pub rel: String,
    /// The text as written.
    pub text: String,
    /// Its documents, parsed from the neutralised text (empty when it does not parse).
    pub docs: Vec<Value>,
    /// A kustomize patch (listed under `patches`, `patchesStrategicMerge` or
    /// `patchesJson6902` of a kustomization): a fragment, never an object of its own.
    pub patch: bool,
    /// Written by `init` itself (it opens with [`MARK`]).
    pub generated: bool,
}

impl YamlFile {
    pub fn is_template(&self) -> bool {
        self.rel.ends_with(".in")
    }

    /// Whether the file is the project's own: neither a patch nor `init`'s output.
    pub fn own(&self) -> bool {
        !self.patch && !self.generated
    }

    /// Whether every document is of one of `kinds` (and there is at least one).
    pub fn only_kinds(&self, kinds: &[&str]) -> bool {
        !self.docs.is_empty()
            && self
                .docs
                .iter()
                .all(|d| str_at(d, &["kind"]).is_some_and(|k| kinds.contains(&k)))
    }

    /// The file name.
    pub fn name(&self) -> &str {
        self.rel.rsplit('/').next().unwrap_or(&self.rel)
    }

    /// The folder, relative to the root ("" at the root).
    pub fn dir(&self) -> &str {
        self.rel.rsplit_once('/').map_or("", |(d, _)| d)
    }

    /// The documents of `kind`.
    pub fn of_kind<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
        self.docs
            .iter()
            .filter(move |d| str_at(d, &["kind"]) == Some(kind))
    }

    pub fn has_kind(&self, kind: &str) -> bool {
        self.of_kind(kind).next().is_some()
    }

    /// Whether a document is a package file (`packageName`), by content or by name.
    pub fn is_package(&self) -> bool {
        self.docs.iter().any(|d| d.get("packageName").is_some())
            || self.name().contains("package.yaml")
    }

    /// Whether it holds a CSV, by content or by name.
    pub fn is_csv(&self) -> bool {
        self.has_kind("ClusterServiceVersion")
            || self.name().contains("clusterserviceversion.yaml")
            || self.name().contains(".csv.yaml")
    }
}

/// What the scan found.
#[derive(Default)]
pub(crate) struct Scan {
    pub yaml: Vec<YamlFile>,
    /// Image files (relative paths), candidates for the icon.
    pub images: Vec<String>,
}

impl Scan {
    /// The file at `rel`.
    pub fn file(&self, rel: &str) -> Option<&YamlFile> {
        self.yaml.iter().find(|f| f.rel == rel)
    }

    /// The project's own files (not patches, not `init`'s output).
    pub fn own(&self) -> impl Iterator<Item = &YamlFile> + Clone {
        self.yaml.iter().filter(|f| f.own())
    }
}

/// Scans the repository at `root`.
pub(crate) fn scan(root: &Path) -> std::io::Result<Scan> {
    let mut out = Scan::default();
    walk(root, root, 0, &mut out)?;
    out.yaml.sort_by(|a, b| a.rel.cmp(&b.rel));
    out.images.sort();
    let patches = super::kustomize::patches(&out);
    for f in &mut out.yaml {
        f.patch = patches.contains(&f.rel);
    }
    Ok(out)
}

fn walk(root: &Path, dir: &Path, depth: usize, out: &mut Scan) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    // A Helm chart's templates are Helm's, not manifests; its crds/ stay (plain copies).
    let chart = entries.iter().any(|e| e.file_name() == "Chart.yaml");
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            let helm = chart && (name == "templates" || name == "charts");
            if depth < MAX_DEPTH && !SKIP_DIRS.contains(&name.as_str()) && !helm {
                walk(root, &path, depth + 1, out)?;
            }
            continue;
        }
        if !kind.is_file() || entry.metadata().map_or(true, |m| m.len() > MAX_FILE) {
            continue;
        }
        let rel = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        let lower = name.to_ascii_lowercase();
        if [".yaml", ".yml", ".yaml.in", ".yml.in"]
            .iter()
            .any(|s| lower.ends_with(s))
        {
            let Ok(text) = olm_release_base::input::read_to_string(
                &path,
                olm_release_base::input::MAX_FILE_BYTES,
            ) else {
                continue;
            };
            let docs = parse(&neutralise(&text));
            let generated = text.starts_with(MARK);
            out.yaml.push(YamlFile {
                rel,
                text,
                docs,
                patch: false,
                generated,
            });
        } else if [".png", ".svg", ".jpg", ".jpeg", ".gif"]
            .iter()
            .any(|s| lower.ends_with(s))
        {
            out.images.push(rel);
        }
    }
    Ok(())
}

/// The YAML documents of `text`; a file that does not parse has none.
pub(crate) fn parse(text: &str) -> Vec<Value> {
    let mut docs = Vec::new();
    for doc in serde_yaml_ng::Deserializer::from_str(text) {
        match Value::deserialize(doc) {
            Ok(v) if !v.is_null() => docs.push(v),
            Ok(_) => {}
            Err(_) => return Vec::new(),
        }
    }
    docs
}

/// Template text made parseable: lines of actions only are dropped, other actions become `x`.
pub(crate) fn neutralise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let stripped = strip_actions(line, "");
        if line.contains("{{") && stripped.trim().is_empty() {
            continue;
        }
        out.push_str(&strip_actions(line, "x"));
        out.push('\n');
    }
    out
}

/// `line` with every `{{…}}` action replaced by `with`.
fn strip_actions(line: &str, with: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        match rest[start..].find("}}") {
            Some(end) => {
                out.push_str(with);
                rest = &rest[start + end + 2..];
            }
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Every `{{…}}` action's inside in `text`.
pub(crate) fn actions(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        let Some(end) = rest[start..].find("}}") else {
            break;
        };
        out.push(rest[start + 2..start + end].trim());
        rest = &rest[start + end + 2..];
    }
    out
}

/// The string at `path` in a document.
pub(crate) fn str_at<'a>(doc: &'a Value, path: &[&str]) -> Option<&'a str> {
    let mut v = doc;
    for key in path {
        v = v.get(*key)?;
    }
    v.as_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_parse_once_neutralised() {
        let text = "kind: Deployment\nmetadata:\n  name: op\n  namespace: {{.Namespace}}\nspec:\n  rules:\n{{.OperatorRules}}\n  image: {{.P}}/op{{if .Sha}}@{{.Sha}}{{else}}:{{.Tag}}{{end}}\n";
        let docs = parse(&neutralise(text));
        assert_eq!(str_at(&docs[0], &["metadata", "namespace"]), Some("x"));
        assert_eq!(
            str_at(&docs[0], &["spec", "image"]),
            Some("x/opx@xx:xx"),
            "inline actions become x"
        );
        assert_eq!(
            actions(text),
            [
                ".Namespace",
                ".OperatorRules",
                ".P",
                "if .Sha",
                ".Sha",
                "else",
                ".Tag",
                "end"
            ]
        );
    }
}
