//! How the plan shows a catalog-image target ([`ImageTarget`], built by settings), and whether
//! a pipeline publishes one.

use crate::settings::ImageTarget;

/// The plan's text lines of a catalog-image target.
pub(crate) fn show(j: &ImageTarget) -> Vec<String> {
    let mut out = vec![
        "validate the whole catalog (opm validate rules); build an image only when it changed"
            .to_string(),
        format!(
            "build on {}: its layers mounted or copied, one new layer with the catalog under /configs (mtime {}); {}",
            j.base_shown,
            super::time::format_time(j.epoch),
            olm_release_oci::catalog_image::config_lines().join(", ")
        ),
        format!(
            "push by digest, then move the tag {} only if it still names the digest read; when it moved meanwhile, {}",
            j.tag,
            super::catalog::again(&j.patience)
        ),
    ];
    out.push(format!(
        "credentials: {}",
        j.image.credentials.unwrap_or("none")
    ));
    out
}

/// Whether the pipeline publishes a catalog image (a catalog stage with an `image:` target).
pub(crate) fn published(s: &crate::settings::Settings) -> bool {
    s.stages.contains(&crate::pipeline::StageName::Catalog)
        && s.catalog.as_ref().and_then(|c| c.kind) == Some("image")
}
