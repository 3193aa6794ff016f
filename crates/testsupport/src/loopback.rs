//! Test servers on loopback ports: a server on its own thread and runtime (so it answers while
//! a test waits on a blocking call or a child process), and a port that never answers.

/// Runs a test server on its own thread and runtime, on a fresh 127.0.0.1 port: `serve` gets
/// the bound listener and runs until it returns or the returned sender is dropped (the owner
/// keeps it as long as the server should live).
pub fn serve_on_loopback<F, Fut>(
    serve: F,
) -> (std::net::SocketAddr, tokio::sync::oneshot::Sender<()>)
where
    F: FnOnce(tokio::net::TcpListener) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()>,
{
    let (tx, rx) = std::sync::mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            tokio::select! {
                _ = serve(listener) => {}
                _ = stopped => {}
            }
        });
    });
    (rx.recv().unwrap(), stop)
}

/// A loopback port that accepts connections and never answers (each one held open): a server
/// that hangs, for the retry budget's tests.
pub fn hanging_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for c in listener.incoming() {
            held.push(c);
        }
    });
    port
}
