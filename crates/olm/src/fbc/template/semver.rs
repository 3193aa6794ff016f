//! `olm.semver` (operator-registry `alpha/template/semver/semver.go`): bundle images listed under
//! the channel archetypes `candidate`, `fast` and `stable`; channels are generated from their
//! versions — `<archetype>-v<X>.<Y>` (minor, the default) and/or `<archetype>-v<X>` (major) — with
//! each Y-stream's highest bundle replacing the previous Y-stream's highest and skipping every
//! earlier one since the last major version, the default channel being the most stable
//! archetype's, then the highest, then the preferred kind. Keys are matched as Go matches JSON
//! fields (any case: community automation writes `Stable`, `Bundles`, `Image`), and a key the
//! schema does not have is refused. A release appends its image under each archetype among its
//! channels, in the file's own key spelling.

use std::collections::BTreeMap;

use serde_yaml_ng::{Mapping, Value};

use super::channels::{ARCHETYPES, Generate, Kind};
use super::{Release, Rendered, entry_of, err};
use crate::fbc::add;
use crate::fbc::deprecate::deprecate;
use crate::fbc::error::CatalogError;
use crate::fbc::model::*;

/// The schema of a semver template.
pub(crate) const SCHEMA: &str = "olm.semver";

/// A semver template.
#[derive(Debug, Clone, PartialEq)]
pub struct Semver {
    file: String,
    top: Mapping,
    generate: Generate,
    /// The images of each archetype, in [`ARCHETYPES`] order.
    images: [Vec<String>; 3],
}

fn key<'a>(m: &'a Mapping, name: &str) -> Option<(&'a Value, &'a Value)> {
    m.iter()
        .find(|(k, _)| k.as_str().is_some_and(|k| k.eq_ignore_ascii_case(name)))
}

impl Semver {
    pub(crate) fn parse(file: &str, doc: Value) -> Result<Self, CatalogError> {
        let Value::Mapping(top) = doc else {
            return Err(err(file, "is not a mapping"));
        };
        let (mut major, mut minor, mut prefer) = (false, false, String::new());
        let mut images: [Vec<String>; 3] = Default::default();
        for (k, v) in &top {
            let name = k.as_str().unwrap_or_default().to_ascii_lowercase();
            let flag = |v: &Value| {
                v.as_bool()
                    .ok_or_else(|| err(file, format!("{name} must be true or false")))
            };
            match name.as_str() {
                "schema" => {}
                "generatemajorchannels" => major = flag(v)?,
                "generateminorchannels" => minor = flag(v)?,
                "defaultchanneltypepreference" => {
                    prefer = v.as_str().unwrap_or_default().to_string();
                }
                a if ARCHETYPES.contains(&a) => {
                    let i = ARCHETYPES.iter().position(|x| *x == a).unwrap_or(0);
                    images[i] = bundles(file, a, v)?;
                }
                other => {
                    return Err(err(
                        file,
                        format!(
                            "unknown field {other:?} (an olm.semver template has schema, generateMajorChannels, generateMinorChannels, defaultChannelTypePreference, candidate, fast and stable)"
                        ),
                    ));
                }
            }
        }
        if !major && !minor {
            minor = true;
        }
        let prefer = match prefer.as_str() {
            "" if minor => Kind::Minor,
            "" => Kind::Major,
            "minor" if minor => Kind::Minor,
            "major" if major => Kind::Major,
            "minor" | "major" => {
                return Err(err(
                    file,
                    format!(
                        "defaultChannelTypePreference is {prefer}, but the template does not generate {prefer}-version channels"
                    ),
                ));
            }
            other => {
                return Err(err(
                    file,
                    format!(
                        "unknown defaultChannelTypePreference {other:?}; valid values are major and minor"
                    ),
                ));
            }
        };
        Ok(Semver {
            file: file.into(),
            top,
            generate: Generate {
                major,
                minor,
                prefer,
            },
            images,
        })
    }

    pub(crate) fn release(
        &mut self,
        catalog: &Catalog,
        release: &Release,
    ) -> Result<Rendered, CatalogError> {
        let req = release.request;
        let mut lines = Vec::new();
        for ch in &req.channels {
            let Some(i) = ARCHETYPES.iter().position(|a| a == ch) else {
                return Err(err(
                    &self.file,
                    format!(
                        "the release joins channel {ch}, but an olm.semver template lists bundles under candidate, fast and stable (the generated channels are named from them); publish to those"
                    ),
                ));
            };
            if !self.images[i].contains(&req.image) {
                self.images[i].push(req.image.clone());
                self.append(ARCHETYPES[i], &req.image);
                lines.push(format!(
                    "catalog template: {} lists {}",
                    ARCHETYPES[i], req.name
                ));
            }
        }
        let own = add::bundle_doc(req);
        let mut out = self.render(catalog, &own, release)?;
        lines.extend(deprecate(&mut out, &req.package, release.deprecations)?);
        Ok(Rendered {
            text: olm_release_base::yaml::to_string(&Value::Mapping(self.top.clone())),
            catalog: out,
            lines,
            outcome: None,
        })
    }

