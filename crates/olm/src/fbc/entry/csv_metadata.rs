//! The `olm.csv.metadata` property: what OLM's package server and the console show for a bundle
//! (display name, description, install modes, owned APIs, …), taken from its CSV the way
//! operator-registry builds it (`alpha/property/property.go`, `MustBuildCSVMetadata`, through the
//! `bundle-object-to-csv-metadata` migration of `opm render --migrate-level`).
//!
//! The value is the CSV's fields as operator-framework/api's Go types hold them
//! (`pkg/operators/v1alpha1/clusterserviceversion_types.go`): fields those types do not have are
//! dropped, empty optional fields left out, and the three struct-typed fields
//! (`apiServiceDefinitions`, `crdDescriptions`, `provider`) always present, `{}` when empty, as
//! Go's encoder writes them. Keys are sorted, as `opm render -o yaml` writes every mapping. The
//! icon is not part of it (the package carries it).
//!
//! Keys are matched as Go's `encoding/json` matches an object's keys to a struct's fields
//! (<https://pkg.go.dev/encoding/json#Unmarshal>): the exact name, or failing that a key equal to
//! it without regard to case (Unicode simple folding, as `bytes.EqualFold`), so a CSV writing
//! `Kind: Job` gives `kind: Job`, as opm writes it. When several keys match one field, the last
//! one in the document is the value (Go decodes each in turn into the same field).

use serde_yaml_ng::{Mapping, Value};

use crate::Manifest;

