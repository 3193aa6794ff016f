//! The one pipeline file `init` writes, `pipelines/release.yaml`: the release of a tag (render,
//! read the channel head, package, verify, push the bundle image, add it to the catalog, attach
//! the CSV to the GitHub release), and as variants of the same file — never a second copy of
//! its settings — the alpha build of the default branch (`--variant alpha`: a package of its
//! own, so the released package's default channel never gets an alpha build; no GitHub release)
//! and a local try-out (`--variant local`: every target a folder under `_out/local/`, no
//! network, no credentials). With `--app-registry` the release also publishes to an app
//! registry (the 2019 path).
//!
//! The version comes from `VERSION` (the CI files set it from the tag or from
//! `olm-release next-version`); the environment overrides what was guessed (`PACKAGE_NAME`,
//! `CHANNEL`, `BUNDLE_IMAGE`, `REGISTRY_URL`, `QUAY_NAMESPACE`).

use std::fmt::Write;

use super::choices::Choices;
use super::found::{Found, Layout};
use super::scan::MARK;
use super::vars::{Kind, var_values, yq};

/// Where `init` writes it, relative to the repository.
pub(crate) const PATH: &str = "pipelines/release.yaml";

/// The pipeline file text.
pub(crate) fn write(found: &Found, c: &Choices) -> String {
    let mut s = String::new();
    let pkg = &c.package;
    header(&mut s, c);
    let _ = writeln!(s, "name: {pkg}-release");
    let _ = writeln!(s, "package: ${{PACKAGE_NAME:-{pkg}}}");
    if c.channels.len() > 1 {
        let list: Vec<String> = c.channels.iter().map(|ch| yq(ch)).collect();
        let _ = writeln!(s, "channels: [{}]", list.join(", "));
    } else {
        let _ = writeln!(s, "channel: ${{CHANNEL:-{}}}", c.channel());
    }
    if let Some(d) = &c.default_channel {
        let _ = writeln!(s, "default_channel: {}", yq(d));
    }
    let _ = writeln!(s, "version: ${{VERSION}}");
    render(&mut s, found, c);
    if !c.app_registry {
        let _ = writeln!(
            s,
            "verify:\n  profile: modern                     # OLM reads bundle images and catalogs"
        );
    }
    if c.app_registry {
        let _ = writeln!(
            s,
            "registry:                            # the app registry (the 2019 path)"
        );
        let _ = writeln!(s, "  url: ${{REGISTRY_URL:-https://quay.io/cnr}}");
        let _ = writeln!(s, "  namespace: ${{QUAY_NAMESPACE:-{}}}", c.namespace);
    }
    let _ = writeln!(s, "bundle_image:");
    let _ = writeln!(s, "  target: ${{BUNDLE_IMAGE:-{}}}", c.bundle_image());
    s.push_str(&catalog_section(c, Catalog::Release));
    let _ = writeln!(s, "release:");
    let target = match &c.github {
        Some(repo) => format!("github:{repo}"),
        None => "github:${GITHUB_REPOSITORY:-${TRAVIS_REPO_SLUG}}".into(),
    };
    let _ = writeln!(s, "  target: {}", yq(&target));
    let _ = writeln!(s, "  tag: v${{VERSION}}");
    let mut assets = vec!["\"{csv}\"".to_string()];
    assets.extend(found.operator_sources.iter().map(|a| yq(a)));
    let _ = writeln!(s, "  assets: [{}]", assets.join(", "));
    let _ = writeln!(s, "stages: [{}]", stages(c, true).join(", "));
    variants(&mut s, found, c);
    s
}

/// Which job's catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Catalog {
    /// The release's (and the alpha variant's).
    Release,
    /// The `local` variant's: a folder under `_out/local/`.
    Local,
}

/// The `catalog:` section: the one place where the catalog's target is chosen. The release's
/// (and the alpha variant's) catalog is kept on a branch of the operator's own GitHub
/// repository, `olm-catalog`, folder `catalog/`, so it outlives the CI job and the next
/// release's fetch-previous reads its head there (pushed with `GITHUB_TOKEN`, which the CI files
/// pass with `contents: write`); the `local` variant's is a folder under `_out/local/`, its
/// git keys removed.
pub(crate) fn catalog_section(c: &Choices, which: Catalog) -> String {
    match which {
        Catalog::Release => {
            let repo = c
                .github
                .clone()
                .unwrap_or_else(|| "${GITHUB_REPOSITORY:-${TRAVIS_REPO_SLUG}}".into());
            format!(
                "catalog:                             # the file-based catalog the bundle image joins\n  \
                 target: {}\n  \
                 branch: {CATALOG_BRANCH}                # its own branch: pushed, never forced (GITHUB_TOKEN)\n  \
                 path: catalog\n",
                yq(&format!("git:https://github.com/{repo}.git"))
            )
        }
        Catalog::Local => {
            "catalog:\n  target: dir:_out/local/catalog\n  branch: null\n  path: null\n".into()
        }
    }
}

