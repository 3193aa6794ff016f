//! Go `text/template` rendering of `.yaml.in` files: the whole template language, checked
//! byte for byte against Go 1.19 itself on the corpus in `tests/corpus` (the test
//! `oracle` runs Go's own `text/template` beside this engine).
//!
//! Operators that released through app registries (KubeVirt first among them) wrote their OLM
//! manifests as Go templates, and authors bring templates that use the rest of the language:
//! variables (`$x :=`, `$x =`), `range` with one or two variables over lists and maps (maps in
//! key order), `if`/`else if`, `with`, `define`/`template`/`block`, `break`/`continue`, every
//! builtin with Go's argument rules, Go's `fmt` verbs, and every literal form. The engine is
//! [`lex`] (text → items), [`parse`] (items → named trees), [`execute`] (trees + data → text),
//! with [`funcs`] (Go's builtins), [`fmt`] (Go's `fmt`) and, when a pipeline opts in,
//! [`sprig`] (the sprig functions operator templates use).
//!
//! Deliberate differences from Go, each listed in the corpus with its reason:
//! - a missing variable or map key is always an error naming the file, line, column and key
//!   (Go's default prints `<no value>`; the oracle runs with `missingkey=error`);
//! - values of kind [`Value::Block`] are structured YAML printed at the indentation where the
//!   action stands ([`block`]), so a placeholder for a rules list or a Deployment spec works
//!   at any column;
//! - a [`Value::Files`] value names a folder; `{{index .GeneratedManifests "FILE"}}` reads that
//!   file and renders it as a template with the same data (a missing file is an error), which
//!   is what KubeVirt's templater did in two passes; a [`Value::Texts`] folder's files are
//!   inserted as they are (manifests that are not templates);
//! - `{{else with}}` is accepted (Go 1.23 syntax); complex numbers and strings that are not
//!   UTF-8 are refused; `{{template}}` calls nest at most 200 deep.

#![deny(missing_docs)]

mod block;
mod data;
mod error;
mod execute;
pub(crate) mod fmt;
mod funcs;
mod lex;
mod parse;
mod render;
mod sprig;
mod value;

pub use data::{Data, Functions};
pub use error::{Error, Location};
pub use render::{render, render_dot};
pub use value::Value;
