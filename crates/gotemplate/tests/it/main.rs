//! The template crate's integration tests, through its public API only: property tests of the
//! renderer. The differential corpus against Go itself is the `oracle` binary (tests/oracle).

mod fuzz;
