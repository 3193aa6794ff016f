//! What a template sees: its variables, and the functions it may call.

use std::collections::BTreeMap;

use crate::value::Value;

/// Which functions templates may call besides Go's builtins.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Functions {
    /// Go's builtins only.
    #[default]
    Go,
    /// Go's builtins and the sprig subset (`render.functions: sprig`).
    Sprig,
}

/// The data a template sees (`.Name` reads `vars["Name"]`) and the functions it may call.
#[derive(Debug, Clone, Default)]
pub struct Data {
    /// The variables, by name.
    pub vars: BTreeMap<String, Value>,
    /// Which functions the templates may call.
    pub functions: Functions,
}

impl Data {
    /// Sets a string variable.
    pub fn set_str(&mut self, name: &str, value: impl Into<String>) {
        self.vars.insert(name.to_string(), Value::Str(value.into()));
    }
}
