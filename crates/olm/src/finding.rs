//! Findings: what validation (and rendering) report about a bundle.
//!
//! A finding names the file, the object and the field it is about, the rule it reports, the
//! upstream tools that enforce that rule under the active profile (`courier`, `courier-ui`,
//! `registry`, `api`, `api-operatorhub`, `opm`, or `olm-release` where none of them does) and
//! how to fix it, with a level: errors stop a pipeline before anything is published, warnings
//! are shown and kept in the summary.

use serde::Serialize;
use std::fmt;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Stops a pipeline before anything is published.
    Error,
    /// Shown and kept in the summary; the pipeline goes on.
    Warning,
}

impl Level {
    /// The level as findings print it: `error` or `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
        }
    }
}

/// One problem found in a bundle or catalog: where it is, which rule it breaks, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Error or warning, as the active profile rates the rule.
    pub level: Level,
    /// The rule reported, e.g. `replaces-target` (see [`crate::validate::rules`]).
    pub rule: String,
    /// The tools that enforce the rule under the active profile, comma-separated (e.g.
    /// `courier, registry`), or `olm-release` when none of them does (empty for findings that
    /// are not validation rules).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub mirrors: String,
    /// File the object came from.
    pub file: String,
    /// The object (CSV, CRD or package name).
    pub object: String,
    /// The field, as a dotted path.
    pub field: String,
    /// What is wrong, in one sentence.
    pub message: String,
    /// What to do about it.
    pub fix: String,
    /// Why the project ships it anyway: an error of olm-release's own that the pipeline (or
    /// `verify --accept`) accepts, reported as a warning ([`crate::validate::accept`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accepted: Option<String>,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}] {}:", self.level.as_str(), self.rule, self.file)?;
        // Placeholders such as `(file)` only say the finding is about the file as a whole.
        let placeholder = self.object.starts_with('(') && self.object != "(unnamed)";
        let mut what = Vec::new();
        if !self.object.is_empty() && !placeholder {
            what.push(self.object.as_str());
        }
        if !self.field.is_empty() {
            what.push(self.field.as_str());
        }
        if !what.is_empty() {
            write!(f, " {}:", what.join(" "))?;
        }
        write!(f, " {}", self.message)?;
        if let Some(because) = &self.accepted {
            return write!(f, " (olm-release's own check; accepted: {because})");
        }
        match (self.mirrors.as_str(), self.level) {
            ("", _) => {}
            ("olm-release", _) => write!(f, " (olm-release's own check)")?,
            (by, Level::Error) => write!(f, " (enforced by {by})")?,
            (by, Level::Warning) => write!(f, " (a warning of {by})")?,
        }
        if !self.fix.is_empty() {
            write!(f, " (fix: {})", self.fix)?;
        }
        Ok(())
    }
}

/// Counts the errors among findings.
pub(crate) fn errors(findings: &[Finding]) -> usize {
    findings.iter().filter(|f| f.level == Level::Error).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(object: &str, field: &str) -> Finding {
        Finding {
            level: Level::Warning,
            rule: "file-stray".into(),
            mirrors: "olm-release".into(),
            file: "1.0.0/README.md".into(),
            object: object.into(),
            field: field.into(),
            message: "is not a YAML manifest".into(),
            fix: String::new(),
            accepted: None,
        }
    }

    #[test]
    fn a_line_names_file_object_and_field_and_skips_placeholders() {
        assert_eq!(
            finding("(file)", "").to_string(),
            "warning[file-stray] 1.0.0/README.md: is not a YAML manifest (olm-release's own check)"
        );
        assert_eq!(
            finding("widget.v1", "spec.replaces").to_string(),
            "warning[file-stray] 1.0.0/README.md: widget.v1 spec.replaces: is not a YAML manifest (olm-release's own check)"
        );
        assert!(
            finding("(unnamed)", "kind")
                .to_string()
                .contains("md: (unnamed) kind: ")
        );
    }
}
