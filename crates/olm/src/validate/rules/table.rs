//! The catalogue as `olm-release verify --list-rules` prints it: one row per rule with the
//! level each tool gives it and its level in each profile, as text or JSON, then the reasons
//! behind olm-release's own levels and the deliberate deviations.

use serde::Serialize;

use super::{ALL, Tool};
use crate::Level;
use crate::validate::model::{Options, Profile};

/// One row of `olm-release verify --list-rules`.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub(crate) id: &'static str,
    pub(crate) summary: &'static str,
    /// Level per upstream tool (`error`, `warning`; absent: the tool does not check it).
    pub(crate) enforced_by: std::collections::BTreeMap<&'static str, Level>,
    /// The level in each profile without and with `--operatorhub` (absent: off).
    pub(crate) levels: std::collections::BTreeMap<&'static str, Level>,
    /// Why olm-release reports it where the profile's tools do not (empty when they do).
    #[serde(skip_serializing_if = "str::is_empty")]
    pub(crate) olm_release: &'static str,
    pub(crate) fix: &'static str,
}

/// The whole catalogue as table rows.
pub fn table() -> Vec<Row> {
    ALL.iter()
        .map(|r| {
            let enforced_by = Tool::ALL
                .iter()
                .filter_map(|&t| r.by(t).map(|l| (t.as_str(), l)))
                .collect();
            let mut levels = std::collections::BTreeMap::new();
            for (name, profile, hub) in [
                ("appregistry-2019", Profile::Appregistry2019, false),
                (
                    "appregistry-2019+operatorhub",
                    Profile::Appregistry2019,
                    true,
                ),
                ("modern", Profile::Modern, false),
                ("modern+operatorhub", Profile::Modern, true),
                ("olm-v1", Profile::OlmV1, false),
            ] {
                let opts = Options {
                    profile,
                    operatorhub: hub,
                    ..Options::default()
                };
                if let Some(l) = r.level(&opts) {
                    levels.insert(name, l);
                }
            }
            Row {
                id: r.id,
                summary: r.summary,
                enforced_by,
                levels,
                olm_release: r.why,
                fix: r.fix,
            }
        })
        .collect()
}

/// The catalogue as a text table: one line per rule with its levels per profile and the
/// tools that enforce it, then the deviations with their reasons.
pub fn table_text() -> String {
    use std::fmt::Write as _;
    let lv = |l: Option<Level>| match l {
        Some(Level::Error) => "E",
        Some(Level::Warning) => "W",
        None => "-",
    };
    let mut out = String::new();
    // The rule column is as wide as the longest rule id, so every row lines up.
    let w = ALL.iter().map(|r| r.id.len()).max().unwrap_or(0).max(4);
    let _ = writeln!(
        out,
        "{:<w$} {:>4} {:>4} {:>4} {:>4} {:>4}  enforced by (E error, W warning)",
        "rule", "2019", "+hub", "mod", "+hub", "v1"
    );
    for r in ALL {
        let levels: Vec<&str> = [
            (Profile::Appregistry2019, false),
            (Profile::Appregistry2019, true),
            (Profile::Modern, false),
            (Profile::Modern, true),
            (Profile::OlmV1, false),
        ]
        .iter()
        .map(|&(profile, operatorhub)| {
            lv(r.level(&Options {
                profile,
                operatorhub,
                ..Options::default()
            }))
        })
        .collect();
        let by: Vec<String> = Tool::ALL
            .iter()
            .filter_map(|&t| r.by(t).map(|l| format!("{} {}", t.as_str(), lv(Some(l)))))
            .collect();
        let by = if by.is_empty() {
            "olm-release only".to_string()
        } else {
            by.join(", ")
        };
        let _ = writeln!(
            out,
            "{:<w$} {:>4} {:>4} {:>4} {:>4} {:>4}  {by}",
            r.id, levels[0], levels[1], levels[2], levels[3], levels[4]
        );
    }
    let own = |l: Option<Level>| lv(l);
    let _ = writeln!(
        out,
        "\nWhere no tool of a profile checks a rule, olm-release's own level applies (appregistry-2019 / modern and olm-v1):"
    );
    for r in ALL.iter().filter(|r| !r.why.is_empty()) {
        let _ = writeln!(
            out,
            "  {} ({}/{}): {}",
            r.id,
            own(r.own_2019),
            own(r.own_modern),
            r.why
        );
    }
    let _ = writeln!(
        out,
        "\nDeliberate deviations (errors no tool of the profile raises):"
    );
    for (name, profile) in [
        ("appregistry-2019", Profile::Appregistry2019),
        ("modern", Profile::Modern),
    ] {
        let ids: Vec<&str> = ALL
            .iter()
            .filter(|r| r.deviates(profile))
            .map(|r| r.id)
            .collect();
        let _ = writeln!(out, "  {name}: {}", ids.join(", "));
    }
    out
}
