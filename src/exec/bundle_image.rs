//! The bundle-image step: the verified CSV, its CRDs and the bundle folder's other objects
//! (RBAC, ConfigMaps, … as render read them) become the registry+v1 bundle folder
//! (written under the run's output folder), its reproducible single-layer image, and a push to
//! the image target by the idempotency rule of [`olm_release_oci::push`] (the same digest at the tag
//! is left alone; another is refused unless `--force`; the manifest is read back by digest).
//!
//! The decision is made read-only first ([`olm_release_oci::check`]); the push itself is the one
//! write, asked at the gate, so a dry-run prints the digest it would push and what the tag
//! holds, and writes nothing to the target.

use super::outputs::{Imaged, Verified};
use crate::error::{Error, Result};
use crate::plan::BundleImageStep;
use crate::report::Reporter;
use olm_release_http::events::{Gate, Write};
use olm_release_oci::{self as oci, Decision, Event, PushOutcome, PushRequest, Store};
use olm_release_olm::bundle_image::{BundleFolder, BundleMetadata, ReleaseBundle, build_image};
use olm_release_olm::decision::Decision as Fetched;

/// The bundle-image step.
pub(crate) async fn run(
    step: &BundleImageStep,
    store: &Store,
    report: &Reporter,
    gate: &dyn Gate,
    v: &Verified,
    ours: Option<String>,
) -> Result<Option<Imaged>> {
    if let Some(Fetched::SkipOlder { head }) = &v.decision {
        report.info(&format!(
            "below {head}, the head of the channel: no bundle image (policy 'skip')"
        ));
        return Ok(None);
    }
    let built = build(step, v)?;
    built.folder.write(&step.folder)?;
    report.info(&format!(
        "bundle folder {} ({}); image {}",
        step.folder.display(),
        olm_release_base::words::count(built.folder.files().len(), "file"),
        built.image.digest()
    ));
    let (existing, labels) = published_as(step, store, report, v, &built).await?;
    let Built { bundle, image, .. } = built;
    let ReleaseBundle {
        csv,
        objects,
        metadata,
        ..
    } = bundle;
    if let (Some(existing), Some(channels)) = (existing, labels) {
        // Pinned in the catalog only when the target holds it intact.
        store.verify(&existing)?;
        report.info(&format!(
            "{}:{} already holds the bundle image of this published CSV ({existing}), the same bundle labelled with channel{} {}: kept; the catalog's channel entries add the channels",
            store.describe(),
            step.tag,
            if channels.len() == 1 { "" } else { "s" },
            channels.join(", ")
        ));
        gate.kept(Write {
            what: format!("bundle image {}", step.name),
            target: format!("{}:{}", store.describe(), step.tag),
            digest: Some(existing.trim_start_matches("sha256:").to_string()),
        });
        let pinned = format!("{}@{existing}", step.name);
        return Ok(Some(Imaged {
            pinned,
            csv,
            objects,
            metadata,
        }));
    }
    // Deciding again after the catalog moved may change the CSV's replaces: the image this run
    // pushed a moment ago under the tag is replaced by the one the new decision gives.
    let replaces_ours = match &ours {
        Some(ours) if ours != image.digest() => {
            store
                .resolve(&step.tag, &|e: Event| event(report, e))
                .await?
                .as_ref()
                == Some(ours)
        }
        _ => false,
    };
    if replaces_ours {
        report.info(&format!(
            "{}:{} holds {} this run pushed before deciding again; replacing it",
            store.describe(),
            step.tag,
            ours.as_deref().unwrap_or_default()
        ));
    }
    let req = PushRequest {
        image: &image,
        tag: &step.tag,
        force: step.force || replaces_ours,
    };
    let pinned = publish(store, &req, &step.name, report, gate).await?;
    Ok(Some(Imaged {
        pinned,
        csv,
        objects,
        metadata,
    }))
}

/// The bundle of the verified release, built in memory: the release's bundle, its registry+v1
/// folder and the image.
struct Built {
    bundle: ReleaseBundle,
    folder: BundleFolder,
    image: olm_release_olm::bundle_image::OciImage,
}

/// Builds the step's bundle folder and image from `v` (nothing written).
fn build(step: &BundleImageStep, v: &Verified) -> Result<Built> {
    let bundle = release_bundle(&step.package, v)?;
    let folder = bundle.labelled(&step.channels)?;
    let image = build_image(&folder, step.epoch)?;
    Ok(Built {
        bundle,
        folder,
        image,
    })
}

