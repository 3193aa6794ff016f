//! A budget for every input: gzip bombs refused while streaming, parsing refused
//! before it passes the value budget, nesting refused at a fixed depth, devices and FIFOs
//! refused at once, and the limit settable with `--max-bundle-bytes`. Memory is measured on the
//! real binary (peak RSS from `wait4`) only where the bound is behavioural: a refusal before
//! allocating. Speed figures come from scripts/bench_budgets.py, not from timed tests.

mod cli;
mod folders;
mod history;
mod parse;
mod registry;

use std::io::Write;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use flate2::Compression;
use flate2::write::GzEncoder;

/// A `.tar.gz` of `files`, written with the tar crate.
pub fn tgz(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut tar = tar::Builder::new(Vec::new());
    for (name, content) in files {
        let mut h = tar::Header::new_gnu();
        h.set_size(content.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        tar.append_data(&mut h, name, *content).unwrap();
    }
    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    gz.write_all(&tar.into_inner().unwrap()).unwrap();
    gz.finish().unwrap()
}

/// One tar entry of `size` zero bytes, compressed as it is written (never held whole).
pub fn zeros_tgz(entries: usize, size: u64) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    let chunk = vec![0u8; 1 << 20];
    for i in 0..entries {
        let mut h = tar::Header::new_gnu();
        h.set_path(format!("pkg/f{i}.yaml")).unwrap();
        h.set_size(size);
        h.set_mode(0o644);
        h.set_cksum();
        gz.write_all(h.as_bytes()).unwrap();
        let mut left = size;
        while left > 0 {
            let n = left.min(chunk.len() as u64) as usize;
            gz.write_all(&chunk[..n]).unwrap();
            left -= n as u64;
        }
        gz.write_all(&chunk[..(512 - (size % 512) as usize) % 512])
            .unwrap();
    }
    gz.write_all(&[0u8; 1024]).unwrap();
    gz.finish().unwrap()
}

/// Runs the binary and returns its output and peak RSS in KiB, or fails the test after
/// `timeout` (a refusal "at once" must not hang). The child is reaped with `wait4` (for its
/// rusage), which clippy cannot see.
#[allow(clippy::zombie_processes)]
pub fn run_measured(args: &[&str], timeout: Duration) -> (Output, u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_olm-release"))
        .args(args)
        .env_clear()
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let started = Instant::now();
    loop {
        let mut status = 0;
        // SAFETY: plain FFI call on our own child's pid with valid out-pointers.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            let mut stdout = Vec::new();
            let mut stderr = Vec::new();
            std::io::Read::read_to_end(child.stdout.as_mut().unwrap(), &mut stdout).unwrap();
            std::io::Read::read_to_end(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
            let status = std::os::unix::process::ExitStatusExt::from_raw(status);
            let out = Output {
                status,
                stdout,
                stderr,
            };
            return (out, usage.ru_maxrss as u64);
        }
        if started.elapsed() > timeout {
            let _ = child.kill();
            panic!("olm-release {args:?} did not finish within {timeout:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn assert_input_error(o: &Output, expected: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(expected), "expected {expected:?} in:\n{err}");
}

pub const MIB: u64 = 1024;
#[test]
fn gzip_bombs_are_refused_while_streaming_within_64_mib() {
    let tmp = tempfile::tempdir().unwrap();
    let small = tmp.path().join("small.yaml");
    std::fs::write(&small, "kind: x\n").unwrap();
    let (_, baseline) = run_measured(
        &["verify", small.to_str().unwrap()],
        Duration::from_secs(60),
    );
    // A gzip bomb: 1 GiB of zeros in one entry, about 1 MB compressed.
    let one = tmp.path().join("bomb.tar.gz");
    std::fs::write(&one, zeros_tgz(1, 1 << 30)).unwrap();
    // Entries each under any size limit: only the ratio, checked while streaming, stops them.
    let many = tmp.path().join("bomb-entries.tar.gz");
    std::fs::write(&many, zeros_tgz(64, 8 << 20)).unwrap();
    for (bomb, expected) in [
        (&one, "expands past the limit"),
        (&many, "expands more than 100:1"),
    ] {
        for cmd in ["verify", "graph"] {
            let (o, peak) = run_measured(&[cmd, bomb.to_str().unwrap()], Duration::from_secs(60));
            let extra = peak.saturating_sub(baseline);
            eprintln!(
                "{cmd} {}: {} bytes compressed, exit {:?}, peak RSS {} KiB ({} KiB over a trivial verify)",
                bomb.display(),
                std::fs::metadata(bomb).unwrap().len(),
                o.status.code(),
                peak,
                extra
            );
            assert_input_error(&o, expected);
            assert!(
                extra <= 64 * MIB,
                "{extra} KiB extra for {}",
                bomb.display()
            );
        }
    }
}

#[test]
fn devices_and_fifos_are_refused_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("bundle.yaml");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let fifo = fifo.to_str().unwrap();
    for args in [
        vec!["verify", "/dev/zero"],
        vec!["graph", "/dev/zero"],
        vec!["verify", fifo],
        vec!["graph", fifo],
        vec!["plan", fifo],
    ] {
        // Reading /dev/zero never ends and opening a FIFO blocks until a writer comes: a
        // refusal must come without either.
        let (o, _) = run_measured(&args, Duration::from_secs(30));
        let what = if args[1] == "/dev/zero" {
            "is a character device, not a regular file"
        } else {
            "is a FIFO (named pipe), not a regular file"
        };
        assert_input_error(&o, what);
    }
    let dir = tmp.path().join("folder");
    std::fs::create_dir(&dir).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.yaml")).unwrap();
    let (o, _) = run_measured(&["verify", dir.to_str().unwrap()], Duration::from_secs(30));
    assert_input_error(&o, "zero.yaml: is a character device");
}
