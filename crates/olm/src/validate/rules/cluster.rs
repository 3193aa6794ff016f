//! The rules about what the cluster gets: whether the pods OLM creates can start, whether
//! CRD conversion works once installed, and what OLM v1 (operator-controller) refuses. The
//! pod and CRD rules follow from the objects OLM renders ([`crate::cluster`]); the `olm-v1-*`
//! rules are operator-controller's, enforced under `--profile olm-v1` with the wording of its
//! code and of its `docs/project/olmv1_limitations.md`.

use super::{E, Rule, W};

/// Rule `deployment-references`: every Secret, ConfigMap and PersistentVolumeClaim a
/// Deployment's pods name (volumes, `envFrom`, `env[].valueFrom`) is in the bundle or is the
/// certificate Secret OLM creates for the CSV's webhook or API service definitions, unless
/// marked `optional`.
pub const DEPLOYMENT_REFERENCES: Rule = Rule::new("deployment-references", "every Secret, ConfigMap and PersistentVolumeClaim a Deployment's pods name (volumes, envFrom, env valueFrom) is in the bundle or is a certificate Secret OLM creates for the CSV's webhookdefinitions or apiservicedefinitions, unless optional",
    "ship the object in the bundle, declare the webhooks in spec.webhookdefinitions (OLM then mounts its certificate), or mark the reference optional: true")
    .own(E, E, "the kubelet never starts a pod whose Secret, ConfigMap or claim does not exist, and nothing OLM installs creates it (OLM's own docs: the objects of the bundle and of the CSV are all it creates)")
    .not_accepted("a pod whose Secret, ConfigMap or claim does not exist never starts; name each object the cluster admin creates before installing in verify.provided (verify --provided KIND/NAME) instead");
/// Rule `deployment-pull-secrets`: every `imagePullSecrets` entry is a Secret of the bundle.
pub const DEPLOYMENT_PULL_SECRETS: Rule = Rule::new("deployment-pull-secrets", "every imagePullSecrets entry of a Deployment is a Secret of the bundle",
    "ship the Secret in the bundle, drop the entry, or document that the cluster admin must create it in the install namespace")
    .own(W, W, "the kubelet pulls without a missing pull secret, so a private image fails to pull");
/// Rule `crd-conversion-webhook`: a CRD whose conversion strategy is `Webhook` is named by a
/// `ConversionWebhook` of the CSV's `webhookdefinitions` (a warning: an operator may create
/// the conversion Service and inject its CA itself at run time).
pub const CRD_CONVERSION_WEBHOOK: Rule = Rule::new("crd-conversion-webhook", "a CRD whose conversion strategy is Webhook is named by a ConversionWebhook of the CSV's webhookdefinitions",
    "declare the conversion webhook in spec.webhookdefinitions (type ConversionWebhook, conversionCRDs), or set the CRD's conversion strategy to None")
    .own(W, W, "OLM points a CRD's conversion at its own Service and injects its CA only for a declared ConversionWebhook; otherwise every read of another version fails unless the operator creates the Service and injects the CA itself at run time, as some do (so a warning: a bundle whose pods need OLM's certificate is refused by deployment-references)");
/// Rule `crd-conversion-schemas`: a CRD serving several versions with different schemas
/// converts them through a webhook (schemas compared without their documentation keywords).
pub const CRD_CONVERSION_SCHEMAS: Rule = Rule::new("crd-conversion-schemas", "a CRD serving several versions with different schemas (descriptions aside) converts them through a conversion webhook",
    "declare a ConversionWebhook for the CRD in spec.webhookdefinitions (conversionCRDs, conversion strategy Webhook), make the versions' schemas equal, or stop serving the older version (served: false)")
    .own(E, E, "with strategy None the API server only rewrites apiVersion, so fields one version's schema lacks are pruned from stored objects: data is lost on the first write through the other version");
/// Rule `object-webhook-configuration`: no Validating- or MutatingWebhookConfiguration in
/// `manifests/`.
pub const OBJECT_WEBHOOK_CONFIGURATION: Rule = Rule::new("object-webhook-configuration", "no ValidatingWebhookConfiguration or MutatingWebhookConfiguration in manifests/ (OLM installs webhooks only from spec.webhookdefinitions)",
    "move the webhook into the CSV's spec.webhookdefinitions (operator-sdk generate bundle does this for kubebuilder webhooks)")
    .own(E, E, "OLM does not install these kinds from a bundle: the webhook would never exist, or the bundle fails to unpack");
/// Rule `olm-v1-install-modes`: the bundle supports the AllNamespaces install mode.
pub const OLM_V1_INSTALL_MODES: Rule = Rule::new("olm-v1-install-modes", "the bundle supports the AllNamespaces install mode (OLM v1 installs SingleNamespace and OwnNamespace bundles only with a configured watchNamespace, not recommended)",
    "support the AllNamespaces install mode (OLM v1's recommended mode), or document the watchNamespace the ClusterExtension must configure")
    .olm_v1(E);
/// Rule `olm-v1-dependencies`: the bundle declares no dependencies.
pub const OLM_V1_DEPENDENCIES: Rule = Rule::new("olm-v1-dependencies", "the bundle declares no dependencies (olm.gvk.required, olm.package.required, olm.constraint)",
    "drop the dependency (metadata/dependencies.yaml, spec.customresourcedefinitions.required) and document what must be installed first")
    .olm_v1(E);
/// Rule `olm-v1-api-services`: the CSV owns no API services.
pub const OLM_V1_API_SERVICES: Rule = Rule::new(
    "olm-v1-api-services",
    "the CSV owns no API services (spec.apiservicedefinitions.owned)",
    "serve the API through CRDs; OLM v1 does not install API services",
)
.olm_v1(E);
/// Rule `olm-v1-webhooks`: webhooks need a certificate provider on the cluster.
pub const OLM_V1_WEBHOOKS: Rule = Rule::new("olm-v1-webhooks", "webhooks are installed only through a certificate provider (cert-manager by default, or OpenShift's service CA)",
    "document that cert-manager (or OpenShift's service CA) must be installed before the ClusterExtension")
    .olm_v1(W);
/// Rule `olm-v1-bundle`: the bundle passes operator-controller's registry+v1 validators.
pub const OLM_V1_BUNDLE: Rule = Rule::new("olm-v1-bundle", "the bundle passes operator-controller's registry+v1 validators (unique deployments and CRDs, owned CRDs present, webhooks valid, supported kinds)",
    "fix what OLM v1's validator names")
    .olm_v1(E);
/// Rule `olm-v1-operator-conditions`: the operator does not use the OperatorConditions API.
pub const OLM_V1_OPERATOR_CONDITIONS: Rule = Rule::new("olm-v1-operator-conditions", "the operator does not use the OperatorConditions API, which OLM v1 does not support",
    "stop reading OPERATOR_CONDITION_NAME and writing OperatorConditions, or document that the operator needs OLM v0")
    .olm_v1(W);
