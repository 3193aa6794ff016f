//! GitHub Actions, natively: findings and problems as workflow-command annotations
//! (`::error file=F,line=L,title=RULE::message`, shown on the run's page and on the pull
//! request's files), the job summary appended to the file `$GITHUB_STEP_SUMMARY` names (what was
//! published, and the channel's upgrade graph as a Mermaid chart), and the step's outputs
//! appended to `$GITHUB_OUTPUT` (`version`, `channel`, `channel-head`, `digests`, `outcome`).
//! The formats are GitHub's "Workflow commands for GitHub Actions" (with its escaping of `%`,
//! CR and LF in the message, and of `:` and `,` in properties) and "Setting an output
//! parameter". Both file paths are read once, with the CI context; writing them is best-effort:
//! a file that cannot be written is a warning, never a failed release.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::error::{Error, Problem, Problems};
use olm_release_olm::{Finding, Level};

use crate::report::summary::{Summary, cell};

/// The files GitHub Actions gives a step (either may be unset outside a runner).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Files {
    /// `$GITHUB_STEP_SUMMARY`: Markdown appended to the job's summary page.
    pub(crate) step_summary: Option<PathBuf>,
    /// `$GITHUB_OUTPUT`: `name=value` lines, the step's outputs.
    pub(crate) output: Option<PathBuf>,
}

/// A message escaped as a workflow command's data.
fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A value escaped as a workflow command's property.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One annotation line: `::error file=…,line=…,title=…::message`.
fn annotation(
    level: Level,
    file: Option<&str>,
    line: Option<u64>,
    title: &str,
    msg: &str,
) -> String {
    let mut props = Vec::new();
    if let Some(f) = file.filter(|f| !f.is_empty() && !f.starts_with('(')) {
        props.push(format!("file={}", property(f)));
        if let Some(l) = line {
            props.push(format!("line={l}"));
        }
    }
    if !title.is_empty() {
        props.push(format!("title={}", property(title)));
    }
    let sep = if props.is_empty() { "" } else { " " };
    format!(
        "::{}{sep}{}::{}",
        level.as_str(),
        props.join(","),
        data(msg)
    )
}

/// The annotation of a validation finding: the file, the rule as its title, and the field,
/// message and fix as its text. Findings carry no line, so the annotation is on the file. A
/// finding's file is relative to the bundle verified: `under` is that bundle (a folder the file
/// is joined to, or a `.tar.gz` or `bundle.yaml` the annotation names instead).
pub(crate) fn finding(f: &Finding, under: Option<&Path>) -> String {
    let mut msg = String::new();
    if !f.object.is_empty() {
        let _ = write!(msg, "{}: ", f.object);
    }
    if !f.field.is_empty() {
        let _ = write!(msg, "{}: ", f.field);
    }
    msg.push_str(&f.message);
    if !f.fix.is_empty() {
        let _ = write!(msg, " ({})", f.fix);
    }
    let file = match under {
        Some(dir) if dir.is_dir() && !f.file.starts_with('(') => {
            dir.join(&f.file).display().to_string()
        }
        Some(archive) if !archive.is_dir() => archive.display().to_string(),
        _ => f.file.clone(),
    };
    annotation(f.level, Some(&file), None, &f.rule, &msg)
}

/// `FILE:LINE` or `FILE:LINE:COLUMN` split into its parts.
fn location(at: &str) -> Option<(&str, u64, Option<u64>)> {
    let (head, last) = at.rsplit_once(':')?;
    let last: u64 = last.parse().ok()?;
    match head.rsplit_once(':') {
        Some((file, line)) if !file.is_empty() => match line.parse::<u64>() {
            Ok(line) => Some((file, line, Some(last))),
            Err(_) => Some((head, last, None)),
        },
        _ if !head.is_empty() => Some((head, last, None)),
        _ => None,
    }
}

/// An error annotation at `FILE:LINE[:COLUMN]` when `at` is one, else with `at` in its text.
fn located(at: &str, message: &str) -> String {
    match location(at) {
        Some((file, line, col)) => {
            let mut a = annotation(Level::Error, Some(file), Some(line), "olm-release", message);
            if let Some(col) = col {
                a = a.replacen(
                    &format!(",line={line},"),
                    &format!(",line={line},col={col},"),
                    1,
                );
            }
            a
        }
        None => annotation(
            Level::Error,
            None,
            None,
            "olm-release",
            &format!("{at}: {message}"),
        ),
    }
}

/// The annotation of a problem found before anything ran: `FILE:LINE` becomes its file and
/// line; an argument or a variable (`--registry`, `GITHUB_TOKEN`) stays in the text.
pub(crate) fn problem(p: &Problem) -> String {
    located(&p.at, &p.message)
}

/// The annotation of the error a run stopped on; one that starts with `FILE:LINE[:COLUMN]: `
/// (a pipeline file that does not parse) is placed there.
pub(crate) fn failure(message: &str) -> String {
    let first = message.split(": ").next().unwrap_or_default();
    if location(first).is_some()
        && let Some(rest) = message.get(first.len() + 2..)
    {
        return located(first, rest);
    }
    annotation(Level::Error, None, None, "olm-release", message)
}

