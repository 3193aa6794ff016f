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

use crate::error::{Error, Result};

/// Reads a pipeline file's text.
pub fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| {
        Error::input(format!(
            "{}: cannot read the pipeline file: {e}",
            path.display()
        ))
    })
}

/// Parses pipeline text; `origin` names it in errors.
pub fn parse(origin: &str, text: &str, vars: &Vars) -> Result<Pipeline> {
    // Structure first, on the text as written: unknown keys, missing keys and types, with lines.
    serde_yaml_ng::from_str::<Pipeline>(text).map_err(|e| yaml_error(origin, e))?;
    let mut tree: Value = serde_yaml_ng::from_str(text).map_err(|e| yaml_error(origin, e))?;
    expand_tree(&mut tree, vars).map_err(|e| {
        let line = line_of(text, e.expr())
            .map(|l| format!(":{l}"))
            .unwrap_or_default();
        Error::input(format!("{origin}{line}: {e}"))
    })?;
    serde_yaml_ng::from_value(tree)
        .map_err(|e| Error::input(format!("{origin}: after expanding variables: {e}")))
}

fn yaml_error(origin: &str, e: serde_yaml_ng::Error) -> Error {
    match e.location() {
        Some(loc) => {
            let msg = e.to_string();
            // serde_yaml appends " at line L column C"; the location goes in front instead.
            let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
            Error::input(format!("{origin}:{}:{}: {msg}", loc.line(), loc.column()))
        }
        None => Error::input(format!("{origin}: {e}")),
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
