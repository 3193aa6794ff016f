//! Building plans: a pipeline's ([`build`]), `render`'s ([`render_only`]) and `publish`'s
//! ([`publish`]). Pure apart from reading the source tree (to know the rendered file names
//! and the commit time) and never writing anything.
//!
//! The stage order is fixed by what each stage consumes: render → fetch-previous → package →
//! verify → push (a bundle is never pushed unverified), and release after render when its
//! assets are rendered files. Each stage names the sections it needs; a missing one is a
//! problem naming the stage and the `stages:` line.

use std::path::{Path, PathBuf};

use super::checks;
use super::time::created_at;
use super::{
    BundleSource, FetchStep, Header, PackageStep, Plan, PushStep, RegistryJob, RenderStep, Step,
    VerifyStep,
};
use crate::ci::CiContext;
use crate::error::{Problem, Problems};
use crate::olm::archive::{Layout, Limits};
use crate::olm::validate::Profile;
use crate::pipeline::StageName;
use crate::registry::Location;
use crate::registry::appr::Credentials;
use crate::settings::{RunMode, Settings, resolve_path};

/// Builds the plan of a pipeline, or lists every problem that stops it.
pub(crate) fn build(s: &Settings) -> Result<Plan, Problems> {
    let mut b = Builder::new(s);
    b.stage_order();
    let mut steps = Vec::new();
    for &stage in &s.stages {
        if let Some(step) = b.step(stage) {
            steps.push(step);
        }
    }
    let checks = checks::preflight(s, &steps, &mut b.notes);
    if let Some(release) = steps.iter().find_map(|st| match st {
        Step::Release(r) => Some(r),
        _ => None,
    }) {
        let render = steps.iter().find_map(|st| match st {
            Step::Render(r) => Some(r),
            _ => None,
        });
        let packaged = steps.iter().any(|st| matches!(st, Step::Package(_)));
        b.problems
            .extend(checks::assets(s, release, render, packaged));
    }
    b.problems.extend(checks::credentials(s, &steps));
    if !checks.checks.is_empty() {
        steps.insert(0, Step::Preflight(checks));
    }
    b.finish(steps)
}

/// The render step alone (`olm-release render`), into `into`.
pub(crate) fn render_only(s: &Settings, into: PathBuf) -> Result<super::RenderStep, Problems> {
    let mut b = Builder::new(s);
    let step = b.render(into);
    if !b.problems.is_empty() {
        return Err(Problems(b.problems));
    }
    step.ok_or_else(|| Problems(vec![Problem::new(&s.file.shown, "nothing to render")]))
}

/// What `publish` is asked to do.
#[derive(Debug, Clone)]
pub(crate) struct PublishInputs {
    /// The bundle folder, `bundle.yaml` or `.tar.gz`.
    pub(crate) path: PathBuf,
    pub(crate) location: Location,
    pub(crate) credentials: Option<Credentials>,
    pub(crate) http: crate::http::HttpOptions,
    pub(crate) retry: crate::retry::RetryPolicy,
    pub(crate) namespace: String,
    pub(crate) package: String,
    pub(crate) release: semver::Version,
    pub(crate) mode: RunMode,
    pub(crate) layout: Layout,
    pub(crate) mtime: u64,
    pub(crate) ci: CiContext,
    /// Limits on reading the bundle (`--max-bundle-bytes`).
    pub(crate) limits: Limits,
}

