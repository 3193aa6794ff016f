//! Secrets as a type.
//!
//! Tokens and passwords are read from the environment once (in `settings`) into [`Secret`],
//! whose `Debug` and `Display` print `****`. The value leaves the type only through
//! [`Secret::expose`], which the HTTP clients call when they build an `Authorization` header
//! (and mark that header sensitive). Nothing else may format a secret.

use std::fmt;

/// A value that must never be printed.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    /// The raw value, for building a request header. Never log what this returns.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(****)")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("****")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_formats_the_value() {
        let s = Secret::new("hunter2");
        assert_eq!(format!("{s} {s:?}"), "**** Secret(****)");
        assert_eq!(s.expose(), "hunter2");
    }
}
