//! Opening the files a user names (a bundle, the pipeline file, templates, includes, icons)
//! without trusting what the path points at.
//!
//! `std::fs::read` on `/dev/zero` reads forever, on a FIFO it blocks until a writer appears, and
//! on a regular file it allocates whatever the file holds. Every input therefore goes through
//! [`read`]: the path must be a regular file (after following symlinks), checked with `stat`
//! before it is opened (so a FIFO is never opened) and again on the open handle (so a path
//! swapped in between is caught), and at most `max` bytes are read. Errors are plain
//! `io::Error`s, so callers keep naming the path as they always did; refusals read as
//! "is a FIFO, not a regular file" and "is larger than the limit of N bytes".

use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;

/// The limit on one input file that is not a bundle (the pipeline file, a template, an include,
/// an icon): 64 MiB, far above any real one.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Reads the regular file at `path`, refusing devices, FIFOs, sockets and files larger than
/// `max` bytes before reading them.
pub fn read(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    regular(&std::fs::metadata(path)?)?;
    let file = File::open(path)?;
    let meta = file.metadata()?;
    regular(&meta)?;
    if meta.len() > max {
        return Err(too_large(max));
    }
    // The size from stat is a hint (the file may grow while read); `take` is the bound.
    let mut out = Vec::with_capacity(meta.len() as usize);
    file.take(max.saturating_add(1)).read_to_end(&mut out)?;
    if out.len() as u64 > max {
        return Err(too_large(max));
    }
    Ok(out)
}

/// [`read`] for UTF-8 text.
pub fn read_to_string(path: &Path, max: u64) -> io::Result<String> {
    String::from_utf8(read(path, max)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "is not UTF-8 text"))
}

/// Refuses anything but a regular file (folders are the caller's business).
pub fn regular(meta: &Metadata) -> io::Result<()> {
    if meta.is_file() {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "is {}, not a regular file; olm-release reads only files and folders",
            kind(meta)
        ),
    ))
}

/// What a non-regular file is, for messages.
pub(crate) fn kind(meta: &Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a folder"
    } else if meta.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

fn too_large(max: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("is larger than the limit of {max} bytes"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_are_read_up_to_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"12345").unwrap();
        assert_eq!(read(&path, 5).unwrap(), b"12345");
        let err = read(&path, 4).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(err.to_string(), "is larger than the limit of 4 bytes");
        let err = read(dir.path(), 4).unwrap_err();
        assert!(err.to_string().starts_with("is a folder"), "{err}");
        assert_eq!(
            read(&dir.path().join("missing"), 4).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_refused_before_reading() {
        let err = read(Path::new("/dev/zero"), u64::MAX).unwrap_err();
        assert_eq!(
            err.to_string(),
            "is a character device, not a regular file; olm-release reads only files and folders"
        );
    }
}
