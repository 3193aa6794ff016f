//! `olm-release next-version`: the version of an alpha build, from the release tags of the
//! history it is built from.
//!
//! Scheme: after the last release `X.Y.Z`, a build numbered `N` of the main line is
//! `X.(Y+1).0-alpha.N`, and a build of a release branch (a maintenance line) is the next patch,
//! `X.Y.(Z+1)-alpha.N`. SemVer orders the first after every `X.Y.*` release and before
//! `X.(Y+1).0`, the second after `X.Y.Z` and before `X.Y.(Z+1)`, and builds among themselves
//! by build number (numeric pre-release identifiers compare as numbers). The app registry's
//! `default` and OLM's version checks use exactly these rules, so an alpha channel fed this way
//! always moves forward.
//!
//! Which release is "the last" is the subtle part ([`choose`]): projects tag releases on the main
//! line (KubeVirt), or on release branches cut from it (strimzi's `release-1.2.x`, HCO's
//! `release-1.18`), where no release tag is reachable from the main line's HEAD; pre-release
//! tags (`0.2.0-rc1`, HCO's `v1.14.0-unstable`) are not releases; tags may carry a `v` or not.
//! The tags are read from git ([`git`]); CI services clone shallow and without tags by default,
//! and that case is told apart from a repository without a release ([`error`]).

mod choose;
mod error;
mod git;
mod run;

pub(crate) use run::run;