    /// Appends `{image}` under `archetype` in the file's mapping, in its key spelling.
    fn append(&mut self, archetype: &str, image: &str) {
        let capital = key(&self.top, "schema").is_some_and(|(k, _)| k.as_str() == Some("Schema"));
        let spell = |w: &str| {
            if capital {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                    .unwrap_or_default()
            } else {
                w.to_string()
            }
        };
        let arch_key = key(&self.top, archetype)
            .map(|(k, _)| k.clone())
            .unwrap_or_else(|| Value::from(spell(archetype)));
        let slot = self
            .top
            .entry(arch_key)
            .or_insert_with(|| Value::Mapping(Mapping::new()));
        if !slot.is_mapping() {
            *slot = Value::Mapping(Mapping::new());
        }
        let Value::Mapping(arch) = slot else { return };
        let list_key = key(arch, "bundles")
            .map(|(k, _)| k.clone())
            .unwrap_or_else(|| Value::from(spell("bundles")));
        let list = arch
            .entry(list_key)
            .or_insert_with(|| Value::Sequence(Vec::new()));
        if !list.is_sequence() {
            *list = Value::Sequence(Vec::new());
        }
        let image_key = list
            .as_sequence()
            .and_then(|s| {
                s.iter()
                    .filter_map(Value::as_mapping)
                    .find_map(|m| key(m, "image"))
            })
            .map(|(k, _)| k.clone())
            .unwrap_or_else(|| Value::from(spell("image")));
        if let Value::Sequence(items) = list {
            let mut item = Mapping::new();
            item.insert(image_key, image.into());
            items.push(Value::Mapping(item));
        }
    }

    /// The package's documents: its bundles, the generated channels and the package.
    fn render(
        &self,
        catalog: &Catalog,
        own: &BundleDoc,
        release: &Release,
    ) -> Result<Catalog, CatalogError> {
        let file = &self.file;
        let package = release.request.package.as_str();
        let mut out = Catalog::default();
        // archetype → bundle name → version
        let mut versions: [BTreeMap<String, semver::Version>; 3] = Default::default();
        for (i, images) in self.images.iter().enumerate() {
            for image in images {
                let b = entry_of(file, image, own, catalog)?;
                if b.package != package {
                    return Err(err(
                        file,
                        format!(
                            "bundle {} (image {image}) is in package {}, not {package}",
                            b.name, b.package
                        ),
                    ));
                }
                let v = b
                    .version()
                    .ok_or_else(|| err(file, format!("bundle {} has no SemVer version", b.name)))?;
                if versions[i].insert(b.name.clone(), v.clone()).is_some() {
                    return Err(err(
                        file,
                        format!("{} lists bundle {} twice", ARCHETYPES[i], b.name),
                    ));
                }
                let mut stripped = versions[i]
                    .values()
                    .map(|v| semver::Version {
                        build: semver::BuildMetadata::EMPTY,
                        ..v.clone()
                    })
                    .collect::<Vec<_>>();
                stripped.sort();
                if stripped.windows(2).any(|w| w[0] == w[1]) {
                    return Err(err(
                        file,
                        format!(
                            "{} lists bundle versions which differ only by build metadata, which cannot be ordered",
                            ARCHETYPES[i]
                        ),
                    ));
                }
                if !out.bundles.iter().any(|x| x.image == b.image) {
                    out.bundles.push(BundleDoc {
                        origin: Origin::default(),
                        ..b.clone()
                    });
                }
            }
        }
        let (channels, default) = self.generate.channels(package, &versions);
        let head = channels
            .iter()
            .find(|c| c.name == default)
            .and_then(|c| c.entries.last())
            .and_then(|e| out.bundles.iter().find(|b| b.name == e.name));
        let existing = catalog.package(package);
        let description = head
            .and_then(|b| {
                b.properties
                    .iter()
                    .find(|p| p.type_ == PROPERTY_CSV_METADATA)
            })
            .and_then(|p| p.value.get("description")?.as_str().map(str::to_string))
            .or_else(|| existing.and_then(|p| p.description.clone()))
            .or_else(|| release.description.map(str::to_string));
        out.packages.push(PackageDoc {
            name: package.into(),
            default_channel: Some(default),
            description,
            icon: existing
                .and_then(|p| p.icon.clone())
                .or_else(|| release.icon.clone()),
            ..PackageDoc::default()
        });
        out.channels = channels;
        // Deprecations live in the catalog only: a semver template cannot hold them.
        out.others.extend(
            catalog
                .others
                .iter()
                .filter(|o| o.package == package && o.schema == SCHEMA_DEPRECATIONS)
                .cloned(),
        );
        Ok(out)
    }
}

/// The images of one archetype: `{bundles: [{image}]}`.
fn bundles(file: &str, archetype: &str, v: &Value) -> Result<Vec<String>, CatalogError> {
    let Some(m) = v.as_mapping() else {
        return if v.is_null() {
            Ok(Vec::new())
        } else {
            Err(err(
                file,
                format!("{archetype} must be a mapping {{bundles: [...]}}"),
            ))
        };
    };
    let mut out = Vec::new();
    for (k, list) in m {
        if !k
            .as_str()
            .is_some_and(|k| k.eq_ignore_ascii_case("bundles"))
        {
            return Err(err(
                file,
                format!("{archetype}: unknown field {k:?} (only bundles)"),
            ));
        }
        for (i, item) in list
            .as_sequence()
            .map(Vec::as_slice)
            .unwrap_or(&[])
            .iter()
            .enumerate()
        {
            let image = item
                .as_mapping()
                .and_then(|m| key(m, "image"))
                .and_then(|(_, v)| v.as_str());
            match image {
                Some(image) if !image.is_empty() => out.push(image.to_string()),
                _ => {
                    return Err(err(
                        file,
                        format!("{archetype}.bundles[{i}] must be {{image: REFERENCE}}"),
                    ));
                }
            }
        }
    }
    Ok(out)
}
