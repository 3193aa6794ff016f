//! The release notes a release step sends: resolved while planning from `release.notes`, so
//! `plan` shows which source it took and a missing file stops the run before any write.
//!
//! A file and a `CHANGELOG.md` section are read here; the semantic summary exists only once
//! fetch-previous has compared the bundle with the channel's published head, so the step
//! carries [`Notes::Summary`] and the executor fills it in. The changelog section follows
//! Keep a Changelog (<https://keepachangelog.com/en/1.1.0/>): a `## ` heading naming the
//! version (`## [1.2.0] - 2019-02-15`, `## 1.2.0`, `## v1.2.0`), up to the next `## `
//! heading.

use std::path::Path;

use serde::Serialize;

use crate::error::Problem;
use crate::pipeline::StageName;
use crate::settings::{NotesSource, ReleaseSettings, Settings};

/// The largest body GitHub takes for a release (its API refuses longer ones), in characters.
pub(crate) const MAX_NOTES_CHARS: usize = 125_000;

/// A notes file is read up to this many bytes (more cannot be a release body).
const MAX_NOTES_BYTES: u64 = 4 * MAX_NOTES_CHARS as u64;

/// Where the changelog is looked for, at the source root.
pub(crate) const CHANGELOG: &str = "CHANGELOG.md";

/// The release notes of a release step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub(crate) enum Notes {
    /// No notes: no body is sent and an existing one is left alone.
    None,
    /// Text known while planning: a file, or this version's changelog section.
    Text {
        /// Where it came from, e.g. `CHANGELOG.md section 0.2.0`.
        from: String,
        /// Its first line, for the plan.
        first_line: String,
        #[serde(skip)]
        text: String,
    },
    /// The semantic summary against the channel's published head (or the first-release
    /// text), which fetch-previous computes.
    Summary,
}

impl Notes {
    fn text(from: String, text: String) -> Notes {
        let first_line = text.lines().next().unwrap_or_default().trim().to_string();
        Notes::Text {
            from,
            first_line,
            text,
        }
    }
}

/// Resolves `release.notes`; `notes` receives what the plan should say (a fallback taken).
pub(crate) fn resolve(
    s: &Settings,
    release: &ReleaseSettings,
    notes: &mut Vec<String>,
) -> Result<Notes, Problem> {
    let at = || s.file.at(&["release", "notes"]);
    let version = s.version.as_ref().map(ToString::to_string);
    let has_summary = s.stages.contains(&StageName::FetchPrevious);
    let summary = |why: String, notes: &mut Vec<String>| {
        if has_summary {
            notes.push(format!(
                "release notes: {why}; the semantic summary instead"
            ));
            Notes::Summary
        } else {
            notes.push(format!(
                "release notes: {why}, and without fetch-previous there is no summary: no notes"
            ));
            Notes::None
        }
    };
    let changelog = s.source.join(CHANGELOG);
    let from_changelog = |notes: &mut Vec<String>| -> Result<Notes, Problem> {
        let text = read(&changelog, CHANGELOG, &at)?;
        let Some(version) = &version else {
            return Ok(Notes::None);
        };
        Ok(match changelog_section(&text, version) {
            Some(section) => Notes::text(format!("{CHANGELOG} section {version}"), section),
            None => summary(format!("{CHANGELOG} has no section for {version}"), notes),
        })
    };
    let resolved = match &release.notes {
        NotesSource::None => Notes::None,
        NotesSource::File { shown, path } => {
            if !path.exists() {
                return Err(Problem::new(
                    at(),
                    format!(
                        "release.notes: '{shown}' is not changelog, summary or none, and no such file is in the source folder ({}); name a file there or one of the keywords",
                        s.source.display()
                    ),
                ));
            }
            Notes::text(format!("file {shown}"), read(path, shown, &at)?)
        }
        NotesSource::Changelog => from_changelog(notes)?,
        NotesSource::Auto if changelog.is_file() => from_changelog(notes)?,
        NotesSource::Summary if !has_summary => {
            return Err(Problem::new(
                at(),
                "release.notes: summary needs the fetch-previous stage (it compares with the channel's published head); add it to stages, or use changelog, a file or none",
            ));
        }
        NotesSource::Summary => Notes::Summary,
        NotesSource::Auto if has_summary => Notes::Summary,
        NotesSource::Auto => Notes::None,
    };
    if let Notes::Text { text, from, .. } = &resolved
        && text.chars().count() > MAX_NOTES_CHARS
    {
        return Err(Problem::new(
            at(),
            format!(
                "release.notes: {from} is longer than the {MAX_NOTES_CHARS} characters GitHub takes for a release body; shorten it"
            ),
        ));
    }
    Ok(resolved)
}

