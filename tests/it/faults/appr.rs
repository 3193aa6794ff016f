//! Fault scenarios between olm-release and the real appr server (`APPR_URL`).

use olm_release_appregistry::appr::ApprClient;

use super::*;

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

use crate::appr::{published, rt};

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
