//! Templates `init` writes when the repository has no template folder to render in place
//! (operator-sdk catalogs and plain manifests): a bundle folder `olm/bundle/` whose files
//! include the repository's own CSV and CRDs (`{{index .Catalog "FILE"}}`, so there stays one
//! copy of each), or a starting CSV when there is none, and a package file whose channel and
//! `currentCSV` follow the pipeline.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::detect::{Found, Layout};
use super::pipeline::yq;

/// Where the generated templates go, relative to the repository.
pub(crate) const TEMPLATES: &str = "olm";
pub(crate) const BUNDLE: &str = "bundle";

/// The generated templates and what the pipeline needs to render them.
pub(crate) struct Generated {
    /// (path relative to the repository, text).
    pub files: Vec<(String, String)>,
    /// Include folders by variable.
    pub includes: BTreeMap<String, String>,
    /// Whether the CSV is a new starting point the user must complete.
    pub starter_csv: bool,
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
        includes: BTreeMap::new(),
        starter_csv: false,
    };
    let var_for = |folder: &str, out: &mut Generated| -> String {
        if let Some((v, _)) = out.includes.iter().find(|(_, d)| *d == folder) {
            return v.clone();
        }
        let base = match found.layout {
            Layout::OperatorSdk { .. } => "Catalog",
            _ => "Manifests",
        };
        let mut name = base.to_string();
        let mut n = 1;
        while out.includes.contains_key(&name) {
            n += 1;
            name = format!("{base}{n}");
        }
        out.includes.insert(name.clone(), folder.to_string());
        name
    };
    let csv_file = format!("{dir}/{package}.vVERSION.clusterserviceversion.yaml.in");
    match &found.csv {
        Some(csv) => {
            let (folder, file) = csv.rsplit_once('/').unwrap_or(("", csv));
            let var = var_for(folder, &mut out);
            out.files.push((
                csv_file,
                format!(
                    "{{{{index .{var} \"{file}\"}}}}\n# ^ {csv}: the pipeline sets its name, version, replaces and createdAt.\n"
                ),
            ));
        }
        None => {
            out.files
                .push((csv_file, starter_csv(found, package, csv_name, owner)));
            out.starter_csv = true;
        }
    }
    let mut seen = Vec::new();
    for crd in &found.crds {
        if seen.contains(&crd.file) {
            continue;
        }
        seen.push(crd.file.clone());
        let (folder, file) = crd.file.rsplit_once('/').unwrap_or(("", &crd.file));
        let var = var_for(folder, &mut out);
        let mut name = format!("{dir}/{file}.in");
        if out.files.iter().any(|(p, _)| *p == name) {
            name = format!("{dir}/{}-{file}.in", seen.len());
        }
        out.files
            .push((name, format!("{{{{index .{var} \"{file}\"}}}}\n")));
    }
    let current = csv_name.replace("{version}", "{{.CsvVersion}}");
    out.files.push((
        format!("{dir}/{package}.package.yaml.in"),
        format!(
            "packageName: {{{{.PackageName}}}}\nchannels:\n  - name: {{{{.Channel}}}}\n    currentCSV: {current}\ndefaultChannel: {{{{.Channel}}}}\n"
        ),
    ));
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
