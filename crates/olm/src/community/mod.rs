//! OperatorHub's community layout, read as data: the folder `operators/<package>/` of
//! [k8s-operatorhub/community-operators](https://github.com/k8s-operatorhub/community-operators)
//! and [redhat-openshift-ecosystem/community-operators-prod](https://github.com/redhat-openshift-ecosystem/community-operators-prod),
//! given as its files (path relative to the package folder, bytes), turned into the package, its
//! version bundles in SemVer order and its catalog templates. No I/O: the application reads the
//! folder and hands the files over.
//!
//! The layout (the repositories' `docs/packaging-required-fields.md` and
//! `docs/operator-ci-yaml.md`; operator-registry's `docs/design/operator-bundle.md` for a
//! version folder): `ci.yaml` (the update graph mode, the `fbc:` catalog mapping); one folder per
//! version holding a registry+v1 bundle, `manifests/` (exactly one CSV, its CRDs and other
//! objects) and `metadata/` (`annotations.yaml` naming the package, the channels and the default
//! channel; optionally `dependencies.yaml` and `properties.yaml`), with `tests/scorecard/` beside
//! them; and optionally `catalog-templates/`, the maintainers' `olm.template.basic` or
//! `olm.semver` catalog templates (olm-docs, "catalog-templates",
//! <https://olm.operatorframework.io/docs/reference/catalog-templates/>), one per OpenShift
//! catalog.
//!
//! Limits: each version folder is one bundle and is read within the bundle limits
//! ([`Limits`]: `--max-bundle-bytes` for its files together, the entry count, the YAML parse
//! budget), as a bundle image of it would be; the package as a whole is bounded by the number
//! of version folders (the entry limit), not by the sum of their sizes, since no bundle ever
//! holds more than one version. Every problem of every file is collected and returned at once
//! ([`LayoutErrors`]), each naming the file and the field.
//!
//! The other way, [`proposal`] lays out a version proposed to such a catalog.

mod disk;
mod follow;
mod history;
mod model;
pub mod proposal;
mod read;
mod top;
mod version;

#[cfg(test)]
mod tests;

pub use disk::{is_package_folder, read_folder};
pub use follow::{Followed, follow_template};
pub use history::read_history;
pub use model::{CommunityPackage, LayoutErrors, LayoutProblem, PackageFiles, VersionBundle};
pub use read::read;
pub use top::{CatalogMapping, CiConfig, TemplateFile};
