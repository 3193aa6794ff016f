//! Each branch of the convergence decision, made deterministic: the fault proxy publishes
//! another release (built beforehand in a `dir:` registry, as another job would have pushed it)
//! on the real appr server just before the job's push.

use std::sync::Arc;

use olm_release_appregistry::appr::ApprClient;

use super::{Reg, converged, job_work};
use crate::appr::{PKG, rt, tarball, unique};
use crate::fault_proxy::{Fault, Hook, Proxy, Rule};
use crate::support::{assert_code, peer, stderr, stdout};

/// The tarball of `versions`' last, published one after the other into a fresh `dir:`
/// registry: a release as another job would have pushed it.
fn built(versions: &[&str]) -> Vec<u8> {
    let root = tempfile::tempdir().unwrap();
    let reg = Reg::Dir(root.path().join("registry"));
    let (work, file) = job_work(&reg, "built", 3);
    for v in versions {
        assert_code(&crate::appr::run(&work, file, v, &[], &[]), 0);
    }
    std::fs::read(tarball(&work, versions.last().unwrap())).unwrap()
}

/// A hook that pushes each `(release, tarball)` to the appr server, as concurrent jobs would.
fn lands(url: &str, ns: &str, releases: Vec<(&'static str, Vec<u8>)>) -> Hook {
    let (url, ns) = (url.to_string(), ns.to_string());
    Hook(Arc::new(move || {
        let (url, ns, releases) = (url.clone(), ns.clone(), releases.clone());
        // The hook runs inside the proxy's runtime: push from a thread of its own.
        std::thread::spawn(move || {
            let c = ApprClient::new(&url, None).unwrap();
            for (r, gz) in releases {
                rt().block_on(c.push(&ns, PKG, r, &gz, false)).unwrap();
            }
        })
        .join()
        .unwrap();
    }))
}

/// Publishes 0.1.0, then runs `version` through a proxy that calls `hook` on the first push.
fn with_landing(
    url: &str,
    ns: &str,
    version: &str,
    wait: u64,
    more: &[&str],
    rules: impl FnOnce(&str) -> Vec<Rule>,
) -> (std::process::Output, Reg) {
    let reg = Reg::Appr(url.to_string());
    let (work, file) = job_work(&reg, ns, wait);
    assert_code(&crate::appr::run(&work, file, "0.1.0", &[], &[]), 0);
    let proxy = Proxy::start(crate::fault_proxy::port_of(url), rules(ns));
    let via = Reg::Appr(format!("{}/cnr", proxy.origin));
    let (work, file) = job_work(&via, ns, wait);
    let o = crate::appr::run(&work, file, version, more, &[]);
    (o, reg)
}

const PUSH: &str = "/api/v1/packages/";

fn chain(versions: &[&str]) -> Vec<String> {
    versions.iter().map(|v| format!("{PKG}.v{v}")).collect()
}

#[test]
fn a_lower_release_landing_before_the_push_is_taken_in() {
    let Some(url) = peer("APPR_URL") else { return };
    let ns = unique("race-lower");
    let hook = lands(&url, &ns, vec![("0.2.0", built(&["0.1.0", "0.2.0"]))]);
    let (o, reg) = with_landing(&url, &ns, "0.3.0", 3, &["--format", "json"], |_| {
        vec![Rule::on(Some("POST"), PUSH, Fault::Before(hook)).times(1)]
    });
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(
        err.contains("0.2.0 landed concurrently; re-basing 0.3.0 on 0.2.0, attempt 1 of 3"),
        "{err}"
    );
    assert_eq!(
        converged(&reg, &ns).unwrap(),
        chain(&["0.3.0", "0.2.0", "0.1.0"])
    );
}

#[test]
fn two_lower_releases_that_fork_each_other_are_chained() {
    let Some(url) = peer("APPR_URL") else { return };
    let ns = unique("race-two");
    let hook = lands(
        &url,
        &ns,
        vec![
            ("0.2.0", built(&["0.1.0", "0.2.0"])),
            ("0.3.0", built(&["0.1.0", "0.3.0"])),
        ],
    );
    let (o, reg) = with_landing(&url, &ns, "0.4.0", 3, &[], |_| {
        vec![Rule::on(Some("POST"), PUSH, Fault::Before(hook)).times(1)]
    });
    assert_code(&o, 0);
    assert!(
        stderr(&o)
            .contains("0.3.0, 0.2.0 landed concurrently; re-basing 0.4.0 on 0.3.0, attempt 1 of 3"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        converged(&reg, &ns).unwrap(),
        chain(&["0.4.0", "0.3.0", "0.2.0", "0.1.0"])
    );
}

#[test]
fn a_higher_release_that_carries_ours_is_accepted() {
    let Some(url) = peer("APPR_URL") else { return };
    let ns = unique("race-carried");
    let hook = lands(
        &url,
        &ns,
        vec![("0.3.0", built(&["0.1.0", "0.2.0", "0.3.0"]))],
    );
    let (o, reg) = with_landing(&url, &ns, "0.2.0", 3, &[], |_| {
        vec![Rule::on(Some("POST"), PUSH, Fault::Before(hook)).times(1)]
    });
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains(&format!(
            "0.3.0 landed concurrently above 0.2.0 and carries {PKG}.v0.2.0"
        )),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        converged(&reg, &ns).unwrap(),
        chain(&["0.3.0", "0.2.0", "0.1.0"])
    );
}

#[test]
fn a_higher_release_that_does_not_take_ours_in_makes_this_job_withdraw() {
    let Some(url) = peer("APPR_URL") else { return };
    let ns = unique("race-withdraw");
    let hook = lands(&url, &ns, vec![("0.3.0", built(&["0.1.0", "0.3.0"]))]);
    let (o, reg) = with_landing(&url, &ns, "0.2.0", 1, &["--format", "json"], |_| {
        vec![Rule::on(Some("POST"), PUSH, Fault::Before(hook)).times(1)]
    });
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("waiting up to 1 s for its job to take in"),
        "{err}"
    );
    assert!(
        err.contains("release 0.2.0 was withdrawn so that the channel does not fork"),
        "{err}"
    );
    assert!(
        err.contains("publish these changes as a version above 0.3.0"),
        "{err}"
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    crate::output::assert_summary(&doc);
    assert_eq!(doc["exit_code"], 1);
    assert!(
        doc["published"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["what"]
                .as_str()
                .unwrap()
                .starts_with("withdrawal of bundle release 0.2.0")),
        "{doc:#}"
    );
    let left: Vec<String> = reg.releases(&ns).into_iter().map(|r| r.release).collect();
    assert_eq!(left, ["0.3.0", "0.1.0"]);
    assert_eq!(converged(&reg, &ns).unwrap(), chain(&["0.3.0", "0.1.0"]));
}

#[test]
fn releases_landing_every_round_exhaust_the_attempts_and_a_rerun_converges() {
    let Some(url) = peer("APPR_URL") else { return };
    let ns = unique("race-exhaust");
    let rules = |ns: &str| {
        ["0.2.0", "0.3.0", "0.4.0", "0.5.0"]
            .into_iter()
            .enumerate()
            .map(|(i, v)| {
                let hook = lands(&url, ns, vec![(v, built(&["0.1.0", v]))]);
                Rule::on(Some("POST"), PUSH, Fault::Before(hook))
                    .skip(i as u32)
                    .times(1)
            })
            .collect()
    };
    let (o, reg) = with_landing(&url, &ns, "0.9.0", 3, &[], rules);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("attempt 3 of 3"), "{err}");
    assert!(
        err.contains("re-based 3 times; it does not carry 0.5.0 yet. Rerun this job"),
        "{err}"
    );
    // The rerun the message asks for takes the last one in.
    let (work, file) = job_work(&reg, &ns, 3);
    let o = crate::appr::run(&work, file, "0.9.0", &[], &[]);
    assert_code(&o, 0);
    assert_eq!(
        converged(&reg, &ns).unwrap(),
        chain(&["0.9.0", "0.5.0", "0.4.0", "0.3.0", "0.2.0", "0.1.0"])
    );
}

