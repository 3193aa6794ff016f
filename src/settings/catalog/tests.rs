//! `catalog.target` parsed: each kind of target, and what is refused.
use super::*;

#[test]
fn a_parent_step_does_not_make_a_folder_inside() {
    assert!(normal(Path::new("/a/b/./c")).starts_with("/a/b"));
    assert!(!normal(Path::new("/a/b/../../etc")).starts_with("/a/b"));
}

#[test]
fn targets_of_each_kind_parse() {
    let src = Path::new("/src");
    let out = Path::new("/src/_out");
    assert_eq!(
        parse_target("dir:catalog", src, out, false),
        Ok(Parsed::Dir("/src/catalog".into()))
    );
    assert_eq!(
        parse_target("git:https://github.com/acme/op.git", src, out, false),
        Ok(Parsed::Git("https://github.com/acme/op.git".into()))
    );
    assert_eq!(
        parse_target("git:../catalogs.git", src, out, false),
        Ok(Parsed::Git("/src/../catalogs.git".into()))
    );
    assert_eq!(
        parse_target("git:git@github.com:acme/op.git", src, out, false),
        Ok(Parsed::Git("git@github.com:acme/op.git".into()))
    );
    assert!(
        parse_target("git:https://user:pw@github.com/a/b.git", src, out, false)
            .unwrap_err()
            .contains("credentials")
    );
    assert!(
        parse_target("git:https://tok@github.com/a/b.git", src, out, false)
            .unwrap_err()
            .contains("GIT_USERNAME")
    );
    assert!(
        parse_target("git:http://git.example.com/a.git", src, out, false)
            .unwrap_err()
            .contains("--insecure")
    );
    let Ok(Parsed::Image(target, tag)) =
        parse_target("image:quay.io/acme/catalog:latest", src, out, false)
    else {
        panic!()
    };
    assert_eq!(
        (target.describe().as_str(), tag.as_str()),
        ("quay.io/acme/catalog", "latest")
    );
    let Ok(Parsed::Image(target, tag)) =
        parse_target("image:127.0.0.1:5000/acme/catalog:v1", src, out, false)
    else {
        panic!()
    };
    assert_eq!(
        (target.describe().as_str(), tag.as_str()),
        ("127.0.0.1:5000/acme/catalog", "v1")
    );
    let Ok(Parsed::Image(target, tag)) = parse_target("image:oci:_out/cat:v1", src, out, false)
    else {
        panic!()
    };
    assert_eq!(
        (target, tag.as_str()),
        (ImageLocation::Layout("/src/_out/cat".into()), "v1")
    );
    assert!(
        parse_target("image:quay.io/acme/catalog", src, out, false)
            .unwrap_err()
            .contains("no tag")
    );
    assert!(
        parse_target("image:127.0.0.1:5000/acme/catalog", src, out, false)
            .unwrap_err()
            .contains("no tag")
    );
    assert!(parse_target("catalog", src, out, false).is_err());
}