/// The branch of the operator's repository that holds its catalog.
pub(crate) const CATALOG_BRANCH: &str = "olm-catalog";

fn header(s: &mut String, c: &Choices) {
    let pkg = &c.package;
    let (registry, source) = if c.app_registry {
        (" (and to the app registry)", "app registry")
    } else {
        ("", "catalog")
    };
    let creds = if c.app_registry {
        "OCI_USERNAME and OCI_PASSWORD for the\n# bundle image, QUAY_USERNAME and QUAY_PASSWORD (or QUAY_TOKEN) for the app registry, GITHUB_TOKEN\n# for the release and the catalog branch."
    } else {
        "OCI_USERNAME and OCI_PASSWORD for the\n# bundle image, GITHUB_TOKEN for the release and the catalog branch."
    };
    let _ = writeln!(
        s,
        "{MARK}: the release pipeline of {pkg} and its variants.\n\
         # On a tag vX.Y.Z: render the bundle, read the channel head from the {source} (what the new\n\
         # CSV replaces), package, verify, push the bundle image{registry}, add it to the catalog,\n\
         # and attach the CSV to the GitHub release. Variants of this same file (--variant NAME):\n\
         #   alpha  a build of the default branch, X.(Y+1).0-alpha.N from `olm-release next-version`,\n\
         #          into a package of its own ({pkg}-dev), without a GitHub release;\n\
         #   local  this release into folders under _out/local/: no network, no credentials.\n\
         #\n\
         #   VERSION=0.0.1 olm-release run {PATH} --variant local\n\
         #   VERSION=1.2.3 olm-release run {PATH} --dry-run\n\
         #\n\
         # Credentials come from the environment, never from this file: {creds}"
    );
}

fn render(s: &mut String, found: &Found, c: &Choices) {
    let _ = writeln!(s, "render:");
    let _ = writeln!(s, "  templates: {}", yq(&c.templates));
    let _ = writeln!(s, "  bundle: {}", yq(&c.bundle));
    if let Some((dir, snapshot)) = &found.kustomize {
        let _ = writeln!(
            s,
            "  kustomize:                         # what `make bundle` builds; a release stops while {snapshot} differs from it"
        );
        let _ = writeln!(s, "    build: {}", yq(dir));
        let _ = writeln!(s, "    snapshot: {}", yq(snapshot));
    }
    if !c.includes.is_empty() {
        let _ = writeln!(
            s,
            "  includes:                          # {{{{index .VAR \"FILE\"}}}} reads FILE in the folder"
        );
        for (var, dir) in &c.includes {
            let _ = writeln!(s, "    {var}: {}", yq(dir));
        }
    }
    if !c.files.is_empty() {
        let _ = writeln!(
            s,
            "  files:                             # {{{{index .VAR \"FILE\"}}}} inserts FILE of the folder as it is"
        );
        for (var, dir) in &c.files {
            let _ = writeln!(s, "    {var}: {}", yq(dir));
        }
    }
    if c.files.contains_key(super::bundle_metadata::VAR) {
        let _ = writeln!(
            s,
            "  functions: sprig                   # the annotations template sets the package with replace"
        );
    }
    let vars = var_values(Kind::Release, found, c);
    if !vars.is_empty() {
        let _ = writeln!(s, "  vars:");
        for v in &vars {
            let note = if v.required {
                "   # set it: no default"
            } else {
                ""
            };
            let _ = writeln!(s, "    {}: {}{note}", v.name, yq(&v.value));
        }
    }
    write_csv(s, found, c);
}

