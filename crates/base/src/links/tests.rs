use std::os::unix::fs::symlink;

use super::*;

fn refused(r: Result<PathBuf, Refused>) -> String {
    match r {
        Err(e @ Refused::Link { .. }) => e.to_string(),
        other => panic!("expected a link refused, got {other:?}"),
    }
}

#[test]
fn a_path_without_links_is_joined_and_missing_parts_end_the_check() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("catalog");
    std::fs::create_dir_all(root.join("pkg")).unwrap();
    assert_eq!(
        join(&root, "pkg/catalog.yaml").unwrap(),
        root.join("pkg/catalog.yaml")
    );
    assert_eq!(
        join(&root, "new/a/b.yaml").unwrap(),
        root.join("new/a/b.yaml")
    );
    assert_eq!(
        join(&tmp.path().join("none"), "x").unwrap(),
        tmp.path().join("none/x")
    );
    assert!(matches!(join(&root, "../x"), Err(Refused::Io { .. })));
    assert!(matches!(
        join(&root, "/etc/passwd"),
        Err(Refused::Io { .. })
    ));
}

#[test]
fn links_anywhere_on_the_way_are_refused_naming_the_link_and_its_target() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret.yaml"), "x").unwrap();
    let root = tmp.path().join("catalog");
    std::fs::create_dir_all(root.join("pkg")).unwrap();
    std::fs::create_dir_all(root.join("kept")).unwrap();

    symlink(&outside, root.join("abs")).unwrap();
    let msg = refused(join(&root, "abs/catalog.yaml"));
    assert!(
        msg.starts_with(&format!(
            "{} is a symbolic link to {} (outside {})",
            root.join("abs").display(),
            outside.display(),
            root.display()
        )),
        "{msg}"
    );

    symlink("../outside", root.join("rel")).unwrap();
    let msg = refused(join(&root, "rel/catalog.yaml"));
    assert!(
        msg.contains("symbolic link to ../outside (outside"),
        "{msg}"
    );

    symlink(outside.join("secret.yaml"), root.join("pkg/catalog.yaml")).unwrap();
    let msg = refused(join(&root, "pkg/catalog.yaml"));
    assert!(
        msg.contains("pkg/catalog.yaml is a symbolic link to"),
        "{msg}"
    );

    symlink("kept", root.join("inner")).unwrap();
    let msg = refused(join(&root, "inner/catalog.yaml"));
    assert!(msg.contains("(inside "), "{msg}");

    symlink("loop", root.join("loop")).unwrap();
    let msg = refused(join(&root, "loop/catalog.yaml"));
    assert!(
        msg.contains("(a loop of links)") && msg.len() < 300,
        "{msg}"
    );

    symlink("gone", root.join("dangling")).unwrap();
    let msg = refused(join(&root, "dangling"));
    assert!(msg.contains("(which does not exist)"), "{msg}");

    let linked_root = tmp.path().join("linked");
    symlink(&outside, &linked_root).unwrap();
    let msg = refused(join(&linked_root, "pkg"));
    assert!(msg.contains("(the folder itself is a link)"), "{msg}");
}

#[test]
fn paths_from_the_command_line_are_checked_from_the_working_folder_or_at_their_end() {
    let tmp = tempfile::tempdir().unwrap();
    let real = tmp.path().join("real");
    std::fs::create_dir_all(real.join("sub")).unwrap();
    let link = tmp.path().join("link");
    symlink(&real, &link).unwrap();
    // Absolute: only the last component.
    assert!(no_link_in(&link.join("sub")).is_ok());
    assert!(matches!(no_link_in(&link), Err(Refused::Link { .. })));
    assert!(no_link_in(&real.join("missing/deeper")).is_ok());
}
