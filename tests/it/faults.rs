//! Faults survived: olm-release behind our fault-injecting proxy ([`crate::fault_proxy`]), in
//! front of the real appr server (`APPR_URL`) and of the GitHub fake.
//!
//! Each scenario injects one kind of fault (connection refused, the server going away, a reset
//! mid-body, a truncated body, 502/503 before or after upstream acted, 429 with `retry-after`,
//! a stall past the client's timeout) at one point of a run, then checks: the run either
//! completed or failed with exit 1 and a clear message; the server holds nothing half-published
//! (no release, or the whole release with the digest of the bundle we built; on GitHub no
//! published release with missing or partial assets); and a re-run without faults converges to
//! the same published digest. The scenarios of a table run in parallel, each with its own
//! namespace (appr) or fake (GitHub), and a summary line reports the count and outcomes.

use std::process::Output;
use std::sync::Arc;

use olm_release::registry::appr::ApprClient;

use crate::appr::{PKG, pipeline_at, run, tarball, unique};
use crate::fault_proxy::{Fault, Proxy, Rule, closed_port, port_of};
use crate::github_fake::{self, TOKEN};
use crate::quay_fake::digest_of;
use crate::support::{self, Work, stderr, stdout};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Completed,
    FailedCleanly,
}

/// Exit 0 or 1, never a panic or another code.
#[track_caller]
fn outcome(name: &str, o: &Output) -> Outcome {
    let all = format!("{}{}", stderr(o), stdout(o));
    assert!(!all.contains("panicked"), "{name}: a panic:\n{all}");
    match o.status.code() {
        Some(0) => Outcome::Completed,
        Some(1) => Outcome::FailedCleanly,
        other => panic!("{name}: exit {other:?}:\n{all}"),
    }
}

/// Prints and returns the summary line of a table of scenarios.
fn summary(what: &str, results: &[(&str, Outcome)]) -> String {
    let done = results.iter().filter(|r| r.1 == Outcome::Completed).count();
    let line = format!(
        "{what} fault scenarios: {}, completed: {done}, failed cleanly: {}",
        results.len(),
        results.len() - done
    );
    for (name, o) in results {
        eprintln!("  {what}: {name}: {o:?}");
    }
    eprintln!("{line}");
    println!("{line}");
    line
}

// ---------------------------------------------------------------------------------------------
// The app registry.

struct ApprCase {
    name: &'static str,
    /// Publish 0.1.0 first (directly), so the faulty run (0.2.0) pulls a previous bundle.
    previous: bool,
    /// Point the pipeline at a port where nothing listens instead of the proxy.
    refused: bool,
    rules: Vec<Rule>,
    expect: Outcome,
}

const RELEASES: &str = "?media_type=helm";
const BLOB: &str = "/blobs/sha256/";
const PULL: &str = "/helm/pull";
const GET: Option<&str> = Some("GET");
const POST: Option<&str> = Some("POST");

fn appr_cases() -> Vec<ApprCase> {
    use Outcome::*;
    let case = |name, previous, rules, expect| ApprCase {
        name,
        previous,
        refused: false,
        rules,
        expect,
    };
    vec![
        ApprCase {
            name: "connection refused throughout",
            previous: false,
            refused: true,
            rules: vec![],
            expect: FailedCleanly,
        },
        case(
            "server goes away at the push",
            false,
            vec![Rule::on(POST, "/", Fault::GoAway)],
            FailedCleanly,
        ),
        case(
            "reset mid-body on the previous blob",
            true,
            vec![Rule::on(GET, BLOB, Fault::ResetMidBody).times(1)],
            Completed,
        ),
        case(
            "truncated release list",
            true,
            vec![Rule::on(GET, RELEASES, Fault::TruncateBody).times(1)],
            Completed,
        ),
        case(
            "reset after the push was stored",
            false,
            vec![Rule::on(POST, "/", Fault::ResetMidBody).times(1)],
            Completed,
        ),
        case(
            "reset on the pull-back",
            false,
            vec![Rule::on(GET, PULL, Fault::Reset).times(1)],
            Completed,
        ),
        case(
            "502 twice on the release list",
            true,
            vec![Rule::on(GET, RELEASES, Fault::Status(502)).times(2)],
            Completed,
        ),
        case(
            "503 on every push",
            false,
            vec![Rule::on(POST, "/", Fault::Status(503))],
            FailedCleanly,
        ),
        case(
            "502 after the push was stored",
            false,
            vec![Rule::on(POST, "/", Fault::StatusAfterForward(502)).times(1)],
            Completed,
        ),
        case(
            "429 retry-after on the push",
            false,
            vec![Rule::on(POST, "/", Fault::RateLimit(1)).times(1)],
            Completed,
        ),
        case(
            "429 on every read",
            true,
            vec![Rule::on(GET, "/", Fault::RateLimit(0))],
            FailedCleanly,
        ),
        case(
            "stall past the timeout on the previous blob",
            true,
            vec![Rule::on(GET, BLOB, Fault::Stall).times(1)],
            Completed,
        ),
        case(
            "stall after every push was stored",
            false,
            vec![Rule::on(POST, "/", Fault::StallAfterForward)],
            Completed,
        ),
        case(
            "stall on every request",
            false,
            vec![Rule::on(None, "/", Fault::Stall)],
            FailedCleanly,
        ),
    ]
}

