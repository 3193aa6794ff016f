//! The policy every client is built with: user agent, timeouts, body caps, redirects, and
//! how a transport failure is described.

use std::time::Duration;

use crate::tls::tls_problem;

/// No progress for this long fails a transfer (a read that returns nothing, an upload whose
/// body the server does not take).
pub const STALL: Duration = Duration::from_secs(60);

/// Timeouts and limits for one client.
#[derive(Debug, Clone, Copy)]
pub struct HttpOptions {
    /// How long to wait for a connection.
    pub connect_timeout: Duration,
    /// Total time for one request, body included.
    pub timeout: Duration,
    /// Largest response body read, in bytes (blobs included).
    pub max_body: u64,
    /// Fail a request whose answer does not start, or whose body stops, for [`STALL`]
    /// (reqwest's read timeout, which runs from the request's start to its headers). Off for a
    /// client of long uploads: it would cut one still sending; [`stall::guard`] watches those.
    pub read_stall: bool,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(60),
            max_body: 256 * 1024 * 1024,
            read_stall: true,
        }
    }
}

/// The user agent every request carries.
pub(crate) fn user_agent() -> String {
    format!("olm-release/{}", env!("CARGO_PKG_VERSION"))
}

/// Builds a reqwest client with our defaults, on the network policy in force.
pub fn client(opts: HttpOptions) -> reqwest::Client {
    let mut b = reqwest::Client::builder()
        .user_agent(user_agent())
        .connect_timeout(opts.connect_timeout)
        .timeout(opts.timeout)
        .redirect(reqwest::redirect::Policy::none());
    if opts.read_stall {
        b = b.read_timeout(STALL.min(opts.timeout));
    }
    crate::network::current()
        .apply(b)
        .build()
        .expect("the HTTP client builds with checked settings")
}

/// Why a response body could not be read.
#[derive(Debug)]
pub enum BodyError {
    /// The body is larger than the cap (from `Content-Length` or while reading).
    TooLarge(u64),
    /// The connection failed while reading (reset, timeout, truncated).
    Transport(reqwest::Error),
}

