//! `_out/` in the repository's `.gitignore`: every olm-release pipeline `init` writes puts its
//! work under `_out/` (the rendered bundle, the image layouts and catalogs of the `local`
//! variant), which must never be committed. `init` adds the one line to the `.gitignore` as it
//! is (created when missing), leaving every other line alone; a `.gitignore` that already
//! ignores it (`_out`, `_out/`, `/_out`, `/_out/`) is not touched.

use std::path::Path;

/// The file, relative to the repository.
pub(crate) const PATH: &str = ".gitignore";

/// The lines added.
const ADDED: &str = "# olm-release's work folder (olm-release init)\n_out/\n";

/// The `.gitignore` text with `_out/` ignored, or None when it already is.
pub(crate) fn with_out(source: &Path) -> Option<String> {
    let text = std::fs::read_to_string(source.join(PATH)).unwrap_or_default();
    let ignored = text
        .lines()
        .map(str::trim)
        .any(|l| matches!(l, "_out" | "_out/" | "/_out" | "/_out/"));
    if ignored {
        return None;
    }
    let mut out = text;
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(ADDED);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_is_added_once_and_other_lines_kept() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        assert_eq!(with_out(d).as_deref(), Some(ADDED), "created when missing");
        std::fs::write(d.join(PATH), "bin/\n*.swp").unwrap();
        let edited = with_out(d).unwrap();
        assert_eq!(edited, format!("bin/\n*.swp\n{ADDED}"));
        std::fs::write(d.join(PATH), &edited).unwrap();
        assert_eq!(with_out(d), None, "already ignored");
        std::fs::write(d.join(PATH), "/_out\n").unwrap();
        assert_eq!(with_out(d), None);
    }
}
