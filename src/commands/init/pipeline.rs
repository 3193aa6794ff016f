//! The two pipeline files `init` writes: `pipelines/release.yaml` (tags: render, read the channel
//! head, package, verify, push, attach the CSV to the GitHub release) and
//! `pipelines/alpha.yaml` (master: the same without the GitHub release, into a package of its
//! own so that alpha builds never become the released package's `default`).
//!
//! Both read the version from `VERSION` (the CI configuration sets it from the tag or from
//! `olm-release next-version`) and let the environment override what was guessed
//! (`PACKAGE_NAME`, `CHANNEL`, `REGISTRY_URL`, `QUAY_NAMESPACE`). Template variables get a
//! default where their name says what they hold (image digests empty, tags from the version,
//! namespaces); the others must be set, and `init` lists them.

use std::fmt::Write;

use super::Choices;
use super::detect::Found;

/// Which of the two pipelines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Release,
    Alpha,
}

/// A template variable's value in the pipeline, and whether the user must set it.
pub(crate) struct VarValue {
    pub name: String,
    pub env: String,
    pub value: String,
    pub required: bool,
}

/// The pipeline file text.
pub(crate) fn write(kind: Kind, found: &Found, c: &Choices) -> String {
    let mut s = String::new();
    let pkg = &c.package;
    let (what, header) = match kind {
        Kind::Release => (
            "release",
            "On a tag vX.Y.Z: render the OLM manifests, read the channel head from the app\n\
             # registry (it becomes `replaces`), package, verify, push the bundle, and attach the CSV\n\
             # to the GitHub release.",
        ),
        Kind::Alpha => (
            "alpha",
            "On a master merge: the same bundle as an alpha build X.(Y+1).0-alpha.N (from\n\
             # `olm-release next-version`) in a package of its own, so that the released package's\n\
             # `default` never becomes an alpha build. No GitHub release: there is no tag.",
        ),
    };
    let file = match kind {
        Kind::Release => "release",
        Kind::Alpha => "alpha",
    };
    let _ = writeln!(
        s,
        "# The {what} pipeline of {pkg}, written by `olm-release init`.\n# {header}\n#\n#   VERSION=1.2.3 olm-release run pipelines/{file}.yaml --dry-run\n#"
    );
    let _ = writeln!(
        s,
        "# Credentials come from the environment, never from this file: QUAY_USERNAME and\n# QUAY_PASSWORD (or QUAY_TOKEN){}.",
        if kind == Kind::Release {
            ", GITHUB_TOKEN"
        } else {
            ""
        }
    );
    let _ = writeln!(s, "name: {pkg}-{what}");
    let package = match kind {
        Kind::Release => format!("${{PACKAGE_NAME:-{pkg}}}"),
        Kind::Alpha if found.literal_package => pkg.clone(),
        Kind::Alpha => format!("${{ALPHA_PACKAGE_NAME:-{pkg}-dev}}"),
    };
    let _ = writeln!(s, "package: {package}");
    let _ = writeln!(s, "channel: ${{CHANNEL:-{}}}", c.channel);
    let _ = writeln!(s, "version: ${{VERSION}}");
    let _ = writeln!(s, "render:");
    let _ = writeln!(s, "  templates: {}", yq(&c.templates));
    let _ = writeln!(s, "  bundle: {}", yq(&c.bundle));
    if !c.includes.is_empty() {
        let _ = writeln!(s, "  includes:");
        for (var, dir) in &c.includes {
            let _ = writeln!(s, "    {var}: {}", yq(dir));
        }
    }
    let vars = var_values(kind, found, c);
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
    write_csv(&mut s, found, c);
    let _ = writeln!(s, "registry:");
    let _ = writeln!(s, "  url: ${{REGISTRY_URL:-https://quay.io/cnr}}");
    let _ = writeln!(s, "  namespace: ${{QUAY_NAMESPACE:-{}}}", c.namespace);
    match kind {
        Kind::Release => {
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
            let _ = writeln!(
                s,
                "stages: [render, fetch-previous, package, verify, push, release]"
            );
        }
        Kind::Alpha => {
            let _ = writeln!(s, "stages: [render, fetch-previous, package, verify, push]");
        }
    }
    s
}

