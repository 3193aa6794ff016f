//! A catalog target is written with a compare-and-swap (a push without force, a tag moved only
//! if it still names the image read): a job whose swap is lost tries again, and these rules say
//! how, as plain data.
//!
//! - **Which changes conflict** ([`after_move`]): the store reports what moved between the
//!   catalog the release read and the new head ([`Moved`]: the paths a branch's new commits
//!   changed, or the packages whose documents differ in the image that now holds the tag). A
//!   move that touches only other packages leaves the release's decision standing (its
//!   package's channel heads are what it decided on), so the same change is applied again on
//!   the new head ([`Retry::Reapply`]): no new decision, no new bundle image. A move of the
//!   release's own package, or one the rule cannot rule out to be (a catalog file at the
//!   catalog's root, which may hold any package's documents; a file the release read its
//!   package from or writes; a store that cannot tell), sends it back to decide again
//!   ([`Retry::Decide`]).
//! - **When to try again** ([`pause`]): after a random pause that doubles with each retry
//!   (exponential backoff with jitter, so jobs that lost together do not collide again in
//!   step), until a deadline counted from the first lost swap, and at most `retries` times when
//!   the pipeline gives that count ([`Patience`]).
//!
//! The rule for paths follows the loader's ([`super::load::read_package`]): in a catalog laid
//! out one folder per package, a release reads and writes only `<root>/<package>/` (and the
//! files that held its documents elsewhere); every other package's folder is someone else's.

use std::collections::BTreeSet;
use std::time::Duration;

use super::load::walk::is_catalog_file;
use super::parse;

/// What changed on a catalog target between the read a release decided on and the head that
/// refused its write, as the store can tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Moved {
    /// The repository paths (with `/`) that differ between the commit read and the branch's
    /// new head; the catalog is the folder `root` of the repository (empty: the whole
    /// repository).
    Paths {
        /// The catalog folder in the repository, without leading or trailing `/`.
        root: String,
        /// The changed paths.
        paths: Vec<String>,
    },
    /// The packages whose documents differ between the catalog read and the one the target
    /// holds now.
    Packages(Vec<String>),
    /// The store cannot tell (the branch is gone, the new head cannot be read).
    Unknown,
}

/// This release's part of the catalog.
#[derive(Debug, Clone, Copy)]
pub struct Ours<'a> {
    /// The package.
    pub package: &'a str,
    /// The catalog files (relative to the catalog folder) the release read its package's
    /// documents from or writes.
    pub files: &'a [String],
}

/// What a job whose swap was lost does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Retry {
    /// Only other packages moved: apply the same change to the new head.
    Reapply,
    /// The release's package moved (or may have): decide again on a fresh read; `because`
    /// names what moved.
    Decide {
        /// What moved, for the message.
        because: String,
    },
}

/// What a lost swap means for the release `ours`, given what `moved`.
pub fn after_move(moved: &Moved, ours: &Ours) -> Retry {
    let decide = |because: String| Retry::Decide { because };
    match moved {
        Moved::Unknown => decide("the target cannot say what changed".into()),
        Moved::Packages(packages) => match packages.iter().any(|p| p == ours.package) {
            true => decide(format!("package {} changed", ours.package)),
            false => Retry::Reapply,
        },
        Moved::Paths { root, paths } => match paths.iter().find(|p| touches(root, p, ours)) {
            Some(p) => decide(format!("{p} changed")),
            None => Retry::Reapply,
        },
    }
}

/// Whether a change of the repository path `path` may touch `ours` in the catalog folder
/// `root`.
fn touches(root: &str, path: &str, ours: &Ours) -> bool {
    let root = root.trim_matches('/');
    let rel = match root {
        "" | "." => path,
        _ if path == root => return true,
        _ => match path.strip_prefix(root).and_then(|r| r.strip_prefix('/')) {
            Some(rel) => rel,
            // Outside the catalog folder (a README, CI files): no package's.
            None => return false,
        },
    };
    if ours.files.iter().any(|f| f == rel) {
        return true;
    }
    if rel.split('/').any(|part| part.starts_with('.')) {
        return false; // hidden: the loader never reads it
    }
    match rel.split_once('/') {
        // A file of a package folder: ours only when it is our folder.
        Some((folder, _)) => folder == ours.package,
        // A catalog file at the catalog's root may hold any package's documents (and makes the
        // loader read every file); anything else there is not a catalog file.
        None => rel == ours.package || is_catalog_file(rel),
    }
}

/// The packages whose documents differ between the catalog files `old` and `new` (paths
/// relative to the catalog root, with their bytes; catalog files only, hidden ones left out, as
/// the loader reads them): every package with a document in a file that was added, removed or
/// changed. [`Moved::Unknown`] when such a file does not parse.
pub fn packages_moved(old: &[(String, Vec<u8>)], new: &[(String, Vec<u8>)]) -> Moved {
    let catalog = |p: &str| is_catalog_file(p) && !p.split('/').any(|x| x.starts_with('.'));
    let find = |files: &[(String, Vec<u8>)], p: &str| {
        files.iter().find(|(q, _)| q == p).map(|(_, b)| b.clone())
    };
    let paths: BTreeSet<&String> = old.iter().chain(new).map(|(p, _)| p).collect();
    let mut packages = BTreeSet::new();
    for path in paths.into_iter().filter(|p| catalog(p)) {
        let (before, after) = (find(old, path), find(new, path));
        if before == after {
            continue;
        }
        for bytes in [before, after].into_iter().flatten() {
            let mut c = super::Catalog::default();
            if parse::add_file(&mut c, path, &bytes).is_err() {
                return Moved::Unknown;
            }
            packages.extend(c.packages.into_iter().map(|p| p.name));
            packages.extend(c.channels.into_iter().map(|d| d.package));
            packages.extend(c.bundles.into_iter().map(|d| d.package));
            packages.extend(c.others.iter().map(|d| d.package().to_string()));
        }
    }
    packages.remove("");
    Moved::Packages(packages.into_iter().collect())
}

/// How long a job keeps trying to publish after a lost swap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Patience {
    /// No retry starts later than this after the first lost swap.
    pub deadline: Duration,
    /// At most this many retries (`None`: as many as the deadline allows).
    pub retries: Option<u32>,
}

/// The first pause, before retry 1; each retry doubles it.
pub const FIRST_PAUSE: Duration = Duration::from_millis(100);
/// The longest pause.
pub const MAX_PAUSE: Duration = Duration::from_secs(2);

/// The pause before retry number `retry` (1-based), `elapsed` after the first lost swap, with
/// `jitter` in [0, 1): a random point between none and all of [`FIRST_PAUSE`] × 2^(retry−1),
/// at most [`MAX_PAUSE`] ("full jitter": jobs that lost together spread over the whole
/// window, so fewer of them collide again). `None` when `patience` allows no such retry (the deadline would pass
/// during the pause, or the retries are spent).
pub fn pause(patience: &Patience, retry: u32, elapsed: Duration, jitter: f64) -> Option<Duration> {
    if patience.retries.is_some_and(|n| retry > n) {
        return None;
    }
    let full = FIRST_PAUSE
        .saturating_mul(1u32 << retry.saturating_sub(1).min(16))
        .min(MAX_PAUSE);
    let wait = full.mul_f64(jitter.clamp(0.0, 1.0));
    (elapsed + wait <= patience.deadline).then_some(wait)
}

#[cfg(test)]
mod tests;
