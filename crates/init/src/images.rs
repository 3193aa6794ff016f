//! Which container images a release sets: where an image's tag holds a version (`:v0.87.0`,
//! `:1.20.0-unstable`), the tag becomes the release's version (`:v${VERSION}`, `:${VERSION}`:
//! what a tagged release is checked against), so each release's CSV runs its own images;
//! digests and tags without a version (`latest`) stay as written.

use semver::Version;
use serde_yaml_ng::Value;

use super::scan::str_at;

/// What to do about each container whose image is no image reference (`REPLACE_IMAGE`,
/// `$OPERATOR_IMAGE`: a placeholder the project's own build replaces): verify refuses it, since
/// the kubelet cannot pull it, so the pipeline must set it.
pub(crate) fn placeholders(containers: &[(String, String)]) -> Vec<String> {
    containers
        .iter()
        .filter_map(|(name, image)| {
            let why = olm_release_olm::validate::text::image_reference_problem(image)?;
            Some(format!(
                "container {name} runs image {image:?}, which is no image reference ({why}; a placeholder the project's build replaces?): verify refuses it, since the kubelet cannot pull it; set render.csv.images.{name} in pipelines/release.yaml to the operator's image (its tag may be v${{VERSION}})"
            ))
        })
        .collect()
}

/// `(container, image)` pairs whose tag holds a version, with that version as `${VERSION}`;
/// `version` is the CSV's own (a complete CSV), else any SemVer in the tag counts.
pub(crate) fn follow_version(
    containers: &[(String, String)],
    version: Option<&Version>,
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (name, image) in containers {
        if out.iter().any(|(n, _)| n == name) || image.contains('@') {
            continue;
        }
        let Some((repo, tag)) = split(image) else {
            continue;
        };
        let found = match version {
            Some(v) => Some(v.to_string()).filter(|v| tag.contains(v.as_str())),
            None => semver_in(tag),
        };
        if let Some(v) = found {
            let prefix = if tag.starts_with(&format!("v{v}")) {
                "v"
            } else {
                ""
            };
            out.push((name.clone(), format!("{repo}:{prefix}${{VERSION}}")));
        }
    }
    out
}

/// The images of every container of a CSV's deployments: `(container, image)`.
pub(crate) fn of_csv(csv: &Value) -> Vec<(String, String)> {
    let deployments = csv
        .get("spec")
        .and_then(|s| s.get("install"))
        .and_then(|i| i.get("spec"))
        .and_then(|s| s.get("deployments"))
        .and_then(Value::as_sequence);
    let mut out = Vec::new();
    for d in deployments.into_iter().flatten() {
        let containers = d
            .get("spec")
            .and_then(|s| s.get("template"))
            .and_then(|t| t.get("spec"))
            .and_then(|s| s.get("containers"))
            .and_then(Value::as_sequence);
        for c in containers.into_iter().flatten() {
            if let (Some(n), Some(i)) = (str_at(c, &["name"]), str_at(c, &["image"])) {
                out.push((n.to_string(), i.to_string()));
            }
        }
    }
    out
}

/// `repo:tag` split at the tag's colon (not a registry port's).
fn split(image: &str) -> Option<(&str, &str)> {
    let (repo, tag) = image.rsplit_once(':')?;
    (!tag.contains('/')).then_some((repo, tag))
}

/// The first `X.Y.Z` in `tag` that parses as SemVer (`v0.87.0` → `0.87.0`).
fn semver_in(tag: &str) -> Option<String> {
    let start = tag.find(|c: char| c.is_ascii_digit())?;
    let rest = &tag[start..];
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(rest.len());
    let v = rest[..end].trim_end_matches('.');
    Version::parse(v).ok().map(|_| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(n: &str, i: &str) -> (String, String) {
        (n.into(), i.into())
    }

    #[test]
    fn the_version_in_a_tag_follows_the_release() {
        let found = follow_version(
            &[
                pair(
                    "op",
                    "quay.io/prometheus-operator/prometheus-operator:v0.87.0",
                ),
                pair("proxy", "gcr.io/kubebuilder/kube-rbac-proxy:latest"),
                pair("pinned", "quay.io/x/y@sha256:0123"),
                pair("local", "localhost:5000/op:1.2.0"),
            ],
            None,
        );
        assert_eq!(
            found,
            [
                pair(
                    "op",
                    "quay.io/prometheus-operator/prometheus-operator:v${VERSION}"
                ),
                pair("local", "localhost:5000/op:${VERSION}"),
            ]
        );
        let v = Version::parse("1.20.0").unwrap();
        assert_eq!(
            follow_version(
                &[
                    pair("hco", "quay.io/kubevirt/hco:1.20.0-unstable"),
                    pair("cdi", "quay.io/kubevirt/cdi:v1.60.0")
                ],
                Some(&v)
            ),
            [pair("hco", "quay.io/kubevirt/hco:${VERSION}")]
        );
    }
}
