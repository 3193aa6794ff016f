//! Catalog targets under hostile content (issue 35, item 1): a symbolic link in the catalog
//! path — the catalog root, a package folder, a catalog file; absolute, relative or a loop — on
//! a `dir:` folder, a git branch (a bare repository with the real `git`), an `oci:` layout, and
//! the scratch folder under the output folder. The run stops before any write, naming the link
//! and where it points, in a short message; nothing outside changes and nothing is pushed.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::catalog_git::{bare, commits, git_out, pipeline};
use crate::support::{Work, assert_code, stderr};

const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");
/// What the file outside the target holds: a catalog file with a line of its own.
const OUTSIDE: &str =
    "schema: olm.package\nname: sample-operator\ndefaultChannel: alpha\n# OUTSIDE-ONLY line\n";

fn run(work: &Work, file: &str, extra: &[&str]) -> std::process::Output {
    work.run(
        &["run", file, "--var", "VERSION=0.1.0"]
            .iter()
            .copied()
            .chain(extra.iter().copied())
            .collect::<Vec<_>>(),
        &[EPOCH],
    )
}

/// `outside/sample-operator/catalog.yaml` in the work folder; the folder.
fn outside(work: &Work) -> PathBuf {
    let dir = work.path().join("outside");
    std::fs::create_dir_all(dir.join("sample-operator")).unwrap();
    std::fs::write(dir.join("sample-operator/catalog.yaml"), OUTSIDE).unwrap();
    dir
}

/// Every file under `dir`, with its bytes.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_type().unwrap().is_dir() {
                out.extend(snapshot(&e.path()));
            } else {
                out.push((e.path(), std::fs::read(e.path()).unwrap_or_default()));
            }
        }
    }
    out.sort();
    out
}

/// The shapes: (what is a link, relative to the catalog root's parent, with the catalog root
/// named `catalog`), each pointing (absolute, relative, loop).
const SHAPES: [&str; 3] = [
    "catalog",
    "catalog/sample-operator",
    "catalog/sample-operator/catalog.yaml",
];

/// Where the link `shape` points for `how`: into `outside` (absolute, or relative from the
/// link's folder, `up` folders below `outside`'s parent), or to itself.
fn link_target(shape: &str, how: &str, outside: &Path, up: usize) -> String {
    let inner = shape
        .strip_prefix("catalog")
        .unwrap()
        .trim_start_matches('/');
    let name = Path::new(shape)
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    match how {
        "absolute" => outside
            .join(inner)
            .display()
            .to_string()
            .trim_end_matches('/')
            .to_string(),
        "relative" => {
            let depth = shape.matches('/').count() + up;
            format!("{}outside/{inner}", "../".repeat(depth))
                .trim_end_matches('/')
                .to_string()
        }
        _ => name,
    }
}

/// The run refused the link at `link` pointing to `to`: exit 2, a short message naming both.
fn assert_refused(out: &std::process::Output, link: &str, to: &str, case: &str) {
    assert_code(out, 2);
    let err = stderr(out);
    let line = err
        .lines()
        .find(|l| l.contains("is a symbolic link to"))
        .unwrap_or_else(|| panic!("{case}: no link named in\n{err}"));
    assert!(
        line.contains(&format!("{link} is a symbolic link to {to} (")),
        "{case}: {line}"
    );
    assert!(line.len() < 600, "{case}: a long message: {line}");
    assert!(!err.contains("OUTSIDE-ONLY"), "{case}: {err}");
}

#[test]
fn a_link_in_a_dir_target_stops_the_run_before_any_write() {
    for shape in SHAPES {
        for how in ["absolute", "relative", "loop"] {
            let case = format!("dir: {shape} {how}");
            let work = Work::sample();
            let outside = outside(&work);
            let parent = work.path().join("target");
            std::fs::create_dir_all(parent.join(Path::new(shape).parent().unwrap())).unwrap();
            let link = parent.join(shape);
            let to = link_target(shape, how, &outside, 0);
            symlink(&to, &link).unwrap();
            let file = pipeline(&work, "dir.yaml", "dir:target/catalog", "");
            let before = snapshot(&outside);
            let out = run(&work, &file, &[]);
            assert_refused(&out, &format!("./target/{shape}"), &to, &case);
            assert_eq!(snapshot(&outside), before, "{case}: wrote outside");
            assert!(
                std::fs::symlink_metadata(&link)
                    .unwrap()
                    .file_type()
                    .is_symlink(),
                "{case}"
            );
        }
    }
}

