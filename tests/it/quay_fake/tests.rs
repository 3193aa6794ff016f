//! Quay-only behaviour and faults, against the in-process fake: login, 401/403, the error
//! envelope and its string form, private repositories, the 50-item list cap, retries (5xx,
//! 429, dropped connections, a lost answer), timeouts, redirects to another host and answers
//! that are not the API's JSON. Each test checks what was or was not published.

use std::time::Duration;

use super::{Fake, FaultKind, READER, Route, WRITER, token};
use crate::appr::{PKG, pipeline_at, run, tarball, unique};
use crate::support::{Work, assert_code, stderr, stdout};

fn output(o: &std::process::Output) -> String {
    format!("{}{}", stderr(o), stdout(o))
}

/// No secret of either user appears anywhere in the output.
#[track_caller]
fn no_secrets(o: &std::process::Output) {
    let all = output(o);
    for u in [WRITER, READER] {
        let t = token(u);
        assert!(
            !all.contains(u.1) && !all.contains(&t[6..]),
            "a secret leaked:\n{all}"
        );
    }
}

fn login(user: (&'static str, &'static str)) -> [(&'static str, &'static str); 2] {
    [("QUAY_USERNAME", user.0), ("QUAY_PASSWORD", user.1)]
}

/// A fake, a work folder and a pipeline pointed at it (fast retries, short timeout).
fn setup(extra: &str) -> (Fake, Work, String, &'static str) {
    let fake = Fake::start();
    let work = Work::sample();
    let ns = unique("quay");
    let file = pipeline_at(&work, &fake.url, &ns, extra);
    (fake, work, ns, file)
}

#[test]
fn login_then_push_with_the_token_and_never_print_it() {
    let (fake, work, ns, file) = setup("");
    let o = run(&work, file, "0.1.0", &[], &login(WRITER));
    assert_code(&o, 0);
    no_secrets(&o);
    let seen = fake.seen();
    assert_eq!(seen[0].path, "/cnr/api/v1/users/login");
    let push = seen
        .iter()
        .find(|s| s.method == "POST" && s.path.ends_with(PKG))
        .unwrap();
    assert_eq!(push.authorization.as_deref(), Some(token(WRITER).as_str()));
    assert_eq!(fake.releases(&ns, PKG).len(), 1);
    // A ready token works the same, without a login call.
    let fake2 = Fake::start();
    let file = pipeline_at(&work, &fake2.url, &ns, "");
    let t = token(WRITER);
    let o = run(&work, file, "0.1.0", &[], &[("QUAY_TOKEN", &t)]);
    assert_code(&o, 0);
    no_secrets(&o);
    assert!(fake2.seen().iter().all(|s| !s.path.contains("login")));
}

#[test]
fn a_refused_login_stops_before_anything_is_pushed() {
    let (fake, work, ns, file) = setup("");
    let o = run(
        &work,
        file,
        "0.1.0",
        &[],
        &login((WRITER.0, "wrong-password-x")),
    );
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("logging in to") && err.contains("HTTP 401 unauthorized-access"),
        "{err}"
    );
    assert!(
        err.contains("QUAY_USERNAME") && !err.contains("wrong-password-x"),
        "{err}"
    );
    assert_eq!(fake.pushes(), 0);
    assert!(fake.releases(&ns, PKG).is_empty());
    // A token the registry does not accept: 401 on the first read, never retried.
    let o = run(
        &work,
        file,
        "0.1.0",
        &[],
        &[("QUAY_TOKEN", "basic bm9ib2R5Om5vcGU=")],
    );
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("HTTP 401") && !stderr(&o).contains("bm9ib2R5Om5vcGU"),
        "{}",
        stderr(&o)
    );
    // The KubeVirt 2019 failure: a token of "null" after a failed login is refused outright.
    let before = fake.seen().len();
    let o = run(&work, file, "0.1.0", &[], &[("QUAY_TOKEN", "null")]);
    assert_code(&o, 2);
    assert_eq!(fake.seen().len(), before);
}

#[test]
fn a_user_without_write_permission_gets_403_and_nothing_is_published() {
    let (fake, work, ns, file) = setup("");
    let o = run(&work, file, "0.1.0", &[], &login(READER));
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("HTTP 403 forbidden") && err.contains(r#""scopes":["push"]"#),
        "{err}"
    );
    assert!(
        err.contains("lack permission") && err.contains("nothing was published"),
        "{err}"
    );
    assert_eq!(fake.pushes(), 1, "a 403 is never retried");
    assert!(fake.releases(&ns, PKG).is_empty());
    no_secrets(&o);
}

