//! The one integration-test binary. Modules by area; `support` holds the shared helpers.

mod support;

mod appr;
mod cli;
mod github;
mod pipeline;
mod quay_fake;
mod registry_dir;
mod render;
mod verify;
