//! `olm-release publish DIR`: the pipeline's package, verify and push steps on a bundle
//! folder someone already has (a rendered `_out/.../bundle`, a `registry pull`, a folder kept
//! in git), without a pipeline file.
//!
//! It is the same plan with fewer steps, not a second runner: the arguments resolve into a
//! [`PublishInputs`], [`plan::publish`] builds the steps (a preflight read of the registry
//! when it is an HTTP one, package from the folder, verify, push), and the executor runs them
//! as it runs a pipeline's. `publish --history TREE` is the same plan with those three steps
//! once per version folder of a package-manifest tree (each release the cumulative bundle
//! [`olm_release_olm::history`] reads); push compares digests, so running it again publishes
//! nothing new. Credentials come from `QUAY_TOKEN` or
//! `QUAY_USERNAME`/`QUAY_PASSWORD`, as for `run`.
//!
//! The package named by `--package` must be the bundle's `packageName`: OLM consumers find the
//! package under that name, and operator-courier refuses the same mismatch.

use crate::cli::PublishArgs;
use crate::error::{Problem, Problems, Result};
use crate::plan::{self, Plan, PublishInputs};
use crate::settings::{self, Env, RunMode};
use olm_release_olm::archive::Limits;
use olm_release_olm::validate::Categories;

/// The plan of `publish DIR --registry URL --namespace NS --package PKG --release VERSION`.
pub(crate) fn plan(args: &PublishArgs, env: &Env, limits: Limits) -> Result<Plan> {
    let mut problems = Vec::new();
    let release = match &args.release {
        Some(r) => settings::parse_version(r)
            .map_err(|e| problems.push(Problem::new("--release", e)))
            .ok()
            .map(Some),
        None => Some(None),
    };
    let mtime = settings::epoch_or_zero(env, &mut problems);
    let location = settings::registry_location(&args.at.registry, args.at.insecure)
        .map_err(|e| problems.push(Problem::new("--registry", e)))
        .ok();
    let categories = match &args.categories {
        Some(file) => Categories::read(file)
            .map_err(|e| problems.push(Problem::new("--categories", e.to_string())))
            .ok(),
        None => None,
    };
    for a in &args.accept {
        if let Err(e) = olm_release_olm::validate::accept::check(&a.rule, args.profile) {
            problems.push(Problem::new("--accept", e));
        }
    }
    let (Some(release), Some(location)) = (release, location) else {
        return Err(Problems(problems).into());
    };
    if !problems.is_empty() {
        return Err(Problems(problems).into());
    }
    let inputs = PublishInputs {
        path: args.dir.clone(),
        location,
        credentials: settings::registry_credentials(env),
        http: super::registry::http_options(&args.at),
        retry: Default::default(),
        namespace: args.namespace.clone(),
        package: args.package.clone(),
        release,
        mode: RunMode {
            dry_run: args.dry_run,
            force: args.force,
        },
        layout: args.layout,
        mtime,
        ci: crate::ci::CiContext::from_env(env),
        checks: plan::VerifyStep {
            profile: args.profile,
            operatorhub: args.operatorhub,
            categories,
            provided: args.provided.clone(),
            accepted: args.accept.clone(),
        },
        limits,
    };
    Ok(plan::publish(&inputs)?)
}
