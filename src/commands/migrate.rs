//! `olm-release migrate`: a package's app-registry history to bundle images and a file-based
//! catalog. The arguments resolve into [`MigrateInputs`]; [`plan::migrate`] builds the plan
//! (one step), and the executor runs it with the same gate as a pipeline, so `--dry-run`
//! writes nothing and a rerun changes nothing.

use crate::cli::MigrateArgs;
use crate::error::{Problem, Problems, Result};
use crate::plan::{self, ImageJob, MigrateInputs, Plan, RegistryJob};
use crate::settings::{self, Env, RunMode};
use olm_release_oci::ImageLocation;

/// The plan of `migrate`.
pub(crate) fn plan(
    args: &MigrateArgs,
    env: &Env,
    limits: olm_release_olm::archive::Limits,
) -> Result<Plan> {
    let mut problems = Vec::new();
    let epoch = settings::epoch_or_zero(env, &mut problems);
    let location = settings::registry_location(&args.at.registry, args.at.insecure)
        .map_err(|e| problems.push(Problem::new("--registry", e)))
        .ok();
    let image = image_target(
        &args.image_target,
        args.image.as_deref(),
        args.at.insecure,
        &mut problems,
    );
    let secret = settings::image_credentials(env, &mut problems);
    let (Some(location), Some((target, name))) = (location, image) else {
        return Err(Problems(problems).into());
    };
    if !problems.is_empty() {
        return Err(Problems(problems).into());
    }
    let inputs = MigrateInputs {
        registry: RegistryJob {
            location,
            credentials: settings::registry_credentials(env),
            http: super::registry::http_options(&args.at),
            retry: Default::default(),
            concurrent_wait: crate::settings::CONCURRENT_WAIT,
        },
        namespace: args.namespace.clone(),
        package: args.package.clone(),
        image: ImageJob {
            target,
            credentials: secret.as_ref().map(|_| "OCI_USERNAME and OCI_PASSWORD"),
            secret,
            insecure: args.at.insecure,
            retry: Default::default(),
        },
        name,
        catalog: args.catalog.clone(),
        epoch,
        mode: RunMode {
            dry_run: args.dry_run,
            force: args.force,
        },
        ci: crate::ci::CiContext::from_env(env),
        limits,
        style: if args.bundle_objects {
            olm_release_olm::fbc::ObjectStyle::BundleObjects
        } else {
            olm_release_olm::fbc::ObjectStyle::CsvMetadata
        },
    };
    Ok(plan::migrate(inputs)?)
}

/// `--image-target` and `--image` (of `migrate` and `import`): where the bundle images go and
/// the name the catalog pins them by; `None` with a problem when either is unusable.
pub(super) fn image_target(
    image_target: &str,
    image: Option<&str>,
    insecure: bool,
    problems: &mut Vec<Problem>,
) -> Option<(ImageLocation, String)> {
    let target = ImageLocation::parse(image_target)
        .map_err(|e| problems.push(Problem::new("--image-target", e.to_string())))
        .ok()?;
    if let ImageLocation::Remote(r) = &target
        && r.base.scheme() == "http"
        && !olm_release_http::is_loopback(&r.base)
        && !insecure
    {
        problems.push(Problem::new(
            "--image-target",
            format!(
                "plain http to {} is refused off loopback; use https, or pass --insecure",
                r.describe()
            ),
        ));
    }
    let name = match (image, &target) {
        (Some(n), _) => n.to_string(),
        (None, ImageLocation::Remote(r)) => r.describe(),
        (None, ImageLocation::Layout(_)) => {
            problems.push(Problem::new(
                "--image",
                "an oci: target needs the image name the catalog lists (e.g. --image quay.io/ORG/REPOSITORY)",
            ));
            return None;
        }
    };
    Some((target, name))
}
