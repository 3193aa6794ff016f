//! What `plan` says about the release before anything runs: the render step run in memory
//! (templates rendered and parsed, the CSV assembled, nothing written), the rendered bundle
//! checked as the verify step will check it (its profile, `verify.provided`, the OperatorHub
//! rules), and from those errors and the bundle whether OLM v0 and OLM v1 install it
//! ([`cluster::installable_contents`]). Only a plan with both a render and a verify step says
//! it; fetch-previous has not run, so the bundle is the new CSV's alone (what both OLMs
//! install), without the older CSVs an app-registry release carries.

use crate::plan::{Plan, Step};
use olm_release_olm::Level;
use olm_release_olm::cluster::{self, Installable};
use olm_release_olm::validate;

/// `plan`'s verdict on the release.
pub(crate) enum Preview {
    /// The rendered bundle was checked.
    Checked(Installable),
    /// Render (or the check) failed: the run will stop there, for this reason.
    Fails(String),
}

/// The verdict, when the plan renders and verifies a bundle.
pub(crate) fn installable(plan: &Plan) -> Option<Preview> {
    let mut render = None;
    let mut verify = None;
    for step in plan.steps() {
        match step {
            Step::Render(r) => render = Some(r),
            Step::Verify(v) => verify = Some(v),
            _ => {}
        }
    }
    let (render, verify) = (render?, verify?);
    let rendered = match super::render::preview(render) {
        Ok(r) => r,
        Err(e) => return Some(Preview::Fails(format!("render fails: {e}"))),
    };
    let (files, contents) = rendered.split();
    let report = validate::verify_contents(&render.templates_shown, &contents, &verify.options());
    let errors: Vec<_> = files
        .findings
        .iter()
        .chain(report.findings.iter())
        .filter(|f| f.level == Level::Error)
        .collect();
    Some(match cluster::installable_contents(&contents, &errors) {
        Some(i) => Preview::Checked(i),
        None => Preview::Fails("the rendered bundle holds no CSV".into()),
    })
}
