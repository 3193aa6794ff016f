//! The one integration-test binary. Modules by area; `support` holds the shared helpers.

mod support;

mod appr;
mod cli;
mod fault_proxy;
mod faults;
mod fuzz;
mod github;
mod github_fake;
mod graph;
mod hostile;
mod kubevirt_chain;
mod output;
mod pipeline;
mod plan;
mod publish;
mod quay_fake;
mod registry_dir;
mod render;
mod schema_check;
mod secrets;
mod snapshots;
mod travis;
mod verify;
mod yaml_compat;
