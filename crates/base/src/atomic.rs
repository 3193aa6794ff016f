//! Writing a file so that a reader sees the old bytes or the new ones, never a part: write a
//! temporary file beside it, sync it, rename it into place. Used by the `dir:` registry and the
//! `dir:` release target, the `oci:` layout and the catalog folder, which other processes (CI
//! jobs, people) may read at any moment; the bundle folder writer stages a whole folder under
//! a name from [`temp_beside`] and renames it.
//!
//! A process killed between the write and the rename leaves its temporary file or folder
//! (`.NAME.tmp-PID`, hidden). Every write first removes such entries in its folder whose
//! process is gone ([`remove_stale_temps`]), so an interrupted run leaves nothing a later run
//! does not clean. A live process's temporary entry is never touched: it may be renamed any
//! moment.

use std::fs;
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically, creating its folder; the temporary file is removed
/// when anything fails.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |out| out.write_all(bytes))
}

/// As [`write_atomic`], with the bytes written by `fill` into the temporary file as they are
/// produced (buffered), so a large file is never held whole in memory first.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let parent = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(parent)?;
    remove_stale_temps(parent);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = temp_beside(&parent.join(name));
    let result = (|| {
        let mut out = std::io::BufWriter::new(fs::File::create(&tmp)?);
        fill(&mut out)?;
        let f = out
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// This process's temporary name for `path`: `.NAME.tmp-PID` beside it, which
/// [`remove_stale_temps`] recognises once the process is gone.
pub fn temp_beside(path: &Path) -> std::path::PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.tmp-{}", std::process::id()))
}

/// Removes the temporary files and folders of dead processes in `dir` (`.NAME.tmp-PID` whose
/// PID no longer runs); returns how many. Best effort: an entry that cannot be removed is left.
/// A symbolic link is removed itself, never followed.
pub fn remove_stale_temps(dir: &Path) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = name.to_str().and_then(temp_pid) else {
            continue;
        };
        if pid == std::process::id() || alive(pid, &e.path()) {
            continue;
        }
        let folder = e.file_type().is_ok_and(|t| t.is_dir());
        let gone = if folder {
            fs::remove_dir_all(e.path())
        } else {
            fs::remove_file(e.path())
        };
        if gone.is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The PID of a temporary file's name `.NAME.tmp-PID`.
fn temp_pid(name: &str) -> Option<u32> {
    let (head, pid) = name.rsplit_once(".tmp-")?;
    if !name.starts_with('.') || head.len() < 2 || pid.is_empty() {
        return None;
    }
    pid.parse().ok()
}

/// Whether process `pid` may still be writing `path`. Where `/proc` lists processes (Linux),
/// by its entry; elsewhere a temporary file younger than a day is taken as alive.
fn alive(pid: u32, path: &Path) -> bool {
    let proc = Path::new("/proc");
    if proc.join("self").exists() {
        return proc.join(pid.to_string()).exists();
    }
    fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_none_or(|age| age < std::time::Duration::from_secs(24 * 3600))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_removes_the_temporary_files_of_dead_processes_only() {
        let dir = tempfile::tempdir().unwrap();
        // PIDs above the kernel's maximum (2^22) never run.
        let dead = dir.path().join(".index.json.tmp-4999999");
        let mine = dir
            .path()
            .join(format!(".other.tmp-{}", std::process::id()));
        let keep = dir.path().join("notes.tmp-1");
        let dead_folder = dir.path().join(".bundle.tmp-4999998");
        fs::create_dir_all(dead_folder.join("manifests")).unwrap();
        fs::write(dead_folder.join("manifests/csv.yaml"), "partial").unwrap();
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        let live = dir.path().join(format!(".blob.tmp-{}", child.id()));
        for p in [&dead, &mine, &keep, &live] {
            fs::write(p, "partial").unwrap();
        }
        write_atomic(&dir.path().join("index.json"), b"{}").unwrap();
        let _ = child.kill();
        let _ = child.wait();
        assert!(!dead.exists(), "a dead process's temporary file is left");
        assert!(
            !dead_folder.exists(),
            "a dead process's temporary folder is left"
        );
        assert!(mine.exists() && keep.exists() && live.exists());
        assert_eq!(fs::read(dir.path().join("index.json")).unwrap(), b"{}");
        assert_eq!(temp_pid(".a.tmp-12"), Some(12));
        assert_eq!(temp_pid("a.tmp-12"), None);
        assert_eq!(temp_pid(".b.old.tmp-12"), Some(12));
        let mine = temp_beside(Path::new("/x/index.json"));
        assert_eq!(
            temp_pid(&mine.file_name().unwrap().to_string_lossy()),
            Some(std::process::id())
        );
        assert_eq!(temp_pid(".a.tmp-x"), None);
    }
}
