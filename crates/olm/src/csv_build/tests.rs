//! Unit tests of the structural CSV assembly: parts built from RBAC and Deployment documents
//! and set into a parsed CSV at their place.

use super::*;

fn y(s: &str) -> Value {
    serde_yaml_ng::from_str(s).unwrap()
}

fn parts() -> Parts {
    Parts {
        name: Some("op.v1.0.0".into()),
        version: "1.0.0".into(),
        created_at: "2019-04-05T00:00:00Z".into(),
        created_at_policy: spec::CreatedAtPolicy::Keep,
        skips: vec![],
        skip_range: None,
        images: BTreeMap::new(),
        icon: Some(Icon::from_bytes("i", b"GIF89a").unwrap()),
        cluster_permissions: vec![Permission {
            service_account: "op".into(),
            rules: vec![y("{apiGroups: [''], resources: [pods], verbs: [get]}")],
        }],
        permissions: vec![],
        deployments: vec![Deployment {
            name: "op".into(),
            spec: y("template: {spec: {containers: [{name: op, image: 'reg/op:v1'}]}}"),
        }],
    }
}

#[test]
fn lookup_by_name_and_index() {
    let t = parts().to_yaml();
    assert_eq!(
        lookup(&t, "clusterPermissions[op].rules[0].verbs[0]"),
        Some(&y("get"))
    );
    assert_eq!(lookup(&t, "deployments[0].name"), Some(&y("op")));
    assert_eq!(lookup(&t, "icon.mediatype"), Some(&y("image/gif")));
    assert_eq!(lookup(&t, "deployments[nope].spec"), None);
}

#[test]
fn created_at_is_kept_unless_asked_and_skips_are_set() {
    let text = "metadata: {name: x, annotations: {createdAt: '2020-01-01T00:00:00Z'}}\nspec: {}\n";
    let mut kept = y(text);
    let mut p = parts();
    p.skips = vec!["op.v0.9.0".into()];
    p.skip_range = Some(">=0.5.0 <1.0.0".into());
    apply(&mut kept, &p).unwrap();
    assert_eq!(
        kept["metadata"]["annotations"]["createdAt"],
        y("'2020-01-01T00:00:00Z'")
    );
    assert_eq!(kept["spec"]["skips"][0], y("op.v0.9.0"));
    assert_eq!(
        kept["metadata"]["annotations"]["olm.skipRange"],
        y("'>=0.5.0 <1.0.0'")
    );
    // A CSV without createdAt gets none unless the pipeline asks (opm keeps a bundle's CSV).
    let mut none = y("metadata: {name: x}\nspec: {}\n");
    apply(&mut none, &p).unwrap();
    assert!(none["metadata"]["annotations"].get("createdAt").is_none());
    let mut set = y(text);
    p.created_at_policy = spec::CreatedAtPolicy::Set;
    apply(&mut set, &p).unwrap();
    assert_eq!(
        set["metadata"]["annotations"]["createdAt"],
        y("'2019-04-05T00:00:00Z'")
    );
}

#[test]
fn apply_replaces_parts_in_place() {
    let mut csv = y(
        "metadata: {name: x}\nspec:\n  version: 0.0.0\n  replaces:\n  icon: [{base64data: '', mediatype: image/png}]\n  install:\n    strategy: deployment\n    spec:\n      deployments: [{name: op, spec: {}}]\n",
    );
    let mut p = parts();
    let mut untouched = csv.clone();
    apply(&mut untouched, &p).unwrap();
    assert!(
        untouched["metadata"]["annotations"]
            .get("containerImage")
            .is_none(),
        "no image named by the pipeline: no containerImage guessed"
    );
    p.images = BTreeMap::from([("op".to_string(), "reg/op:v2".to_string())]);
    apply(&mut csv, &p).unwrap();
    assert_eq!(csv["metadata"]["name"], y("op.v1.0.0"));
    assert_eq!(
        csv["metadata"]["annotations"]["containerImage"],
        y("reg/op:v2")
    );
    assert_eq!(csv["spec"]["version"], y("'1.0.0'"));
    assert!(csv["spec"].get("replaces").is_none());
    assert_eq!(csv["spec"]["icon"][0]["mediatype"], y("image/gif"));
    let deployments = csv["spec"]["install"]["spec"]["deployments"]
        .as_sequence()
        .unwrap();
    assert_eq!(deployments.len(), 1);
    assert_eq!(
        csv["spec"]["install"]["spec"]["clusterPermissions"][0]["serviceAccountName"],
        y("op")
    );
}

/// operator-sdk's CSV base says `deployments: null` (no deployments yet): the parts' deployments
/// are set there; a value that is neither a list nor null is still an error.
#[test]
fn apply_sets_deployments_into_a_null_list_of_a_csv_base() {
    let text = "metadata: {name: x}\nspec:\n  install:\n    strategy: ''\n    spec:\n      deployments: null\n";
    let mut csv = y(text);
    apply(&mut csv, &parts()).unwrap();
    let deployments = csv["spec"]["install"]["spec"]["deployments"]
        .as_sequence()
        .unwrap();
    assert_eq!(deployments.len(), 1);
    assert_eq!(deployments[0]["name"], y("op"));
    let mut bad = y(&text.replace("deployments: null", "deployments: op"));
    let e = apply(&mut bad, &parts()).unwrap_err();
    assert!(matches!(e, CsvError::DeploymentsNotList), "{e}");
}
