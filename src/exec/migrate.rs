//! The migrate step: every release of a package is read from the app registry; the newest
//! (cumulative) one is split into one registry+v1 bundle per CSV by
//! [`fbc::migrate::plan_owned`], reading one release at a time (each older CSV with the CRDs of the release that
//! introduced it); each bundle image is pushed by the bundle-image step's rule (tag = the CSV's
//! version); then the catalog that keeps the app registry's upgrade graph replaces this
//! package's documents in the catalog folder, validated, written through the gate. A rerun
//! pushes nothing and writes nothing.

use std::collections::BTreeMap;

use super::bundle_image::publish;
use crate::error::Result;
use crate::plan::MigrateStep;
use crate::report::Reporter;
use olm_release_appregistry::Registry;
use olm_release_http::events::Gate;
use olm_release_oci::{PushRequest, Store, tag_for_version};
use olm_release_olm::archive;
use olm_release_olm::bundle_image::{BundleFolder, build_image};
use olm_release_olm::fbc::{self, CatalogError, disk};

/// The migrate step.
pub(crate) async fn run(
    step: &MigrateStep,
    registry: &Registry,
    store: &Store,
    report: &Reporter,
    gate: &dyn Gate,
) -> Result<()> {
    let (ns, pkg) = (&step.namespace, &step.package);
    let fail = |message: String| CatalogError::Migration {
        package: pkg.clone(),
        message,
    };
    let infos = registry.releases(ns, pkg).await?;
    if infos.is_empty() {
        return Err(fail(format!(
            "{} has no releases of {ns}/{pkg}",
            registry.describe()
        ))
        .into());
    }
    // One release in memory at a time: the newest (cumulative) one becomes the plan, holding
    // the history once; each older one only gives the CRDs its CSV was released with.
    let pull = |info: &olm_release_appregistry::ReleaseInfo| {
        let info = info.clone();
        async move {
            let gz = registry.pull(ns, pkg, &info.digest).await?;
            // The registry's blob, read within --max-bundle-bytes; past it, the server's failure.
            archive::unpack_release(&gz, &info.digest, &step.limits).map_err(|source| {
                crate::error::Error::from(crate::error::step::FetchError::Unpack {
                    release: info.release.clone(),
                    at: format!("{} {ns}/{pkg}", registry.describe()),
                    source,
                })
            })
        }
    };
    let cumulative = pull(&infos[0]).await?;
    let mut m = fbc::migrate::plan_owned(cumulative)?;
    for info in &infos[1..] {
        m.adopt_crds(&pull(info).await?);
    }
    report.info(&format!(
        "read {} of {ns}/{pkg}; the newest ({}) carries the package's history",
        olm_release_base::words::count(infos.len(), "release"),
        infos[0].release
    ));
    if !m.left_out.is_empty() {
        report.warn(&format!(
            "no channel reaches {}; not migrated (a catalog lists only bundles in a channel)",
            m.left_out.join(", ")
        ));
    }
    let mut images = BTreeMap::new();
    for b in &m.bundles {
        let folder = BundleFolder::build(&b.input())?;
        let image = build_image(&folder, step.epoch)?;
        let tag = tag_for_version(b.version());
        let req = PushRequest {
            image: &image,
            tag: &tag,
            force: step.force,
        };
        let pinned = publish(store, &req, &step.name, report, gate).await?;
        images.insert(b.name().to_string(), pinned);
    }
    let migrated = fbc::migrate::catalog(&m, &images, step.style)?;
    // The catalog names the package as its package file does (`packageName`), which may differ
    // from the app-registry repository the releases were read from.
    let name = &m.package;
    let mut loaded = disk::read_package(&step.catalog, name)?;
    let mut catalog = std::mem::take(&mut loaded.catalog);
    catalog.replace_package(name, migrated);
    let what = format!(
        "catalog of {name} ({})",
        olm_release_base::words::count(m.bundles.len(), "bundle")
    );
    super::catalog::write(
        &step.catalog,
        &loaded,
        &catalog,
        what,
        step.show_diff,
        report,
        gate,
    )
}
