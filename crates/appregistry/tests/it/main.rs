//! The app-registry crate's integration tests, through its public API only: the embedded
//! `dir:` registry's semantics. The appr/Quay client is exercised through the application
//! (tests/it/appr.rs and the Quay fake's tests), whose runs publish what it reads back.

mod registry_dir;