/// For a published CSV (the same version again, or joining channels), the other image the tag
/// holds and, when it is this very bundle labelled with some of this release's channels, those
/// channels. The image at the tag was built when the version was first published, with the
/// channels of that release; a file-based catalog takes a bundle's channels from its own
/// channel entries, not from the image, so such an image is kept. Any other difference (the
/// content changed) is refused by the push, unless --force. Reads only.
async fn published_as(
    step: &BundleImageStep,
    store: &Store,
    report: &Reporter,
    v: &Verified,
    built: &Built,
) -> Result<(Option<String>, Option<Vec<String>>)> {
    let Built { bundle, image, .. } = built;
    let published = matches!(
        v.decision,
        Some(Fetched::AddChannels { .. } | Fetched::SameVersion { .. })
    );
    let existing = if published && !step.force {
        store
            .resolve(&step.tag, &|e: Event| event(report, e))
            .await?
            .filter(|e| e != image.digest())
    } else {
        None
    };
    let labels = match &existing {
        Some(existing) => {
            let package: Vec<String> = v.package.channels.iter().map(|c| c.name.clone()).collect();
            bundle.labels_of(&step.channels, &package, step.epoch, existing)?
        }
        None => None,
    };
    if let (Some(existing), None) = (&existing, &labels) {
        // The refusal says the tag holds another image; say why that is for a published
        // version, and what to do.
        report.note(&format!(
            "{} is already published, and {existing} at {}:{} is not this run's bundle with other channel labels: the content differs, or the CSV's replaces and skips do (a catalog-only pipeline takes them from the catalog entry of the release's first channel, so list first the channel the version was first published on)",
            bundle.csv.name().unwrap_or("this CSV"),
            store.describe(),
            step.tag
        ));
    }
    Ok((existing, labels))
}

/// What the step would refuse, asked read-only before the run's first write to any target: a
/// pipeline that pushes to the app registry before its bundle image would otherwise stop half
/// published when the image's tag holds another image of this version. The same decision the
/// step makes (the same image built in memory, the same published-image rule, the same
/// [`oci::check`]); a release skipped as older than the head has no image to refuse.
pub(super) async fn refusal(
    step: &BundleImageStep,
    store: &Store,
    report: &Reporter,
    v: &Verified,
) -> Result<()> {
    if let Some(Fetched::SkipOlder { .. }) = &v.decision {
        return Ok(());
    }
    let built = build(step, v)?;
    let (existing, labels) = published_as(step, store, report, v, &built).await?;
    if let (Some(existing), Some(_)) = (existing, labels) {
        store.verify(&existing)?;
        return Ok(());
    }
    let req = PushRequest {
        image: &built.image,
        tag: &step.tag,
        force: step.force,
    };
    oci::check(store, &req, &|e: Event| event(report, e)).await?;
    Ok(())
}

/// The registry+v1 bundle folder of the verified bundle `v` of `package` (the CSV, its CRDs
/// and the other objects), labelled with `channels`: what the `operatorhub` step proposes.
pub(super) fn bundle_folder(
    package: &str,
    v: &Verified,
    channels: &[String],
) -> Result<BundleFolder> {
    Ok(release_bundle(package, v)?.labelled(channels)?)
}

/// The verified bundle `v` of `package`, not yet labelled: the newest CSV, its CRDs and the
/// bundle folder's other objects (RBAC, ConfigMaps, …) as render read them and verify checked
/// them (OLM installs them from a registry+v1 bundle, so the image carries them), with the
/// bundle folder's metadata.
fn release_bundle(package: &str, v: &Verified) -> Result<ReleaseBundle> {
    let (csv, crds) = v
        .newest
        .clone()
        .ok_or_else(|| Error::internal("a bundle folder without a verified CSV"))?;
    Ok(ReleaseBundle {
        package: package.to_string(),
        default_channel: v.package.default_channel.clone(),
        csv,
        objects: crds.iter().chain(v.objects.iter()).cloned().collect(),
        metadata: metadata(v),
    })
}

/// The bundle folder's dependencies and properties files, its other annotations and its
/// scorecard tests, as render read them.
fn metadata(v: &Verified) -> BundleMetadata {
    v.files
        .as_ref()
        .map(|f| f.metadata.clone())
        .unwrap_or_default()
}

/// Pushes `req` through the gate by the idempotency rule, and returns `NAME@sha256:…`.
pub(super) async fn publish(
    store: &Store,
    req: &PushRequest<'_>,
    name: &str,
    report: &Reporter,
    gate: &dyn Gate,
) -> Result<String> {
    let events = |e: Event| event(report, e);
    let digest = req.image.digest().to_string();
    let write = Write {
        what: format!("bundle image {name}"),
        target: format!("{}:{}", store.describe(), req.tag),
        digest: Some(digest.trim_start_matches("sha256:").to_string()),
    };
    let decision = oci::check(store, req, &events).await?;
    let pinned = format!("{name}@{digest}");
    let holds = match &decision {
        Decision::New => "nothing".to_string(),
        Decision::Unchanged => digest.clone(),
        Decision::Overwrite { existing } => format!("{existing} (--force overwrites it)"),
    };
    if decision == Decision::Unchanged {
        gate.kept(write);
        return Ok(pinned);
    }
    if !gate.allow(&write) {
        report.info(&format!(
            "would push {digest} to {}; the tag holds {holds}",
            write.target
        ));
        return Ok(pinned);
    }
    match oci::push(store, req, &events).await? {
        PushOutcome::Unchanged { .. } => gate.kept(write),
        PushOutcome::Pushed { replaced, .. } => {
            if let Some(r) = replaced {
                report.warn(&format!("--force: {} held {r}", write.target));
            }
            gate.done(write);
        }
    }
    report.detail(&format!("catalog reference {pinned}"));
    Ok(pinned)
}

/// Shows an OCI client's event ([`Reporter::oci_event`]).
pub(super) fn event(report: &Reporter, e: Event) {
    report.oci_event(e);
}
