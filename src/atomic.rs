//! Writing a file so that a reader sees the old bytes or the new ones, never a part: write a
//! temporary file beside it, sync it, rename it into place. Used by the `dir:` registry and the
//! `dir:` release target, which other processes (CI jobs, people) may read at any moment.

use std::fs;
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically, creating its folder; the temporary file is removed
/// when anything fails.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let parent = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(parent)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}
