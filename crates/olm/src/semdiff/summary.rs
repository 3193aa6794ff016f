//! The one-screen summary of a release's changes: what a reviewer checks first.
//!
//! Version and `replaces` of the CSV; container images, paired by repository so a bump reads
//! `quay.io/kubevirt/virt-operator v0.19.0 → v0.20.0`; permissions, expanded to (scope, service
//! account, API group, resource) with their verbs, so a rule split or merged differently but
//! granting the same is no change; CRD versions served and CRD categories; owned CRDs; and
//! the package's channel heads and default channel.

use std::collections::{BTreeMap, BTreeSet};

use serde_yaml_ng::Value;

use super::Side;
use crate::value_at;

/// The summary lines, grouped.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// `spec.version`: old, new.
    pub(crate) version: Option<(String, String)>,
    /// `spec.replaces`: old, new (`-` for none).
    pub(crate) replaces: Option<(String, String)>,
    /// Images by repository: (repository, old reference part, new reference part); `-` where
    /// the image is new or gone.
    pub(crate) images: Vec<(String, String, String)>,
    pub(crate) permissions_added: Vec<String>,
    pub(crate) permissions_removed: Vec<String>,
    pub(crate) crd_versions_added: Vec<String>,
    pub(crate) crd_versions_removed: Vec<String>,
    pub(crate) categories_added: Vec<String>,
    pub(crate) categories_removed: Vec<String>,
    pub(crate) owned_added: Vec<String>,
    pub(crate) owned_removed: Vec<String>,
    /// Package file: channel heads and the default channel, as `what: old → new` lines.
    pub(crate) package: Vec<String>,
}

impl Summary {
    /// Whether no summary line changed.
    pub fn is_empty(&self) -> bool {
        *self == Summary::default()
    }
}

pub(crate) fn summarise(old: &Side<'_>, new: &Side<'_>) -> Summary {
    let csv_str = |s: &Side<'_>, path: &str| -> String {
        s.csv
            .and_then(|c| value_at(&c.doc, path))
            .and_then(Value::as_str)
            .filter(|v| !v.is_empty())
            .unwrap_or("-")
            .to_string()
    };
    let pair = |path: &str| {
        let (a, b) = (csv_str(old, path), csv_str(new, path));
        (a != b).then_some((a, b))
    };
    let (pa, pb) = (permissions(old), permissions(new));
    let (ca, cb) = (crd_versions(old), crd_versions(new));
    let (ka, kb) = (categories(old), categories(new));
    let (oa, ob) = (owned(old), owned(new));
    Summary {
        version: pair("spec.version"),
        replaces: pair("spec.replaces"),
        images: images_changed(&images(old), &images(new)),
        permissions_added: verbs_delta(&pb, &pa),
        permissions_removed: verbs_delta(&pa, &pb),
        crd_versions_added: minus(&cb, &ca),
        crd_versions_removed: minus(&ca, &cb),
        categories_added: minus(&kb, &ka),
        categories_removed: minus(&ka, &kb),
        owned_added: minus(&ob, &oa),
        owned_removed: minus(&oa, &ob),
        package: package_lines(old, new),
    }
}

fn minus(a: &BTreeSet<String>, b: &BTreeSet<String>) -> Vec<String> {
    a.difference(b).cloned().collect()
}

/// Every `image:` under the install strategy, the `containerImage` annotation and
/// `relatedImages`, by repository.
/// The image references of a CSV by repository (its install strategy, `containerImage` and
/// `relatedImages`): each repository with the tags or `@digest`s it is used at.
pub fn csv_images(csv: &crate::Manifest) -> BTreeMap<String, BTreeSet<String>> {
    images(&Side {
        csv: Some(csv),
        crds: &[],
        package: None,
    })
}

fn images(side: &Side<'_>) -> BTreeMap<String, BTreeSet<String>> {
    let mut refs = BTreeSet::new();
    if let Some(csv) = side.csv {
        if let Some(install) = value_at(&csv.doc, "spec.install") {
            collect_images(install, &mut refs);
        }
        if let Some(i) = value_at(&csv.doc, "metadata.annotations")
            .and_then(|a| a.get("containerImage"))
            .and_then(Value::as_str)
        {
            refs.insert(i.to_string());
        }
        if let Some(Value::Sequence(related)) = value_at(&csv.doc, "spec.relatedImages") {
            for r in related {
                if let Some(i) = r.get("image").and_then(Value::as_str) {
                    refs.insert(i.to_string());
                }
            }
        }
    }
    let mut by_repo: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for r in refs {
        let (repo, at) = split_reference(&r);
        by_repo.entry(repo).or_default().insert(at);
    }
    by_repo
}

