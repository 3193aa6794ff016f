//! Served CRD versions an upgrade removes strand the objects stored in them: the API server
//! refuses to drop a stored version (Kubernetes docs, "Versions in CustomResourceDefinitions",
//! <https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definition-versioning/>).
//! [`UpgradeDiff::stranded`] says what that means for a release: nothing, a warning when the
//! pipeline allows it (`verify.allow_removed_crd_versions`), or the refusal.
//! [`RegistryV1::of_release`] is the release's bundle as OLM v1 renders it for such a diff.

use super::bundle::RegistryV1;
use super::upgrade::UpgradeDiff;
use crate::Manifest;
use crate::fbc::properties::owned_crds;

impl UpgradeDiff {
    /// For a release replacing `head`: `Ok(None)` when no served version is removed,
    /// `Ok(Some(warning))` when some are and `allowed`, else `Err` with the refusal's message
    /// (the versions, the head and the fix).
    pub fn stranded(&self, head: &str, allowed: bool) -> Result<Option<String>, String> {
        let removed: Vec<String> = self
            .removed_served()
            .iter()
            .map(|c| format!("CRD {} version {}", c.crd, c.version))
            .collect();
        if removed.is_empty() {
            return Ok(None);
        }
        let (them, s) = match removed.len() {
            1 => ("it", ""),
            _ => ("them", "s"),
        };
        if allowed {
            return Ok(Some(format!(
                "{} removed though the channel head serves {them} (verify.allow_removed_crd_versions)",
                removed.join(", ")
            )));
        }
        Err(format!(
            "{}: the channel head {head} serves {them} and this release no longer lists {them}, so the objects stored in {them} would be stranded (the API server refuses to drop a stored version); nothing was written. Keep the version{s} in spec.versions (served: false stops serving {them}), or set verify.allow_removed_crd_versions: true once no cluster stores objects in {them}",
            removed.join(", ")
        ))
    }
}

impl RegistryV1 {
    /// The bundle of `package` made of `csv`, the CRDs among `crds` it owns, and `others`.
    pub fn of_release(
        package: &str,
        csv: &Manifest,
        crds: &[Manifest],
        others: &[Manifest],
    ) -> Self {
        RegistryV1::from_parts(
            package,
            csv.doc.clone(),
            owned_crds(csv, crds).into_iter().map(|c| c.doc).collect(),
            others.iter().map(|o| o.doc.clone()).collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::upgrade::CrdVersionChange;
    use super::*;

    fn diff(changes: &[(&str, &str, &'static str)]) -> UpgradeDiff {
        UpgradeDiff {
            crd_versions: changes
                .iter()
                .map(|(crd, version, change)| CrdVersionChange {
                    crd: crd.to_string(),
                    version: version.to_string(),
                    change,
                })
                .collect(),
            ..UpgradeDiff::default()
        }
    }

    #[test]
    fn only_removed_served_versions_count() {
        let d = diff(&[
            ("w.example.com", "v2", "added"),
            ("w.example.com", "v0", "removed-unserved"),
        ]);
        assert_eq!(d.stranded("op.v1.0.0", false), Ok(None));
    }

    #[test]
    fn removed_served_versions_are_refused_unless_allowed() {
        let one = diff(&[("w.example.com", "v1", "removed")]);
        let refusal = one.stranded("op.v1.0.0", false).unwrap_err();
        assert!(
            refusal
                .starts_with("CRD w.example.com version v1: the channel head op.v1.0.0 serves it "),
            "{refusal}"
        );
        assert!(
            refusal.contains("Keep the version in spec.versions"),
            "{refusal}"
        );
        let two = diff(&[
            ("w.example.com", "v1", "removed"),
            ("w.example.com", "v1beta1", "removed"),
        ]);
        let warning = two.stranded("op.v1.0.0", true).unwrap().expect("a warning");
        assert_eq!(
            warning,
            "CRD w.example.com version v1, CRD w.example.com version v1beta1 removed though the channel head serves them (verify.allow_removed_crd_versions)"
        );
    }
}
