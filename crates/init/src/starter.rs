//! Templates `init` writes when the repository has no template folder to render in place
//! (bundle folders, operator-sdk catalogs, kubebuilder trees and plain manifests): a bundle
//! folder `olm/bundle/` whose files include the repository's own CSV, CRDs and other objects
//! (`{{index .Bundle "FILE"}}`, so there stays one copy of each), or a starting CSV when there
//! is none, and a package file whose channels and `currentCSV` follow the pipeline. Every file
//! but the starting CSV (the user's to complete) opens with [`MARK`], so a rerun of `init`
//! knows its own output.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::bundles::Format;
use super::found::{Found, Layout};
use super::parts;
use super::scan::MARK;
use super::vars::yq;

/// Where the generated templates go, relative to the repository.
pub(crate) const TEMPLATES: &str = "olm";
pub(crate) const BUNDLE: &str = "bundle";

/// The generated templates and what the pipeline needs to render them.
pub(crate) struct Generated {
    /// (path relative to the repository, text).
    pub files: Vec<(String, String)>,
    /// Folders of the repository's manifests by variable, inserted as they are (not
    /// templates: a CRD whose description quotes `{{ .value }}` stays as written).
    pub inserted: BTreeMap<String, String>,
    /// The starting CSV, a new file the user must complete (and `init` never replaces).
    pub starter_csv: Option<String>,
}

/// The templates for `found`, whose CSV is named `csv_name` (`{version}` for the version).
pub(crate) fn generate(
    found: &Found,
    package: &str,
    csv_name: &str,
    owner: Option<&str>,
) -> Generated {
    let dir = format!("{TEMPLATES}/{BUNDLE}");
    let mut out = Generated {
        files: Vec::new(),
        inserted: BTreeMap::new(),
        starter_csv: None,
    };
    let var_for = |folder: &str, out: &mut Generated| -> String {
        if let Some((v, _)) = out.inserted.iter().find(|(_, d)| *d == folder) {
            return v.clone();
        }
        let base = match &found.layout {
            Layout::Bundle(b) if b.format == Format::PackageManifest => "Catalog",
            Layout::Bundle(_) => "Bundle",
            _ => "Manifests",
        };
        let mut name = base.to_string();
        let mut n = 1;
        while out.inserted.contains_key(&name) {
            n += 1;
            name = format!("{base}{n}");
        }
        out.inserted.insert(name.clone(), folder.to_string());
        name
    };
    let csv_file = format!("{dir}/{package}.vVERSION.clusterserviceversion.yaml.in");
    match (&found.csv, &found.csv_base) {
        (Some(from), Some(base)) => {
            let file = csv_file.trim_end_matches(".in").to_string();
            out.files
                .push((file.clone(), super::base_csv::complete(base, from, found)));
            out.starter_csv = Some(file);
        }
        (Some(csv), None) => {
            let (folder, file) = csv.rsplit_once('/').unwrap_or(("", csv));
            let var = var_for(folder, &mut out);
            out.files.push((
                csv_file,
                format!(
                    "{MARK}: {csv}, included as it is; the pipeline sets its name, version, replaces and createdAt.\n{{{{index .{var} \"{file}\"}}}}\n"
                ),
            ));
        }
        (None, _) => {
            out.files.push((
                csv_file.clone(),
                starter_csv(found, package, csv_name, owner),
            ));
            out.starter_csv = Some(csv_file);
        }
    }
    let mut included = parts::crd_files(&found.crds);
    included.extend(found.objects.iter().cloned());
    included.extend(found.dependencies.iter().cloned());
    included.extend(found.properties.iter().cloned());
    for rel in included {
        let (folder, file) = rel.rsplit_once('/').unwrap_or(("", &rel));
        let var = var_for(folder, &mut out);
        let mut name = format!("{dir}/{file}.in");
        let mut n = 1;
        while out.files.iter().any(|(p, _)| *p == name) {
            n += 1;
            name = format!("{dir}/{n}-{file}.in");
        }
        out.files.push((
            name,
            format!("{MARK}: {rel}, included as it is.\n{{{{index .{var} \"{file}\"}}}}\n"),
        ));
    }
    let current = csv_name.replace("{version}", "{{.CsvVersion}}");
    let mut package_file = format!(
        "{MARK}: the package file of a release; the pipeline names the package and channels.\npackageName: {{{{.PackageName}}}}\nchannels:\n  - name: {{{{.Channel}}}}\n    currentCSV: {current}\n"
    );
    for other in found.channels.iter().skip(1) {
        package_file.push_str(&format!(
            "  - name: {}\n    currentCSV: {current}\n",
            yq(other)
        ));
    }
    let default = match &found.default_channel {
        Some(d) if found.channels.len() > 1 => yq(d),
        _ => "{{.Channel}}".into(),
    };
    package_file.push_str(&format!("defaultChannel: {default}\n"));
    out.files
        .push((format!("{dir}/{package}.package.yaml.in"), package_file));
    out
}