/// Commits `links` (path, target) on branch `olm-catalog` of the bare repository `repo`.
fn branch_with_links(work: &Work, repo: &Path, links: &[(&str, &str)]) {
    let tree = work.path().join("tree");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .arg("-C")
            .arg(&tree)
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
    };
    std::fs::create_dir_all(&tree).unwrap();
    git(&["init", "-q", "-b", "olm-catalog"]);
    std::fs::write(tree.join("README.md"), "catalog\n").unwrap();
    for (path, to) in links {
        let at = tree.join(path);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        symlink(to, &at).unwrap();
    }
    git(&["add", "-A"]);
    git(&[
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.com",
        "commit",
        "-qm",
        "links",
    ]);
    git(&["push", "-q", repo.to_str().unwrap(), "olm-catalog"]);
}

#[test]
fn a_link_on_a_git_branch_stops_the_run_and_nothing_is_pushed() {
    for shape in SHAPES {
        for how in ["absolute", "relative", "loop"] {
            let case = format!("git: {shape} {how}");
            let work = Work::sample();
            let outside = outside(&work);
            let repo = work.path().join("catalog.git");
            let url = bare(&repo);
            // The checkout is _out/sample-catalog/catalog-git: three folders below the work
            // folder, where `outside` is.
            let to = link_target(shape, how, &outside, 3);
            branch_with_links(&work, &repo, &[(shape, &to)]);
            let tip = git_out(&repo, &["rev-parse", "olm-catalog"]);
            let file = pipeline(
                &work,
                "git.yaml",
                &format!("git:{url}"),
                "  branch: olm-catalog\n",
            );
            let before = snapshot(&outside);
            let out = run(&work, &file, &[]);
            let shown = format!("_out/sample-catalog/catalog-git/{shape}");
            assert_refused(&out, &shown, &to, &case);
            assert_eq!(snapshot(&outside), before, "{case}: wrote outside");
            assert_eq!(
                git_out(&repo, &["rev-parse", "olm-catalog"]),
                tip,
                "{case}: pushed"
            );
            assert_eq!(commits(&repo, "olm-catalog"), 1, "{case}");
        }
    }
}

#[test]
fn a_link_in_an_oci_layout_target_stops_the_run_before_any_write() {
    for part in ["", "index.json", "blobs"] {
        for how in ["absolute", "relative", "loop"] {
            let case = format!("oci: {part:?} {how}");
            let work = Work::sample();
            let base_dir = work.path().join("_out/opm-base");
            let (base, _) = crate::catalog_image::base_layout(&base_dir);
            // A layout outside, which the link in the target points to.
            let outside = work.path().join("outside-layout");
            crate::catalog_image::base_layout(&outside);
            let target = work.path().join("target-layout");
            let link = if part.is_empty() {
                target.clone()
            } else {
                crate::catalog_image::base_layout(&target);
                let p = target.join(part);
                if p.is_dir() {
                    std::fs::remove_dir_all(&p).unwrap();
                } else {
                    std::fs::remove_file(&p).unwrap();
                }
                p
            };
            let to = match how {
                "absolute" if part.is_empty() => outside.display().to_string(),
                "absolute" => outside.join(part).display().to_string(),
                "relative" if part.is_empty() => "outside-layout".to_string(),
                "relative" => format!("../outside-layout/{part}"),
                _ => link.file_name().unwrap().to_string_lossy().into_owned(),
            };
            symlink(&to, &link).unwrap();
            let file = pipeline(
                &work,
                "image.yaml",
                "image:oci:target-layout:latest",
                &format!("  base_image: oci:_out/opm-base@{base}\n"),
            );
            let before = snapshot(&outside);
            let out = run(&work, &file, &[]);
            let shown = format!("./target-layout/{part}");
            assert_refused(&out, shown.trim_end_matches('/'), &to, &case);
            assert_eq!(snapshot(&outside), before, "{case}: wrote outside");
        }
    }
}

#[test]
fn a_scratch_folder_that_is_a_link_in_the_output_folder_is_replaced_never_written_through() {
    let work = Work::sample();
    let repo = work.path().join("catalog.git");
    let url = bare(&repo);
    let outside = outside(&work);
    std::fs::create_dir_all(work.path().join("_out/sample-catalog")).unwrap();
    let scratch = work.path().join("_out/sample-catalog/catalog-git");
    symlink(&outside, &scratch).unwrap();
    let file = pipeline(
        &work,
        "git.yaml",
        &format!("git:{url}"),
        "  branch: olm-catalog\n",
    );
    let before = snapshot(&outside);
    assert_code(&run(&work, &file, &[]), 0);
    assert_eq!(snapshot(&outside), before, "wrote through the scratch link");
    assert!(
        !std::fs::symlink_metadata(&scratch)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(commits(&repo, "olm-catalog"), 1);
}
