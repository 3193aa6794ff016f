//! A catalog a release writes back follows no symbolic link: a package folder, a catalog file or
//! the catalog root that is a link (absolute, relative, or a loop) is refused by the read, the
//! plan and the write, naming the link and where it points, and nothing outside is read or
//! written.

use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use olm_release_olm::fbc::disk;

const PACKAGE: &str = "schema: olm.package\nname: pkg\ndefaultChannel: stable\n";
const OUTSIDE: &str =
    "schema: olm.package\nname: pkg\ndefaultChannel: stable\n# not part of the catalog\n";

/// A temporary folder with `outside/` (a package folder and a file no catalog holds) and
/// `catalog/`.
fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("outside");
    std::fs::create_dir_all(outside.join("pkg")).unwrap();
    std::fs::write(outside.join("pkg/catalog.yaml"), OUTSIDE).unwrap();
    let catalog = tmp.path().join("catalog");
    std::fs::create_dir_all(&catalog).unwrap();
    (tmp, outside, catalog)
}

fn rendered() -> BTreeMap<String, String> {
    BTreeMap::from([("pkg/catalog.yaml".to_string(), PACKAGE.to_string())])
}

/// Every file under `dir`, with its bytes.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if e.file_type().unwrap().is_dir() {
            out.extend(snapshot(&p));
        } else {
            out.push((p.clone(), std::fs::read(&p).unwrap_or_default()));
        }
    }
    out.sort();
    out
}

/// The read, the plan and the write of `root` each refuse the link `link`, pointing to `to`,
/// and leave `outside` as it was.
fn refused_everywhere(root: &Path, link: &Path, to: &str, outside: &Path) {
    let before = snapshot(outside);
    let read = disk::read_package(root, "pkg").expect_err("the read must refuse the link");
    let plan = disk::plan(root, &[], &rendered()).expect_err("the plan must refuse the link");
    let expected = format!("{} is a symbolic link to {to} (", link.display());
    for e in [read.to_string(), plan.to_string()] {
        assert!(e.starts_with(&expected), "{e}\nexpected: {expected}");
        assert!(e.len() < 400, "a long message: {e}");
    }
    assert_eq!(
        read.class(),
        olm_release_base::Class::Input,
        "a link is the catalog's content, exit 2"
    );
    assert_eq!(snapshot(outside), before, "something outside changed");
}

use olm_release_base::Classified as _;

#[test]
fn a_package_folder_that_is_a_link_is_refused() {
    for (name, to) in [
        ("absolute", None),
        ("relative", Some("../outside/pkg")),
        ("loop", Some("pkg")),
    ] {
        let (_tmp, outside, root) = setup();
        let to = to.map_or_else(|| outside.join("pkg").display().to_string(), String::from);
        symlink(&to, root.join("pkg")).unwrap();
        refused_everywhere(&root, &root.join("pkg"), &to, &outside);
        let e = disk::read_package(&root, "pkg").unwrap_err().to_string();
        let leads = match name {
            "loop" => "(a loop of links)".to_string(),
            _ => format!("(outside {})", root.display()),
        };
        assert!(e.contains(&leads), "{name}: {e}");
    }
}

#[test]
fn a_catalog_file_that_is_a_link_is_refused_and_never_replaced() {
    for to in [
        None,
        Some("../../outside/pkg/catalog.yaml"),
        Some("catalog.yaml"),
    ] {
        let (_tmp, outside, root) = setup();
        std::fs::create_dir_all(root.join("pkg")).unwrap();
        let to = to.map_or_else(
            || outside.join("pkg/catalog.yaml").display().to_string(),
            String::from,
        );
        let file = root.join("pkg/catalog.yaml");
        symlink(&to, &file).unwrap();
        refused_everywhere(&root, &file, &to, &outside);
        assert!(
            std::fs::symlink_metadata(&file)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }
}

#[test]
fn a_catalog_root_that_is_a_link_is_refused() {
    for to in [None, Some("outside"), Some("catalog")] {
        let (tmp, outside, _) = setup();
        let root = tmp.path().join("linked");
        let to = to.map_or_else(|| outside.display().to_string(), String::from);
        if to == "catalog" {
            symlink("linked", &root).unwrap();
            refused_everywhere(&root, &root, "linked", &outside);
        } else {
            symlink(&to, &root).unwrap();
            refused_everywhere(&root, &root, &to, &outside);
        }
    }
}

#[test]
fn a_link_that_appears_between_the_plan_and_the_write_is_refused_by_the_write() {
    let (_tmp, outside, root) = setup();
    let changes = disk::plan(&root, &[], &rendered()).unwrap();
    assert_eq!(changes.len(), 1);
    symlink(outside.join("pkg"), root.join("pkg")).unwrap();
    let before = snapshot(&outside);
    let e = disk::apply(&root, &changes).unwrap_err().to_string();
    assert!(e.contains("pkg is a symbolic link to"), "{e}");
    assert_eq!(snapshot(&outside), before);
    // Without the link, the same changes are written.
    std::fs::remove_file(root.join("pkg")).unwrap();
    disk::apply(&root, &changes).unwrap();
    assert_eq!(
        std::fs::read_to_string(root.join("pkg/catalog.yaml")).unwrap(),
        PACKAGE
    );
}

#[test]
fn other_readers_still_follow_links_and_hidden_entries_are_not_looked_at() {
    let (_tmp, outside, root) = setup();
    symlink(outside.join("pkg"), root.join("pkg")).unwrap();
    // `graph` and `verify` read folders the user names, links and all.
    assert_eq!(
        disk::read_summary(&root).unwrap().files,
        ["pkg/catalog.yaml"]
    );
    // A hidden link is neither read nor written by a release.
    let (_tmp, outside, root) = setup();
    symlink(&outside, root.join(".cache")).unwrap();
    assert!(disk::read_package(&root, "pkg").is_ok());
}
