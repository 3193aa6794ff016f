//! The rule catalogue: every rule validation reports, with the check of the consolidated
//! checklist it implements (fact sheet §5.1, `0` for the structural and upgrade-graph checks of
//! §6 that the checklist folds into rules 3–4), the upstream rule it mirrors, its level in each
//! profile, and the generic fix. Rule modules pick a [`Rule`] and the sink turns it into a
//! [`Finding`](crate::olm::Finding) at the level the profile gives; a rule whose level is `None`
//! in a profile is not reported there. Keeping levels here, not in the checks, means one table
//! says what each profile enforces.

use crate::olm::Level;

use super::{Options, Profile};

const E: Option<Level> = Some(Level::Error);
const W: Option<Level> = Some(Level::Warning);
const OFF: Option<Level> = None;

/// One rule.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    pub id: &'static str,
    /// The number in the fact sheet's checklist (§5.1); 0 = structural.
    pub check: u8,
    /// The upstream rule it mirrors.
    pub mirrors: &'static str,
    /// Level in the `appregistry-2019` profile.
    pub y2019: Option<Level>,
    /// Level in the `modern` profile.
    pub modern: Option<Level>,
    /// An error when OperatorHub (courier `--ui_validate_io`) rules are on.
    pub hub: bool,
    /// The generic fix, shown when a check gives no more specific one.
    pub fix: &'static str,
}

impl Rule {
    /// The level this rule reports at under `opts`, or `None` when it is off.
    pub fn level(&self, opts: &Options) -> Option<Level> {
        if opts.operatorhub && self.hub {
            return E;
        }
        match opts.profile {
            Profile::Appregistry2019 => self.y2019,
            Profile::Modern => self.modern,
        }
    }
}

macro_rules! rules {
    ($($name:ident = $id:literal, $check:literal, $mirrors:literal, $y:expr, $m:expr, $hub:literal, $fix:literal;)*) => {
        $(pub const $name: Rule = Rule { id: $id, check: $check, mirrors: $mirrors, y2019: $y, modern: $m, hub: $hub, fix: $fix };)*
        /// Every rule, in checklist order.
        pub const ALL: &[Rule] = &[$($name),*];
    };
}

