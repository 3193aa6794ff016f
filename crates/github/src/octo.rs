//! octocrab on our transport: a `tower` service that sends octocrab's requests with a
//! reqwest client built by [`olm_release_http::client`], so GitHub's JSON calls follow the same network
//! policy (roots, proxies, timeouts, no redirects) as every other client.
//!
//! Why this and not octocrab's own client: its default transport is a hyper client with its own
//! TLS roots and no proxy support, and its `reqwest` feature needs reqwest 0.13 with the
//! aws-lc-rs provider, a second HTTP stack to keep in step. octocrab's builder accepts any
//! service (`OctocrabBuilder::new_empty().with_service(..)`, see the octocrab docs on
//! `OctocrabBuilder`), and its `BaseUriLayer` and `ExtraHeadersLayer` put back what its
//! default builder adds. octocrab's bodies are small JSON documents; the request body is
//! collected before it is handed to reqwest.

use std::pin::Pin;
use std::task::{Context, Poll};

use http_body_util::BodyExt;

/// The leaf service of octocrab's stack.
#[derive(Clone)]
pub(crate) struct Transport(pub reqwest::Client);

/// An error of the transport: reqwest's, or octocrab's body that could not be read.
pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync>;

impl tower_service::Service<http::Request<octocrab::OctoBody>> for Transport {
    type Response = http::Response<reqwest::Body>;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, BoxError>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: http::Request<octocrab::OctoBody>) -> Self::Future {
        let client = self.0.clone();
        Box::pin(async move {
            let (parts, body) = req.into_parts();
            let bytes = body
                .collect()
                .await
                .map_err(|e| -> BoxError { Box::new(e) })?
                .to_bytes();
            let req = reqwest::Request::try_from(http::Request::from_parts(parts, bytes))?;
            let res = client.execute(req).await?;
            Ok(http::Response::from(res))
        })
    }
}

/// octocrab for an API base, on a client built by [`super::client`] with `opts`; `headers`
/// (the token, marked sensitive, and the API's media type and version) go with every request.
pub(crate) fn octocrab(
    base: http::Uri,
    headers: Vec<(http::HeaderName, http::HeaderValue)>,
    opts: olm_release_http::HttpOptions,
) -> octocrab::Octocrab {
    use octocrab::service::middleware::base_uri::BaseUriLayer;
    use octocrab::service::middleware::extra_headers::ExtraHeadersLayer;
    octocrab::OctocrabBuilder::new_empty()
        .with_service(Transport(olm_release_http::client(opts)))
        .with_layer(&BaseUriLayer::new(base))
        .with_layer(&ExtraHeadersLayer::new(std::sync::Arc::new(headers)))
        .with_auth(octocrab::AuthState::None)
        .build()
        .unwrap_or_else(|never| match never {})
}
