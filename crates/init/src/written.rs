//! What `init` wrote, so a rerun can tell its own output from the user's edits: the sha256 of
//! each file as `init` last wrote it (or found it already as it would write it), kept in
//! [`PATH`] in the format of `sha256sum`, so `sha256sum -c pipelines/.olm-release-init.sha256`
//! from the repository shows which files were changed since. A file whose bytes still have the
//! recorded digest is `init`'s to refresh; one that does not is the user's, and a rerun leaves
//! it alone and says so.

use std::collections::BTreeMap;
use std::path::Path;

use olm_release_base::digest::sha256_hex;

/// The record, relative to the repository (or to `--out`).
pub(crate) const PATH: &str = "pipelines/.olm-release-init.sha256";

/// Digests by path (relative to the repository).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Written(pub BTreeMap<String, String>);

impl Written {
    /// The record under `root`; empty when there is none (or it does not read).
    pub fn read(root: &Path) -> Written {
        let text = std::fs::read_to_string(root.join(PATH)).unwrap_or_default();
        Written(
            text.lines()
                .filter_map(|l| l.split_once("  "))
                .filter(|(d, p)| d.len() == 64 && !p.is_empty())
                .map(|(d, p)| (p.to_string(), d.to_string()))
                .collect(),
        )
    }

    /// Whether `bytes` are what `init` last wrote at `path`.
    pub fn is_ours(&self, path: &str, bytes: &[u8]) -> bool {
        self.0.get(path).is_some_and(|d| *d == sha256_hex(bytes))
    }

    /// Records `text` as what `init` wrote at `path`.
    pub fn record(&mut self, path: &str, text: &[u8]) {
        self.0.insert(path.to_string(), sha256_hex(text));
    }

    /// The record's text, one `DIGEST  PATH` line a file, sorted by path.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for (p, d) in &self.0 {
            out.push_str(&format!("{d}  {p}\n"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_back_what_it_writes_and_tells_an_edit() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = Written::default();
        w.record("pipelines/release.yaml", b"name: x\n");
        std::fs::create_dir_all(dir.path().join("pipelines")).unwrap();
        std::fs::write(dir.path().join(PATH), w.text()).unwrap();
        let back = Written::read(dir.path());
        assert_eq!(back, w);
        assert!(back.is_ours("pipelines/release.yaml", b"name: x\n"));
        assert!(!back.is_ours("pipelines/release.yaml", b"name: y\n"));
        assert!(!back.is_ours(".travis.yml", b"name: x\n"));
    }
}
