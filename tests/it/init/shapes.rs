//! `init` on fixtures in the shapes of the repositories where it went wrong, each
//! small and written here: HCO's operator-sdk catalog (package-manifest and registry+v1 version
//! folders mixed, the newest by SemVer; a complete CSV with several deployments and service
//! accounts beside plain manifests and cert-manager's RBAC), jaeger's registry+v1 `bundle/`
//! beside a kubebuilder `config/` (a kustomize patch that looks like a Deployment, a CRD copy),
//! strimzi's several operators with copies in `packaging/` and a Helm chart, and
//! prometheus-operator's admission webhook beside its operator and two CRD folders.

use std::path::Path;

use serde_yaml_ng::Value;

use super::{put, run_variant, yaml};
use crate::support::{assert_code, olm_release, stderr};

fn init(r: &Path, extra: &[&str]) -> String {
    let mut args = vec!["init", "--ci", "none", "--github", "example/op"];
    args.extend_from_slice(extra);
    let out = olm_release(r, &args, &[]);
    assert_code(&out, 0);
    stderr(&out)
}

fn crd(group: &str, plural: &str, kind: &str) -> String {
    format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {plural}.{group}\nspec:\n  group: {group}\n  names:\n    kind: {kind}\n    plural: {plural}\n    listKind: {kind}List\n    singular: {}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        x-kubernetes-preserve-unknown-fields: true\n",
        kind.to_ascii_lowercase()
    )
}

fn deployment(name: &str, sa: Option<&str>, image: &str) -> String {
    let sa = sa
        .map(|s| format!("      serviceAccountName: {s}\n"))
        .unwrap_or_default();
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      name: {name}\n  template:\n    metadata:\n      labels:\n        name: {name}\n    spec:\n{sa}      containers:\n      - name: {name}\n        image: {image}\n        resources:\n          requests:\n            cpu: 10m\n            memory: 64Mi\n"
    )
}

