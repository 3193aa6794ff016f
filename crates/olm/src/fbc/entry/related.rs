//! A bundle's `relatedImages` in its catalog entry: every image a cluster needs to run the bundle,
//! so mirroring tools for disconnected clusters (`oc-mirror`, `opm alpha list bundles`) copy
//! them. The rule is `opm render`'s (operator-registry `alpha/action/render.go`,
//! `getRelatedImages`, and `pkg/registry/csv.go`, `GetOperatorImages`): the CSV's
//! `spec.relatedImages` as written (name and image); then the bundle image itself, unnamed,
//! unless listed; then the image of every container and init container of the CSV's deployments
//! (install strategy `deployment` only), unnamed, unless listed; the whole list sorted by image.

use serde_yaml_ng::Value;

use super::super::model::RelatedImage;
use crate::{Manifest, value_at};

/// The related images of the bundle holding `csv`, published as `bundle_image`.
pub fn related_images(csv: &Manifest, bundle_image: &str) -> Vec<RelatedImage> {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or_default().to_string();
    let mut out: Vec<RelatedImage> = value_at(&csv.doc, "spec.relatedImages")
        .and_then(Value::as_sequence)
        .map(|items| {
            items
                .iter()
                .map(|i| RelatedImage {
                    name: Some(text(i.get("name"))),
                    image: text(i.get("image")),
                })
                .collect()
        })
        .unwrap_or_default();
    let add = |image: &str, out: &mut Vec<RelatedImage>| {
        if !out.iter().any(|r| r.image == image) {
            out.push(RelatedImage {
                name: Some(String::new()),
                image: image.to_string(),
            });
        }
    };
    if !bundle_image.is_empty() {
        add(bundle_image, &mut out);
    }
    for image in operator_images(csv) {
        add(image, &mut out);
    }
    out.sort_by(|a, b| a.image.cmp(&b.image));
    out
}

/// The images of the containers and init containers of the CSV's deployments.
pub(crate) fn operator_images(csv: &Manifest) -> Vec<&str> {
    let install = value_at(&csv.doc, "spec.install");
    if install
        .and_then(|i| i.get("strategy"))
        .and_then(Value::as_str)
        != Some("deployment")
    {
        return Vec::new();
    }
    let deployments = install
        .and_then(|i| value_at(i, "spec.deployments"))
        .and_then(Value::as_sequence);
    let mut images = Vec::new();
    for d in deployments.into_iter().flatten() {
        let pod = value_at(d, "spec.template.spec");
        for list in ["containers", "initContainers"] {
            let containers = pod.and_then(|p| p.get(list)).and_then(Value::as_sequence);
            for c in containers.into_iter().flatten() {
                if let Some(image) = c
                    .get("image")
                    .and_then(Value::as_str)
                    .filter(|i| !i.is_empty())
                {
                    images.push(image);
                }
            }
        }
    }
    images
}
