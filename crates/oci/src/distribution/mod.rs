//! A small client for the OCI distribution API (distribution-spec `spec.md`): the calls a
//! push needs and nothing more.
//!
//! - `HEAD`/`GET /v2/<name>/manifests/<tag or digest>` — what a tag holds, and the read-back;
//! - `HEAD /v2/<name>/blobs/<digest>` — skip blobs already there;
//! - `POST /v2/<name>/blobs/uploads/` then `PUT <location>?digest=…` — a monolithic upload;
//! - `PUT /v2/<name>/manifests/<tag>` — the manifest, as the exact bytes that were digested;
//! - `GET /v2/<name>/blobs/<digest>` and `POST /v2/<name>/blobs/uploads/?mount=…&from=…` — a
//!   catalog image's base read, and its layers mounted from the base's repository.
//!
//! Requests, retries, redirects and authentication live in [`transport`] and [`auth`].

mod auth;
mod transport;

pub use auth::{Challenge, Credentials};

use bytes::Bytes;
use reqwest::Method;
use reqwest::header::{HeaderMap, LOCATION};

use self::transport::Req;
use super::{Event, Events, OciError, RemoteRepository};
use olm_release_base::secret::Secret;
use olm_release_http::HttpOptions;
use olm_release_http::retry::RetryPolicy;
use olm_release_olm::bundle_image::Blob;

/// Manifest media types this client reads.
pub(crate) const MANIFEST_ACCEPT: &str = "application/vnd.oci.image.manifest.v1+json, application/vnd.oci.image.index.v1+json, application/vnd.docker.distribution.manifest.v2+json, application/vnd.docker.distribution.manifest.list.v2+json";
/// The largest manifest read (the distribution registry's own limit is 4 MiB).
pub(crate) const MAX_MANIFEST: u64 = 4 * 1024 * 1024;

/// A client for one repository of one registry.
#[derive(Debug)]
pub struct DistributionClient {
    http: reqwest::Client,
    reference: RemoteRepository,
    credentials: Option<Credentials>,
    insecure: bool,
    opts: HttpOptions,
    retry: RetryPolicy,
    /// The `Authorization` value in force (Basic, or the last Bearer token), once a challenge
    /// asked for one.
    authorization: std::sync::Mutex<Option<Secret>>,
    /// Hosts already warned about as plain http off loopback (each is named once).
    warned: std::sync::Mutex<std::collections::BTreeSet<String>>,
}

/// A manifest as the registry serves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FetchedManifest {
    pub(crate) media_type: Option<String>,
    pub(crate) bytes: Bytes,
}

impl DistributionClient {
    /// A client for `reference`. Plain http is refused unless the host is loopback or
    /// `insecure` is set; allowed off loopback, it is warned about through `events` now, as
    /// the app-registry and GitHub clients do when they are built.
    pub(crate) fn new(
        reference: RemoteRepository,
        credentials: Option<Credentials>,
        insecure: bool,
        opts: HttpOptions,
        retry: RetryPolicy,
        events: &dyn Events,
    ) -> Result<Self, OciError> {
        if reference.base.scheme() == "http"
            && !insecure
            && !olm_release_http::is_loopback(&reference.base)
        {
            return Err(OciError::InsecureHttp {
                url: reference.base.to_string(),
            });
        }
        let client = DistributionClient {
            http: olm_release_http::client(opts),
            reference,
            credentials,
            insecure,
            opts,
            retry,
            authorization: std::sync::Mutex::new(None),
            warned: std::sync::Mutex::new(Default::default()),
        };
        client.warn_plain_http(&client.reference.base, events);
        Ok(client)
    }

    /// Warns, once per host, before plain `http://` goes to a host off loopback (the one
    /// policy and text of [`olm_release_http::plain_http_warning`]).
    pub(super) fn warn_plain_http(&self, url: &reqwest::Url, events: &dyn Events) {
        let Some(warning) = olm_release_http::plain_http_warning(url) else {
            return;
        };
        let host = url.host_str().unwrap_or_default().to_string();
        if self
            .warned
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(host)
        {
            events.event(Event::Warning(warning));
        }
    }

    /// The repository this client talks to.
    pub(crate) fn reference(&self) -> &RemoteRepository {
        &self.reference
    }

    /// `HOST[:PORT]/REPOSITORY`.
    pub(crate) fn describe(&self) -> String {
        self.reference.describe()
    }

    fn url(&self, tail: &[&str]) -> reqwest::Url {
        let mut url = self.reference.base.clone();
        if let Ok(mut segs) = url.path_segments_mut() {
            segs.pop_if_empty().push("v2");
            segs.extend(self.reference.repository.split('/'));
            segs.extend(tail);
        }
        url
    }

    /// The digest a tag (or digest) resolves to, `None` when the repository or the tag does
    /// not exist. Uses `HEAD` and its `Docker-Content-Digest`; falls back to hashing a `GET`.
    pub(crate) async fn manifest_digest(
        &self,
        reference: &str,
        events: &dyn Events,
    ) -> Result<Option<String>, OciError> {
        let req = Req::new(
            Method::HEAD,
            self.url(&["manifests", reference]),
            &[200, 404],
        )
        .accept(MANIFEST_ACCEPT);
        let answer = self.send(req, events).await?;
        if answer.status == 404 {
            return Ok(None);
        }
        if let Some(d) = content_digest(&answer.headers) {
            return Ok(Some(d));
        }
        Ok(self
            .get_manifest(reference, events)
            .await?
            .map(|m| format!("sha256:{}", olm_release_base::digest::sha256_hex(&m.bytes))))
    }

