//! Templates as a pipeline uses them (the engine itself is tested against Go's own
//! `text/template` in crates/gotemplate).

mod pipeline;
