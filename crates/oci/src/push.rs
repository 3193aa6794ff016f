//! Pushing a built image to a target, with the idempotency rule and the proof.
//!
//! - The tag already holds this image's manifest digest → nothing is written
//!   ([`PushOutcome::Unchanged`]); in an `oci:` layout only once the manifest and every blob it
//!   names are present, regular files and of the right digest ([`Store::verify`]), else the push
//!   fails naming the blob (with `force`, it writes the image again).
//! - It holds another digest → refused ([`OciError::Conflict`], both digests named) unless
//!   `force`, which overwrites it.
//! - Otherwise (or forced): the blobs the target lacks are uploaded (config, then layers),
//!   then the manifest as the exact bytes that were digested, under the tag.
//! - Proof: the manifest is read back by digest and compared byte for byte, and the tag is
//!   resolved again to that digest.
//!
//! [`check`] makes the same decision without writing, for `--dry-run`.

use super::{DistributionClient, Event, Events, ImageLocation, Layout, OciError};
use olm_release_http::HttpOptions;
use olm_release_http::retry::RetryPolicy;
use olm_release_olm::bundle_image::{Blob, OciImage};

/// How to reach a target: built from the default with the `with_*` methods, so the HTTP
/// settings stay the one policy of [`olm_release_http`].
#[derive(Debug, Clone, Default)]
pub struct StoreOptions {
    /// Allow plain http to a non-loopback registry (and token realm).
    pub(crate) insecure: bool,
    pub(crate) credentials: Option<super::Credentials>,
    pub(crate) http: HttpOptions,
    pub(crate) retry: RetryPolicy,
}

impl StoreOptions {
    /// Allows plain http to a registry (and token realm) that is not on loopback.
    pub fn with_insecure(mut self, insecure: bool) -> Self {
        self.insecure = insecure;
        self
    }

    /// The credentials offered to the registry (Basic, or for a Bearer token).
    pub fn with_credentials(mut self, credentials: Option<super::Credentials>) -> Self {
        self.credentials = credentials;
        self
    }

    /// How requests are retried.
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }
}

/// An opened target.
#[derive(Debug)]
pub enum Store {
    /// A repository in a registry, reached through its distribution API client.
    Remote(Box<DistributionClient>),
    /// An OCI image layout folder (`oci:PATH`).
    Layout(Layout),
}

/// One push.
#[derive(Debug, Clone, Copy)]
pub struct PushRequest<'a> {
    /// The built image: its manifest, config and layers.
    pub image: &'a OciImage,
    /// The tag to push it under (checked against the distribution spec's tag grammar).
    pub tag: &'a str,
    /// Overwrite a tag that holds another digest.
    pub force: bool,
}

/// What a push would do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// The tag does not exist: push.
    New,
    /// The tag already holds this digest: nothing to do.
    Unchanged,
    /// The tag holds `existing` and `force` was given: overwrite.
    Overwrite {
        /// The manifest digest the tag holds now.
        existing: String,
    },
}

/// What a push did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PushOutcome {
    /// The tag already held this digest; nothing was written.
    Unchanged {
        /// The image's manifest digest.
        digest: String,
    },
    /// The image was pushed and read back.
    Pushed {
        /// The image's manifest digest, which the tag now holds.
        digest: String,
        /// The digest the tag held before, when `force` overwrote it.
        replaced: Option<String>,
        /// Blobs uploaded (the others were already there).
        uploaded: Vec<String>,
    },
}

impl Store {
    /// Opens a target: a layout folder as is, a registry through a client (which refuses
    /// plain http to a non-loopback host unless `insecure`, and warns through `events` when
    /// `insecure` lets it through).
    pub fn open(
        target: &ImageLocation,
        opts: StoreOptions,
        events: &dyn Events,
    ) -> Result<Store, OciError> {
        Ok(match target {
            ImageLocation::Layout(path) => Store::Layout(Layout::new(path)),
            ImageLocation::Remote(r) => Store::Remote(Box::new(DistributionClient::new(
                r.clone(),
                opts.credentials,
                opts.insecure,
                opts.http,
                opts.retry,
                events,
            )?)),
        })
    }

    /// `oci:PATH` or `HOST[:PORT]/REPOSITORY`.
    pub fn describe(&self) -> String {
        match self {
            Store::Remote(c) => c.describe(),
            Store::Layout(l) => format!("oci:{}", l.root().display()),
        }
    }

    /// The manifest digest at `tag`, if any.
    pub async fn resolve(
        &self,
        tag: &str,
        events: &dyn Events,
    ) -> Result<Option<String>, OciError> {
        match self {
            Store::Remote(c) => c.manifest_digest(tag, events).await,
            Store::Layout(l) => l.resolve(tag),
        }
    }

    /// Checks that the target holds the image `digest` intact before it is trusted: in a layout,
    /// the manifest and every blob it names present, regular files, of the right digest; a
    /// registry serves content by digest and is taken at its word.
    pub fn verify(&self, digest: &str) -> Result<(), OciError> {
        match self {
            Store::Remote(_) => Ok(()),
            Store::Layout(l) => l.verify(digest),
        }
    }

