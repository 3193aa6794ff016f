//! What a kubebuilder / operator-sdk project's `Makefile` says about its bundle: the
//! kustomization its `bundle` target builds and pipes into `operator-sdk generate bundle`
//! (`$(KUSTOMIZE) build config/manifests | $(OPERATOR_SDK) generate bundle …` in the
//! scaffold, or an overlay the project names), and the operator image it sets first
//! (`cd config/manager && $(KUSTOMIZE) edit set image controller=$(IMG)`), with the Makefile's
//! own variables expanded and `$(VERSION)` left for the release (`${VERSION}`).

use std::collections::BTreeMap;

/// What the `bundle` target does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BundleTarget {
    /// The kustomization built, relative to the repository (`config/manifests`).
    pub dir: String,
    /// `kustomize edit set image NAME=IMAGE`: the image name replaced and the image, `${VERSION}`
    /// where the Makefile's `$(VERSION)` stands.
    pub image: Option<(String, String)>,
}

/// The `bundle` target of `makefile`, when it builds a kustomization whose folder can be told.
pub(crate) fn bundle_target(makefile: &str) -> Option<BundleTarget> {
    let vars = variables(makefile);
    let recipe = recipe(makefile, "bundle")?;
    let mut dir = None;
    let mut image = None;
    for command in recipe
        .iter()
        .flat_map(|l| l.split(['|', ';']))
        .flat_map(|c| c.split("&&"))
    {
        let words: Vec<&str> = command.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            let tool = w.trim_start_matches('@');
            let kustomize = tool.ends_with("kustomize")
                || tool.contains("KUSTOMIZE")
                || (tool == "kubectl" && words.get(i + 1) == Some(&"kustomize"));
            if !kustomize {
                continue;
            }
            let rest = &words[i + 1..];
            let rest = if rest.first() == Some(&"kustomize") {
                &rest[1..]
            } else {
                rest
            };
            match rest {
                ["build", d, ..] if tool != "kubectl" => dir = dir.or(Some(*d)),
                [d, ..] if tool == "kubectl" && !d.starts_with('-') => dir = dir.or(Some(*d)),
                ["edit", "set", "image", spec, ..] => {
                    if let Some((name, value)) = spec.split_once('=') {
                        image = Some((name.to_string(), expand(value, &vars)));
                    }
                }
                _ => {}
            }
        }
    }
    let dir = expand(dir?, &vars);
    if dir.contains('$') || dir.starts_with('/') {
        return None;
    }
    let dir = dir
        .trim_start_matches("./")
        .trim_end_matches('/')
        .to_string();
    let image = image.filter(|(_, i)| !i.replace("${VERSION}", "").contains('$'));
    Some(BundleTarget { dir, image })
}

/// `NAME = value`, `NAME ?= value`, `NAME := value` assignments (the first `?=` and every
/// later `=`/`:=` win, as make reads them without the environment).
fn variables(makefile: &str) -> BTreeMap<String, String> {
    let mut vars = BTreeMap::new();
    for line in makefile.lines().filter(|l| !l.starts_with('\t')) {
        for op in ["?=", ":=", "="] {
            let Some((name, value)) = line.split_once(op) else {
                continue;
            };
            let name = name.trim();
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                break;
            }
            let value = value.split(" #").next().unwrap_or("").trim().to_string();
            if op != "?=" || !vars.contains_key(name) {
                vars.insert(name.to_string(), value);
            }
            break;
        }
    }
    vars
}

/// The recipe lines (tab-indented) of `target`.
fn recipe<'a>(makefile: &'a str, target: &str) -> Option<Vec<&'a str>> {
    let mut lines = makefile.lines();
    lines.by_ref().find(|l| {
        l.split_once(':').is_some_and(|(t, rest)| {
            t.split_whitespace().any(|t| t == target) && !rest.starts_with('=')
        })
    })?;
    Some(
        lines
            .take_while(|l| l.starts_with('\t') || l.trim().is_empty())
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect(),
    )
}

/// `text` with `$(NAME)` and `${NAME}` replaced by the Makefile's values (a few rounds, for
/// variables made of variables); `VERSION` becomes the release's `${VERSION}`.
fn expand(text: &str, vars: &BTreeMap<String, String>) -> String {
    let mut out = text.to_string();
    for _ in 0..5 {
        let mut next = out.clone();
        for (name, value) in vars {
            let value = if name == "VERSION" {
                "${VERSION}"
            } else {
                value.as_str()
            };
            next = next
                .replace(&format!("$({name})"), value)
                .replace(&format!("${{{name}}}"), value);
        }
        next = next.replace("$(VERSION)", "${VERSION}");
        if next == out {
            break;
        }
        out = next;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `bundle` target operator-sdk scaffolds (go/v4 plugin).
    const SCAFFOLD: &str = "VERSION ?= 0.0.1\nIMAGE_TAG_BASE ?= example.com/guestbook\nIMG ?= $(IMAGE_TAG_BASE):v$(VERSION)\n\n.PHONY: bundle\nbundle: manifests kustomize operator-sdk ## Generate bundle manifests and metadata, then validate generated files.\n\t$(OPERATOR_SDK) generate kustomize manifests -q\n\tcd config/manager && $(KUSTOMIZE) edit set image controller=$(IMG)\n\t$(KUSTOMIZE) build config/manifests | $(OPERATOR_SDK) generate bundle $(BUNDLE_GEN_FLAGS)\n\t$(OPERATOR_SDK) bundle validate ./bundle\n\n.PHONY: bundle-build\nbundle-build:\n\tdocker build -f bundle.Dockerfile -t $(BUNDLE_IMG) .\n";

    #[test]
    fn reads_the_scaffolded_bundle_target() {
        assert_eq!(
            bundle_target(SCAFFOLD),
            Some(BundleTarget {
                dir: "config/manifests".into(),
                image: Some((
                    "controller".into(),
                    "example.com/guestbook:v${VERSION}".into()
                )),
            })
        );
    }

    #[test]
    fn reads_an_overlay_named_through_a_variable_or_kubectl() {
        let overlay = "FLAVOUR = openshift\nbundle:\n\t@kustomize build config/overlays/$(FLAVOUR) | operator-sdk generate bundle -q\n";
        assert_eq!(
            bundle_target(overlay).unwrap().dir,
            "config/overlays/openshift"
        );
        let kubectl =
            "bundle: manifests\n\tkubectl kustomize ./config/olm/ | operator-sdk generate bundle\n";
        assert_eq!(bundle_target(kubectl).unwrap().dir, "config/olm");
        // A folder only the environment names cannot be told; no bundle target, none either.
        assert_eq!(
            bundle_target("bundle:\n\tkustomize build $(DIR) | x\n"),
            None
        );
        assert_eq!(
            bundle_target("bundle-build:\n\tkustomize build config/x\n"),
            None
        );
    }
}
