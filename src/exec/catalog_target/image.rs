//! Catalog-image targets: the tag's catalog read into a scratch folder (under the output
//! folder), and a new image built on the base and published with a compare-and-swap on the
//! tag ([`olm_release_oci::catalog_image`]).
//!
//! After a tag another job moved on within the settle time, the image that now holds the tag
//! is read and parsed: when its catalog holds this release ([`fbc::holds`]), there is nothing
//! to decide again; otherwise that image's catalog says which packages moved
//! ([`packages_moved`]), so a move of other packages only is applied again without a new
//! decision.

use std::path::{Path, PathBuf};

use super::{Change, Published, Publishing, Snapshot, recorded};
use crate::error::{Error, Result};
use crate::report::Reporter;
use crate::settings::ImageTarget;
use olm_release_http::events::{Gate, Write};
use olm_release_oci::catalog_image::{self as ci, Swapped};
use olm_release_oci::{Event, OciError, Store};
use olm_release_olm::fbc::swap::{Moved, packages_moved};
use olm_release_olm::fbc::{self, AddBundle, FileChange};

/// How long after moving the tag it is read again (see [`ci::publish`]): far longer than one
/// job's read and `PUT` of the tag, which are two requests.
const SETTLE: std::time::Duration = std::time::Duration::from_secs(1);

/// The tag as read.
struct Tag {
    job: ImageTarget,
    /// How the tag reads in messages.
    shown: String,
    /// The scratch folder the catalog was read into.
    dir: PathBuf,
    /// The digest the tag named (`None`: no tag yet).
    expected: Option<String>,
    /// The catalog files read, relative to `/configs`.
    files: Vec<String>,
    /// The same files with their bytes, to tell which packages another job's image changed.
    read: Vec<(String, Vec<u8>)>,
}

fn short(digest: &str) -> &str {
    &digest[..digest.len().min(19)]
}

fn open_store(job: &crate::plan::ImageJob, report: &Reporter) -> Result<Store> {
    let events = |e: Event| crate::exec::bundle_image::event(report, e);
    Ok(Store::open(&job.target, job.options(), &events)?)
}

pub(crate) async fn open(job: &ImageTarget, report: &Reporter) -> Result<Snapshot> {
    let store = open_store(&job.image, report)?;
    let events = |e: Event| crate::exec::bundle_image::event(report, e);
    let head = ci::read_head(&store, &job.tag, &events).await?;
    let dir = job.scratch.join("configs");
    reset(&job.scratch)?;
    std::fs::create_dir_all(&dir).map_err(|e| io(&dir, e))?;
    let mut files = Vec::new();
    if let Some(h) = &head {
        for (path, content) in &h.files {
            let to = dir.join(path);
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
            }
            std::fs::write(&to, content).map_err(|e| io(&to, e))?;
            files.push(path.clone());
        }
    }
    let at = head
        .as_ref()
        .map(|h| short(&h.digest).to_string())
        .unwrap_or_else(|| "(no tag yet)".into());
    report.detail(&format!(
        "read the catalog of {} at {at} ({} file(s)) into {}",
        job.describe(),
        files.len(),
        dir.display()
    ));
    let shown = format!("{} at {at}", job.describe());
    Ok(Snapshot {
        shown: shown.clone(),
        fresh: head.is_none(),
        dir: dir.clone(),
        store: Box::new(Tag {
            job: job.clone(),
            shown,
            dir,
            read: head.as_ref().map(|h| h.files.clone()).unwrap_or_default(),
            expected: head.map(|h| h.digest),
            files,
        }),
    })
}

fn reset(scratch: &Path) -> Result<()> {
    match std::fs::remove_dir_all(scratch) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io(scratch, e)),
    }
}

fn io(path: &Path, e: std::io::Error) -> Error {
    OciError::Io {
        path: path.to_path_buf(),
        source: e,
    }
    .into()
}

impl super::Store for Tag {
    fn target(&self) -> String {
        self.shown.clone()
    }

    fn diff(&self, files: &[FileChange]) -> String {
        diff(self, files)
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
            Ok(recorded(self.swap(change).await?, write, gate))
        })
    }
}

/// The catalog diff, then the new layer's listing and the config lines.
fn diff(o: &Tag, changes: &[FileChange]) -> String {
    let mut files: Vec<String> = o.files.clone();
    for c in changes {
        files.retain(|f| f != &c.path);
        if c.new.is_some() {
            files.push(c.path.clone());
        }
    }
    files.sort();
    let mut out = olm_release_olm::fbc::disk::diff(changes);
    if !out.ends_with('\n') && !out.is_empty() {
        out.push('\n');
    }
    out.push_str(&format!("new layer ({} file(s)):\n", files.len()));
    for f in &files {
        out.push_str(&format!("  {}\n", ci::catalog_path_of(f)));
    }
    out.push_str("config (the base's, plus):\n");
    for l in ci::config_lines() {
        out.push_str(&format!("  {l}\n"));
    }
    out
}

