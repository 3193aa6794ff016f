//! Integration tests: the release stage against GitHub, through the real binary.
//!
//! Most tests run the sample pipeline's render and release stages against the in-process fake
//! of the releases API ([`crate::github_fake`]) and inspect its state and request log. The
//! contract test sends the same calls through `prism proxy --errors` with GitHub's own OpenAPI
//! description (started by scripts/peers/prism.sh) in front of the fake.

use std::process::Output;

use crate::github_fake::{Fake, TOKEN};
use crate::support::{self, Work, assert_code, stderr};

const CSV: &str = "sample-operator.v0.1.0.clusterserviceversion.yaml";
const SOURCE: &str = "sample-operatorsource.yaml";
const TEMP_SUFFIX: &str = ".olm-release-new";

/// Writes `pipelines/gh.yaml`: render the sample, then release it to the GitHub at `api` with
/// `options` (the `release.options` map, e.g. short retries) and `release_extra` lines. Shared
/// by the GitHub, fault and secret tests.
pub fn write_pipeline(work: &Work, api: &str, options: &str, release_extra: &str) -> &'static str {
    let yaml = format!(
        r#"name: gh-release
package: sample-operator
channel: alpha
version: 0.1.0
render:
  templates: fixtures/sample-operator/olm
  vars:
    Namespace: sample
    DockerTag: v0.1.0
    RegistryEndpoint: https://quay.io/cnr
    RegistryNamespace: sample
registry:
  url: dir:_out/registry
  namespace: sample
release:
  target: github:acme/sample-operator
  api_url: {api}
  tag: v0.1.0
  assets: ["{{csv}}", {SOURCE}]
  options: {{{options}}}
{release_extra}stages: [render, release]
"#
    );
    std::fs::write(work.path().join("pipelines/gh.yaml"), yaml).unwrap();
    "pipelines/gh.yaml"
}

/// The sample's release to `api`, with fast retries.
fn pipeline(work: &Work, api: &str, release_extra: &str) {
    let options = r#"retry_delay_ms: "5", retries: "4", rate_limit_wait_seconds: "1""#;
    write_pipeline(work, api, options, release_extra);
}

/// Runs the binary off the runtime's threads, so the fake keeps answering.
async fn run(work: &Work, extra: &[&str], token: bool) -> Output {
    let dir = work.path().to_path_buf();
    let mut args = vec!["run".to_string(), "pipelines/gh.yaml".to_string()];
    args.extend(extra.iter().map(|s| s.to_string()));
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let env: &[(&str, &str)] = if token {
            &[("GITHUB_TOKEN", TOKEN)]
        } else {
            &[]
        };
        support::olm_release(&dir, &args, env)
    })
    .await
    .unwrap()
}

/// The rendered file `name`, as bytes.
fn local(work: &Work, name: &str) -> Vec<u8> {
    let out = work.path().join("_out");
    let rel = support::list_files(&out)
        .into_iter()
        .find(|f| f.ends_with(&format!("/{name}")) && !f.starts_with("registry"))
        .unwrap_or_else(|| panic!("{name} not rendered under {}", out.display()));
    std::fs::read(out.join(rel)).unwrap()
}

fn sha(bytes: &[u8]) -> String {
    olm_release_base::digest::sha256_hex(bytes)
}

