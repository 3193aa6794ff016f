//! `olm-release install-manifests BUNDLE --install-namespace NS`: the objects OLM v1
//! (operator-controller) applies for a registry+v1 bundle folder, as one YAML stream on stdout
//! (or a JSON list with `--format json`), rendered by [`olm_release_olm::cluster`]. A bundle
//! OLM v1 would refuse is refused with its reasons (exit 1); a path that is no bundle folder or
//! an unreadable `--deployment-config` is an input error (exit 2).

use super::CommandError;
use crate::cli::{CertificateProviderArg, InstallManifestsArgs};
use crate::error::Result;
use olm_release_olm::bundle_image::BundleFolder;
use olm_release_olm::cluster::{
    self, CertProvider, DeploymentConfig, InstallError, Options, RegistryV1,
};

/// Renders the bundle and prints the objects.
pub(crate) fn run(args: &InstallManifestsArgs, json: bool) -> Result<()> {
    let shown = args.bundle.display();
    let folder = BundleFolder::read(&args.bundle)
        .map_err(|e| CommandError::Unreadable(format!("{shown}: {e}")))?;
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
    let bundle = RegistryV1::from_files(folder.files()).map_err(refused)?;
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
