//! What the user sees. Human lines go to stderr, one per event; with `--format json` a summary
//! goes to stdout at the end. The summary records every decision, everything published and
//! every write a dry-run skipped, so the last lines of a run say what happened.
//!
//! In CI logs each stage is a foldable section (`travis_fold` on Travis, `::group::` on GitHub
//! Actions). No colour or control codes are ever written, so `NO_COLOR` and plain CI logs are
//! honoured by construction.
//!
//! Stages call the [`Reporter`]; they never print themselves.

use std::sync::Mutex;
use std::time::Duration;

use serde::Serialize;

use crate::events::{Events, RetryNote, Transfer, Write};
use crate::olm::Finding;

mod activity;
use activity::Activity;

/// How much to say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verbosity {
    Quiet,
    Normal,
    Verbose,
}

#[derive(Debug, Clone, Serialize)]
pub struct StageReport {
    pub stage: String,
    pub seconds: f64,
    pub status: String,
}

/// The end-of-run summary (also the `--format json` document).
#[derive(Debug, Default, Clone, Serialize)]
pub struct Summary {
    pub pipeline: String,
    pub package: String,
    pub channel: String,
    pub version: String,
    pub dry_run: bool,
    pub stages: Vec<StageReport>,
    pub decisions: Vec<String>,
    /// What fetch-previous decided, as data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<serde_json::Value>,
    /// Other things the run noticed and said.
    pub notes: Vec<String>,
    pub published: Vec<Write>,
    pub kept: Vec<Write>,
    pub skipped: Vec<Write>,
    pub findings: Vec<Finding>,
    /// The head of the pipeline's channel in the bundle this run builds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel_head: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Debug)]
pub struct Reporter {
    verbosity: Verbosity,
    json: bool,
    fold: Fold,
    /// Whether stderr is a terminal a person watches (not a CI log): only then a spinner runs.
    interactive: bool,
    summary: Mutex<Summary>,
}

/// How stage sections are folded in a CI log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Fold {
    #[default]
    None,
    /// `travis_fold:start:NAME` … `travis_fold:end:NAME`
    Travis,
    /// `::group::NAME` … `::endgroup::`
    GitHubActions,
}

impl Fold {
    /// The folding of the CI this runs in (`provider` as in [`crate::ci::CiContext`]).
    pub fn for_provider(provider: Option<&str>) -> Self {
        match provider {
            Some("travis") => Fold::Travis,
            Some("github-actions") => Fold::GitHubActions,
            _ => Fold::None,
        }
    }
}

impl Reporter {
    pub fn new(verbosity: Verbosity, json: bool) -> Self {
        Reporter {
            verbosity,
            json,
            fold: Fold::None,
            interactive: false,
            summary: Mutex::new(Summary::default()),
        }
    }

    /// Allows the transfer spinner (the caller checks stderr is a terminal outside CI).
    pub fn with_interactive(mut self, interactive: bool) -> Self {
        self.interactive = interactive;
        self
    }

    /// Starts a spinner labelled `label` (e.g. "pushing 1.2 MB to quay.io") until the returned
    /// guard is dropped; a no-op unless interactive and not quiet.
    fn activity(&self, label: &str) -> Activity {
        if !self.interactive || self.verbosity == Verbosity::Quiet {
            return Activity::none();
        }
        activity::start(label)
    }

    /// Folds stage sections the way the CI's log viewer expects.
    pub fn with_fold(mut self, fold: Fold) -> Self {
        self.fold = fold;
        self
    }

    fn line(&self, min: Verbosity, text: &str) {
        if self.verbosity >= min {
            crate::out::line(text);
        }
    }

    /// Fills the summary's header.
    pub fn begin(
        &self,
        pipeline: &str,
        package: &str,
        channel: &str,
        version: &str,
        dry_run: bool,
    ) {
        let mut s = self.summary.lock().unwrap();
        s.pipeline = pipeline.into();
        s.package = package.into();
        s.channel = channel.into();
        s.version = version.into();
        s.dry_run = dry_run;
    }

    pub fn stage_start(&self, stage: &str) {
        match self.fold {
            Fold::None => {}
            Fold::Travis => self.line(
                Verbosity::Normal,
                &format!("travis_fold:start:olm-release.{stage}"),
            ),
            Fold::GitHubActions => self.line(Verbosity::Normal, &format!("::group::{stage}")),
        }
        self.line(Verbosity::Normal, &format!("==> {stage}"));
    }

    pub fn stage_end(&self, stage: &str, took: Duration, ok: bool) {
        let status = if ok { "ok" } else { "failed" };
        self.line(
            Verbosity::Normal,
            &format!("    {stage} {status} in {:.2}s", took.as_secs_f64()),
        );
        match self.fold {
            Fold::None => {}
            Fold::Travis => self.line(
                Verbosity::Normal,
                &format!("travis_fold:end:olm-release.{stage}"),
            ),
            Fold::GitHubActions => self.line(Verbosity::Normal, "::endgroup::"),
        }
        self.summary.lock().unwrap().stages.push(StageReport {
            stage: stage.into(),
            seconds: (took.as_secs_f64() * 1000.0).round() / 1000.0,
            status: status.into(),
        });
    }

    /// A normal progress line.
    pub fn info(&self, text: &str) {
        self.line(Verbosity::Normal, &format!("    {text}"));
    }

