//! Template errors: every one is an input error (the template or its data is wrong: exit 2),
//! names the file, line and column, reads like Go's own message and shows the line with a
//! caret under the place.
//!
//! ```text
//! csv.yaml.in:3:16: unexpected "}" in operand
//!     3 | image: {{ .Tag }
//!       |                ^
//! ```

use std::fmt;
use std::path::PathBuf;

/// Where in a template something went wrong (1-based line and column, in characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The template's name as errors show it (its file, relative to the source folder).
    pub(crate) file: String,
    /// 1-based line.
    pub(crate) line: usize,
    /// 1-based column, in characters.
    pub(crate) column: usize,
    /// The source line and a caret under the column, ready to print after the message.
    pub(crate) excerpt: String,
}

impl Location {
    /// The location of byte offset `pos` of `text`.
    pub(crate) fn at(file: &str, text: &str, pos: usize) -> Box<Location> {
        let pos = pos.min(text.len());
        let pos = (0..=pos)
            .rev()
            .find(|p| text.is_char_boundary(*p))
            .unwrap_or(0);
        let start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
        let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
        let line = 1 + text[..pos].matches('\n').count();
        let column = 1 + text[start..pos].chars().count();
        let source = text[start..end].trim_end_matches('\r');
        let shown: String = source
            .chars()
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        let gutter = line.to_string().len().max(4);
        let excerpt = format!(
            "\n{line:>gutter$} | {shown}\n{:>gutter$} | {}^",
            "",
            " ".repeat(column - 1)
        );
        Box::new(Location {
            file: file.to_string(),
            line,
            column,
            excerpt,
        })
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// A template error. All variants are input errors: the template or its data must change.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The text does not parse (Go reports these as `template: NAME:LINE: …`).
    #[error("{at}: {message}{}", at.excerpt)]
    Syntax {
        /// Where.
        at: Box<Location>,
        /// What is wrong, as Go words it.
        message: String,
    },
    /// Executing an action failed (Go: `executing "NAME" at <NODE>: …`).
    #[error("{at}: executing \"{template}\" at <{context}>: {message}{}", at.excerpt)]
    Exec {
        /// Where.
        at: Box<Location>,
        /// The template being executed (the file, or a `define`d name).
        template: String,
        /// The node that failed, as Go prints it (`.Spec.Name`, `index .L 3`).
        context: String,
        /// What went wrong, as Go words it.
        message: String,
    },
    /// A file named through an include folder cannot be read.
    #[error("{at}: include \"{name}\": cannot read {}: {source}{}", path.display(), at.excerpt)]
    Include {
        /// Where the include is.
        at: Box<Location>,
        /// The file's name as the template wrote it.
        name: String,
        /// The file read.
        path: PathBuf,
        /// Why it cannot be read.
        #[source]
        source: std::io::Error,
    },
}

#[cfg(test)]
impl Error {
    /// Where the error is.
    pub(crate) fn location(&self) -> &Location {
        match self {
            Error::Syntax { at, .. } | Error::Exec { at, .. } | Error::Include { at, .. } => at,
        }
    }

    /// The message alone, without the location and excerpt.
    pub(crate) fn message(&self) -> String {
        match self {
            Error::Syntax { message, .. } | Error::Exec { message, .. } => message.clone(),
            Error::Include { name, source, .. } => format!("include \"{name}\": {source}"),
        }
    }
}

impl olm_release_base::Classified for Error {
    /// Every template error is an input error: the template or its data must change.
    fn class(&self) -> olm_release_base::Class {
        olm_release_base::Class::Input
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn location_counts_characters_and_draws_a_caret() {
        let at = Location::at("t.yaml.in", "a: 1\nnäme: {{ .X }\n", 18);
        assert_eq!((at.line, at.column), (2, 13));
        assert_eq!(at.excerpt, "\n   2 | näme: {{ .X }\n     |             ^");
        let e = Error::Syntax {
            at,
            message: "unexpected \"}\" in operand".into(),
        };
        assert!(
            e.to_string()
                .starts_with("t.yaml.in:2:13: unexpected \"}\" in operand\n")
        );
    }
}
