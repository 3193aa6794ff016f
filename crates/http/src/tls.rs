//! Failures that cannot heal, said in words: certificate problems found in an error's chain.
//!
//! A certificate error is the same on every attempt, so the clients never retry it (a retry
//! only delays the message), and rustls's own text (`invalid peer certificate: UnknownIssuer`,
//! `Other(OtherError(CaUsedAsEndEntity))`) tells a user nothing about the fix. The chain of a
//! reqwest error holds the rustls error inside an `io::Error`, whose `source()` skips it, so the
//! walk looks inside each `io::Error` too.

use std::error::Error as StdError;

use rustls::CertificateError;

/// What a TLS failure in `e`'s chain means and how to fix it, or `None` when there is none.
pub fn tls_problem(e: &(dyn StdError + 'static)) -> Option<String> {
    let mut next: Option<&(dyn StdError + 'static)> = Some(e);
    while let Some(cur) = next {
        if let Some(r) = rustls_error(cur) {
            return Some(describe(r));
        }
        next = cur.source();
    }
    None
}

/// The rustls error `e` is, or holds inside `io::Error`s (hyper wraps tokio-rustls's
/// `io::Error` in another one).
fn rustls_error<'a>(mut e: &'a (dyn StdError + 'static)) -> Option<&'a rustls::Error> {
    loop {
        if let Some(r) = e.downcast_ref::<rustls::Error>() {
            return Some(r);
        }
        e = e.downcast_ref::<std::io::Error>()?.get_ref()?;
    }
}

const FIX: &str = "set SSL_CERT_FILE (or SSL_CERT_DIR) to the CA that issued it";

fn describe(e: &rustls::Error) -> String {
    match e {
        rustls::Error::InvalidCertificate(c) => match c {
            CertificateError::UnknownIssuer => format!(
                "TLS: the server's certificate is self-signed or issued by an unknown CA; {FIX}"
            ),
            CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
                "TLS: the server's certificate has expired; renew it on the server".into()
            }
            CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
                "TLS: the server's certificate is not valid yet (check the clocks)".into()
            }
            CertificateError::NotValidForName
            | CertificateError::NotValidForNameContext { .. } => {
                "TLS: the server's certificate is not valid for this host name; use the name it was issued for".into()
            }
            CertificateError::Revoked => "TLS: the server's certificate is revoked".into(),
            CertificateError::Other(o) if format!("{o:?}").contains("CaUsedAsEndEntity") => {
                format!("TLS: the server's certificate is self-signed (a CA certificate used as the server's own); {FIX}")
            }
            other => format!("TLS: the server's certificate was refused ({other:?}); {FIX}"),
        },
        rustls::Error::InvalidMessage(_) | rustls::Error::InappropriateHandshakeMessage { .. } => {
            "TLS: the server did not answer TLS (is it plain http://?)".into()
        }
        other => format!("TLS: the handshake failed ({other})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_rustls_error_inside_io_errors() {
        let inner = rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer);
        let io = std::io::Error::new(std::io::ErrorKind::InvalidData, inner);
        let io = std::io::Error::other(io);
        #[derive(Debug, thiserror::Error)]
        #[error("client error")]
        struct Outer(#[source] std::io::Error);
        let m = tls_problem(&Outer(io)).unwrap();
        assert!(
            m.contains("self-signed or issued by an unknown CA; set SSL_CERT_FILE"),
            "{m}"
        );
        let plain = std::io::Error::other("connection reset");
        assert_eq!(tls_problem(&plain), None);
    }
}
