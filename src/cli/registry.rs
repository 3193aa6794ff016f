//! The `registry` subcommands' arguments and the `--registry` target that `publish` and
//! `migrate` share. A package is named as NAMESPACE/PACKAGE or, as `graph` takes it, with
//! `--namespace` and `--package`.

use std::path::PathBuf;

use clap::{Args, Subcommand};

/// `registry` subcommands, for maintainers. The package is NAMESPACE/PACKAGE or, as for
/// `graph`, `--namespace NS --package PKG`.
#[derive(Debug, Subcommand)]
pub(crate) enum RegistryCommand {
    /// The packages of a namespace with their releases (Quay lists at most 50 visible ones).
    List {
        #[command(flatten)]
        at: RegistryTarget,
        /// The namespace (Quay organisation), e.g. kubevirt; or --namespace.
        #[arg(value_name = "NAMESPACE", required_unless_present = "namespace")]
        ns: Option<String>,
        /// The namespace, as for `graph` (instead of the NAMESPACE argument).
        #[arg(long, conflicts_with = "ns")]
        namespace: Option<String>,
    },
    /// A package's releases and digests; with RELEASE, that release's bundle (channels, CSVs,
    /// replaces chain, CRDs).
    Show {
        #[command(flatten)]
        at: RegistryTarget,
        #[command(flatten)]
        named: PackageFlags,
        /// NAMESPACE/PACKAGE, e.g. kubevirt/kubevirt-operatorhub (or --namespace and
        /// --package; then the first argument is RELEASE).
        #[arg(value_name = "NAMESPACE/PACKAGE")]
        spec: Option<String>,
        /// A release, or `default` for the highest.
        release: Option<String>,
    },
    /// Download a release into a folder: the .tar.gz as served and the bundle as flat files.
    Pull {
        #[command(flatten)]
        at: RegistryTarget,
        #[command(flatten)]
        named: PackageFlags,
        /// NAMESPACE/PACKAGE (or --namespace and --package; then the first argument is RELEASE).
        #[arg(value_name = "NAMESPACE/PACKAGE")]
        spec: Option<String>,
        /// A release, or `default` for the highest [default: default].
        release: Option<String>,
        /// The folder to write into (created if missing).
        #[arg(long, short, value_name = "DIR")]
        out: PathBuf,
    },
    /// The app-registry channels of a package (not OLM channels; those live in the bundle).
    Channels {
        #[command(flatten)]
        at: RegistryTarget,
        #[command(flatten)]
        named: PackageFlags,
        /// NAMESPACE/PACKAGE (or --namespace and --package).
        #[arg(value_name = "NAMESPACE/PACKAGE")]
        spec: Option<String>,
    },
    /// Delete one release of a package (HTTP registries only).
    Delete {
        #[command(flatten)]
        at: RegistryTarget,
        #[command(flatten)]
        named: PackageFlags,
        /// NAMESPACE/PACKAGE (or --namespace and --package; then the first argument is RELEASE).
        #[arg(value_name = "NAMESPACE/PACKAGE")]
        spec: Option<String>,
        /// The exact release to delete (required).
        release: Option<String>,
        /// Confirm the deletion; without it, only say what would be deleted.
        #[arg(long)]
        yes: bool,
    },
}

/// `--namespace` and `--package`, as `graph` takes them: the other way to name a package than
/// NAMESPACE/PACKAGE.
#[derive(Debug, Args)]
pub(crate) struct PackageFlags {
    /// The registry namespace (Quay organisation), with --package.
    #[arg(long, requires = "package")]
    pub(crate) namespace: Option<String>,
    /// The package (app repository), with --namespace.
    #[arg(long, requires = "namespace")]
    pub(crate) package: Option<String>,
}

/// Which registry a `registry` subcommand talks to.
#[derive(Debug, Args)]
pub(crate) struct RegistryTarget {
    /// The registry: the CNR API base URL (e.g. https://quay.io/cnr) or dir:PATH.
    /// Credentials come from QUAY_TOKEN or QUAY_USERNAME/QUAY_PASSWORD.
    #[arg(long, value_name = "URL")]
    pub(crate) registry: String,
    /// Allow a plain http:// registry URL on a host other than loopback.
    #[arg(long)]
    pub(crate) insecure: bool,
    /// Timeout of one request, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub(crate) timeout: u64,
}