/// Asserts the release holds exactly the local CSV, OperatorSource and SHA256SUMS, uploaded.
fn assert_release_complete(fake: &Fake, work: &Work) {
    let w = fake.world();
    let r = w.release("v0.1.0").expect("the release exists");
    let mut names: Vec<&str> = r.assets.iter().map(|a| a.name.as_str()).collect();
    names.sort();
    assert_eq!(names, vec!["SHA256SUMS", CSV, SOURCE], "{:#?}", w.log);
    for a in &r.assets {
        assert_eq!(a.state, "uploaded", "{}", a.name);
    }
    let get = |n: &str| r.assets.iter().find(|a| a.name == n).unwrap().bytes.clone();
    assert_eq!(get(CSV), local(work, CSV), "CSV bytes differ");
    assert_eq!(
        get(SOURCE),
        local(work, SOURCE),
        "OperatorSource bytes differ"
    );
    let sums = String::from_utf8(get("SHA256SUMS")).unwrap();
    assert_eq!(
        sums,
        format!(
            "{}  {CSV}\n{}  {SOURCE}\n",
            sha(&local(work, CSV)),
            sha(&local(work, SOURCE))
        )
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creates_a_draft_uploads_byte_exact_then_publishes_last() {
    let fake = Fake::start(false).await;
    let work = Work::sample();
    pipeline(&work, &fake.api, "  prerelease: true\n");
    let o = run(&work, &[], true).await;
    assert_code(&o, 0);
    assert_release_complete(&fake, &work);
    let w = fake.world();
    let r = w.release("v0.1.0").unwrap();
    assert!(!r.draft && r.prerelease, "published, still a prerelease");
    let create = w
        .position("POST /repos/acme/sample-operator/releases")
        .unwrap();
    let uploads: Vec<usize> = (0..w.log.len())
        .filter(|&i| w.log[i].starts_with("POST") && w.log[i].contains("?name="))
        .collect();
    let publish = w
        .log
        .iter()
        .rposition(|l| l.starts_with("PATCH /repos/acme/sample-operator/releases/"))
        .unwrap();
    assert_eq!(uploads.len(), 3, "{:#?}", w.log);
    assert!(create < uploads[0] && uploads[2] < publish, "{:#?}", w.log);
    assert!(w.log[uploads[2]].ends_with("name=SHA256SUMS"), "sums last");
    assert!(
        stderr(&o).contains("published upload asset SHA256SUMS"),
        "{}",
        stderr(&o)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rerun_keeps_identical_assets_and_replaces_a_changed_one_without_a_gap() {
    let fake = Fake::start(false).await;
    let work = Work::sample();
    pipeline(&work, &fake.api, "");
    assert_code(&run(&work, &[], true).await, 0);
    let before = fake.world().log.len();
    // Same inputs again: nothing is written.
    let o = run(&work, &[], true).await;
    assert_code(&o, 0);
    {
        let w = fake.world();
        let writes: Vec<&String> = w.log[before..]
            .iter()
            .filter(|l| !l.starts_with("GET"))
            .collect();
        assert!(
            writes.is_empty(),
            "a converged release got writes: {writes:?}"
        );
        assert!(stderr(&o).contains(&format!("unchanged: asset {CSV}")));
    }
    // Someone uploaded other bytes under the OperatorSource's name: replaced, never absent.
    let old = {
        let mut w = fake.world();
        let r = w.releases.iter_mut().find(|r| r.tag == "v0.1.0").unwrap();
        let a = r.assets.iter_mut().find(|a| a.name == SOURCE).unwrap();
        a.bytes = b"stale content".to_vec();
        a.id
    };
    // A published asset is immutable: refused with both digests, nothing written; the dry-run
    // says it would refuse.
    let before = fake.world().log.len();
    let stale = olm_release_base::digest::sha256_hex(b"stale content");
    let want = olm_release_base::digest::sha256_hex(&local(&work, SOURCE));
    for (args, code, says) in [
        (&["--dry-run"][..], 0, "would refuse"),
        (&[][..], 1, "re-run with --force to replace them"),
    ] {
        let o = run(&work, args, true).await;
        assert_code(&o, code);
        let err = stderr(&o);
        assert!(err.contains(says), "{err}");
        assert!(
            err.contains(&format!(
                "{SOURCE} (published sha256:{stale}, local sha256:{want})"
            )),
            "{err}"
        );
    }
    {
        let w = fake.world();
        let writes: Vec<&String> = w.log[before..]
            .iter()
            .filter(|l| !l.starts_with("GET"))
            .collect();
        assert!(writes.is_empty(), "a refused replace wrote: {writes:?}");
    }
    let before = fake.world().log.len();
    assert_code(&run(&work, &["--force"], true).await, 0);
    assert_release_complete(&fake, &work);
    let w = fake.world();
    let log = &w.log[before..];
    let at = |needle: &str| {
        log.iter()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no {needle} in {log:#?}"))
    };
    let temp_upload = at(&format!("?name={SOURCE}{TEMP_SUFFIX}"));
    let delete_old = at(&format!(
        "DELETE /repos/acme/sample-operator/releases/assets/{old}"
    ));
    let rename = at("PATCH /repos/acme/sample-operator/releases/assets/");
    assert!(temp_upload < delete_old && delete_old < rename, "{log:#?}");
    assert_eq!(
        log.iter().filter(|l| l.starts_with("POST")).count(),
        1,
        "only the changed asset is uploaded: {log:#?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finds_a_draft_on_a_later_page_and_cleans_its_starter_leftover() {
    let fake = Fake::start(false).await;
    {
        let mut w = fake.world();
        w.page_cap = 2;
        w.seed_release("v0.1.0", true);
        w.seed_asset("v0.1.0", CSV, "starter", b"");
        for tag in ["v0.0.3", "v0.0.2", "v0.0.1", "v0.0.0"] {
            w.seed_release(tag, false);
        }
    }
    let work = Work::sample();
    pipeline(&work, &fake.api, "");
    let o = run(&work, &[], true).await;
    assert_code(&o, 0);
    assert_release_complete(&fake, &work);
    let w = fake.world();
    assert_eq!(w.releases.len(), 5, "no second release was created");
    assert!(
        w.requests("POST /repos/acme/sample-operator/releases ")
            .is_empty()
    );
    assert!(
        w.position("/releases?per_page=100&page=3").is_some(),
        "{:#?}",
        w.log
    );
    assert!(
        w.position("DELETE /repos/acme/sample-operator/releases/assets/")
            .is_some()
    );
    assert!(!w.release("v0.1.0").unwrap().draft);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_502_mid_upload_leaves_a_starter_that_is_deleted_before_the_retry() {
    let fake = Fake::start(false).await;
    fake.world().uploads_502 = 1;
    let work = Work::sample();
    pipeline(&work, &fake.api, "");
    let o = run(&work, &[], true).await;
    assert_code(&o, 0);
    assert_release_complete(&fake, &work);
    let w = fake.world();
    let uploads = w.log.iter().filter(|l| l.contains("?name=")).count();
    assert_eq!(uploads, 4, "one upload retried: {:#?}", w.log);
    assert_eq!(
        w.requests("DELETE").len(),
        1,
        "the starter asset is deleted: {:#?}",
        w.log
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secondary_rate_limit_is_waited_out() {
    let fake = Fake::start(false).await;
    fake.world().uploads_limited = 1;
    let work = Work::sample();
    pipeline(&work, &fake.api, "");
    let o = run(&work, &[], true).await;
    assert_code(&o, 0);
    assert_release_complete(&fake, &work);
    assert_eq!(
        fake.world()
            .log
            .iter()
            .filter(|l| l.contains("?name="))
            .count(),
        4
    );
    assert!(
        stderr(&o).contains("secondary rate limit"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("retrying in 1.0s"), "{}", stderr(&o));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_422_is_never_retried() {
    let fake = Fake::start(false).await;
    fake.world().creates_422 = 5;
    let work = Work::sample();
    pipeline(&work, &fake.api, "");
    let o = run(&work, &[], true).await;
    assert_code(&o, 1);
    assert!(stderr(&o).contains("HTTP 422"), "{}", stderr(&o));
    assert!(!stderr(&o).contains(TOKEN), "the token leaked");
    assert_eq!(
        fake.world()
            .requests("POST /repos/acme/sample-operator/releases")
            .len(),
        1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn github_enterprise_uses_api_v3_and_api_uploads() {
    let fake = Fake::start(true).await;
    assert!(fake.api.ends_with("/api/v3"));
    let work = Work::sample();
    pipeline(&work, &fake.api, "");
    let o = run(&work, &[], true).await;
    assert_code(&o, 0);
    assert_release_complete(&fake, &work);
    let w = fake.world();
    for l in &w.log {
        let path = l.split(' ').nth(1).unwrap();
        if l.contains("?name=") {
            assert!(path.starts_with("/api/uploads/repos/"), "{l}");
        } else {
            assert!(path.starts_with("/api/v3/repos/"), "{l}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dry_run_without_a_token_lists_every_write_and_sends_nothing() {
    let fake = Fake::start(false).await;
    let work = Work::sample();
    pipeline(&work, &fake.api, "");
    let o = run(&work, &["--dry-run", "--format", "json"], false).await;
    assert_code(&o, 0);
    assert!(fake.world().log.is_empty(), "{:#?}", fake.world().log);
    let summary: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let skipped: Vec<String> = summary["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| format!("{} {}", w["what"], w["digest"]))
        .collect();
    let csv = local(&work, CSV);
    let expect_csv = format!(
        "\"upload asset {CSV} ({} bytes)\" \"{}\"",
        csv.len(),
        sha(&csv)
    );
    assert!(skipped.contains(&expect_csv), "{skipped:#?}");
    assert!(
        skipped
            .iter()
            .any(|s| s.contains("upload asset SHA256SUMS"))
    );
    assert!(
        skipped
            .iter()
            .any(|s| s.contains("find or create draft release v0.1.0"))
    );
    assert!(skipped.iter().any(|s| s.contains("publish release v0.1.0")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dry_run_with_a_token_reads_and_says_what_it_would_keep_and_replace() {
    let fake = Fake::start(false).await;
    let work = Work::sample();
    pipeline(&work, &fake.api, "");
    // Render once to know the local bytes, then seed a published release holding the same CSV
    // and a different OperatorSource.
    assert_code(&run(&work, &["--dry-run"], false).await, 0);
    {
        let mut w = fake.world();
        w.log.clear();
        w.seed_release("v0.1.0", false);
        w.seed_asset("v0.1.0", CSV, "uploaded", &local(&work, CSV));
        w.seed_asset("v0.1.0", SOURCE, "uploaded", b"old");
    }
    let o = run(&work, &["--dry-run"], true).await;
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(
        err.contains("would refuse") && err.contains(&format!("{SOURCE} (published sha256:")),
        "{err}"
    );
    let o = run(&work, &["--dry-run", "--force"], true).await;
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(err.contains(&format!("unchanged: asset {CSV}")), "{err}");
    assert!(
        err.contains(&format!("dry-run: skipped replace asset {SOURCE}")),
        "{err}"
    );
    assert!(
        err.contains("dry-run: skipped upload asset SHA256SUMS"),
        "{err}"
    );
    let w = fake.world();
    assert!(
        !w.log.is_empty() && w.log.iter().all(|l| l.starts_with("GET")),
        "{:#?}",
        w.log
    );
}

/// A draft is not published: a re-run completes it whatever it holds, without `--force`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draft_left_by_an_interrupted_run_is_completed_without_force() {
    let fake = Fake::start(false).await;
    let work = Work::sample();
    pipeline(&work, &fake.api, "");
    {
        let mut w = fake.world();
        w.seed_release("v0.1.0", true);
        w.seed_asset("v0.1.0", SOURCE, "uploaded", b"from an earlier attempt");
    }
    let o = run(&work, &[], true).await;
    assert_code(&o, 0);
    assert!(!stderr(&o).contains("would refuse"), "{}", stderr(&o));
    assert_release_complete(&fake, &work);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_run_without_a_token_is_an_input_error_before_any_request() {
    let fake = Fake::start(false).await;
    let work = Work::sample();
    pipeline(&work, &fake.api, "");
    let o = run(&work, &[], false).await;
    assert_code(&o, 2);
    assert!(stderr(&o).contains("GITHUB_TOKEN"), "{}", stderr(&o));
    assert!(fake.world().log.is_empty());
}

/// Every JSON call (and the ASCII uploads) of a first run and of a replacing re-run pass
/// `prism proxy --errors` with GitHub's own description of the release paths, and the fake's
/// answers pass its response validation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn contract_every_call_is_one_githubs_openapi_description_accepts() {
    let Some(prism) = support::peer("PRISM_URL") else {
        return;
    };
    let port: u16 = support::peer("PRISM_UPSTREAM_PORT")
        .and_then(|p| p.parse().ok())
        .expect("PRISM_UPSTREAM_PORT is a port");
    let fake = Fake::start_on(port, Some(prism.clone()), false).await;
    let work = Work::sample();
    // Release notes: the body on create, and its update on the re-run.
    let changelog = work.path().join("CHANGELOG.md");
    std::fs::write(&changelog, "## [0.1.0]\n- first\n").unwrap();
    pipeline(&work, &prism, "  prerelease: true\n");
    let o = run(&work, &[], true).await;
    assert_code(&o, 0);
    assert_release_complete(&fake, &work);
    std::fs::write(&changelog, "## [0.1.0]\n- first, fixed\n").unwrap();
    {
        let mut w = fake.world();
        let r = w.releases.iter_mut().find(|r| r.tag == "v0.1.0").unwrap();
        r.assets
            .iter_mut()
            .find(|a| a.name == SOURCE)
            .unwrap()
            .bytes = b"stale".to_vec();
    }
    // A changed asset on a published release is replaced only when asked to.
    let o = run(&work, &["--force"], true).await;
    assert_code(&o, 0);
    assert_release_complete(&fake, &work);
    let w = fake.world();
    let body = w.release("v0.1.0").and_then(|r| r.body.clone());
    assert_eq!(body.as_deref(), Some("- first, fixed\n"));
    for call in [
        "GET /repos/acme/sample-operator/releases/tags/",
        "POST /repos/acme/sample-operator/releases",
        "DELETE /repos/acme/sample-operator/releases/assets/",
        "PATCH /repos/acme/sample-operator/releases/assets/",
        "PATCH /repos/acme/sample-operator/releases/",
    ] {
        assert!(
            w.position(call).is_some(),
            "{call} never reached the fake: {:#?}",
            w.log
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replace_interrupted_after_its_upload_is_finished_without_uploading_again() {
    let fake = Fake::start(false).await;
    let work = Work::sample();
    pipeline(&work, &fake.api, "");
    assert_code(&run(&work, &[], true).await, 0);
    // As if a previous run uploaded the new copy under its temporary name and then died.
    let (old, temp) = {
        let mut w = fake.world();
        let r = w.releases.iter_mut().find(|r| r.tag == "v0.1.0").unwrap();
        let a = r.assets.iter_mut().find(|a| a.name == SOURCE).unwrap();
        let good = std::mem::replace(&mut a.bytes, b"previous release's bytes".to_vec());
        let old = a.id;
        let temp = w.seed_asset(
            "v0.1.0",
            &format!("{SOURCE}{TEMP_SUFFIX}"),
            "uploaded",
            &good,
        );
        w.log.clear();
        (old, temp)
    };
    // The interrupted run was a forced replace of a published asset; its re-run is too.
    let o = run(&work, &["--force"], true).await;
    assert_code(&o, 0);
    assert_release_complete(&fake, &work);
    let w = fake.world();
    assert!(w.requests("POST").is_empty(), "no upload: {:#?}", w.log);
    let delete = w.position(&format!(
        "DELETE /repos/acme/sample-operator/releases/assets/{old}"
    ));
    let rename = w.position(&format!(
        "PATCH /repos/acme/sample-operator/releases/assets/{temp}"
    ));
    assert!(delete.unwrap() < rename.unwrap(), "{:#?}", w.log);
    assert!(!stderr(&o).contains(TOKEN));
}

/// All or nothing across targets: a rerun whose OperatorSource differs from the one
/// on the published GitHub release is refused before the push, so the app registry is not
/// written and the run is not left half published.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_release_the_release_step_would_refuse_is_asked_before_the_push() {
    let fake = Fake::start(false).await;
    let work = Work::sample();
    // The sample pipeline (push, bundle-image, catalog, then release), released on GitHub.
    let text = std::fs::read_to_string(work.path().join("pipelines/sample.yaml")).unwrap();
    assert!(text.contains("  target: dir:_out/release\n"));
    let text = text.replace(
        "  target: dir:_out/release\n",
        &format!(
            "  target: github:acme/sample-operator\n  api_url: {}\n",
            fake.api
        ),
    );
    std::fs::write(work.path().join("pipelines/gh.yaml"), text).unwrap();
    assert_code(&run(&work, &["--dry-run"], false).await, 0);
    {
        let mut w = fake.world();
        w.seed_release("v0.1.0", false);
        w.seed_asset("v0.1.0", CSV, "uploaded", &local(&work, CSV));
        w.seed_asset("v0.1.0", SOURCE, "uploaded", b"old");
        w.log.clear();
    }
    let o = run(&work, &[], true).await;
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("stage preflight"), "{err}");
    assert!(
        err.contains("a published asset differs from the local one:")
            && err.contains(&format!("{SOURCE} (published sha256:")),
        "{err}"
    );
    let registry =
        olm_release_appregistry::dir::DirRegistry::new(work.path().join("_out/registry"));
    let pushed = registry
        .releases("sample", "sample-operator")
        .unwrap_or_default();
    assert!(pushed.is_empty(), "pushed before the refusal: {pushed:?}");
    assert!(
        !work.path().join("_out/oci").exists(),
        "a bundle image was written before the refusal"
    );
    assert!(
        fake.world().log.iter().all(|l| l.starts_with("GET")),
        "{:?}",
        fake.world().log
    );
}
