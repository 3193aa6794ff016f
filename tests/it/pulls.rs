//! Pull requests: a git catalog target on GitHub with `catalog.pull_request`, and the
//! `operatorhub` stage, against the in-process fake of GitHub's git data and pulls APIs
//! (`pulls_fake`), and through `prism proxy --errors` with GitHub's OpenAPI description. The
//! change is committed on a branch of a fork named after package and version, the pull request
//! opened; a rerun finds it and writes nothing; a merged one means nothing to do; a closed one
//! stops the run; a dry-run reads, lists the files and writes nothing.

use std::process::Output;

use crate::pulls_fake::{Fake, TOKEN};
use crate::support::{self, Work, assert_code, stderr};

const PIPELINE: &str = "pipelines/sample-catalog.yaml";
const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");
const BRANCH: &str = "olm-release/sample-operator-0.1.0";

pub(crate) async fn run(work: &Work, file: &str, version: &str, extra: &[&str]) -> Output {
    let dir = work.path().to_path_buf();
    let mut args = vec![
        "run".to_string(),
        file.to_string(),
        "--var".into(),
        format!("VERSION={version}"),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        support::olm_release(&dir, &args, &[("GITHUB_TOKEN", TOKEN), EPOCH])
    })
    .await
    .unwrap()
}

/// The sample-catalog pipeline with its catalog kept in `acme/catalog` on GitHub, changed by
/// pull requests from `bot/catalog`.
pub(crate) fn catalog_pipeline(work: &Work, api: &str) -> String {
    let text = std::fs::read_to_string(work.path().join(PIPELINE)).unwrap();
    let text = text.replace(
        "  dir: _out/catalog-only/catalog\n",
        &format!(
            "  target: git:https://github.com/acme/catalog.git\n  branch: main\n  author: Catalog Bot <bot@example.com>\n  pull_request:\n    fork: bot/catalog\n    api_url: {api}\n"
        ),
    );
    std::fs::write(work.path().join("pr.yaml"), text).unwrap();
    "pr.yaml".into()
}

