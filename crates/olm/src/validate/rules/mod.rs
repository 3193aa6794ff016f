//! The rule catalogue: every rule validation reports, which upstream tools enforce it and at
//! what level, and what olm-release does where none of them does. Rule modules pick a [`Rule`];
//! the [`Sink`](super::Sink) turns it into a [`Finding`](crate::Finding) at the level the
//! profile gives.
//!
//! A profile *is* a set of tools: `appregistry-2019` is operator-courier 2.1.11 and the
//! operator-registry loader that served app-registry catalogs (plus courier's
//! `--ui_validate_io` with `--operatorhub`); `modern` is operator-framework/api's validators and
//! `opm validate` (plus api's OperatorHub validator with `--operatorhub`); both also follow the
//! Kubernetes API server, which validates the Deployments OLM creates from a CSV's install
//! strategy whatever the catalog format. A rule's level in a
//! profile is the strictest level any of the profile's tools gives it. Where none of them
//! checks it, olm-release's own level applies: usually a warning (something a cluster or the
//! catalog would trip over later), and an error only for the few deliberate deviations whose
//! reason is recorded in [`Rule::why`] and printed by `olm-release verify --list-rules`.
//! Keeping levels here, not in the checks, means one table says what each profile enforces and
//! a finding never claims a tool rejects what it accepts.

mod catalogue;
mod cluster;
mod table;

use serde::Serialize;

use super::model::{Options, Profile};
use crate::Level;

pub use catalogue::*;
pub use cluster::*;
pub use table::{Row, table, table_text};

/// An upstream tool whose verdict a profile follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Tool {
    /// `operator-courier verify` 2.1.11.
    Courier,
    /// `operator-courier verify --ui_validate_io` 2.1.11.
    CourierUi,
    /// operator-registry's loaders as app-registry catalogs ran them (directory and ConfigMap).
    OperatorRegistry,
    /// operator-framework/api's default validators (bundle, CSV, CRD, package, objects) and its
    /// good-practice and deprecated-API validators (warnings).
    Api,
    /// operator-framework/api's OperatorHub validator.
    ApiHub,
    /// `opm validate` (the file-based catalog model).
    Opm,
    /// The Kubernetes API server, validating the objects OLM creates from the install strategy
    /// (apps/v1 Deployments and their pods): every profile follows it, since a CSV the cluster
    /// cannot install is no release under either.
    ApiServer,
    /// OLM v1 (operator-controller): its registry+v1 renderer, manifest provider and resolver.
    OlmV1,
}

impl Tool {
    /// The short name used in findings and the rule table.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Tool::Courier => "courier",
            Tool::CourierUi => "courier-ui",
            Tool::OperatorRegistry => "registry",
            Tool::Api => "api",
            Tool::ApiHub => "api-operatorhub",
            Tool::Opm => "opm",
            Tool::ApiServer => "apiserver",
            Tool::OlmV1 => "olm-v1",
        }
    }

    /// Every tool, in table order.
    pub(crate) const ALL: [Tool; 8] = [
        Tool::Courier,
        Tool::CourierUi,
        Tool::OperatorRegistry,
        Tool::Api,
        Tool::ApiHub,
        Tool::Opm,
        Tool::ApiServer,
        Tool::OlmV1,
    ];
}

/// The tools a profile follows under these options.
pub(crate) fn tools(opts: &Options) -> &'static [Tool] {
    match (opts.profile, opts.operatorhub) {
        (Profile::Appregistry2019, false) => {
            &[Tool::Courier, Tool::OperatorRegistry, Tool::ApiServer]
        }
        (Profile::Appregistry2019, true) => &[
            Tool::Courier,
            Tool::CourierUi,
            Tool::OperatorRegistry,
            Tool::ApiServer,
        ],
        (Profile::Modern, false) => &[Tool::Api, Tool::Opm, Tool::ApiServer],
        (Profile::Modern, true) => &[Tool::Api, Tool::ApiHub, Tool::Opm, Tool::ApiServer],
        (Profile::OlmV1, false) => &[Tool::Api, Tool::Opm, Tool::ApiServer, Tool::OlmV1],
        (Profile::OlmV1, true) => &[
            Tool::Api,
            Tool::ApiHub,
            Tool::Opm,
            Tool::ApiServer,
            Tool::OlmV1,
        ],
    }
}