/// Release → digest, as the server reports it.
fn published(url: &str, ns: &str) -> Vec<(String, String)> {
    let client = ApprClient::new(url, None).unwrap();
    rt().block_on(client.releases(ns, PKG))
        .unwrap()
        .into_iter()
        .map(|r| (r.release, r.digest))
        .collect()
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// What the server serves for `release`, checked whole: the digest it reports and the digest
/// of the blob it serves by release name must agree. `None` when absent.
fn served(url: &str, ns: &str, release: &str) -> Option<String> {
    let listed = published(url, ns)
        .into_iter()
        .find(|(r, _)| r == release)?
        .1;
    let client = ApprClient::new(url, None).unwrap();
    let gz = rt()
        .block_on(client.pull_release(ns, PKG, release))
        .unwrap();
    assert_eq!(
        digest_of(&gz),
        listed,
        "{ns}: release {release} is listed with one digest and serves another"
    );
    Some(listed)
}

const FAST: &str = "  retries: 2\n  timeout_seconds: 1\n  retry_max_seconds: 20\n";

/// Runs one scenario; returns its outcome and the digest the re-run converged to.
fn appr_case(url: &str, case: &ApprCase) -> (Outcome, String) {
    let name = case.name;
    let work = Work::sample();
    let ns = unique("fault");
    let version = if case.previous { "0.2.0" } else { "0.1.0" };
    let mut before = Vec::new();
    if case.previous {
        let file = pipeline_at(&work, url, &ns, FAST);
        support::assert_code(&run(&work, file, "0.1.0", &[], &[]), 0);
        before = published(url, &ns);
    }
    let proxy = Proxy::start(port_of(url), case.rules.clone());
    let via = if case.refused {
        format!("http://127.0.0.1:{}/cnr", closed_port())
    } else {
        format!("{}/cnr", proxy.origin)
    };
    let file = pipeline_at(&work, &via, &ns, FAST);
    let o = run(&work, file, version, &[], &[]);
    let got = outcome(name, &o);
    let err = stderr(&o);
    assert_eq!(got, case.expect, "{name}:\n{err}");
    assert!(
        case.refused || proxy.faults_applied() > 0,
        "{name}: no fault was injected: {:#?}",
        proxy.seen()
    );
    // Nothing half-published: the release is absent, or whole with our bundle's digest.
    // (A run that failed before the package stage built no bundle.)
    let built = std::fs::read(tarball(&work, version))
        .ok()
        .map(|gz| digest_of(&gz));
    let now = served(url, &ns, version);
    match got {
        Outcome::Completed => {
            assert!(built.is_some(), "{name}");
            assert_eq!(now, built, "{name}");
        }
        Outcome::FailedCleanly => {
            assert_eq!(now, None, "{name}: failed, yet published:\n{err}");
            // A failed push says where things stand: not published, or (when the registry
            // cannot be reached to look) that it must be checked by hand.
            assert!(
                !err.contains("stage push")
                    || err.contains("nothing was published")
                    || err.contains("by hand"),
                "{name}: a failed push must say where things stand:\n{err}"
            );
        }
    }
    if case.previous {
        let kept: Vec<_> = published(url, &ns)
            .into_iter()
            .filter(|(r, _)| r == "0.1.0")
            .collect();
        assert_eq!(kept, before, "{name}: the previous release changed");
    }
    drop(proxy);
    // A re-run without faults converges to the same digest.
    let file = pipeline_at(&work, url, &ns, FAST);
    let again = run(&work, file, version, &[], &[]);
    support::assert_code(&again, 0);
    let ours = digest_of(&std::fs::read(tarball(&work, version)).unwrap());
    if let Some(b) = &built {
        assert_eq!(b, &ours, "{name}: the re-run built another bundle");
    }
    assert_eq!(served(url, &ns, version), Some(ours.clone()), "{name}");
    if got == Outcome::Completed {
        assert!(
            stderr(&again).contains("already published"),
            "{name}: {}",
            stderr(&again)
        );
    }
    (got, ours)
}

#[test]
fn faults_between_olm_release_and_the_appr_server() {
    let Some(url) = support::peer("APPR_URL") else {
        return;
    };
    let cases = appr_cases();
    let results: Vec<(Outcome, String)> = std::thread::scope(|s| {
        let mut out = Vec::new();
        // A few at a time: the server and the two cores are shared.
        for chunk in cases.chunks(5) {
            let handles: Vec<_> = chunk
                .iter()
                .map(|c| s.spawn(|| appr_case(&url, c)))
                .collect();
            for (h, c) in handles.into_iter().zip(chunk) {
                match h.join() {
                    Ok(r) => out.push(r),
                    Err(_) => panic!("scenario '{}' failed (see above)", c.name),
                }
            }
        }
        out
    });
    // Faults never change what is built: every first release, and every second one, has one
    // digest whatever happened on the way.
    for previous in [false, true] {
        let digests: std::collections::BTreeSet<&String> = cases
            .iter()
            .zip(&results)
            .filter(|(c, _)| c.previous == previous)
            .map(|(_, r)| &r.1)
            .collect();
        assert_eq!(digests.len(), 1, "previous={previous}: {digests:?}");
    }
    let named: Vec<(&str, Outcome)> = cases
        .iter()
        .zip(&results)
        .map(|(c, r)| (c.name, r.0))
        .collect();
    let line = summary("appr", &named);
    assert!(line.contains("completed: 9, failed cleanly: 5"), "{line}");
}

// ---------------------------------------------------------------------------------------------
// The GitHub release target.

const CSV: &str = "sample-operator.v0.1.0.clusterserviceversion.yaml";
const SOURCE: &str = "sample-operatorsource.yaml";

struct GitHubCase {
    name: &'static str,
    refused: bool,
    rules: Vec<Rule>,
    expect: Outcome,
}

const TAG: &str = "/releases/tags/";
const LIST: &str = "/releases?per_page";
const CREATE: &str = "/repos/acme/sample-operator/releases$";
const ASSETS: &str = "/assets?per_page";
const UPLOAD: &str = "/assets?name=";
/// The draft the fake creates first has id 1; publishing it is this PATCH.
const PUBLISH: &str = "/repos/acme/sample-operator/releases/1$";
const PATCH: Option<&str> = Some("PATCH");

fn github_cases() -> Vec<GitHubCase> {
    use Outcome::*;
    let case = |name, rules, expect| GitHubCase {
        name,
        refused: false,
        rules,
        expect,
    };
    vec![
        GitHubCase {
            name: "connection refused throughout",
            refused: true,
            rules: vec![],
            expect: FailedCleanly,
        },
        case(
            "reset on the tag lookup",
            vec![Rule::on(GET, TAG, Fault::Reset).times(1)],
            Completed,
        ),
        case(
            "502 on the draft creation",
            vec![Rule::on(POST, CREATE, Fault::Status(502)).times(1)],
            Completed,
        ),
        case(
            "reset after the draft was created",
            vec![Rule::on(POST, CREATE, Fault::ResetMidBody).times(1)],
            Completed,
        ),
        case(
            "429 retry-after on the release list",
            vec![Rule::on(GET, LIST, Fault::RateLimit(1)).times(1)],
            Completed,
        ),
        case(
            "truncated asset list",
            vec![Rule::on(GET, ASSETS, Fault::TruncateBody).times(1)],
            Completed,
        ),
        case(
            "502 after an upload was stored",
            vec![Rule::on(POST, UPLOAD, Fault::StatusAfterForward(502)).times(1)],
            Completed,
        ),
        case(
            "503 on every upload",
            vec![Rule::on(POST, UPLOAD, Fault::Status(503))],
            FailedCleanly,
        ),
        case(
            "stall past the timeout on an upload",
            vec![Rule::on(POST, UPLOAD, Fault::Stall).times(1)],
            Completed,
        ),
        case(
            "server goes away before publishing",
            vec![Rule::on(PATCH, PUBLISH, Fault::GoAway)],
            FailedCleanly,
        ),
        case(
            "stall after every publish was applied",
            vec![Rule::on(PATCH, PUBLISH, Fault::StallAfterForward)],
            FailedCleanly,
        ),
        case(
            "stall on every request",
            vec![Rule::on(None, "/", Fault::Stall)],
            FailedCleanly,
        ),
    ]
}

/// Writes `pipelines/gh.yaml`: render, then release to `api` with short timeouts and retries.
fn github_pipeline(work: &Work, api: &str) -> &'static str {
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
  options: {{retries: "3", retry_delay_ms: "5", timeout_seconds: "1", upload_timeout_seconds: "1", rate_limit_wait_seconds: "1"}}
stages: [render, release]
"#
    );
    std::fs::write(work.path().join("pipelines/gh.yaml"), yaml).unwrap();
    "pipelines/gh.yaml"
}

