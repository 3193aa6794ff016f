//! `dir:` catalog targets: the folder itself, locked from the read to the write.
//!
//! The lock is an advisory lock on the folder (`flock`, as a `dir:` app registry's namespace
//! folder takes it), released by the system when the job ends or dies, so a killed job never
//! blocks the next one. A missing folder is created to be locked (it reads as an empty
//! catalog, as a missing one does) and removed again when the job leaves it empty, so a run
//! that writes nothing leaves nothing behind. A job that waited checks that the folder it
//! locked is still the one at the path (the holder may have removed it), and locks again if
//! not.

use std::fs::File;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::{Change, Published, Publishing, Snapshot, Store, TargetError, recorded};
use crate::error::Result;
use crate::report::Reporter;
use olm_release_http::events::{Gate, Write};
use olm_release_olm::fbc::{FileChange, disk};

/// A held lock on a catalog folder.
pub(super) struct Locked {
    _file: File,
    dir: PathBuf,
    /// This job created the folder.
    created: bool,
}

impl Drop for Locked {
    fn drop(&mut self) {
        // Still locked here: a folder this job created and left empty goes again.
        if self.created {
            let _ = std::fs::remove_dir(&self.dir);
        }
    }
}

/// A catalog folder, locked when the run writes.
struct Folder {
    dir: PathBuf,
    _lock: Option<Locked>,
}

impl Store for Folder {
    fn target(&self) -> String {
        self.dir.display().to_string()
    }

    fn diff(&self, files: &[FileChange]) -> String {
        disk::diff(files)
    }

    fn publish<'a>(
        &'a self,
        change: &'a Change<'a>,
        write: Write,
        gate: &'a dyn Gate,
    ) -> Publishing<'a> {
        Box::pin(async move {
            if !gate.allow(&write) {
                return Ok(Published::Skipped);
            }
            disk::apply(&self.dir, change.files)?;
            let done = Published::Written(format!("wrote {}", self.dir.display()));
            Ok(recorded(done, write, gate))
        })
    }
}

pub(crate) fn open(dir: &Path, writes: bool, report: &Reporter) -> Result<Snapshot> {
    // A link is never locked, read or written through.
    olm_release_olm::fbc::disk::check_folder(dir)?;
    let fresh = !dir.exists();
    let lock = if writes {
        let (lock, waited) = lock(dir).map_err(|source| TargetError::Lock {
            dir: dir.to_path_buf(),
            source,
        })?;
        if waited {
            report.info(&format!(
                "waited for another job publishing to the catalog {}",
                dir.display()
            ));
        }
        Some(lock)
    } else {
        None
    };
    Ok(Snapshot {
        dir: dir.to_path_buf(),
        shown: dir.display().to_string(),
        fresh,
        store: Box::new(Folder {
            dir: dir.to_path_buf(),
            _lock: lock,
        }),
    })
}

/// Locks the folder `dir` (created if missing); whether another job held it first.
fn lock(dir: &Path) -> std::io::Result<(Locked, bool)> {
    let mut waited = false;
    loop {
        let created = match std::fs::create_dir(dir) {
            Ok(()) => true,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => false,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir_all(dir)?;
                true
            }
            Err(e) => return Err(e),
        };
        let file = File::open(dir)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                waited = true;
                file.lock()?;
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(e),
        }
        // The folder at the path is still the one locked (its holder did not remove it).
        let same = std::fs::metadata(dir).is_ok_and(|m| {
            file.metadata()
                .is_ok_and(|f| f.ino() == m.ino() && f.dev() == m.dev())
        });
        if same {
            let lock = Locked {
                _file: file,
                dir: dir.to_path_buf(),
                created,
            };
            return Ok((lock, waited));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_created_for_the_lock_and_left_empty_is_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("a/catalog");
        let (held, waited) = lock(&dir).unwrap();
        assert!(!waited && dir.is_dir());
        drop(held);
        assert!(!dir.exists());
        let (held, _) = lock(&dir).unwrap();
        std::fs::write(dir.join("x.yaml"), "a: 1\n").unwrap();
        drop(held);
        assert!(
            dir.join("x.yaml").is_file(),
            "a folder holding a file is kept"
        );
    }

    #[test]
    fn a_second_job_waits_and_locks_the_folder_at_the_path() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("catalog");
        let (first, _) = lock(&dir).unwrap();
        let path = dir.clone();
        let waiter = std::thread::spawn(move || {
            let (held, waited) = lock(&path).unwrap();
            let ok = path.is_dir();
            drop(held);
            (waited, ok)
        });
        std::thread::sleep(std::time::Duration::from_millis(100));
        // The first job created the folder and leaves it empty: it is removed on release, and
        // the waiter locks the folder it creates again.
        drop(first);
        let (waited, ok) = waiter.join().unwrap();
        assert!(waited && ok);
    }
}