fn role(kind: &str, name: &str, group: &str, resources: &str) -> String {
    format!(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: {kind}\nmetadata:\n  name: {name}\nrules:\n- apiGroups: [\"{group}\"]\n  resources: [{resources}]\n  verbs: [get, list, watch, create, update, patch, delete]\n"
    )
}

fn binding(kind: &str, role_kind: &str, role: &str, sa: &str) -> String {
    format!(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: {kind}\nmetadata:\n  name: {role}-{sa}\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: {role_kind}\n  name: {role}\nsubjects:\n- kind: ServiceAccount\n  name: {sa}\n  namespace: ns\n"
    )
}

/// A complete CSV: `deployments` are (name, service account, image); each account gets
/// clusterPermissions with one rule on `group`.
fn csv(
    name: &str,
    version: &str,
    owned: &[(&str, &str, &str)],
    deployments: &[(&str, &str, &str)],
) -> String {
    let mut s = format!(
        "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: {name}.v{version}\n  namespace: placeholder\n  annotations:\n    capabilities: Basic Install\n    categories: OpenShift Optional\n    alm-examples: '[]'\n    createdAt: \"2024-01-01T00:00:00Z\"\nspec:\n  displayName: {name}\n  description: The {name} operator.\n  version: {version}\n  maturity: stable\n  provider:\n    name: Example\n  maintainers:\n  - name: Example\n    email: op@example.com\n  links:\n  - name: Home\n    url: https://example.com\n  keywords: [op]\n  icon:\n  - base64data: iVBORw0KGgo=\n    mediatype: image/png\n  installModes:\n  - {{type: OwnNamespace, supported: true}}\n  - {{type: SingleNamespace, supported: true}}\n  - {{type: MultiNamespace, supported: false}}\n  - {{type: AllNamespaces, supported: true}}\n  customresourcedefinitions:\n    owned:\n"
    );
    for (n, kind, v) in owned {
        s.push_str(&format!(
            "    - name: {n}\n      version: {v}\n      kind: {kind}\n      displayName: {kind}\n      description: A {kind}.\n"
        ));
    }
    s.push_str("  install:\n    strategy: deployment\n    spec:\n      clusterPermissions:\n");
    for (_, sa, _) in deployments {
        s.push_str(&format!(
            "      - serviceAccountName: {sa}\n        rules:\n        - apiGroups: [\"{sa}.example.com\"]\n          resources: [\"*\"]\n          verbs: [get]\n"
        ));
    }
    s.push_str("      deployments:\n");
    for (d, sa, image) in deployments {
        let body = deployment(d, Some(sa), image);
        let spec = body
            .split("spec:\n")
            .skip(1)
            .collect::<Vec<_>>()
            .join("spec:\n");
        s.push_str(&format!("      - name: {d}\n        spec:\n"));
        for line in spec.lines() {
            s.push_str(&format!("          {line}\n"));
        }
    }
    s
}

fn annotations(package: &str, channels: &str, default: &str) -> String {
    format!(
        "annotations:\n  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n  operators.operatorframework.io.bundle.manifests.v1: manifests/\n  operators.operatorframework.io.bundle.metadata.v1: metadata/\n  operators.operatorframework.io.bundle.package.v1: {package}\n  operators.operatorframework.io.bundle.channels.v1: {channels}\n  operators.operatorframework.io.bundle.channel.default.v1: {default}\n"
    )
}

/// The CSV `run --variant local` attached to the release, parsed.
fn released_csv(r: &Path, version: &str, name: &str) -> Value {
    yaml(&r.join(format!(
        "_out/local/release/v{version}/{name}.v{version}.clusterserviceversion.yaml"
    )))
}

fn names(v: &Value, list: &str, key: &str) -> Vec<String> {
    v["spec"]["install"]["spec"][list]
        .as_sequence()
        .map(|s| {
            s.iter()
                .map(|d| d[key].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn hco_shape_takes_the_newest_version_folder_and_keeps_its_csv_whole() {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    let tree = "deploy/olm-catalog/community-kubevirt-hyperconverged";
    put(
        r,
        &format!("{tree}/kubevirt-hyperconverged.package.yaml"),
        "packageName: community-kubevirt-hyperconverged\nchannels:\n- name: \"1.2.0\"\n  currentCSV: kubevirt-hyperconverged-operator.v1.2.0\ndefaultChannel: \"1.2.0\"\n",
    );
    let owned = [("hyperconvergeds.hco.kubevirt.io", "HyperConverged", "v1")];
    let deployments = [
        (
            "hco-operator",
            "hyperconverged-cluster-operator",
            "quay.io/kubevirt/hyperconverged-cluster-operator:1.10.0-unstable",
        ),
        (
            "cdi-operator",
            "cdi-operator",
            "quay.io/kubevirt/cdi-operator@sha256:45964f62a027e09463c8dd48a2cbaf063c0afe771edb18e505f4461d0915984c",
        ),
    ];
    let hco_crd = crd("hco.kubevirt.io", "hyperconvergeds", "HyperConverged");
    // 1.2.0: a package-manifest folder; 1.3.0 and 1.10.0: registry+v1 (1.10.0 is the newest:
    // by name order it would sort before 1.2.0).
    put(r, &format!("{tree}/1.2.0/hco00.crd.yaml"), &hco_crd);
    put(
        r,
        &format!("{tree}/1.2.0/kubevirt-hyperconverged-operator.v1.2.0.clusterserviceversion.yaml"),
        &csv(
            "kubevirt-hyperconverged-operator",
            "1.2.0",
            &owned,
            &deployments[..1],
        ),
    );
    for v in ["1.3.0", "1.10.0"] {
        put(r, &format!("{tree}/{v}/manifests/hco00.crd.yaml"), &hco_crd);
        put(
            r,
            &format!(
                "{tree}/{v}/manifests/kubevirt-hyperconverged-operator.v{v}.clusterserviceversion.yaml"
            ),
            &csv("kubevirt-hyperconverged-operator", v, &owned, &deployments),
        );
        put(
            r,
            &format!("{tree}/{v}/metadata/annotations.yaml"),
            &annotations("community-kubevirt-hyperconverged", v, v),
        );
    }
    // A copy of the newest for an index image, and plain manifests beside the catalog.
    let copy = "deploy/index-image/community-kubevirt-hyperconverged/1.10.0";
    put(r, &format!("{copy}/manifests/hco00.crd.yaml"), &hco_crd);
    put(
        r,
        &format!(
            "{copy}/manifests/kubevirt-hyperconverged-operator.v1.10.0.clusterserviceversion.yaml"
        ),
        &csv(
            "kubevirt-hyperconverged-operator",
            "1.10.0",
            &owned,
            &deployments,
        ),
    );
    put(
        r,
        &format!("{copy}/metadata/annotations.yaml"),
        &annotations("community-kubevirt-hyperconverged", "1.10.0", "1.10.0"),
    );
    put(
        r,
        "deploy/operator.yaml",
        &[
            deployment(
                "hyperconverged-cluster-operator",
                Some("hyperconverged-cluster-operator"),
                "quay.io/kubevirt/hyperconverged-cluster-operator:latest",
            ),
            deployment(
                "cert-manager",
                Some("cert-manager"),
                "quay.io/jetstack/cert-manager-controller:v1.0.0",
            ),
        ]
        .join("---\n"),
    );
    put(r, "deploy/cert-manager.yaml", &[
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: cert-manager\nrules:\n- apiGroups: [\"*\"]\n  resources: [\"*\"]\n  verbs: [\"*\"]\n".to_string(),
        binding("ClusterRoleBinding", "ClusterRole", "cert-manager", "hyperconverged-cluster-operator"),
    ].join("---\n"));

    let said = init(r, &[]);
    for needle in [
        format!("found: layout: operator-sdk catalog {tree}/, newest version 1.10.0 (a registry+v1 bundle: {tree}/1.10.0/)"),
        format!("found: package community-kubevirt-hyperconverged (from {tree}/1.10.0/metadata/annotations.yaml), channel 1.10.0"),
        "(complete: its deployments and permissions stay as written)".to_string(),
        "names default channel 1.2.0, not 1.10.0".to_string(),
        format!("version 1.10.0 taken from {tree}/1.10.0/; not taken: {copy} (the same version)"),
        "found: image of container hco-operator: quay.io/kubevirt/hyperconverged-cluster-operator:${VERSION}".to_string(),
    ] {
        assert!(said.contains(&needle), "missing {needle:?} in\n{said}");
    }
    let pipeline = std::fs::read_to_string(r.join("pipelines/release.yaml")).unwrap();
    for absent in ["cluster_permissions", "deployments:", "cdi-operator:"] {
        assert!(
            !pipeline.contains(absent),
            "the CSV's own {absent} stays:\n{pipeline}"
        );
    }
    run_variant(r, Path::new("."), "local", "1.10.0", &[], false);
    let released = released_csv(r, "1.10.0", "kubevirt-hyperconverged-operator");
    assert_eq!(
        names(&released, "deployments", "name"),
        ["hco-operator", "cdi-operator"],
        "no tenth Deployment"
    );
    assert_eq!(
        names(&released, "clusterPermissions", "serviceAccountName"),
        ["hyperconverged-cluster-operator", "cdi-operator"],
        "every service account keeps its own permissions"
    );
    let rules = &released["spec"]["install"]["spec"]["clusterPermissions"][0]["rules"];
    assert_eq!(
        rules.as_sequence().unwrap().len(),
        1,
        "no cert-manager rules merged in: {rules:?}"
    );
}

#[test]
fn jaeger_shape_takes_the_registry_v1_bundle_whole_and_never_a_kustomize_patch() {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    let jaeger_crd = crd("jaegertracing.io", "jaegers", "Jaeger");
    put(
        r,
        "bundle/manifests/jaegertracing.io_jaegers.yaml",
        &jaeger_crd,
    );
    put(
        r,
        "bundle/manifests/jaeger-operator.clusterserviceversion.yaml",
        &csv(
            "jaeger-operator",
            "1.65.0",
            &[("jaegers.jaegertracing.io", "Jaeger", "v1")],
            &[(
                "jaeger-operator",
                "jaeger-operator",
                "quay.io/jaegertracing/jaeger-operator:1.65.0",
            )],
        ),
    );
    put(
        r,
        "bundle/manifests/jaeger-operator-metrics_v1_service.yaml",
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: jaeger-operator-metrics\nspec:\n  ports:\n  - port: 8443\n  selector:\n    name: jaeger-operator\n",
    );
    put(
        r,
        "bundle/manifests/jaeger-operator-webhook-service_v1_service.yaml",
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: jaeger-operator-webhook-service\nspec:\n  ports:\n  - port: 443\n  selector:\n    name: jaeger-operator\n",
    );
    put(
        r,
        "bundle/manifests/prometheus_rbac.authorization.k8s.io_v1_role.yaml",
        &role("Role", "prometheus", "", "services, endpoints, pods"),
    );
    put(
        r,
        "bundle/manifests/prometheus_rbac.authorization.k8s.io_v1_rolebinding.yaml",
        &binding("RoleBinding", "Role", "prometheus", "prometheus-k8s"),
    );
    put(
        r,
        "bundle/manifests/jaeger-operator-metrics-reader_rbac.authorization.k8s.io_v1_clusterrole.yaml",
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: jaeger-operator-metrics-reader\nrules:\n- nonResourceURLs: [/metrics]\n  verbs: [get]\n",
    );
    put(
        r,
        "bundle/metadata/annotations.yaml",
        &annotations("jaeger", "stable", "stable"),
    );
    put(
        r,
        "bundle/metadata/dependencies.yaml",
        "dependencies:\n- type: olm.package\n  value:\n    packageName: cert-manager\n    version: \">=1.0.0\"\n",
    );
    put(
        r,
        "bundle/tests/scorecard/config.yaml",
        "apiVersion: scorecard.operatorframework.io/v1alpha3\nkind: Configuration\nmetadata:\n  name: config\nstages: []\n",
    );
    // The kubebuilder tree the bundle was generated from.
    put(
        r,
        "config/crd/bases/jaegertracing.io_jaegers.yaml",
        &jaeger_crd,
    );
    put(
        r,
        "config/default/kustomization.yaml",
        "namespace: observability\nbases:\n- ../crd\n- ../manager\npatchesStrategicMerge:\n- manager_auth_proxy_patch.yaml\n",
    );
    put(
        r,
        "config/default/manager_auth_proxy_patch.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: jaeger-operator\nspec:\n  template:\n    spec:\n      containers:\n      - name: kube-rbac-proxy\n        image: gcr.io/kubebuilder/kube-rbac-proxy:v0.13.1\n      - name: jaeger-operator\n        args: [start]\n",
    );
    put(
        r,
        "config/manager/manager.yaml",
        &deployment("jaeger-operator", None, "controller:latest"),
    );
    put(
        r,
        "config/manifests/bases/jaeger-operator.clusterserviceversion.yaml",
        "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: jaeger-operator.v0.0.0\nspec:\n  version: 0.0.0\n",
    );

    let said = init(r, &[]);
    for needle in [
        "found: layout: registry+v1 bundle bundle/ (version 1.65.0)",
        "found: package jaeger (from bundle/metadata/annotations.yaml), channel stable",
        "found: CRD jaegers.jaegertracing.io in bundle/manifests/jaegertracing.io_jaegers.yaml (also in 1 other file, not taken: config/crd/bases/jaegertracing.io_jaegers.yaml)",
        "found: 5 other object files beside the CSV",
        "found: dependencies bundle/metadata/dependencies.yaml",
        "found: image of container jaeger-operator: quay.io/jaegertracing/jaeger-operator:${VERSION}",
    ] {
        assert!(said.contains(needle), "missing {needle:?} in\n{said}");
    }
    assert!(
        !said.contains("manager_auth_proxy_patch.yaml"),
        "a patch is never the Deployment:\n{said}"
    );
    let pipeline = std::fs::read_to_string(r.join("pipelines/release.yaml")).unwrap();
    assert!(!pipeline.contains("deployments:"), "{pipeline}");
    let bundle_templates = crate::support::list_files(&r.join("olm/bundle"));
    assert_eq!(
        bundle_templates
            .iter()
            .filter(|f| f.contains("jaegers"))
            .count(),
        1,
        "the CRD is included once: {bundle_templates:?}"
    );
    let out = run_variant(r, Path::new("."), "local", "1.65.0", &[], false);
    assert!(out.contains("published bundle image"), "{out}");
    let image = crate::support::list_files(&r.join("_out/jaeger-local/bundle-image"));
    // The bundle folder's own file names, as opm reads the folder.
    for f in [
        "manifests/jaeger-operator-metrics_v1_service.yaml",
        "manifests/jaeger-operator-webhook-service_v1_service.yaml",
        "manifests/prometheus_rbac.authorization.k8s.io_v1_role.yaml",
        "manifests/prometheus_rbac.authorization.k8s.io_v1_rolebinding.yaml",
        "manifests/jaeger-operator-metrics-reader_rbac.authorization.k8s.io_v1_clusterrole.yaml",
        "manifests/jaegertracing.io_jaegers.yaml",
        "metadata/dependencies.yaml",
    ] {
        assert!(
            image.contains(&f.to_string()),
            "missing {f} in the bundle image: {image:?}"
        );
    }
    let released = released_csv(r, "1.65.0", "jaeger-operator");
    let spec = &released["spec"]["install"]["spec"]["deployments"][0]["spec"];
    assert_eq!(spec["selector"]["matchLabels"]["name"], "jaeger-operator");
    assert_eq!(
        spec["template"]["spec"]["serviceAccountName"],
        "jaeger-operator"
    );
    assert_eq!(
        spec["template"]["spec"]["containers"][0]["image"],
        "quay.io/jaegertracing/jaeger-operator:1.65.0"
    );
}

/// strimzi's shape: a cluster and a topic operator, each with its CRDs, RBAC and (the cluster
/// operator) a ConfigMap; copies under packaging/ and in a Helm chart.
fn strimzi() -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    let co = "install/cluster-operator";
    let kafka = crd("kafka.strimzi.io", "kafkas", "Kafka");
    let topic = crd("kafka.strimzi.io", "kafkatopics", "KafkaTopic");
    put(
        r,
        &format!("{co}/010-ServiceAccount-strimzi-cluster-operator.yaml"),
        "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: strimzi-cluster-operator\n",
    );
    put(
        r,
        &format!("{co}/020-ClusterRole-strimzi-cluster-operator-role.yaml"),
        &role(
            "ClusterRole",
            "strimzi-cluster-operator-namespaced",
            "kafka.strimzi.io",
            "kafkas, kafkas/status, kafkatopics",
        ),
    );
    put(
        r,
        &format!("{co}/020-RoleBinding-strimzi-cluster-operator.yaml"),
        &binding(
            "RoleBinding",
            "ClusterRole",
            "strimzi-cluster-operator-namespaced",
            "strimzi-cluster-operator",
        ),
    );
    put(
        r,
        &format!("{co}/021-ClusterRole-strimzi-cluster-operator-role.yaml"),
        &role(
            "ClusterRole",
            "strimzi-cluster-operator-global",
            "",
            "nodes",
        ),
    );
    put(
        r,
        &format!("{co}/021-ClusterRoleBinding-strimzi-cluster-operator.yaml"),
        &binding(
            "ClusterRoleBinding",
            "ClusterRole",
            "strimzi-cluster-operator-global",
            "strimzi-cluster-operator",
        ),
    );
    put(
        r,
        &format!("{co}/030-ClusterRole-strimzi-kafka-broker.yaml"),
        &role("ClusterRole", "strimzi-kafka-broker", "", "nodes"),
    );
    put(
        r,
        &format!(
            "{co}/030-ClusterRoleBinding-strimzi-cluster-operator-kafka-broker-delegation.yaml"
        ),
        &binding(
            "ClusterRoleBinding",
            "ClusterRole",
            "strimzi-kafka-broker",
            "strimzi-cluster-operator",
        ),
    );
    put(r, &format!("{co}/040-Crd-kafka.yaml"), &kafka);
    put(r, &format!("{co}/043-Crd-kafkatopic.yaml"), &topic);
    put(
        r,
        &format!("{co}/050-ConfigMap-strimzi-cluster-operator.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: strimzi-cluster-operator\ndata:\n  log4j2.properties: x\n",
    );
    put(
        r,
        &format!("{co}/060-Deployment-strimzi-cluster-operator.yaml"),
        &deployment(
            "strimzi-cluster-operator",
            Some("strimzi-cluster-operator"),
            "quay.io/strimzi/operator:1.2.0",
        ),
    );
    let to = "install/topic-operator";
    put(
        r,
        &format!("{to}/01-ServiceAccount-strimzi-topic-operator.yaml"),
        "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: strimzi-topic-operator\n",
    );
    put(
        r,
        &format!("{to}/02-Role-strimzi-topic-operator.yaml"),
        &role(
            "Role",
            "strimzi-topic-operator",
            "kafka.strimzi.io",
            "kafkatopics, kafkatopics/status",
        ),
    );
    put(
        r,
        &format!("{to}/03-RoleBinding-strimzi-topic-operator.yaml"),
        &binding(
            "RoleBinding",
            "Role",
            "strimzi-topic-operator",
            "strimzi-topic-operator",
        ),
    );
    put(r, &format!("{to}/04-Crd-kafkatopic.yaml"), &topic);
    put(
        r,
        &format!("{to}/05-Deployment-strimzi-topic-operator.yaml"),
        &deployment(
            "strimzi-topic-operator",
            Some("strimzi-topic-operator"),
            "quay.io/strimzi/operator:1.2.0",
        ),
    );
    // The copies: the next release's files, a Helm chart's CRDs and templates.
    put(
        r,
        "packaging/install/cluster-operator/040-Crd-kafka.yaml",
        &kafka,
    );
    put(
        r,
        "packaging/install/cluster-operator/060-Deployment-strimzi-cluster-operator.yaml",
        &deployment(
            "strimzi-cluster-operator",
            Some("strimzi-cluster-operator"),
            "quay.io/strimzi/operator:latest",
        ),
    );
    let chart = "helm-charts/helm3/strimzi-kafka-operator";
    put(
        r,
        &format!("{chart}/Chart.yaml"),
        "apiVersion: v2\nname: strimzi-kafka-operator\nversion: 1.2.0\n",
    );
    put(r, &format!("{chart}/crds/040-Crd-kafka.yaml"), &kafka);
    put(
        r,
        &format!("{chart}/templates/060-Deployment-strimzi-cluster-operator.yaml"),
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Values.name }}\nspec:\n  selector:\n    matchLabels:\n      name: x\n  template:\n    spec:\n      containers:\n      - name: op\n        image: {{ .Values.image }}\n",
    );
    repo
}

#[test]
fn strimzi_shape_lists_the_operators_and_takes_each_crd_once() {
    let repo = strimzi();
    let r = repo.path();
    let said = init(r, &[]);
    for needle in [
        "found: 2 operators here (--operator NAME chooses): strimzi-cluster-operator in install/cluster-operator/060-Deployment-strimzi-cluster-operator.yaml (manages 2 CRDs); strimzi-topic-operator in install/topic-operator/05-Deployment-strimzi-topic-operator.yaml (manages 1 CRD)",
        "found: package strimzi-cluster-operator, channel alpha",
        "found: CRD kafkas.kafka.strimzi.io in install/cluster-operator/040-Crd-kafka.yaml (also in 2 other files, not taken: packaging/install/cluster-operator/040-Crd-kafka.yaml, helm-charts/helm3/strimzi-kafka-operator/crds/040-Crd-kafka.yaml)",
        "found: CRD kafkatopics.kafka.strimzi.io in install/cluster-operator/043-Crd-kafkatopic.yaml (also in 1 other file, not taken: install/topic-operator/04-Crd-kafkatopic.yaml)",
        "found: 1 other object file beside the CSV: install/cluster-operator/050-ConfigMap-strimzi-cluster-operator.yaml",
        "found: service account strimzi-cluster-operator: clusterPermissions from strimzi-cluster-operator-global, strimzi-kafka-broker",
        "found: service account strimzi-cluster-operator: permissions from strimzi-cluster-operator-namespaced",
        "found: Deployment strimzi-cluster-operator taken from install/cluster-operator/060-Deployment-strimzi-cluster-operator.yaml; not taken: packaging/install/cluster-operator/060-Deployment-strimzi-cluster-operator.yaml",
    ] {
        assert!(said.contains(needle), "missing {needle:?} in\n{said}");
    }
    let crds: Vec<String> = crate::support::list_files(&r.join("olm/bundle"))
        .into_iter()
        .filter(|f| f.contains("Crd"))
        .collect();
    assert_eq!(
        crds,
        ["040-Crd-kafka.yaml.in", "043-Crd-kafkatopic.yaml.in"]
    );
    run_variant(r, Path::new("."), "local", "1.2.0", &[], false);
    let released = released_csv(r, "1.2.0", "strimzi-cluster-operator");
    let spec = &released["spec"]["install"]["spec"];
    assert_eq!(
        spec["clusterPermissions"][0]["serviceAccountName"],
        "strimzi-cluster-operator"
    );
    assert_eq!(
        spec["clusterPermissions"][0]["rules"]
            .as_sequence()
            .unwrap()
            .len(),
        1,
        "the global and broker roles allow the same: {spec:?}"
    );
    assert_eq!(
        spec["permissions"][0]["rules"][0]["apiGroups"][0],
        "kafka.strimzi.io"
    );
    assert_eq!(
        spec["deployments"][0]["spec"]["template"]["spec"]["containers"][0]["image"],
        "quay.io/strimzi/operator:1.2.0"
    );

    // Another operator of the same repository, by name; an unknown name lists them.
    let other = strimzi();
    let o = other.path();
    let said = init(o, &["--operator", "strimzi-topic-operator"]);
    assert!(
        said.contains("found: package strimzi-topic-operator, channel alpha"),
        "{said}"
    );
    assert!(said.contains("found: CRD kafkatopics.kafka.strimzi.io in install/topic-operator/04-Crd-kafkatopic.yaml"), "{said}");
    assert!(!said.contains("CRD kafkas."), "{said}");
    assert!(said.contains("service account strimzi-topic-operator: permissions from strimzi-topic-operator (install/topic-operator/02-Role-strimzi-topic-operator.yaml)"), "{said}");
    let bad = olm_release(
        o,
        &[
            "init",
            "--ci",
            "none",
            "--operator",
            "strimzi-kafka",
            "--out",
            "elsewhere",
        ],
        &[],
    );
    assert_code(&bad, 2);
    assert!(
        stderr(&bad).contains("--operator strimzi-kafka: no such operator here; the repository holds strimzi-cluster-operator in"),
        "{}",
        stderr(&bad)
    );
    assert!(!o.join("elsewhere").exists());
}

#[test]
fn prometheus_operator_shape_takes_the_operator_not_its_admission_webhook() {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    let image = "quay.io/prometheus-operator/prometheus-operator:v0.87.0";
    put(
        r,
        "example/admission-webhook/deployment.yaml",
        &deployment(
            "prometheus-operator-admission-webhook",
            Some("prometheus-operator-admission-webhook"),
            "quay.io/prometheus-operator/admission-webhook:v0.87.0",
        ),
    );
    put(
        r,
        "example/admission-webhook/service-account.yaml",
        "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: prometheus-operator-admission-webhook\n",
    );
    put(
        r,
        "example/non-rbac/prometheus-operator.yaml",
        &deployment("prometheus-operator", None, image),
    );
    let rbac = "example/rbac/prometheus-operator";
    put(
        r,
        &format!("{rbac}/prometheus-operator-deployment.yaml"),
        &deployment("prometheus-operator", Some("prometheus-operator"), image),
    );
    put(
        r,
        &format!("{rbac}/prometheus-operator-cluster-role.yaml"),
        &role(
            "ClusterRole",
            "prometheus-operator",
            "monitoring.coreos.com",
            "alertmanagers, alertmanagers/status, prometheuses, prometheuses/finalizers",
        ),
    );
    put(
        r,
        &format!("{rbac}/prometheus-operator-cluster-role-binding.yaml"),
        &binding(
            "ClusterRoleBinding",
            "ClusterRole",
            "prometheus-operator",
            "prometheus-operator",
        ),
    );
    put(
        r,
        &format!("{rbac}/prometheus-operator-service-account.yaml"),
        "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: prometheus-operator\n",
    );
    for dir in [
        "example/prometheus-operator-crd",
        "example/prometheus-operator-crd-full",
    ] {
        put(
            r,
            &format!("{dir}/monitoring.coreos.com_alertmanagers.yaml"),
            &crd("monitoring.coreos.com", "alertmanagers", "Alertmanager"),
        );
        put(
            r,
            &format!("{dir}/monitoring.coreos.com_prometheuses.yaml"),
            &crd("monitoring.coreos.com", "prometheuses", "Prometheus"),
        );
    }
    let said = init(r, &[]);
    for needle in [
        "found: 2 operators here (--operator NAME chooses): prometheus-operator in example/rbac/prometheus-operator/prometheus-operator-deployment.yaml (manages 2 CRDs); prometheus-operator-admission-webhook in example/admission-webhook/deployment.yaml (manages no CRD)",
        "found: package prometheus-operator, channel alpha",
        "found: CRD alertmanagers.monitoring.coreos.com in example/prometheus-operator-crd/monitoring.coreos.com_alertmanagers.yaml (also in 1 other file, not taken: example/prometheus-operator-crd-full/monitoring.coreos.com_alertmanagers.yaml)",
        "found: service account prometheus-operator: clusterPermissions from prometheus-operator (example/rbac/prometheus-operator/prometheus-operator-cluster-role.yaml)",
        "found: image of container prometheus-operator: quay.io/prometheus-operator/prometheus-operator:v${VERSION}",
    ] {
        assert!(said.contains(needle), "missing {needle:?} in\n{said}");
    }
    run_variant(r, Path::new("."), "local", "0.88.0", &[], false);
    let released = released_csv(r, "0.88.0", "prometheus-operator");
    let spec = &released["spec"]["install"]["spec"];
    assert_eq!(spec["deployments"][0]["name"], "prometheus-operator");
    assert_eq!(
        spec["deployments"][0]["spec"]["template"]["spec"]["containers"][0]["image"],
        "quay.io/prometheus-operator/prometheus-operator:v0.88.0"
    );
    assert_eq!(
        spec["clusterPermissions"][0]["serviceAccountName"],
        "prometheus-operator"
    );
    let owned = released["spec"]["customresourcedefinitions"]["owned"]
        .as_sequence()
        .unwrap();
    assert_eq!(owned.len(), 2, "each CRD once: {owned:?}");
}

/// argocd-operator's shape: an operator-sdk catalog whose CRD descriptions quote Go templates
/// (`{{ .app.path.path }}`, ApplicationSet's own syntax) and whose CSV description does too.
/// `init` inserts the repository's manifests as they are (`render.files`), so they are never
/// rendered as templates: the release runs, and the bundle image holds the text as written.
#[test]
fn argocd_shape_inserts_manifests_that_quote_templates_as_they_are() {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    let dir = "deploy/olm-catalog/argocd-operator/0.19.0";
    let quoted =
        "For ApplicationSet usage, `{{ .app.path.path }}` should be resolved by ApplicationSet";
    let mut apps = crd("argoproj.io", "applicationsets", "ApplicationSet");
    apps = apps.replace(
        "        type: object\n",
        &format!("        type: object\n        description: '{quoted}'\n"),
    );
    put(r, &format!("{dir}/argoproj.io_applicationsets.yaml"), &apps);
    let text = csv(
        "argocd-operator",
        "0.19.0",
        &[("applicationsets.argoproj.io", "ApplicationSet", "v1")],
        &[(
            "argocd-operator-controller-manager",
            "argocd-operator-controller-manager",
            "quay.io/argoprojlabs/argocd-operator:v0.19.0",
        )],
    )
    .replace(
        "  description: The argocd-operator operator.\n",
        "  description: 'Paths such as {{ .path }} are ApplicationSet templates.'\n",
    );
    put(
        r,
        &format!("{dir}/argocd-operator.v0.19.0.clusterserviceversion.yaml"),
        &text,
    );
    put(
        r,
        "deploy/olm-catalog/argocd-operator/argocd-operator.package.yaml",
        "packageName: argocd-operator\nchannels:\n- name: alpha\n  currentCSV: argocd-operator.v0.19.0\ndefaultChannel: alpha\n",
    );
    let said = init(r, &[]);
    assert!(
        said.contains(&format!(
            "inserts {{{{index .Catalog \"FILE\"}}}} from {dir}/ as it is"
        )),
        "{said}"
    );
    let pipeline = std::fs::read_to_string(r.join("pipelines/release.yaml")).unwrap();
    assert!(
        pipeline.contains("  files:") && pipeline.contains(&format!("    Catalog: {dir}")),
        "{pipeline}"
    );
    assert!(!pipeline.contains("  includes:"), "{pipeline}");
    run_variant(r, Path::new("."), "local", "0.20.0", &[], false);
    let released = released_csv(r, "0.20.0", "argocd-operator");
    assert_eq!(
        released["spec"]["description"].as_str(),
        Some("Paths such as {{ .path }} are ApplicationSet templates.")
    );
    let manifests = r.join("_out/argocd-operator-local/bundle-image/manifests");
    let crd_text: String = std::fs::read_dir(&manifests)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .filter(|t| t.contains("kind: CustomResourceDefinition"))
        .collect();
    assert!(crd_text.contains(quoted), "{crd_text}");
}

/// A repository whose `bundle/` (as `make bundle` writes it) holds one CSV, `PACKAGE.vVERSION`
/// with a `manager` Deployment running `image`, on channel stable.
fn bundle_repo(package: &str, version: &str, image: &str) -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    put(
        r,
        &format!("bundle/manifests/{package}.clusterserviceversion.yaml"),
        &csv(package, version, &[], &[("manager", "manager", image)]),
    );
    put(
        r,
        "bundle/metadata/annotations.yaml",
        &annotations(package, "stable", "stable"),
    );
    repo
}

#[test]
fn windows_machine_config_operator_shape_names_a_placeholder_image_to_set() {
    // A committed bundle whose CSV runs REPLACE_IMAGE, which the project's build replaces.
    let repo = bundle_repo("wmco", "11.0.0", "REPLACE_IMAGE");
    let r = repo.path();
    let said = init(r, &[]);
    assert!(
        said.contains(
            "container manager runs image \"REPLACE_IMAGE\", which is no image reference"
        ) && said.contains("set render.csv.images.manager in pipelines/release.yaml"),
        "{said}"
    );
    // init checks the first release as `plan` would, and says verify will stop it.
    assert!(
        said.contains("check: the first release, rendered and checked as verify will (olm-release plan pipelines/release.yaml --variant local --var VERSION=0.0.1): OLM v0 installs it: no: deployment-image: \"REPLACE_IMAGE\" is not an image reference")
            && said.contains("check: verify will stop the release there"),
        "{said}"
    );
    // As init wrote it, verify refuses the release; with the image set, it goes out.
    let refused = olm_release(
        r,
        &[
            "run",
            "pipelines/release.yaml",
            "--variant",
            "local",
            "--var",
            "VERSION=11.0.0",
        ],
        &[],
    );
    assert_code(&refused, 1);
    let err = stderr(&refused);
    assert!(err.contains("error[deployment-image]"), "{err}");
    assert!(!err.contains("still points at latest"), "{err}");
    let pipeline = r.join("pipelines/release.yaml");
    let text = std::fs::read_to_string(&pipeline).unwrap();
    let marker = "  csv:";
    assert!(text.contains(marker), "{text}");
    std::fs::write(
        &pipeline,
        text.replacen(
            marker,
            "  csv:\n    images: { manager: \"quay.io/example/wmco:v${VERSION}\" }",
            1,
        ),
    )
    .unwrap();
    let out = run_variant(r, Path::new("."), "local", "11.0.0", &[], false);
    assert!(out.contains("bundle valid under profile modern"), "{out}");
    let released = released_csv(r, "11.0.0", "wmco");
    assert_eq!(
        released["spec"]["install"]["spec"]["deployments"][0]["spec"]["template"]["spec"]
            ["containers"][0]["image"]
            .as_str(),
        Some("quay.io/example/wmco:v11.0.0")
    );
}

#[test]
fn cluster_logging_shape_keeps_the_bundle_s_properties_file() {
    // bundle/metadata/properties.yaml (olm.maxOpenShiftVersion) beside the annotations, as
    // openshift/cluster-logging-operator commits it: the bundle image carries it.
    let repo = bundle_repo("clo", "6.1.0", "quay.io/example/clo:6.1.0");
    let r = repo.path();
    let properties = "properties:\n  - type: olm.maxOpenShiftVersion\n    value: \"5.0\"\n";
    put(r, "bundle/metadata/properties.yaml", properties);
    let said = init(r, &[]);
    assert!(
        said.contains("properties bundle/metadata/properties.yaml"),
        "{said}"
    );
    assert!(
        said.contains("OLM v0 installs it: yes\ncheck: OLM v1 installs it: yes\n")
            && !said.contains("verify will stop"),
        "{said}"
    );
    run_variant(r, Path::new("."), "local", "6.1.0", &[], false);
    let carried = yaml(&r.join("_out/clo-local/bundle-image/metadata/properties.yaml"));
    assert_eq!(
        carried,
        serde_yaml_ng::from_str::<Value>(properties).unwrap()
    );
}
