//! Racing publishes converge: K jobs publishing K versions of one package at once,
//! as separate `olm-release` processes started together with small random delays, against a
//! `dir:` registry and the real appr server, many trials (`RACE_TRIALS`, default 4), with the
//! figures printed; and each branch of the convergence decision made deterministic by the fault
//! proxy publishing another release just before the job's push.
//!
//! "Converged" is read from the final state: the highest release's bundle has one chain in the
//! channel (every CSV of the channel on it, each replacing the next lower version), and that
//! chain carries a CSV for every release on the registry.

mod branches;
mod catalog;
pub(crate) mod packages;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use olm_release_appregistry::ReleaseInfo;
use olm_release_appregistry::appr::ApprClient;
use olm_release_appregistry::dir::DirRegistry;
use olm_release_olm::{Bundle, Manifest, archive};

use crate::appr::{PKG, pipeline_at, rt, unique};
use crate::support::{Work, assert_code, peer, stderr};

/// Where the racing jobs publish.
#[derive(Clone)]
enum Reg {
    Dir(PathBuf),
    Appr(String),
}

impl Reg {
    fn url(&self) -> String {
        match self {
            Reg::Dir(p) => format!("dir:{}", p.display()),
            Reg::Appr(u) => u.clone(),
        }
    }

    fn releases(&self, ns: &str) -> Vec<ReleaseInfo> {
        match self {
            Reg::Dir(p) => DirRegistry::new(p).releases(ns, PKG).unwrap(),
            Reg::Appr(u) => {
                let c = ApprClient::new(u, None).unwrap();
                rt().block_on(c.releases(ns, PKG)).unwrap()
            }
        }
    }

    fn bundle(&self, ns: &str, r: &ReleaseInfo) -> Bundle {
        let gz = match self {
            Reg::Dir(p) => DirRegistry::new(p).pull(ns, PKG, &r.digest).unwrap(),
            Reg::Appr(u) => {
                let c = ApprClient::new(u, None).unwrap();
                rt().block_on(c.pull_blob(ns, PKG, &r.digest)).unwrap()
            }
        };
        archive::unpack_release(&gz, &r.digest, &Default::default()).unwrap()
    }
}

/// The final state of `ns`: `Ok(chain of the channel, head first)` when it converged.
fn converged(reg: &Reg, ns: &str) -> Result<Vec<String>, String> {
    let releases = reg.releases(ns);
    let top = releases.first().ok_or("no releases")?;
    let bundle = reg.bundle(ns, top);
    let mut chain: Vec<&Manifest> = Vec::new();
    let mut next = bundle
        .package
        .channel("alpha")
        .map(|c| c.current_csv.clone());
    while let Some(name) = next {
        let csv = bundle
            .csv(&name)
            .ok_or(format!("{name} is named but absent"))?;
        if chain.iter().any(|c| c.name() == Some(&name)) {
            return Err(format!("a replaces cycle at {name}"));
        }
        next = csv.replaces().map(str::to_string);
        chain.push(csv);
    }
    let versions: Vec<semver::Version> = chain.iter().map(|c| c.semver().unwrap()).collect();
    if versions.windows(2).any(|w| w[0] <= w[1]) {
        return Err(format!("the chain is not ordered by SemVer: {versions:?}"));
    }
    let names: Vec<String> = chain
        .iter()
        .map(|c| c.name().unwrap().to_string())
        .collect();
    for csv in &bundle.csvs {
        if !names.iter().any(|n| Some(n.as_str()) == csv.name()) {
            return Err(format!(
                "{} is in release {}'s bundle but off the chain {names:?} (a fork)",
                csv.name().unwrap_or("?"),
                top.release
            ));
        }
    }
    for r in &releases {
        let v = semver::Version::parse(&r.release).unwrap();
        if !versions.contains(&v) {
            return Err(format!(
                "release {} is not carried by the highest release {} (chain {names:?})",
                r.release, top.release
            ));
        }
    }
    Ok(names)
}

/// A work folder whose pipeline publishes to `reg`/`ns`.
fn job_work(reg: &Reg, ns: &str, wait: u64) -> (Work, &'static str) {
    let work = Work::sample();
    let extra = format!("  concurrent_wait_seconds: {wait}\n");
    let file = pipeline_at(&work, &reg.url(), ns, &extra);
    (work, file)
}

/// `olm-release run FILE --var VERSION=version` in `work`, with only `PATH` and `HOME` in its
/// environment and its output piped.
fn command(work: &Work, file: &str, version: &str) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_olm-release"));
    cmd.current_dir(work.path())
        .args(["run", file, "--var", &format!("VERSION={version}")])
        .env_clear()
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for key in ["PATH", "HOME"] {
        if let Ok(v) = std::env::var(key) {
            cmd.env(key, v);
        }
    }
    cmd
}

fn spawn(work: &Work, file: &str, version: &str) -> Child {
    command(work, file, version).spawn().unwrap()
}

/// [`command`] writing under `out`, with a fixed `SOURCE_DATE_EPOCH`.
fn job(work: &Work, file: &str, version: &str, out: &str) -> Child {
    command(work, file, version)
        .args(["--out", out])
        .env("SOURCE_DATE_EPOCH", "1570449600")
        .spawn()
        .unwrap()
}

