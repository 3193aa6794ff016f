//! Plain manifests and kubebuilder `config/` trees: the operator is chosen among the
//! repository's Deployments ([`super::operators`]), and its CSV is assembled from its parts —
//! its Deployment, the permissions of its service account ([`super::rbac`]), the CRDs its roles
//! name (each once, from its own folder when it has a copy there), and the other objects beside
//! it that OLM installs from a bundle (a ConfigMap its Deployment mounts, a metrics Service).
//!
//! A kubebuilder project's objects are what `kustomize build config/default` prints (its bases
//! are patched there); when neither kustomize nor kubectl is installed, the bases are read as
//! they are and `init` says what to run.

use super::found::{Found, Layout};
use super::kustomize;
use super::operators::{self, Operator};
use super::parts::{self, Crd};
use super::rbac::Rbac;
use super::scan::{MARK, Scan, YamlFile, parse};

/// The kustomization a kubebuilder project deploys with.
pub(crate) const DEFAULT_DIR: &str = "config/default";

/// Where `init` writes the output of `kustomize build config/default`.
pub(crate) const BUILT: &str = "olm/kustomize/default.yaml";

/// Kinds of other objects carried beside the CSV: what OLM installs from a bundle, except what
/// the CSV itself describes (RBAC, service accounts, the Deployment) and the CRDs.
const OBJECT_KINDS: &[&str] = &[
    "ConfigMap",
    "Secret",
    "Service",
    "PrometheusRule",
    "ServiceMonitor",
    "PodDisruptionBudget",
    "PriorityClass",
    "VerticalPodAutoscaler",
    "ConsoleYAMLSample",
    "ConsoleQuickStart",
    "ConsoleCLIDownload",
    "ConsoleLink",
    "NetworkPolicy",
];

/// Whether the repository is a kubebuilder project: `config/default` or a CSV base.
pub(crate) fn is_kubebuilder(scan: &Scan) -> bool {
    scan.own().any(|f| {
        f.rel == "config/default/kustomization.yaml"
            || (f.dir() == "config/manifests/bases" && f.is_csv())
    })
}

/// The kubebuilder layout: the CSV base, and the objects kustomize builds (or the bases).
pub(crate) fn kubebuilder(scan: &Scan, source: &std::path::Path) -> (Layout, Option<YamlFile>) {
    let csv = scan
        .own()
        .find(|f| f.dir() == "config/manifests/bases" && f.is_csv())
        .map(|f| f.rel.clone());
    let own_built = scan.own().find(|f| f.rel == BUILT);
    let built = match kustomize::build(source, DEFAULT_DIR) {
        Ok(text) => Ok(YamlFile {
            rel: BUILT.into(),
            docs: parse(&text),
            text: format!(
                "{MARK}: `{}`'s output. olm-release init refreshes it; a release stops while config/ says otherwise.\n{text}",
                kustomize::command(DEFAULT_DIR)
            ),
            patch: false,
            generated: true,
        }),
        Err(why) => Err(why),
    };
    let layout = |built: Option<&str>| Layout::Kubebuilder {
        csv: csv.clone(),
        built: built.map(str::to_string),
    };
    match (built, own_built) {
        (Ok(file), _) => (layout(Some(BUILT)), Some(file)),
        (Err(_), Some(_)) => (layout(Some(BUILT)), None),
        (Err(why), None) => (
            layout(None),
            Some(YamlFile {
                rel: String::new(),
                text: why,
                docs: Vec::new(),
                patch: false,
                generated: true,
            }),
        ),
    }
}

/// Chooses the operator among `files` and reads its parts into `found`. `Err` lists the
/// operators when `asked` names none of them.
pub(crate) fn read<'a>(
    scan: &'a Scan,
    files: &[&'a YamlFile],
    asked: Option<&str>,
    repo: &str,
    found: &mut Found,
) -> Result<(), Vec<String>> {
    let rbac = Rbac::read(files.iter().copied());
    let all_crds = parts::crds(scan.own(), |_| 0);
    let candidates = operators::rank(
        parts::deployments(files.iter().copied()),
        &rbac,
        &all_crds,
        repo,
    );
    for f in files.iter().filter(|f| f.patch && f.has_kind("Deployment")) {
        found.notes.push(format!(
            "{} is a kustomize patch, not a Deployment of its own: not taken",
            f.rel
        ));
    }
    let chosen = match asked {
        Some(name) => candidates
            .iter()
            .find(|o| o.name() == name)
            .ok_or_else(|| {
                candidates
                    .iter()
                    .map(Operator::describe)
                    .collect::<Vec<_>>()
            })?,
        None => match candidates.first() {
            Some(o) => o,
            None => {
                found.crds = all_crds;
                return Ok(());
            }
        },
    };
    if candidates.len() > 1 {
        found.operators = candidates
            .iter()
            .map(|o| (o.name().to_string(), o.describe()))
            .collect();
    }
    if !chosen.copies.is_empty() {
        found.notes.push(format!(
            "Deployment {} taken from {}; not taken: {}",
            chosen.name(),
            chosen.deployment.file,
            some(&chosen.copies)
        ));
    }
    let dir = chosen
        .deployment
        .file
        .rsplit_once('/')
        .map_or("", |(d, _)| d)
        .to_string();
    found.crds = crds_of(scan, chosen, &all_crds, &dir);
    found.accounts = chosen
        .deployment
        .service_account
        .as_deref()
        .map(|sa| rbac.permissions(sa, &dir))
        .unwrap_or_default();
    found.objects = scan
        .own()
        .filter(|f| f.dir() == dir && !f.is_template() && f.only_kinds(OBJECT_KINDS))
        .map(|f| f.rel.clone())
        .collect();
    found.images = super::images::follow_version(&chosen.deployment.containers, None);
    found
        .todo
        .extend(super::images::placeholders(&chosen.deployment.containers));
    found.deployment = Some(chosen.deployment.clone());
    Ok(())
}

/// The CRDs of the chosen operator: those its roles name, else those in its folder, else all;
/// each taken from its folder when it has a copy there.
fn crds_of(scan: &Scan, op: &Operator, all: &[Crd], dir: &str) -> Vec<Crd> {
    let in_dir = |c: &Crd| {
        c.file.rsplit_once('/').map_or("", |(d, _)| d) == dir
            || c.copies
                .iter()
                .any(|f| f.rsplit_once('/').map_or("", |(d, _)| d) == dir)
    };
    let wanted: Vec<&str> = if !op.manages.is_empty() {
        op.manages.iter().map(String::as_str).collect()
    } else if all.iter().any(in_dir) {
        all.iter()
            .filter(|c| in_dir(c))
            .map(|c| c.name.as_str())
            .collect()
    } else {
        all.iter().map(|c| c.name.as_str()).collect()
    };
    let rank = |file: &str| usize::from(file.rsplit_once('/').map_or("", |(d, _)| d) != dir);
    parts::crds(scan.own(), rank)
        .into_iter()
        .filter(|c| wanted.contains(&c.name.as_str()))
        .collect()
}

/// A few of `items`, with the count of the rest: "a, b, c and 4 more".
pub(crate) fn some(items: &[String]) -> String {
    olm_release_base::words::some(items, 3)
}
