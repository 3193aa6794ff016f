//! olm-release: the release pipeline of a Kubernetes operator published through the Operator
//! Lifecycle Manager's app registries.
//!
//! The layers, in the order a command passes through them: [`cli`] (arguments) → [`settings`]
//! (arguments + environment + pipeline file, resolved once) → [`plan`] (printable steps) →
//! [`stages`] (render, fetch-previous, package, verify, push, release) → clients ([`registry`],
//! [`target`], [`oci`], built on [`http`]). The domain lives in [`olm`] (manifests, bundles,
//! bundle images, validation) and [`template`] (Go `text/template` rendering).

pub mod app;
pub mod ci;
pub mod cli;
pub mod commands;
pub mod diff;
pub mod error;
pub mod http;
pub mod oci;
pub mod olm;
pub mod pipeline;
pub mod plan;
pub mod registry;
pub mod report;
pub mod retry;
pub mod secret;
pub mod settings;
pub mod stages;
pub mod target;
pub mod template;

/// `--version` output: the crate version and the commit it was built from.
pub const VERSION_LINE: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("OLM_RELEASE_COMMIT"),
    ")"
);
