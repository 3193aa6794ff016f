//! Ctrl-C during a run: a child run whose release step waits on a loopback GitHub that stops
//! answering gets SIGINT; it says which step was interrupted, what was already written (the
//! bundle pushed to the `dir:` registry before) and that a rerun is safe, and exits 130, with
//! the JSON summary saying the same. The server answers the two reads the run makes before its
//! first write (is the release there? the tag, then the list: no), then answers nothing.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::github_fake::TOKEN;
use crate::output::assert_summary;
use crate::support::Work;

#[test]
fn ctrl_c_says_what_was_interrupted_and_written_and_exits_130() {
    let work = Work::sample();
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let api = format!("http://{}", silent.local_addr().unwrap());
    // The sample pipeline, releasing to that GitHub instead of a folder.
    let sample = std::fs::read_to_string(work.path().join("pipelines/sample.yaml")).unwrap();
    let dir_target = "release:\n  target: dir:_out/release\n";
    assert!(sample.contains(dir_target), "the sample pipeline changed");
    let yaml = sample.replace(
        dir_target,
        &format!("release:\n  target: github:acme/sample-operator\n  api_url: {api}\n"),
    );
    std::fs::write(work.path().join("pipelines/int.yaml"), yaml).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_olm-release"))
        .current_dir(work.path())
        .args(["--format", "json", "run", "pipelines/int.yaml"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("GITHUB_TOKEN", TOKEN)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The release step has sent its first request: the run is blocked on a server that no
    // longer answers.
    let requests = Arc::new(AtomicUsize::new(0));
    {
        let requests = requests.clone();
        std::thread::spawn(move || {
            for stream in silent.incoming().flatten() {
                let requests = requests.clone();
                std::thread::spawn(move || serve_two_reads(stream, &requests));
            }
        });
    }
    let started = std::time::Instant::now();
    loop {
        match requests.load(Ordering::SeqCst) {
            n if n > 2 => break,
            _ if started.elapsed().as_secs() < 120 => {
                if let Some(status) = child.try_wait().unwrap() {
                    let mut err = String::new();
                    child
                        .stderr
                        .take()
                        .unwrap()
                        .read_to_string(&mut err)
                        .unwrap();
                    panic!("the run ended before the release step ({status}):\n{err}");
                }
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            n => panic!("the release step never asked (requests: {n})"),
        }
    }
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    let (mut out, mut err) = (String::new(), String::new());
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    for needle in [
        "error: interrupted (Ctrl-C) during release;",
        "already written: bundle release 0.1.0",
        "a rerun is safe",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in\n{err}");
    }
    assert_eq!(
        err.matches("interrupted (Ctrl-C)").count(),
        1,
        "said once:\n{err}"
    );
    let doc: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    assert_summary(&doc);
    assert_eq!(doc["exit_code"], 130);
    assert_eq!(doc["error"]["class"], "interrupted");
}

/// Answers the first two requests of the run (the release for the tag: 404; the release list:
/// empty), each as it comes, then reads on and answers nothing.
fn serve_two_reads(mut stream: TcpStream, requests: &AtomicUsize) {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        while let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            buf.drain(..end + 4);
            let n = requests.fetch_add(1, Ordering::SeqCst) + 1;
            let (status, body) = match n {
                1 => ("404 Not Found", r#"{"message":"Not Found"}"#),
                2 => ("200 OK", "[]"),
                _ => continue,
            };
            let answer = format!(
                "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                body.len()
            );
            if stream.write_all(answer.as_bytes()).is_err() {
                return;
            }
        }
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
}
