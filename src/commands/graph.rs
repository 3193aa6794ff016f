//! `olm-release graph`: a package's upgrade graph per channel, from a bundle (folder,
//! `bundle.yaml`, `.tar.gz`), a file-based catalog folder (through its release model, as a
//! skeleton bundle) or from the `default` release of a registry, drawn by
//! [`olm_release_olm::drawing`] (text, Graphviz `dot`, Mermaid) or printed as JSON.

use std::sync::Arc;

use super::CommandError;
use crate::cli::{Format, GraphArgs};
use crate::error::Result;
use crate::settings::{self, Env};
use olm_release_appregistry::Registry;
use olm_release_http::events::Events;
use olm_release_olm::drawing::{Style, draw};
use olm_release_olm::graph::walk;
use olm_release_olm::{archive, fbc};

/// The package's graph when `path` is a file-based catalog folder (`None`: it is not one).
/// The catalog is read through the one loader (its refusals are input errors, exit 2) and the
/// package is validated with `opm validate`'s rules first (errors exit 1), as the catalog
/// stage does.
fn catalog(
    path: &std::path::Path,
    package: Option<&str>,
) -> Result<Option<olm_release_olm::Bundle>> {
    if !path.is_dir() || !fbc::load::is_catalog(path) {
        return Ok(None);
    }
    let loaded = fbc::disk::read_summary(path)?;
    let names = loaded.catalog.package_names();
    let name = match (package, names.as_slice()) {
        (_, []) => return Ok(None),
        (Some(p), _) => p,
        (None, [only]) => only,
        (None, many) => {
            return Err(CommandError::Unreadable(format!(
                "{} holds the packages {}; choose one with --package",
                path.display(),
                many.join(", ")
            ))
            .into());
        }
    };
    let findings = fbc::validate::package_findings(fbc::validate(&loaded.catalog), name);
    let errors: Vec<_> = findings
        .iter()
        .filter(|f| f.level == olm_release_olm::Level::Error)
        .collect();
    if let Some(first) = errors.first() {
        return Err(CommandError::Invalid(format!(
            "{}: package {name} has {} under opm validate's rules; first: {first}",
            path.display(),
            olm_release_base::words::count(errors.len(), "error")
        ))
        .into());
    }
    let model = fbc::ReleaseModel::from_catalog(&loaded.catalog, name).ok_or_else(|| {
        CommandError::Unreadable(format!(
            "{} has no package {name}; it holds {}",
            path.display(),
            names.join(", ")
        ))
    })?;
    Ok(Some(model.to_bundle()?))
}

/// `graph`: draws the upgrade graph of a bundle file or of a registry's default release.
pub(crate) async fn run(
    args: &GraphArgs,
    format: Format,
    env: &Env,
    limits: &archive::Limits,
    events: &Arc<impl Events + 'static>,
) -> Result<()> {
    let bundle = match (&args.bundle, &args.registry) {
        (Some(path), _) => match catalog(path, args.package.as_deref())? {
            Some(bundle) => bundle,
            None => archive::read_path(path, limits)?,
        },
        (None, Some(url)) => {
            let (ns, pkg) = (
                args.namespace.as_deref().unwrap_or_default(),
                args.package.as_deref().unwrap_or_default(),
            );
            let location =
                settings::registry_location(url, args.insecure).map_err(CommandError::Registry)?;
            let registry = Registry::open(
                &location,
                settings::registry_credentials(env),
                Default::default(),
                Default::default(),
                events.clone(),
            )?;
            let releases = registry.releases(ns, pkg).await?;
            let default = releases.first().ok_or_else(|| CommandError::NoReleases {
                registry: registry.describe(),
                namespace: ns.into(),
                package: pkg.into(),
            })?;
            let gz = registry.pull(ns, pkg, &default.digest).await?;
            archive::unpack_release(&gz, &default.digest, limits).map_err(|source| {
                CommandError::Release {
                    at: format!("release {} of {ns}/{pkg}", default.release),
                    source,
                }
            })?
        }
        (None, None) => {
            return Err(
                CommandError::Unreadable("graph needs a bundle path or --registry".into()).into(),
            );
        }
    };
    let out = match format {
        Format::Human => draw(&bundle, Style::Text),
        Format::Dot => draw(&bundle, Style::Dot),
        Format::Mermaid => draw(&bundle, Style::Mermaid),
        Format::Json => {
            let channels: Vec<_> = bundle
                .package
                .channels
                .iter()
                .map(|c| {
                    serde_json::json!({
                        "name": c.name,
                        "head": c.current_csv,
                        "chain": walk(&bundle, &c.current_csv).0,
                    })
                })
                .collect();
            let doc = serde_json::json!({
                "package": bundle.package.package_name,
                "channels": channels,
            });
            serde_json::to_string_pretty(&doc).expect("graph serialises") + "\n"
        }
    };
    crate::out::stdout(&out);
    Ok(())
}
