//! The template engine against Go's own `text/template`: the differential corpus, rendered by
//! both, compared byte for byte.

mod corpus;
mod oracle;
mod pipeline;
