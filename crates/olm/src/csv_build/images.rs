//! Container images in a CSV's install strategy: set by container name
//! (`render.csv.images`), and the operator's own image among them for the `containerImage`
//! annotation.

use std::collections::BTreeMap;

use serde_yaml_ng::Value;

/// Sets `image` of every container (and init container) named in `images`, in every
/// deployment of the CSV's install strategy.
pub(super) fn set(csv: &mut Value, images: &BTreeMap<String, String>) {
    if images.is_empty() {
        return;
    }
    let Some(deployments) = csv
        .get_mut("spec")
        .and_then(|s| s.get_mut("install"))
        .and_then(|i| i.get_mut("spec"))
        .and_then(|s| s.get_mut("deployments"))
        .and_then(Value::as_sequence_mut)
    else {
        return;
    };
    for d in deployments {
        let Some(pod) = d
            .get_mut("spec")
            .and_then(|s| s.get_mut("template"))
            .and_then(|t| t.get_mut("spec"))
        else {
            continue;
        };
        for key in ["initContainers", "containers"] {
            let Some(list) = pod.get_mut(key).and_then(Value::as_sequence_mut) else {
                continue;
            };
            for c in list {
                let name = c.get("name").and_then(Value::as_str).map(str::to_string);
                if let (Some(image), Some(m)) =
                    (name.and_then(|n| images.get(&n)), c.as_mapping_mut())
                {
                    m.insert("image".into(), image.clone().into());
                }
            }
        }
    }
}

/// The operator's image, for the `containerImage` annotation: the image `images` sets for a
/// container of the CSV's first deployment (the first such container in the pod's order).
/// `None` when the pipeline names no image of that deployment: the annotation is then the
/// CSV's own, never guessed from whichever container comes first (a kubebuilder project's
/// first container may be `kube-rbac-proxy`).
pub(crate) fn operator_image(csv: &Value, images: &BTreeMap<String, String>) -> Option<String> {
    if images.is_empty() {
        return None;
    }
    let containers = csv
        .get("spec")?
        .get("install")?
        .get("spec")?
        .get("deployments")?
        .get(0)?
        .get("spec")?
        .get("template")?
        .get("spec")?
        .get("containers")?
        .as_sequence()?;
    containers
        .iter()
        .filter_map(|c| c.get("name")?.as_str())
        .find_map(|name| images.get(name).cloned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_images_by_container_name_in_every_deployment() {
        let mut csv: Value = serde_yaml_ng::from_str(
            "spec:\n  install:\n    spec:\n      deployments:\n      - spec:\n          template:\n            spec:\n              initContainers: [{name: migrate, image: old}]\n              containers: [{name: manager, image: old}, {name: proxy, image: keep}]\n",
        )
        .unwrap();
        let images = BTreeMap::from([
            ("manager".to_string(), "quay.io/acme/op:v2".to_string()),
            ("migrate".to_string(), "quay.io/acme/migrate:v2".to_string()),
        ]);
        set(&mut csv, &images);
        let pod = &csv["spec"]["install"]["spec"]["deployments"][0]["spec"]["template"]["spec"];
        assert_eq!(
            pod["containers"][0]["image"],
            Value::from("quay.io/acme/op:v2")
        );
        assert_eq!(pod["containers"][1]["image"], Value::from("keep"));
        assert_eq!(
            pod["initContainers"][0]["image"],
            Value::from("quay.io/acme/migrate:v2")
        );
        assert_eq!(
            operator_image(&csv, &images).as_deref(),
            Some("quay.io/acme/op:v2")
        );
    }

    /// kubebuilder's older scaffolds put `kube-rbac-proxy` first: the operator's image is the
    /// one the pipeline names, and without one there is none to set.
    #[test]
    fn the_operator_image_is_the_one_the_pipeline_names() {
        let csv: Value = serde_yaml_ng::from_str(
            "spec:\n  install:\n    spec:\n      deployments:\n      - spec:\n          template:\n            spec:\n              containers: [{name: kube-rbac-proxy, image: 'gcr.io/kubebuilder/kube-rbac-proxy:v0.5.0'}, {name: manager, image: 'controller:latest'}]\n",
        )
        .unwrap();
        assert_eq!(operator_image(&csv, &BTreeMap::new()), None);
        let images = BTreeMap::from([("manager".to_string(), "quay.io/acme/op:v2".to_string())]);
        assert_eq!(
            operator_image(&csv, &images).as_deref(),
            Some("quay.io/acme/op:v2")
        );
        let other = BTreeMap::from([("sidecar".to_string(), "quay.io/acme/s:v2".to_string())]);
        assert_eq!(operator_image(&csv, &other), None);
    }
}
