use std::path::Path;
use std::process::Command;

use super::*;
use crate::Credentials;
use olm_release_base::Secret;

fn bare(dir: &Path) -> String {
    let out = Command::new("git")
        .args(["init", "-q", "--bare", "-b", "main"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    dir.display().to_string()
}

fn sig() -> Signature {
    Signature {
        name: "Catalog Bot".into(),
        email: "bot@example.com".into(),
        epoch: 1_570_449_600,
    }
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn remote_tip(url: &str, branch: &str) -> Option<String> {
    let git = Git::new(None);
    git.resolve(&Remote {
        url: url.into(),
        branch: Some(branch.into()),
    })
    .unwrap()
    .1
}

#[test]
fn a_new_branch_is_created_by_the_first_push_and_a_rerun_commits_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let url = bare(&tmp.path().join("repo.git"));
    let git = Git::new(None);
    let remote = Remote {
        url: url.clone(),
        branch: Some("olm-catalog".into()),
    };
    let co = git.checkout(&remote, &tmp.path().join("a")).unwrap();
    assert_eq!(
        (co.branch.as_str(), co.base.as_deref()),
        ("olm-catalog", None)
    );
    write(&co.dir, "catalog/pkg/catalog.yaml", "schema: olm.package\n");
    let commit = co
        .commit(&git, "catalog", "add pkg", &sig())
        .unwrap()
        .unwrap();
    assert_eq!(
        co.push(&git).unwrap(),
        Pushed::Accepted {
            commit: commit.clone()
        }
    );
    assert_eq!(
        remote_tip(&url, "olm-catalog").as_deref(),
        Some(commit.as_str())
    );
    // The author, committer and date are the signature's.
    let out = Command::new("git")
        .args([
            "--git-dir",
            &url,
            "log",
            "-1",
            "--format=%an <%ae> %at|%cn <%ce> %ct|%s",
            "olm-catalog",
        ])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "Catalog Bot <bot@example.com> 1570449600|Catalog Bot <bot@example.com> 1570449600|add pkg"
    );
    // A second checkout starts from that commit; the same content is no commit at all.
    let again = git.checkout(&remote, &tmp.path().join("a")).unwrap();
    assert_eq!(again.base.as_deref(), Some(commit.as_str()));
    write(
        &again.dir,
        "catalog/pkg/catalog.yaml",
        "schema: olm.package\n",
    );
    assert_eq!(
        again.commit(&git, "catalog", "add pkg", &sig()).unwrap(),
        None
    );
}

#[test]
fn a_push_after_someone_else_moved_the_branch_is_reported_as_moved() {
    let tmp = tempfile::tempdir().unwrap();
    let url = bare(&tmp.path().join("repo.git"));
    let git = Git::new(None);
    let remote = Remote {
        url: url.clone(),
        branch: None,
    };
    let seed = git.checkout(&remote, &tmp.path().join("seed")).unwrap();
    assert_eq!(seed.branch, "main", "an empty repository's default is main");
    write(&seed.dir, "catalog/a.yaml", "a: 1\n");
    seed.commit(&git, "catalog", "seed", &sig()).unwrap();
    seed.push(&git).unwrap();
    // Two jobs read the same commit.
    let first = git.checkout(&remote, &tmp.path().join("first")).unwrap();
    let second = git.checkout(&remote, &tmp.path().join("second")).unwrap();
    assert_eq!(first.base, second.base);
    write(&first.dir, "catalog/b.yaml", "b: 1\n");
    first.commit(&git, "catalog", "first", &sig()).unwrap();
    let won = first.push(&git).unwrap();
    write(&second.dir, "catalog/c.yaml", "c: 1\n");
    second.commit(&git, "catalog", "second", &sig()).unwrap();
    match second.push(&git).unwrap() {
        Pushed::Moved { reason } => assert!(
            reason.contains("fetch first") || reason.contains("non-fast-forward"),
            "{reason}"
        ),
        other => panic!("the second push was {other:?}"),
    }
    // The branch is the first job's commit; nothing of the second landed.
    let Pushed::Accepted { commit } = won else {
        panic!()
    };
    assert_eq!(remote_tip(&url, "main").as_deref(), Some(commit.as_str()));
    // What moved: the first job's file, not the second's own.
    assert_eq!(
        second.moved(&git).unwrap(),
        Some(vec!["catalog/b.yaml".to_string()])
    );
    // Moved onto the new head, the same change lands on top of the first job's.
    let mut second = second;
    second.advance(&git).unwrap();
    assert_eq!(second.base.as_deref(), Some(commit.as_str()));
    assert!(second.dir.join("catalog/b.yaml").is_file());
    assert!(!second.dir.join("catalog/c.yaml").exists());
    write(&second.dir, "catalog/c.yaml", "c: 1\n");
    second.commit(&git, "catalog", "second", &sig()).unwrap();
    assert!(matches!(
        second.push(&git).unwrap(),
        Pushed::Accepted { .. }
    ));
    // Creating a branch someone else created meanwhile is refused the same way.
    let x = Remote {
        url: url.clone(),
        branch: Some("new".into()),
    };
    let one = git.checkout(&x, &tmp.path().join("one")).unwrap();
    let two = git.checkout(&x, &tmp.path().join("two")).unwrap();
    write(&one.dir, "catalog/x.yaml", "x: 1\n");
    one.commit(&git, "catalog", "one", &sig()).unwrap();
    assert!(matches!(one.push(&git).unwrap(), Pushed::Accepted { .. }));
    write(&two.dir, "catalog/y.yaml", "y: 1\n");
    two.commit(&git, "catalog", "two", &sig()).unwrap();
    assert!(matches!(two.push(&git).unwrap(), Pushed::Moved { .. }));
    // A branch created meanwhile: every path of its head moved.
    assert_eq!(
        two.moved(&git).unwrap(),
        Some(vec!["catalog/x.yaml".to_string()])
    );
    // A branch deleted meanwhile: nothing to compare with.
    let gone = Remote {
        url: url.clone(),
        branch: Some("gone".into()),
    };
    let three = git.checkout(&gone, &tmp.path().join("three")).unwrap();
    assert_eq!(three.moved(&git).unwrap(), None);
}

#[test]
fn the_staged_diff_shows_the_change_with_repository_paths() {
    let tmp = tempfile::tempdir().unwrap();
    let url = bare(&tmp.path().join("repo.git"));
    let git = Git::new(None);
    let remote = Remote { url, branch: None };
    let co = git.checkout(&remote, &tmp.path().join("co")).unwrap();
    write(&co.dir, "catalog/pkg/catalog.yaml", "name: pkg\n");
    let diff = co.staged_diff(&git, "catalog").unwrap();
    assert!(diff.contains("+++ b/catalog/pkg/catalog.yaml"), "{diff}");
    assert!(diff.contains("+name: pkg"), "{diff}");
}

#[test]
fn a_failure_names_the_command_and_never_the_token() {
    let tmp = tempfile::tempdir().unwrap();
    let token = "s3cr3t-token-value";
    let git = Git::new(Some(Credentials {
        username: "x-access-token".into(),
        password: Secret::new(token),
    }));
    let remote = Remote {
        url: "http://127.0.0.1:9/nowhere.git".into(),
        branch: Some("main".into()),
    };
    let e = git.checkout(&remote, &tmp.path().join("co")).unwrap_err();
    let text = format!("{e} {e:?}");
    assert!(
        text.contains("git ls-remote --symref http://127.0.0.1:9/nowhere.git"),
        "{text}"
    );
    assert!(!text.contains(token), "{text}");
    assert_eq!(
        olm_release_base::Classified::class(&e),
        olm_release_base::Class::Stage
    );
}

#[test]
fn a_remote_that_lost_the_ref_lock_to_another_push_means_the_branch_moved() {
    // What git 2.x's receive-pack prints when two pushes race on one repository.
    let stderr = "remote: error: cannot lock ref 'refs/heads/main': is at c7a55f9 but expected 544d250\nerror: failed to push some refs to '/tmp/r.git'\n";
    assert!(super::lost_ref_lock("main", stderr));
    let held = "remote: error: cannot lock ref 'refs/heads/main': Unable to create '/tmp/r.git/refs/heads/main.lock': File exists.\n";
    assert!(super::lost_ref_lock("main", held));
    // Two pushes creating the branch at once.
    let created = "remote: error: cannot lock ref 'refs/heads/main': reference already exists\n";
    assert!(super::lost_ref_lock("main", created));
    assert!(!super::lost_ref_lock("other", stderr));
    assert!(!super::lost_ref_lock(
        "main",
        "remote: error: cannot lock ref 'refs/heads/main': Permission denied\n"
    ));
}
