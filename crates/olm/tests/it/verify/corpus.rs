//! The corpus (fixtures/verify/cases.yaml) through both tools: every bundle courier rejects, we
//! reject; every defect is reported under the rule and at the level the manifest names; where
//! courier accepts what we report, the manifest says why and courier really accepts it; every
//! valid bundle (a skipRange holding its own version, a CSV replaced by one release and skipped
//! by a later one, CRDs with spec.versions only, CSV and package files with any name, a repeated
//! YAML key) passes both tools and both profiles.

use std::path::Path;

use olm_release_olm::Level;
use olm_release_olm::validate::{Profile, rules};
use serde::Deserialize;

use super::{corpus_dir, courier_verify, ours, show};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Cases {
    valid: Vec<String>,
    broken: Vec<Case>,
    /// Package-manifest trees, checked in `super::trees`.
    #[allow(dead_code)]
    trees: Vec<serde_yaml_ng::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    defect: String,
    rule: String,
    #[serde(default)]
    level: Option<String>,
    #[serde(default)]
    operatorhub: bool,
    #[serde(default)]
    profile: Option<Profile>,
    courier: Verdict,
    courier_ui: Verdict,
    #[serde(default)]
    why: Option<String>,
}

#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Verdict {
    Accept,
    Reject,
}

fn cases() -> Cases {
    let text = std::fs::read_to_string(corpus_dir().join("cases.yaml")).unwrap();
    serde_yaml_ng::from_str(&text).unwrap()
}

#[test]
fn the_corpus_is_what_the_issue_asks_for() {
    let c = cases();
    assert!(c.valid.len() >= 2);
    let errors = c.broken.iter().filter(|b| b.level.is_none()).count();
    assert!(errors >= 25, "only {errors} broken bundles");
    for b in &c.broken {
        assert!(
            corpus_dir().join("broken").join(&b.name).is_dir(),
            "{}",
            b.name
        );
        assert!(
            rules::by_id(&b.rule).is_some(),
            "{}: unknown rule {}",
            b.name,
            b.rule
        );
        assert!(!b.defect.is_empty());
    }
}

/// Our verdict on every broken bundle: the named rule at the named level.
#[test]
fn every_broken_bundle_is_reported_under_its_rule() {
    for b in cases().broken {
        let dir = corpus_dir().join("broken").join(&b.name);
        let profile = b.profile.unwrap_or_default();
        let r = ours(&dir, profile, b.operatorhub);
        let want = match b.level.as_deref() {
            None | Some("error") => Level::Error,
            Some("warning") => Level::Warning,
            Some(other) => panic!("{}: level {other}", b.name),
        };
        let hit = r
            .findings
            .iter()
            .find(|f| f.rule == b.rule && f.level == want);
        let hit = hit.unwrap_or_else(|| {
            panic!(
                "{} ({}): no {want:?} {}:\n{}",
                b.name,
                b.defect,
                b.rule,
                show(&r)
            )
        });
        assert!(!hit.file.is_empty() && !hit.object.is_empty() && !hit.fix.is_empty());
        assert!(!hit.mirrors.is_empty(), "{hit}");
        if want == Level::Warning {
            assert!(
                r.is_valid(),
                "{}: a warning-only case has errors:\n{}",
                b.name,
                show(&r)
            );
        }
        if b.operatorhub {
            let plain = ours(&dir, profile, false);
            assert!(
                plain.is_valid(),
                "{}: an OperatorHub-only defect is an error without --operatorhub",
                b.name
            );
        }
    }
}

#[test]
fn valid_bundles_pass_both_tools() {
    for v in cases().valid {
        let dir = corpus_dir().join("valid").join(&v);
        super::assert_valid_for_both(&dir);
        let modern = ours(&dir, Profile::Modern, false);
        assert!(modern.is_valid(), "{v} (modern):\n{}", show(&modern));
    }
}

/// Runs courier on every broken bundle (both modes, two at a time) and checks the manifest's
/// claims and the parity promise.
#[test]
fn courier_parity() {
    if super::super::support::peer("COURIER").is_none() {
        return;
    }
    let cases = cases().broken;
    let results: Vec<(Verdict, Verdict)> = std::thread::scope(|s| {
        let run = |dir: &Path, ui: bool| match courier_verify(dir, ui).unwrap().0 {
            0 => Verdict::Accept,
            _ => Verdict::Reject,
        };
        let handles: Vec<_> = cases
            .chunks(cases.len().div_ceil(2))
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|b| {
                            let dir = corpus_dir().join("broken").join(&b.name);
                            (run(&dir, false), run(&dir, true))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    for (b, (plain, ui)) in cases.iter().zip(results) {
        let dir = corpus_dir().join("broken").join(&b.name);
        assert_eq!(plain, b.courier, "{}: courier verify", b.name);
        assert_eq!(
            ui, b.courier_ui,
            "{}: courier verify --ui_validate_io",
            b.name
        );
        let us = ours(&dir, Profile::Appregistry2019, false);
        let us_hub = ours(&dir, Profile::Appregistry2019, true);
        if plain == Verdict::Reject {
            assert!(!us.is_valid(), "{}: courier rejects, we accept", b.name);
        }
        if ui == Verdict::Reject {
            assert!(
                !us_hub.is_valid(),
                "{}: courier --ui_validate_io rejects, we accept with --operatorhub",
                b.name
            );
        }
        if (!us.is_valid() && plain == Verdict::Accept)
            || (!us_hub.is_valid() && ui == Verdict::Accept)
        {
            let why = b.why.as_deref().unwrap_or("");
            assert!(
                !why.is_empty(),
                "{}: we reject, courier accepts, and the manifest does not say why",
                b.name
            );
        }
    }
}
