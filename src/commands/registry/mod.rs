//! `olm-release registry list|show|pull|channels|delete`: inspect what an app registry serves,
//! with the same client and the same bundle reader the pipeline uses, against Quay, appr or a
//! `dir:` registry alike.
//!
//! Output is the command's product, so it goes to stdout (text, or JSON with `--format json`).
//! `show NS/PKG RELEASE` pulls the blob and checks its digest against what the registry
//! reports before describing the bundle; `pull` does the same and writes the `.tar.gz` as
//! served plus the bundle as a flat folder.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

mod view;

use view::BundleView;

use super::CommandError;
use crate::cli::{PackageFlags, RegistryCommand, RegistryTarget};
use crate::error::{Error, Result};
use crate::out;
use crate::settings::{self, Env};
use olm_release_appregistry::RegistryError;
use olm_release_appregistry::{QUAY_LIST_CAP, Registry, ReleaseInfo};
use olm_release_base::Class;
use olm_release_http::events::Events;
use olm_release_olm::{Bundle, archive};

pub(crate) async fn run(
    cmd: RegistryCommand,
    env: &Env,
    json: bool,
    limits: &archive::Limits,
    events: &Arc<impl Events + 'static>,
) -> Result<()> {
    let events: Arc<dyn Events> = events.clone();
    let open = |at: &RegistryTarget| open(at, env, events.clone());
    match cmd {
        RegistryCommand::List { at, ns, namespace } => {
            let namespace = namespace.or(ns).unwrap_or_default();
            let r = open(&at)?;
            let list = r.list(&namespace).await?;
            if json {
                print_json(&list);
            } else {
                let count = if list.is_empty() {
                    "no packages (the namespace is empty, or holds nothing visible to you)".into()
                } else {
                    olm_release_base::words::count(list.len(), "package")
                };
                out::stdout(&format!("{namespace} at {}: {count}\n", r.describe()));
                for p in &list {
                    out::stdout(&format!(
                        "  {}  default {}  releases {}\n",
                        p.name,
                        p.default.as_deref().unwrap_or("-"),
                        p.releases.join(", ")
                    ));
                }
            }
            if matches!(r, Registry::Appr(_)) && list.len() >= QUAY_LIST_CAP {
                events.warn(&format!(
                    "{} packages listed; Quay lists at most {QUAY_LIST_CAP} (and only those visible to you), so there may be more. \
                     Look one up by name with `registry show {namespace}/PACKAGE`.",
                    list.len()
                ));
            }
            Ok(())
        }
        RegistryCommand::Show {
            at,
            named,
            spec,
            release,
        } => {
            let (ns, pkg, release) = &named_package(named, spec, release)?;
            let (ns, pkg, release) = (ns.as_str(), pkg.as_str(), release.clone());
            let r = open(&at)?;
            match release {
                None => show_releases(&r, ns, pkg, json).await,
                Some(rel) => {
                    let (info, bundle, _) = fetch(&r, ns, pkg, &rel, limits).await?;
                    let view = BundleView::new(ns, pkg, &info, &bundle);
                    if json {
                        print_json(&view);
                    } else {
                        out::stdout(&view.text(&r.describe()));
                    }
                    Ok(())
                }
            }
        }
        RegistryCommand::Pull {
            at,
            named,
            spec,
            release,
            out,
        } => {
            let (ns, pkg, release) = &named_package(named, spec, release)?;
            let (ns, pkg) = (ns.as_str(), pkg.as_str());
            let release = release.as_deref().unwrap_or("default");
            let r = open(&at)?;
            let (info, bundle, gz) = fetch(&r, ns, pkg, release, limits).await?;
            std::fs::create_dir_all(&out).map_err(|e| Error::io(Class::Stage, &out, e))?;
            let tarball = out.join(format!("{ns}_{pkg}_{}.tar.gz", info.release));
            std::fs::write(&tarball, &gz).map_err(|e| Error::io(Class::Stage, &tarball, e))?;
            let folder = out.join("bundle");
            archive::write_folder(&bundle, &folder).map_err(|source| {
                CommandError::PulledFolder {
                    folder: folder.display().to_string(),
                    source,
                }
            })?;
            if json {
                print_json(&serde_json::json!({
                    "release": info, "tarball": tarball, "bundle": folder,
                }));
            } else {
                out::stdout(&format!(
                    "pulled {ns}/{pkg} {} (sha256:{}) into {}: {} and {}/ ({}, {})\n",
                    info.release,
                    info.digest,
                    out.display(),
                    file_name(&tarball),
                    file_name(&folder),
                    olm_release_base::words::count(bundle.csvs.len(), "CSV"),
                    olm_release_base::words::count(bundle.crds.len(), "CRD")
                ));
            }
            Ok(())
        }
        RegistryCommand::Channels { at, named, spec } => {
            let (ns, pkg, extra) = &named_package(named, spec, None)?;
            if let Some(extra) = extra {
                return Err(CommandError::Where(format!(
                    "'{extra}': channels takes no release; name the package as NAMESPACE/PACKAGE or with --namespace and --package"
                ))
                .into());
            }
            let (ns, pkg) = (ns.as_str(), pkg.as_str());
            let r = open(&at)?;
            let Registry::Appr(client) = &r else {
                return Err(CommandError::NoChannels.into());
            };
            let channels = client.channels(ns, pkg).await?;
            if json {
                print_json(&channels);
            } else if channels.is_empty() {
                out::stdout(&format!("{ns}/{pkg} at {}: no channels\n", r.describe()));
            } else {
                for c in &channels {
                    out::stdout(&format!(
                        "{}  current {}  releases {}\n",
                        c.name,
                        c.current.as_deref().unwrap_or("-"),
                        c.releases.join(", ")
                    ));
                }
            }
            Ok(())
        }
        RegistryCommand::Delete {
            at,
            named,
            spec,
            release,
            yes,
        } => {
            let (ns, pkg, release) = &named_package(named, spec, release)?;
            let (ns, pkg) = (ns.as_str(), pkg.as_str());
            let release = release.clone().ok_or_else(|| {
                CommandError::Where(format!(
                    "delete needs the exact release of {ns}/{pkg}, e.g. `registry delete {ns}/{pkg} 0.1.0`"
                ))
            })?;
            let r = open(&at)?;
            let info = r
                .release(ns, pkg, &release)
                .await?
                .ok_or_else(|| no_release(&r, ns, pkg, &release))?;
            if !yes {
                out::stdout(&format!(
                    "would delete {ns}/{pkg} {} (sha256:{}) at {}; pass --yes to delete it\n",
                    info.release,
                    info.digest,
                    r.describe()
                ));
                return Ok(());
            }
            r.delete(ns, pkg, &info.release).await?;
            out::stdout(&format!(
                "deleted {ns}/{pkg} {} (sha256:{})\n",
                info.release, info.digest
            ));
            Ok(())
        }
    }
}

