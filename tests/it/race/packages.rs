//! Many jobs on one catalog branch (issue 35, item 4): K catalog-only jobs, each its own
//! `olm-release` process and output folder, started together in random order with random
//! delays of up to 40 ms, pushing to one bare repository through the real `git` binary —
//! either K **different packages** (`pkg-1` … `pkg-K`, each its first release) or K versions
//! of **one package** (0.2.0 … above a published 0.1.0).
//!
//! A push another job's commit beat is tried again until `catalog.publish_deadline_seconds`:
//! when the new commits touch only other packages, the same change is applied on the new head
//! without a new decision; a move of its own package decides again. Read from the final branch:
//! **lost** = a job that exited 0 whose entry is missing; **heads** = a package whose channel
//! is not one chain from a single head; **duplicates** = a package with more than one commit
//! adding the same version; a refusal **a sequential run would not give** = any exit but 0 or
//! "older than the head". `RACE_PACKAGES` (K for different packages, default 8),
//! `RACE_VERSIONS` (K for one package, default 4) and `RACE_TRIALS` (default 1) scale it;
//! `RACE_SHOW=1` prints every job's output; `scripts/race_bench.sh` runs K = 8, 16, 32 and prints the table of
//! docs/src/targets/catalogs.md.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use super::{job, random};
use crate::catalog_git::{bare, git_out};
use crate::support::{Work, assert_code, stderr};

/// The figures of one row.
#[derive(Default, Debug)]
struct Figures {
    trials: usize,
    jobs: usize,
    exit0: usize,
    older: usize,
    other: usize,
    lost: usize,
    heads: usize,
    duplicates: usize,
    /// Per job: the retries it needed.
    retries: Vec<u32>,
    /// Retries that applied the change again, and those that decided again.
    reapplied: usize,
    redecided: usize,
    /// Per job: its wall time, in seconds.
    seconds: Vec<f64>,
}

/// A work folder whose pipeline publishes package `pkg` to the branch main of `url`.
pub(crate) fn package_work(pkg: &str, url: &str) -> (Work, String) {
    let work = Work::sample();
    let bundle = work.path().join("fixtures/sample-operator/olm/bundle");
    for name in [
        "sample-operator.package.yaml.in",
        "sample-operator.vVERSION.clusterserviceversion.yaml.in",
    ] {
        let path = bundle.join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(
            &path,
            text.replace("sample-operator.v", &format!("{pkg}.v")),
        )
        .unwrap();
    }
    let file = "race.yaml".to_string();
    let text = std::fs::read_to_string(work.path().join("pipelines/sample-catalog.yaml")).unwrap();
    let text = text
        .replace("package: sample-operator\n", &format!("package: {pkg}\n"))
        .replace(
            "name: sample-operator.v{version}",
            &format!("name: {pkg}.v{{version}}"),
        )
        .replace(
            "  dir: _out/catalog-only/catalog\n",
            &format!("  target: git:{url}\n  branch: main\n"),
        );
    assert!(text.contains(&format!("package: {pkg}\n")), "{text}");
    std::fs::write(work.path().join(&file), text).unwrap();
    (work, file)
}

/// Starts `jobs` (a label, its work folder and pipeline, the version) in random order with
/// random delays, waits for them and counts how each ended; the labels of those that exited 0.
fn race(jobs: &mut [(String, &Work, &str, String)], f: &mut Figures) -> Vec<String> {
    for i in (1..jobs.len()).rev() {
        jobs.swap(i, random(i as u64 + 1) as usize);
    }
    let mut children = Vec::new();
    for (label, work, file, version) in jobs.iter() {
        std::thread::sleep(Duration::from_millis(random(40)));
        let out = format!("_out/job-{label}");
        children.push((
            label.clone(),
            Instant::now(),
            job(work, file, version, &out),
        ));
    }
    f.trials += 1;
    let mut published = Vec::new();
    for (label, started, child) in children {
        let o = child.wait_with_output().unwrap();
        f.seconds.push(started.elapsed().as_secs_f64());
        let err = stderr(&o);
        f.jobs += 1;
        match o.status.code() {
            Some(0) => {
                f.exit0 += 1;
                published.push(label.clone());
            }
            Some(1) if err.contains("is older than") => f.older += 1,
            code => {
                f.other += 1;
                eprintln!("job {label} ended {code:?}:\n{err}");
            }
        }
        if std::env::var_os("RACE_SHOW").is_some() {
            eprintln!("job {label}:\n{err}");
        }
        let notes: Vec<&str> = err
            .lines()
            .filter(|l| l.contains("another job published meanwhile"))
            .collect();
        f.retries.push(notes.len() as u32);
        f.reapplied += notes
            .iter()
            .filter(|l| l.contains("applying this release's change again"))
            .count();
        f.redecided += notes
            .iter()
            .filter(|l| !l.contains("applying this release's change again"))
            .count();
    }
    published
}

