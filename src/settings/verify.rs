//! The verify section, resolved: the profile and OperatorHub switch as the pipeline file says,
//! and the custom categories file (`verify.categories`, else `$OPERATOR_BUNDLE_CATEGORIES`, as
//! `verify --categories` reads it), read once here so that every path that validates accepts
//! the same names. operator-framework/api reads the same variable for its OperatorHub
//! categories check. `verify.provided` and `verify.accept` are checked here, each problem with
//! its line.

use std::path::{Path, PathBuf};

use super::inputs::{Env, PipelineFile};
use super::urls::resolve_path;
use crate::error::Problem;
use crate::pipeline::model::VerifySpec;
use olm_release_olm::validate::Categories;
use olm_release_olm::validate::accept::{self, Acceptance};

/// The variable operator-framework/api reads a categories file's path from.
pub(crate) const CATEGORIES_VAR: &str = "OPERATOR_BUNDLE_CATEGORIES";

/// The categories file the pipeline names (relative to `source`) or the variable names;
/// `None` when neither does, or when it cannot be read (a problem says why).
pub(crate) fn categories(
    spec: &VerifySpec,
    file: &PipelineFile,
    source: &Path,
    env: &Env,
    problems: &mut Vec<Problem>,
) -> Option<Categories> {
    let (path, at) = match &spec.categories {
        Some(p) => (
            resolve_path(source, Path::new(p)),
            file.at(&["verify", "categories"]),
        ),
        None => (
            PathBuf::from(env.get(CATEGORIES_VAR).filter(|v| !v.trim().is_empty())?),
            CATEGORIES_VAR.to_string(),
        ),
    };
    Categories::read(&path)
        .map_err(|e| problems.push(Problem::new(at, format!("categories: {e}"))))
        .ok()
}

/// Every `verify.provided` entry is `Kind/name` with a kind a Deployment's pods name.
pub(crate) fn provided(spec: &VerifySpec, file: &PipelineFile, problems: &mut Vec<Problem>) {
    for (i, value) in spec.provided.iter().enumerate() {
        if let Err(e) = olm_release_olm::validate::check_provided(value) {
            let at = file.at(&["verify", "provided", &i.to_string()]);
            problems.push(Problem::new(at, format!("verify.provided: {e}")));
        }
    }
}

/// `verify.accept` as acceptances: each names a rule that is an error under the pipeline's
/// profile by olm-release's judgement alone, and says why (a problem for each that does not).
pub(crate) fn accepted(
    spec: &VerifySpec,
    file: &PipelineFile,
    problems: &mut Vec<Problem>,
) -> Vec<Acceptance> {
    let mut out = Vec::new();
    for (i, entry) in spec.accept.iter().enumerate() {
        let index = i.to_string();
        if let Err(e) = accept::check(&entry.rule, spec.profile) {
            let at = file.at(&["verify", "accept", &index, "rule"]);
            problems.push(Problem::new(at, format!("verify.accept: {e}")));
            continue;
        }
        if entry.because.trim().is_empty() {
            let at = file.at(&["verify", "accept", &index, "because"]);
            problems.push(Problem::new(
                at,
                format!(
                    "verify.accept: accepting {} needs a reason in because:, which the warning shows",
                    entry.rule
                ),
            ));
            continue;
        }
        out.push(Acceptance {
            rule: entry.rule.clone(),
            object: entry.object.clone(),
            because: entry.because.trim().to_string(),
        });
    }
    out
}