    /// `GET /v2/<name>/manifests/<reference>`: the manifest bytes, `None` on 404.
    pub(crate) async fn get_manifest(
        &self,
        reference: &str,
        events: &dyn Events,
    ) -> Result<Option<FetchedManifest>, OciError> {
        let req = Req::new(
            Method::GET,
            self.url(&["manifests", reference]),
            &[200, 404],
        )
        .accept(MANIFEST_ACCEPT)
        .cap(MAX_MANIFEST);
        let answer = self.send(req, events).await?;
        if answer.status == 404 {
            return Ok(None);
        }
        let media_type = answer
            .headers
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        Ok(Some(FetchedManifest {
            media_type,
            bytes: answer.body,
        }))
    }

    /// `HEAD /v2/<name>/blobs/<digest>`: whether the registry has the blob.
    pub(crate) async fn has_blob(
        &self,
        digest: &str,
        events: &dyn Events,
    ) -> Result<bool, OciError> {
        let req = Req::new(Method::HEAD, self.url(&["blobs", digest]), &[200, 404]);
        Ok(self.send(req, events).await?.status == 200)
    }

    /// `HEAD /v2/<name>/blobs/<digest>`: the blob's size (`Content-Length`), `None` on 404.
    pub(crate) async fn blob_size(
        &self,
        digest: &str,
        events: &dyn Events,
    ) -> Result<Option<u64>, OciError> {
        let url = self.url(&["blobs", digest]);
        let answer = self
            .send(Req::new(Method::HEAD, url.clone(), &[200, 404]), events)
            .await?;
        if answer.status == 404 {
            return Ok(None);
        }
        answer
            .headers
            .get(reqwest::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok())
            .map(Some)
            .ok_or_else(|| OciError::Invalid {
                at: transport::at(&Method::HEAD, &url),
                detail: "the answer gives no Content-Length".into(),
            })
    }

    /// Uploads a blob in one piece: `POST /v2/<name>/blobs/uploads/`, then `PUT` of the bytes
    /// to the returned location with `?digest=`. A failed pair is retried from the `POST`.
    pub(crate) async fn upload_blob(
        &self,
        blob: &Blob,
        events: &dyn Events,
    ) -> Result<(), OciError> {
        let at = format!("upload of {} to {}", blob.digest, self.describe());
        self.retrying(&at, events, || async {
            let mut start = self.url(&["blobs", "uploads", ""]);
            start.set_query(None);
            let answer = self
                .send_once(&Req::new(Method::POST, start.clone(), &[202]), events)
                .await?;
            let location = answer
                .headers
                .get(LOCATION)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            let mut put = olm_release_http::redirect_target(&start, location.as_deref()).map_err(
                |detail| OciError::Invalid {
                    at: transport::at(&Method::POST, &start),
                    detail: format!("the upload location: {detail}"),
                },
            )?;
            put.query_pairs_mut().append_pair("digest", &blob.digest);
            let req = Req::new(Method::PUT, put, &[201])
                .content_type("application/octet-stream")
                .body(blob.bytes.clone());
            self.send_once(&req, events).await.map(|_| ())
        })
        .await
    }

    /// `GET /v2/<name>/blobs/<digest>`: the blob's bytes (up to `cap`), `None` on 404; the
    /// bytes are checked against the digest.
    pub(crate) async fn get_blob(
        &self,
        digest: &str,
        cap: u64,
        events: &dyn Events,
    ) -> Result<Option<Bytes>, OciError> {
        let url = self.url(&["blobs", digest]);
        let req = Req::new(Method::GET, url.clone(), &[200, 404]).cap(cap);
        let answer = self.send(req, events).await?;
        if answer.status == 404 {
            return Ok(None);
        }
        let got = format!(
            "sha256:{}",
            olm_release_base::digest::sha256_hex(&answer.body)
        );
        if got != digest {
            return Err(OciError::Invalid {
                at: transport::at(&Method::GET, &url),
                detail: format!("the blob's bytes hash to {got}"),
            });
        }
        Ok(Some(answer.body))
    }

    /// `POST /v2/<name>/blobs/uploads/?mount=<digest>&from=<repository>`: mounts a blob of
    /// another repository of the same registry; whether the registry mounted it (`201`), as
    /// opposed to opening an upload (`202`, which the caller answers by uploading the bytes).
    pub(crate) async fn mount_blob(
        &self,
        digest: &str,
        from: &str,
        events: &dyn Events,
    ) -> Result<bool, OciError> {
        let mut url = self.url(&["blobs", "uploads", ""]);
        url.query_pairs_mut()
            .append_pair("mount", digest)
            .append_pair("from", from);
        let answer = self
            .send(Req::new(Method::POST, url, &[201, 202]), events)
            .await?;
        Ok(answer.status == 201)
    }

    /// `PUT /v2/<name>/manifests/<tag>` with the exact bytes; returns the digest the registry
    /// reports (`Docker-Content-Digest`), when it does.
    pub(crate) async fn put_manifest(
        &self,
        tag: &str,
        manifest: &Blob,
        events: &dyn Events,
    ) -> Result<Option<String>, OciError> {
        let req = Req::new(Method::PUT, self.url(&["manifests", tag]), &[201])
            .content_type(&manifest.media_type)
            .body(manifest.bytes.clone());
        let answer = self.send(req, events).await?;
        events.event(Event::ManifestPushed {
            tag: tag.to_string(),
            digest: manifest.digest.clone(),
        });
        Ok(content_digest(&answer.headers))
    }
}

fn content_digest(headers: &HeaderMap) -> Option<String> {
    headers
        .get("docker-content-digest")
        .and_then(|v| v.to_str().ok())
        .map(|s| s.trim().to_string())
        .filter(|s| s.starts_with("sha256:"))
}
