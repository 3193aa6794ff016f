//! git catalog targets: `pipelines/sample-catalog.yaml` with `catalog.target:
//! git:…`, against the real `git` binary over a local bare repository and over smart HTTP
//! (`git http-backend` behind Basic auth, `scripts/peers/git-http.sh`). fetch-previous reads
//! the branch's catalog, the catalog step commits (author and date from the pipeline and
//! `SOURCE_DATE_EPOCH`, a message naming package, version and bundle digest) and pushes without
//! force; a rerun commits nothing; a dry-run shows the commit's diff and pushes nothing; a
//! branch another job moved between the read and the push is decided again.

use std::path::Path;
use std::process::Command;

use crate::support::{Work, assert_code, peer, stderr};

const PIPELINE: &str = "pipelines/sample-catalog.yaml";
const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");

/// A bare repository at `dir` (default branch main), its path as the URL.
pub fn bare(dir: &Path) -> String {
    let out = Command::new("git")
        .args(["init", "-q", "--bare", "-b", "main"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    dir.display().to_string()
}

/// `git --git-dir BARE ARGS…` standard output (panics on failure).
pub fn git_out(bare: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("--git-dir")
        .arg(bare)
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The number of commits on `branch` (0 when it does not exist).
pub fn commits(bare: &Path, branch: &str) -> usize {
    let out = Command::new("git")
        .arg("--git-dir")
        .arg(bare)
        .args(["rev-list", "--count", branch])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .unwrap_or(0)
}

/// The sample-catalog pipeline with its catalog kept at `target` (more catalog keys in
/// `extra`), written as `file`.
pub fn pipeline(work: &Work, file: &str, target: &str, extra: &str) -> String {
    let text = std::fs::read_to_string(work.path().join(PIPELINE)).unwrap();
    assert!(text.contains("  dir: _out/catalog-only/catalog\n"));
    let text = text.replace(
        "  dir: _out/catalog-only/catalog\n",
        &format!("  target: {target}\n{extra}"),
    );
    std::fs::write(work.path().join(file), text).unwrap();
    file.to_string()
}

fn run(
    work: &Work,
    file: &str,
    version: &str,
    extra: &[&str],
    env: &[(&str, &str)],
) -> std::process::Output {
    let var = format!("VERSION={version}");
    let mut args = vec!["run", file, "--var", &var];
    args.extend(extra);
    let mut env = env.to_vec();
    env.push(EPOCH);
    work.run(&args, &env)
}

/// The catalog file of the sample package on `branch` of `bare`.
fn catalog_at(bare: &Path, branch: &str) -> String {
    git_out(
        bare,
        &[
            "show",
            &format!("{branch}:catalog/sample-operator/catalog.yaml"),
        ],
    )
}

/// `replaces:` of the entry `name` in a catalog file's text.
fn entry_replaces(catalog: &str, name: &str) -> Option<String> {
    let loaded: Vec<serde_yaml_ng::Value> = serde_yaml_ng::Deserializer::from_str(catalog)
        .map(|d| serde::Deserialize::deserialize(d).unwrap())
        .collect();
    for doc in loaded {
        if doc["schema"] == "olm.channel" {
            for e in doc["entries"].as_sequence().unwrap() {
                if e["name"] == name {
                    return e["replaces"].as_str().map(str::to_string);
                }
            }
        }
    }
    panic!("no entry {name} in\n{catalog}")
}

#[test]
fn a_git_target_is_read_by_fetch_previous_committed_pushed_and_a_rerun_commits_nothing() {
    let work = Work::sample();
    let repo = work.path().join("catalog.git");
    let url = bare(&repo);
    let file = pipeline(
        &work,
        "git.yaml",
        &format!("git:{url}"),
        "  branch: olm-catalog\n  author: Catalog Bot <bot@example.com>\n",
    );

    let first = run(&work, &file, "0.1.0", &[], &[]);
    assert_code(&first, 0);
    let err = stderr(&first);
    assert!(
        err.contains("does not exist yet") && err.contains("catalog/ of branch olm-catalog of"),
        "{err}"
    );
    assert_eq!(commits(&repo, "olm-catalog"), 1);
    let log = git_out(
        &repo,
        &["log", "-1", "--format=%an <%ae> %at %ct%n%B", "olm-catalog"],
    );
    assert!(
        log.starts_with("Catalog Bot <bot@example.com> 1570449600 1570449600\n"),
        "{log}"
    );
    assert!(
        log.contains("sample-operator 0.1.0: add sample-operator.v0.1.0 to the catalog"),
        "{log}"
    );
    assert!(
        log.contains("Bundle image quay.io/sample/sample-operator-bundle@sha256:"),
        "{log}"
    );
    // Only the catalog folder is in the commit: the scratch checkout stays in the output folder.
    let files = git_out(&repo, &["ls-tree", "-r", "--name-only", "olm-catalog"]);
    assert_eq!(files.trim(), "catalog/sample-operator/catalog.yaml");

    let second = run(&work, &file, "0.2.0", &[], &[]);
    assert_code(&second, 0);
    let err = stderr(&second);
    assert!(
        err.contains("previous: read from the catalog catalog/ of branch olm-catalog of")
            && err.contains("channel alpha head sample-operator.v0.1.0 (0.1.0)"),
        "{err}"
    );
    assert_eq!(commits(&repo, "olm-catalog"), 2);
    assert_eq!(
        entry_replaces(&catalog_at(&repo, "olm-catalog"), "sample-operator.v0.2.0").as_deref(),
        Some("sample-operator.v0.1.0")
    );

    // A rerun: the same decision on the same catalog, no empty commit, no push.
    let tip = git_out(&repo, &["rev-parse", "olm-catalog"]);
    let again = run(&work, &file, "0.2.0", &[], &[]);
    assert_code(&again, 0);
    assert!(
        stderr(&again).contains("unchanged: catalog entry"),
        "{}",
        stderr(&again)
    );
    assert_eq!(git_out(&repo, &["rev-parse", "olm-catalog"]), tip);

    // A dry-run shows the commit's diff with the repository's paths and pushes nothing.
    let dry = run(&work, &file, "0.3.0", &["--dry-run"], &[]);
    assert_code(&dry, 0);
    let err = stderr(&dry);
    for needle in [
        "+++ b/catalog/sample-operator/catalog.yaml",
        "+  replaces: sample-operator.v0.2.0",
        "catalog entry sample-operator.v0.3.0",
        "branch olm-catalog of",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in\n{err}");
    }
    assert_eq!(git_out(&repo, &["rev-parse", "olm-catalog"]), tip);
}

/// The environment of a job whose `git`, at the first push it sees, first runs another job
/// (`olm-release run OTHER_FILE --var VERSION=version` in `other`, publishing to the same
/// branch), then the real git: the branch moves between this job's read and its push,
/// deterministically. The scripts and the marker live in `dir`.
pub(crate) fn racing_env(
    dir: &Path,
    other: &Path,
    other_file: &str,
    version: &str,
) -> Vec<(String, String)> {
    let found = Command::new("sh")
        .args(["-c", "command -v git"])
        .output()
        .unwrap();
    let real_git = String::from_utf8(found.stdout).unwrap().trim().to_string();
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = format!(
        "#!/bin/sh\nfor a in \"$@\"; do\n  if [ \"$a\" = push ] && [ -e \"$OLM_TEST_MARKER\" ]; then\n    rm -f \"$OLM_TEST_MARKER\"\n    sh \"$OLM_TEST_OTHER_JOB\" >&2 || exit 99\n  fi\ndone\nexec {real_git} \"$@\"\n"
    );
    let git = bin.join("git");
    std::fs::write(&git, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&git, std::fs::Permissions::from_mode(0o755)).unwrap();
    let marker = dir.join("marker");
    std::fs::write(&marker, "").unwrap();
    let job = dir.join("other-job.sh");
    std::fs::write(
        &job,
        format!(
            "cd '{}' && PATH='{}' SOURCE_DATE_EPOCH=1570449600 '{}' run {other_file} --var VERSION={version}\n",
            other.display(),
            std::env::var("PATH").unwrap(),
            env!("CARGO_BIN_EXE_olm-release"),
        ),
    )
    .unwrap();
    vec![
        (
            "PATH".into(),
            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
        ),
        ("OLM_TEST_MARKER".into(), marker.display().to_string()),
        ("OLM_TEST_OTHER_JOB".into(), job.display().to_string()),
    ]
}

#[test]
fn a_branch_another_job_moved_before_the_push_is_decided_again() {
    let work = Work::sample();
    let other = Work::sample();
    let repo = work.path().join("catalog.git");
    let url = bare(&repo);
    let target = format!("git:{url}");
    let file = pipeline(&work, "git.yaml", &target, "");
    let other_file = pipeline(&other, "git.yaml", &target, "");
    assert_code(&run(&work, &file, "0.1.0", &[], &[]), 0);

    // This job publishes 0.3.0; right before its push, another job publishes 0.2.0.
    let env = racing_env(work.path(), other.path(), &other_file, "0.2.0");
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let o = run(&work, &file, "0.3.0", &[], &env);
    let marker = work.path().join("marker");
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(!marker.exists(), "the other job did not run:\n{err}");
    for needle in [
        "was rejected",
        "another job published meanwhile; catalog/sample-operator/catalog.yaml changed; deciding again on what it published (attempt 2, for up to 300 s, after ",
        "channel alpha head sample-operator.v0.2.0 (0.2.0)",
        "sample-operator.v0.3.0 replaces sample-operator.v0.2.0",
        "this run pushed before deciding again; replacing it",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in\n{err}");
    }
    // One chain, 0.3.0 → 0.2.0 → 0.1.0, and the CSV in 0.3.0's image says the same.
    let catalog = catalog_at(&repo, "main");
    assert_eq!(
        entry_replaces(&catalog, "sample-operator.v0.3.0").as_deref(),
        Some("sample-operator.v0.2.0")
    );
    assert_eq!(
        entry_replaces(&catalog, "sample-operator.v0.2.0").as_deref(),
        Some("sample-operator.v0.1.0")
    );
    assert_eq!(commits(&repo, "main"), 3);
    let csv = std::fs::read_to_string(
        work.path()
            .join("_out/sample-catalog/bundle-image/manifests/sample-operator.v0.3.0.clusterserviceversion.yaml"),
    )
    .unwrap();
    assert!(csv.contains("replaces: sample-operator.v0.2.0"), "{csv}");
    // The image the catalog pins is the one under the tag.
    let layout = work
        .path()
        .join("_out/catalog-only/oci/sample-operator-bundle");
    let digest = crate::support::layout_digest(&layout, "0.3.0");
    assert!(
        catalog.contains(&format!(
            "image: quay.io/sample/sample-operator-bundle@{digest}"
        )),
        "{catalog}"
    );
}

#[test]
fn git_over_smart_http_takes_the_token_from_the_environment_and_never_shows_it() {
    let (Some(base), Some(root), Some(user), Some(password)) = (
        peer("GIT_HTTP_URL"),
        peer("GIT_HTTP_ROOT"),
        peer("GIT_HTTP_USER"),
        peer("GIT_HTTP_PASSWORD"),
    ) else {
        return;
    };
    let name = format!("catalog-{}.git", std::process::id());
    let repo = Path::new(&root).join(&name);
    bare(&repo);
    let work = Work::sample();
    let file = pipeline(&work, "git.yaml", &format!("git:{base}/{name}"), "");
    // Without a token, git cannot authenticate: the run fails, saying what to set.
    let o = run(&work, &file, "0.1.0", &[], &[]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("GIT_TOKEN or GITHUB_TOKEN"),
        "{}",
        stderr(&o)
    );
    assert_eq!(commits(&repo, "main"), 0);
    // A wrong token is refused the same way, and never printed.
    let wrong = "wrong-token-value-0123";
    let o = run(
        &work,
        &file,
        "0.1.0",
        &[],
        &[("GIT_TOKEN", wrong), ("GIT_USERNAME", &user)],
    );
    assert_code(&o, 1);
    assert!(!format!("{}{}", stderr(&o), crate::support::stdout(&o)).contains(wrong));
    // The right one, as GITHUB_TOKEN: published, and the token appears nowhere.
    for version in ["0.1.0", "0.2.0", "0.2.0"] {
        let o = run(
            &work,
            &file,
            version,
            &["-v"],
            &[("GITHUB_TOKEN", &password), ("GIT_USERNAME", &user)],
        );
        assert_code(&o, 0);
        let all = format!("{}{}", stderr(&o), crate::support::stdout(&o));
        assert!(!all.contains(&password), "{all}");
    }
    assert_eq!(commits(&repo, "main"), 2);
    assert_eq!(
        entry_replaces(&catalog_at(&repo, "main"), "sample-operator.v0.2.0").as_deref(),
        Some("sample-operator.v0.1.0")
    );
}

#[test]
fn catalog_targets_are_checked_before_anything_runs() {
    let work = Work::sample();
    let cases = [
        (
            "  target: dir:_out/catalog\n  dir: _out/catalog\n",
            "catalog.dir and catalog.target are both set",
        ),
        (
            "  target: git:https://user:pw@github.com/a/b.git\n",
            "holds credentials",
        ),
        (
            "  target: git:http://git.example.com/a/b.git\n",
            "--insecure",
        ),
        (
            "  target: git:https://github.com/a/b.git\n  path: ../x\n",
            "catalog.path: '../x' is not a folder inside the repository",
        ),
        (
            "  target: dir:_out/c\n  branch: main\n",
            "catalog.branch is for git: targets",
        ),
        ("  target: image:quay.io/acme/catalog\n", "has no tag"),
        (
            "  target: image:quay.io/acme/catalog:latest\n",
            "catalog.base_image: an image target needs the opm base image, pinned by digest",
        ),
        (
            "  target: image:quay.io/acme/catalog:latest\n  base_image: quay.io/operator-framework/opm:latest\n",
            "is not pinned by digest",
        ),
        ("  target: svn:x\n", "is none of dir:PATH, git:URL"),
    ];
    for (catalog, expected) in cases {
        let text = std::fs::read_to_string(work.path().join(PIPELINE)).unwrap();
        let text = text.replace("  dir: _out/catalog-only/catalog\n", catalog);
        std::fs::write(work.path().join("bad.yaml"), text).unwrap();
        let o = work.run(&["plan", "bad.yaml"], &[EPOCH]);
        assert_code(&o, 2);
        assert!(
            stderr(&o).contains(expected),
            "{catalog:?}: {expected:?} in\n{}",
            stderr(&o)
        );
        assert!(
            stderr(&o).contains("bad.yaml:"),
            "names the file and line:\n{}",
            stderr(&o)
        );
    }
    // `catalog.target: dir:PATH` is the same as `catalog.dir: PATH`.
    let file = pipeline(&work, "dir.yaml", "dir:_out/catalog-only/catalog", "");
    let a = work.run(&["plan", &file], &[EPOCH]);
    let b = work.run(&["plan", PIPELINE], &[EPOCH]);
    assert_code(&a, 0);
    assert_eq!(
        crate::support::stderr(&a).replace("dir.yaml", "X"),
        crate::support::stderr(&b).replace(PIPELINE, "X")
    );
}
