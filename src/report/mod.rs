//! What the user sees. Human lines go to stderr, one per event; with `--format json` one summary
//! document goes to stdout at the end ([`summary`]), for every outcome. The summary records the
//! decision, everything published, kept and skipped, and the error, so the last lines of a run
//! say what happened.
//!
//! Verbosity: `-q` prints errors (error findings, the failure) and the summary only; the default
//! adds progress, warnings and dry-run lines; `-v` adds detail (the plan, proofs, checks).
//! In CI logs each stage is a foldable section (`travis_fold` on Travis, `::group::` on GitHub
//! Actions). In GitHub Actions findings and problems are also annotations, and the summary is
//! appended to the job summary and the step's outputs ([`github`]). No colour or control codes are ever written to a log, so `NO_COLOR` and plain CI
//! logs are honoured by construction; a spinner runs only on an interactive terminal.
//!
//! Steps call the [`Reporter`]; clients reach it through [`Events`], which it implements. Nothing
//! else prints.

mod activity;
mod cluster;
mod cluster_markdown;
mod fold;
pub(crate) mod github;
mod oci_events;
pub(crate) mod summary;

use std::sync::Mutex;
use std::time::Duration;

use serde::Serialize;

use crate::error::Error;
use crate::out;
use activity::Activity;
pub(crate) use fold::Fold;
use olm_release_http::events::{Events, RetryNote, Transfer, Write};
use olm_release_olm::semdiff::BundleDiff;
use olm_release_olm::{Finding, Level};
use summary::{Failure, StageReport, Summary, digest_suffix};

/// How much to say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Verbosity {
    Quiet,
    Normal,
    Verbose,
}

/// The run's voice: lines on stderr and the summary.
#[derive(Debug)]
pub(crate) struct Reporter {
    verbosity: Verbosity,
    json: bool,
    fold: Fold,
    /// Whether stderr is a terminal a person watches (not a CI log): only then a spinner runs.
    interactive: bool,
    /// In GitHub Actions: annotations, and the files the summary and outputs are appended to.
    github: Option<github::Files>,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    summary: Summary,
    /// Decisions in words, for the human summary.
    decisions: Vec<String>,
    /// The channel's upgrade graph (Mermaid) of the bundle this run built, for the job summary.
    mermaid: Option<String>,
    /// The channel was named by the pipeline (not taken from the bundle's default channel).
    channel_given: bool,
    finished: bool,
}

impl Reporter {
    pub(crate) fn new(verbosity: Verbosity, json: bool) -> Self {
        Reporter {
            verbosity,
            json,
            fold: Fold::None,
            interactive: false,
            github: None,
            state: Mutex::new(State::default()),
        }
    }

    /// Allows the transfer spinner (the caller checks stderr is a terminal outside CI).
    pub(crate) fn with_interactive(mut self, interactive: bool) -> Self {
        self.interactive = interactive;
        self
    }

    /// Folds stage sections the way the CI's log viewer expects.
    pub(crate) fn with_fold(mut self, fold: Fold) -> Self {
        self.fold = fold;
        self
    }

    /// Speaks GitHub Actions: annotations, the job summary and the step's outputs.
    pub(crate) fn with_github(mut self, files: github::Files) -> Self {
        self.github = Some(files);
        self
    }

    /// Annotations for `findings` of the bundle at `under` (in GitHub Actions; nothing
    /// otherwise). `verify` prints its findings itself and calls this; [`Reporter::findings`]
    /// does it for the stages.
    pub(crate) fn annotate(&self, findings: &[Finding], under: Option<&std::path::Path>) {
        if self.github.is_some() {
            for f in findings {
                out::line(&github::finding(f, under));
            }
        }
    }