/// Timeouts of a command that takes `--registry` (also used by `publish`).
pub(crate) fn http_options(at: &RegistryTarget) -> olm_release_http::HttpOptions {
    olm_release_http::HttpOptions {
        timeout: Duration::from_secs(at.timeout.max(1)),
        ..Default::default()
    }
}

/// Opens the registry a command names with `--registry`.
pub(crate) fn open(at: &RegistryTarget, env: &Env, events: Arc<dyn Events>) -> Result<Registry> {
    let location =
        settings::registry_location(&at.registry, at.insecure).map_err(CommandError::Registry)?;
    Ok(Registry::open(
        &location,
        settings::registry_credentials(env),
        http_options(at),
        olm_release_http::retry::RetryPolicy::default(),
        events,
    )?)
}

/// The package and release a `registry` subcommand names: `NAMESPACE/PACKAGE [RELEASE]`, or
/// `--namespace NS --package PKG [RELEASE]` (then the first argument is the release).
fn named_package(
    named: PackageFlags,
    spec: Option<String>,
    release: Option<String>,
) -> Result<(String, String, Option<String>)> {
    match (named.namespace, named.package, spec) {
        (Some(ns), Some(pkg), first) => {
            if let (Some(first), Some(_)) = (&first, &release) {
                return Err(CommandError::Where(format!(
                    "'{first}': the package is already named by --namespace and --package; give only the release"
                ))
                .into());
            }
            if let Some(first) = first.as_deref().filter(|f| f.contains('/')) {
                return Err(CommandError::Where(format!(
                    "'{first}': name the package once, as NAMESPACE/PACKAGE or with --namespace and --package"
                ))
                .into());
            }
            Ok((ns, pkg, first.or(release)))
        }
        (_, _, Some(spec)) => {
            let (ns, pkg) = split(&spec)?;
            Ok((ns.to_string(), pkg.to_string(), release))
        }
        _ => Err(CommandError::Where(
            "name the package: NAMESPACE/PACKAGE, or --namespace NS --package PKG".into(),
        )
        .into()),
    }
}

fn split(package: &str) -> Result<(&str, &str)> {
    package
        .split_once('/')
        .filter(|(n, p)| !n.is_empty() && !p.is_empty() && !p.contains('/'))
        .ok_or_else(|| CommandError::Package(package.into()).into())
}

async fn show_releases(r: &Registry, ns: &str, pkg: &str, json: bool) -> Result<()> {
    let releases = r.releases(ns, pkg).await?;
    if json {
        print_json(&releases);
        return Ok(());
    }
    if releases.is_empty() {
        out::stdout(&format!("{ns}/{pkg} at {}: no releases\n", r.describe()));
        return Ok(());
    }
    out::stdout(&format!(
        "{ns}/{pkg} at {}: {}\n",
        r.describe(),
        olm_release_base::words::count(releases.len(), "release")
    ));
    for (i, rel) in releases.iter().enumerate() {
        out::stdout(&format!(
            "  {}  sha256:{}  {} bytes{}\n",
            rel.release,
            rel.digest,
            rel.size,
            if i == 0 { "  (default)" } else { "" }
        ));
    }
    Ok(())
}

/// Looks a release up, pulls it by name and checks its digest.
async fn fetch(
    r: &Registry,
    ns: &str,
    pkg: &str,
    release: &str,
    limits: &archive::Limits,
) -> Result<(ReleaseInfo, Bundle, Vec<u8>)> {
    let info = r
        .release(ns, pkg, release)
        .await?
        .ok_or_else(|| no_release(r, ns, pkg, release))?;
    let gz = r.pull_release(ns, pkg, &info.release).await?;
    let bundle = archive::unpack_release(&gz, &info.digest, limits).map_err(|source| {
        CommandError::Release {
            at: format!("{}: {ns}/{pkg} {}", r.describe(), info.release),
            source,
        }
    })?;
    Ok((info, bundle, gz))
}

fn no_release(r: &Registry, ns: &str, pkg: &str, release: &str) -> RegistryError {
    RegistryError::NoRelease {
        registry: r.describe(),
        namespace: ns.into(),
        package: pkg.into(),
        release: release.into(),
    }
}

fn print_json<T: Serialize>(v: &T) {
    out::stdout(&format!(
        "{}\n",
        serde_json::to_string_pretty(v).expect("output serialises")
    ));
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
