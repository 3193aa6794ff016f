//! `olm-release plan`: the plan as text or JSON, and, for a pipeline that renders and verifies a
//! bundle, whether OLM v0 and OLM v1 will install it — the bundle rendered in memory and checked
//! as the verify step will check it ([`crate::exec::preview`]), so a reviewer learns before the
//! run that a release cannot install. A render that fails is a warning here (the run stops at
//! it); the plan is still shown.

use crate::exec::preview::{self, Preview};
use crate::plan::Plan;
use crate::report::Reporter;

/// Prints the plan (and the verdict) on stdout; the plan's warnings on stderr.
pub(crate) fn show(plan: &Plan, json: bool, report: &Reporter) {
    // What `run` would warn about before its first step (a `--var` the file never reads), on
    // stderr, so `plan` shows it too.
    for w in &plan.header().warnings {
        report.warn(w);
    }
    let verdict = preview::installable(plan);
    if let Some(Preview::Fails(why)) = &verdict {
        report.warn(&format!(
            "cannot say whether OLM v0 and OLM v1 install the release: {why}"
        ));
    }
    if json {
        // The plan's own keys in their order, then the verdict.
        #[derive(serde::Serialize)]
        struct WithVerdict<'a> {
            #[serde(flatten)]
            plan: &'a Plan,
            #[serde(skip_serializing_if = "Option::is_none")]
            installable: Option<&'a olm_release_olm::cluster::Installable>,
        }
        let doc = WithVerdict {
            plan,
            installable: match &verdict {
                Some(Preview::Checked(i)) => Some(i),
                _ => None,
            },
        };
        crate::out::stdout(&format!(
            "{}\n",
            serde_json::to_string_pretty(&doc).expect("a plan serialises")
        ));
        return;
    }
    let mut text = plan.to_string();
    match &verdict {
        Some(Preview::Checked(i)) => {
            text.push_str(
                "Installable (the bundle rendered now, checked as verify will check it):\n",
            );
            text.push_str(&format!("  OLM v0: {}\n", i.olm_v0.to_line()));
            text.push_str(&format!("  OLM v1: {}\n", i.olm_v1.to_line()));
        }
        Some(Preview::Fails(_)) => {
            text.push_str("Installable: unknown (render fails; see the warning)\n");
        }
        None => {}
    }
    crate::out::stdout(&text);
}