/// One field of a Go struct: its JSON name, how its value is read, and whether an empty value
/// is left out (`omitempty`).
type Field = (&'static str, Kind, bool);

#[derive(Clone, Copy)]
enum Kind {
    Str,
    Bool,
    Int,
    /// Any JSON value, as read (a `json.RawMessage`).
    Raw,
    Strings,
    StringMap,
    Struct(&'static [Field]),
    List(&'static [Field]),
}

const RESOURCE: &[Field] = &[
    ("name", Kind::Str, false),
    ("kind", Kind::Str, false),
    ("version", Kind::Str, false),
];

const DESCRIPTOR: &[Field] = &[
    ("path", Kind::Str, false),
    ("displayName", Kind::Str, true),
    ("description", Kind::Str, true),
    ("x-descriptors", Kind::Strings, true),
    ("value", Kind::Raw, true),
];

const CRD_DESCRIPTION: &[Field] = &[
    ("name", Kind::Str, false),
    ("version", Kind::Str, false),
    ("kind", Kind::Str, false),
    ("displayName", Kind::Str, true),
    ("description", Kind::Str, true),
    ("resources", Kind::List(RESOURCE), true),
    ("statusDescriptors", Kind::List(DESCRIPTOR), true),
    ("specDescriptors", Kind::List(DESCRIPTOR), true),
    ("actionDescriptors", Kind::List(DESCRIPTOR), true),
];

const API_SERVICE_DESCRIPTION: &[Field] = &[
    ("name", Kind::Str, false),
    ("group", Kind::Str, false),
    ("version", Kind::Str, false),
    ("kind", Kind::Str, false),
    ("deploymentName", Kind::Str, true),
    ("containerPort", Kind::Int, true),
    ("displayName", Kind::Str, true),
    ("description", Kind::Str, true),
    ("resources", Kind::List(RESOURCE), true),
    ("statusDescriptors", Kind::List(DESCRIPTOR), true),
    ("specDescriptors", Kind::List(DESCRIPTOR), true),
    ("actionDescriptors", Kind::List(DESCRIPTOR), true),
];

const CRDS: &[Field] = &[
    ("owned", Kind::List(CRD_DESCRIPTION), true),
    ("required", Kind::List(CRD_DESCRIPTION), true),
];

const API_SERVICES: &[Field] = &[
    ("owned", Kind::List(API_SERVICE_DESCRIPTION), true),
    ("required", Kind::List(API_SERVICE_DESCRIPTION), true),
];

const INSTALL_MODE: &[Field] = &[("type", Kind::Str, false), ("supported", Kind::Bool, false)];
const APP_LINK: &[Field] = &[("name", Kind::Str, true), ("url", Kind::Str, true)];
const MAINTAINER: &[Field] = &[("name", Kind::Str, true), ("email", Kind::Str, true)];
const GVK: &[Field] = &[
    ("group", Kind::Str, false),
    ("version", Kind::Str, false),
    ("kind", Kind::Str, false),
];

/// The value of the `olm.csv.metadata` property of the bundle holding `csv`.
pub fn csv_metadata(csv: &Manifest) -> Value {
    let meta = field(Some(&csv.doc), "metadata");
    let spec = field(Some(&csv.doc), "spec");
    let from_spec = |k: &str| field(spec, k);
    // (key, source, kind, omitempty), in the Go struct's order; sorted below.
    let fields: [(&str, Option<&Value>, Kind, bool); 14] = [
        (
            "annotations",
            field(meta, "annotations"),
            Kind::StringMap,
            true,
        ),
        (
            "apiServiceDefinitions",
            from_spec("apiservicedefinitions"),
            Kind::Struct(API_SERVICES),
            false,
        ),
        (
            "crdDescriptions",
            from_spec("customresourcedefinitions"),
            Kind::Struct(CRDS),
            false,
        ),
        ("description", from_spec("description"), Kind::Str, true),
        ("displayName", from_spec("displayName"), Kind::Str, true),
        (
            "installModes",
            from_spec("installModes"),
            Kind::List(INSTALL_MODE),
            true,
        ),
        ("keywords", from_spec("keywords"), Kind::Strings, true),
        ("labels", field(meta, "labels"), Kind::StringMap, true),
        ("links", from_spec("links"), Kind::List(APP_LINK), true),
        (
            "maintainers",
            from_spec("maintainers"),
            Kind::List(MAINTAINER),
            true,
        ),
        ("maturity", from_spec("maturity"), Kind::Str, true),
        (
            "minKubeVersion",
            from_spec("minKubeVersion"),
            Kind::Str,
            true,
        ),
        ("nativeAPIs", from_spec("nativeAPIs"), Kind::List(GVK), true),
        (
            "provider",
            from_spec("provider"),
            Kind::Struct(APP_LINK),
            false,
        ),
    ];
    let mut out = Mapping::new();
    for (key, source, kind, omit) in fields {
        put(&mut out, key, source, kind, omit);
    }
    sorted(Value::Mapping(out))
}

/// Sets `key` from `source` read as `kind`, unless it is empty and `omit`.
fn put(out: &mut Mapping, key: &str, source: Option<&Value>, kind: Kind, omit: bool) {
    let value = convert(source, kind);
    let empty = match &value {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_i64() == Some(0),
        Value::Sequence(s) => s.is_empty(),
        Value::Mapping(m) => m.is_empty() && !matches!(kind, Kind::Struct(_)),
        Value::Tagged(_) => false,
    };
    // A `json.RawMessage` is left out only when absent.
    let absent = matches!(kind, Kind::Raw) && source.is_none();
    if (omit && empty && !matches!(kind, Kind::Raw)) || absent {
        return;
    }
    out.insert(Value::from(key), value);
}

/// `source` as a Go value of `kind` (zero when absent or of another type).
fn convert(source: Option<&Value>, kind: Kind) -> Value {
    let source = source.map(untag);
    match kind {
        Kind::Str => Value::from(source.and_then(scalar_text).unwrap_or_default()),
        Kind::Bool => Value::Bool(source.and_then(Value::as_bool).unwrap_or(false)),
        Kind::Int => Value::from(source.and_then(Value::as_i64).unwrap_or(0)),
        Kind::Raw => source.cloned().unwrap_or(Value::Null),
        Kind::Strings => Value::Sequence(
            source
                .and_then(Value::as_sequence)
                .map(|s| s.iter().filter_map(scalar_text).map(Value::from).collect())
                .unwrap_or_default(),
        ),
        Kind::StringMap => Value::Mapping(
            source
                .and_then(Value::as_mapping)
                .map(|m| {
                    m.iter()
                        .filter_map(|(k, v)| {
                            Some((Value::from(scalar_text(k)?), Value::from(scalar_text(v)?)))
                        })
                        .collect()
                })
                .unwrap_or_default(),
        ),
        Kind::Struct(fields) => {
            let mut out = Mapping::new();
            for &(key, kind, omit) in fields {
                put(&mut out, key, field(source, key), kind, omit);
            }
            Value::Mapping(out)
        }
        Kind::List(fields) => Value::Sequence(
            source
                .and_then(Value::as_sequence)
                .map(|items| {
                    items
                        .iter()
                        .map(|item| convert(Some(item), Kind::Struct(fields)))
                        .collect()
                })
                .unwrap_or_default(),
        ),
    }
}

/// The value Go's `encoding/json` decodes into the struct field named `name` from the object
/// `source`: the last key equal to `name`, or equal to it without regard to case.
fn field<'a>(source: Option<&'a Value>, name: &str) -> Option<&'a Value> {
    let map = untag(source?).as_mapping()?;
    map.iter()
        .filter(|(k, _)| matches!(untag(k), Value::String(k) if folds_to(k, name)))
        .map(|(_, v)| v)
        .last()
}

/// Whether `key` equals the ASCII field name `name` under Unicode simple case folding, as Go's
/// `bytes.EqualFold`: ASCII letters in either case, and the two non-ASCII letters that fold to
/// ASCII ones, `ſ` (U+017F, to `s`) and the Kelvin sign `K` (U+212A, to `k`).
fn folds_to(key: &str, name: &str) -> bool {
    let mut key = key.chars();
    for n in name.chars() {
        let Some(k) = key.next() else { return false };
        let k = match k {
            '\u{017F}' => 's',
            '\u{212A}' => 'k',
            k => k,
        };
        if !k.eq_ignore_ascii_case(&n) {
            return false;
        }
    }
    key.next().is_none()
}

fn untag(v: &Value) -> &Value {
    match v {
        Value::Tagged(t) => untag(&t.value),
        v => v,
    }
}

/// A scalar's text (strings as they are, numbers and booleans as written).
fn scalar_text(v: &Value) -> Option<String> {
    match untag(v) {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// `v` with every mapping's keys sorted by their text, as `opm render -o yaml` writes them.
pub(crate) fn sorted(v: Value) -> Value {
    match v {
        Value::Mapping(m) => {
            let mut entries: Vec<(String, Value, Value)> = m
                .into_iter()
                .map(|(k, v)| (super::gojson::key_text(&k), k, sorted(v)))
                .collect();
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            Value::Mapping(entries.into_iter().map(|(_, k, v)| (k, v)).collect())
        }
        Value::Sequence(s) => Value::Sequence(s.into_iter().map(sorted).collect()),
        Value::Tagged(t) => sorted(t.value),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csv(yaml: &str) -> Manifest {
        Manifest::new("csv.yaml", serde_yaml_ng::from_str(yaml).unwrap())
    }

    #[test]
    fn keys_match_fields_as_go_decodes_them_without_regard_to_case() {
        let m = csv_metadata(&csv(
            "Metadata:\n  ANNOTATIONS: {a: b}\nspec:\n  displayname: First\n  displayName: Last\n  CustomResourceDefinitions:\n    Owned:\n    - {Name: jobs.example.com, Version: v1, Kind: Job, \u{017F}pecdescriptors: [{Path: size}]}\n  provider: {NAME: Acme, \u{212A}ind: x}\n",
        ));
        let crd = &m["crdDescriptions"]["owned"][0];
        assert_eq!(crd["kind"], Value::from("Job"));
        assert_eq!(crd["name"], Value::from("jobs.example.com"));
        assert_eq!(crd["version"], Value::from("v1"));
        assert_eq!(crd["specDescriptors"][0]["path"], Value::from("size"));
        assert_eq!(m["annotations"]["a"], Value::from("b"));
        assert_eq!(
            m["displayName"],
            Value::from("Last"),
            "the last matching key wins"
        );
        assert_eq!(m["provider"]["name"], Value::from("Acme"));
        assert!(
            m["provider"].get("kind").is_none(),
            "unknown fields dropped"
        );
    }

    #[test]
    fn folding_is_go_equal_fold_for_ascii_names() {
        assert!(folds_to("KIND", "kind"));
        assert!(folds_to("\u{212A}ind", "kind"));
        assert!(folds_to("\u{017F}pec", "spec"));
        assert!(!folds_to("kinds", "kind"));
        assert!(!folds_to("kin", "kind"));
        assert!(!folds_to("k\u{0130}nd", "kind"));
    }

    #[test]
    fn go_shapes_sorted_keys_and_always_present_structs() {
        let m = csv_metadata(&csv(
            "metadata:\n  name: a.v1.0.0\n  annotations: {capabilities: Basic Install, alm-examples: '[]'}\nspec:\n  displayName: A\n  version: 1.0.0\n  icon: [{base64data: eA==, mediatype: image/png}]\n  installModes:\n  - {type: OwnNamespace, supported: true}\n  - {type: AllNamespaces}\n  keywords: []\n  customresourcedefinitions:\n    owned:\n    - {name: as.example.com, version: v1, kind: A, unknown: x, specDescriptors: [{path: size, value: {b: 1, a: 2}}]}\n",
        ));
        let text = olm_release_base::yaml::to_string(&m);
        assert_eq!(
            text,
            "annotations:\n  alm-examples: '[]'\n  capabilities: Basic Install\napiServiceDefinitions: {}\ncrdDescriptions:\n  owned:\n  - kind: A\n    name: as.example.com\n    specDescriptors:\n    - path: size\n      value:\n        a: 2\n        b: 1\n    version: v1\ndisplayName: A\ninstallModes:\n- supported: true\n  type: OwnNamespace\n- supported: false\n  type: AllNamespaces\nprovider: {}\n"
        );
    }
}