    /// Detail shown with -v.
    pub fn detail(&self, text: &str) {
        self.line(Verbosity::Verbose, &format!("    {text}"));
    }

    /// A multi-line block (e.g. a diff), indented; shown normally when `always`, else with -v.
    pub fn block(&self, text: &str, always: bool) {
        let min = if always {
            Verbosity::Normal
        } else {
            Verbosity::Verbose
        };
        for line in text.lines() {
            self.line(min, &format!("    {line}"));
        }
    }

    /// A warning, shown even with -q.
    pub fn warn(&self, text: &str) {
        self.line(Verbosity::Quiet, &format!("warning: {text}"));
    }

    /// What fetch-previous decided (as data, and in words); kept in the summary.
    pub(crate) fn decided<T: Serialize>(&self, decision: &T, text: &str) {
        self.line(Verbosity::Normal, &format!("    {text}"));
        let mut s = self.summary.lock().unwrap();
        s.decisions.push(text.into());
        s.decision = serde_json::to_value(decision).ok();
    }

    /// Something the run noticed and says once (e.g. a new `defaultChannel`); kept in the
    /// summary.
    pub(crate) fn note(&self, text: &str) {
        self.line(Verbosity::Normal, &format!("    {text}"));
        self.summary.lock().unwrap().notes.push(text.into());
    }

    pub fn findings(&self, findings: &[Finding]) {
        for f in findings {
            self.line(Verbosity::Quiet, &format!("    {f}"));
        }
        self.summary
            .lock()
            .unwrap()
            .findings
            .extend_from_slice(findings);
    }

    pub fn published(&self, w: Write) {
        self.line(
            Verbosity::Normal,
            &format!(
                "    published {} to {}{}",
                w.what,
                w.target,
                digest_suffix(&w)
            ),
        );
        self.summary.lock().unwrap().published.push(w);
    }

    /// Something already published with the same content, left as it is.
    pub fn kept(&self, w: Write) {
        self.line(
            Verbosity::Normal,
            &format!(
                "    unchanged: {} at {}{}",
                w.what,
                w.target,
                digest_suffix(&w)
            ),
        );
        self.summary.lock().unwrap().kept.push(w);
    }

    /// A write skipped by --dry-run.
    pub fn skipped(&self, w: Write) {
        self.line(
            Verbosity::Quiet,
            &format!(
                "    dry-run: skipped {} → {}{}",
                w.what,
                w.target,
                digest_suffix(&w)
            ),
        );
        self.summary.lock().unwrap().skipped.push(w);
    }

    /// Records the channel head of the bundle being published.
    pub(crate) fn channel_head(&self, channel: &str, csv: &str) {
        let mut s = self.summary.lock().unwrap();
        s.channel_head = Some(csv.to_string());
        if s.channel.is_empty() {
            s.channel = channel.to_string();
        }
    }

    pub fn fail(&self, error: &str) {
        self.summary.lock().unwrap().error = Some(error.into());
    }

    pub fn summary(&self) -> Summary {
        self.summary.lock().unwrap().clone()
    }

    /// Prints the closing summary: human lines on stderr, or JSON on stdout.
    pub fn finish(&self) {
        let s = self.summary();
        if self.json {
            println!(
                "{}",
                serde_json::to_string_pretty(&s).expect("summary serialises")
            );
            return;
        }
        if self.verbosity == Verbosity::Quiet && s.error.is_none() {
            return;
        }
        let mode = if s.dry_run { " (dry-run)" } else { "" };
        eprintln!(
            "Summary{mode}: {} {} on channel {}",
            s.package, s.version, s.channel
        );
        if let Some(head) = &s.channel_head {
            eprintln!("  channel    {} → {head}", s.channel);
        }
        for d in &s.decisions {
            eprintln!("  decided    {d}");
        }
        for w in &s.published {
            eprintln!(
                "  published  {} -> {}{}",
                w.what,
                w.target,
                digest_suffix(w)
            );
        }
        for w in &s.kept {
            eprintln!(
                "  unchanged  {} at {}{}",
                w.what,
                w.target,
                digest_suffix(w)
            );
        }
        for w in &s.skipped {
            eprintln!(
                "  skipped    {} -> {}{} (dry-run)",
                w.what,
                w.target,
                digest_suffix(w)
            );
        }
        if s.published.is_empty() && s.skipped.is_empty() && s.kept.is_empty() && s.error.is_none()
        {
            eprintln!("  nothing was published");
        }
        if let Some(e) = &s.error {
            eprintln!("  failed: {e}");
        }
    }
}

impl Events for Reporter {
    fn retrying(&self, note: &RetryNote) {
        self.warn(&note.to_string());
    }

    fn transfer(&self, label: &str) -> Transfer {
        Transfer::until_dropped(self.activity(label))
    }

    fn note(&self, text: &str) {
        self.info(text);
    }

    fn detail(&self, text: &str) {
        Reporter::detail(self, text);
    }

    fn warn(&self, text: &str) {
        Reporter::warn(self, text);
    }
}

fn digest_suffix(w: &Write) -> String {
    w.digest
        .as_ref()
        .map(|d| format!(" (sha256:{d})"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_follows_the_ci_provider() {
        assert_eq!(Fold::for_provider(Some("travis")), Fold::Travis);
        assert_eq!(
            Fold::for_provider(Some("github-actions")),
            Fold::GitHubActions
        );
        assert_eq!(Fold::for_provider(None), Fold::None);
    }
}
