//! The plan as text: one numbered line per step and its inputs beneath, exactly the steps the
//! executor runs. `run` prints it first (with `-v`), so a log starts with what the run is about
//! to do.

use std::fmt;

use super::document::Plan;
use super::notes::Notes;
use super::release_step::{ReleaseStep, ReleaseTarget, Sums};
use super::steps::{
    BundleSource, Check, FetchSource, FetchStep, PackageStep, PreflightStep, PushStep, RenderStep,
    Step, layout_str,
};
use super::time::TimeSource;
use crate::pipeline::OlderPolicy;
use olm_release_appregistry::appr::Credentials;
use olm_release_olm::csv_build::spec::CreatedAtPolicy;

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = &self.header;
        let mode = if h.dry_run { " (dry-run)" } else { "" };
        write!(f, "Plan{mode}: {} —", h.pipeline)?;
        if let Some(p) = &h.package {
            write!(f, " {p}")?;
        }
        write!(f, " {}", h.version)?;
        if let Some(c) = &h.channel {
            write!(f, " on channel {c}")?;
        }
        writeln!(f)?;
        if let Some(ci) = &h.ci.provider {
            writeln!(
                f,
                "  CI: {ci} (tag {}, branch {}, build {})",
                h.ci.tag.as_deref().unwrap_or("-"),
                h.ci.branch.as_deref().unwrap_or("-"),
                h.ci.build_number.as_deref().unwrap_or("-")
            )?;
        }
        for n in &h.notes {
            writeln!(f, "  note: {n}")?;
        }
        for (i, step) in self.steps.iter().enumerate() {
            writeln!(f, "  {}. {}", i + 1, step.name())?;
            for d in details(step) {
                writeln!(f, "       {d}")?;
            }
        }
        Ok(())
    }
}

fn details(step: &Step) -> Vec<String> {
    match step {
        Step::Preflight(p) => preflight(p),
        Step::Render(r) => render(r),
        Step::FetchPrevious(s) => fetch(s),
        Step::Package(p) => package(p),
        Step::Verify(v) => [
            format!(
                "validate the bundle (profile {}{}{}); stop on any error",
                v.profile.as_str(),
                if v.operatorhub {
                    ", with OperatorHub's rules"
                } else {
                    ""
                },
                v.categories
                    .as_ref()
                    .map(|c| format!(", categories of {}", c.path.display()))
                    .unwrap_or_default()
            ),
            format!(
                "say whether OLM v0 and OLM v1 install it{}",
                if v.profile == olm_release_olm::validate::Profile::OlmV1 {
                    " (profile olm-v1: what OLM v1 refuses is an error)"
                } else {
                    ""
                }
            ),
        ]
        .into_iter()
        .chain(v.accepted.iter().map(|a| {
            format!(
                "accept {} as a warning (verify.accept: {})",
                a.shown(),
                a.because
            )
        }))
        .collect(),
        Step::Push(p) => push(p),
        Step::Release(r) => release(r),
        Step::BundleImage(b) => super::images::show_bundle_image(b),
        Step::Catalog(c) => super::catalog::show_catalog(c),
        Step::Operatorhub(o) => super::operatorhub::show_operatorhub(o),
        Step::Migrate(m) => super::migrate::show(m),
        Step::Import(m) => super::import::show(m),
    }
}

fn creds(c: Option<&Credentials>) -> &'static str {
    c.map(Credentials::source).unwrap_or("none")
}

fn preflight(p: &PreflightStep) -> Vec<String> {
    p.checks
        .iter()
        .map(|c| match c {
            Check::Registry {
                registry,
                namespace,
                package,
            } => format!(
                "registry: read the releases of {namespace}/{package} at {} (credentials: {})",
                registry.location,
                creds(registry.credentials.as_ref())
            ),
            Check::Image { image, tag } => format!(
                "image: read the tag {tag} at {} (credentials: {})",
                image.target.describe(),
                image.credentials.unwrap_or("none")
            ),
            Check::GitHub(g) => format!(
                "github: read the releases of {}/{} at {} (credentials: {})",
                g.owner,
                g.repo,
                g.api,
                g.credentials.unwrap_or("none")
            ),
        })
        .collect()
}