/// One rule.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// The rule's id (`csv-name`, …), as findings and `verify --list-rules` show it.
    pub id: &'static str,
    /// What the rule requires, in one line.
    pub(crate) summary: &'static str,
    pub(crate) courier: Option<Level>,
    pub(crate) courier_ui: Option<Level>,
    pub(crate) registry: Option<Level>,
    pub(crate) api: Option<Level>,
    pub(crate) api_hub: Option<Level>,
    pub(crate) opm: Option<Level>,
    pub(crate) apiserver: Option<Level>,
    pub(crate) olm_v1: Option<Level>,
    /// olm-release's own level in `appregistry-2019` where none of its tools checks the rule.
    pub(crate) own_2019: Option<Level>,
    /// olm-release's own level in `modern` where none of its tools checks the rule.
    pub(crate) own_modern: Option<Level>,
    /// Why olm-release reports the rule where no tool of the profile does.
    pub(crate) why: &'static str,
    /// The generic fix, shown when a check gives no more specific one.
    pub fix: &'static str,
    /// Why an error of the rule cannot be accepted as a whole (`verify.accept`), and what says
    /// its legitimate case more narrowly; empty: it can be, where only olm-release gives it.
    pub(crate) not_accepted: &'static str,
}

const E: Option<Level> = Some(Level::Error);
const W: Option<Level> = Some(Level::Warning);

/// The stricter of two levels (`None` is off).
fn strictest(a: Option<Level>, b: Option<Level>) -> Option<Level> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

impl Rule {
    const fn new(id: &'static str, summary: &'static str, fix: &'static str) -> Rule {
        Rule {
            id,
            summary,
            courier: None,
            courier_ui: None,
            registry: None,
            api: None,
            api_hub: None,
            opm: None,
            apiserver: None,
            olm_v1: None,
            own_2019: None,
            own_modern: None,
            why: "",
            fix,
            not_accepted: "",
        }
    }
    /// An error of this rule is not accepted as a whole: `instead` says why and what to use.
    const fn not_accepted(self, instead: &'static str) -> Rule {
        Rule {
            not_accepted: instead,
            ..self
        }
    }
    const fn courier(self, l: Option<Level>) -> Rule {
        Rule { courier: l, ..self }
    }
    const fn ui(self, l: Option<Level>) -> Rule {
        Rule {
            courier_ui: l,
            ..self
        }
    }
    const fn registry(self, l: Option<Level>) -> Rule {
        Rule {
            registry: l,
            ..self
        }
    }
    const fn api(self, l: Option<Level>) -> Rule {
        Rule { api: l, ..self }
    }
    const fn hub(self, l: Option<Level>) -> Rule {
        Rule { api_hub: l, ..self }
    }
    const fn opm(self, l: Option<Level>) -> Rule {
        Rule { opm: l, ..self }
    }
    const fn apiserver(self, l: Option<Level>) -> Rule {
        Rule {
            apiserver: l,
            ..self
        }
    }
    const fn olm_v1(self, l: Option<Level>) -> Rule {
        Rule { olm_v1: l, ..self }
    }
    /// olm-release's own levels (2019, modern) and why.
    const fn own(self, y2019: Option<Level>, modern: Option<Level>, why: &'static str) -> Rule {
        Rule {
            own_2019: y2019,
            own_modern: modern,
            why,
            ..self
        }
    }

    /// The level `tool` gives this rule.
    pub(crate) fn by(&self, tool: Tool) -> Option<Level> {
        match tool {
            Tool::Courier => self.courier,
            Tool::CourierUi => self.courier_ui,
            Tool::OperatorRegistry => self.registry,
            Tool::Api => self.api,
            Tool::ApiHub => self.api_hub,
            Tool::Opm => self.opm,
            Tool::ApiServer => self.apiserver,
            Tool::OlmV1 => self.olm_v1,
        }
    }

    /// olm-release's own level in `profile`.
    pub(crate) fn own_level(&self, profile: Profile) -> Option<Level> {
        match profile {
            Profile::Appregistry2019 => self.own_2019,
            Profile::Modern | Profile::OlmV1 => self.own_modern,
        }
    }

