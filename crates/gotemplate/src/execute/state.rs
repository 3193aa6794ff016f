//! The executor's state while it walks a template: the template set, where it is (for error
//! locations), the data, the variable stack and the nesting depths. The functions a template
//! calls receive it, so they name this module, not the walker.

use crate::data::Data;
use crate::parse::Set;
use crate::value::Value;

/// The executor's state.
pub(crate) struct Exec<'a> {
    pub(crate) set: &'a Set,
    /// The file being rendered and its text, for error locations.
    pub(crate) file: &'a str,
    pub(crate) text: &'a str,
    /// The template being executed (the file's own, or a `define`d one).
    pub(crate) name: String,
    pub(crate) data: &'a Data,
    pub(crate) root: &'a Value,
    pub(crate) vars: Vec<(String, Value)>,
    pub(crate) depth: usize,
    /// How deep in includes this file is.
    pub(crate) include_depth: usize,
}
