//! Building plans: a pipeline's ([`build`]) and `render`'s ([`render_only`]); `publish`'s is in
//! [`super::publish`]. Pure apart from reading the source tree (to know the rendered file names
//! and the commit time) and never writing anything.
//!
//! The stage order is fixed by what each stage consumes: render → fetch-previous → package →
//! verify → push (a bundle is never pushed unverified), verify → bundle-image → catalog (nor a
//! bundle image; the catalog lists it by digest), and release after render when its assets
//! are rendered files. Each stage names the sections it needs; a missing one is a
//! problem naming the stage and the `stages:` line.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::checks;
use super::document::{Header, Plan};
use super::steps::{
    BundleSource, FetchSource, FetchStep, PackageStep, PushStep, RegistryJob, RenderStep, Step,
    VerifyStep,
};
use super::time::created_at;
use crate::error::{Problem, Problems};
use crate::pipeline::StageName;
use crate::settings::{Settings, resolve_path};

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
            Step::Render(r) => Some(r.as_ref()),
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
pub(crate) fn render_only(
    s: &Settings,
    into: PathBuf,
) -> Result<super::steps::RenderStep, Problems> {
    let mut b = Builder::new(s);
    let step = b.render(into);
    if !b.problems.is_empty() {
        return Err(Problems(b.problems));
    }
    step.ok_or_else(|| Problems(vec![Problem::new(&s.file.shown, "nothing to render")]))
}

struct Builder<'a> {
    s: &'a Settings,
    problems: Vec<Problem>,
    notes: Vec<String>,
    /// What stops the plan from using the catalog target (reported once, by the step that
    /// owns them).
    catalog: Option<Vec<Problem>>,
}

impl<'a> Builder<'a> {
    fn new(s: &'a Settings) -> Self {
        Builder {
            s,
            problems: s.problems.clone(),
            notes: Vec::new(),
            catalog: None,
        }
    }

