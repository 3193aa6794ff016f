use std::os::unix::fs::symlink;

use super::*;

fn blob(bytes: &[u8]) -> Blob {
    Blob {
        media_type: "application/vnd.oci.image.manifest.v1+json".into(),
        digest: format!("sha256:{}", olm_release_base::digest::sha256_hex(bytes)),
        bytes: bytes.to_vec().into(),
    }
}

/// Every file under `dir` with its bytes (links not followed).
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let t = e.file_type().unwrap();
        if t.is_dir() {
            out.extend(snapshot(&e.path()));
        } else {
            out.push((e.path(), std::fs::read(e.path()).unwrap_or_default()));
        }
    }
    out.sort();
    out
}

#[test]
fn a_link_in_a_layout_is_refused_naming_it_and_nothing_outside_changes() {
    for part in ["index.json", "oci-layout", "blobs", "blobs/sha256", ""] {
        for shape in ["absolute", "relative", "loop"] {
            let tmp = tempfile::tempdir().unwrap();
            let root = tmp.path().join("layout");
            let layout = Layout::new(&root);
            layout.tag_manifest("a", &blob(b"{\"a\":1}")).unwrap();
            // A copy of the layout outside, which a link points to.
            let outside = tmp.path().join("outside");
            std::fs::create_dir_all(&outside).unwrap();
            let status = std::process::Command::new("cp")
                .arg("-a")
                .arg(format!("{}/.", root.display()))
                .arg(&outside)
                .status()
                .unwrap();
            assert!(status.success());
            let link = if part.is_empty() {
                root.clone()
            } else {
                root.join(part)
            };
            if link.is_dir() {
                std::fs::remove_dir_all(&link).unwrap();
            } else {
                std::fs::remove_file(&link).unwrap();
            }
            let depth = part.matches('/').count();
            let to = match shape {
                "absolute" => outside.join(part).display().to_string(),
                "relative" => format!(
                    "{}outside/{part}",
                    "../".repeat(depth + usize::from(!part.is_empty()))
                ),
                _ => link.file_name().unwrap().to_string_lossy().into_owned(),
            };
            symlink(&to, &link).unwrap();
            let before = snapshot(&outside);
            let err = layout
                .tag_manifest("b", &blob(b"{\"b\":2}"))
                .expect_err(&format!("{part} {shape}"));
            let msg = err.to_string();
            assert!(
                matches!(err, OciError::Link { .. }),
                "{part} {shape}: {msg}"
            );
            assert!(
                msg.contains(&format!("{} is a symbolic link to {to} (", link.display())),
                "{part} {shape}: {msg}"
            );
            assert!(msg.len() < 500, "{msg}");
            let read = if part.starts_with("blobs") {
                layout.has_blob(&blob(b"{\"a\":1}").digest).map(|_| ())
            } else {
                layout.resolve("a").map(|_| ())
            };
            assert!(read.is_err(), "{part} {shape}: read through");
            assert_eq!(snapshot(&outside), before, "{part} {shape}: wrote outside");
        }
    }
}