/// A small pseudo-random number (the tests need spread, not quality).
fn random(n: u64) -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64;
    let mut x = nanos ^ 0x9E37_79B9_7F4A_7C15;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x % n.max(1)
}

#[derive(Default, Debug)]
struct Figures {
    trials: usize,
    converged: usize,
    jobs: usize,
    exit0: usize,
    withdrawn: usize,
    refused_older: usize,
    other_failures: usize,
    /// Jobs by the re-basing rounds they needed: 0, 1, 2, 3.
    rounds: [usize; 4],
    waited_for_lock: usize,
    seconds: f64,
}

/// One trial: 0.1.0 first, then `k` jobs (0.2.0, 0.3.0, …) started together in random order
/// with random delays of up to 40 ms.
fn trial(reg: &Reg, ns: &str, k: usize, f: &mut Figures) {
    let (base, file) = job_work(reg, ns, 3);
    let o = crate::appr::run(&base, file, "0.1.0", &[], &[]);
    assert_code(&o, 0);
    let mut jobs: Vec<(String, Work, &str)> = (0..k)
        .map(|i| {
            let (w, file) = job_work(reg, ns, 3);
            (format!("0.{}.0", i + 2), w, file)
        })
        .collect();
    // A random start order.
    for i in (1..jobs.len()).rev() {
        jobs.swap(i, random(i as u64 + 1) as usize);
    }
    let mut children = Vec::new();
    for (v, w, file) in &jobs {
        std::thread::sleep(Duration::from_millis(random(40)));
        children.push((v.clone(), spawn(w, file, v)));
    }
    f.trials += 1;
    for (v, child) in children {
        let o = child.wait_with_output().unwrap();
        let err = stderr(&o);
        f.jobs += 1;
        match o.status.code() {
            Some(0) => f.exit0 += 1,
            Some(1) if err.contains("was withdrawn") => f.withdrawn += 1,
            Some(1) if err.contains("is older than") => f.refused_older += 1,
            code => {
                f.other_failures += 1;
                eprintln!("job {v} ended {code:?}:\n{err}");
            }
        }
        let rounds = (1..=3)
            .rev()
            .find(|n| err.contains(&format!("attempt {n} of 3")))
            .unwrap_or(0);
        f.rounds[rounds] += 1;
        if err.contains("waited for another job") {
            f.waited_for_lock += 1;
        }
    }
    match converged(reg, ns) {
        Ok(_) => f.converged += 1,
        Err(e) => eprintln!("trial in {ns} did not converge: {e}"),
    }
}

fn trials() -> usize {
    std::env::var("RACE_TRIALS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4)
}

fn race(name: &str, reg: impl Fn(&str) -> Reg) {
    let n = trials();
    for k in [2, 3] {
        let mut f = Figures::default();
        let started = Instant::now();
        for _ in 0..n {
            let ns = unique(&format!("race{k}"));
            trial(&reg(&ns), &ns, k, &mut f);
        }
        f.seconds = started.elapsed().as_secs_f64();
        let line = format!(
            "race {name}, {k} jobs: {} trials, {} converged; {} jobs: {} exit 0, {} withdrew (exit 1), \
             {} refused as older (exit 1), {} other failures; re-basing rounds 0/1/2/3: {}/{}/{}/{}; \
             {} waited for the dir: lock; {:.1} s",
            f.trials,
            f.converged,
            f.jobs,
            f.exit0,
            f.withdrawn,
            f.refused_older,
            f.other_failures,
            f.rounds[0],
            f.rounds[1],
            f.rounds[2],
            f.rounds[3],
            f.waited_for_lock,
            f.seconds
        );
        println!("{line}");
        eprintln!("{line}");
        assert_eq!(f.converged, f.trials, "{f:?}");
        assert_eq!(f.other_failures, 0, "{f:?}");
    }
}

#[test]
fn racing_jobs_on_a_dir_registry_converge() {
    let root = tempfile::tempdir().unwrap();
    let path = root.path().to_path_buf();
    race("dir:", |ns| Reg::Dir(path.join(ns)));
}

#[test]
fn racing_jobs_on_the_appr_server_converge() {
    let Some(url) = peer("APPR_URL") else { return };
    race("appr", |_| Reg::Appr(url.clone()));
}

#[test]
fn a_dir_publication_waits_for_the_package_lock() {
    let root = tempfile::tempdir().unwrap();
    let reg = Reg::Dir(root.path().join("registry"));
    let (work, file) = job_work(&reg, "locked", 3);
    assert_code(&crate::appr::run(&work, file, "0.1.0", &[], &[]), 0);
    let held = DirRegistry::new(root.path().join("registry"))
        .hold("locked", PKG)
        .unwrap();
    let mut child = spawn(&work, file, "0.2.0");
    std::thread::sleep(Duration::from_millis(700));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the job went on while another held the lock"
    );
    assert_eq!(reg.releases("locked").len(), 1);
    drop(held);
    let o = child.wait_with_output().unwrap();
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains("waited for another job publishing locked/"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        converged(&reg, "locked").unwrap(),
        [format!("{PKG}.v0.2.0"), format!("{PKG}.v0.1.0")]
    );
}
