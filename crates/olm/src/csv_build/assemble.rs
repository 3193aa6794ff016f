//! The one entry point of CSV assembly: [`assemble`] reads the parts the pipeline asks for
//! through the caller's [`PartFiles`], hands the template variables they fill to the caller's
//! renderer, finds the CSV among what it rendered ([`RenderedCsv`]), sets the parts into it and
//! returns the CSV as a manifest. The executor calls it once; the order of the phases (parts
//! before templates, because templates may use the parts; the parts set again structurally
//! after, whatever the template wrote) is this module's business.

use std::collections::BTreeMap;

use serde_yaml_ng::Value;

use super::spec::CsvSpec;
use super::{CsvError, Doc, Parts, apply};
use crate::{Manifest, csv_file_name};

/// What a release's CSV is assembled from besides its template: the pipeline's `render.csv`
/// section and the release's own values.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The pipeline's `render.csv` section.
    pub spec: &'a CsvSpec,
    /// The release's version (`spec.version`).
    pub version: &'a semver::Version,
    /// `metadata.annotations.createdAt`.
    pub created_at: &'a str,
    /// `spec.skips` to add (the catalog's `skips`).
    pub skips: &'a [String],
    /// The `olm.skipRange` annotation to set.
    pub skip_range: Option<&'a str>,
}

/// The files the parts are read from: RBAC and Deployment files (rendered first when they are
/// templates), and the icon. The caller's I/O, so assembly stays pure.
pub trait PartFiles {
    /// The YAML documents of `file`; `Ok(None)` when it does not exist.
    fn docs(&mut self, file: &str) -> Result<Option<Vec<Doc>>, CsvError>;
    /// The bytes of `file`.
    fn bytes(&mut self, file: &str) -> Result<Vec<u8>, CsvError>;
}

/// The caller's rendered templates, with the CSV document among them.
pub trait RenderedCsv {
    /// The CSV document (to be completed in place) and the template it came from.
    fn csv_doc(&mut self) -> (&mut Value, &str);
}

/// An assembled CSV, with what the caller rendered.
#[derive(Debug)]
pub struct Assembled<R> {
    /// The caller's rendered templates; the CSV document among them is completed.
    pub rendered: R,
    /// The CSV, named `<metadata.name>.clusterserviceversion.yaml`.
    pub csv: Manifest,
    /// Whether the template wrote a non-empty `createdAt` itself.
    pub template_created_at: bool,
}

/// Assembles the CSV: reads its parts through `files`, calls `render` once with the template
/// variables the parts fill (`render.csv.vars`), and sets the parts into the CSV document that
/// `render` produced.
pub fn assemble<R: RenderedCsv, E: From<CsvError>>(
    request: &Request<'_>,
    files: &mut dyn PartFiles,
    render: impl FnOnce(BTreeMap<String, Value>) -> Result<R, E>,
) -> Result<Assembled<R>, E> {
    let parts = parts(request, files).map_err(|e| CsvError::Assembling(Box::new(e)))?;
    let mut rendered = render(parts.vars(&request.spec.vars))?;
    let (doc, file) = rendered.csv_doc();
    let template_created_at = doc
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get("createdAt"))
        .and_then(Value::as_str)
        .is_some_and(|d| !d.is_empty());
    apply(doc, &parts).map_err(|source| CsvError::InCsv {
        file: file.to_string(),
        source: Box::new(source),
    })?;
    let name = doc
        .get("metadata")
        .and_then(|m| m.get("name"))
        .and_then(Value::as_str)
        .ok_or_else(|| CsvError::NoName {
            file: file.to_string(),
        })?;
    let csv = Manifest::new(csv_file_name(name), doc.clone());
    Ok(Assembled {
        rendered,
        csv,
        template_created_at,
    })
}