/// Every file under `dir`, relative to it, with `/`, sorted.
fn walk(dir: &Path) -> Result<Vec<(String, Vec<u8>)>> {
    let mut out = Vec::new();
    let mut todo: Vec<PathBuf> = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).map_err(|e| io(&d, e))? {
            let entry = entry.map_err(|e| io(&d, e))?;
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let rel = path
                    .strip_prefix(dir)
                    .map_err(|_| Error::internal("a catalog file outside its folder"))?
                    .to_string_lossy()
                    .replace('\\', "/");
                let bytes = std::fs::read(&path).map_err(|e| io(&path, e))?;
                out.push((rel, bytes));
            }
        }
    }
    out.sort();
    Ok(out)
}

impl Tag {
    /// Writes the change into the scratch catalog, builds the image of the whole catalog on
    /// the base, pushes it and moves the tag if it still names the digest read.
    async fn swap(&self, change: &Change<'_>) -> Result<Published> {
        let (o, job) = (self, &self.job);
        olm_release_olm::fbc::disk::apply(&self.dir, change.files)?;
        let files = &walk(&self.dir)?;
        // The target's warnings were given when it was read; retries here go unreported.
        let quiet = |_: Event| {};
        let store = Store::open(&job.image.target, job.image.options(), &quiet)?;
        let base_store = Store::open(&job.base, job.base_job().options(), &quiet)?;
        let base =
            ci::read_base_within(&base_store, &job.base_digest, &job.base_limits, &quiet).await?;
        let image = ci::build(&base, files, job.epoch)?;
        let swapped = ci::publish(
            &store,
            &base_store,
            &image,
            &job.tag,
            o.expected.as_deref(),
            SETTLE,
            &quiet,
        )
        .await?;
        // Overwritten: the image that replaced this one may hold this release's entry (its
        // job read the tag after this one moved it); then there is nothing to decide again.
        // Either way the image now under the tag says which packages moved.
        let head = match &swapped {
            Swapped::Overwritten { now: Some(_) } | Swapped::Moved { now: Some(_) } => {
                ci::read_head(&store, &job.tag, &quiet).await?
            }
            _ => None,
        };
        let kept = match &swapped {
            Swapped::Overwritten { now: Some(now) } => head
                .as_ref()
                .filter(|h| &h.digest == now)
                .is_some_and(|h| holds(&h.files, change.release)),
            _ => false,
        };
        let moved = head.map_or(Moved::Unknown, |h| packages_moved(&o.read, &h.files));
        Ok(published(o, &image, swapped, kept, moved))
    }
}

/// What the swap did, in the words of a catalog store.
fn published(
    o: &Tag,
    image: &ci::CatalogImage,
    swapped: Swapped,
    kept: bool,
    moved: Moved,
) -> Published {
    let job = &o.job;
    let pinned = format!("{}@{}", job.image.target.describe(), image.digest());
    match swapped {
        Swapped::Unchanged => {
            Published::Written(format!("{} already names {pinned}", job.describe()))
        }
        Swapped::Tagged { uploaded, mounted } => Published::Written(format!(
            "pushed {pinned} ({} blob(s) uploaded, {} base layer(s) mounted) and moved the tag {} from {}",
            uploaded.len(),
            mounted.len(),
            job.tag,
            o.expected.as_deref().unwrap_or("nothing")
        )),
        Swapped::Overwritten { now } if kept => Published::Written(format!(
            "pushed {pinned} and moved the tag {}; another job moved it on to {}, which holds this release's entry",
            job.tag,
            now.as_deref().unwrap_or("nothing")
        )),
        Swapped::Overwritten { now } => Published::Moved {
            moved,
            reason: format!(
                "the tag {} named {pinned}, then {} within {} s (another job read the tag before this one moved it)",
                job.describe(),
                now.as_deref().unwrap_or("nothing"),
                SETTLE.as_secs_f64()
            ),
        },
        Swapped::Moved { now } => Published::Moved {
            moved,
            reason: format!(
                "the tag {} names {}, not {} read before; {pinned} is pushed but not tagged",
                job.describe(),
                now.as_deref().unwrap_or("nothing"),
                o.expected
                    .as_deref()
                    .unwrap_or("nothing (it was created meanwhile)")
            ),
        },
    }
}

/// Whether the catalog `files` (of the image that holds the tag now) holds `release`, read as
/// a catalog; a catalog that does not parse holds nothing.
fn holds(files: &[(String, Vec<u8>)], release: &AddBundle) -> bool {
    fbc::parse::catalog_of(files).is_ok_and(|c| fbc::holds(&c, release))
}