pub(crate) fn seed_catalog(fake: &Fake) {
    let mut w = fake.world();
    w.repo("acme/catalog", "main");
    w.repo("bot/catalog", "main");
    w.commit_files("acme/catalog", "main", &[("README.md", Some(b"catalog\n"))]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_catalog_pull_request_is_opened_found_on_rerun_and_done_once_merged() {
    let fake = Fake::start().await;
    seed_catalog(&fake);
    let work = Work::sample();
    let file = catalog_pipeline(&work, &fake.api);

    // A dry-run reads the base branch, shows the files and writes nothing.
    let dry = run(&work, &file, "0.1.0", &["--dry-run"]).await;
    assert_code(&dry, 0);
    let err = stderr(&dry);
    assert!(
        err.contains("+++ b/catalog/sample-operator/catalog.yaml"),
        "{err}"
    );
    assert!(
        err.contains("pull request \"sample-operator 0.1.0: add it to the catalog\" (1 file)"),
        "{err}"
    );
    assert_eq!(fake.writes(), 0, "{:#?}", fake.world().log);
    assert!(fake.world().pulls.is_empty());

    let first = run(&work, &file, "0.1.0", &[]).await;
    assert_code(&first, 0);
    assert!(
        stderr(&first).contains("opened pull request #1"),
        "{}",
        stderr(&first)
    );
    {
        let w = fake.world();
        let pr = &w.pulls[0];
        assert_eq!(
            (pr.head.as_str(), pr.base.as_str(), pr.state.as_str()),
            (format!("bot:{BRANCH}").as_str(), "main", "open")
        );
        let files = w.files("bot/catalog", BRANCH);
        let catalog =
            String::from_utf8(files["catalog/sample-operator/catalog.yaml"].clone()).unwrap();
        assert!(
            catalog.contains("name: sample-operator.v0.1.0"),
            "{catalog}"
        );
        assert_eq!(
            files["README.md"], b"catalog\n",
            "the base branch's other files are kept"
        );
        assert!(
            !w.files("acme/catalog", "main")
                .contains_key("catalog/sample-operator/catalog.yaml"),
            "the base branch is not changed before the merge"
        );
    }

    // A rerun finds the open pull request holding the change: no write at all.
    let writes = fake.writes();
    let again = run(&work, &file, "0.1.0", &[]).await;
    assert_code(&again, 0);
    assert!(
        stderr(&again).contains("pull request #1 already proposes this"),
        "{}",
        stderr(&again)
    );
    assert_eq!(fake.writes(), writes);

    // Merged: the base branch has the entry, so the catalog step has nothing to add.
    fake.world().merge(1);
    let merged = run(&work, &file, "0.1.0", &[]).await;
    assert_code(&merged, 0);
    assert!(
        stderr(&merged).contains("unchanged: catalog entry"),
        "{}",
        stderr(&merged)
    );
    assert_eq!(fake.writes(), writes);
    assert_eq!(fake.world().pulls.len(), 1);

    // The next version reads the merged catalog: its pull request replaces 0.1.0.
    let next = run(&work, &file, "0.2.0", &[]).await;
    assert_code(&next, 0);
    let w = fake.world();
    let pr = w
        .pulls
        .iter()
        .find(|p| p.head == "bot:olm-release/sample-operator-0.2.0")
        .unwrap();
    assert_eq!(pr.state, "open");
    let files = w.files("bot/catalog", "olm-release/sample-operator-0.2.0");
    let catalog = String::from_utf8(files["catalog/sample-operator/catalog.yaml"].clone()).unwrap();
    assert!(
        catalog.contains("replaces: sample-operator.v0.1.0"),
        "{catalog}"
    );
    assert!(!stderr(&next).contains(TOKEN));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_pull_request_stops_the_run_and_says_how_to_propose_again() {
    let fake = Fake::start().await;
    seed_catalog(&fake);
    let work = Work::sample();
    let file = catalog_pipeline(&work, &fake.api);
    assert_code(&run(&work, &file, "0.1.0", &[]).await, 0);
    fake.world().pulls[0].state = "closed".into();
    let o = run(&work, &file, "0.1.0", &[]).await;
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("pull request #1") && err.contains("was closed without merging"),
        "{err}"
    );
    assert!(
        err.contains(&format!("delete the branch {BRANCH} of bot/catalog")),
        "{err}"
    );
}

/// The sample-catalog pipeline with the operatorhub stage proposing to `community/operators`
/// from `bot/operators`.
fn operatorhub_pipeline(work: &Work, api: &str) -> String {
    let text = std::fs::read_to_string(work.path().join(PIPELINE)).unwrap();
    let text = text.replace(
        "stages: [render, fetch-previous, package, verify, bundle-image, catalog]",
        "stages: [render, fetch-previous, package, verify, bundle-image, catalog, operatorhub]",
    );
    let text = format!(
        "{text}operatorhub:\n  repository: community/operators\n  fork: bot/operators\n  author: Op Bot <bot@example.com>\n  api_url: {api}\n"
    );
    std::fs::write(work.path().join("hub.yaml"), text).unwrap();
    "hub.yaml".into()
}

fn seed_hub(fake: &Fake, ci: bool) {
    let mut w = fake.world();
    w.repo("community/operators", "main");
    w.repo("bot/operators", "main");
    let mut files: Vec<(&str, Option<&[u8]>)> = vec![(
        "operators/other/0.1.0/metadata/annotations.yaml",
        Some(b"a: 1\n"),
    )];
    if ci {
        files.push((
            "operators/sample-operator/ci.yaml",
            Some(b"reviewers: [maintainer]\nupdateGraph: replaces-mode\n"),
        ));
    }
    w.commit_files("community/operators", "main", &files);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operatorhub_stage_proposes_the_bundle_keeping_ci_yaml_and_a_rerun_writes_nothing() {
    let fake = Fake::start().await;
    seed_hub(&fake, true);
    let work = Work::sample();
    let file = operatorhub_pipeline(&work, &fake.api);
    let o = run(&work, &file, "0.1.0", &[]).await;
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains("opened pull request #1"),
        "{}",
        stderr(&o)
    );
    let (files, base_ci) = {
        let w = fake.world();
        let pr = &w.pulls[0];
        assert_eq!(pr.title, "operator sample-operator (0.1.0)");
        assert_eq!(pr.head, "bot:olm-release/sample-operator-0.1.0");
        let head = w.repos["bot/operators"].refs["olm-release/sample-operator-0.1.0"].clone();
        let crate::pulls_fake::Object::Commit {
            message, author, ..
        } = w.objects[&head].clone()
        else {
            panic!()
        };
        assert!(
            message.starts_with("operator sample-operator (0.1.0)\n"),
            "{message}"
        );
        assert!(
            message.contains("Signed-off-by: Op Bot <bot@example.com>"),
            "{message}"
        );
        assert_eq!(
            author,
            (
                "Op Bot".into(),
                "bot@example.com".into(),
                "2019-10-07T12:00:00Z".into()
            )
        );
        let base = w.files("community/operators", "main");
        (
            w.files("bot/operators", "olm-release/sample-operator-0.1.0"),
            base["operators/sample-operator/ci.yaml"].clone(),
        )
    };
    let ours: Vec<&String> = files
        .keys()
        .filter(|p| p.starts_with("operators/sample-operator/0.1.0/"))
        .collect();
    assert!(
        ours.iter()
            .any(|p| p.ends_with("/metadata/annotations.yaml")),
        "{ours:?}"
    );
    assert!(
        ours.iter()
            .any(|p| p.contains("/manifests/") && p.ends_with(".clusterserviceversion.yaml")),
        "{ours:?}"
    );
    assert!(
        !ours.iter().any(|p| p.ends_with("bundle.Dockerfile")),
        "{ours:?}"
    );
    assert_eq!(
        files["operators/sample-operator/ci.yaml"], base_ci,
        "ci.yaml is kept as it is"
    );
    assert!(files.contains_key("operators/other/0.1.0/metadata/annotations.yaml"));

    let posts = fake.world().requests("POST").len();
    let again = run(&work, &file, "0.1.0", &[]).await;
    assert_code(&again, 0);
    assert_eq!(
        fake.world().requests("POST").len(),
        posts,
        "{}",
        stderr(&again)
    );
    assert!(
        stderr(&again).contains("already proposes these"),
        "{}",
        stderr(&again)
    );

    // Once merged, the community catalog has the folder: nothing to propose.
    fake.world().merge(1);
    let merged = run(&work, &file, "0.1.0", &[]).await;
    assert_code(&merged, 0);
    assert!(
        stderr(&merged).contains("already has operators/sample-operator/0.1.0/ with these"),
        "{}",
        stderr(&merged)
    );
    assert_eq!(fake.world().requests("POST").len(), posts);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_package_gets_a_ci_yaml_and_a_published_folder_with_other_files_is_refused() {
    let fake = Fake::start().await;
    seed_hub(&fake, false);
    let work = Work::sample();
    let file = operatorhub_pipeline(&work, &fake.api);
    let dry = run(&work, &file, "0.1.0", &["--dry-run"]).await;
    assert_code(&dry, 0);
    let err = stderr(&dry);
    assert!(
        err.contains(
            "the pull request's files (branch olm-release/sample-operator-0.1.0 of bot/operators)"
        ),
        "{err}"
    );
    assert!(
        err.contains("operators/sample-operator/0.1.0/metadata/annotations.yaml ("),
        "{err}"
    );
    assert!(err.contains("operators/sample-operator/ci.yaml ("), "{err}");
    assert!(fake.world().requests("POST").is_empty());
    assert_code(&run(&work, &file, "0.1.0", &[]).await, 0);
    {
        let w = fake.world();
        let files = w.files("bot/operators", "olm-release/sample-operator-0.1.0");
        let ci = String::from_utf8(files["operators/sample-operator/ci.yaml"].clone()).unwrap();
        assert!(ci.contains("reviewers:\n  - bot\n"), "{ci}");
    }
    // The catalog holds 0.1.0 with another annotations file: a published bundle is not changed.
    fake.world().commit_files(
        "community/operators",
        "main",
        &[(
            "operators/sample-operator/0.1.0/metadata/annotations.yaml",
            Some(b"other: 1\n"),
        )],
    );
    let o = run(&work, &file, "0.1.0", &[]).await;
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains(
            "community/operators already has operators/sample-operator/0.1.0/ with other files"
        ),
        "{err}"
    );
    assert!(err.contains("metadata/annotations.yaml (changed)"), "{err}");
}

/// All or nothing across targets: the operatorhub stage comes after the bundle
/// image and the catalog, so a community catalog that already holds the version with other
/// files is asked about before the first write. The run stops in preflight, and neither the
/// image layout nor the catalog is written; nothing is pushed to GitHub.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_community_folder_the_stage_would_refuse_stops_the_run_before_the_image_and_catalog() {
    let fake = Fake::start().await;
    seed_hub(&fake, true);
    fake.world().commit_files(
        "community/operators",
        "main",
        &[(
            "operators/sample-operator/0.1.0/metadata/annotations.yaml",
            Some(b"other: 1\n"),
        )],
    );
    let work = Work::sample();
    let file = operatorhub_pipeline(&work, &fake.api);
    let o = run(&work, &file, "0.1.0", &[]).await;
    assert_code(&o, 1);
    let err = stderr(&o);
    for part in [
        "stage preflight",
        "community/operators already has operators/sample-operator/0.1.0/ with other files",
        "metadata/annotations.yaml (changed)",
    ] {
        assert!(err.contains(part), "{part}:\n{err}");
    }
    for written in ["_out/catalog-only/oci", "_out/catalog-only/catalog"] {
        assert!(
            !work.path().join(written).exists(),
            "{written} was written before the refusal:\n{err}"
        );
    }
    assert!(fake.world().requests("POST").is_empty(), "{err}");
}

/// Every git data and pulls call of both flows passes `prism proxy --errors` with GitHub's own
/// description, and the fake's answers pass its response validation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn contract_pull_request_calls_are_ones_githubs_openapi_description_accepts() {
    let Some(prism) = support::peer("PRISM_URL") else {
        return;
    };
    let port: u16 = support::peer("PRISM_UPSTREAM_PORT")
        .and_then(|p| p.parse().ok())
        .expect("PRISM_UPSTREAM_PORT is a port");
    let fake = Fake::start_on(port, Some(prism.clone())).await;
    seed_catalog(&fake);
    seed_hub(&fake, true);
    let work = Work::sample();
    let file = catalog_pipeline(&work, &prism);
    for version in ["0.1.0", "0.1.0"] {
        let o = run(&work, &file, version, &[]).await;
        assert_code(&o, 0);
    }
    fake.world().merge(1);
    assert_code(&run(&work, &file, "0.2.0", &[]).await, 0);
    // The operatorhub stage in a job of its own (its catalog is a folder of that job).
    let work = Work::sample();
    let hub = operatorhub_pipeline(&work, &prism);
    assert_code(&run(&work, &hub, "0.2.0", &[]).await, 0);
    let w = fake.world();
    for call in [
        "GET /repos/acme/catalog/git/ref/heads/main",
        "GET /repos/acme/catalog/git/commits/",
        "GET /repos/acme/catalog/git/trees/",
        "GET /repos/acme/catalog/git/blobs/",
        "GET /repos/acme/catalog/pulls?head=",
        "POST /repos/bot/catalog/git/blobs",
        "POST /repos/bot/catalog/git/trees",
        "POST /repos/bot/catalog/git/commits",
        "POST /repos/bot/catalog/git/refs",
        "POST /repos/acme/catalog/pulls",
        "POST /repos/community/operators/pulls",
    ] {
        assert!(
            w.log.iter().any(|l| l.starts_with(call)),
            "{call} never reached the fake: {:#?}",
            w.log
        );
    }
}
