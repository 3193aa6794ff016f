//! The one place that builds HTTP clients: user agent, timeouts, redirect policy.
//!
//! Redirects are never followed automatically: a redirect to another host would carry the
//! `Authorization` header with it, so clients see the 3xx and decide.

use std::time::Duration;

/// Timeouts and limits for one client.
#[derive(Debug, Clone, Copy)]
pub struct HttpOptions {
    pub connect_timeout: Duration,
    pub timeout: Duration,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(60),
        }
    }
}

/// The user agent every request carries.
pub fn user_agent() -> String {
    format!("olm-release/{}", env!("CARGO_PKG_VERSION"))
}

/// Builds a reqwest client with our defaults.
pub fn client(opts: HttpOptions) -> reqwest::Client {
    reqwest::Client::builder()
        .user_agent(user_agent())
        .connect_timeout(opts.connect_timeout)
        .timeout(opts.timeout)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("the HTTP client builds with static settings")
}