#[test]
fn a_fork_left_by_an_earlier_race_is_repaired_by_the_next_release() {
    let Some(url) = peer("APPR_URL") else { return };
    let ns = unique("race-repair");
    let reg = Reg::Appr(url.clone());
    let (work, file) = job_work(&reg, &ns, 3);
    assert_code(&crate::appr::run(&work, file, "0.1.0", &[], &[]), 0);
    // What the registry held after the bug (or after a lower job was killed while it waited):
    // 0.2.0 and 0.3.0 both replace 0.1.0, and the highest lacks 0.2.0.
    (lands(
        &url,
        &ns,
        vec![
            ("0.2.0", built(&["0.1.0", "0.2.0"])),
            ("0.3.0", built(&["0.1.0", "0.3.0"])),
        ],
    )
    .0)();
    assert!(
        converged(&reg, &ns)
            .unwrap_err()
            .contains("release 0.2.0 is not carried")
    );
    let o = crate::appr::run(&work, file, "0.4.0", &[], &[]);
    assert_code(&o, 0);
    assert!(
        stderr(&o)
            .contains("0.2.0 missing from the chain; re-basing 0.4.0 on 0.3.0, attempt 1 of 3"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        converged(&reg, &ns).unwrap(),
        chain(&["0.4.0", "0.3.0", "0.2.0", "0.1.0"])
    );
}

/// Writes a variant of the job's pipeline `file` whose `channel: alpha` line is `channels`.
fn on_channels(work: &crate::support::Work, file: &str, channels: &str) -> String {
    let text = std::fs::read_to_string(work.path().join(file)).unwrap();
    assert!(
        text.contains("\nchannel: alpha\n"),
        "the sample's channel line"
    );
    let out = format!(
        "pipelines/{}.yaml",
        channels.replace([' ', ':', ',', '[', ']'], "-")
    );
    std::fs::write(
        work.path().join(&out),
        text.replace("\nchannel: alpha\n", &format!("\n{channels}\n")),
    )
    .unwrap();
    out
}

/// A release that headed only a second channel (0.2.1 on beta) lands just before the push of
/// 0.3.0 on [alpha, beta]: the job re-bases on it, so the highest release carries 0.2.1 and
/// its CSV skips 0.2.1, the head of beta it did not replace, instead of dropping it.
#[test]
fn a_lower_release_of_a_second_channel_only_is_taken_in() {
    let Some(url) = peer("APPR_URL") else { return };
    let ns = unique("race-second");
    // As another job built it: 0.1.0 on alpha, then 0.2.1 on beta.
    let root = tempfile::tempdir().unwrap();
    let (work, file) = job_work(&Reg::Dir(root.path().join("registry")), "built", 3);
    let beta = on_channels(&work, file, "channel: beta");
    assert_code(&crate::appr::run(&work, file, "0.1.0", &[], &[]), 0);
    assert_code(&crate::appr::run(&work, &beta, "0.2.1", &[], &[]), 0);
    let gz = std::fs::read(tarball(&work, "0.2.1")).unwrap();
    let hook = lands(&url, &ns, vec![("0.2.1", gz)]);

    let reg = Reg::Appr(url.to_string());
    let (work, file) = job_work(&reg, &ns, 3);
    assert_code(&crate::appr::run(&work, file, "0.1.0", &[], &[]), 0);
    let proxy = Proxy::start(
        crate::fault_proxy::port_of(&url),
        vec![Rule::on(Some("POST"), PUSH, Fault::Before(hook)).times(1)],
    );
    let via = Reg::Appr(format!("{}/cnr", proxy.origin));
    let (work, file) = job_work(&via, &ns, 3);
    let both = on_channels(&work, file, "channels: [alpha, beta]");
    let o = crate::appr::run(&work, &both, "0.3.0", &[], &[]);
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(
        err.contains("0.2.1 landed concurrently; re-basing 0.3.0 on 0.2.1"),
        "{err}"
    );
    let releases = reg.releases(&ns);
    assert_eq!(releases[0].release, "0.3.0");
    let top = reg.bundle(&ns, &releases[0]);
    let head = |c: &str| top.package.channel(c).unwrap().current_csv.clone();
    assert_eq!(
        (head("alpha"), head("beta")),
        (chain(&["0.3.0"])[0].clone(), chain(&["0.3.0"])[0].clone())
    );
    let ours = top.csv(&chain(&["0.3.0"])[0]).unwrap();
    assert_eq!(ours.replaces(), Some(chain(&["0.1.0"])[0].as_str()));
    let skips = olm_release_olm::value_at(&ours.doc, "spec.skips")
        .and_then(|s| s.as_sequence())
        .map(|s| s.iter().filter_map(|x| x.as_str()).collect::<Vec<_>>())
        .unwrap_or_default();
    assert_eq!(skips, [chain(&["0.2.1"])[0].as_str()]);
    assert!(top.csv(&chain(&["0.2.1"])[0]).is_some(), "0.2.1 is carried");
}
