//! A symbolic link in the catalog path of a pull request's base branch (issue 35, item 1): a
//! tree entry of mode 120000 on the way to the catalog folder, the package's folder or its
//! catalog file stops the run before any write, naming the path and where the link points (the
//! link's blob), whether it points out of the repository, inside it or at itself.

use crate::pulls::{catalog_pipeline, run, seed_catalog};
use crate::pulls_fake::Fake;
use crate::support::{Work, assert_code, stderr};

/// Seeds the catalog repository with a link at `path` to `to`, runs the release (a dry-run
/// first, then a real run) and checks that both stop before any write, naming the link.
async fn refused(path: &str, to: &str) {
    let fake = Fake::start().await;
    seed_catalog(&fake);
    if path != "catalog" {
        fake.world().commit_files(
            "acme/catalog",
            "main",
            &[(
                "catalog/other/catalog.yaml",
                Some(b"schema: olm.package\nname: other\n"),
            )],
        );
    }
    fake.world().commit_link("acme/catalog", "main", path, to);
    let work = Work::sample();
    let file = catalog_pipeline(&work, &fake.api);
    for extra in [&["--dry-run"][..], &[]] {
        let o = run(&work, &file, "0.1.0", extra).await;
        assert_code(&o, 2);
        let err = stderr(&o);
        let want = format!(
            "{path} in github:acme/catalog is a symbolic link to {to}; links in the catalog path are never followed"
        );
        assert!(err.contains(&want), "{path} -> {to} {extra:?}: {err}");
        let line = err.lines().find(|l| l.contains(&want)).unwrap();
        assert!(line.len() < 400, "a long message: {line}");
        assert_eq!(fake.writes(), 0, "{:#?}", fake.world().log);
        assert!(fake.world().pulls.is_empty());
    }
    // Nothing of the link's target was read into the output folder.
    let scratch = work.path().join("_out/catalog-only/catalog-git");
    if scratch.exists() {
        for e in walk(&scratch) {
            let text = std::fs::read_to_string(&e).unwrap_or_default();
            assert!(
                !text.contains(to),
                "{} holds the link's target",
                e.display()
            );
        }
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_linked_catalog_folder_stops_the_run_before_any_write() {
    refused("catalog", "/etc").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_linked_package_folder_stops_the_run_relative_or_looping() {
    refused("catalog/sample-operator", "../../outside").await;
    refused("catalog/sample-operator", "sample-operator").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_linked_catalog_file_is_never_read_as_the_file_it_points_to() {
    refused("catalog/sample-operator/catalog.yaml", "/etc/passwd").await;
    refused(
        "catalog/other/catalog.yaml",
        "../sample-operator/catalog.yaml",
    )
    .await;
}