fn write_csv(s: &mut String, found: &Found, c: &Choices) {
    let parts = [
        c.csv_name.is_some(),
        found.icon.is_some(),
        found.permissions.is_some(),
        found.deployment.is_some(),
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
    if let Some(p) = &found.permissions {
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
    if let Some(d) = &found.deployment {
        let _ = writeln!(s, "    deployments:");
        let _ = writeln!(s, "      - file: {}", yq(&d.file));
        let _ = writeln!(s, "        name: {}", yq(&d.name));
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

/// The `render.vars` entries: every template variable not filled from the CSV parts.
pub(crate) fn var_values(kind: Kind, found: &Found, c: &Choices) -> Vec<VarValue> {
    found
        .vars
        .keys()
        .filter(|v| !c.csv_vars.iter().any(|(k, _)| k == *v))
        .map(|name| {
            let env = env_name(name);
            let default = guess(name, kind, c);
            let value = match &default {
                Some(d) => format!("${{{env}:-{d}}}"),
                None => format!("${{{env}}}"),
            };
            VarValue {
                name: name.clone(),
                env,
                value,
                required: default.is_none(),
            }
        })
        .collect()
}

/// A default for a template variable, from what its name says it holds.
fn guess(name: &str, kind: Kind, c: &Choices) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    if lower.ends_with("sha") || lower.contains("digest") {
        return Some(String::new()); // images by tag
    }
    if lower.ends_with("pullpolicy") {
        return Some("IfNotPresent".into());
    }
    if lower.ends_with("tag") {
        return Some(match kind {
            Kind::Release => "v${VERSION}".into(),
            Kind::Alpha => "latest".into(),
        });
    }
    if lower.contains("quay") || (lower.contains("registry") && lower.contains("namespace")) {
        return Some(format!("${{QUAY_NAMESPACE:-{}}}", c.namespace));
    }
    if lower.contains("registry") && (lower.contains("endpoint") || lower.contains("url")) {
        return Some("https://quay.io/cnr".into());
    }
    if lower.ends_with("namespace") {
        return Some(c.operator_namespace.clone());
    }
    None
}

/// `DockerPrefix` → `DOCKER_PREFIX`, `CSVNamespace` → `CSV_NAMESPACE`.
pub(crate) fn env_name(var: &str) -> String {
    let chars: Vec<char> = var.chars().collect();
    let mut out = String::new();
    for (i, &ch) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1);
        let boundary = ch.is_ascii_uppercase()
            && prev.is_some_and(|p| {
                p.is_ascii_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase()))
            });
        if boundary {
            out.push('_');
        }
        out.push(ch.to_ascii_uppercase());
    }
    out
}

/// A YAML scalar, quoted when plain style would change its meaning.
pub(crate) fn yq(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./${}:*@+".contains(c))
        && !s.starts_with(['{', '*', '@', ':', '-'])
        && !s.contains(": ")
        && !s.ends_with(':')
        && s.parse::<f64>().is_err()
        && !matches!(
            s,
            "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "~"
        );
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_quotes() {
        assert_eq!(env_name("DockerPrefix"), "DOCKER_PREFIX");
        assert_eq!(env_name("CSVNamespace"), "CSV_NAMESPACE");
        assert_eq!(env_name("VirtOperatorSha"), "VIRT_OPERATOR_SHA");
        assert_eq!(yq("manifests/release/olm"), "manifests/release/olm");
        assert_eq!(yq("{csv}"), "'{csv}'");
        assert_eq!(yq(""), "''");
        assert_eq!(yq("1.0"), "'1.0'");
        assert_eq!(yq("${A:-}"), "${A:-}");
    }
}