#[test]
fn the_string_form_of_the_error_envelope_reads_clearly() {
    let (fake, work, ns, file) = setup("");
    fake.add_image_repo(&ns, PKG);
    let o = run(&work, file, "0.1.0", &[], &login(WRITER));
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains(
            "HTTP 405: Cannot push an application to an image repository with the same name"
        ),
        "{}",
        stderr(&o)
    );
    assert!(fake.releases(&ns, PKG).is_empty());
}

#[test]
fn private_repositories_need_credentials_to_read_and_are_never_mistaken_for_absent() {
    let (fake, work, ns, file) = setup("");
    assert_code(&run(&work, file, "0.1.0", &[], &login(WRITER)), 0);
    // Quay makes a repository created by a push private. Reading it anonymously must fail
    // loudly, not look like "no package yet" (which would publish without replaces).
    let o = run(&work, file, "0.2.0", &["--dry-run"], &[]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("HTTP 401 unauthorized-access") && err.contains("QUAY_TOKEN"),
        "{err}"
    );
    assert!(!err.contains("first release"), "{err}");
    // The namespace list hides it from anonymous callers too.
    let o = work.run(&["registry", "list", "--registry", &fake.url, &ns], &[]);
    assert!(
        stdout(&o).contains(": no packages (the namespace is empty"),
        "{}",
        stdout(&o)
    );
    let o = run(&work, file, "0.2.0", &[], &login(WRITER));
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains(&format!("{PKG}.v0.2.0 replaces {PKG}.v0.1.0")),
        "{}",
        stderr(&o)
    );
    assert_eq!(fake.releases(&ns, PKG).len(), 2);
}

#[test]
fn the_package_is_looked_up_by_name_past_the_fifty_item_list_cap() {
    let (fake, work, ns, file) = setup("");
    assert_code(&run(&work, file, "0.1.0", &[], &login(WRITER)), 0);
    let gz = std::fs::read(tarball(&work, "0.1.0")).unwrap();
    for i in 0..60 {
        // Sorted before ours, so the capped list never reaches it; one shares its prefix.
        fake.add_release(&ns, &format!("a-other-{i:02}"), "1.0.0", gz.clone(), false);
    }
    let o = work.run(
        &["registry", "list", "--registry", &fake.url, &ns],
        &login(WRITER),
    );
    assert_code(&o, 0);
    assert!(
        stdout(&o).contains("50 packages") && !stdout(&o).contains(PKG),
        "{}",
        stdout(&o)
    );
    assert!(stderr(&o).contains("at most 50"), "{}", stderr(&o));
    let lists = || {
        fake.seen()
            .iter()
            .filter(|s| s.path == "/cnr/api/v1/packages")
            .count()
    };
    let before = lists();
    let o = run(&work, file, "0.2.0", &[], &login(WRITER));
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains(&format!("{PKG}.v0.2.0 replaces {PKG}.v0.1.0")),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        lists(),
        before,
        "the pipeline never scans the namespace list"
    );
    assert_eq!(fake.releases(&ns, PKG).len(), 2);
}

#[test]
fn a_500_then_success_publishes_once() {
    let (fake, work, ns, file) = setup("  retries: 3\n");
    fake.fault(Route::Push, FaultKind::Status(500), 1);
    let o = run(&work, file, "0.1.0", &[], &login(WRITER));
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains("HTTP 500; retrying in"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fake.pushes(), 2);
    assert_eq!(fake.releases(&ns, PKG).len(), 1);
}

#[test]
fn a_429_waits_as_the_server_asks() {
    let (fake, work, ns, file) = setup("  retries: 2\n");
    fake.fault(Route::Push, FaultKind::RateLimit(1), 1);
    let o = run(&work, file, "0.1.0", &[], &login(WRITER));
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains("HTTP 429; retrying in 1.0s"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fake.releases(&ns, PKG).len(), 1);
}

#[test]
fn a_dropped_connection_is_retried() {
    let (fake, work, ns, file) = setup("  retries: 2\n");
    fake.fault(Route::Push, FaultKind::Drop, 1);
    let o = run(&work, file, "0.1.0", &[], &login(WRITER));
    assert_code(&o, 0);
    assert!(stderr(&o).contains("retrying in"), "{}", stderr(&o));
    assert_eq!((fake.pushes(), fake.releases(&ns, PKG).len()), (2, 1));
}

