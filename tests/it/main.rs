//! The one integration-test binary. Modules by area; `support` holds the shared helpers.

mod support;

mod appr;
mod budgets;
mod cli;
mod completions;
mod dist;
mod fault_proxy;
mod faults;
mod fbc;
mod fuzz;
mod github;
mod github_fake;
mod graph;
mod hostile;
mod init;
mod install;
mod kubevirt_chain;
mod next_version;
mod oci;
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
mod template;
mod travis;
mod verify;
mod yaml_compat;