fn write_csv(s: &mut String, found: &Found, c: &Choices) {
    let templates = matches!(found.layout, Layout::Templates { .. });
    let parts = [
        c.csv_name.is_some(),
        found.icon.is_some(),
        found.permissions.is_some() || !found.accounts.is_empty(),
        found.deployment.is_some() && !found.complete_csv,
        !found.images.is_empty(),
        !c.csv_vars.is_empty(),
    ];
    if !parts.contains(&true) {
        return;
    }
    let _ = writeln!(
        s,
        "  csv:                               # the CSV's parts, assembled from these files"
    );
    if let Some(name) = &c.csv_name {
        let _ = writeln!(s, "    name: {}", yq(name));
    }
    if let Some(icon) = &found.icon {
        let _ = writeln!(s, "    icon: {}", yq(icon));
    }
    if let (true, Some(p)) = (templates, &found.permissions) {
        let key = if p.cluster {
            "cluster_permissions"
        } else {
            "permissions"
        };
        let _ = writeln!(s, "    {key}:");
        let _ = writeln!(s, "      - service_account: {}", yq(&p.service_account));
        let _ = writeln!(
            s,
            "        role: {}                  # its rules first, then every other role in the files",
            yq(&p.role)
        );
        let _ = writeln!(s, "        rbac:");
        for f in &p.files {
            let _ = writeln!(s, "          - {}", yq(f));
        }
        let _ = writeln!(s, "        include: [\"*\"]");
    }
    for cluster in [true, false] {
        let mine: Vec<_> = found
            .accounts
            .iter()
            .filter(|p| p.cluster == cluster)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let key = if cluster {
            "cluster_permissions:               # each service account: the roles bound to it"
        } else {
            "permissions:"
        };
        let _ = writeln!(s, "    {key}");
        for p in mine {
            let _ = writeln!(s, "      - service_account: {}", yq(&p.service_account));
            let _ = writeln!(s, "        role: {}", yq(&p.role));
            let files: Vec<String> = p.files.iter().map(|f| yq(f)).collect();
            let _ = writeln!(s, "        rbac: [{}]", files.join(", "));
            if !p.include.is_empty() {
                let roles: Vec<String> = p.include.iter().map(|r| yq(r)).collect();
                let _ = writeln!(s, "        include: [{}]", roles.join(", "));
            }
        }
    }
    if let (false, Some(d)) = (found.complete_csv, &found.deployment) {
        let _ = writeln!(s, "    deployments:");
        let _ = writeln!(s, "      - file: {}", yq(&d.file));
        let _ = writeln!(s, "        name: {}", yq(&d.name));
    }
    if !found.images.is_empty() {
        let _ = writeln!(
            s,
            "    images:                          # by container name; the tag follows the version"
        );
        for (name, image) in &found.images {
            let _ = writeln!(s, "      {}: {}", yq(name), yq(image));
        }
    }
    if !c.csv_vars.is_empty() {
        let _ = writeln!(
            s,
            "    vars:                            # template placeholders filled from those parts"
        );
        for (var, path) in &c.csv_vars {
            let _ = writeln!(s, "      {var}: {}", yq(path));
        }
    }
}

/// The stages, with the GitHub release or without.
fn stages(c: &Choices, release: bool) -> Vec<&'static str> {
    let mut out = vec!["render", "fetch-previous", "package", "verify"];
    if c.app_registry {
        out.push("push");
    }
    out.extend(["bundle-image", "catalog"]);
    if release {
        out.push("release");
    }
    out
}

fn variants(s: &mut String, found: &Found, c: &Choices) {
    let pkg = &c.package;
    let _ = writeln!(
        s,
        "variants:                            # the same pipeline, with these keys replaced"
    );
    let _ = writeln!(
        s,
        "  alpha:                             # --variant alpha: the default branch's builds"
    );
    let _ = writeln!(s, "    name: {pkg}-alpha");
    let package = if found.literal_package {
        pkg.clone()
    } else {
        format!("${{ALPHA_PACKAGE_NAME:-{pkg}-dev}}")
    };
    let _ = writeln!(s, "    package: {package}");
    let release = var_values(Kind::Release, found, c);
    let alpha: Vec<_> = var_values(Kind::Alpha, found, c)
        .into_iter()
        .filter(|a| {
            !release
                .iter()
                .any(|r| r.name == a.name && r.value == a.value)
        })
        .collect();
    let images: Vec<(String, String)> = found
        .images
        .iter()
        .map(|(n, i)| {
            let repo = i.rsplit_once(':').map_or(i.as_str(), |(r, _)| r);
            (n.clone(), format!("{repo}:latest"))
        })
        .collect();
    if !alpha.is_empty() || !images.is_empty() {
        let _ = writeln!(s, "    render:");
        if !alpha.is_empty() {
            let _ = writeln!(s, "      vars:");
            for v in &alpha {
                let _ = writeln!(s, "        {}: {}", v.name, yq(&v.value));
            }
        }
        if !images.is_empty() {
            let _ = writeln!(s, "      csv:\n        images:");
            for (n, i) in &images {
                let _ = writeln!(s, "          {}: {}", yq(n), yq(i));
            }
        }
    }
    let _ = writeln!(s, "    stages: [{}]", stages(c, false).join(", "));
    let _ = writeln!(
        s,
        "  local:                             # --variant local: every target a folder"
    );
    let _ = writeln!(s, "    name: {pkg}-local");
    if c.app_registry {
        let _ = writeln!(s, "    registry:\n      url: dir:_out/local/registry");
    }
    let _ = writeln!(s, "    bundle_image:");
    let _ = writeln!(s, "      target: oci:_out/local/oci/{pkg}-bundle");
    let _ = writeln!(
        s,
        "      image: ${{BUNDLE_IMAGE:-{}}}   # the name the catalog pins by digest",
        c.bundle_image()
    );
    let section = catalog_section(c, Catalog::Local);
    for line in section.lines() {
        let _ = writeln!(s, "    {line}");
    }
    let _ = writeln!(s, "    release:\n      target: dir:_out/local/release");
}
