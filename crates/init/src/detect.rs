//! What `init` makes of a scanned repository: the layout of its OLM manifests, the operator it
//! releases, and what the pipeline needs from them.
//!
//! Layouts, in the order they are looked for:
//! - **templates** ([`super::templates`]): a folder of templates whose bundle sub-folder holds
//!   a CSV template and a package file (KubeVirt); the pipeline renders it in place;
//! - **bundle** ([`super::bundles`]): a bundle with a complete CSV — a registry+v1 folder
//!   (`bundle/manifests` + `bundle/metadata/annotations.yaml`) or the newest version folder of
//!   an operator-sdk `deploy/olm-catalog/<package>/` tree; its files are included as they are,
//!   its CSV keeps its deployments and permissions;
//! - **make bundle** ([`super::make_bundle`]): a kubebuilder / operator-sdk `config/` tree whose
//!   `make bundle` builds a kustomization (`config/manifests`): built, and generated as
//!   `operator-sdk generate bundle` does into a snapshot whose CSV is complete;
//! - **kubebuilder** ([`super::plain`]): a `config/` tree, its objects built by kustomize;
//! - **plain** ([`super::plain`]): Kubernetes manifests (CRDs, Deployments, RBAC), with or
//!   without a CSV; `init` writes a CSV around the chosen operator's parts.
//!
//! A repository with several operators (several packages, or several Deployments) lists them,
//! and `--operator NAME` chooses one.

use std::path::Path;

use super::bundles::{self, BundleDir};
use super::duplicates;
use super::error::InitError;
use super::flavours;
use super::found::{Found, Layout};
use super::make_bundle;
use super::parts;
use super::plain;
use super::scan::{Scan, YamlFile};
use super::templates;

/// What the user asked `init` to choose.
pub(crate) struct Ask<'a> {
    /// `--operator NAME`: a package (bundle layouts) or a Deployment.
    pub operator: Option<&'a str>,
    /// The repository's folder name, which an operator is often named after.
    pub repo: String,
    /// The repository, for kustomize.
    pub source: &'a Path,
}

/// Reads the layout and the operator's parts out of `scan`.
pub(crate) fn detect(scan: &Scan, ask: &Ask) -> Result<Found, InitError> {
    let mut found = if let Some((t, b)) = templates::find(scan) {
        read_templates(scan, t, b)
    } else {
        let bundles = bundles::find(scan);
        if bundles.is_empty() {
            read_plain(scan, ask)?
        } else {
            read_bundle(scan, &bundles, ask)?
        }
    };
    found.icon = match found.complete_csv {
        true => None,
        false => parts::icon(&scan.images),
    };
    found.examples = parts::examples(scan, &found.crds);
    duplicates::merge(scan, &mut found);
    Ok(found)
}

fn read_templates(scan: &Scan, templates: String, bundle: String) -> Found {
    let outside = |f: &&YamlFile| !templates::under(&f.rel, &templates);
    let deployment = parts::deployment(scan.own().filter(outside));
    let permissions = parts::permissions(scan.own().filter(outside), deployment.as_ref());
    let mut found = Found::new(Layout::Templates {
        templates: templates.clone(),
        bundle: bundle.clone(),
    });
    found.deployment = deployment;
    found.permissions = permissions;
    let mut rendered = templates::read(scan, &templates, &bundle, &mut found);
    if let Some(d) = &found.deployment {
        rendered.extend(scan.file(&d.file));
    }
    if let Some(p) = &found.permissions {
        rendered.extend(p.files.iter().filter_map(|f| scan.file(f)));
    }
    templates::collect_vars(&rendered, &mut found);
    found
}

