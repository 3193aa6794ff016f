//! The rules themselves, grouped as the checks are: files and layout, the package, one CSV,
//! how it installs, CRDs, other objects, the bundle, the upgrade graph. Each line names the
//! tools that enforce the rule (see the module above for what a profile makes of that).

use super::{E, Rule, W};

macro_rules! catalogue {
    ($($(#[$doc:meta])* $name:ident = $rule:expr;)* @cluster $($more:ident),*) => {
        $($(#[$doc])* pub const $name: Rule = $rule;)*
        /// Every rule, in table order: these, then the rules about what the cluster gets
        /// ([`super::cluster`]).
        pub(crate) const ALL: &[Rule] = &[$($name,)* $(super::cluster::$more),*];
    };
}

const SCHEMA_2019: &str = "a 2019 OLM cluster's CSV schema rejects it at install, though courier and the registry load it";
const NOT_PUBLISHED: &str =
    "courier and the registry ignore it, so it is not published with the bundle";

catalogue! {
    // Files and layout.
    /// Rule `bundle-format`: a flattened `bundle.yaml` holds `data.clusterServiceVersions`,
    /// `data.customResourceDefinitions` and `data.packages` as YAML strings of lists.
    BUNDLE_FORMAT = Rule::new("bundle-format",
        "a flattened bundle.yaml holds data.clusterServiceVersions, data.customResourceDefinitions and data.packages as YAML strings of lists",
        "rebuild the bundle with `olm-release run` or fix the flattened bundle.yaml's data.* strings")
        .registry(E).own(None, E, "no consumer can read the bundle");
    /// Rule `file-yaml`: every manifest file is UTF-8 text that parses as YAML.
    FILE_YAML = Rule::new("file-yaml", "every manifest file is UTF-8 text that parses as YAML",
        "fix the YAML syntax the parser names")
        .courier(E).registry(E).api(E);
    /// Rule `file-documents`: a package, CSV or CRD file holds one YAML document.
    FILE_DOCUMENTS = Rule::new("file-documents", "a package, CSV or CRD file holds one YAML document",
        "split the file: one manifest per file")
        .courier(E).own(None, W, "loaders that read one object per file see only the first document");
    /// Rule `yaml-duplicate-key`: a YAML mapping names each key once.
    YAML_DUPLICATE_KEY = Rule::new("yaml-duplicate-key", "a YAML mapping names each key once",
        "remove the earlier of the repeated keys")
        .own(W, W, "PyYAML and go-yaml keep the last value, so the earlier one is silently lost");
    /// Rule `file-layout`: a bundle folder holds no hidden files and no subfolders.
    FILE_LAYOUT = Rule::new("file-layout", "a bundle folder holds no hidden files and no subfolders",
        "move the file or folder out of the bundle folder")
        .api(E).own(W, None, NOT_PUBLISHED);
    /// Rule `file-stray`: a bundle holds only manifests: no non-YAML files, no CSV in the root of a
    /// tree of version folders, nothing nested deeper.
    FILE_STRAY = Rule::new("file-stray",
        "only manifests: no non-YAML files, no CSV in the root of a tree of version folders, nothing nested deeper",
        "keep only the package file and the version folders' manifests")
        .own(W, W, NOT_PUBLISHED);
    /// Rule `file-unknown`: every YAML file is a package, CSV, CRD or an object a bundle may carry.
    FILE_UNKNOWN = Rule::new("file-unknown", "every YAML file is a package, CSV, CRD or an object a bundle may carry",
        "drop the file or ship it some other way")
        .own(W, None, NOT_PUBLISHED);

    // The package.
    /// Rule `package`: exactly one package file (`packageName`) with a name and at least one
    /// channel `{name, currentCSV}`, names unique.
    PACKAGE = Rule::new("package",
        "exactly one package file (packageName) with a name and at least one channel {name, currentCSV}, names unique",
        "give the package a packageName and at least one channel {name, currentCSV}, names unique")
        .courier(E).registry(E).api(E);
    /// Rule `package-name`: the package name is a lowercase name Quay accepts as a repository.
    PACKAGE_NAME = Rule::new("package-name", "the package name is a lowercase name Quay accepts as a repository",
        "use lowercase letters, digits, '-', '_' and '.' in packageName")
        .own(E, W, "Quay's app registry refuses repository names with upper case or other characters, so the push would fail after everything else ran");
    /// Rule `package-current-csv`: each channel's `currentCSV` names a CSV of the package.
    PACKAGE_CURRENT_CSV = Rule::new("package-current-csv", "each channel's currentCSV names a CSV of the package",
        "make each channel's currentCSV equal the metadata.name of a CSV in the package")
        .courier(E).registry(E).api(E).opm(E);
    /// Rule `default-channel`: `defaultChannel` names a channel (required with several channels).
    DEFAULT_CHANNEL = Rule::new("default-channel", "defaultChannel names a channel (required with several channels)",
        "set defaultChannel to one of the package's channels")
        .registry(E).api(E).opm(E)
        .own(W, None, "with one channel the registry falls back to it and ignores a defaultChannel that names no channel, but a file-based catalog (opm) refuses the package when it migrates");
    /// Rule `channel-name`: channel names follow the recommended `stable`/`fast`/`candidate`
    /// convention.
    CHANNEL_NAME = Rule::new("channel-name", "channel names follow the recommended stable/fast/candidate convention",
        "name channels stable, fast or candidate (optionally with a suffix)")
        .api(W).hub(W);

    // One CSV.
    /// Rule `bundle-csv`: a bundle holds a ClusterServiceVersion.
    BUNDLE_CSV = Rule::new("bundle-csv", "a bundle holds a ClusterServiceVersion",
        "add the CSV manifest")
        .courier(E).registry(E).api(E);
    /// Rule `csv-required`: a CSV has `apiVersion`, `kind`, `metadata.name`, `spec` and
    /// `spec.install`.
    CSV_REQUIRED = Rule::new("csv-required", "a CSV has apiVersion, kind, metadata.name, spec and spec.install",
        "add the field: OLM cannot install a CSV without it")
        .courier(E).registry(E).api(E);
    /// Rule `csv-display-name`: a CSV has `spec.displayName`.
    CSV_DISPLAY_NAME = Rule::new("csv-display-name", "a CSV has spec.displayName",
        "add spec.displayName")
        .courier(W).ui(E).api(E);
    /// Rule `csv-name`: `metadata.name` is a DNS-1123 subdomain of at most 63 characters.
    CSV_NAME = Rule::new("csv-name", "metadata.name is a DNS-1123 subdomain of at most 63 characters",
        "use a lowercase name of at most 63 characters, e.g. <package>.v<version>")
        .api(E).own(W, None, "no cluster accepts an object under that name");
    /// Rule `csv-name-version`: `metadata.name` ends in `.v<spec.version>`.
    CSV_NAME_VERSION = Rule::new("csv-name-version", "metadata.name ends in .v<spec.version>",
        "name the CSV <package>.v<spec.version> so the name and the version agree")
        .own(W, W, "no upstream tool compares them, but a mismatch confuses every reader of the graph");
    /// Rule `csv-version`: `spec.version` is a semantic version.
    CSV_VERSION = Rule::new("csv-version", "spec.version is a semantic version",
        "set spec.version to a quoted SemVer string such as \"1.2.3\"")
        .registry(E).ui(E).api(E);
    /// Rule `csv-version-strict`: `spec.version` is strict SemVer 2.0 (no `v` prefix, three
    /// numbers, no leading zeros).
    CSV_VERSION_STRICT = Rule::new("csv-version-strict", "spec.version is strict SemVer 2.0 (no v prefix, three numbers, no leading zeros)",
        "write spec.version as strict SemVer, e.g. \"1.2.0\"")
        .registry(E).ui(E).own(None, W, "OLM reads it tolerantly today, but older registries and the 2019 CSV schema did not");
    /// Rule `csv-version-missing`: a CSV has `spec.version`.
    CSV_VERSION_MISSING = Rule::new("csv-version-missing", "a CSV has spec.version",
        "set spec.version")
        .courier(W).ui(E).hub(E);
    /// Rule `csv-unique-name`: no two CSVs of a package share `metadata.name`.
    CSV_UNIQUE_NAME = Rule::new("csv-unique-name", "no two CSVs of a package share metadata.name",
        "give every CSV its own metadata.name")
        .registry(E).opm(E);
    /// Rule `csv-unique-version`: no two CSVs of a package share `spec.version`.
    CSV_UNIQUE_VERSION = Rule::new("csv-unique-version", "no two CSVs of a package share spec.version",
        "give every CSV its own spec.version")
        .opm(E).own(W, None, "OLM orders releases by version; two with one version make the order arbitrary");
    /// Rule `csv-recommended`: a CSV has the fields the catalog shows (icon, maturity,
    /// annotations).
    CSV_RECOMMENDED = Rule::new("csv-recommended", "a CSV has the fields the catalog shows (icon, maturity, annotations)",
        "add the field so the catalog UI can show it")
        .courier(W);
    /// Rule `csv-ui-fields`: a CSV has what OperatorHub shows (description, provider, annotations).
    CSV_UI_FIELDS = Rule::new("csv-ui-fields", "a CSV has what OperatorHub shows (description, provider, annotations)",
        "add the field: OperatorHub requires it")
        .courier(W).ui(E);
    /// Rule `csv-maturity`: `spec.maturity` is one of the 2019 CSV schema's values.
    CSV_MATURITY = Rule::new("csv-maturity", "spec.maturity is one of the 2019 CSV schema's values",
        "use one of planning, pre-alpha, alpha, beta, stable, mature, inactive, deprecated")
        .own(W, None, SCHEMA_2019);
    /// Rule `csv-maintainers`: every maintainer has a name and a valid email.
    CSV_MAINTAINERS = Rule::new("csv-maintainers", "every maintainer has a name and a valid email",
        "give every maintainer a name and a valid email")
        .hub(E).own(W, None, SCHEMA_2019);
    /// Rule `csv-links`: every link has a name and an absolute URL.
    CSV_LINKS = Rule::new("csv-links", "every link has a name and an absolute URL",
        "give every link a name and an absolute http(s) url")
        .ui(E).hub(E).own(W, None, SCHEMA_2019);
    /// Rule `csv-provider`: `spec.provider` has a name.
    CSV_PROVIDER = Rule::new("csv-provider", "spec.provider has a name",
        "set spec.provider.name")
        .courier(W).ui(E).hub(E);
    /// Rule `csv-provider-keys`: `spec.provider` holds only `name`.
    CSV_PROVIDER_KEYS = Rule::new("csv-provider-keys", "spec.provider holds only name",
        "give spec.provider exactly one key, name")
        .ui(E);
    /// Rule `csv-capabilities`: the `capabilities` annotation is one of the five capability levels.
    CSV_CAPABILITIES = Rule::new("csv-capabilities", "the capabilities annotation is one of the five levels",
        "use Basic Install, Seamless Upgrades, Full Lifecycle, Deep Insights or Auto Pilot")
        .ui(E).hub(E);
    /// Rule `csv-categories`: every category is in the catalog's list (or the `--categories` file).
    CSV_CATEGORIES = Rule::new("csv-categories", "every category is in the catalog's list (or the --categories file)",
        "use only categories from the catalog's list, comma-separated")
        .ui(E).hub(E);
    /// Rule `icon`: each `spec.icon` element has `base64data` and `mediatype`.
    ICON = Rule::new("icon", "each spec.icon element has base64data and mediatype",
        "give each icon base64data and mediatype")
        .ui(E).hub(E).own(W, W, "the catalog shows no icon, and a 2019 OLM cluster's CSV schema rejects it at install");
    /// Rule `icon-hub`: `spec.icon` has exactly one element, of mediatype `image/gif`,
    /// `image/jpeg`, `image/png` or `image/svg+xml`, with no other keys.
    ICON_HUB = Rule::new("icon-hub", "spec.icon has exactly one element, of mediatype image/gif, image/jpeg, image/png or image/svg+xml, with no other keys",
        "give spec.icon exactly one {base64data, mediatype} with mediatype image/gif, image/jpeg, image/png or image/svg+xml")
        .ui(E).hub(E).own(W, None, SCHEMA_2019);
    /// Rule `min-kube-version`: `spec.minKubeVersion`, when set, is `X.Y.Z`.
    MIN_KUBE_VERSION = Rule::new("min-kube-version", "spec.minKubeVersion, when set, is X.Y.Z",
        "write spec.minKubeVersion as a quoted X.Y.Z, e.g. \"1.21.0\"")
        .api(E).own(W, None, SCHEMA_2019);
    /// Rule `certified`: the `certified` annotation is a string.
    CERTIFIED = Rule::new("certified", "the certified annotation is a string",
        "quote the annotation: certified: \"false\"")
        .courier(E).registry(E).api(E);
    /// Rule `annotation-case`: OLM's annotations are spelled with their exact case
    /// (`olm.skipRange`, `olm.operatorGroup`, …).
    ANNOTATION_CASE = Rule::new("annotation-case", "OLM's annotations are spelled with their exact case (olm.skipRange, olm.operatorGroup, ...)",
        "rename the annotation to its exact spelling")
        .api(E);
    /// Rule `olm-properties`: properties are declared in `metadata/properties.yaml`, not in the
    /// `olm.properties` annotation.
    OLM_PROPERTIES = Rule::new("olm-properties", "properties are declared in metadata/properties.yaml, not the olm.properties annotation",
        "move the properties to metadata/properties.yaml")
        .api(W);
    /// Rule `alm-examples`: `metadata.annotations.alm-examples` is valid JSON.
    ALM_EXAMPLES = Rule::new("alm-examples", "metadata.annotations.alm-examples is valid JSON",
        "make metadata.annotations.alm-examples a JSON array of example CRs")
        .courier(E).api(E);
    /// Rule `alm-examples-empty`: `metadata.annotations.alm-examples` is not an empty string.
    ALM_EXAMPLES_EMPTY = Rule::new("alm-examples-empty", "metadata.annotations.alm-examples is not an empty string",
        "write [] or the example CRs, or drop the annotation")
        .courier(E).own(None, W, "users get no example CR");
    /// Rule `alm-examples-kind`: `alm-examples` is a list of CRs whose group/version/kind the CSV
    /// owns.
    ALM_EXAMPLES_KIND = Rule::new("alm-examples-kind", "alm-examples is a list of CRs whose group/version/kind the CSV owns",
        "keep only examples of APIs the CSV owns, as a JSON array")
        .api(E);
    /// Rule `alm-examples-coverage`: every owned API has an example in `alm-examples`.
    ALM_EXAMPLES_COVERAGE = Rule::new("alm-examples-coverage", "every owned API has an example in alm-examples",
        "add an example CR for every owned CRD to alm-examples")
        .ui(W).api(W);
    /// Rule `field-type`: every CSV field has the type the ClusterServiceVersion API declares.
    FIELD_TYPE = Rule::new("field-type", "every CSV field has the type the ClusterServiceVersion API declares (courier checks only that the install strategy's deployments and permissions are lists)",
        "write the field with its declared type (strings quoted, lists as lists)")
        .courier(E).registry(E).api(E)
        .own(W, None, "the API server refuses the CSV at install, though the registry's directory loader (package trees) does not decode it");

    // How a CSV installs.
    /// Rule `install-modes`: a CSV lists `spec.installModes`.
    INSTALL_MODES = Rule::new("install-modes", "a CSV lists spec.installModes",
        "list the install modes: OwnNamespace, SingleNamespace, MultiNamespace and AllNamespaces, each with supported: true or false")
        .courier(E).api(E);
    /// Rule `install-modes-values`: the install modes are the four types, each once, at least one
    /// supported.
    INSTALL_MODES_VALUES = Rule::new("install-modes-values", "install modes are the four types, each once, at least one supported",
        "list OwnNamespace, SingleNamespace, MultiNamespace and AllNamespaces once each, at least one with supported: true")
        .api(E).own(W, None, "OLM fails such a CSV at install (UnsupportedOperatorGroup or InvalidInstallModes)");
    /// Rule `webhook-install-modes`: a CSV with conversion webhooks supports `AllNamespaces` and no
    /// other install mode.
    WEBHOOK_INSTALL_MODES = Rule::new("webhook-install-modes", "a CSV with conversion webhooks supports AllNamespaces and no other install mode",
        "support only AllNamespaces when spec.webhookdefinitions has conversionCRDs")
        .api(E);
    /// Rule `install`: `spec.install` has strategy `deployment` and a spec with deployments;
    /// permissions name a service account and rules.
    INSTALL = Rule::new("install", "spec.install has strategy deployment and a spec with deployments; permissions name a service account and rules",
        "use install.strategy: deployment with spec.deployments [{name, spec}] and permissions [{serviceAccountName, rules}]")
        .courier(E).api(E);
    /// Rule `install-entries`: `spec.install.spec.deployments` is not empty; each deployment has a
    /// `name` and a `spec`, each permission a `serviceAccountName` and `rules`.
    INSTALL_ENTRIES = Rule::new("install-entries", "spec.install.spec.deployments is not empty; each deployment has a name and a spec, each permission a serviceAccountName and rules",
        "give each deployment {name, spec} and each permission {serviceAccountName, rules}")
        .own(W, W, "OLM fails at install on such an entry (or installs nothing), though courier and the loaders accept it");
    /// Rule `permission-verbs`: permission verbs are those of the 2019 CSV schema (no `bind`,
    /// `escalate`, `impersonate`).
    PERMISSION_VERBS = Rule::new("permission-verbs", "permission verbs are those of the 2019 CSV schema (no bind, escalate, impersonate)",
        "use only the verbs the 2019 CSV schema allows")
        .own(W, None, SCHEMA_2019);
    /// Rule `deployment-selector`: each Deployment of the install strategy has a selector that is
    /// not empty and matches its template's labels (apps/v1).
    DEPLOYMENT_SELECTOR = Rule::new("deployment-selector", "each Deployment of the install strategy has a selector, not empty, matching its template's labels (apps/v1)",
        "set spec.selector.matchLabels to labels of spec.template.metadata.labels")
        .apiserver(E);
    /// Rule `deployment-containers`: each Deployment's pods run at least one container; every
    /// container has a DNS-1123 name of its own and an image (apps/v1).
    DEPLOYMENT_CONTAINERS = Rule::new("deployment-containers", "each Deployment runs at least one container; every container has a DNS-1123 name of its own and an image (apps/v1)",
        "give every container a unique lowercase name and its image")
        .apiserver(E);
    /// Rule `deployment-image`: every container's image is a reference the kubelet can pull.
    DEPLOYMENT_IMAGE = Rule::new("deployment-image", "every container's and init container's image of the install strategy is an image reference ([DOMAIN/]PATH[:TAG][@DIGEST])",
        "write the image in full (a pipeline's render.csv.images sets it by container name); a variable meant for envsubst or sed is never replaced by OLM")
        .own(E, E, "the API server accepts any string, but the kubelet refuses to pull one that is no reference (InvalidImageName), so the pod never starts");
    /// Rule `deployment-service-account`: a Deployment runs as `default` or as a service account a
    /// `permissions` or `clusterPermissions` entry names (the accounts OLM creates).
    DEPLOYMENT_SERVICE_ACCOUNT = Rule::new("deployment-service-account", "a Deployment runs as default or as an account a permissions or clusterPermissions entry names (OLM creates only those; the API server's ServiceAccount admission refuses pods of any other)",
        "name the Deployment's serviceAccountName in a permissions or clusterPermissions entry")
        .apiserver(E);
    /// Rule `deployment-permissions`: a Deployment of a CSV that grants permissions runs as an
    /// account they name, not as the namespace's `default`.
    DEPLOYMENT_PERMISSIONS = Rule::new("deployment-permissions", "a Deployment of a CSV that grants permissions runs as an account they name, not as the namespace's default account",
        "set the Deployment's serviceAccountName to the account the operator's permissions name")
        .own(W, W, "the operator may run without the permissions its CSV grants, and fail at its first request; a warning, not an error: the API server accepts it, no upstream validator checks it, and OperatorHub's catalogs ship operators that run as default while their permissions serve other accounts");

    // CRDs.
    /// Rule `crd-fields`: a CRD has `metadata.name`, `apiVersion`, `spec.group`,
    /// `spec.names.kind`/`plural` and versions with `name`, `served` and `storage`, exactly one
    /// stored.
    CRD_FIELDS = Rule::new("crd-fields", "a CRD has metadata.name, apiVersion, spec.group, spec.names.kind/plural and versions with name, served and storage, exactly one stored",
        "complete the CRD: metadata.name, spec.group, spec.names.kind/plural and its versions")
        .courier(E).registry(E).api(E);
    /// Rule `crd-versions`: a CRD's version names are unique; an `apiextensions.k8s.io/v1` CRD
    /// lists `spec.versions` (it has no `spec.version`).
    CRD_VERSIONS = Rule::new("crd-versions", "CRD version names are unique; an apiextensions.k8s.io/v1 CRD lists spec.versions (it has no spec.version)",
        "list each version once under spec.versions with served and storage")
        .api(E).own(W, None, "the API server rejects such a CRD at install");
    /// Rule `crd-conversion`: a v1 CRD's conversion webhook lists `conversionReviewVersions`.
    CRD_CONVERSION = Rule::new("crd-conversion", "a v1 CRD's conversion webhook lists conversionReviewVersions",
        "add spec.conversion.webhook.conversionReviewVersions: [v1]")
        .api(E);
    /// Rule `crd-owned`: each owned CRD (name, version, kind) is a CRD of the bundle with that
    /// group, version and kind, named `<plural>.<group>`.
    CRD_OWNED = Rule::new("crd-owned", "each owned CRD (name, version, kind) is a CRD of the bundle with that group, version and kind, named <plural>.<group>",
        "ship each owned CRD in the bundle, with the kind and version the CSV lists")
        .courier(E).registry(E).api(E);
    /// Rule `crd-owned-name`: each owned CRD's name is the `metadata.name` of a CRD in the bundle.
    CRD_OWNED_NAME = Rule::new("crd-owned-name", "each owned CRD's name is the metadata.name of a CRD in the bundle",
        "name the owned CRD entry exactly as the CRD's metadata.name")
        .courier(E);
    /// Rule `crd-owned-drift`: every CRD version an older CSV of a flat bundle owns is still
    /// defined by the bundle's CRD.
    CRD_OWNED_DRIFT = Rule::new("crd-owned-drift", "every CRD version an older CSV of a flat bundle owns is still defined by the bundle's CRD",
        "keep the old version in the CRD's spec.versions, or let the older CSV own the current one")
        .registry(W).api(E);
    /// Rule `crd-unowned`: every CRD of the bundle is owned by its CSV (other versions of an owned
    /// kind exempt).
    CRD_UNOWNED = Rule::new("crd-unowned", "every CRD of the bundle is owned by its CSV (other versions of an owned kind exempt)",
        "list the CRD under spec.customresourcedefinitions.owned, or drop it from the bundle")
        .api(E).own(W, None, "OLM installs a CRD no CSV owns but nothing manages it");
    /// Rule `crd-duplicate`: no group/version/kind is defined twice in a bundle.
    CRD_DUPLICATE = Rule::new("crd-duplicate", "no group/version/kind is defined twice in a bundle",
        "ship each CRD group/version/kind once per bundle")
        .registry(E).api(E);
    /// Rule `crd-descriptions`: owned CRD entries and their descriptors have `displayName` and
    /// `description`.
    CRD_DESCRIPTIONS = Rule::new("crd-descriptions", "owned CRD entries and descriptors have displayName and description",
        "give each owned CRD entry displayName and description, each descriptor path, displayName and description")
        .own(W, None, SCHEMA_2019);

    // Other objects of a bundle.
    /// Rule `service-account`: no ServiceAccount manifest shares its name with a service account
    /// the CSV creates.
    SERVICE_ACCOUNT = Rule::new("service-account", "no ServiceAccount manifest shares its name with a service account the CSV creates",
        "drop the ServiceAccount manifest: OLM creates the service accounts the CSV's deployments use")
        .api(E);
    /// Rule `object-pdb`: a PodDisruptionBudget allows disruption (`maxUnavailable` not 0,
    /// `minAvailable` not 100%).
    OBJECT_PDB = Rule::new("object-pdb", "a PodDisruptionBudget allows disruption (maxUnavailable not 0, minAvailable not 100%)",
        "let at least one pod be disrupted")
        .api(E);
    /// Rule `object-priority-class`: a PriorityClass is not `globalDefault`.
    OBJECT_PRIORITY_CLASS = Rule::new("object-priority-class", "a PriorityClass is not globalDefault",
        "set globalDefault: false")
        .api(E);
    /// Rule `object-rbac`: no Role or ClusterRole may modify OpenShift's default
    /// SecurityContextConstraints.
    OBJECT_RBAC = Rule::new("object-rbac", "no Role or ClusterRole may modify OpenShift's default SecurityContextConstraints",
        "drop update/patch/delete on the default securitycontextconstraints")
        .api(E);
    /// Rule `object-rbac-pdb`: a Role or ClusterRole that may create or update
    /// PodDisruptionBudgets, worth a second look (a warning).
    OBJECT_RBAC_PDB = Rule::new("object-rbac-pdb", "a Role or ClusterRole that may create or update PodDisruptionBudgets is worth a second look",
        "grant only get/list/watch on poddisruptionbudgets unless the operator must manage them")
        .api(W);
    /// Rule `object-copies`: no two files hold the same object (equal copies: a warning, and
    /// the bundle image carries the object once).
    OBJECT_COPIES = Rule::new("object-copies", "no two files hold the same object (apiVersion, kind and metadata.name); equal copies are carried once",
        "keep one file for the object")
        .own(W, W, "OLM applies the bundle's files one by one, so a second equal copy changes nothing; the bundle image carries the object once");
    /// Rule `object-copies-differ`: two files holding the same object hold the same data.
    OBJECT_COPIES_DIFFER = Rule::new("object-copies-differ", "two files that hold the same object (apiVersion, kind and metadata.name) hold the same data",
        "keep the copy the cluster should get and drop the other")
        .own(E, E, "OLM applies the bundle's files one by one, so the cluster gets whichever copy comes last, and the release cannot say which");
    /// Rule `deprecated-api`: no manifest uses a Kubernetes API version that is deprecated or
    /// removed.
    DEPRECATED_API = Rule::new("deprecated-api", "no manifest uses a Kubernetes API version that is deprecated or removed",
        "move the manifest to the API version that replaced it")
        .api(W);
    /// Rule `resource-requests`: every container of the CSV's deployments requests CPU and memory.
    RESOURCE_REQUESTS = Rule::new("resource-requests", "every container of the CSV's deployments requests CPU and memory",
        "set resources.requests on each container")
        .api(W);
    /// Rule `bundle-size`: a bundle's manifests stay under 1 MiB gzipped.
    BUNDLE_SIZE = Rule::new("bundle-size", "a bundle's manifests stay under 1 MiB gzipped",
        "shrink the manifests (CRD schemas, descriptions, the icon) below 1 MiB gzipped")
        .api(E);
    /// Rule `bundle-size-near`: a bundle's manifests stay under 85 % of the 1 MiB limit (a
    /// warning).
    BUNDLE_SIZE_NEAR = Rule::new("bundle-size-near", "a bundle's manifests stay under 85 % of the 1 MiB limit",
        "shrink the manifests before the bundle reaches 1 MiB")
        .api(W);

    // The upgrade graph.
    /// Rule `replaces-target`: a `spec.replaces` on a channel names a CSV of the package wherever
    /// older CSVs of the package follow (a gap strands them).
    REPLACES_TARGET = Rule::new("replaces-target", "a spec.replaces on a channel names a CSV of the package wherever older CSVs of the package follow (a gap strands them)",
        "carry every CSV of the channel (run fetch-previous) or correct spec.replaces")
        .registry(E).opm(E);
    /// Rule `replaces-pruned`: the oldest CSV of a channel replaces a release the package no longer
    /// carries (a pruned tail), noted as a warning.
    REPLACES_PRUNED = Rule::new("replaces-pruned", "the oldest CSV of a channel replaces a release the package no longer carries (a pruned tail)",
        "nothing to do if the release was pruned on purpose, or if the bundle is one version listed in a file-based catalog (its catalog entry holds the graph); otherwise carry it (fetch-previous from the app registry)")
        .registry(W)
        .own(None, W, "opm permits a tail that replaces a missing entry; noted so that a pruned release is a choice, not an accident");
    /// Rule `graph-cycle`: the `replaces` chain of a channel has no cycle.
    GRAPH_CYCLE = Rule::new("graph-cycle", "the replaces chain of a channel has no cycle",
        "break the cycle so the chain ends at the first release (no spec.replaces)")
        .registry(E).opm(E);
    /// Rule `graph-heads`: no CSV outside a channel replaces one of its members (a forked chain).
    GRAPH_HEADS = Rule::new("graph-heads", "no CSV outside a channel replaces one of its members (a forked chain)",
        "chain the extra CSV below the head, point a channel at it, or drop it")
        .own(W, W, "OLM never offers a CSV no channel head reaches, and the registry loads it silently");
    /// Rule `graph-stranded`: every CSV is reached from a channel head through `replaces` or
    /// `skips`.
    GRAPH_STRANDED = Rule::new("graph-stranded", "every CSV is reached from a channel head through replaces or skips",
        "reach every CSV from a channel head through replaces or skips, or drop it")
        .own(W, W, "OLM never offers a CSV no channel head reaches, and the registry loads it silently");
    /// Rule `replaces-downgrade`: a CSV replaces a lower version.
    REPLACES_DOWNGRADE = Rule::new("replaces-downgrade", "a CSV replaces a lower version",
        "point spec.replaces at an older release")
        .own(W, W, "OLM follows replaces whatever the versions say, so a downgrade edge is almost always a typo");
    /// Rule `skips`: `spec.skips` lists CSV names, none equal to `spec.replaces`.
    SKIPS = Rule::new("skips", "spec.skips lists CSV names, none equal to spec.replaces",
        "list CSV names in spec.skips, none equal to spec.replaces")
        .own(W, W, "a skip that repeats replaces or is no CSV name has no effect");
    /// Rule `skip-range`: the `olm.skipRange` annotation parses as a semver range.
    SKIP_RANGE = Rule::new("skip-range", "olm.skipRange parses as a semver range",
        "write olm.skipRange as a semver range such as '>=1.0.0 <1.2.0'")
        .opm(E).own(W, None, "OLM cannot use a skipRange it cannot parse");
    @cluster DEPLOYMENT_REFERENCES, DEPLOYMENT_PULL_SECRETS, CRD_CONVERSION_WEBHOOK,
    CRD_CONVERSION_SCHEMAS, OBJECT_WEBHOOK_CONFIGURATION, OLM_V1_INSTALL_MODES,
    OLM_V1_DEPENDENCIES, OLM_V1_API_SERVICES, OLM_V1_WEBHOOKS, OLM_V1_BUNDLE,
    OLM_V1_OPERATOR_CONDITIONS
}