/// Reads a response body, refusing more than `cap` bytes.
pub async fn read_capped(mut resp: reqwest::Response, cap: u64) -> Result<Vec<u8>, BodyError> {
    if let Some(len) = resp.content_length()
        && len > cap
    {
        return Err(BodyError::TooLarge(cap));
    }
    let mut body = Vec::new();
    while let Some(chunk) = resp.chunk().await.map_err(BodyError::Transport)? {
        if body.len() as u64 + chunk.len() as u64 > cap {
            return Err(BodyError::TooLarge(cap));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// Reads an `http` response body (octocrab's), refusing more than `cap` bytes.
pub async fn read_capped_body<B>(mut body: B, cap: u64) -> Result<Vec<u8>, BodyCapError<B::Error>>
where
    B: http_body::Body<Data = bytes::Bytes> + Unpin,
{
    use http_body_util::BodyExt;
    if body.size_hint().lower() > cap {
        return Err(BodyCapError::TooLarge(cap));
    }
    let mut out = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(BodyCapError::Transport)?;
        if let Ok(data) = frame.into_data() {
            if out.len() as u64 + data.len() as u64 > cap {
                return Err(BodyCapError::TooLarge(cap));
            }
            out.extend_from_slice(&data);
        }
    }
    Ok(out)
}

/// Why an `http` body could not be read.
#[derive(Debug)]
pub enum BodyCapError<E> {
    /// The body is larger than the cap.
    TooLarge(u64),
    /// The body could not be read.
    Transport(E),
}

/// Where a 3xx points, resolved against the request URL; `Err` when it leaves the origin
/// (another scheme, host or port) or has no usable `Location`.
pub fn redirect_target(
    from: &reqwest::Url,
    location: Option<&str>,
) -> Result<reqwest::Url, String> {
    let location = location.ok_or("a redirect without a Location header")?;
    let to = from
        .join(location)
        .map_err(|e| format!("a redirect to an invalid location '{location}': {e}"))?;
    if to.origin() != from.origin() {
        return Err(format!(
            "a redirect to another host ({}); refusing to follow it, so credentials never leave {}",
            to.origin().ascii_serialization(),
            from.origin().ascii_serialization()
        ));
    }
    Ok(to)
}

/// The warning a client gives, once per run, before it talks plain `http://` to a host that
/// is not loopback (allowed only by `--insecure`): credentials and content travel readable.
pub fn plain_http_warning(url: &reqwest::Url) -> Option<String> {
    (url.scheme() == "http" && !is_loopback(url)).then(|| {
        format!(
            "--insecure: plain http:// to {}; credentials and content travel unencrypted and can be read or changed on the way",
            url.host_str().unwrap_or("the server")
        )
    })
}

/// Whether a URL's host is loopback (`localhost`, `127.0.0.0/8`, `::1`): the only hosts plain
/// `http://` may reach without an explicit `insecure`. The host is the one a client would
/// connect to (parsed as a URL, so `http://localhost:80@evil.example` is `evil.example`).
pub fn is_loopback(url: &reqwest::Url) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.eq_ignore_ascii_case("localhost")
        || bare
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// What went wrong with a request that got no HTTP answer, in the words every client reports.
pub enum TransportProblem {
    /// A certificate or TLS failure, said in words ([`tls_problem`]); it cannot heal by retrying.
    Tls(String),
    /// No answer within the client's timeout.
    Timeout,
    /// Connecting or the connection failed: "could not connect: CAUSE" or "the connection
    /// failed: CAUSE", with the innermost cause (reqwest's own text repeats the URL).
    Failed(String),
}

/// Classifies a transport error of `e` once, for the app-registry and the OCI clients alike.
pub fn transport_problem(e: &reqwest::Error) -> TransportProblem {
    if let Some(detail) = tls_problem(e) {
        return TransportProblem::Tls(detail);
    }
    if e.is_timeout() {
        return TransportProblem::Timeout;
    }
    let mut cause: &dyn std::error::Error = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    let what = if e.is_connect() {
        "could not connect"
    } else {
        "the connection failed"
    };
    TransportProblem::Failed(format!("{what}: {cause}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// octocrab's bodies (GitHub's JSON calls) are read with a cap, whether the size is
    /// announced or only found while reading.
    #[tokio::test]
    async fn http_bodies_are_read_with_a_cap() {
        use http_body_util::{BodyExt, Full, StreamBody};
        let full = || Full::new(bytes::Bytes::from(vec![b'x'; 100]));
        assert!(matches!(
            read_capped_body(full(), 10).await,
            Err(BodyCapError::TooLarge(10))
        ));
        assert_eq!(read_capped_body(full(), 100).await.unwrap().len(), 100);
        // No size announced: refused once the chunks pass the cap.
        let chunks = (0..20).map(|_| {
            Ok::<_, std::convert::Infallible>(http_body::Frame::data(bytes::Bytes::from(vec![
                b'x';
                8
            ])))
        });
        let streamed = StreamBody::new(futures_util::stream::iter(chunks)).boxed_unsync();
        assert!(matches!(
            read_capped_body(streamed, 100).await,
            Err(BodyCapError::TooLarge(100))
        ));
    }

    #[test]
    fn plain_http_off_loopback_is_warned_about_naming_the_host() {
        let w = |u: &str| plain_http_warning(&reqwest::Url::parse(u).unwrap());
        let got = w("http://registry.example:8080/cnr").unwrap();
        assert!(
            got.starts_with("--insecure: plain http:// to registry.example;"),
            "{got}"
        );
        assert_eq!(w("http://127.0.0.1:5000/cnr"), None);
        assert_eq!(w("https://registry.example/cnr"), None);
    }

    #[test]
    fn redirects_stay_on_the_origin() {
        let from = reqwest::Url::parse("https://quay.io/cnr/api/v1/packages/a/b").unwrap();
        assert_eq!(
            redirect_target(&from, Some("/cnr/x")).unwrap().as_str(),
            "https://quay.io/cnr/x"
        );
        for bad in [
            "https://evil.example/cnr/x",
            "http://quay.io/cnr/x",
            "https://quay.io:8443/x",
            "//evil.example/x",
        ] {
            let e = redirect_target(&from, Some(bad)).unwrap_err();
            assert!(e.contains("another host"), "{bad}: {e}");
        }
        assert!(redirect_target(&from, None).is_err());
    }
}