/// Runs the pipeline with the token, off the runtime's threads so the fake keeps answering.
async fn github_run(work: &Arc<Work>, file: &'static str) -> Output {
    let work = work.clone();
    tokio::task::spawn_blocking(move || work.run(&["run", file], &[("GITHUB_TOKEN", TOKEN)]))
        .await
        .unwrap()
}

/// The rendered file `name`.
fn rendered(work: &Work, name: &str) -> Vec<u8> {
    let out = work.path().join("_out");
    let rel = support::list_files(&out)
        .into_iter()
        .find(|f| f.ends_with(&format!("/{name}")) && !f.starts_with("registry"))
        .unwrap_or_else(|| panic!("{name} not rendered"));
    std::fs::read(out.join(rel)).unwrap()
}

/// What GitHub serves for the tag: `None` (no release), `Some(None)` (a draft: invisible to
/// users, whatever its assets), or `Some(Some(assets))` for a published release, which must be
/// whole: exactly the CSV, the OperatorSource and SHA256SUMS, uploaded, byte for byte.
fn github_state(name: &str, fake: &github_fake::Fake, work: &Work) -> Option<Option<Vec<String>>> {
    let w = fake.world();
    let r = w.release("v0.1.0")?;
    if r.draft {
        return Some(None);
    }
    let mut assets: Vec<String> = r
        .assets
        .iter()
        .map(|a| {
            format!(
                "{} {}",
                a.name,
                a.digest().unwrap_or_else(|| a.state.clone())
            )
        })
        .collect();
    assets.sort();
    let sha = |b: &[u8]| olm_release::olm::archive::sha256_hex(b);
    let (csv, source) = (rendered(work, CSV), rendered(work, SOURCE));
    let sums = format!("{}  {CSV}\n{}  {SOURCE}\n", sha(&csv), sha(&source));
    let mut want = vec![
        format!("SHA256SUMS sha256:{}", sha(sums.as_bytes())),
        format!("{CSV} sha256:{}", sha(&csv)),
        format!("{SOURCE} sha256:{}", sha(&source)),
    ];
    want.sort();
    assert_eq!(
        assets, want,
        "{name}: a published release with missing or partial assets"
    );
    Some(Some(assets))
}

