//! Field types, checked as the API server and the Go loaders check them when they decode a CSV
//! into the ClusterServiceVersion type: a YAML number where a string is declared
//! (`minKubeVersion: 1.21`), a string where a list is (`maintainers: someone`), an annotation
//! that is not a string. Such a CSV fails to decode as a whole (operator-registry's ConfigMap
//! loader, which reads flat bundles; operator-framework/api), or is refused by the API server
//! at install (a package tree's CSVs, which the registry's directory loader stores undecoded).
//! operator-courier checks only that the install strategy's deployments and permissions are
//! lists.
//!
//! The type table covers the fields of the ClusterServiceVersion API that authors write; a
//! field it does not list is not checked (an unknown field is dropped by the decoders).

use serde_yaml_ng::Value;

use super::csv::type_name;
use super::rules;
use super::rules::Tool;
use super::sink::{At, Sink};
use crate::Manifest;

/// A declared type.
enum T {
    Str,
    Bool,
    /// A mapping of strings to strings (labels, annotations).
    StrMap,
    /// Any mapping (a type this table does not go into).
    Obj,
    List(&'static T),
    /// A mapping with these known fields.
    Fields(&'static [(&'static str, T)]),
}

const STR: T = T::Str;
const OBJ: T = T::Obj;
const DESCRIPTORS: T = T::List(&T::Fields(&[
    ("path", STR),
    ("displayName", STR),
    ("description", STR),
    ("x-descriptors", T::List(&STR)),
]));
const API_DESCRIPTIONS: T = T::List(&T::Fields(&[
    ("name", STR),
    ("version", STR),
    ("kind", STR),
    ("displayName", STR),
    ("description", STR),
    ("resources", T::List(&OBJ)),
    ("specDescriptors", DESCRIPTORS),
    ("statusDescriptors", DESCRIPTORS),
    ("actionDescriptors", DESCRIPTORS),
]));
const PERMISSIONS: T = T::List(&T::Fields(&[
    ("serviceAccountName", STR),
    ("rules", T::List(&OBJ)),
]));
const CSV: T = T::Fields(&[
    ("apiVersion", STR),
    ("kind", STR),
    (
        "metadata",
        T::Fields(&[
            ("name", STR),
            ("namespace", STR),
            ("labels", T::StrMap),
            ("annotations", T::StrMap),
        ]),
    ),
    (
        "spec",
        T::Fields(&[
            ("displayName", STR),
            ("description", STR),
            ("version", STR),
            ("replaces", STR),
            ("skips", T::List(&STR)),
            ("minKubeVersion", STR),
            ("maturity", STR),
            ("keywords", T::List(&STR)),
            (
                "maintainers",
                T::List(&T::Fields(&[("name", STR), ("email", STR)])),
            ),
            ("links", T::List(&T::Fields(&[("name", STR), ("url", STR)]))),
            ("provider", T::Fields(&[("name", STR), ("url", STR)])),
            (
                "icon",
                T::List(&T::Fields(&[("base64data", STR), ("mediatype", STR)])),
            ),
            ("labels", T::StrMap),
            ("annotations", T::StrMap),
            ("selector", OBJ),
            (
                "installModes",
                T::List(&T::Fields(&[("type", STR), ("supported", T::Bool)])),
            ),
            (
                "install",
                T::Fields(&[
                    ("strategy", STR),
                    (
                        "spec",
                        T::Fields(&[
                            (
                                "deployments",
                                T::List(&T::Fields(&[
                                    ("name", STR),
                                    ("spec", OBJ),
                                    ("label", T::StrMap),
                                ])),
                            ),
                            ("permissions", PERMISSIONS),
                            ("clusterPermissions", PERMISSIONS),
                        ]),
                    ),
                ]),
            ),
            (
                "customresourcedefinitions",
                T::Fields(&[("owned", API_DESCRIPTIONS), ("required", API_DESCRIPTIONS)]),
            ),
            (
                "apiservicedefinitions",
                T::Fields(&[("owned", T::List(&OBJ)), ("required", T::List(&OBJ))]),
            ),
            ("nativeAPIs", T::List(&OBJ)),
            ("webhookdefinitions", T::List(&OBJ)),
            (
                "relatedImages",
                T::List(&T::Fields(&[("name", STR), ("image", STR)])),
            ),
            ("cleanup", T::Fields(&[("enabled", T::Bool)])),
        ]),
    ),
]);

/// The fields whose list type courier checks too.
const COURIER_LISTS: &[&str] = &[
    "spec.install.spec.deployments",
    "spec.install.spec.permissions",
    "spec.install.spec.clusterPermissions",
];

pub fn check(csv: &Manifest, sink: &mut Sink) {
    let at = At::of(csv);
    walk(&CSV, &csv.doc, "", &at, sink);
}

fn expected(t: &T) -> &'static str {
    match t {
        T::Str => "a string",
        T::Bool => "a boolean",
        T::StrMap => "a mapping of strings",
        T::Obj | T::Fields(_) => "a mapping",
        T::List(_) => "a list",
    }
}

fn walk(t: &T, v: &Value, path: &str, at: &At, sink: &mut Sink) {
    let v = match v {
        Value::Tagged(tagged) => &tagged.value,
        Value::Null => return, // a null decodes as the empty value
        v => v,
    };
    let fits = match t {
        T::Str => v.is_string(),
        T::Bool => v.is_bool(),
        T::StrMap | T::Obj | T::Fields(_) => v.is_mapping(),
        T::List(_) => v.is_sequence(),
    };
    if !fits {
        // certified and the examples have rules of their own.
        if [
            "metadata.annotations.certified",
            "metadata.annotations.alm-examples",
            "metadata.annotations.olm.examples",
        ]
        .contains(&path)
        {
            return;
        }
        let shown = match v {
            Value::Number(n) => format!("a number ({n})"),
            Value::Bool(b) => format!("a boolean ({b})"),
            Value::String(s) if s.len() <= 40 => format!("a string ({s:?})"),
            other => type_name(other).to_string(),
        };
        let quote = if matches!(t, T::Str) && matches!(v, Value::Number(_) | Value::Bool(_)) {
            "; quote it"
        } else {
            ""
        };
        let msg = format!("is {shown}, but the API declares {}{quote}", expected(t));
        // The ConfigMap loader decodes a flat bundle's CSVs into the typed API; the directory
        // loader of a package tree keeps the spec as raw JSON.
        let except: &[Tool] = match (COURIER_LISTS.contains(&path), sink.nested) {
            (true, false) => &[],
            (true, true) => &[Tool::OperatorRegistry],
            (false, false) => &[Tool::Courier],
            (false, true) => &[Tool::Courier, Tool::OperatorRegistry],
        };
        sink.add_except(&rules::FIELD_TYPE, except, at, path, msg);
        return;
    }
    let join = |k: &str| {
        if path.is_empty() {
            k.to_string()
        } else {
            format!("{path}.{k}")
        }
    };
    match (t, v) {
        (T::StrMap, Value::Mapping(m)) => {
            for (k, item) in m {
                let key = k.as_str().unwrap_or("?");
                walk(&T::Str, item, &join(key), at, sink);
            }
        }
        (T::Fields(fields), Value::Mapping(m)) => {
            for (name, ft) in *fields {
                if let Some(item) = m.get(*name) {
                    walk(ft, item, &join(name), at, sink);
                }
            }
        }
        (T::List(inner), Value::Sequence(items)) => {
            for (i, item) in items.iter().enumerate() {
                walk(inner, item, &format!("{path}[{i}]"), at, sink);
            }
        }
        _ => {}
    }
}
