//! Gunzip and untar an untrusted blob as one stream, under [`Limits`].
//!
//! Nothing is decompressed ahead of the tar reader: bytes flow from the gzip decoder through a
//! counting, hashing reader straight into the tar parser, and each regular file is copied out
//! as it passes. The reader refuses the stream the moment it passes the size limit or the
//! compression ratio, so a gzip bomb costs the few MiB decoded before the refusal, never the
//! limit itself; a tar header claiming more than the limit is refused before its content is
//! read. The registry's digest (sha256 of the whole uncompressed tar, padding included) is
//! computed on the way, and the stream is read to its end so the gzip checksum is verified.

use std::cell::Cell;
use std::io::{self, Read};
use std::rc::Rc;

use flate2::read::GzDecoder;
use sha2::{Digest, Sha256};

use super::error::ReadError;
use super::model::{Files, Limits};

/// Gunzips and reads an untrusted blob into its regular files, enforcing `limits`.
/// Returns (path, content) pairs, and the sha256 of the uncompressed tar.
pub fn unpack(gz: &[u8], limits: Limits) -> Result<(Files, String), ReadError> {
    unpack_as("the blob", gz, &limits)
}

/// [`unpack`], naming the blob `what` in errors (a file name, "the blob").
pub fn unpack_as(what: &str, gz: &[u8], limits: &Limits) -> Result<(Files, String), ReadError> {
    let mut files = Vec::new();
    let digest = walk(what, gz, limits, |path, content, size| {
        let mut out = Vec::with_capacity(size as usize);
        content.read_to_end(&mut out)?;
        files.push((path, out));
        Ok(())
    })?;
    Ok((files, digest.0))
}

/// What [`inspect`] learns of a tarball without keeping its files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inspected {
    /// sha256 (hex) of the uncompressed tar.
    pub digest: String,
    /// Regular files in the archive.
    pub files: usize,
    /// Size of the uncompressed tar in bytes.
    pub(crate) tar_size: u64,
}

/// Checks a blob as [`unpack`] does (gzip, tar, entry paths and types, limits) and computes its
/// digest, holding no file content: for storing a blob, where only its validity and digest
/// matter.
pub fn inspect(gz: &[u8], limits: &Limits) -> Result<Inspected, ReadError> {
    let mut files = 0;
    let (digest, tar_size) = walk("the blob", gz, limits, |_, _, _| {
        files += 1;
        Ok(())
    })?;
    Ok(Inspected {
        digest,
        files,
        tar_size,
    })
}

/// The sha256 of the tar inside `gz`, streamed (the tar is never held in memory), under the
/// same size limits as [`unpack`].
pub fn tar_digest(gz: &[u8], limits: Limits) -> Result<String, ReadError> {
    let what = "the blob";
    let mut stream = Stream::new(what, gz, &limits)?;
    let copied = io::copy(&mut stream, &mut io::sink());
    let (digest, _) = stream.finish(copied.map(|_| ()), what)?;
    Ok(digest)
}

/// Streams the tar inside `gz`, handing each regular file to `keep` as (path, content reader,
/// size from its header). Returns the tar's digest and size.
fn walk(
    what: &str,
    gz: &[u8],
    limits: &Limits,
    mut keep: impl FnMut(String, &mut dyn Read, u64) -> io::Result<()>,
) -> Result<(String, u64), ReadError> {
    let stream = Stream::new(what, gz, limits)?;
    let mut archive = tar::Archive::new(stream);
    let mut claimed = 0u64;
    let walked = (|| -> Result<(), Walk> {
        let entries = archive.entries()?;
        for (count, entry) in entries.enumerate() {
            let mut entry = entry?;
            if count >= limits.max_entries {
                return Err(Walk::Refused(ReadError::TooManyEntries {
                    what: what.to_string(),
                    limit: limits.max_entries,
                }));
            }
            let path = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
            let unsafe_entry = |reason: String| {
                Walk::Refused(ReadError::UnsafeEntry {
                    what: what.to_string(),
                    entry: path.clone(),
                    reason,
                })
            };
            if let Some(reason) = entry_path_problem(&path) {
                return Err(unsafe_entry(reason.to_string()));
            }
            match entry.header().entry_type() {
                tar::EntryType::Regular | tar::EntryType::Continuous => {
                    let size = entry.size();
                    claimed = claimed.saturating_add(size);
                    if claimed > limits.max_bytes {
                        return Err(Walk::Refused(ReadError::TooLarge {
                            what: what.to_string(),
                            limit: limits.max_bytes,
                        }));
                    }
                    keep(path, &mut entry, size)?;
                }
                tar::EntryType::Directory => {}
                // pax/GNU metadata records that the tar crate folds into the next entry.
                tar::EntryType::XHeader
                | tar::EntryType::XGlobalHeader
                | tar::EntryType::GNULongName => {}
                other => {
                    return Err(unsafe_entry(format!(
                        "refusing a {other:?} entry (only files and folders are allowed)"
                    )));
                }
            }
        }
        Ok(())
    })();
    let mut stream = archive.into_inner();
    let result = match walked {
        Err(Walk::Refused(e)) => return Err(e),
        Err(Walk::Io(e)) => Err(e),
        // The end-of-archive blocks and the record padding belong to the digest too.
        Ok(()) => io::copy(&mut stream, &mut io::sink()).map(|_| ()),
    };
    stream.finish(result, what)
}

