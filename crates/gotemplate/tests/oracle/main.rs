//! The template engine against Go's own `text/template`: the differential corpus in
//! `tests/corpus`, rendered by both, compared byte for byte.

mod compare;
mod corpus;

use std::path::PathBuf;

/// This crate's folder.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The path of a peer started by scripts/test.sh (`GO_TEMPLATE_ORACLE`). Under `CI=true` it
/// must be set; elsewhere the test skips and says how to get it.
pub fn peer(var: &str) -> Option<String> {
    match std::env::var(var) {
        Ok(v) if !v.is_empty() => Some(v),
        _ if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("CI=true but {var} is not set: run the tests through scripts/test.sh")
        }
        _ => {
            eprintln!("skipping: {var} is not set (scripts/test.sh starts that peer)");
            None
        }
    }
}
