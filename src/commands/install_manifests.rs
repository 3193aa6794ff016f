//! `olm-release install-manifests BUNDLE --install-namespace NS`: the objects OLM v1
//! (operator-controller) applies for a registry+v1 bundle, as one YAML stream on stdout (or a
//! JSON list with `--format json`), rendered by [`olm_release_olm::cluster`]. BUNDLE is a
//! bundle folder or a bundle image (`oci:PATH[:TAG|@sha256:…]` or
//! `HOST/REPOSITORY[:TAG|@sha256:…]`, read by [`olm_release_oci::bundle_read`] with
//! `OCI_USERNAME`/`OCI_PASSWORD` when set). A bundle OLM v1 would refuse is refused with its
//! reasons (exit 1); a BUNDLE that is no bundle or an unreadable `--deployment-config` is an
//! input error (exit 2).

use super::CommandError;
use crate::cli::{CertificateProviderArg, InstallManifestsArgs};
use crate::error::Result;
use crate::settings::Env;
use olm_release_oci::{NoEvents, Store, bundle_read};
use olm_release_olm::archive::Limits;
use olm_release_olm::bundle_image::BundleFolder;
use olm_release_olm::cluster::{
    self, CertProvider, DeploymentConfig, InstallError, Options, RegistryV1,
};
use std::collections::BTreeMap;
use std::path::Path;

/// Renders the bundle and prints the objects.
pub(crate) async fn run(
    args: &InstallManifestsArgs,
    json: bool,
    limits: &Limits,
    env: &Env,
) -> Result<()> {
    let shown = &args.bundle;
    let files = bundle_files(&args.bundle, limits, env).await?;
    let deployment_config = match &args.deployment_config {
        Some(file) => {
            let text = std::fs::read_to_string(file).map_err(|e| {
                CommandError::Unreadable(format!("--deployment-config {}: {e}", file.display()))
            })?;
            Some(DeploymentConfig::parse(&text).map_err(|e| {
                CommandError::Unreadable(format!("--deployment-config {}: {e}", file.display()))
            })?)
        }
        None => None,
    };
    let opts = Options {
        install_namespace: args.install_namespace.clone(),
        watch_namespace: args.watch_namespace.clone(),
        deployment_config,
        cert_provider: Some(match args.certificate_provider {
            CertificateProviderArg::CertManager => CertProvider::CertManager,
            CertificateProviderArg::OpenshiftServiceCa => CertProvider::OpenshiftServiceCa,
        }),
    };
    let refused = |e: InstallError| -> crate::error::Error {
        match e {
            InstallError::Refused(_) => CommandError::Invalid(format!("{shown}: {e}")).into(),
            e => CommandError::Unreadable(format!("{shown}: {e}")).into(),
        }
    };
    let bundle = RegistryV1::from_files(&files).map_err(refused)?;
    let gates = cluster::install_refusals(&bundle, &opts);
    if !gates.is_empty() {
        return Err(refused(InstallError::Refused(gates)));
    }
    let objects = cluster::render(&bundle, &opts).map_err(refused)?;
    if json {
        crate::out::stdout(&format!(
            "{}\n",
            serde_json::to_string_pretty(&objects).expect("objects serialise")
        ));
    } else {
        crate::out::stdout(&cluster::to_yaml_stream(&objects));
    }
    Ok(())
}

/// The bundle's files: a folder's, or an image's (a path that exists is a folder; `oci:…` or
/// `HOST/REPOSITORY…` otherwise is an image).
async fn bundle_files(
    bundle: &str,
    limits: &Limits,
    env: &Env,
) -> Result<BTreeMap<String, Vec<u8>>> {
    let unreadable = |e: String| CommandError::Unreadable(format!("{bundle}: {e}"));
    if Path::new(bundle).exists() || !(bundle.starts_with("oci:") || bundle.contains('/')) {
        let folder =
            BundleFolder::read(Path::new(bundle)).map_err(|e| unreadable(e.to_string()))?;
        return Ok(folder.files().clone());
    }
    let (location, reference) =
        bundle_read::split_reference(bundle).map_err(|e| unreadable(e.to_string()))?;
    let mut problems = Vec::new();
    let credentials = crate::settings::image_credentials(env, &mut problems);
    if !problems.is_empty() {
        return Err(crate::error::Problems(problems).into());
    }
    let opts = olm_release_oci::StoreOptions::default().with_credentials(credentials);
    let store = Store::open(&location, opts, &NoEvents).map_err(|e| unreadable(e.to_string()))?;
    let read = bundle_read::read_bundle(&store, &reference, limits, &NoEvents)
        .await
        .map_err(|e| unreadable(e.to_string()))?
        .ok_or_else(|| unreadable(format!("no tag {reference} in {}", location.describe())))?;
    Ok(read.files)
}