async fn github_case(case: GitHubCase) -> (Outcome, Vec<String>) {
    let name = case.name;
    let proxy = Proxy::start(0, case.rules.clone());
    let port = closed_port();
    let fake = github_fake::Fake::start_on(port, Some(proxy.origin.clone()), false).await;
    proxy.upstream(port);
    let work = Arc::new(Work::sample());
    let api = if case.refused {
        format!("http://127.0.0.1:{}", closed_port())
    } else {
        proxy.origin.clone()
    };
    let file = github_pipeline(&work, &api);
    let o = github_run(&work, file).await;
    let got = outcome(name, &o);
    assert_eq!(got, case.expect, "{name}:\n{}", stderr(&o));
    assert!(
        case.refused || proxy.faults_applied() > 0,
        "{name}: no fault was injected: {:#?}",
        proxy.seen()
    );
    assert!(!stderr(&o).contains(TOKEN), "{name}: the token leaked");
    let state = github_state(name, &fake, &work);
    if got == Outcome::Completed {
        assert!(
            matches!(state, Some(Some(_))),
            "{name}: completed but not published"
        );
    }
    if case.refused {
        assert!(fake.world().log.is_empty());
    }
    // A re-run without faults publishes the whole release.
    proxy.clear();
    proxy.revive();
    let file = github_pipeline(&work, &proxy.origin);
    let again = github_run(&work, file).await;
    support::assert_code(&again, 0);
    let Some(Some(assets)) = github_state(name, &fake, &work) else {
        panic!("{name}: the re-run did not publish:\n{}", stderr(&again));
    };
    if let Some(Some(first)) = state {
        assert_eq!(first, assets, "{name}");
    }
    (got, assets)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_between_olm_release_and_the_github_fake() {
    let cases = github_cases();
    let names: Vec<&str> = cases.iter().map(|c| c.name).collect();
    let mut results = Vec::new();
    let mut pending = cases.into_iter().peekable();
    while pending.peek().is_some() {
        let batch: Vec<_> = pending
            .by_ref()
            .take(6)
            .map(|c| tokio::spawn(github_case(c)))
            .collect();
        for h in batch {
            results.push(h.await.expect("a scenario failed (see above)"));
        }
    }
    // Whatever happened on the way, every run converged to the same published assets.
    let finals: std::collections::BTreeSet<&Vec<String>> = results.iter().map(|r| &r.1).collect();
    assert_eq!(finals.len(), 1, "{finals:#?}");
    let named: Vec<(&str, Outcome)> = names
        .iter()
        .copied()
        .zip(results.iter().map(|r| r.0))
        .collect();
    let line = summary("github", &named);
    assert!(line.contains("completed: 7, failed cleanly: 5"), "{line}");
}
