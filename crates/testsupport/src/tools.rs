//! External tools run by tests as independent readers of what the code under test wrote (e.g.
//! umoci unpacking an OCI image layout).

use std::path::Path;

use crate::files::list_files;

/// Runs a command, panicking with its output when it fails; returns stdout.
pub fn run(cmd: &mut std::process::Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `umoci unpack --rootless` of `layout:tag` into a fresh folder; the unpacked root files,
/// relative and sorted, with their bytes.
pub fn umoci_unpack(layout: &Path, tag: &str) -> Vec<(String, Vec<u8>)> {
    let out = tempfile::tempdir().unwrap();
    let bundle = out.path().join("bundle");
    run(std::process::Command::new("umoci")
        .args(["unpack", "--rootless", "--image"])
        .arg(format!("{}:{tag}", layout.display()))
        .arg(&bundle));
    let rootfs = bundle.join("rootfs");
    list_files(&rootfs)
        .into_iter()
        .map(|f| {
            let bytes = std::fs::read(rootfs.join(&f)).unwrap();
            (f, bytes)
        })
        .collect()
}