fn read_bundle(scan: &Scan, all: &[BundleDir], ask: &Ask) -> Result<Found, InitError> {
    let name = |b: &BundleDir| b.package.clone().unwrap_or_else(|| b.root.clone());
    let chosen = match ask.operator {
        // A bundle folder (one flavour of several), else a package.
        Some(asked) => all
            .iter()
            .find(|b| flavours::names_folder(b, asked))
            .or_else(|| {
                let named: Vec<&BundleDir> = all.iter().filter(|b| name(b) == asked).collect();
                let first = *named.first()?;
                flavours::preferred(&flavours::of(all, first), ask.source).or(Some(first))
            })
            .ok_or_else(|| InitError::NoOperator {
                asked: asked.into(),
                known: all.iter().map(describe).collect(),
            })?,
        // The package with the most versions (the project's own, not a vendored copy), and
        // of its flavours the preferred one.
        None => {
            let most = all
                .iter()
                .max_by_key(|b| (b.versions, std::cmp::Reverse(b.root.clone())))
                .expect("not empty");
            // A registry+v1 `bundle*/` folder of that version (what `make bundle` writes,
            // with its metadata) before an operator-sdk catalog's copy of it.
            let made: Vec<&BundleDir> = all
                .iter()
                .filter(|b| {
                    flavours::is_flavour(b)
                        && b.package == most.package
                        && b.version == most.version
                })
                .collect();
            flavours::preferred(&made, ask.source).unwrap_or(most)
        }
    };
    let mut notes = Vec::new();
    if ask.operator.is_none()
        && let Some(tree) = all
            .iter()
            .find(|b| b.tree.is_some() && b.package == chosen.package && b.root != chosen.root)
    {
        notes.push(format!(
            "version {} taken from {}/ (a registry+v1 bundle, as make bundle writes it); not taken: {}/ (the operator-sdk catalog's copy; --operator {} takes it)",
            chosen.version, chosen.root, tree.root, tree.root
        ));
    }
    let flavours: Vec<BundleDir> = flavours::of(all, chosen)
        .into_iter()
        .filter(|b| b.root != chosen.root)
        .cloned()
        .collect();
    let mut found = Found::new(Layout::Bundle(Box::new(chosen.clone())));
    if all.len() > 1 {
        found.operators = all.iter().map(|b| (name(b), describe(b))).collect();
    }
    bundles::read(scan, chosen, &mut found);
    found.notes.extend(notes);
    if !flavours.is_empty() {
        found.notes.push(format!(
            "bundle flavours of {}: {}/ released; {} (a pipeline variant each; init --operator FOLDER releases another instead)",
            name(chosen),
            chosen.root,
            flavours
                .iter()
                .map(|f| format!("{}/ as --variant {}", f.root, flavours::variant_name(f)))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    found.flavours = flavours;
    Ok(found)
}

fn describe(b: &BundleDir) -> String {
    format!(
        "{} {} in {}/",
        b.package.as_deref().unwrap_or("(no package)"),
        b.version,
        b.root
    )
}

fn read_plain(scan: &Scan, ask: &Ask) -> Result<Found, InitError> {
    let mut unbuilt = None;
    if plain::is_kubebuilder(scan)
        && let Some(target) = make_bundle::target(scan, ask.source)
    {
        match make_bundle::read(ask.source, &target) {
            Ok(found) => return Ok(found),
            Err(why) => unbuilt = Some((target.dir, why)),
        }
    }
    let mut built = None;
    let (layout, files): (Layout, Vec<&YamlFile>) = if plain::is_kubebuilder(scan) {
        let (layout, file) = plain::kubebuilder(scan, ask.source);
        built = file;
        let files = match (&built, &layout) {
            // Built: the objects are kustomize's, never config/'s bases beside them.
            (Some(b), _) if !b.rel.is_empty() => vec![b],
            (
                _,
                Layout::Kubebuilder {
                    built: Some(rel), ..
                },
            ) => scan.own().filter(|f| &f.rel == rel).collect(),
            _ => scan
                .yaml
                .iter()
                .filter(|f| !f.generated && f.rel.starts_with("config/"))
                .collect(),
        };
        (layout, files)
    } else {
        let csv = scan
            .own()
            .find(|f| !f.is_template() && f.has_kind("ClusterServiceVersion"))
            .map(|f| f.rel.clone());
        (
            Layout::Plain { csv },
            scan.yaml.iter().filter(|f| !f.generated).collect(),
        )
    };
    let mut found = Found::new(layout.clone());
    plain::read(scan, &files, ask.operator, &ask.repo, &mut found).map_err(|known| {
        InitError::NoOperator {
            asked: ask.operator.unwrap_or_default().into(),
            known,
        }
    })?;
    let csv = match &layout {
        Layout::Plain { csv } | Layout::Kubebuilder { csv, .. } => csv.clone(),
        _ => None,
    };
    if let Some(file) = csv.as_ref().and_then(|c| scan.file(c)) {
        found.csv = Some(file.rel.clone());
        found.csv_name = templates::csv_name(&file.text);
        if matches!(layout, Layout::Kubebuilder { .. }) {
            found.csv_base = file.of_kind("ClusterServiceVersion").next().cloned();
            // operator-sdk names the CSV base after the project (`PROJECT.v0.0.0`), and the
            // bundle's package after it too: a better name than the Deployment's, which
            // config/default's prefix and suffix decorate.
            if found.package.is_none()
                && let Some(stem) = found
                    .csv_name
                    .as_deref()
                    .and_then(|n| n.strip_suffix(".v{version}"))
            {
                found.package = Some((
                    stem.to_string(),
                    format!("the name of the CSV base {}", file.rel),
                ));
            }
        }
    }
    match built {
        Some(b) if b.rel.is_empty() => found.todo.push(format!(
            "{}: the Deployment and RBAC are config/'s bases as written, without config/default's patches and name prefix; {}, or run `{} > {}` and run init again",
            b.text,
            super::kustomize::fix(),
            super::kustomize::command(plain::DEFAULT_DIR),
            plain::BUILT
        )),
        Some(b) => found.built = vec![(b.rel.clone(), b.text.clone())],
        None => {}
    }
    if let Layout::Kubebuilder {
        built: Some(rel), ..
    } = &layout
    {
        found.kustomize = Some((plain::DEFAULT_DIR.into(), rel.clone()));
    }
    if let Some((dir, why)) = unbuilt {
        found.todo.push(format!(
            "{why}: `make bundle` builds {dir} (webhooks, the CSV base, the objects operator-sdk generate bundle writes), and init read config/ without it; {}",
            super::kustomize::fix()
        ));
    }
    Ok(found)
}
