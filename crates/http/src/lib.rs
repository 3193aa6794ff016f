//! The one place that builds HTTP clients: user agent, timeouts, body limits, redirect policy,
//! and the network policy (trusted roots, proxies; [`Network`]) that every client follows.
//!
//! Redirects are never followed automatically: reqwest would carry the `Authorization` header
//! along, possibly to another host. Clients see the 3xx and decide with [`redirect_target`]:
//! a redirect within the same origin (scheme, host, port) may be followed by the caller; one to
//! another host is an error, so credentials never cross hosts. Every request has a connect
//! timeout, a total timeout and a stall timeout ([`STALL`]: no progress for a minute fails a
//! download or an upload, [`stall`]); every response body is read with a size cap
//! ([`read_capped`], [`read_capped_body`]), because the server's answer is untrusted input.
//! Certificate errors are found in an error's chain and said in words ([`tls_problem`]); they never
//! heal, so no client retries them.

#![deny(missing_docs)]

pub mod answer;
pub mod events;
mod network;
mod policy;
pub mod retry;
pub mod stall;
mod tls;

pub use network::{Network, NetworkError, NetworkSettings, configure};
pub use policy::{
    BodyCapError, BodyError, HttpOptions, STALL, TransportProblem, client, is_loopback,
    plain_http_warning, read_capped, read_capped_body, redirect_target, transport_problem,
};
pub use tls::tls_problem;
