//! `olm-release import operators/PACKAGE`: a package of OperatorHub's community layout
//! ([`olm_release_olm::community`]) to bundle images and a file-based catalog. The arguments
//! resolve into [`ImportInputs`]; [`plan::import`] builds the plan (one step), and the executor
//! runs it with the same gate as a pipeline, so `--dry-run` writes nothing and a rerun writes
//! nothing. The catalog target is any the pipeline's `catalog.target` takes (`dir:`, `git:`,
//! `image:`, and a git: catalog proposed as a GitHub pull request with `--pull-request`), opened
//! and written by the catalog step's store.

use crate::cli::ImportArgs;
use crate::error::{Problem, Problems, Result};
use crate::plan::{self, ImageJob, ImportInputs, Plan};
use crate::settings::{self, Env, RunMode};

/// The plan of `import`.
pub(crate) fn plan(
    args: &ImportArgs,
    env: &Env,
    limits: olm_release_olm::archive::Limits,
) -> Result<Plan> {
    let mut problems = Vec::new();
    let epoch = settings::epoch_or_zero(env, &mut problems);
    let image = super::migrate::image_target(
        &args.image_target,
        args.image.as_deref(),
        args.insecure,
        &mut problems,
    );
    let cwd = std::env::current_dir().unwrap_or_default();
    // What the catalog target needs besides its flags, read here and reported below in order.
    let mut read = Vec::new();
    let github = settings::github_token(env);
    let secret = settings::image_credentials(env, &mut read);
    let git = settings::git_credentials(env, &mut read);
    let base_limits = settings::base_limits(env, &mut read);
    let package = args
        .dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stamp = || epoch;
    let run = settings::TargetRun {
        epoch: &stamp,
        git,
        github,
        image: secret.clone(),
        scratch: std::env::temp_dir().join(format!("olm-release-import-{}", std::process::id())),
        // The import does not try again (a moved target stops it, and a rerun writes what is
        // left), so these only describe the target.
        patience: olm_release_olm::fbc::swap::Patience {
            deadline: settings::DEFAULT_PUBLISH_DEADLINE,
            retries: Some(0),
        },
        budget: olm_release_http::retry::RetryPolicy::default().max_total,
        base_limits,
        pull_branch: format!("olm-release/{package}-import"),
        pull_title: format!("{package}: import every version into the catalog"),
    };
    let catalog = settings::command_target(
        &args.catalog,
        args.catalog_branch.as_deref(),
        args.catalog_path.as_deref(),
        args.base_image.as_deref(),
        &cwd,
        args.insecure,
        &run,
    )
    .map_err(|p| problems.extend(p))
    .ok();
    let catalog = match (catalog, args.pull_request) {
        (Some(mut target), true) => settings::command_pull_request(
            &mut target,
            args.pull_request_repository.as_deref(),
            args.pull_request_fork.as_deref(),
            args.github_api.as_deref(),
            args.insecure,
            &run,
        )
        .map(|()| target)
        .map_err(|p| problems.push(p))
        .ok(),
        (catalog, _) => catalog,
    };
    problems.append(&mut read);
    if !args.dir.is_dir() {
        problems.push(Problem::new(
            "DIR",
            format!(
                "{} is not a folder; give a package folder of the community layout (operators/PACKAGE)",
                args.dir.display()
            ),
        ));
    }
    let (Some((target, name)), Some(catalog)) = (image, catalog) else {
        return Err(Problems(problems).into());
    };
    if !problems.is_empty() {
        return Err(Problems(problems).into());
    }
    let mode = RunMode {
        dry_run: args.dry_run,
        force: args.force,
    };
    let inputs = ImportInputs {
        dir: args.dir.clone(),
        image: ImageJob {
            target,
            credentials: secret.as_ref().map(|_| "OCI_USERNAME and OCI_PASSWORD"),
            secret,
            insecure: args.insecure,
            retry: Default::default(),
        },
        name,
        catalog,
        epoch,
        mode,
        ci: crate::ci::CiContext::from_env(env),
        limits,
        style: if args.bundle_objects {
            olm_release_olm::fbc::ObjectStyle::BundleObjects
        } else {
            olm_release_olm::fbc::ObjectStyle::CsvMetadata
        },
    };
    Ok(plan::import(inputs)?)
}
