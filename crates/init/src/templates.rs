//! The templates layout: a folder of templates whose bundle sub-folder holds a CSV template and
//! a package file (KubeVirt's `manifests/release/olm/bundle/`), rendered in place by the
//! pipeline. This module finds it, reads the package, the CSV's name and the folders its
//! templates include, and collects every template variable the pipeline must define, so none
//! is left undefined.

use std::collections::BTreeMap;

use super::found::Found;
use super::scan::{Scan, YamlFile, actions};

/// Template variables the render stage defines itself.
pub(crate) const BUILT_IN: &[&str] = &[
    "CsvVersion",
    "PackageName",
    "Channel",
    "ReplacesCsvVersion",
    "CreatedAt",
];

/// The templates folder and its bundle sub-folder: a CSV template beside a package file, one
/// folder below the templates folder (KubeVirt's path first, then the shallowest). Files `init`
/// wrote itself never count.
pub(crate) fn find(scan: &Scan) -> Option<(String, String)> {
    let mut candidates: Vec<(String, String)> = scan
        .own()
        .filter(|f| f.is_template() && f.is_csv())
        .filter(|f| scan.own().any(|g| g.dir() == f.dir() && g.is_package()))
        .filter_map(|f| {
            let (templates, bundle) = f.dir().rsplit_once('/')?;
            Some((templates.to_string(), bundle.to_string()))
        })
        .collect();
    candidates.sort_by_key(|(t, _)| (t != "manifests/release/olm", t.matches('/').count()));
    candidates.into_iter().next()
}

/// Reads the templates layout into `found`; returns the files the pipeline renders.
pub(crate) fn read<'a>(
    scan: &'a Scan,
    templates: &str,
    bundle: &str,
    found: &mut Found,
) -> Vec<&'a YamlFile> {
    let mut rendered: Vec<&YamlFile> = Vec::new();
    let files: Vec<&YamlFile> = scan.own().filter(|f| under(&f.rel, templates)).collect();
    let bundle_dir = format!("{templates}/{bundle}");
    for f in &files {
        for a in actions(&f.text) {
            let Some((var, file)) = include_of(a) else {
                continue;
            };
            match scan.own().find(|g| g.rel.ends_with(&format!("/{file}"))) {
                Some(hit) => {
                    let dir = hit.rel[..hit.rel.len() - file.len() - 1].to_string();
                    found.includes.entry(var.to_string()).or_insert(dir);
                    rendered.push(hit);
                }
                None => found.todo.push(format!(
                    "{} includes {file} ({{{{index .{var} \"{file}\"}}}}), which no folder of the repository holds: render fails until it exists (generate it first, or fix the name)",
                    f.rel
                )),
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
        read_package(pkg, found);
    }
    if let Some(csv) = files.iter().find(|f| f.dir() == bundle_dir && f.is_csv()) {
        found.csv = Some(csv.rel.clone());
        let text = expand_includes(scan, &csv.text, &found.includes);
        found.csv_name = csv_name(&text);
    }
    rendered.extend(files);
    rendered
}

/// Every template variable `rendered` reads that the pipeline must define, with its files.
pub(crate) fn collect_vars(rendered: &[&YamlFile], found: &mut Found) {
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
}

pub(crate) fn under(rel: &str, dir: &str) -> bool {
    rel.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
}
/// Package name and channel from a package file.
pub(crate) fn read_package(file: &YamlFile, found: &mut Found) {
    let literal = |key: &str| {
        file.text.lines().find_map(|l| {
            let v = l.trim().strip_prefix(key)?.trim().trim_matches(['"', '\'']);
            (!v.is_empty() && !v.contains("{{")).then(|| v.to_string())
        })
    };
    if let Some(p) = literal("packageName:") {
        found.package = Some((p, format!("packageName in {}", file.rel)));
        found.literal_package = file.is_template();
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
    found.channels = literal("defaultChannel:")
        .or_else(|| literal("- name:"))
        .into_iter()
        .collect();
}

/// `metadata.name` of a CSV text, with `{version}` for the version.
pub(crate) fn csv_name(text: &str) -> Option<String> {
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
