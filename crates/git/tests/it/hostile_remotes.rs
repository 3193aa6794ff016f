//! A remote that never answers, and a branch whose catalog path is a symbolic link: the client
//! stops within its budget naming the command and the remote (no credentials), and refuses the
//! link naming it and where it points.

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use olm_release_base::Secret;
use olm_release_git::{Credentials, Git, GitError, Remote};

/// A loopback port that accepts connections and never answers.
fn hanging_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for c in listener.incoming() {
            held.push(c);
        }
    });
    port
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

#[test]
fn a_remote_that_never_answers_is_stopped_within_the_budget_naming_the_command_and_remote() {
    let port = hanging_port();
    let url = format!("http://bot:hunter2-token@127.0.0.1:{port}/catalog.git");
    let client = Git::new(Some(Credentials {
        username: "bot".into(),
        password: Secret::new("hunter2-token".to_string()),
    }))
    .within(Duration::from_secs(2));
    let started = Instant::now();
    let err = client
        .resolve(&Remote {
            url: url.clone(),
            branch: Some("main".into()),
        })
        .expect_err("a remote that never answers must fail");
    let took = started.elapsed();
    assert!(took < Duration::from_secs(6), "took {took:?}");
    assert!(matches!(err, GitError::TimedOut { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.starts_with("`git ls-remote --symref http://***@127.0.0.1:")
            && msg.contains(&format!("got no answer from http://***@127.0.0.1:{port}/catalog.git within the retry budget of 2 s")),
        "{msg}"
    );
    assert!(!msg.contains("hunter2"), "{msg}");
}

#[test]
fn a_catalog_path_through_a_link_in_the_branch_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let bare = tmp.path().join("repo.git");
    let out = Command::new("git")
        .args(["init", "-q", "--bare", "-b", "main"])
        .arg(&bare)
        .output()
        .unwrap();
    assert!(out.status.success());
    let work = tmp.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    git(&work, &["init", "-q", "-b", "main"]);
    std::fs::create_dir_all(work.join("real")).unwrap();
    std::fs::write(work.join("real/x.yaml"), "a: 1\n").unwrap();
    symlink("/tmp", work.join("catalog")).unwrap();
    symlink("real", work.join("inner")).unwrap();
    symlink("loop", work.join("loop")).unwrap();
    git(&work, &["add", "-A"]);
    git(
        &work,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "commit",
            "-qm",
            "links",
        ],
    );
    git(&work, &["push", "-q", bare.to_str().unwrap(), "main"]);

    let client = Git::new(None).within(Duration::from_secs(30));
    let co = client
        .checkout(
            &Remote {
                url: bare.display().to_string(),
                branch: Some("main".into()),
            },
            &tmp.path().join("scratch"),
        )
        .unwrap();
    for (path, link, to, leads) in [
        ("catalog", "catalog", "/tmp", "outside"),
        ("catalog/sub", "catalog", "/tmp", "outside"),
        ("inner", "inner", "real", "inside"),
        ("loop/x", "loop", "loop", "a loop of links"),
    ] {
        let err = co.folder(path).expect_err(path);
        let msg = err.to_string();
        assert!(
            msg.starts_with(&format!(
                "{} is a symbolic link to {to} ({leads}",
                co.dir.join(link).display()
            )),
            "{msg}"
        );
        assert_eq!(
            olm_release_base::Classified::class(&err),
            olm_release_base::Class::Input
        );
    }
    assert_eq!(co.folder("real").unwrap(), co.dir.join("real"));
}
