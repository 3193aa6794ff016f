//! The end-of-run summary: what a run decided, published, kept and skipped, and how it ended.
//!
//! With `--format json` it is the one document on stdout, for every outcome — success, a
//! failed stage (exit 1), bad input (exit 2, even before a plan exists) — in the versioned
//! shape `schemas/summary.v1.json` describes ([`SCHEMA`], [`VERSION`]). Otherwise it closes the
//! human output on stderr.

use serde::Serialize;

use crate::error::{Error, Problem, Problems};
use olm_release_base::Class;
use olm_release_http::events::Write;
use olm_release_olm::Finding;
use olm_release_olm::cluster::{Installable, UpgradeDiff};
use olm_release_olm::semdiff::BundleDiff;

/// What an upgrade changes in the cluster, and what it was compared with.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ClusterDiff {
    /// The channel head compared with (`NAME (release R)`).
    pub(crate) from: String,
    /// What the comparison could not include, in words (`None`: everything).
    pub(crate) without: Option<String>,
    pub(crate) diff: UpgradeDiff,
}

/// A ClusterCatalog and a ClusterExtension, as YAML documents.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct OlmV1Install {
    pub(crate) cluster_catalog: serde_json::Value,
    pub(crate) cluster_extension: serde_json::Value,
}

/// Names the document (`schema` field).
pub(crate) const SCHEMA: &str = "olm-release/summary";
/// The version of its shape; a change that removes or retypes a field bumps it.
pub(crate) const VERSION: u32 = 1;

/// How long a stage took and how it ended.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct StageReport {
    pub(crate) stage: String,
    pub(crate) seconds: f64,
    /// `ok` or `failed`.
    pub(crate) status: &'static str,
}

/// How the run ended.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Failure {
    pub(crate) class: Class,
    pub(crate) exit_code: i32,
    /// The message `error:` prints.
    pub(crate) message: String,
    /// The causes under it, outermost first.
    pub(crate) causes: Vec<String>,
    /// Every problem found before anything ran (exit 2 from the plan's checks).
    pub(crate) problems: Vec<Problem>,
}

impl Failure {
    pub(crate) fn of(e: &Error) -> Self {
        Failure {
            class: e.class(),
            exit_code: e.exit_code(),
            message: e.to_string(),
            causes: e.causes(),
            problems: e
                .typed::<Problems>()
                .map(|p| p.0.clone())
                .unwrap_or_default(),
        }
    }
}

/// The summary document.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Summary {
    pub(crate) schema: &'static str,
    pub(crate) schema_version: u32,
    /// `run`, `publish`, or the command that failed.
    pub(crate) command: String,
    /// `ok` or `failed`.
    pub(crate) outcome: &'static str,
    pub(crate) exit_code: i32,
    pub(crate) pipeline: Option<String>,
    pub(crate) package: Option<String>,
    pub(crate) channel: Option<String>,
    /// The release's version.
    pub(crate) version: Option<String>,
    pub(crate) dry_run: bool,
    pub(crate) stages: Vec<StageReport>,
    /// What fetch-previous decided, as data: `{"kind": "first" | "replaces" | "same_version"
    /// | "skip_older" | "add_channels", …}`.
    pub(crate) decision: Option<serde_json::Value>,
    /// The head of the channel in the bundle this run built.
    pub(crate) channel_head: Option<String>,
    /// What changes against the channel's published head, compared as data (added in version
    /// 1: null when fetch-previous found no head).
    pub(crate) diff: Option<BundleDiff>,
    /// Whether OLM v0 and OLM v1 install the release, with the reasons when not (added in
    /// version 1: absent before the verify step ran).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) installable: Option<Installable>,
    /// What the upgrade changes in the cluster against the channel's published head, from the
    /// install renderings of both (added in version 1: absent without a head).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) cluster_diff: Option<ClusterDiff>,
    /// The OLM v1 objects that install the release from its catalog image (added in version
    /// 1: absent without a catalog image).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) olm_v1_install: Option<OlmV1Install>,
    pub(crate) published: Vec<Write>,
    pub(crate) kept: Vec<Write>,
    pub(crate) skipped: Vec<Write>,
    pub(crate) findings: Vec<Finding>,
    /// What the run said along the way (decisions in words, notes), for people.
    pub(crate) notes: Vec<String>,
    pub(crate) error: Option<Failure>,
}

impl Default for Summary {
    fn default() -> Self {
        Summary {
            schema: SCHEMA,
            schema_version: VERSION,
            command: String::new(),
            outcome: "ok",
            exit_code: 0,
            pipeline: None,
            package: None,
            channel: None,
            version: None,
            dry_run: false,
            stages: Vec::new(),
            decision: None,
            channel_head: None,
            diff: None,
            installable: None,
            cluster_diff: None,
            olm_v1_install: None,
            published: Vec::new(),
            kept: Vec::new(),
            skipped: Vec::new(),
            findings: Vec::new(),
            notes: Vec::new(),
            error: None,
        }
    }
}

impl Summary {
    /// The lines that close a human run, on stderr.
    pub(crate) fn human(&self, decisions: &[String]) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let mode = if self.dry_run { " (dry-run)" } else { "" };
        let _ = writeln!(
            out,
            "Summary{mode}: {} {} on channel {}",
            self.package.as_deref().unwrap_or("-"),
            self.version.as_deref().unwrap_or("-"),
            self.channel.as_deref().unwrap_or("-")
        );
        if let (Some(head), Some(channel)) = (&self.channel_head, &self.channel) {
            let _ = writeln!(out, "  channel    {channel} → {head}");
        }
        for d in decisions {
            let _ = writeln!(out, "  decided    {d}");
        }
        if let Some(i) = &self.installable {
            let _ = writeln!(out, "  OLM v0     installs it: {}", i.olm_v0.to_line());
            let _ = writeln!(out, "  OLM v1     installs it: {}", i.olm_v1.to_line());
        }
        for (label, writes, suffix) in [
            ("published ", &self.published, ""),
            ("unchanged ", &self.kept, ""),
            ("skipped   ", &self.skipped, " (dry-run)"),
        ] {
            for w in writes {
                let sep = if label.starts_with("unchanged") {
                    "at"
                } else {
                    "->"
                };
                let _ = writeln!(
                    out,
                    "  {label} {} {sep} {}{}{suffix}",
                    w.what,
                    w.target,
                    digest_suffix(w)
                );
            }
        }
        let wrote = !(self.published.is_empty() && self.skipped.is_empty() && self.kept.is_empty());
        if !wrote && self.error.is_none() {
            let _ = writeln!(out, "  nothing was published");
        }
        // The error itself follows on its own `error:` line; it is not repeated here.
        if let Some(e) = &self.error {
            let _ = writeln!(out, "  failed     exit {}, the error is below", e.exit_code);
        }
        out
    }
}

pub(crate) fn digest_suffix(w: &Write) -> String {
    w.digest
        .as_ref()
        .map(|d| format!(" (sha256:{d})"))
        .unwrap_or_default()
}

/// A Markdown table cell or list item (the GitHub job summary): one line, pipes escaped.
pub(crate) fn cell(s: &str) -> String {
    s.replace('\n', " ").replace('|', "\\|")
}
