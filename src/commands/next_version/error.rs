//! Why the alpha version could not be worked out, each error saying what to do: fetch the
//! history and the tags, tag the first release, or pass `--last`.

use std::path::PathBuf;

/// Why the alpha version could not be worked out.
#[derive(Debug, thiserror::Error)]
pub(crate) enum NextVersionError {
    #[error("last release '{last}' is not a SemVer tag (vX.Y.Z or X.Y.Z): {source}")]
    NotSemver { last: String, source: semver::Error },
    #[error("running git in {}: {source}; install git or pass --last vX.Y.Z", dir.display())]
    GitMissing {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not a git checkout ({stderr}); run in the operator's clone, set --source, or pass --last vX.Y.Z", dir.display())]
    NotACheckout { dir: PathBuf, stderr: String },
    #[error(
        "{} is a shallow clone and no release tag vX.Y.Z is found from HEAD in it: fetch the \
         history and the tags (git fetch --unshallow --tags; in .travis.yml `git: depth: false`, \
         in GitHub Actions `fetch-depth: 0` on actions/checkout), or pass --last vX.Y.Z",
        dir.display()
    )]
    Shallow { dir: PathBuf },
    #[error(
        "no release tag vX.Y.Z is reachable from HEAD in {}, nor on a branch cut from its history \
         ({}): tag the first release (git tag v0.1.0), fetch the tags (git fetch --tags), or \
         pass --last vX.Y.Z",
        dir.display(),
        tags_note(*.tags, *.pre_releases)
    )]
    NoReleaseTag {
        dir: PathBuf,
        tags: usize,
        /// Pre-release tags skipped (without --pre-releases).
        pre_releases: usize,
    },
}

fn tags_note(tags: usize, pre: usize) -> String {
    let pre = match pre {
        0 => String::new(),
        1 => "; its 1 pre-release tag is skipped without --pre-releases".into(),
        n => format!("; its {n} pre-release tags are skipped without --pre-releases"),
    };
    match tags {
        0 => "the clone has no tags".into(),
        1 => format!("its 1 tag is not one{pre}"),
        n => format!("none of its {n} tags is one{pre}"),
    }
}

impl olm_release_base::Classified for NextVersionError {
    /// Git missing is the machine's problem (exit 1); everything else is fixed by the caller.
    fn class(&self) -> olm_release_base::Class {
        match self {
            NextVersionError::GitMissing { .. } => olm_release_base::Class::Stage,
            _ => olm_release_base::Class::Input,
        }
    }
}