/// `publish`: the package, verify and push steps of a pipeline, on a bundle folder.
pub(crate) fn publish(p: &PublishInputs) -> Result<Plan, Problems> {
    let registry = RegistryJob {
        location: p.location.clone(),
        credentials: p.credentials.clone(),
        http: p.http,
        retry: p.retry,
    };
    let release = p.release.to_string();
    let steps = vec![
        Step::Package(PackageStep {
            bundle: BundleSource::Folder {
                path: p.path.clone(),
            },
            folder: None,
            tarball: None,
            shown: format!("{}-{release}.tar.gz", p.package),
            layout: p.layout,
            mtime: p.mtime,
            package: p.package.clone(),
            version: release.clone(),
            channel: None,
            show_contents: false,
            limits: p.limits,
        }),
        Step::Verify(VerifyStep {
            profile: Profile::default(),
        }),
        Step::Push(PushStep {
            registry: registry.clone(),
            namespace: p.namespace.clone(),
            package: p.package.clone(),
            release: release.clone(),
            channel: None,
            force: p.mode.force,
            look_up_first: p.mode.force || p.mode.dry_run,
        }),
    ];
    // One server, one atomic write: no preflight is needed (see `checks::preflight`).
    let problems = checks::registry_credentials(&registry, p.mode.dry_run, "--registry");
    if !problems.is_empty() {
        return Err(Problems(problems));
    }
    Ok(Plan::new(
        Header {
            pipeline: "publish".into(),
            package: Some(p.package.clone()),
            channel: None,
            version: release,
            dry_run: p.mode.dry_run,
            force: p.mode.force,
            ci: p.ci.clone(),
            notes: Vec::new(),
        },
        steps,
    ))
}

struct Builder<'a> {
    s: &'a Settings,
    problems: Vec<Problem>,
    notes: Vec<String>,
}

impl<'a> Builder<'a> {
    fn new(s: &'a Settings) -> Self {
        Builder {
            s,
            problems: s.problems.clone(),
            notes: Vec::new(),
        }
    }

    fn finish(self, steps: Vec<Step>) -> Result<Plan, Problems> {
        if !self.problems.is_empty() {
            return Err(Problems(self.problems));
        }
        let s = self.s;
        Ok(Plan::new(
            Header {
                pipeline: s.name.clone(),
                package: s.package.clone(),
                channel: s.channel.clone(),
                version: s
                    .version
                    .as_ref()
                    .map(ToString::to_string)
                    .unwrap_or_default(),
                dry_run: s.mode.dry_run,
                force: s.mode.force,
                ci: s.ci.clone(),
                notes: self.notes,
            },
            steps,
        ))
    }

    fn stages_at(&self) -> String {
        self.s.file.at(&["stages"])
    }

    fn problem(&mut self, at: String, message: String) {
        self.problems.push(Problem::new(at, message));
    }

    /// Stages appear once each, in an order that respects what each consumes.
    fn stage_order(&mut self) {
        use StageName::*;
        let stages = &self.s.stages;
        let pos = |s: StageName| stages.iter().position(|x| *x == s);
        let at = self.stages_at();
        for (i, s) in stages.iter().enumerate() {
            if stages[..i].contains(s) {
                self.problem(at.clone(), format!("stages: '{s}' is listed twice"));
            }
        }
        let release_needs_render = self.s.release.as_ref().is_some_and(|r| {
            r.assets
                .iter()
                .any(|a| matches!(a, crate::pipeline::model::AssetEntry::Name(_)))
        });
        let mut needs: Vec<(StageName, StageName, &str)> = vec![
            (FetchPrevious, Render, ""),
            (Package, Render, ""),
            (Verify, Package, ""),
            (Push, Package, ""),
            (Push, Verify, " (a bundle is never pushed unverified)"),
        ];
        if release_needs_render {
            needs.push((Release, Render, " (release.assets names rendered files)"));
        }
        for (stage, dep, why) in needs {
            let Some(at_stage) = pos(stage) else { continue };
            if pos(dep).is_none_or(|d| d >= at_stage) {
                self.problem(
                    at.clone(),
                    format!("stages: '{stage}' needs '{dep}' before it{why}"),
                );
            }
        }
        if let (Some(f), Some(p)) = (pos(FetchPrevious), pos(Package))
            && f > p
        {
            self.problem(
                at,
                "stages: 'fetch-previous' must come before 'package'".into(),
            );
        }
    }

    /// A section or value a stage needs; a problem naming both when it is missing.
    fn need<T: Clone>(&mut self, stage: StageName, what: &str, value: Option<&T>) -> Option<T> {
        if value.is_none() {
            let at = self.stages_at();
            self.problem(
                at,
                format!("stages: '{stage}' needs {what}, which the pipeline does not have"),
            );
        }
        value.cloned()
    }