fn render(r: &RenderStep) -> Vec<String> {
    let from = match r.created_at.from {
        TimeSource::SourceDateEpoch => "SOURCE_DATE_EPOCH",
        TimeSource::GitCommit => "the commit time of HEAD",
        TimeSource::Epoch => "neither SOURCE_DATE_EPOCH nor a git checkout",
    };
    let mut lines = vec![
        format!(
            "templates {} (bundle folder '{}')",
            r.templates.display(),
            r.bundle_dir
        ),
        format!("into {}", r.into.display()),
        format!(
            "createdAt {} ({from}){}",
            r.created_at.value,
            match r.csv.created_at {
                CreatedAtPolicy::Keep => ": {{.CreatedAt}}; the CSV's own annotation kept",
                CreatedAtPolicy::Set => ", set in the CSV",
            }
        ),
    ];
    if let Some(p) = &r.package_file {
        lines.push(format!("package file {}", p.display()));
    }
    if let Some(c) = &r.crds {
        lines.push(format!("CRDs from {}", c.display()));
    }
    if r.channels.len() > 1 {
        lines.push(format!(
            "channels {} (replaces the head of {}, skips the others' heads)",
            r.channels.join(", "),
            r.channel
        ));
    }
    lines
}

fn fetch(s: &FetchStep) -> Vec<String> {
    let read = match &s.source {
        FetchSource::Registry {
            registry,
            namespace,
            ..
        } => format!(
            "read the default release of {} {namespace}/{}",
            registry.location, s.package
        ),
        FetchSource::Catalog(c) => format!(
            "read the channel heads of package {} in the catalog {} (no registry: section; a missing {} is a first release)",
            s.package,
            c.target.describe(),
            match c.target.as_ref() {
                crate::settings::CatalogTarget::Dir { .. } => "folder",
                crate::settings::CatalogTarget::Git(_) => "branch or folder",
                crate::settings::CatalogTarget::Image(_) => "tag",
            }
        ),
    };
    let mut out = vec![
        read,
        format!(
            "find the head of channel {} to fill replaces; versions below it: {}",
            s.channel,
            match s.older {
                OlderPolicy::Refuse => "refuse",
                OlderPolicy::Skip => "skip (publish nothing)",
            }
        ),
    ];
    let from = match (&s.source, &s.head_images) {
        (FetchSource::Registry { .. }, _) => Some(String::new()),
        (FetchSource::Catalog(_), Some((_, job))) => Some(format!(
            " (its bundle image read from {})",
            job.target.describe()
        )),
        (FetchSource::Catalog(_), None) => None,
    };
    if let Some(from) = from {
        out.push(format!(
            "show what changes in the cluster from the head{from}, as OLM v1 installs both; a CRD version the head serves and this release drops: {}",
            if s.allow_removed_crd_versions {
                "allowed (verify.allow_removed_crd_versions)"
            } else {
                "refuse"
            }
        ));
    }
    out
}

fn package(p: &PackageStep) -> Vec<String> {
    let mut out = Vec::new();
    if let BundleSource::Folder { path } = &p.bundle {
        out.push(format!("read the bundle {}", path.display()));
    }
    if let Some(folder) = &p.folder {
        out.push(format!("bundle folder {}", folder.display()));
    }
    out.push(format!(
        "tarball {} ({} layout, mtime {})",
        p.shown,
        layout_str(p.layout),
        p.mtime
    ));
    out
}

fn push(p: &PushStep) -> Vec<String> {
    vec![
        format!(
            "push release {} to {} {}/{}{}",
            p.release,
            p.registry.location,
            p.namespace,
            p.package,
            if p.force { " (--force)" } else { "" }
        ),
        format!("credentials: {}", creds(p.registry.credentials.as_ref())),
    ]
}

fn release(r: &ReleaseStep) -> Vec<String> {
    let target = match &r.target {
        ReleaseTarget::Dir { root } => format!("attach to {}", root.join(&r.tag).display()),
        ReleaseTarget::GitHub(g) => format!(
            "attach to the GitHub release {} of {}/{} at {}{}{}",
            r.tag,
            g.owner,
            g.repo,
            g.api,
            if r.prerelease { " (prerelease)" } else { "" },
            if r.draft { " (draft)" } else { "" }
        ),
    };
    let names: Vec<String> = r.assets.iter().map(|a| a.shown()).collect();
    let sums = match r.sums {
        Sums::Generate => " + SHA256SUMS",
        Sums::Given => " (SHA256SUMS given: checked against the others)",
        Sums::None => "",
    };
    let notes = match &r.notes {
        Notes::None => "notes: none".to_string(),
        Notes::Text {
            from, first_line, ..
        } => format!("notes: {from} (\"{first_line}\")"),
        Notes::Summary => "notes: the semantic summary from fetch-previous".to_string(),
    };
    vec![target, format!("assets: {}{sums}", names.join(", ")), notes]
}