#[test]
fn a_push_whose_answer_was_lost_is_recognised_not_pushed_twice() {
    let (fake, work, ns, file) = setup("  retries: 2\n");
    fake.fault(Route::Push, FaultKind::DropAfterStore, 1);
    let o = run(&work, file, "0.1.0", &[], &login(WRITER));
    assert_code(&o, 0);
    // The retry met a 409; the digests match, so the release is ours.
    assert!(
        stderr(&o).contains("already had this release with this digest (409)"),
        "{}",
        stderr(&o)
    );
    let digest = crate::quay_fake::digest_of(&std::fs::read(tarball(&work, "0.1.0")).unwrap());
    assert_eq!(
        fake.releases(&ns, PKG).into_iter().collect::<Vec<_>>(),
        [("0.1.0".to_string(), digest)]
    );
}

#[test]
fn a_slow_registry_times_out_and_nothing_is_published() {
    let (fake, work, ns, file) = setup("  retries: 1\n  timeout_seconds: 1\n");
    fake.fault(Route::Push, FaultKind::Slow(Duration::from_secs(30)), 5);
    let o = run(&work, file, "0.1.0", &[], &login(WRITER));
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("no answer in time (timed out after 1s)")
            && err.contains("gave up after 2 attempts"),
        "{err}"
    );
    assert!(err.contains("nothing was published"), "{err}");
    assert!(fake.releases(&ns, PKG).is_empty());
}

#[test]
fn retries_are_bounded_and_other_4xx_are_never_retried() {
    let (fake, work, ns, file) = setup("  retries: 2\n");
    fake.fault(Route::Push, FaultKind::Status(503), 100);
    let o = run(&work, file, "0.1.0", &[], &login(WRITER));
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("HTTP 503") && stderr(&o).contains("gave up after 3 attempts"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fake.pushes(), 3);
    assert!(fake.releases(&ns, PKG).is_empty());
    let (fake, work, ns, file) = setup("  retries: 2\n");
    fake.fault(Route::Push, FaultKind::Status(400), 100);
    let o = run(&work, file, "0.1.0", &[], &login(WRITER));
    assert_code(&o, 1);
    assert_eq!(fake.pushes(), 1);
    assert!(fake.releases(&ns, PKG).is_empty());
}

#[test]
fn a_redirect_to_another_host_is_refused_and_credentials_stay_home() {
    let (fake, work, _ns, file) = setup("");
    let other = Fake::start();
    let to: &'static str = Box::leak(
        format!(
            "{}/api/v1/packages/x/y",
            other.url.replace("127.0.0.1", "localhost")
        )
        .into_boxed_str(),
    );
    fake.fault(Route::Releases, FaultKind::Redirect(to), 10);
    let t = token(WRITER);
    let o = run(&work, file, "0.1.0", &[], &[("QUAY_TOKEN", &t)]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("a redirect to another host"),
        "{}",
        stderr(&o)
    );
    assert!(other.seen().is_empty());
    no_secrets(&o);
}

