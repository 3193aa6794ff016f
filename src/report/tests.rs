//! The reporter's own tests: folding per CI and a failure's record.

use crate::error::Error;
use crate::report::{Fold, Reporter, Verbosity};

#[test]
fn fold_follows_the_ci_provider() {
    assert_eq!(Fold::for_provider(Some("travis")), Fold::Travis);
    assert_eq!(
        Fold::for_provider(Some("github-actions")),
        Fold::GitHubActions
    );
    assert_eq!(Fold::for_provider(None), Fold::None);
}

#[test]
fn a_failure_is_recorded_with_its_class_and_problems() {
    let r = Reporter::new(Verbosity::Quiet, true);
    let e: Error = crate::error::Problems(vec![crate::error::Problem::new("x:1", "bad")]).into();
    r.fail(&e);
    let s = r.summary();
    assert_eq!((s.outcome, s.exit_code), ("failed", 2));
    assert_eq!(s.error.unwrap().problems.len(), 1);
}