rules! {
    BUNDLE_FORMAT = "bundle-format", 0, "registry", E, E, false, "rebuild the bundle with `olm-release run` or fix the flattened bundle.yaml's data.* strings";
    CSV_VERSION = "csv-version", 1, "olm-crd-2019", E, E, true, "set spec.version to a quoted, strict SemVer 2.0 string such as \"1.2.3\" (no leading v, no leading zeros)";
    CSV_NAME = "csv-name", 2, "api", E, E, false, "use a lowercase DNS-1123 name of at most 63 characters, e.g. <package>.v<version>";
    CSV_NAME_VERSION = "csv-name-version", 2, "olm-release", W, W, false, "name the CSV <package>.v<spec.version> so the name and the version agree";
    CSV_UNIQUE = "csv-unique", 0, "registry", E, E, false, "give every CSV of the bundle its own metadata.name and spec.version";
    REPLACES_TARGET = "replaces-target", 3, "registry", E, E, false, "carry every CSV of the channel in the bundle (run fetch-previous) or correct spec.replaces";
    REPLACES_SELF = "replaces-self", 3, "registry", E, E, false, "point spec.replaces at the previous release, not at the CSV itself";
    REPLACES_AMBIGUOUS = "replaces-ambiguous", 3, "registry", E, E, false, "let exactly one CSV of the channel replace (or skip) each CSV";
    REPLACES_DOWNGRADE = "replaces-downgrade", 3, "olm-release", E, E, false, "a CSV must replace a lower version; fix spec.replaces or spec.version";
    GRAPH_CYCLE = "graph-cycle", 4, "api", E, E, false, "break the cycle so the chain ends at the first release (no spec.replaces)";
    GRAPH_HEADS = "graph-heads", 4, "api", E, E, false, "keep one head per channel: drop the extra CSV or chain it below the head with spec.replaces";
    GRAPH_STRANDED = "graph-stranded", 4, "api", E, E, false, "reach every CSV from a channel head through replaces or skips, or drop it from the bundle";
    SKIPS = "skips", 5, "api", E, E, false, "list CSV names in spec.skips, none equal to spec.replaces";
    SKIP_RANGE = "skip-range", 6, "api", E, E, false, "write olm.skipRange as a semver range such as '>=1.0.0 <1.2.0' that excludes the CSV's own version";
    CRD_OWNED = "crd-owned", 7, "courier-2019", E, E, false, "ship each owned CRD once, with name <plural>.<group> and the kind and version the CSV lists";
    CRD_FIELDS = "crd-fields", 7, "courier-2019", E, E, false, "give the CRD metadata.name, apiVersion, spec.group, spec.names.kind/plural and its versions";
    CRD_UNOWNED = "crd-unowned", 8, "api", W, E, false, "list the CRD under spec.customresourcedefinitions.owned of a CSV, or drop it from the bundle";
    CRD_DUPLICATE = "crd-duplicate", 8, "registry", E, E, false, "ship each CRD group/version/kind once per bundle";
    INSTALL_MODES = "install-modes", 9, "courier-2019", E, E, false, "list the four installModes types once each, at least one with supported: true";
    INSTALL = "install", 10, "courier-2019", E, E, false, "use install.strategy: deployment with spec.deployments [{name, spec}] and permissions [{serviceAccountName, rules}]";
    ICON = "icon", 11, "olm-crd-2019", E, E, false, "give spec.icon exactly one {base64data, mediatype} with mediatype image/gif, image/jpeg, image/png or image/svg+xml";
    ALM_EXAMPLES = "alm-examples", 12, "courier-2019", E, E, false, "make metadata.annotations.alm-examples a JSON array of CRs of owned kinds";
    ALM_EXAMPLES_COVERAGE = "alm-examples-coverage", 12, "api", W, W, false, "add an example CR for every owned CRD to alm-examples";
    PACKAGE = "package", 13, "courier-2019", E, E, false, "give the package a packageName and at least one channel {name, currentCSV}, names unique";
    PACKAGE_CURRENT_CSV = "package-current-csv", 13, "courier-2019", E, E, false, "make each channel's currentCSV equal the metadata.name of a CSV in the bundle";
    DEFAULT_CHANNEL = "default-channel", 14, "registry", E, E, false, "set defaultChannel to one of the package's channels";
    CSV_REQUIRED = "csv-required", 15, "courier-2019", E, E, false, "add the field: a CSV needs metadata.name, apiVersion, spec.displayName and spec.install";
    CSV_RECOMMENDED = "csv-recommended", 15, "courier-2019", W, W, false, "add the field so the catalog UI can show it";
    CSV_UI_FIELDS = "csv-ui-fields", 15, "courier-2019", W, W, true, "add the field: OperatorHub requires it";
    CSV_MATURITY = "csv-maturity", 16, "olm-crd-2019", E, W, false, "use one of planning, pre-alpha, alpha, beta, stable, mature, inactive, deprecated";
    CSV_MAINTAINERS = "csv-maintainers", 16, "olm-crd-2019", E, W, false, "give every maintainer a name and a valid email";
    CSV_LINKS = "csv-links", 16, "olm-crd-2019", E, W, true, "give every link a name and an absolute http(s) url";
    CSV_PROVIDER = "csv-provider", 16, "courier-2019", OFF, OFF, true, "give spec.provider exactly one key, name";
    CSV_CAPABILITIES = "csv-capabilities", 17, "courier-2019", W, W, true, "use Basic Install, Seamless Upgrades, Full Lifecycle, Deep Insights or Auto Pilot";
    CSV_CATEGORIES = "csv-categories", 17, "courier-2019", W, W, true, "use only categories from the catalog's list, comma-separated";
    CRD_DESCRIPTIONS = "crd-descriptions", 18, "olm-crd-2019", E, W, false, "give each owned CRD entry displayName and description, each descriptor path, displayName and description";
    PERMISSION_VERBS = "permission-verbs", 19, "olm-crd-2019", E, OFF, false, "use only the verbs the 2019 CSV schema allows (no bind, escalate or impersonate)";
    MIN_KUBE_VERSION = "min-kube-version", 20, "api", E, E, false, "write spec.minKubeVersion as X.Y.Z, e.g. 1.11.0";
    CERTIFIED = "certified", 21, "courier-2019", E, E, false, "quote the annotation: certified: \"false\"";
    FILE_YAML = "file-yaml", 21, "courier-2019", E, E, false, "make every manifest file one valid YAML document";
    CATALOG_CRD_DUPLICATE = "catalog-crd-duplicate", 22, "registry", E, E, false, "publish each CRD group/version/kind in only one package of an OperatorSource";
    CRD_VERSION = "crd-version", 23, "courier-2019", E, W, false, "give the CRD the singular spec.version, equal to the version the CSV owns";
    FILE_UNKNOWN = "file-unknown", 24, "courier-2019", W, W, false, "keep only the package, CSV and CRD files in the bundle folder";
    FILE_LAYOUT = "file-layout", 24, "registry", E, E, false, "name CSV files *.clusterserviceversion.yaml and the package *.package.yaml; keep only .yaml files, in one flat folder (or one folder per version), none hidden";
    BUNDLE_SIZE = "bundle-size", 0, "api", OFF, E, false, "split the bundle or shrink the manifests below 1 MiB (gzip + base64)";
    BUNDLE_SIZE_NEAR = "bundle-size-near", 0, "api", OFF, W, false, "shrink the manifests before the bundle reaches 1 MiB";
    CHANNEL_NAME = "channel-name", 0, "api", OFF, W, false, "name channels stable, fast or candidate (optionally with a suffix)";
}

/// The rule with this id.
pub fn by_id(id: &str) -> Option<&'static Rule> {
    ALL.iter().find(|r| r.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_every_checklist_rule_is_covered() {
        let mut ids: Vec<_> = ALL.iter().map(|r| r.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), ALL.len());
        for n in 1..=24u8 {
            assert!(ALL.iter().any(|r| r.check == n), "no rule for check {n}");
        }
    }
}
