//! Accepted errors: a project that knowingly ships what one of olm-release's own error rules
//! refuses (a CRD whose older served version converts without a webhook, say) says so, with
//! its reason, and the finding becomes a warning that carries the reason. Only rules that are
//! errors by olm-release's judgement alone can be accepted ([`Rule::deviates`]): what
//! operator-courier, operator-framework/api, `opm`, the API server or OLM v1 refuse stays an
//! error, since the cluster or the catalog would refuse it too. An acceptance that matches
//! nothing is reported ([`unused`]), so it does not outlive what it was written for.

pub use super::model::Acceptance;
use super::model::Profile;
use super::rules::{self, Rule};
use crate::Finding;

/// Whether `rule` can be accepted under `profile`: an error there by olm-release's judgement
/// only, unless the catalogue says its legitimate case is said more narrowly otherwise
/// (`deployment-references`: `verify.provided`).
pub(crate) fn acceptable(rule: &Rule, profile: Profile) -> bool {
    rule.deviates(profile) && rule.not_accepted.is_empty()
}

/// Checks that `rule` can be accepted under `profile` ([`acceptable`]). The error says which
/// tools enforce it, or lists the rules that can be accepted.
pub fn check(rule: &str, profile: Profile) -> Result<(), String> {
    let acceptable_ones = || {
        rules::ALL
            .iter()
            .filter(|r| acceptable(r, profile))
            .map(|r| r.id)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Some(found) = rules::by_id(rule) else {
        return Err(format!(
            "there is no rule {rule:?} (verify --list-rules lists them; those an acceptance can name under profile {}: {})",
            profile.as_str(),
            acceptable_ones()
        ));
    };
    if acceptable(found, profile) {
        return Ok(());
    }
    if !found.not_accepted.is_empty() {
        return Err(format!(
            "rule {rule} is not accepted as a whole: {}",
            found.not_accepted
        ));
    }
    Err(match enforced_by(found, profile) {
        Some(by) => format!(
            "rule {rule} is enforced by {by} under profile {}: what they refuse cannot be accepted, only fixed (acceptable there: {})",
            profile.as_str(),
            acceptable_ones()
        ),
        None => format!(
            "rule {rule} is not an error under profile {}, so there is nothing to accept (acceptable there: {})",
            profile.as_str(),
            acceptable_ones()
        ),
    })
}

/// The tools that make `rule` an error under `profile`, as `verify --list-rules` names them.
fn enforced_by(rule: &Rule, profile: Profile) -> Option<String> {
    match rule.judge(&super::Options::new(profile), &[]) {
        Some((crate::Level::Error, by)) if by != "olm-release" => Some(by),
        _ => None,
    }
}

/// The acceptances of `accepted` that no finding of `findings` was accepted by.
pub fn unused<'a>(accepted: &'a [Acceptance], findings: &[Finding]) -> Vec<&'a Acceptance> {
    accepted
        .iter()
        .filter(|a| {
            !findings
                .iter()
                .any(|f| f.accepted.is_some() && a.covers(&f.rule, &f.object))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Level;

    #[test]
    fn only_rules_that_are_errors_by_olm_release_alone_can_be_accepted() {
        assert_eq!(check("crd-conversion-schemas", Profile::Modern), Ok(()));
        assert_eq!(
            check("object-webhook-configuration", Profile::OlmV1),
            Ok(())
        );
        let pods = check("deployment-references", Profile::Modern).unwrap_err();
        assert!(pods.contains("verify.provided"), "{pods}");
        let enforced = check("csv-name", Profile::Modern).unwrap_err();
        assert!(enforced.contains("is enforced by"), "{enforced}");
        assert!(enforced.contains("crd-conversion-schemas"), "{enforced}");
        let unknown = check("no-such-rule", Profile::Modern).unwrap_err();
        assert!(
            unknown.starts_with("there is no rule \"no-such-rule\""),
            "{unknown}"
        );
        let warning = check("yaml-duplicate-key", Profile::Modern).unwrap_err();
        assert!(warning.contains("is not an error"), "{warning}");
    }

    fn finding(rule: &str, object: &str, accepted: Option<&str>) -> Finding {
        Finding {
            level: Level::Warning,
            rule: rule.into(),
            mirrors: "olm-release".into(),
            file: "x.yaml".into(),
            object: object.into(),
            field: String::new(),
            message: "m".into(),
            fix: String::new(),
            accepted: accepted.map(str::to_string),
        }
    }

    #[test]
    fn an_acceptance_is_used_only_by_a_finding_it_turned_into_a_warning() {
        let a = |object: Option<&str>| Acceptance {
            rule: "crd-conversion-schemas".into(),
            object: object.map(str::to_string),
            because: "b".into(),
        };
        let accepted = [
            a(None),
            a(Some("w.example.com")),
            a(Some("other.example.com")),
        ];
        let findings = [
            finding("crd-conversion-schemas", "w.example.com", Some("b")),
            finding("crd-conversion-schemas", "other.example.com", None),
        ];
        let left: Vec<String> = unused(&accepted, &findings)
            .iter()
            .map(|a| a.shown())
            .collect();
        assert_eq!(left, ["crd-conversion-schemas for other.example.com"]);
    }
}
