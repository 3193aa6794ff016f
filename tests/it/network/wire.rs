//! The loopback peers of the network tests: certificates (rcgen), a TLS front that forwards
//! to a plain fake, and a CONNECT proxy. Each runs on its own thread and runtime
//! ([`crate::support::serve_on_loopback`]), so it answers while a test waits on the binary.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A private CA with a server certificate it issued, and a self-signed server certificate.
pub struct Pki {
    ca_pem: String,
    issued: (CertificateDer<'static>, Vec<u8>),
    self_signed: (CertificateDer<'static>, Vec<u8>),
}

fn server_params() -> CertificateParams {
    let mut p =
        CertificateParams::new(vec!["127.0.0.1".to_string(), "localhost".to_string()]).unwrap();
    p.distinguished_name
        .push(DnType::CommonName, "olm-release test server");
    p
}

impl Pki {
    pub fn new() -> Pki {
        let ca_key = KeyPair::generate().unwrap();
        let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca.distinguished_name
            .push(DnType::CommonName, "olm-release test CA");
        let ca = ca.self_signed(&ca_key).unwrap();
        let key = KeyPair::generate().unwrap();
        let leaf = server_params().signed_by(&key, &ca, &ca_key).unwrap();
        let own_key = KeyPair::generate().unwrap();
        let own = server_params().self_signed(&own_key).unwrap();
        Pki {
            ca_pem: ca.pem(),
            issued: (leaf.der().clone(), key.serialize_der()),
            self_signed: (own.der().clone(), own_key.serialize_der()),
        }
    }

    /// Writes the CA certificate as `certs/ca.pem` under `dir`.
    pub fn write_ca(&self, dir: &Path) -> PathBuf {
        let certs = dir.join("certs");
        std::fs::create_dir_all(&certs).unwrap();
        let path = certs.join("ca.pem");
        std::fs::write(&path, &self.ca_pem).unwrap();
        path
    }

    pub fn private_ca_server(&self) -> rustls::ServerConfig {
        server(&self.issued)
    }

    pub fn self_signed_server(&self) -> rustls::ServerConfig {
        server(&self.self_signed)
    }
}

fn server((cert, key): &(CertificateDer<'static>, Vec<u8>)) -> rustls::ServerConfig {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![cert.clone()],
            PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.clone())),
        )
        .unwrap()
}

/// A TLS terminator on a loopback port forwarding to a plain backend.
pub struct TlsFront {
    pub port: u16,
    accepted: Arc<AtomicUsize>,
    backend: Arc<Mutex<Option<SocketAddr>>>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl TlsFront {
    pub fn start(config: rustls::ServerConfig, backend: Option<SocketAddr>) -> TlsFront {
        let accepted = Arc::new(AtomicUsize::new(0));
        let backend = Arc::new(Mutex::new(backend));
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        let (count, to) = (accepted.clone(), backend.clone());
        let (addr, stop) = crate::support::serve_on_loopback(move |listener| async move {
            loop {
                let Ok((tcp, _)) = listener.accept().await else {
                    return;
                };
                count.fetch_add(1, Ordering::SeqCst);
                let acceptor = acceptor.clone();
                let to = *to.lock().unwrap();
                tokio::spawn(async move {
                    let Ok(mut tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    let Some(to) = to else { return };
                    let Ok(mut plain) = tokio::net::TcpStream::connect(to).await else {
                        return;
                    };
                    let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
                });
            }
        });
        TlsFront {
            port: addr.port(),
            accepted,
            backend,
            _stop: stop,
        }
    }

    /// Sets the backend (for a fake that must know the front's port before it starts).
    pub fn forward_to(&self, to: SocketAddr) {
        *self.backend.lock().unwrap() = Some(to);
    }

    /// TCP connections accepted so far (one per attempt of a client that fails the handshake).
    pub fn connections(&self) -> usize {
        self.accepted.load(Ordering::SeqCst)
    }
}

/// A CONNECT proxy on a loopback port.
pub struct Proxy {
    port: u16,
    targets: Arc<Mutex<Vec<String>>>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Proxy {
    pub fn start() -> Proxy {
        let targets = Arc::new(Mutex::new(Vec::new()));
        let seen = targets.clone();
        let (addr, stop) = crate::support::serve_on_loopback(move |listener| async move {
            loop {
                let Ok((mut client, _)) = listener.accept().await else {
                    return;
                };
                let seen = seen.clone();
                tokio::spawn(async move {
                    let mut head = Vec::new();
                    let mut byte = [0u8; 1];
                    while !head.ends_with(b"\r\n\r\n") && head.len() < 8192 {
                        if client.read(&mut byte).await.unwrap_or(0) == 0 {
                            return;
                        }
                        head.push(byte[0]);
                    }
                    let head = String::from_utf8_lossy(&head).to_string();
                    let mut words = head.split_whitespace();
                    let (Some("CONNECT"), Some(target)) = (words.next(), words.next()) else {
                        let _ = client
                            .write_all(b"HTTP/1.1 405 Method Not Allowed\r\n\r\n")
                            .await;
                        return;
                    };
                    seen.lock().unwrap().push(target.to_string());
                    let Ok(mut upstream) = tokio::net::TcpStream::connect(target).await else {
                        let _ = client.write_all(b"HTTP/1.1 502 Bad Gateway\r\n\r\n").await;
                        return;
                    };
                    let _ = client
                        .write_all(b"HTTP/1.1 200 Connection Established\r\n\r\n")
                        .await;
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
                });
            }
        });
        Proxy {
            port: addr.port(),
            targets,
            _stop: stop,
        }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The `host:port` of every tunnel asked for, in order.
    pub fn targets(&self) -> Vec<String> {
        self.targets.lock().unwrap().clone()
    }
}
