//! The plan is the program: [`Settings`](crate::settings::Settings) resolved once into an
//! ordered list of typed [`Step`]s, each carrying every input it needs, already checked.
//!
//! Only the builders here make a [`Plan`] ([`build`] for a pipeline, [`publish`] for a bundle
//! folder, [`migrate`] for `migrate`), and they enforce the stage order (render →
//! fetch-previous → package → verify → push, verify → bundle-image → catalog, release after
//! render), so the executor ([`crate::exec`]) can hand each step exactly the
//! typed output of the step before it. Every problem that can be known before anything runs —
//! a bad version or URL, a typo in `release.options`, a missing section or credential, an
//! asset that will not exist — is collected while building and reported all at once
//! ([`crate::error::Problems`], exit 2). What only a server can answer (do the credentials
//! work, does the repository exist) is the [`PreflightStep`], placed first so that it runs
//! before any write.
//!
//! `olm-release plan` prints a plan ([`show`]: text, or JSON through `Serialize`); `run`
//! prints it and executes the same value, so what is printed is what runs.

mod build;
mod catalog;
mod checks;
mod document;
mod images;
mod import;
mod json;
mod migrate;
mod notes;
mod operatorhub;
mod publish;
mod release_step;
mod show;
mod steps;
mod time;

pub(crate) use build::{build, render_only};
pub(crate) use catalog::CatalogStep;
pub(crate) use checks::{SUMS, github_keeps};
pub(crate) use document::Plan;
pub(crate) use images::{BundleImageStep, ImageJob};
pub(crate) use import::{ImportInputs, ImportStep, import};
pub(crate) use migrate::{MigrateInputs, migrate};
pub(crate) use notes::Notes;
pub(crate) use operatorhub::OperatorhubStep;
pub(crate) use publish::{PublishInputs, publish};
pub(crate) use release_step::*;
pub(crate) use steps::*;
pub(crate) use time::TimeSource;
