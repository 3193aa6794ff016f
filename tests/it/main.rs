//! The one integration-test binary. Modules by area; `support` holds the shared helpers.

mod support;

mod appr;
mod cli;
mod github;
mod github_fake;
mod pipeline;
mod registry_dir;
mod render;
mod verify;
