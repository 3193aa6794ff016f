//! Fault scenarios in front of the GitHub fake, and answers that are not the API's.

use super::*;

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
    let options = r#"retries: "3", retry_delay_ms: "5", timeout_seconds: "1", upload_timeout_seconds: "1", rate_limit_wait_seconds: "1""#;
    crate::github::write_pipeline(work, api, options, "")
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
    let sha = |b: &[u8]| olm_release_base::digest::sha256_hex(b);
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
    let fake = crate::fault_proxy::github_fake_behind(&proxy).await;
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

// ---------------------------------------------------------------------------------------------
// GitHub's answers are untrusted too.

fn canned(status: u16, headers: &[(&str, &str)], body: &[u8]) -> Fault {
    Fault::Respond {
        status,
        headers: headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        body: body.to_vec(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn github_answers_that_are_not_the_apis_are_clear_errors_and_publish_nothing() {
    let other = Proxy::start(closed_port(), vec![]);
    let elsewhere: &'static str = Box::leak(
        format!(
            "{}/repos/acme/sample-operator/releases/tags/v0.1.0",
            other.origin
        )
        .into_boxed_str(),
    );
    let json = [("Content-Type", "application/json")];
    let cases: Vec<(&str, Rule, &str)> = vec![
        (
            "an HTML page with 200 on the tag lookup",
            Rule::on(
                GET,
                TAG,
                canned(
                    200,
                    &[("Content-Type", "text/html")],
                    b"<html><title>Sign in</title></html>",
                ),
            ),
            "an HTML page ('Sign in') is not the API's JSON",
        ),
        (
            "invalid JSON on the release list",
            Rule::on(
                GET,
                LIST,
                canned(200, &json, b"[{\"id\": 1, \"tag_name\": "),
            ),
            "unexpected answer: plain text",
        ),
        (
            "a created release without its id",
            Rule::on(
                POST,
                CREATE,
                canned(201, &json, br#"{"tag_name": "v0.1.0", "draft": true}"#),
            ),
            "missing field `id`",
        ),
        (
            "an HTML error page on the draft creation",
            Rule::on(
                POST,
                CREATE,
                canned(
                    400,
                    &[("Content-Type", "text/html")],
                    b"<html><title>Bad Request</title><body>nope</body></html>",
                ),
            ),
            "HTTP 400: an HTML page ('Bad Request')",
        ),
        (
            "a redirect to another host on the tag lookup",
            Rule::on(GET, TAG, canned(302, &[("Location", elsewhere)], b"")),
            "HTTP 302: a redirect to http://127.0.0.1:",
        ),
        (
            "a redirect to another host on an upload",
            Rule::on(POST, UPLOAD, canned(307, &[("Location", elsewhere)], b"")),
            "HTTP 307: a redirect to http://127.0.0.1:",
        ),
    ];
    for (name, rule, want) in cases {
        let proxy = Proxy::start(0, vec![rule]);
        let fake = crate::fault_proxy::github_fake_behind(&proxy).await;
        let work = Arc::new(Work::sample());
        let file = github_pipeline(&work, &proxy.origin);
        let o = github_run(&work, file).await;
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{name}:\n{err}");
        assert!(err.contains(want), "{name}: want '{want}':\n{err}");
        eprintln!("{name}: {}", err.lines().last().unwrap_or(""));
        assert!(!err.contains(TOKEN), "{name}: the token leaked");
        assert!(proxy.faults_applied() > 0, "{name}");
        // Nothing published: at most a draft.
        let w = fake.world();
        assert!(
            w.releases.iter().all(|r| r.draft),
            "{name}: {:#?}",
            w.releases
        );
    }
    // Credentials never crossed to the other host: it saw no request at all.
    assert!(other.seen().iter().all(|s| s.authorization.is_none()));
    assert!(other.seen().is_empty(), "{:#?}", other.seen());
}
