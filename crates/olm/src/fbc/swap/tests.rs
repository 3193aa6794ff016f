//! The rules after a lost swap: which moves conflict, what an image's new catalog changed, and
//! the pauses between retries.

use super::*;

fn paths(root: &str, p: &[&str]) -> Moved {
    Moved::Paths {
        root: root.into(),
        paths: p.iter().map(|s| s.to_string()).collect(),
    }
}

const NONE: &[String] = &[];

fn ours(files: &[String]) -> Ours<'_> {
    Ours {
        package: "op",
        files,
    }
}

#[test]
fn other_packages_folders_and_files_outside_the_catalog_are_reapplied() {
    let moved = paths(
        "catalog",
        &[
            "catalog/other/catalog.yaml",
            "catalog/opx/catalog.yaml",
            "README.md",
            ".github/workflows/ci.yaml",
            "catalogs/op/catalog.yaml",
            "catalog/.indexignore",
            "catalog/notes.txt",
        ],
    );
    assert_eq!(after_move(&moved, &ours(NONE)), Retry::Reapply);
    // The catalog at the repository's root: the same rule under "".
    let moved = paths("", &["other/catalog.yaml", "README.md"]);
    assert_eq!(after_move(&moved, &ours(NONE)), Retry::Reapply);
}

#[test]
fn our_folder_a_catalog_file_at_the_root_or_a_file_we_read_is_decided_again() {
    for (root, path) in [
        ("catalog", "catalog/op/catalog.yaml"),
        ("catalog", "catalog/op/extra/more.json"),
        ("catalog/", "catalog/index.yaml"),
        ("catalog", "catalog/op.yaml"),
        ("catalog", "catalog"),
        ("", "index.json"),
        ("", "op/catalog.yaml"),
    ] {
        assert_eq!(
            after_move(&paths(root, &[path]), &ours(NONE)),
            Retry::Decide {
                because: format!("{path} changed")
            },
            "{root} {path}"
        );
    }
    // A file of another folder that held our documents when the release read them.
    let files = ["shared/catalog.yaml".to_string()];
    let moved = paths("catalog", &["catalog/shared/catalog.yaml"]);
    assert!(matches!(
        after_move(&moved, &ours(&files)),
        Retry::Decide { .. }
    ));
    assert_eq!(after_move(&moved, &ours(NONE)), Retry::Reapply);
}

#[test]
fn packages_and_unknown_moves() {
    let moved = Moved::Packages(vec!["a".into(), "b".into()]);
    assert_eq!(after_move(&moved, &ours(NONE)), Retry::Reapply);
    let moved = Moved::Packages(vec!["a".into(), "op".into()]);
    assert_eq!(
        after_move(&moved, &ours(NONE)),
        Retry::Decide {
            because: "package op changed".into()
        }
    );
    assert!(matches!(
        after_move(&Moved::Unknown, &ours(NONE)),
        Retry::Decide { .. }
    ));
}

fn file(path: &str, text: &str) -> (String, Vec<u8>) {
    (path.to_string(), text.as_bytes().to_vec())
}

#[test]
fn an_image_catalog_names_the_packages_whose_files_changed() {
    let a = "schema: olm.package\nname: a\n---\nschema: olm.channel\npackage: a\nname: stable\nentries: []\n";
    let a2 = "schema: olm.package\nname: a\ndefaultChannel: stable\n";
    let b = "schema: olm.package\nname: b\n";
    let op = "schema: olm.package\nname: op\n";
    let old = [file("a/catalog.yaml", a), file("op/catalog.yaml", op)];
    // a changed, b was added, op is the same, a hidden file and a non-catalog file changed.
    let new = [
        file("a/catalog.yaml", a2),
        file(
            "b/catalog.json",
            "{\"schema\":\"olm.package\",\"name\":\"b\"}",
        ),
        file("op/catalog.yaml", op),
        file(".hidden.yaml", "not: [parsed"),
        file("op/README.md", "x"),
    ];
    assert_eq!(
        packages_moved(&old, &new),
        Moved::Packages(vec!["a".into(), "b".into()])
    );
    // A file holding two packages' documents: both moved.
    let both = format!("{b}---\n{op}");
    let new = [file("a/catalog.yaml", a), file("op/catalog.yaml", &both)];
    assert_eq!(
        packages_moved(&old, &new),
        Moved::Packages(vec!["b".into(), "op".into()])
    );
    // Removed: its packages moved.
    assert_eq!(
        packages_moved(&old, &old[..1]),
        Moved::Packages(vec!["op".into()])
    );
    // A changed file that does not parse: cannot tell.
    let broken = [file("a/catalog.yaml", "schema: [x"), old[1].clone()];
    assert_eq!(packages_moved(&old, &broken), Moved::Unknown);
    assert_eq!(packages_moved(&old, &old), Moved::Packages(Vec::new()));
}

#[test]
fn pauses_double_with_jitter_until_the_deadline_or_the_retries() {
    let p = Patience {
        deadline: Duration::from_secs(10),
        retries: None,
    };
    let at = |retry, jitter| pause(&p, retry, Duration::ZERO, jitter).unwrap();
    assert_eq!(at(1, 0.0), Duration::ZERO);
    assert_eq!(at(1, 1.0), Duration::from_millis(100));
    assert_eq!(at(2, 0.5), Duration::from_millis(100));
    assert_eq!(at(3, 1.0), Duration::from_millis(400));
    // Capped at MAX_PAUSE, however many retries.
    assert_eq!(at(40, 1.0), MAX_PAUSE);
    assert_eq!(at(40, 0.5), MAX_PAUSE / 2);
    // The deadline: no pause that would end after it.
    assert_eq!(
        pause(&p, 1, Duration::from_millis(9_950), 0.5),
        Some(Duration::from_millis(50))
    );
    assert_eq!(pause(&p, 1, Duration::from_millis(9_951), 0.5), None);
    assert_eq!(pause(&p, 1, Duration::from_secs(11), 0.0), None);
    // A count given: at most that many retries, within the deadline too.
    let counted = Patience {
        retries: Some(2),
        ..p
    };
    assert!(pause(&counted, 2, Duration::ZERO, 0.3).is_some());
    assert_eq!(pause(&counted, 3, Duration::ZERO, 0.3), None);
    assert_eq!(pause(&counted, 1, Duration::from_secs(10), 0.3), None);
}
