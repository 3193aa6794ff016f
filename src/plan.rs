//! The plan: settings turned into a printable list of steps, without touching anything.
//!
//! `olm-release plan` prints it; `run` prints it first too, so a log always starts with what the
//! run is about to do.

use serde::Serialize;

use crate::pipeline::StageName;
use crate::registry::appr::Credentials;
use crate::settings::{Settings, Target};

#[derive(Debug, Clone, Serialize)]
pub struct Plan {
    pub pipeline: String,
    pub package: String,
    pub channel: String,
    pub version: String,
    pub dry_run: bool,
    pub ci: crate::ci::CiContext,
    pub steps: Vec<Step>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Step {
    pub stage: StageName,
    pub details: Vec<String>,
}

/// Builds the plan (pure).
pub fn build(s: &Settings) -> Plan {
    let p = &s.pipeline;
    let steps = s
        .stages
        .iter()
        .map(|&stage| Step {
            stage,
            details: details(s, stage),
        })
        .collect();
    Plan {
        pipeline: p.name.clone(),
        package: p.package.clone(),
        channel: p.channel.clone(),
        version: s.version.to_string(),
        dry_run: s.dry_run,
        ci: s.ci.clone(),
        steps,
    }
}

fn details(s: &Settings, stage: StageName) -> Vec<String> {
    let p = &s.pipeline;
    let r = &s.registry;
    let registry = format!("{} {}/{}", r.location, r.namespace, p.package);
    match stage {
        StageName::Render => vec![
            format!(
                "templates {} (bundle folder '{}')",
                s.source.join(&p.render.templates).display(),
                p.render.bundle
            ),
            format!("into {}", s.out.join("render").display()),
        ],
        StageName::FetchPrevious => vec![
            format!("read the default release of {registry}"),
            format!(
                "find the head of channel {} to fill replaces; versions below it: {:?}",
                p.channel, r.older
            ),
        ],
        StageName::Package => vec![
            format!("bundle folder {}", s.out.join("bundle").display()),
            format!(
                "tarball {} ({:?} layout, mtime {})",
                s.out
                    .join(format!("{}-{}.tar.gz", p.package, s.version))
                    .display(),
                r.layout,
                s.source_date_epoch.unwrap_or(0)
            ),
        ],
        StageName::Verify => {
            vec!["validate the bundle (profile appregistry-2019); stop on any error".into()]
        }
        StageName::Push => vec![
            format!("push release {} to {registry}", s.version),
            format!(
                "credentials: {}",
                match &r.credentials {
                    Some(Credentials::Token(_)) => "QUAY_TOKEN",
                    Some(Credentials::Login { .. }) => "QUAY_USERNAME/QUAY_PASSWORD",
                    None => "none",
                }
            ),
        ],
        StageName::Release => match &s.release {
            None => vec![],
            Some(rel) => vec![
                match &rel.target {
                    Target::Dir(d) => format!("attach to {}", d.join(&rel.tag).display()),
                    Target::GitHub { api, owner, repo } => format!(
                        "attach to the GitHub release {} of {owner}/{repo} at {api}{}{}",
                        rel.tag,
                        if rel.prerelease { " (prerelease)" } else { "" },
                        if rel.draft { " (draft)" } else { "" }
                    ),
                },
                format!("assets: {} + SHA256SUMS", rel.assets.join(", ")),
            ],
        },
    }
}

impl std::fmt::Display for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mode = if self.dry_run { " (dry-run)" } else { "" };
        writeln!(
            f,
            "Plan{mode}: {} — {} {} on channel {}",
            self.pipeline, self.package, self.version, self.channel
        )?;
        if let Some(ci) = &self.ci.provider {
            writeln!(
                f,
                "  CI: {ci} (tag {}, branch {}, build {})",
                self.ci.tag.as_deref().unwrap_or("-"),
                self.ci.branch.as_deref().unwrap_or("-"),
                self.ci.build_number.as_deref().unwrap_or("-")
            )?;
        }
        for (i, step) in self.steps.iter().enumerate() {
            writeln!(f, "  {}. {}", i + 1, step.stage)?;
            for d in &step.details {
                writeln!(f, "       {d}")?;
            }
        }
        Ok(())
    }
}