fn read(path: &Path, shown: &str, at: &dyn Fn() -> String) -> Result<String, Problem> {
    olm_release_base::input::read_to_string(path, MAX_NOTES_BYTES)
        .map_err(|e| Problem::new(at(), format!("release.notes: {shown}: {e}")))
}

/// This version's section of a Keep a Changelog file: the lines after its `## ` heading, up to
/// the next `#`/`##` heading outside a code fence, without the link definitions that close
/// the file and without blank lines around. `None` when there is no such heading, or when the
/// section is empty.
pub(crate) fn changelog_section(text: &str, version: &str) -> Option<String> {
    let mut lines = text.lines();
    lines
        .by_ref()
        .find(|l| heading_version(l) == Some(version))?;
    let mut section = Vec::new();
    let mut fenced = false;
    for line in lines {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
        }
        if !fenced && (line.starts_with("## ") || line.starts_with("# ")) {
            break;
        }
        section.push(line);
    }
    // The file's link definitions (`[0.2.0]: https://…`) follow the last section.
    while let Some(last) = section.last() {
        let t = last.trim();
        if t.is_empty() || (t.starts_with('[') && t.contains("]: ")) {
            section.pop();
        } else {
            break;
        }
    }
    let start = section.iter().position(|l| !l.trim().is_empty())?;
    let mut out = section[start..].join("\n");
    out.push('\n');
    Some(out)
}

/// The version a `## ` heading names: `## [1.2.0] - date`, `## 1.2.0 (date)`, `## v1.2.0`,
/// `## [v1.2.0](link)`.
fn heading_version(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("## ")?.trim_start();
    let rest = rest.strip_prefix('[').unwrap_or(rest);
    let rest = rest
        .strip_prefix('v')
        .or_else(|| rest.strip_prefix('V'))
        .unwrap_or(rest);
    let end = rest
        .find(|c: char| c.is_whitespace() || matches!(c, ']' | '(' | ','))
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "# Changelog\n\nAll notable changes.\n\n## [Unreleased]\n\n### Added\n- next\n\n## [1.2.0] - 2019-02-15\n\n### Added\n- the thing\n\n```\n## not a heading\n```\n\n## v1.1.0 (2019-01-01)\n### Fixed\n- a bug\n## 1.0.0\n- first\n\n[1.2.0]: https://example.com/compare/v1.1.0...v1.2.0\n[1.1.0]: https://example.com/compare/v1.0.0...v1.1.0\n";

    #[test]
    fn brackets_and_dates() {
        assert_eq!(
            changelog_section(LOG, "1.2.0").unwrap(),
            "### Added\n- the thing\n\n```\n## not a heading\n```\n"
        );
    }

    #[test]
    fn v_prefix() {
        assert_eq!(
            changelog_section(LOG, "1.1.0").unwrap(),
            "### Fixed\n- a bug\n"
        );
    }

    #[test]
    fn last_section_drops_link_definitions() {
        assert_eq!(changelog_section(LOG, "1.0.0").unwrap(), "- first\n");
    }

    #[test]
    fn missing_or_partial_versions() {
        assert_eq!(changelog_section(LOG, "1.3.0"), None);
        assert_eq!(changelog_section(LOG, "1.2"), None);
        assert_eq!(changelog_section(LOG, "2.0.0"), None);
        assert_eq!(
            changelog_section("## [2.0.0]\n\n## [1.0.0]\n- x\n", "2.0.0"),
            None
        );
        assert_eq!(
            changelog_section("## [Unreleased]\n- y\n", "Unreleased").as_deref(),
            Some("- y\n")
        );
    }
}
