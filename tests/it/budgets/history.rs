//! The budgets reach `publish --history` (a package-manifest tree on disk) and `migrate` (every
//! release an app registry serves): a FIFO or a device in the tree is refused without being
//! opened, each version folder's YAML files together must fit `--max-bundle-bytes`, nesting is refused
//! before parsing; a release `migrate` pulls is unpacked within `--max-bundle-bytes` and a
//! gzip bomb is refused while streaming.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::{MIB, assert_input_error, run_measured, stderr, zeros_tgz};
use crate::quay_fake;
use crate::support::{self, Work, assert_code};

/// A copy of the widget-operator history tree under `dir`.
fn tree(dir: &Path) -> PathBuf {
    let tree = dir.join("widget-operator");
    support::copy_dir(&support::root().join("fixtures/widget-operator"), &tree);
    tree
}

fn publish_history(tree: &Path, registry: &Path, extra: &[&str]) -> std::process::Output {
    let registry = format!("dir:{}", registry.display());
    let mut args = vec![
        "publish",
        "--history",
        tree.to_str().unwrap(),
        "--registry",
        &registry,
        "--namespace",
        "example",
        "--package",
        "widget-operator",
        "--dry-run",
    ];
    args.extend(extra);
    // A FIFO blocks whoever opens it: the refusal must come without a hang.
    run_measured(&args, Duration::from_secs(60)).0
}

#[test]
fn a_history_tree_is_read_within_the_budgets() {
    let tmp = tempfile::tempdir().unwrap();
    let registry = tmp.path().join("registry");
    let good = tree(tmp.path());
    let o = publish_history(&good, &registry, &[]);
    assert_code(&o, 0);

    // A FIFO in a version folder, and one at the top of the tree.
    for at in ["0.2.0/extra.yaml", "zz-extra.yaml"] {
        let dir = tmp.path().join(format!("fifo-{}", at.len()));
        let t = tree(&dir);
        let made = Command::new("mkfifo").arg(t.join(at)).status().unwrap();
        assert!(made.success());
        let o = publish_history(&t, &registry, &[]);
        assert_input_error(&o, "is a FIFO (named pipe), not a regular file");
        assert!(stderr(&o).contains(at), "{}", stderr(&o));
    }

    // Each version folder is one bundle: its YAML files together against --max-bundle-bytes
    // (the tree as a whole may hold 16 times that).
    let o = publish_history(&good, &registry, &["--max-bundle-bytes", "2KiB"]);
    assert_input_error(
        &o,
        "the YAML files of one version folder together pass the bundle size limit of 2048 bytes",
    );

    // Nesting is refused at the fixed depth, before the YAML parser runs.
    let deep = tree(&tmp.path().join("deep"));
    let levels = 100_000;
    let text = format!("data: {}{}\n", "[".repeat(levels), "]".repeat(levels));
    std::fs::write(deep.join("0.3.0/deep.yaml"), text).unwrap();
    let o = publish_history(&deep, &registry, &[]);
    assert_input_error(&o, "deep.yaml:1: YAML nested deeper than 100 levels");
}

#[test]
fn migrate_unpacks_each_pulled_release_within_the_budgets() {
    // The sample's real release, served by the fake app registry.
    let work = Work::sample();
    assert_code(&work.run(&["run", "pipelines/sample.yaml"], &[]), 0);
    let blobs = work
        .path()
        .join("_out/registry/sample/sample-operator/blobs/sha256");
    let gz = std::fs::read(
        std::fs::read_dir(blobs)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path(),
    )
    .unwrap();
    let fake = quay_fake::Fake::start();
    fake.add_release("sample", "sample-operator", "0.1.0", gz, false);
    let out = tempfile::tempdir().unwrap();
    let target = format!("oci:{}", out.path().join("oci").display());
    let catalog = out.path().join("catalog");
    let migrate = |extra: &[&str]| {
        let mut args = vec![
            "migrate",
            "--registry",
            &fake.url,
            "--namespace",
            "sample",
            "--package",
            "sample-operator",
            "--image-target",
            &target,
            "--image",
            "quay.io/sample/sample-operator-bundle",
            "--catalog",
            catalog.to_str().unwrap(),
        ];
        args.extend(extra);
        run_measured(&args, Duration::from_secs(60))
    };

    let (o, _) = migrate(&["--max-bundle-bytes", "1KiB"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("release 0.1.0"), "{err}");
    assert!(
        err.contains("expands past the limit of 1024 bytes"),
        "{err}"
    );
    assert!(!catalog.exists(), "a refused migration wrote the catalog");

    let (o, baseline) = migrate(&[]);
    assert_code(&o, 0);
    assert!(catalog.join("sample-operator").is_dir());

    // A bomb served as a newer release: 256 MiB of zeros, about 250 KB compressed.
    fake.add_release(
        "sample",
        "sample-operator",
        "0.2.0",
        zeros_tgz(1, 256 << 20),
        false,
    );
    let (o, peak) = migrate(&[]);
    let extra = peak.saturating_sub(baseline);
    eprintln!(
        "migrate of a 256 MiB bomb release: exit {:?}, peak RSS {peak} KiB ({extra} KiB over a plain migrate)",
        o.status.code()
    );
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("release 0.2.0"), "{err}");
    assert!(err.contains("expands past the limit"), "{err}");
    assert!(extra <= 64 * MIB, "{extra} KiB extra");
}

/// Runs the binary in `cwd` with `env`, failing the test if it does not finish in time (a FIFO
/// opened for reading blocks until a writer comes).
fn run_within(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_olm-release"))
        .current_dir(cwd)
        .args(args)
        .env_clear()
        .envs(env.iter().copied())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("olm-release {args:?} did not finish: it opened a FIFO");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.wait_with_output().unwrap()
}

/// The other files olm-release reads go through the same door: a FIFO as `SSL_CERT_FILE`, as
/// a `dir:` registry's index, or in a catalog folder is refused without being opened.
#[test]
fn fifos_among_the_other_inputs_are_refused_without_being_opened() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = |rel: &str| {
        let path = tmp.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        assert!(
            Command::new("mkfifo")
                .arg(&path)
                .status()
                .unwrap()
                .success()
        );
        path
    };
    let pem = fifo("ca.pem");
    fifo("registry/sample/sample-operator/releases.json");
    fifo("catalog/sample-operator/catalog.yaml");
    let list = [
        "registry",
        "list",
        "--registry",
        "http://127.0.0.1:9/cnr",
        "acme",
    ];
    let show = [
        "registry",
        "show",
        "--registry",
        "dir:registry",
        "sample/sample-operator",
        "0.1.0",
    ];
    for (args, env) in [
        (&list[..], vec![("SSL_CERT_FILE", pem.to_str().unwrap())]),
        (&show[..], vec![]),
        (&["graph", "catalog"][..], vec![]),
    ] {
        let o = run_within(tmp.path(), args, &env);
        let err = stderr(&o);
        assert_ne!(o.status.code(), Some(0), "{err}");
        assert!(
            err.contains("is a FIFO (named pipe), not a regular file"),
            "{args:?}: {err}"
        );
    }
}