/// The entries of channel `alpha` of `package` on branch main of `repo`: (entry, replaces).
fn entries(repo: &Path, package: &str) -> Vec<(String, Option<String>)> {
    let path = format!("main:catalog/{package}/catalog.yaml");
    let text = git_out(repo, &["show", &path]);
    let mut out = Vec::new();
    for d in serde_yaml_ng::Deserializer::from_str(&text) {
        let doc: serde_yaml_ng::Value = serde::Deserialize::deserialize(d).unwrap();
        if doc["schema"] == "olm.channel" && doc["name"] == "alpha" {
            for e in doc["entries"].as_sequence().unwrap() {
                out.push((
                    e["name"].as_str().unwrap().to_string(),
                    e["replaces"].as_str().map(str::to_string),
                ));
            }
        }
    }
    out
}

/// Whether the channel is one `replaces` chain from a single head.
fn one_chain(entries: &[(String, Option<String>)]) -> bool {
    let replaced = |n: &str| entries.iter().any(|(_, r)| r.as_deref() == Some(n));
    let heads: Vec<&String> = entries
        .iter()
        .map(|(n, _)| n)
        .filter(|n| !replaced(n))
        .collect();
    let [head] = heads.as_slice() else {
        return false;
    };
    let mut seen = vec![(*head).clone()];
    while let Some((_, Some(next))) = entries.iter().find(|(n, _)| n == seen.last().unwrap()) {
        if seen.contains(next) {
            return false;
        }
        seen.push(next.clone());
    }
    entries.iter().all(|(n, _)| seen.contains(n))
}

/// The subjects of the commits on main that add `version` of `package`.
fn commits_adding(subjects: &str, package: &str, version: &str) -> usize {
    let start = format!("{package} {version}: ");
    subjects.lines().filter(|s| s.starts_with(&start)).count()
}

/// One trial: K different packages, each its first release, on one new branch.
fn packages_trial(k: usize, scratch: &Path, f: &mut Figures) {
    let repo = scratch.join(format!("packages-{k}-{}.git", f.trials));
    let url = bare(&repo);
    let works: Vec<(String, Work, String)> = (1..=k)
        .map(|i| {
            let pkg = format!("pkg-{i}");
            let (w, file) = package_work(&pkg, &url);
            (pkg, w, file)
        })
        .collect();
    let mut jobs: Vec<(String, &Work, &str, String)> = works
        .iter()
        .map(|(p, w, file)| (p.clone(), w, file.as_str(), "0.1.0".to_string()))
        .collect();
    let published = race(&mut jobs, f);
    let subjects = git_out(&repo, &["log", "--format=%s", "main"]);
    for (pkg, _, _) in &works {
        let entries = entries_or_none(&repo, pkg);
        if published.contains(pkg) && !entries.iter().any(|(n, _)| *n == format!("{pkg}.v0.1.0")) {
            f.lost += 1;
            eprintln!("{pkg} exited 0 but is not in the catalog");
        }
        if !entries.is_empty() && !one_chain(&entries) {
            f.heads += 1;
            eprintln!("{pkg}: not one chain: {entries:?}");
        }
        if commits_adding(&subjects, pkg, "0.1.0") > 1 {
            f.duplicates += 1;
            eprintln!("{pkg}: more than one commit adds 0.1.0:\n{subjects}");
        }
    }
}

