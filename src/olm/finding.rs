//! Findings: what validation (and rendering) report about a bundle.
//!
//! A finding names the file, the object and the field it is about, the rule it mirrors and how
//! to fix it, with a level: errors stop a pipeline before anything is published, warnings are
//! shown and kept in the summary.

use serde::Serialize;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Error,
    Warning,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub level: Level,
    /// The rule this mirrors, e.g. `replaces-target` or `courier-2019:icon`.
    pub rule: String,
    /// File the object came from.
    pub file: String,
    /// The object (CSV, CRD or package name).
    pub object: String,
    /// The field, as a dotted path.
    pub field: String,
    pub message: String,
    /// What to do about it.
    pub fix: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.level {
            Level::Error => "error",
            Level::Warning => "warning",
        };
        write!(
            f,
            "{level}[{}] {}: {} {}: {}",
            self.rule, self.file, self.object, self.field, self.message
        )?;
        if !self.fix.is_empty() {
            write!(f, " (fix: {})", self.fix)?;
        }
        Ok(())
    }
}