enum Walk {
    Refused(ReadError),
    Io(io::Error),
}

impl From<io::Error> for Walk {
    fn from(e: io::Error) -> Self {
        Walk::Io(e)
    }
}

/// Why the stream stopped, kept aside because the tar reader only passes `io::Error`s on.
enum Fault {
    Gzip(io::Error),
    TooLarge,
    Ratio { expanded: u64, compressed: u64 },
}

/// The uncompressed bytes of a gzip blob, hashed, counted and cut off at the limits.
struct Stream<'a> {
    gz: GzDecoder<Counted<'a>>,
    consumed: Rc<Cell<u64>>,
    hasher: Sha256,
    out: u64,
    max_bytes: u64,
    max_ratio: u64,
    fault: Option<Fault>,
}

impl<'a> Stream<'a> {
    fn new(what: &str, gz: &'a [u8], limits: &Limits) -> Result<Self, ReadError> {
        if !super::model::is_gzip(gz) {
            return Err(ReadError::NotGzip {
                what: what.to_string(),
                found: first_bytes(gz),
            });
        }
        let consumed = Rc::new(Cell::new(0));
        Ok(Stream {
            gz: GzDecoder::new(Counted {
                rest: gz,
                consumed: consumed.clone(),
            }),
            consumed,
            hasher: Sha256::new(),
            out: 0,
            max_bytes: limits.max_bytes,
            max_ratio: limits.max_ratio,
            fault: None,
        })
    }

    /// Turns how the reading ended into the digest and size, or the error that stopped it.
    fn finish(self, result: io::Result<()>, what: &str) -> Result<(String, u64), ReadError> {
        let what = what.to_string();
        match (self.fault, result) {
            (Some(Fault::TooLarge), _) => Err(ReadError::TooLarge {
                what,
                limit: self.max_bytes,
            }),
            (
                Some(Fault::Ratio {
                    expanded,
                    compressed,
                }),
                _,
            ) => Err(ReadError::Ratio {
                what,
                ratio: self.max_ratio,
                expanded,
                compressed,
            }),
            (Some(Fault::Gzip(source)), _) => Err(ReadError::CorruptGzip { what, source }),
            (None, Err(source)) => Err(ReadError::CorruptTar { what, source }),
            (None, Ok(())) => Ok((hex::encode(self.hasher.finalize()), self.out)),
        }
    }
}

impl Read for Stream<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.fault.is_some() {
            return Err(io::Error::other("the stream was refused"));
        }
        let n = match self.gz.read(buf) {
            Ok(n) => n,
            Err(e) => {
                self.fault = Some(Fault::Gzip(e));
                return Err(io::Error::other("corrupt gzip data"));
            }
        };
        self.out += n as u64;
        let compressed = self.consumed.get().max(1);
        if self.out > self.max_bytes {
            self.fault = Some(Fault::TooLarge);
        } else if self.out > Limits::RATIO_GRACE
            && self.out / compressed >= self.max_ratio.saturating_add(1)
        {
            self.fault = Some(Fault::Ratio {
                expanded: self.out,
                compressed,
            });
        }
        if self.fault.is_some() {
            return Err(io::Error::other("the stream was refused"));
        }
        self.hasher.update(&buf[..n]);
        Ok(n)
    }
}

/// A byte slice that counts what the gzip decoder has taken from it.
struct Counted<'a> {
    rest: &'a [u8],
    consumed: Rc<Cell<u64>>,
}

impl Read for Counted<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.rest.read(buf)?;
        self.consumed.set(self.consumed.get() + n as u64);
        Ok(n)
    }
}

/// Why an entry path is refused: absolute paths and `..` components.
fn entry_path_problem(path: &str) -> Option<&'static str> {
    let drive = path.len() > 1 && path.as_bytes()[1] == b':';
    if path.starts_with('/') || path.starts_with('\\') || drive {
        return Some("absolute paths are not allowed");
    }
    if path.split(['/', '\\']).any(|c| c == "..") {
        return Some("'..' is not allowed in an entry path");
    }
    None
}

/// The first bytes of a blob, for "it starts with …".
fn first_bytes(b: &[u8]) -> String {
    if b.is_empty() {
        return "nothing (it is empty)".into();
    }
    let hex: Vec<String> = b.iter().take(4).map(|x| format!("{x:02x}")).collect();
    let text = String::from_utf8_lossy(&b[..b.len().min(16)]);
    if text.chars().all(|c| !c.is_control() || c == '\n') {
        format!("{} (\"{}\")", hex.join(" "), text.escape_debug())
    } else {
        hex.join(" ")
    }
}
