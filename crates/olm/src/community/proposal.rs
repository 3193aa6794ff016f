//! A version of a package proposed to a community catalog, as data: the version folder
//! `operators/<package>/<version>/` with the bundle's `manifests/` and `metadata/` (as
//! k8s-operatorhub/community-operators and redhat-openshift-ecosystem/community-operators-prod
//! lay bundles out), what to do against the folder the catalog already has ([`Proposal::against`]:
//! nothing when it holds the same files; other files refused, each named, unless forced), the
//! `ci.yaml` of a package new to the catalog, and the commit message (signed off: the DCO the
//! community repositories check) and pull request body. Reading the catalog and proposing the
//! pull request are the application's.

use std::collections::BTreeMap;

use crate::bundle_image::BundleFolder;

/// Our version folder for a community catalog.
#[derive(Debug, Clone)]
pub struct Proposal {
    /// `operators/<package>/<version>`.
    pub root: String,
    /// Our files, by their path inside the version folder.
    pub files: BTreeMap<String, Vec<u8>>,
}

/// What to write against the folder the catalog has.
#[derive(Debug, PartialEq)]
pub enum Against {
    /// The catalog already has these files there: nothing to propose.
    Same,
    /// The catalog has other files there (the paths, each with how it differs); refused
    /// unless forced.
    Changed(Vec<String>),
    /// The files to write (`None`: remove), by their path in the repository.
    Write(Vec<(String, Option<Vec<u8>>)>),
}

impl Proposal {
    /// The version folder of `package` at `version`, from the registry+v1 bundle `folder`.
    pub fn new(package: &str, version: &str, folder: &BundleFolder) -> Self {
        Proposal {
            root: format!("operators/{package}/{version}"),
            files: folder
                .files()
                .iter()
                .filter(|(path, _)| path.starts_with("manifests/") || path.starts_with("metadata/"))
                .map(|(path, bytes)| (path.clone(), bytes.clone()))
                .collect(),
        }
    }

    /// Whether the folder the catalog has (`published`, empty when the version is new to it)
    /// refuses ours: `None` when it is new or the same.
    pub fn refused_by(&self, published: &BTreeMap<String, Vec<u8>>) -> Option<Vec<String>> {
        (!published.is_empty() && *published != self.files).then(|| differ(published, &self.files))
    }

    /// What to write against `published`; with `force`, a folder with other files is replaced
    /// (the files only it has removed).
    pub fn against(&self, published: &BTreeMap<String, Vec<u8>>, force: bool) -> Against {
        let mut files: Vec<(String, Option<Vec<u8>>)> = Vec::new();
        if !published.is_empty() {
            if *published == self.files {
                return Against::Same;
            }
            if !force {
                return Against::Changed(differ(published, &self.files));
            }
            for path in published.keys().filter(|p| !self.files.contains_key(*p)) {
                files.push((format!("{}/{path}", self.root), None));
            }
        }
        for (path, bytes) in &self.files {
            files.push((format!("{}/{path}", self.root), Some(bytes.clone())));
        }
        Against::Write(files)
    }
}

/// The `ci.yaml` of a package new to the catalog: `owner` reviews, replaces-mode update graph
/// (the repositories' `docs/operator-ci-yaml.md`).
pub fn new_ci_yaml(owner: &str) -> String {
    format!(
        "# The package's settings for the community catalog's pipelines (written by olm-release for a\n# package new to the catalog: review it in the pull request).\nreviewers:\n  - {owner}\nupdateGraph: replaces-mode\n"
    )
}

/// The commit message proposing `root`, signed off by `author`.
pub fn commit_message(package: &str, version: &str, root: &str, author: &str) -> String {
    format!(
        "operator {package} ({version})\n\nAdds {root}/ built by olm-release from the verified bundle.\n\nSigned-off-by: {author}\n"
    )
}

/// The pull request's body.
pub fn pull_request_body(package: &str, version: &str, root: &str, channels: &[String]) -> String {
    format!(
        "Adds `{root}/`: the {} bundle of {package} {version} (channels {}), validated by olm-release before it was proposed.\n",
        "registry+v1",
        channels.join(", ")
    )
}

/// The files that differ between the published folder and ours, for the refusal.
fn differ(published: &BTreeMap<String, Vec<u8>>, ours: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    let mut out = Vec::new();
    for (path, bytes) in ours {
        match published.get(path) {
            None => out.push(format!("{path} (new)")),
            Some(p) if p != bytes => out.push(format!("{path} (changed)")),
            Some(_) => {}
        }
    }
    for path in published.keys().filter(|p| !ours.contains_key(*p)) {
        out.push(format!("{path} (only in the catalog)"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(all: &[(&str, &str)]) -> BTreeMap<String, Vec<u8>> {
        all.iter()
            .map(|(p, b)| (p.to_string(), b.as_bytes().to_vec()))
            .collect()
    }

    fn ours() -> Proposal {
        Proposal {
            root: "operators/op/1.0.0".into(),
            files: files(&[
                ("manifests/csv.yaml", "csv"),
                ("metadata/annotations.yaml", "a"),
            ]),
        }
    }

    #[test]
    fn a_new_version_writes_every_file_under_its_folder() {
        let p = ours();
        assert_eq!(p.refused_by(&BTreeMap::new()), None);
        assert_eq!(
            p.against(&BTreeMap::new(), false),
            Against::Write(vec![
                (
                    "operators/op/1.0.0/manifests/csv.yaml".into(),
                    Some(b"csv".to_vec())
                ),
                (
                    "operators/op/1.0.0/metadata/annotations.yaml".into(),
                    Some(b"a".to_vec())
                ),
            ])
        );
        assert_eq!(p.against(&p.files.clone(), false), Against::Same);
    }

    #[test]
    fn other_files_are_named_and_refused_unless_forced() {
        let p = ours();
        let published = files(&[("manifests/csv.yaml", "old"), ("manifests/extra.yaml", "x")]);
        let differ = vec![
            "manifests/csv.yaml (changed)".to_string(),
            "metadata/annotations.yaml (new)".to_string(),
            "manifests/extra.yaml (only in the catalog)".to_string(),
        ];
        assert_eq!(p.refused_by(&published), Some(differ.clone()));
        assert_eq!(p.against(&published, false), Against::Changed(differ));
        match p.against(&published, true) {
            Against::Write(w) => {
                assert_eq!(
                    w[0],
                    ("operators/op/1.0.0/manifests/extra.yaml".into(), None)
                );
                assert_eq!(w.len(), 3);
            }
            other => panic!("forced: {other:?}"),
        }
    }

    #[test]
    fn the_commit_is_signed_off_and_the_ci_file_names_the_reviewer() {
        assert!(
            commit_message("op", "1.0.0", "operators/op/1.0.0", "A <a@example.com>")
                .ends_with("\n\nSigned-off-by: A <a@example.com>\n")
        );
        assert!(new_ci_yaml("someone").contains("reviewers:\n  - someone\n"));
        assert!(
            pull_request_body("op", "1.0.0", "r", &["stable".into(), "fast".into()])
                .contains("(channels stable, fast)")
        );
    }
}