fn collect_images(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Mapping(m) => {
            for (k, v) in m {
                match (k.as_str(), v) {
                    (Some("image"), Value::String(s)) => {
                        out.insert(s.clone());
                    }
                    _ => collect_images(v, out),
                }
            }
        }
        Value::Sequence(items) => items.iter().for_each(|i| collect_images(i, out)),
        Value::Tagged(t) => collect_images(&t.value, out),
        _ => {}
    }
}

/// `quay.io/ns/img:tag` → (`quay.io/ns/img`, `tag`); a digest (`@sha256:…`) stays whole; no
/// tag reads as `latest`, as a container runtime would.
pub fn split_reference(r: &str) -> (String, String) {
    if let Some((repo, digest)) = r.split_once('@') {
        return (repo.to_string(), format!("@{digest}"));
    }
    let last_slash = r.rfind('/').map_or(0, |i| i + 1);
    match r[last_slash..].rfind(':') {
        Some(i) => (
            r[..last_slash + i].to_string(),
            r[last_slash + i + 1..].to_string(),
        ),
        None => (r.to_string(), "latest".into()),
    }
}

fn images_changed(
    old: &BTreeMap<String, BTreeSet<String>>,
    new: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<(String, String, String)> {
    let join = |s: Option<&BTreeSet<String>>| {
        s.map(|s| s.iter().cloned().collect::<Vec<_>>().join(", "))
            .unwrap_or_else(|| "-".into())
    };
    let repos: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    repos
        .into_iter()
        .filter(|r| old.get(*r) != new.get(*r))
        .map(|r| (r.clone(), join(old.get(r)), join(new.get(r))))
        .collect()
}

/// (scope service-account group/resource) → verbs.
type Grants = BTreeMap<String, BTreeSet<String>>;

fn permissions(side: &Side<'_>) -> Grants {
    let mut out = Grants::new();
    let Some(csv) = side.csv else { return out };
    for (scope, key) in [
        ("cluster", "spec.install.spec.clusterPermissions"),
        ("namespace", "spec.install.spec.permissions"),
    ] {
        let Some(Value::Sequence(perms)) = value_at(&csv.doc, key) else {
            continue;
        };
        for p in perms {
            let sa = p
                .get("serviceAccountName")
                .and_then(Value::as_str)
                .unwrap_or("?");
            let Some(Value::Sequence(rules)) = p.get("rules") else {
                continue;
            };
            for rule in rules {
                let strings = |k: &str| -> Vec<String> {
                    match rule.get(k) {
                        Some(Value::Sequence(s)) => s
                            .iter()
                            .filter_map(|v| v.as_str().map(str::to_string))
                            .collect(),
                        _ => Vec::new(),
                    }
                };
                let verbs = strings("verbs");
                // A rule limited to some objects grants only on those: keep them in the target.
                let names = strings("resourceNames");
                let only = if names.is_empty() {
                    String::new()
                } else {
                    format!("[{}]", names.join(","))
                };
                let mut targets: Vec<String> = Vec::new();
                for g in strings("apiGroups") {
                    for r in strings("resources") {
                        let group = if g.is_empty() { "core" } else { g.as_str() };
                        targets.push(format!("{group}/{r}{only}"));
                    }
                }
                for url in strings("nonResourceURLs") {
                    targets.push(format!("url {url}"));
                }
                for t in targets {
                    out.entry(format!("{scope} {sa} {t}"))
                        .or_default()
                        .extend(verbs.iter().cloned());
                }
            }
        }
    }
    out
}

/// What `a` grants that `b` does not, one line per target.
fn verbs_delta(a: &Grants, b: &Grants) -> Vec<String> {
    a.iter()
        .filter_map(|(target, verbs)| {
            let extra: Vec<&str> = verbs
                .iter()
                .filter(|v| !b.get(target).is_some_and(|bv| bv.contains(*v)))
                .map(String::as_str)
                .collect();
            (!extra.is_empty()).then(|| format!("{target}: {}", extra.join(", ")))
        })
        .collect()
}

/// `crd-name version` for every version a CRD serves (or its singular `spec.version`).
fn crd_versions(side: &Side<'_>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for crd in side.crds {
        let name = crd.name().unwrap_or("?");
        if let Some(Value::Sequence(versions)) = value_at(&crd.doc, "spec.versions") {
            for v in versions {
                let served = v.get("served").and_then(Value::as_bool).unwrap_or(true);
                if let (Some(n), true) = (v.get("name").and_then(Value::as_str), served) {
                    out.insert(format!("{name} {n}"));
                }
            }
        }
        if let Some(v) = crd.spec_version() {
            out.insert(format!("{name} {v}"));
        }
    }
    out
}

