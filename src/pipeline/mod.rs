//! Pipeline files: reading, strict parsing and `${VAR}` expansion.
//!
//! A file is parsed twice. First as written, straight into the typed model, so that unknown
//! keys and wrong types are reported with the file, line and column. Then every string value is
//! expanded ([`interpolate`]) and the expanded tree is read into the model again. An expansion
//! error names the file and the line where the reference stands.

pub mod interpolate;
pub mod model;
pub mod render_spec;

use std::path::Path;

use serde_yaml_ng::Value;

pub use interpolate::Vars;
pub use model::{OlderPolicy, Pipeline, RegistrySpec, ReleaseSpec, StageName};

use olm_release_base::{Class, Classified};

/// Why a pipeline file cannot be used at all. All input errors (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    #[error("{}: cannot read the pipeline file: {source}", path.display())]
    Read {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The YAML or its structure (unknown keys, missing keys, types); `at` is `FILE:LINE:COL`.
    #[error("{at}: {message}")]
    Yaml { at: String, message: String },
    /// A `${…}` reference; `at` is `FILE:LINE`.
    #[error("{at}: {source}")]
    Expand {
        at: String,
        #[source]
        source: interpolate::ExpandError,
    },
    #[error("{origin}: after expanding variables: {message}")]
    Expanded { origin: String, message: String },
    /// Nesting or size past the budget, found by a linear scan before the YAML parser runs.
    #[error(transparent)]
    Budget(#[from] olm_release_olm::archive::ReadError),
}

impl Classified for PipelineError {
    /// The pipeline file must change: an input error.
    fn class(&self) -> Class {
        Class::Input
    }
}

/// Reads a pipeline file's text.
pub fn read(path: &Path) -> Result<String, PipelineError> {
    let max = olm_release_base::input::MAX_FILE_BYTES;
    olm_release_base::input::read_to_string(path, max).map_err(|source| PipelineError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// Parses pipeline text; `origin` names it in errors.
pub fn parse(origin: &str, text: &str, vars: &Vars) -> Result<Pipeline, PipelineError> {
    // Nesting and size measured in linear time before the YAML parser runs (issue 17).
    olm_release_olm::archive::Budget::new(&Default::default())
        .check(origin, text)
        .map_err(PipelineError::Budget)?;
    // Structure first, on the text as written: unknown keys, missing keys and types, with lines.
    serde_yaml_ng::from_str::<Pipeline>(text).map_err(|e| yaml_error(origin, e))?;
    let mut tree: Value = serde_yaml_ng::from_str(text).map_err(|e| yaml_error(origin, e))?;
    expand_tree(&mut tree, vars).map_err(|source| {
        let line = line_of(text, source.expr())
            .map(|l| format!(":{l}"))
            .unwrap_or_default();
        PipelineError::Expand {
            at: format!("{origin}{line}"),
            source,
        }
    })?;
    serde_yaml_ng::from_value(tree).map_err(|e| PipelineError::Expanded {
        origin: origin.to_string(),
        message: e.to_string(),
    })
}

fn yaml_error(origin: &str, e: serde_yaml_ng::Error) -> PipelineError {
    match e.location() {
        Some(loc) => {
            let msg = e.to_string();
            // serde_yaml appends " at line L column C"; the location goes in front instead.
            let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
            PipelineError::Yaml {
                at: format!("{origin}:{}:{}", loc.line(), loc.column()),
                message: msg,
            }
        }
        None => PipelineError::Yaml {
            at: origin.to_string(),
            message: e.to_string(),
        },
    }
}

/// 1-based line of the first occurrence of `needle`.
fn line_of(text: &str, needle: &str) -> Option<usize> {
    text.lines().position(|l| l.contains(needle)).map(|i| i + 1)
}

fn expand_tree(v: &mut Value, vars: &Vars) -> Result<(), interpolate::ExpandError> {
    match v {
        Value::String(s) => *s = interpolate::expand(s, vars)?,
        Value::Sequence(items) => items.iter_mut().try_for_each(|i| expand_tree(i, vars))?,
        Value::Mapping(map) => map.values_mut().try_for_each(|i| expand_tree(i, vars))?,
        Value::Tagged(t) => expand_tree(&mut t.value, vars)?,
        _ => {}
    }
    Ok(())
}