    /// The level and the attribution (tools, or `olm-release`) of this rule under `opts`,
    /// leaving out `except` (tools that accept this particular case). `None`: not reported.
    pub(crate) fn judge(&self, opts: &Options, except: &[Tool]) -> Option<(Level, String)> {
        let judging = || {
            tools(opts)
                .iter()
                .filter(|t| !except.contains(t))
                .filter_map(|&t| self.by(t).map(|l| (t, l)))
        };
        let level = judging().fold(None, |acc, (_, l)| strictest(acc, Some(l)));
        // Only the tools that give it this level: a tool that merely warns does not enforce
        // an error.
        let by: Vec<&str> = judging()
            .filter(|(_, l)| Some(*l) == level)
            .map(|(t, _)| t.as_str())
            .collect();
        match level {
            Some(l) => Some((l, by.join(", "))),
            None => self
                .own_level(opts.profile)
                .map(|l| (l, "olm-release".to_string())),
        }
    }

    /// The level this rule reports at under `opts`, or `None` when it is off.
    pub(crate) fn level(&self, opts: &Options) -> Option<Level> {
        self.judge(opts, &[]).map(|(l, _)| l)
    }

    /// Whether the rule is an error in `profile` only because olm-release says so: a
    /// deliberate deviation from the profile's tools.
    pub(crate) fn deviates(&self, profile: Profile) -> bool {
        let opts = Options::new(profile);
        let tools_say = tools(&opts).iter().any(|&t| self.by(t).is_some());
        !tools_say && self.own_level(profile) == E
    }
}

/// The rule with this id.
pub fn by_id(id: &str) -> Option<&'static Rule> {
    ALL.iter().find(|r| r.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_every_rule_is_explained() {
        let mut ids: Vec<_> = ALL.iter().map(|r| r.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), ALL.len());
        for r in ALL {
            assert!(!r.summary.is_empty() && !r.fix.is_empty(), "{}", r.id);
            let own = r.own_2019.is_some() || r.own_modern.is_some();
            assert_eq!(own, !r.why.is_empty(), "{}: own levels need a why", r.id);
            let any = Tool::ALL.iter().any(|&t| r.by(t).is_some());
            assert!(any || own, "{}: reported by nobody", r.id);
        }
    }

    #[test]
    fn a_profile_follows_its_tools() {
        let y2019 = Options::new(Profile::Appregistry2019);
        let modern = Options::new(Profile::Modern);
        // courier rejects it: an error under 2019, whatever api thinks.
        assert_eq!(
            CRD_OWNED_NAME.judge(&y2019, &[]),
            Some((Level::Error, "courier".into()))
        );
        assert_eq!(CRD_OWNED_NAME.level(&modern), None);
        assert_eq!(
            CERTIFIED.judge(&y2019, &[]),
            Some((Level::Error, "courier, registry".into()))
        );
        // Only the 2019 CSV schema knew the verb list: a warning, attributed to olm-release.
        assert_eq!(
            PERMISSION_VERBS.judge(&y2019, &[]),
            Some((Level::Warning, "olm-release".into()))
        );
        // No upstream validator checks the account a Deployment runs as against the
        // permissions, and OperatorHub's catalogs ship such operators: a warning.
        for opts in [&y2019, &modern] {
            assert_eq!(
                DEPLOYMENT_PERMISSIONS.judge(opts, &[]),
                Some((Level::Warning, "olm-release".into()))
            );
        }
        // A tool that accepts this case is left out of the attribution.
        let (_, by) = PACKAGE_CURRENT_CSV.judge(&y2019, &[Tool::Courier]).unwrap();
        assert_eq!(by, "registry");
        let hub = Options {
            operatorhub: true,
            ..y2019.clone()
        };
        assert_eq!(CSV_CATEGORIES.level(&y2019), None);
        assert_eq!(CSV_CATEGORIES.level(&hub), Some(Level::Error));
        // courier warns, its OperatorHub mode refuses: the error is courier-ui's alone.
        assert_eq!(
            CSV_DISPLAY_NAME.judge(&hub, &[]),
            Some((Level::Error, "courier-ui".into()))
        );
    }

    #[test]
    fn the_text_table_lists_every_rule_and_every_deviation() {
        let t = table_text();
        for r in ALL {
            assert!(t.contains(r.id), "{}", r.id);
        }
        assert!(PACKAGE_NAME.deviates(Profile::Appregistry2019));
        assert!(!CERTIFIED.deviates(Profile::Appregistry2019));
        assert!(!PACKAGE_NAME.deviates(Profile::Modern));
        assert_eq!(table().len(), ALL.len());
    }
}
