//! Kustomize, as far as `init` needs it: which files are patches (never objects of their own),
//! and the built output of a kubebuilder `config/default` when `kustomize` or `kubectl` is
//! installed.
//!
//! A kubebuilder project's `config/manager/manager.yaml` is only a base: `config/default`
//! patches it (a proxy sidecar, webhook certificates, a name prefix, common labels that make
//! its selector). A file listed under `patches`, `patchesStrategicMerge` or `patchesJson6902`
//! of any `kustomization.yaml` is such a fragment (jaeger's `manager_auth_proxy_patch.yaml` is a
//! Deployment with no selector, no replicas and a container without an image), so it is never
//! taken for an object. The complete objects are what `kustomize build` prints; `init` runs it
//! (or `kubectl kustomize`) when one of them is installed, and otherwise says what to run.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use serde_yaml_ng::Value;

use super::scan::Scan;

/// Files of `scan` that some kustomization lists as a patch, relative to the root.
pub(crate) fn patches(scan: &Scan) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for f in scan.yaml.iter().filter(|f| {
        let n = f.name();
        n == "kustomization.yaml" || n == "kustomization.yml" || n == "Kustomization"
    }) {
        let Some(doc) = f.docs.first() else { continue };
        let mut paths = Vec::new();
        if let Some(list) = doc
            .get("patchesStrategicMerge")
            .and_then(Value::as_sequence)
        {
            paths.extend(list.iter().filter_map(Value::as_str));
        }
        for key in ["patches", "patchesJson6902"] {
            if let Some(list) = doc.get(key).and_then(Value::as_sequence) {
                paths.extend(
                    list.iter()
                        .filter_map(|p| p.get("path").and_then(Value::as_str)),
                );
            }
        }
        for p in paths {
            if let Some(rel) = join(f.dir(), p) {
                out.insert(rel);
            }
        }
    }
    out
}

/// `dir/rel` with `.` and `..` resolved; `None` when it leaves the repository.
pub(crate) fn join(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// The tool that builds a kustomization here: `kustomize build`, else `kubectl kustomize`.
pub(crate) fn tool() -> Option<(&'static str, &'static [&'static str])> {
    let works = |program: &str, args: &[&str]| {
        Command::new(program)
            .args(args)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if works("kustomize", &["version"]) {
        Some(("kustomize", &["build"]))
    } else if works("kubectl", &["kustomize", "--help"]) {
        Some(("kubectl", &["kustomize"]))
    } else {
        None
    }
}

/// The command that builds `dir` (relative to the repository), as a person would type it.
pub(crate) fn command(dir: &str) -> String {
    match tool() {
        Some((program, args)) => format!("{program} {} {dir}", args.join(" ")),
        None => format!("kustomize build {dir}"),
    }
}

/// Builds the kustomization in `root/dir`; `Err` says why not (no tool, or its message).
pub(crate) fn build(root: &Path, dir: &str) -> Result<String, String> {
    let (program, args) = tool().ok_or_else(|| {
        format!("neither kustomize nor kubectl is installed, so {dir} was not built")
    })?;
    let out = Command::new(program)
        .args(args)
        .arg(dir)
        .current_dir(root)
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let why = match missing(&err, root) {
            Some(path) => format!("{path} does not exist"),
            None => err.lines().next().unwrap_or("").trim().to_string(),
        };
        return Err(format!("{program} {} {dir} failed: {why}", args.join(" ")));
    }
    String::from_utf8(out.stdout).map_err(|_| format!("{program} printed non-UTF-8 output"))
}

/// What to do when `build` failed: install a tool when there is none, else fix what the
/// build names (often a folder the Makefile generates before `make bundle`).
pub(crate) fn fix() -> &'static str {
    match tool() {
        None => "install kustomize (or kubectl) and run init again",
        Some(_) => {
            "make the build succeed (a folder it names may be one the Makefile generates first, such as config/crd/bases from `make manifests`) and run init again"
        }
    }
}

/// [`fix`] for the release's check of a kustomize snapshot (in CI, before `olm-release run`).
pub(crate) fn fix_before_release() -> &'static str {
    match tool() {
        None => "install kustomize, or kubectl, which has it built in",
        Some(_) => {
            "make the build succeed first: a folder it names may be one the Makefile generates, such as config/crd/bases from `make manifests`, which the job must run before the release"
        }
    }
}

/// The path, relative to `root`, of the file or folder a failed build names as missing
/// (kustomize says `lstat PATH: no such file or directory` for a folder, `open PATH: …` for a
/// file).
fn missing(stderr: &str, root: &Path) -> Option<String> {
    let canonical = root.canonicalize().ok();
    stderr
        .split(": no such file or directory")
        .filter_map(|before| before.split_whitespace().last())
        .find_map(|token| {
            let path = Path::new(token.trim_matches(['\'', '"']));
            let rel = path
                .strip_prefix(root)
                .ok()
                .or_else(|| path.strip_prefix(canonical.as_ref()?).ok())?;
            Some(rel.to_string_lossy().replace('\\', "/"))
        })
}

#[cfg(test)]
mod tests {
    use super::{join, missing};

    #[test]
    fn names_the_missing_path_kustomize_reports() {
        let root = std::path::Path::new("/src/op");
        let stderr = "E1206 run.go:72] \"command failed\" err=\"accumulating resources: evalsymlink failure on '/src/op/config/crd/bases' : lstat /src/op/config/crd/bases: no such file or directory\": must build at directory";
        assert_eq!(missing(stderr, root).as_deref(), Some("config/crd/bases"));
        assert_eq!(missing("some other failure", root), None);
        assert_eq!(
            missing("lstat /elsewhere/x: no such file or directory", root),
            None
        );
    }

    #[test]
    fn joins_relative_paths() {
        assert_eq!(
            join("config/default", "patch.yaml").as_deref(),
            Some("config/default/patch.yaml")
        );
        assert_eq!(
            join("config/default", "../manager/m.yaml").as_deref(),
            Some("config/manager/m.yaml")
        );
        assert_eq!(join("", "./a.yaml").as_deref(), Some("a.yaml"));
        assert_eq!(join("a", "../../x"), None);
    }
}