    /// The manifest bytes stored under `digest`, if any.
    pub(crate) async fn manifest_bytes(
        &self,
        digest: &str,
        events: &dyn Events,
    ) -> Result<Option<Vec<u8>>, OciError> {
        match self {
            Store::Remote(c) => Ok(c
                .get_manifest(digest, events)
                .await?
                .map(|m| m.bytes.to_vec())),
            Store::Layout(l) => l.get_blob(digest),
        }
    }

    /// Uploads `blob` unless present; whether it was uploaded.
    pub(crate) async fn put_blob(
        &self,
        blob: &Blob,
        events: &dyn Events,
    ) -> Result<bool, OciError> {
        let present = match self {
            Store::Remote(c) => c.has_blob(&blob.digest, events).await?,
            Store::Layout(l) => l.has_blob(&blob.digest)?,
        };
        if present {
            events.event(Event::BlobPresent {
                digest: blob.digest.clone(),
            });
            return Ok(false);
        }
        match self {
            Store::Remote(c) => c.upload_blob(blob, events).await?,
            Store::Layout(l) => l.put_blob(blob)?,
        }
        events.event(Event::BlobUploaded {
            digest: blob.digest.clone(),
            size: blob.size(),
        });
        Ok(true)
    }

    async fn put_manifest(
        &self,
        tag: &str,
        image: &OciImage,
        events: &dyn Events,
    ) -> Result<(), OciError> {
        match self {
            Store::Remote(c) => {
                let reported = c.put_manifest(tag, &image.manifest, events).await?;
                if let Some(d) = reported.filter(|d| d != image.digest()) {
                    return Err(OciError::ReadBack {
                        target: self.describe(),
                        digest: image.digest().to_string(),
                        detail: format!("the registry stored the manifest as {d}"),
                    });
                }
            }
            Store::Layout(l) => {
                l.tag_manifest(tag, &image.manifest)?;
                events.event(Event::ManifestPushed {
                    tag: tag.to_string(),
                    digest: image.digest().to_string(),
                });
            }
        }
        Ok(())
    }
}

/// Decides what pushing `req` would do, reading only. A different digest at the tag without
/// `force` is the [`OciError::Conflict`] error.
pub async fn check(
    store: &Store,
    req: &PushRequest<'_>,
    events: &dyn Events,
) -> Result<Decision, OciError> {
    super::check_tag(req.tag)?;
    let ours = req.image.digest();
    match store.resolve(req.tag, events).await? {
        None => Ok(Decision::New),
        Some(d) if d == ours => match store.verify(&d) {
            Ok(()) => Ok(Decision::Unchanged),
            // A broken copy of this very image: pushing again repairs it.
            Err(_) if req.force => Ok(Decision::Overwrite { existing: d }),
            Err(e) => Err(e),
        },
        Some(existing) if req.force => Ok(Decision::Overwrite { existing }),
        Some(existing) => Err(OciError::Conflict {
            target: store.describe(),
            tag: req.tag.to_string(),
            existing,
            ours: ours.to_string(),
        }),
    }
}

/// Pushes the image under the tag by the rule above, and proves it by reading it back.
pub async fn push(
    store: &Store,
    req: &PushRequest<'_>,
    events: &dyn Events,
) -> Result<PushOutcome, OciError> {
    let digest = req.image.digest().to_string();
    let replaced = match check(store, req, events).await? {
        Decision::Unchanged => return Ok(PushOutcome::Unchanged { digest }),
        Decision::New => None,
        Decision::Overwrite { existing } => Some(existing),
    };
    let mut uploaded = Vec::new();
    for blob in req.image.blobs() {
        if store.put_blob(blob, events).await? {
            uploaded.push(blob.digest.clone());
        }
    }
    store.put_manifest(req.tag, req.image, events).await?;
    read_back(store, req, events).await?;
    Ok(PushOutcome::Pushed {
        digest,
        replaced,
        uploaded,
    })
}

/// The proof: the manifest by digest equals what was pushed, and the tag points at it.
async fn read_back(
    store: &Store,
    req: &PushRequest<'_>,
    events: &dyn Events,
) -> Result<(), OciError> {
    let digest = req.image.digest();
    let fail = |detail: String| OciError::ReadBack {
        target: store.describe(),
        digest: digest.to_string(),
        detail,
    };
    match store.manifest_bytes(digest, events).await? {
        None => return Err(fail("the registry does not serve it".into())),
        Some(b) if b[..] != req.image.manifest.bytes[..] => {
            return Err(fail(format!(
                "it serves other bytes (sha256:{})",
                olm_release_base::digest::sha256_hex(&b)
            )));
        }
        Some(_) => {}
    }
    match store.resolve(req.tag, events).await? {
        Some(d) if d == digest => {}
        other => {
            return Err(fail(format!(
                "the tag {} now points at {}",
                req.tag,
                other.as_deref().unwrap_or("nothing")
            )));
        }
    }
    store.verify(digest).map_err(|e| fail(e.to_string()))?;
    events.event(Event::ReadBack {
        digest: digest.to_string(),
    });
    Ok(())
}
