//! Exclusive locks on files and folders (`flock`), held until the returned handle is dropped.
//! They order the jobs that share a `dir:` registry, an `oci:` layout or a catalog folder:
//! a lock dies with its process, so a killed job never leaves one behind.

use std::fs;
use std::io;
use std::path::Path;

/// Takes an exclusive lock on the file `path` (created when missing, never truncated),
/// waiting for a holder to let go.
pub fn lock_file(path: &Path) -> io::Result<fs::File> {
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)?;
    file.lock()?;
    Ok(file)
}

/// A held lock on a folder.
#[derive(Debug)]
pub struct FolderLock {
    _file: fs::File,
    /// Whether another process held it first (this one waited).
    pub waited: bool,
}

/// Takes an exclusive lock on the folder `path` (which must exist), waiting for a holder to
/// let go; says whether it had to wait.
pub fn lock_folder(path: &Path) -> io::Result<FolderLock> {
    let file = fs::File::open(path)?;
    let waited = match file.try_lock() {
        Ok(()) => false,
        Err(fs::TryLockError::WouldBlock) => {
            file.lock()?;
            true
        }
        Err(fs::TryLockError::Error(e)) => return Err(e),
    };
    Ok(FolderLock {
        _file: file,
        waited,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_waits_for_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let first = lock_folder(dir.path()).unwrap();
        assert!(!first.waited);
        let path = dir.path().to_path_buf();
        let waiter = std::thread::spawn(move || lock_folder(&path).unwrap().waited);
        std::thread::sleep(std::time::Duration::from_millis(100));
        drop(first);
        assert!(waiter.join().unwrap(), "the second holder did not wait");
        let f = lock_file(&dir.path().join("lock")).unwrap();
        drop(f);
        assert!(dir.path().join("lock").is_file());
    }
}