/// The entries of `package`, none when its catalog file is missing.
fn entries_or_none(repo: &Path, package: &str) -> Vec<(String, Option<String>)> {
    let path = format!("main:catalog/{package}/catalog.yaml");
    let there = Command::new("git")
        .arg("--git-dir")
        .arg(repo)
        .args(["cat-file", "-e", &path])
        .status()
        .unwrap()
        .success();
    if there {
        entries(repo, package)
    } else {
        Vec::new()
    }
}

/// One trial: 0.1.0 of one package published, then K versions of it at once.
fn versions_trial(k: usize, scratch: &Path, f: &mut Figures) {
    let repo = scratch.join(format!("versions-{k}-{}.git", f.trials));
    let url = bare(&repo);
    let (work, file) = package_work("solo", &url);
    let first = job(&work, &file, "0.1.0", "_out/first")
        .wait_with_output()
        .unwrap();
    assert_code(&first, 0);
    let mut jobs: Vec<(String, &Work, &str, String)> = (0..k)
        .map(|i| {
            let v = format!("0.{}.0", i + 2);
            (v.clone(), &work, file.as_str(), v)
        })
        .collect();
    let published = race(&mut jobs, f);
    let entries = entries(&repo, "solo");
    let subjects = git_out(&repo, &["log", "--format=%s", "main"]);
    for v in &published {
        if !entries.iter().any(|(n, _)| *n == format!("solo.v{v}")) {
            f.lost += 1;
            eprintln!("solo {v} exited 0 but is not in the catalog: {entries:?}");
        }
    }
    for i in 0..=k {
        let v = format!("0.{}.0", i + 1);
        if commits_adding(&subjects, "solo", &v) > 1 {
            f.duplicates += 1;
            eprintln!("more than one commit adds solo {v}:\n{subjects}");
        }
    }
    if !one_chain(&entries) {
        f.heads += 1;
        eprintln!("solo: not one chain: {entries:?}");
    }
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Prints the row (`| … |`, the table of scripts/race_bench.sh) and checks the invariants.
fn report(what: &str, k: usize, f: &Figures) {
    let n = f.retries.len().max(1) as f64;
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    let retries: Vec<f64> = f.retries.iter().map(|r| f64::from(*r)).collect();
    let line = format!(
        "| {what} | {k} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} / {:.0} | {} / {} | {:.1} / {:.1} s |",
        f.trials,
        f.jobs,
        f.exit0,
        f.older,
        f.other,
        f.lost,
        f.heads,
        f.duplicates,
        retries.iter().sum::<f64>() / n,
        max(&retries),
        f.reapplied,
        f.redecided,
        mean(&f.seconds),
        max(&f.seconds),
    );
    println!("{line}");
    eprintln!("{line}");
    assert_eq!(
        (f.lost, f.heads, f.duplicates, f.other),
        (0, 0, 0, 0),
        "{f:?}"
    );
}

#[test]
fn many_packages_racing_on_one_branch_all_publish() {
    let scratch = tempfile::tempdir().unwrap();
    let k = env("RACE_PACKAGES", 8);
    let mut f = Figures::default();
    for _ in 0..env("RACE_TRIALS", 1) {
        packages_trial(k, scratch.path(), &mut f);
    }
    report("different packages", k, &f);
    assert_eq!(f.exit0, f.jobs, "every package publishes: {f:?}");
    assert!(f.redecided == 0, "no package decided again: {f:?}");
}

#[test]
fn many_versions_of_one_package_racing_on_one_branch_lose_nothing() {
    let scratch = tempfile::tempdir().unwrap();
    let k = env("RACE_VERSIONS", 4);
    let mut f = Figures::default();
    for _ in 0..env("RACE_TRIALS", 1) {
        versions_trial(k, scratch.path(), &mut f);
    }
    report("one package", k, &f);
}
