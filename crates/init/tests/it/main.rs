//! The tests of `init` through its API ([`olm_release_init::init`]): what it finds in a
//! repository, what it writes and says, the CI configurations it writes, its errors, and a
//! rerun over its own output. That the pipeline it writes runs is the application's to test
//! (tests/it/init, the `olm-release` binary end to end). `support` holds the helpers.

mod support;

mod ci;
mod layouts;
mod operator_sdk_oracle;
mod projects;
mod rerun;
