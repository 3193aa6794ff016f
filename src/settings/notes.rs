//! `release.notes`: where the release notes come from, as the pipeline names it. Only the
//! choice is resolved here (a keyword, or a file of the source folder); the plan builder reads
//! the text ([`crate::plan`]), so `plan` shows which source it took.

use std::path::{Path, PathBuf};

use super::urls::resolve_path;

/// The release-notes source, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NotesSource {
    /// No `release.notes`: the `CHANGELOG.md` section when the source has that file, else the
    /// summary.
    Auto,
    /// `changelog`: this version's section of the source's `CHANGELOG.md`.
    Changelog,
    /// `summary`: the semantic summary against the channel's previous head.
    Summary,
    /// `none`: no release notes.
    None,
    /// A file (resolved against `--source`), as written and resolved.
    File { shown: String, path: PathBuf },
}

/// Reads the `release.notes` value; anything but a keyword is a file of the source folder.
pub(crate) fn source(value: Option<&str>, root: &Path) -> NotesSource {
    match value.map(str::trim) {
        None => NotesSource::Auto,
        Some("changelog") => NotesSource::Changelog,
        Some("summary") => NotesSource::Summary,
        Some("none") => NotesSource::None,
        Some(file) => NotesSource::File {
            shown: file.to_string(),
            path: resolve_path(root, Path::new(file)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_and_files() {
        let root = Path::new("/src");
        assert_eq!(source(None, root), NotesSource::Auto);
        assert_eq!(source(Some("changelog"), root), NotesSource::Changelog);
        assert_eq!(source(Some("none"), root), NotesSource::None);
        assert_eq!(
            source(Some("docs/notes.md"), root),
            NotesSource::File {
                shown: "docs/notes.md".into(),
                path: PathBuf::from("/src/docs/notes.md")
            }
        );
    }
}
