//! What settings are resolved from besides the command line: the environment, captured once,
//! and the pipeline file's text (to find the line of a key for a problem).

use std::collections::BTreeMap;

use crate::pipeline::locate;

/// The process environment, captured once.
pub type Env = BTreeMap<String, String>;

/// The pipeline file as shown in messages, and its text (to find the line of a key).
#[derive(Debug, Clone)]
pub(crate) struct PipelineFile {
    pub(crate) shown: String,
    pub(super) text: String,
}

impl PipelineFile {
    /// `FILE:LINE` of the key at `path` (or of its nearest written ancestor), else `FILE`.
    pub(crate) fn at(&self, path: &[&str]) -> String {
        match locate::line_of(&self.text, path) {
            Some(line) => format!("{}:{line}", self.shown),
            None => self.shown.clone(),
        }
    }
}