/// The Markdown appended to the job summary.
pub(crate) fn step_summary(s: &Summary, mermaid: Option<&str>) -> String {
    let mut out = String::new();
    let mode = if s.dry_run { " (dry-run)" } else { "" };
    let _ = writeln!(
        out,
        "### olm-release {}{mode}: {} {} on channel {}\n",
        s.command,
        s.package.as_deref().unwrap_or("-"),
        s.version.as_deref().unwrap_or("-"),
        s.channel.as_deref().unwrap_or("-")
    );
    match &s.error {
        Some(e) => {
            let _ = writeln!(
                out,
                "**Failed** (exit {}): {}\n",
                e.exit_code,
                cell(&e.message)
            );
            for p in &e.problems {
                let _ = writeln!(out, "- `{}` {}", p.at, cell(&p.message));
            }
            if !e.problems.is_empty() {
                out.push('\n');
            }
        }
        None => {
            if let Some(head) = &s.channel_head {
                let _ = writeln!(out, "Channel head: `{head}`\n");
            }
        }
    }
    for n in &s.notes {
        let _ = writeln!(out, "- {}", cell(n));
    }
    if !s.notes.is_empty() {
        out.push('\n');
    }
    let rows: Vec<_> = [
        ("published", &s.published),
        ("unchanged", &s.kept),
        ("skipped (dry-run)", &s.skipped),
    ]
    .into_iter()
    .flat_map(|(label, ws)| ws.iter().map(move |w| (label, w)))
    .collect();
    if rows.is_empty() {
        out.push_str("Nothing was published.\n\n");
    } else {
        out.push_str("| | what | to | digest |\n|---|---|---|---|\n");
        for (label, w) in rows {
            let _ = writeln!(
                out,
                "| {label} | {} | {} | {} |",
                cell(&w.what),
                cell(&w.target),
                w.digest
                    .as_deref()
                    .map(|d| format!("`sha256:{d}`"))
                    .unwrap_or_default()
            );
        }
        out.push('\n');
    }
    let errors = s
        .findings
        .iter()
        .filter(|f| f.level == Level::Error)
        .count();
    let warnings = s.findings.len() - errors;
    if errors + warnings > 0 {
        let _ = writeln!(
            out,
            "Validation: {}, {} (annotated on the files).\n",
            olm_release_base::words::count(errors, "error"),
            olm_release_base::words::count(warnings, "warning")
        );
    }
    super::cluster_markdown::job_summary(s, &mut out);
    if let Some(m) = mermaid {
        let _ = writeln!(out, "Upgrade graph:\n\n```mermaid\n{}```\n", m);
    }
    out
}

/// The step's outputs, as `name=value` lines (every value on one line; `digests` is a JSON
/// array of `{what, target, digest}` for everything published or already there).
pub(crate) fn outputs(s: &Summary) -> String {
    let digests: Vec<_> = s
        .published
        .iter()
        .chain(&s.kept)
        .filter(|w| w.digest.is_some())
        .map(|w| {
            serde_json::json!({
                "what": w.what,
                "target": w.target,
                "digest": format!("sha256:{}", w.digest.as_deref().unwrap_or_default()),
            })
        })
        .collect();
    let one = |v: Option<&str>| v.unwrap_or_default().replace(['\n', '\r'], " ");
    format!(
        "outcome={}\nversion={}\nchannel={}\nchannel-head={}\ndigests={}\n",
        s.outcome,
        one(s.version.as_deref()),
        one(s.channel.as_deref()),
        one(s.channel_head.as_deref()),
        serde_json::Value::Array(digests)
    )
}

/// The annotations of the error a command stopped on: one per problem, or the error itself.
pub(crate) fn failure_lines(e: &Error) -> Vec<String> {
    match e.typed::<Problems>() {
        Some(ps) if !ps.0.is_empty() => ps.0.iter().map(problem).collect(),
        _ => vec![failure(&e.to_string())],
    }
}

/// Appends the job summary and the outputs to their files; what could not be written, in words.
pub(crate) fn write_files(files: &Files, s: &Summary, mermaid: Option<&str>) -> Vec<String> {
    let written = [
        (&files.step_summary, step_summary(s, mermaid)),
        (&files.output, outputs(s)),
    ];
    written
        .into_iter()
        .filter_map(|(path, text)| path.as_deref().map(|p| append(p, &text)))
        .filter_map(Result::err)
        .collect()
}

/// Appends `text` to `path`; the error in words when it cannot.
fn append(path: &Path, text: &str) -> Result<(), String> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| format!("could not append to {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_escape_messages_and_properties() {
        let p = Problem::new(
            "pipelines/release.yaml:12",
            "unknown key `stagse`,\ndid you mean `stages`? 100%",
        );
        assert_eq!(
            problem(&p),
            "::error file=pipelines/release.yaml,line=12,title=olm-release::unknown key `stagse`,%0Adid you mean `stages`? 100%25"
        );
        let q = Problem::new("GITHUB_TOKEN", "not set");
        assert_eq!(
            problem(&q),
            "::error title=olm-release::GITHUB_TOKEN: not set"
        );
    }
}