#[test]
fn answers_that_are_not_the_apis_json_are_clear_errors() {
    for (kind, want) in [
        (
            FaultKind::Body(200, "<html><title>Maintenance</title></html>"),
            "an HTML page ('Maintenance') is not JSON",
        ),
        (FaultKind::Body(200, "{\"oops\": 1}"), "unexpected JSON"),
        (
            FaultKind::Body(200, r#"[{"package": "a/b", "release": "1.0.0"}]"#),
            "missing field `content`",
        ),
        (
            FaultKind::Body(404, "<html><title>404 Not Found</title></html>"),
            "HTTP 404: the server answered an HTML page ('404 Not Found')",
        ),
        (
            FaultKind::Huge(17 * 1024 * 1024),
            "larger than the 16777216-byte limit",
        ),
    ] {
        let (fake, work, ns, file) = setup("");
        fake.fault(Route::Releases, kind, 1);
        let o = run(&work, file, "0.1.0", &[], &login(WRITER));
        assert_code(&o, 1);
        assert!(stderr(&o).contains(want), "want {want}:\n{}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("/cnr/api/v1/packages/{ns}/{PKG}")),
            "{}",
            stderr(&o)
        );
        assert_eq!(fake.pushes(), 0);
    }
}

/// A second, different but valid bundle: the sample at another version.
fn other_bundle(work: &Work, file: &str) -> Vec<u8> {
    assert_code(&run(work, file, "0.1.1", &["--dry-run"], &login(WRITER)), 0);
    std::fs::read(tarball(work, "0.1.1")).unwrap()
}

#[test]
fn a_blob_whose_digest_does_not_match_is_refused_and_nothing_is_published() {
    let (fake, work, ns, file) = setup("");
    assert_code(&run(&work, file, "0.1.0", &[], &login(WRITER)), 0);
    let published = fake.releases(&ns, PKG);
    let other = other_bundle(&work, file);
    // The registry keeps reporting 0.1.0's digest but serves other (valid) bytes for it.
    {
        let mut st = fake.state.lock().unwrap();
        let repo = st.repos.get_mut(&(ns.clone(), PKG.to_string())).unwrap();
        repo.releases.get_mut("0.1.0").unwrap().gz = other.clone();
    }
    let pushes = fake.pushes();
    let o = run(&work, file, "0.2.0", &[], &login(WRITER));
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("blob digest mismatch")
            && err.contains(&format!("the registry said sha256:{}", published["0.1.0"]))
            && err.contains(&format!("the blob is sha256:{}", super::digest_of(&other))),
        "{err}"
    );
    assert_eq!(fake.pushes(), pushes, "nothing was pushed");
    assert_eq!(fake.releases(&ns, PKG), published);
    // `registry show` and `registry pull` refuse it too, and pull writes nothing.
    let pkg = format!("{ns}/{PKG}");
    let out = work.path().join("pulled");
    for args in [
        vec!["registry", "show", "--registry", &fake.url, &pkg, "0.1.0"],
        vec![
            "registry",
            "pull",
            "--registry",
            &fake.url,
            &pkg,
            "0.1.0",
            "--out",
            out.to_str().unwrap(),
        ],
    ] {
        let o = work.run(&args, &login(WRITER));
        assert_code(&o, 1);
        assert!(stderr(&o).contains("digest mismatch"), "{}", stderr(&o));
        no_secrets(&o);
    }
    assert!(crate::support::list_files(&out).is_empty());
}

#[test]
fn a_release_that_reads_back_with_another_digest_fails_the_proof() {
    let (fake, work, ns, file) = setup("  retries: 0\n");
    let other: &'static [u8] = Box::leak(other_bundle(&work, file).into_boxed_slice());
    fake.fault(Route::Pull, FaultKind::Bytes(other), 1);
    let o = run(&work, file, "0.1.0", &[], &login(WRITER));
    assert_code(&o, 1);
    let ours = super::digest_of(&std::fs::read(tarball(&work, "0.1.0")).unwrap());
    let err = stderr(&o);
    assert!(
        err.contains("pulled release 0.1.0")
            && err.contains(&format!(
                "its digest is sha256:{}, not sha256:{ours}",
                super::digest_of(other)
            )),
        "{err}"
    );
    // What the registry stores is ours; only its answer lied, and the run says so.
    assert_eq!(fake.releases(&ns, PKG)["0.1.0"], ours);
    assert!(!err.contains("published sample"), "{err}");
}

#[test]
fn a_same_origin_redirect_keeps_credentials_and_another_host_gets_none() {
    // Within the registry's origin a redirect is followed, with the credentials.
    let (fake, work, ns, file) = setup("");
    assert_code(&run(&work, file, "0.1.0", &[], &login(WRITER)), 0);
    let here: &'static str = Box::leak(
        format!("{}/api/v1/packages/{ns}/{PKG}?media_type=helm", fake.url).into_boxed_str(),
    );
    fake.fault(Route::Releases, FaultKind::Redirect(here), 1);
    let o = run(&work, file, "0.2.0", &[], &login(WRITER));
    assert_code(&o, 0);
    let seen = fake.seen();
    let hops: Vec<_> = seen
        .iter()
        .filter(|s| s.method == "GET" && s.path == format!("/cnr/api/v1/packages/{ns}/{PKG}"))
        .collect();
    assert!(hops.len() >= 2, "{seen:#?}");
    assert!(
        hops.iter()
            .all(|s| s.authorization.as_deref() == Some(token(WRITER).as_str()))
    );
    // To another host (another port is another origin), on a blob pull: refused; the other
    // host never sees a request, let alone credentials.
    let other = Fake::start();
    let there: &'static str = Box::leak(format!("{}/api/v1/x", other.url).into_boxed_str());
    fake.fault(Route::Pull, FaultKind::Redirect(there), 10);
    let o = run(&work, file, "0.3.0", &[], &login(WRITER));
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("a redirect to another host"),
        "{}",
        stderr(&o)
    );
    assert!(other.seen().iter().all(|s| s.authorization.is_none()));
    assert!(other.seen().is_empty());
    assert_eq!(fake.releases(&ns, PKG).len(), 2);
    no_secrets(&o);
}