fn categories(side: &Side<'_>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for crd in side.crds {
        if let Some(Value::Sequence(c)) = value_at(&crd.doc, "spec.names.categories") {
            for cat in c.iter().filter_map(Value::as_str) {
                out.insert(format!("{} {cat}", crd.name().unwrap_or("?")));
            }
        }
    }
    out
}

fn owned(side: &Side<'_>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let Some(csv) = side.csv else { return out };
    if let Some(Value::Sequence(owned)) = value_at(&csv.doc, "spec.customresourcedefinitions.owned")
    {
        for o in owned {
            let s = |k: &str| o.get(k).and_then(Value::as_str).unwrap_or("?");
            out.insert(format!("{} {} ({})", s("name"), s("version"), s("kind")));
        }
    }
    out
}

fn package_lines(old: &Side<'_>, new: &Side<'_>) -> Vec<String> {
    let (Some(a), Some(b)) = (old.package, new.package) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let heads = |p: &crate::PackageManifest| -> BTreeMap<String, String> {
        p.channels
            .iter()
            .map(|c| (c.name.clone(), c.current_csv.clone()))
            .collect()
    };
    let (ha, hb) = (heads(a), heads(b));
    let names: BTreeSet<&String> = ha.keys().chain(hb.keys()).collect();
    for n in names {
        let (x, y) = (ha.get(n), hb.get(n));
        if x != y {
            let show = |v: Option<&String>| v.cloned().unwrap_or_else(|| "-".into());
            out.push(format!("channel {n}: {} → {}", show(x), show(y)));
        }
    }
    if a.default_channel != b.default_channel {
        let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".into());
        out.push(format!(
            "defaultChannel: {} → {}",
            show(&a.default_channel),
            show(&b.default_channel)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Manifest;

    fn csv(rules: &str) -> Manifest {
        let doc = format!(
            "spec: {{install: {{spec: {{clusterPermissions: [{{serviceAccountName: op, rules: {rules}}}]}}}}}}"
        );
        Manifest::new("csv", serde_yaml_ng::from_str(&doc).unwrap())
    }

    #[test]
    fn permissions_compare_what_is_granted_not_how_rules_are_split() {
        let a = csv("[{apiGroups: [''], resources: [pods, services], verbs: [get, list]}]");
        let b = csv(
            "[{apiGroups: [''], resources: [services], verbs: [list, get]}, \
             {apiGroups: [''], resources: [pods], verbs: [get, list, delete]}, \
             {apiGroups: [x.io], resources: [things], resourceNames: [one], verbs: [get]}]",
        );
        let side = |m| Side {
            csv: Some(m),
            crds: &[],
            package: None,
        };
        let s = summarise(&side(&a), &side(&b));
        assert_eq!(
            s.permissions_added,
            [
                "cluster op core/pods: delete",
                "cluster op x.io/things[one]: get"
            ]
        );
        assert!(s.permissions_removed.is_empty());
    }

    #[test]
    fn references_split_at_the_tag_not_the_port() {
        assert_eq!(
            split_reference("localhost:5000/ns/img:v1"),
            ("localhost:5000/ns/img".into(), "v1".into())
        );
        assert_eq!(
            split_reference("quay.io/ns/img"),
            ("quay.io/ns/img".into(), "latest".into())
        );
        assert_eq!(
            split_reference("quay.io/ns/img@sha256:ab"),
            ("quay.io/ns/img".into(), "@sha256:ab".into())
        );
    }
}
