//! The command: the last release (`--last`, or the checkout's tags by [`choose`]'s rule), the
//! line HEAD is on, the alpha version on stdout, and on stderr one line saying how it was
//! found, so a CI log shows why a build got its version.

use semver::Version;

use super::choose::{self, Found, Line};
use super::error::NextVersionError;
use super::git::Checkout;
use crate::cli::NextVersionArgs;

/// Prints the alpha version of `args.build`; `ci_branch` is the CI's branch (the default of
/// `--branch`); `quiet` leaves the explanation out.
pub(crate) fn run(
    args: &NextVersionArgs,
    ci_branch: Option<&str>,
    quiet: bool,
) -> Result<(), NextVersionError> {
    let mut git = Checkout::new(&args.source);
    let (version, last, told) = match &args.last {
        Some(tag) => {
            let trimmed = tag.strip_prefix('v').unwrap_or(tag);
            let version =
                Version::parse(trimmed).map_err(|source| NextVersionError::NotSemver {
                    last: tag.clone(),
                    source,
                })?;
            (version, None, format!("--last {tag}"))
        }
        None => {
            let tags = git.tags()?;
            let reachable = git.reachable()?;
            let (releases, skipped) = choose::releases(&tags, args.pre_releases);
            let Some(last) = choose::last(&releases, &reachable, &mut git)? else {
                let dir = git.dir().to_path_buf();
                if git.shallow()? {
                    return Err(NextVersionError::Shallow { dir });
                }
                return Err(NextVersionError::NoReleaseTag {
                    dir,
                    tags: tags.len(),
                    pre_releases: skipped,
                });
            };
            let mut told = match &last.found {
                Found::Reachable => format!("tag {}, reachable from HEAD", last.release.tag),
                Found::Branch { fork } => format!(
                    "tag {}, on a release branch that left HEAD's history at {}",
                    last.release.tag,
                    &fork[..fork.len().min(10)]
                ),
            };
            match skipped {
                0 => {}
                1 => told.push_str("; 1 pre-release tag skipped"),
                n => told.push_str(&format!("; {n} pre-release tags skipped")),
            }
            (last.release.version.clone(), Some(last), told)
        }
    };
    let branch = args
        .branch
        .clone()
        .or_else(|| ci_branch.map(str::to_string))
        .or_else(|| args.last.is_none().then(|| git.branch()).flatten());
    let line = choose::line(branch.as_deref(), last.as_ref());
    let next = choose::alpha(&version, &line, args.build);
    if !quiet {
        let on = match &line {
            Line::Main => "a main-line build: the next minor".to_string(),
            Line::Maintenance { why, .. } => format!("{why}: the next patch"),
        };
        crate::out::line(&format!(
            "next-version: the last release is {version} ({told}); {on}: {next}"
        ));
    }
    crate::out::stdout(&format!("{next}\n"));
    Ok(())
}
