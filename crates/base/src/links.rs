//! Paths under a root that no symbolic link leads through: the folders and files a run writes in
//! a store someone else filled (a git checkout of a shared branch, a `dir:` catalog, an OCI
//! layout) are reached component by component with `lstat`, and a link anywhere on the way (the
//! root itself included) is refused before anything is read through it or written beside it.
//!
//! A link in such a store is content, not an instruction: followed, `catalog/PKG -> /elsewhere`
//! sends the write of a new entry outside the store, and `catalog/PKG/catalog.yaml ->
//! /etc/passwd` reads a file of the machine into what is committed. So a link is never
//! followed, whether it leads outside the root, inside it, nowhere or around in a loop; the
//! refusal ([`Refused::Link`]) names the link and what it points to, read once (`readlink`),
//! so a loop's message stays one short line.

use std::fmt;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Why a path under a root cannot be used.
#[derive(Debug)]
pub enum Refused {
    /// A component of the path is a symbolic link.
    Link {
        /// The link.
        path: PathBuf,
        /// What it points to, as stored in the link.
        to: PathBuf,
        /// Where that leads, as a phrase (`outside /srv/catalog`, `a loop of links`).
        leads: String,
    },
    /// The path cannot be checked (`lstat` failed for another reason than a missing entry), or
    /// it climbs out of the root (`..`, an absolute path).
    Io {
        /// The path checked.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::Link { path, to, leads } => write!(
                f,
                "{} is a symbolic link to {} ({leads}); links here are never followed: replace it by the folder or file itself",
                path.display(),
                to.display()
            ),
            Refused::Io { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for Refused {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Refused::Io { source, .. } => Some(source),
            Refused::Link { .. } => None,
        }
    }
}

/// `root/rel`, after checking that neither `root` itself nor any existing component of `rel`
/// under it is a symbolic link. Components that do not exist yet end the check (a write
/// creates them as real folders). `rel` must be relative and stay under `root` (no `..`).
pub fn join(root: &Path, rel: impl AsRef<Path>) -> Result<PathBuf, Refused> {
    let rel = rel.as_ref();
    if !no_link(root, root)? {
        return Ok(root.join(rel));
    }
    let mut at = root.to_path_buf();
    let mut exists = true;
    for part in rel.components() {
        match part {
            Component::Normal(name) => at.push(name),
            Component::CurDir => continue,
            _ => {
                return Err(Refused::Io {
                    path: root.join(rel),
                    source: io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!("leaves {} (an absolute path or `..`)", root.display()),
                    ),
                });
            }
        }
        if exists {
            exists = no_link(root, &at)?;
        }
    }
    Ok(at)
}

/// Checks that `path` is not a symbolic link; whether it exists. `root` is where the link
/// must not lead out of, for the message.
pub fn no_link(root: &Path, path: &Path) -> Result<bool, Refused> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(refused(root, path)),
        Ok(_) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(source) => Err(Refused::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Checks a path given on the command line or in a pipeline (`dir:catalog`, `oci:out/layout`):
/// a relative one component by component from the working folder (`..` passes: it is never a
/// link itself, and the component before it was checked); an absolute one only at its last
/// component (the folders above it are the machine's own layout, not a store's content).
pub fn no_link_in(path: &Path) -> Result<(), Refused> {
    if path.is_absolute() {
        return no_link(path, path).map(|_| ());
    }
    let mut at = PathBuf::new();
    for part in path.components() {
        at.push(part);
        if matches!(part, Component::Normal(_)) && !no_link(&at, &at)? {
            break;
        }
    }
    Ok(())
}

/// The refusal for the link at `path` (known to be one, e.g. from a folder listing): what it
/// points to and where that leads from `root`.
pub fn refused(root: &Path, path: &Path) -> Refused {
    let to = std::fs::read_link(path).unwrap_or_default();
    let leads = match std::fs::canonicalize(path) {
        Err(e) if is_loop(&e) => "a loop of links".to_string(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => "which does not exist".to_string(),
        Err(e) => format!("which cannot be resolved: {e}"),
        Ok(_) if path == root => "the folder itself is a link".to_string(),
        Ok(real) if std::fs::canonicalize(root).is_ok_and(|r| real.starts_with(r)) => {
            format!("inside {}", root.display())
        }
        Ok(_) => format!("outside {}", root.display()),
    };
    Refused::Link {
        path: path.to_path_buf(),
        to,
        leads,
    }
}

/// Whether `e` is "too many levels of symbolic links" (`ELOOP`).
fn is_loop(e: &io::Error) -> bool {
    // ELOOP: 40 on Linux, 62 on macOS and the BSDs.
    let eloop = if cfg!(target_os = "linux") { 40 } else { 62 };
    e.raw_os_error() == Some(eloop)
}

#[cfg(test)]
mod tests;