/// A CSV to start from: identity, presentation fields to complete, install modes, and the
/// owned CRDs; the install strategy, permissions, icon and version are set by `render.csv`.
fn starter_csv(found: &Found, package: &str, csv_name: &str, owner: Option<&str>) -> String {
    let display = display_name(package);
    let provider = owner.unwrap_or(&display);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# The CSV of {package}, written by `olm-release init` as a starting point: complete the\n\
         # description, maintainers and links (OperatorHub shows them). The pipeline sets the name,\n\
         # version, createdAt, icon, permissions and deployment from the repository's files."
    );
    let _ = writeln!(s, "apiVersion: operators.coreos.com/v1alpha1");
    let _ = writeln!(s, "kind: ClusterServiceVersion");
    let _ = writeln!(s, "metadata:");
    let _ = writeln!(
        s,
        "  name: {}",
        csv_name.replace("{version}", "{{.CsvVersion}}")
    );
    let _ = writeln!(s, "  namespace: placeholder");
    let _ = writeln!(s, "  annotations:");
    let _ = writeln!(s, "    capabilities: Basic Install");
    let _ = writeln!(s, "    categories: OpenShift Optional");
    let _ = writeln!(s, "    certified: \"false\"");
    let _ = writeln!(s, "    support: {}", yq(provider));
    if !found.examples.is_empty() {
        let json = serde_json::to_string_pretty(&found.examples).unwrap_or_default();
        let _ = writeln!(s, "    alm-examples: |");
        for line in json.lines() {
            let _ = writeln!(s, "      {line}");
        }
    }
    let _ = writeln!(
        s,
        "    description: {}",
        yq(&format!("{display} on Kubernetes"))
    );
    if let Some(image) = found.deployment.as_ref().and_then(|d| d.image.as_ref()) {
        let _ = writeln!(s, "    containerImage: {}", yq(image));
    }
    let _ = writeln!(s, "spec:");
    let _ = writeln!(s, "  displayName: {}", yq(&display));
    let _ = writeln!(s, "  description: |");
    let _ = writeln!(s, "    {display} on Kubernetes.");
    let _ = writeln!(s, "  version: {{{{.CsvVersion}}}}");
    let _ = writeln!(s, "  maturity: alpha");
    let _ = writeln!(s, "  provider:");
    let _ = writeln!(s, "    name: {}", yq(provider));
    let _ = writeln!(s, "  maintainers:");
    let _ = writeln!(s, "    - name: {}", yq(provider));
    let _ = writeln!(s, "      email: maintainers@example.com");
    let _ = writeln!(s, "  keywords: [{}]", yq(package));
    let _ = writeln!(s, "  installModes:");
    for (mode, ok) in [
        ("OwnNamespace", true),
        ("SingleNamespace", true),
        ("MultiNamespace", false),
        ("AllNamespaces", true),
    ] {
        let _ = writeln!(s, "    - type: {mode}\n      supported: {ok}");
    }
    let _ = writeln!(s, "  install:");
    let _ = writeln!(s, "    strategy: deployment");
    if !found.crds.is_empty() {
        let _ = writeln!(s, "  customresourcedefinitions:");
        let _ = writeln!(s, "    owned:");
        for crd in &found.crds {
            let _ = writeln!(s, "      - name: {}", yq(&crd.name));
            let _ = writeln!(s, "        version: {}", yq(&crd.version));
            let _ = writeln!(s, "        kind: {}", yq(&crd.kind));
            let _ = writeln!(s, "        displayName: {}", yq(&crd.kind));
            let _ = writeln!(
                s,
                "        description: {}",
                yq(&format!("A {} managed by {display}", crd.kind))
            );
        }
    }
    s
}

/// `memcached-operator` → `Memcached Operator`.
fn display_name(package: &str) -> String {
    package
        .split(['-', '_', '.'])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}