    fn step(&mut self, stage: StageName) -> Option<Step> {
        let s = self.s;
        Some(match stage {
            StageName::Render => Step::Render(self.render(s.out.join("render"))?),
            StageName::FetchPrevious => {
                let (registry, namespace, package) = self.registry(stage)?;
                let channel = self.need(stage, "channel: (the OLM channel)", s.channel.as_ref())?;
                Step::FetchPrevious(FetchStep {
                    older: s.registry.as_ref()?.older,
                    registry,
                    namespace,
                    package,
                    channel,
                    show_diff: s.mode.dry_run,
                    limits: s.bundle_limits,
                })
            }
            StageName::Package => {
                let package = self.need(stage, "package: (the OLM package)", s.package.as_ref())?;
                let version = s.version.as_ref()?.to_string();
                let tarball = s.out.join(format!("{package}-{version}.tar.gz"));
                Step::Package(PackageStep {
                    bundle: BundleSource::Pipeline,
                    folder: Some(s.out.join("bundle")),
                    shown: tarball.display().to_string(),
                    tarball: Some(tarball),
                    layout: s.registry.as_ref().map(|r| r.layout).unwrap_or_default(),
                    mtime: s.source_date_epoch.unwrap_or(0),
                    package,
                    version,
                    channel: s.channel.clone(),
                    show_contents: s.mode.dry_run,
                    limits: s.bundle_limits,
                })
            }
            StageName::Verify => Step::Verify(VerifyStep {
                profile: Profile::default(),
            }),
            StageName::Push => {
                let (registry, namespace, package) = self.registry(stage)?;
                Step::Push(PushStep {
                    registry,
                    namespace,
                    package,
                    release: s.version.as_ref()?.to_string(),
                    channel: s.channel.clone(),
                    force: s.mode.force,
                    look_up_first: s.mode.force || s.mode.dry_run,
                })
            }
            StageName::Release => {
                let release = self.need(stage, "a release: section", s.release.as_ref())?;
                Step::Release(checks::release_step(s, &release)?)
            }
        })
    }

    /// The registry job, namespace and package a registry stage needs.
    fn registry(&mut self, stage: StageName) -> Option<(RegistryJob, String, String)> {
        let s = self.s;
        let r = self.need(stage, "a registry: section", s.registry.as_ref())?;
        let package = self.need(stage, "package: (the OLM package)", s.package.as_ref())?;
        let job = RegistryJob {
            location: r.location?,
            credentials: s.credentials.registry.clone(),
            http: r.http,
            retry: r.retry,
        };
        Some((job, r.namespace, package))
    }

    fn render(&mut self, into: PathBuf) -> Option<RenderStep> {
        let s = self.s;
        let stage = StageName::Render;
        let spec = self.need(stage, "a render: section", s.render.as_ref());
        let package = self.need(stage, "package: (the OLM package)", s.package.as_ref());
        let channel = self.need(stage, "channel: (the OLM channel)", s.channel.as_ref());
        let (spec, package, channel, version) = (spec?, package?, channel?, s.version.as_ref()?);
        let templates = resolve_path(&s.source, Path::new(&spec.templates));
        if !templates.is_dir() {
            self.problem(
                s.file.at(&["render", "templates"]),
                format!(
                    "render.templates: {} is not a folder (paths are relative to --source {})",
                    templates.display(),
                    s.source.display()
                ),
            );
            return None;
        }
        let includes = spec
            .includes
            .iter()
            .map(|(k, dir)| (k.clone(), resolve_path(&s.source, Path::new(dir))))
            .collect();
        Some(RenderStep {
            templates,
            templates_shown: spec.templates.trim_end_matches('/').to_string(),
            bundle_dir: spec.bundle.clone(),
            into,
            source: s.source.clone(),
            version: version.to_string(),
            package,
            channel,
            created_at: created_at(s.source_date_epoch, &s.source),
            includes,
            vars: spec.vars.clone(),
            functions: spec.functions,
            csv: spec.csv.clone().unwrap_or_default(),
            pipeline_file: s.file.shown.clone(),
        })
    }
}