/// The parts `request` asks for, read through `files`.
fn parts(request: &Request<'_>, files: &mut dyn PartFiles) -> Result<Parts, CsvError> {
    let files = std::cell::RefCell::new(files);
    let mut docs = |file: &str| files.borrow_mut().docs(file);
    let mut bytes = |file: &str| files.borrow_mut().bytes(file);
    let mut parts = Parts::build(
        request.spec,
        &request.version.to_string(),
        request.created_at,
        &mut docs,
        &mut bytes,
    )?;
    parts.skips = request.skips.to_vec();
    parts.skip_range = request.skip_range.map(str::to_string);
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct NoFiles;

    impl PartFiles for NoFiles {
        fn docs(&mut self, _: &str) -> Result<Option<Vec<Doc>>, CsvError> {
            Ok(None)
        }
        fn bytes(&mut self, file: &str) -> Result<Vec<u8>, CsvError> {
            Err(CsvError::Load(format!("{file}: not here")))
        }
    }

    #[derive(Debug)]
    struct One(Value);

    impl RenderedCsv for One {
        fn csv_doc(&mut self) -> (&mut Value, &str) {
            (&mut self.0, "csv.yaml.in")
        }
    }

    fn spec(text: &str) -> CsvSpec {
        serde_yaml_ng::from_str(text).unwrap()
    }

    #[test]
    fn the_parts_fill_the_template_variables_and_are_set_into_the_rendered_csv() {
        let spec = spec("vars: {Version: version}\ncreated_at: set\n");
        let skips = vec!["op.v0.0.9".to_string()];
        let request = Request {
            spec: &spec,
            version: &semver::Version::new(0, 1, 0),
            created_at: "2019-10-07T12:00:00Z",
            skips: &skips,
            skip_range: Some("<0.1.0"),
        };
        let mut seen = BTreeMap::new();
        let out = assemble::<_, CsvError>(&request, &mut NoFiles, |vars| {
            seen = vars;
            Ok(One(
                serde_yaml_ng::from_str(
                    "metadata: {name: op.v0.1.0, annotations: {createdAt: ''}}\nspec: {replaces: '', install: {spec: {}}}\n",
                )
                .unwrap(),
            ))
        })
        .unwrap();
        assert_eq!(seen["Version"], Value::from("0.1.0"));
        assert_eq!(out.csv.file, "op.v0.1.0.clusterserviceversion.yaml");
        assert_eq!(out.csv.str_at("spec.version"), Some("0.1.0"));
        assert_eq!(out.csv.replaces(), None, "an empty replaces is removed");
        let annotations = &out.csv.doc["metadata"]["annotations"];
        assert_eq!(annotations["olm.skipRange"], Value::from("<0.1.0"));
        assert_eq!(
            annotations["createdAt"],
            Value::from("2019-10-07T12:00:00Z")
        );
        assert_eq!(out.csv.doc["spec"]["skips"][0], Value::from("op.v0.0.9"));
        assert!(!out.template_created_at);
        assert_eq!(
            out.rendered.0, out.csv.doc,
            "the rendered CSV is completed in place"
        );
    }

    #[test]
    fn failures_name_the_phase_and_the_file() {
        let spec = spec("icon: logo.png\n");
        let request = Request {
            spec: &spec,
            version: &semver::Version::new(0, 1, 0),
            created_at: "",
            skips: &[],
            skip_range: None,
        };
        let e = assemble::<One, CsvError>(&request, &mut NoFiles, |_| unreachable!()).unwrap_err();
        assert_eq!(e.to_string(), "assembling the CSV: logo.png: not here");
        let spec = spec_default();
        let request = Request {
            spec: &spec,
            ..request
        };
        let e = assemble::<_, CsvError>(&request, &mut NoFiles, |_| {
            Ok(One(serde_yaml_ng::from_str(
                "metadata: {annotations: {}}\nspec: {install: {spec: {}}}\n",
            )
            .unwrap()))
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "csv.yaml.in: the CSV has no metadata.name");
        let e = assemble::<_, CsvError>(&request, &mut NoFiles, |_| {
            Ok(One(serde_yaml_ng::from_str("metadata: [1]\n").unwrap()))
        })
        .unwrap_err();
        assert!(e.to_string().starts_with("csv.yaml.in: "), "{e}");
    }

    fn spec_default() -> CsvSpec {
        spec("{}")
    }
}
