//! Pipeline files: reading, strict parsing, variants and `${VAR}` expansion.
//!
//! A file is parsed twice. First as written, straight into the typed model, so that unknown
//! keys and wrong types are reported with the file, line and column. Then the chosen variant is
//! merged over it ([`variants`]; every variant is checked), every string value is expanded
//! ([`expand`], through [`interpolate`]) and the expanded tree is read into the model again.
//! Expansion reports every unset variable at once, each with the file and the line where the
//! reference stands, and only in the sections the command reads.

mod expand;
pub mod interpolate;
pub(crate) mod locate;
pub mod model;
pub mod render_spec;
mod variants;

use std::path::Path;

use serde_yaml_ng::Value;

pub use expand::{Unexpanded, Uses};
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
    /// Every `${…}` reference that could not be expanded (unset, malformed), each at
    /// `FILE:LINE`; never empty.
    #[error("{}", variables(.0))]
    Variables(Vec<Unexpanded>),
    /// `--variant NAME` names no variant of the file.
    #[error(
        "{at}: --variant {name}: the pipeline has {}",
        if known.is_empty() { "no variants".to_string() } else { format!("variants {}", known.join(", ")) }
    )]
    Variant {
        at: String,
        name: String,
        known: Vec<String>,
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

fn variables(all: &[Unexpanded]) -> String {
    match all {
        [one] => format!("{}: {}", one.at, one.source),
        _ => {
            let mut out = format!(
                "{} with variables; nothing was run:",
                olm_release_base::words::count(all.len(), "problem")
            );
            for u in all {
                out.push_str(&format!("\n  - {}: {}", u.at, u.source));
            }
            out
        }
    }
}

/// Which job of the file to read, and what of it the command reads.
#[derive(Debug, Clone, Copy, Default)]
pub struct Select<'a> {
    /// `--variant NAME`: the variant merged over the file.
    pub variant: Option<&'a str>,
    /// The sections whose variables must be set.
    pub uses: Uses,
}

/// Parses pipeline text, every section read; `origin` names it in errors.
pub fn parse(origin: &str, text: &str, vars: &Vars) -> Result<Pipeline, PipelineError> {
    parse_as(origin, text, vars, &Select::default())
}

/// Parses pipeline text as `select` asks: the chosen variant, and the variables of the sections
/// the command reads.
pub fn parse_as(
    origin: &str,
    text: &str,
    vars: &Vars,
    select: &Select,
) -> Result<Pipeline, PipelineError> {
    // Nesting and size measured in linear time before the YAML parser runs.
    olm_release_olm::archive::Budget::new(&Default::default())
        .check(origin, text)
        .map_err(PipelineError::Budget)?;
    // Structure first, on the text as written: unknown keys, missing keys and types, with lines.
    serde_yaml_ng::from_str::<Pipeline>(text).map_err(|e| yaml_error(origin, e))?;
    let mut tree: Value = serde_yaml_ng::from_str(text).map_err(|e| yaml_error(origin, e))?;
    let over = variants::select(origin, text, &mut tree, select.variant)?;
    let variant = select.variant.zip(over.as_ref());
    let failed = expand::expand(origin, text, &mut tree, vars, select.uses, variant);
    if !failed.is_empty() {
        return Err(PipelineError::Variables(failed));
    }
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