    /// Reports (once, `report`: by the step that owns them) what stops the plan from using the
    /// catalog target.
    fn catalog_problems(&mut self, report: bool) {
        let s = self.s;
        let found = self
            .catalog
            .get_or_insert_with(|| super::catalog::target_problems(s));
        if report {
            let found = std::mem::take(found);
            self.problems.extend(found);
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
                warnings: s.warnings.clone(),
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
            (
                BundleImage,
                Verify,
                " (a bundle image is never pushed unverified)",
            ),
            (
                Catalog,
                BundleImage,
                " (the catalog lists the bundle image by digest)",
            ),
            (
                Operatorhub,
                Verify,
                " (a bundle is never proposed unverified)",
            ),
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
            StageName::Render => Step::Render(Box::new(self.render(s.out.join("render"))?)),
            StageName::FetchPrevious => {
                // The app registry when there is one (a pipeline publishing both ways reads it,
                // and the heads-agreement check compares it with the catalog); else the catalog.
                let (source, package, older) = match (&s.registry, &s.catalog) {
                    (None, Some(c)) => {
                        let package =
                            self.need(stage, "package: (the OLM package)", s.package.as_ref())?;
                        // The catalog step reports the target's problems; a plan without it
                        // (fetch-previous alone) reports them here.
                        self.catalog_problems(!s.stages.contains(&StageName::Catalog));
                        let source = FetchSource::Catalog(super::catalog::fetch_source(s)?);
                        (source, package, c.older)
                    }
                    _ => {
                        let (registry, namespace, package) = self.registry(stage)?;
                        // The catalog the registry's decision must agree with.
                        let catalog = match s.stages.contains(&StageName::Catalog) {
                            true => {
                                self.catalog_problems(false);
                                super::catalog::target(s)
                            }
                            false => None,
                        };
                        let source = FetchSource::Registry {
                            registry: Box::new(registry),
                            namespace,
                            catalog,
                            lock: s.stages.contains(&StageName::Push),
                        };
                        (source, package, s.registry.as_ref()?.older)
                    }
                };
                let channel = self.need(stage, "channel: (the OLM channel)", s.channel.as_ref())?;
                let head_images =
                    super::images::bundle_image_step(s, package.clone(), channel.clone())
                        .map(|b| (b.name, b.image));
                Step::FetchPrevious(FetchStep {
                    head_images,
                    older,
                    source,
                    package,
                    channel,
                    channels: s.channels.clone(),
                    show_diff: s.mode.dry_run,
                    allow_removed_crd_versions: s.verify.allow_removed_crd_versions,
                    limits: s.bundle_limits,
                })
            }
            StageName::Package => {
                let package = self.need(stage, "package: (the OLM package)", s.package.as_ref())?;
                let version = s.version.clone()?;
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
                    checks: verify_step(s),
                    limits: s.bundle_limits,
                })
            }
            StageName::Verify => Step::Verify(verify_step(s)),
            StageName::Push => {
                let (registry, namespace, package) = self.registry(stage)?;
                Step::Push(PushStep {
                    registry,
                    namespace,
                    package,
                    release: s.version.clone()?,
                    channel: s.channel.clone(),
                    force: s.mode.force,
                    look_up_first: s.mode.force || s.mode.dry_run,
                })
            }
            StageName::Release => {
                let release = self.need(stage, "a release: section", s.release.as_ref())?;
                let notes = match super::notes::resolve(s, &release, &mut self.notes) {
                    Ok(n) => n,
                    Err(p) => {
                        self.problems.push(p);
                        super::notes::Notes::None
                    }
                };
                Step::Release(checks::release_step(s, &release, notes)?)
            }
            StageName::BundleImage => {
                self.need(stage, "a bundle_image: section", s.bundle_image.as_ref())?;
                let (package, channel) = self.package_channel(stage)?;
                Step::BundleImage(super::images::bundle_image_step(s, package, channel)?)
            }
            StageName::Catalog => {
                self.need(stage, "a catalog: section", s.catalog.as_ref())?;
                let (package, channel) = self.package_channel(stage)?;
                self.catalog_problems(true);
                Step::Catalog(super::catalog::catalog_step(s, package, channel)?)
            }
            StageName::Operatorhub => {
                self.need(stage, "an operatorhub: section", s.operatorhub.as_ref())?;
                let (package, channel) = self.package_channel(stage)?;
                let mut found = Vec::new();
                let step = super::operatorhub::operatorhub_step(s, package, &channel, &mut found);
                self.problems.extend(found);
                Step::Operatorhub(Box::new(step?))
            }
        })
    }

    /// The package and channel a stage needs.
    fn package_channel(&mut self, stage: StageName) -> Option<(String, String)> {
        let s = self.s;
        let package = self.need(stage, "package: (the OLM package)", s.package.as_ref());
        let channel = self.need(stage, "channel: (the OLM channel)", s.channel.as_ref());
        Some((package?, channel?))
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
            concurrent_wait: r.concurrent_wait,
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
                    "render.templates: {} is not a folder (paths are relative to --source {}){}",
                    templates.display(),
                    s.source.display(),
                    checks::source_hint(s, &templates)
                ),
            );
            return None;
        }
        let file_at =
            |p: &Option<String>| p.as_ref().map(|f| resolve_path(&s.source, Path::new(f)));
        let (package_file, crds) = (file_at(&spec.package), file_at(&spec.crds));
        if let Some(f) = package_file.as_ref().filter(|f| !f.is_file()) {
            self.problem(
                s.file.at(&["render", "package"]),
                format!("render.package: {} is not a file", f.display()),
            );
        }
        if let Some(d) = crds.as_ref().filter(|d| !d.is_dir()) {
            self.problem(
                s.file.at(&["render", "crds"]),
                format!("render.crds: {} is not a folder", d.display()),
            );
        }
        if let Some(d) = &s.default_channel
            && !s.channels.contains(d)
        {
            self.notes.push(format!(
                "default_channel '{d}' is not among this release's channels; the package file must declare it"
            ));
        }
        let includes: BTreeMap<String, PathBuf> = spec
            .includes
            .iter()
            .map(|(k, dir)| (k.clone(), resolve_path(&s.source, Path::new(dir))))
            .collect();
        for name in spec.files.keys().filter(|k| spec.includes.contains_key(*k)) {
            self.problem(
                s.file.at(&["render", "files", name]),
                format!(
                    "render.files.{name}: {name} is in render.includes too; a variable is one folder, rendered (includes) or inserted as it is (files)"
                ),
            );
        }
        let files: BTreeMap<String, PathBuf> = spec
            .files
            .iter()
            .map(|(k, dir)| (k.clone(), resolve_path(&s.source, Path::new(dir))))
            .collect();
        for (key, folders) in [("includes", &includes), ("files", &files)] {
            for (name, dir) in folders.iter().filter(|(_, d)| !d.is_dir()) {
                self.problem(
                    s.file.at(&["render", key, name]),
                    format!(
                        "render.{key}.{name}: {} is not a folder (paths are relative to --source {})",
                        dir.display(),
                        s.source.display()
                    ),
                );
            }
        }
        Some(RenderStep {
            templates,
            templates_shown: spec.templates.trim_end_matches('/').to_string(),
            bundle_dir: spec.bundle.clone(),
            into,
            source: s.source.clone(),
            version: version.clone(),
            package,
            channel,
            channels: s.channels.clone(),
            default_channel: s.default_channel.clone(),
            skips: s.skips.clone(),
            skip_range: s.skip_range.clone(),
            package_file,
            crds,
            created_at: created_at(s.source_date_epoch, &s.source),
            includes,
            files,
            vars: spec.vars.clone(),
            functions: spec.functions,
            csv: spec.csv.clone().unwrap_or_default(),
            kustomize: spec.kustomize.clone(),
            pipeline_file: s.file.shown.clone(),
            release_tag: s
                .ci
                .tag
                .clone()
                .or_else(|| s.release.as_ref().map(|r| r.tag.clone())),
        })
    }
}

/// The verify step as the settings say: the pipeline's profile and OperatorHub switch, and the
/// categories file; the package step checks with the same.
fn verify_step(s: &Settings) -> VerifyStep {
    VerifyStep {
        profile: s.verify.profile,
        operatorhub: s.verify.operatorhub,
        categories: s.categories.clone(),
        provided: s.verify.provided.clone(),
        accepted: s.accepted.clone(),
    }
}
