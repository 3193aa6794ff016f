//! Bundle validation: the consolidated checklist of the fact sheet (§5.1) and the upgrade-graph
//! checks (§6), each finding naming file, object and field and saying how to fix it.

use serde::{Deserialize, Serialize};

use super::graph::{self, Broken};
use super::{Bundle, Finding, Level};

/// Which era's rules apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    /// OpenShift 4.1 / app registry, as operator-courier 2.1.11 and the 2019 OLM CRDs check.
    #[default]
    #[value(name = "appregistry-2019")]
    #[serde(rename = "appregistry-2019")]
    Appregistry2019,
    /// operator-framework/api's current rules.
    Modern,
}

/// Validates a bundle; findings are sorted errors first.
pub fn validate(bundle: &Bundle, _profile: Profile) -> Vec<Finding> {
    let mut findings = Vec::new();
    let pkg_file = bundle.package.file_name();
    for channel in &bundle.package.channels {
        let (_, broken) = graph::walk(bundle, &channel.current_csv);
        match broken {
            Some(Broken::Missing(name)) if name == channel.current_csv => findings.push(Finding {
                level: Level::Error,
                rule: "package-current-csv".into(),
                file: pkg_file.clone(),
                object: bundle.package.package_name.clone(),
                field: format!("channels[{}].currentCSV", channel.name),
                message: format!("names {name}, which is not a CSV in the bundle"),
                fix: "make currentCSV equal the metadata.name of a CSV in the bundle".into(),
            }),
            Some(Broken::Missing(name)) => findings.push(Finding {
                level: Level::Error,
                rule: "replaces-target".into(),
                file: pkg_file.clone(),
                object: channel.current_csv.clone(),
                field: "spec.replaces".into(),
                message: format!(
                    "the chain of channel {} reaches {name}, which is not in the bundle",
                    channel.name
                ),
                fix: "carry every CSV of the channel in the bundle (run fetch-previous)".into(),
            }),
            Some(Broken::Cycle(name)) => findings.push(Finding {
                level: Level::Error,
                rule: "replaces-cycle".into(),
                file: pkg_file.clone(),
                object: name.clone(),
                field: "spec.replaces".into(),
                message: format!("the chain of channel {} loops back to {name}", channel.name),
                fix: "break the cycle so the chain ends at the first release".into(),
            }),
            None => {}
        }
    }
    findings.sort_by(|a, b| a.level.cmp(&b.level));
    findings
}