    /// Keeps the upgrade graph of the bundle this run built, for the job summary.
    pub(crate) fn graph(&self, mermaid: String) {
        self.state().mermaid = Some(mermaid);
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn line(&self, min: Verbosity, text: &str) {
        if self.verbosity >= min {
            out::line(text);
        }
    }

    /// Starts a spinner labelled `label` until the returned guard is dropped; a no-op unless
    /// interactive and not quiet.
    fn activity(&self, label: &str) -> Activity {
        if !self.interactive || self.verbosity == Verbosity::Quiet {
            return Activity::none();
        }
        activity::start(label)
    }

    /// Names the command the summary is about (`run`, `publish`, …).
    pub(crate) fn command(&self, command: &str) {
        self.state().summary.command = command.into();
    }

    /// Fills the summary's header.
    pub(crate) fn begin(
        &self,
        pipeline: &str,
        package: Option<&str>,
        channel: Option<&str>,
        version: &str,
        dry_run: bool,
    ) {
        let mut st = self.state();
        st.channel_given = channel.is_some();
        let s = &mut st.summary;
        s.pipeline = Some(pipeline.into());
        s.package = package.map(Into::into);
        s.channel = channel.map(Into::into);
        s.version = Some(version.into());
        s.dry_run = dry_run;
    }

    pub(crate) fn stage_start(&self, stage: &str) {
        if let Some(l) = self.fold.start(stage) {
            self.line(Verbosity::Normal, &l);
        }
        self.line(Verbosity::Normal, &format!("==> {stage}"));
    }

    pub(crate) fn stage_end(&self, stage: &str, took: Duration, ok: bool) {
        let status = if ok { "ok" } else { "failed" };
        self.line(
            Verbosity::Normal,
            &format!("    {stage} {status} in {:.2}s", took.as_secs_f64()),
        );
        if let Some(l) = self.fold.end(stage) {
            self.line(Verbosity::Normal, &l);
        }
        self.state().summary.stages.push(StageReport {
            stage: stage.into(),
            seconds: (took.as_secs_f64() * 1000.0).round() / 1000.0,
            status,
        });
    }

    /// A normal progress line.
    pub(crate) fn info(&self, text: &str) {
        self.line(Verbosity::Normal, &format!("    {text}"));
    }

    /// Detail shown with -v.
    pub(crate) fn detail(&self, text: &str) {
        self.line(Verbosity::Verbose, &format!("    {text}"));
    }

    /// A multi-line block (e.g. a diff), indented; shown normally when `always`, else with -v.
    pub(crate) fn block(&self, text: &str, always: bool) {
        let min = if always {
            Verbosity::Normal
        } else {
            Verbosity::Verbose
        };
        for line in text.lines() {
            self.line(min, &format!("    {line}"));
        }
    }

    /// The semantic diff against the published head: the summary and the field changes by
    /// object under `title` (normally when `always`, else with -v), the canonical text diff with
    /// -v; the summary and field changes are kept in the JSON summary.
    pub(crate) fn bundle_diff(&self, title: &str, diff: &BundleDiff, always: bool) {
        self.block(&format!("{title}\n{diff}"), always);
        if !diff.text.is_empty() {
            self.block(&format!("text diff (keys sorted):\n{}", diff.text), false);
        }
        self.state().summary.diff = Some(diff.clone());
    }

    /// A warning: shown normally, not with -q.
    pub(crate) fn warn(&self, text: &str) {
        self.line(Verbosity::Normal, &format!("warning: {text}"));
    }

    /// What fetch-previous decided (as data, and in words); kept in the summary.
    pub(crate) fn decided<T: Serialize>(&self, decision: &T, text: &str) {
        self.line(Verbosity::Normal, &format!("    {text}"));
        let mut st = self.state();
        st.decisions.push(text.into());
        st.summary.notes.push(text.into());
        st.summary.decision = serde_json::to_value(decision).ok();
    }

    /// Something the run noticed and says once (e.g. a new `defaultChannel`); kept in the
    /// summary.
    pub(crate) fn note(&self, text: &str) {
        self.line(Verbosity::Normal, &format!("    {text}"));
        self.state().summary.notes.push(text.into());
    }

    /// Findings: errors always, warnings unless -q; all kept in the summary.
    pub(crate) fn findings(&self, findings: &[Finding]) {
        for f in findings {
            let min = match f.level {
                Level::Error => Verbosity::Quiet,
                Level::Warning => Verbosity::Normal,
            };
            self.line(min, &format!("    {f}"));
        }
        self.annotate(findings, None);
        self.state().summary.findings.extend_from_slice(findings);
    }

    pub(crate) fn published(&self, w: Write) {
        self.line(
            Verbosity::Normal,
            &format!(
                "    published {} to {}{}",
                w.what,
                w.target,
                digest_suffix(&w)
            ),
        );
        self.state().summary.published.push(w);
    }

    /// Something already published with the same content, left as it is.
    pub(crate) fn kept(&self, w: Write) {
        self.line(
            Verbosity::Normal,
            &format!(
                "    unchanged: {} at {}{}",
                w.what,
                w.target,
                digest_suffix(&w)
            ),
        );
        self.state().summary.kept.push(w);
    }

    /// A write skipped by --dry-run.
    pub(crate) fn skipped(&self, w: Write) {
        self.line(
            Verbosity::Normal,
            &format!(
                "    dry-run: skipped {} → {}{}",
                w.what,
                w.target,
                digest_suffix(&w)
            ),
        );
        self.state().summary.skipped.push(w);
    }

    /// What this run has written so far (`what → target`), for an interrupted run.
    pub(crate) fn written(&self) -> Vec<String> {
        self.state()
            .summary
            .published
            .iter()
            .map(|w| format!("{} → {}{}", w.what, w.target, digest_suffix(w)))
            .collect()
    }

    /// Records the channel head of the bundle being published. Unless the pipeline named the
    /// channel, the channel is the bundle's (its default): each release of `publish --history`
    /// names its own, so the summary names the last release's channel with its head.
    pub(crate) fn channel_head(&self, channel: &str, csv: &str) {
        let mut st = self.state();
        let given = st.channel_given;
        let s = &mut st.summary;
        s.channel_head = Some(csv.to_string());
        if !given || s.channel.is_none() {
            s.channel = Some(channel.to_string());
        }
    }

    /// Records how the command failed.
    pub(crate) fn fail(&self, e: &Error) {
        if self.github.is_some() {
            github::failure_lines(e).iter().for_each(|l| out::line(l));
        }
        let s = &mut self.state().summary;
        s.outcome = "failed";
        s.exit_code = e.exit_code();
        s.error = Some(Failure::of(e));
    }

    /// In GitHub Actions, a command that failed before its summary was printed (a pipeline file
    /// that does not parse, a plan's problems): the annotations, and for `run` and `publish`
    /// (`summarised`) the job summary and outputs, without printing the human summary.
    pub(crate) fn failed_in_ci(&self, e: &Error, summarised: bool) {
        let Some(files) = &self.github else { return };
        self.fail(e);
        if summarised {
            let mut st = self.state();
            st.finished = true;
            self.append_github(files, &st);
        }
    }

    fn append_github(&self, files: &github::Files, st: &State) {
        for e in github::write_files(files, &st.summary, st.mermaid.as_deref()) {
            self.line(Verbosity::Normal, &format!("warning: {e}"));
        }
    }

    /// Prints the closing summary once: JSON on stdout, or human lines on stderr.
    pub(crate) fn finish(&self) {
        let mut st = self.state();
        if st.finished {
            return;
        }
        st.finished = true;
        if let Some(files) = &self.github {
            self.append_github(files, &st);
        }
        if self.json {
            out::stdout(&format!(
                "{}\n",
                serde_json::to_string_pretty(&st.summary).expect("the summary serialises")
            ));
        } else {
            out::stderr(&st.summary.human(&st.decisions));
        }
    }

    /// Whether the summary was printed.
    pub(crate) fn finished(&self) -> bool {
        self.state().finished
    }

    /// The summary so far (tests).
    #[cfg(test)]
    pub(crate) fn summary(&self) -> Summary {
        self.state().summary.clone()
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

#[cfg(test)]
mod tests;
