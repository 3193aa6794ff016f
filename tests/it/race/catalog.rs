//! Racing publishes to a catalog target: K = 4 catalog-only jobs (versions 0.2.0 to
//! 0.5.0 above a published 0.1.0) started together, in random order with random delays of up
//! to 40 ms, as separate `olm-release` processes with their own output folders, against one
//! shared `dir:` catalog folder and against one bare git repository (`git:` target, the real
//! `git` binary). `RACE_TRIALS` trials each (default 2; `scripts/race_catalog.sh` runs 20 and
//! prints the table docs/src/targets/catalogs.md shows).
//!
//! Read from the final catalog: **lost** = a job that exited 0 whose entry is not in it;
//! **forks** = a channel with more than one head (an entry nothing replaces or skips) or an
//! entry off the head's `replaces` chain; a refusal **a sequential run would not give** = any
//! exit but 0 or "older than the head" (a job that read the catalog after a higher version
//! landed is refused as older, as it would be had it started later).

use std::path::Path;
use std::time::{Duration, Instant};

use super::{job, random};
use crate::catalog_git::{bare, git_out, pipeline};
use crate::support::{Work, assert_code, stderr};

const PIPELINE: &str = "pipelines/sample-catalog.yaml";
const K: usize = 4;

/// Where the racing jobs keep the catalog.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Dir,
    Git,
}

#[derive(Default, Debug)]
struct Figures {
    trials: usize,
    jobs: usize,
    exit0: usize,
    refused_older: usize,
    other: usize,
    lost: usize,
    forks: usize,
    /// Jobs by the decisions they took again: 0, 1, 2, 3 or more.
    redecided: [usize; 4],
    waited: usize,
    seconds: f64,
}

/// The channel `alpha` of a catalog file: (entry, replaces, skips) each.
fn entries(catalog: &str) -> Vec<(String, Option<String>, Vec<String>)> {
    let mut out = Vec::new();
    for d in serde_yaml_ng::Deserializer::from_str(catalog) {
        let doc: serde_yaml_ng::Value = serde::Deserialize::deserialize(d).unwrap();
        if doc["schema"] == "olm.channel" && doc["name"] == "alpha" {
            for e in doc["entries"].as_sequence().unwrap() {
                let skips = e["skips"]
                    .as_sequence()
                    .map(|s| {
                        s.iter()
                            .filter_map(|x| x.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default();
                out.push((
                    e["name"].as_str().unwrap().to_string(),
                    e["replaces"].as_str().map(str::to_string),
                    skips,
                ));
            }
        }
    }
    out
}

/// Whether the channel is one chain: one head, every entry on its `replaces` chain.
fn one_chain(entries: &[(String, Option<String>, Vec<String>)]) -> bool {
    let replaced = |n: &str| {
        entries
            .iter()
            .any(|(_, r, s)| r.as_deref() == Some(n) || s.iter().any(|x| x == n))
    };
    let heads: Vec<&String> = entries
        .iter()
        .map(|(n, _, _)| n)
        .filter(|n| !replaced(n))
        .collect();
    let [head] = heads.as_slice() else {
        return false;
    };
    let mut seen = vec![(*head).clone()];
    let mut at = (*head).clone();
    while let Some((_, Some(next), _)) = entries.iter().find(|(n, _, _)| *n == at) {
        if seen.contains(next) {
            return false;
        }
        seen.push(next.clone());
        at = next.clone();
    }
    entries.iter().all(|(n, _, _)| seen.contains(n))
}

/// One trial: 0.1.0 published, then K jobs at once.
fn trial(kind: Kind, scratch: &Path, f: &mut Figures) {
    let work = Work::sample();
    let (file, repo) = match kind {
        Kind::Dir => (PIPELINE.to_string(), None),
        Kind::Git => {
            let repo = scratch.join(format!("catalog-{}.git", f.trials));
            let url = bare(&repo);
            let file = pipeline(
                &work,
                "race.yaml",
                &format!("git:{url}"),
                "  branch: main\n",
            );
            (file, Some(repo))
        }
    };
    let first = job(&work, &file, "0.1.0", "_out/first")
        .wait_with_output()
        .unwrap();
    assert_code(&first, 0);
    let mut versions: Vec<String> = (0..K).map(|i| format!("0.{}.0", i + 2)).collect();
    for i in (1..versions.len()).rev() {
        versions.swap(i, random(i as u64 + 1) as usize);
    }
    let mut children = Vec::new();
    for v in &versions {
        std::thread::sleep(Duration::from_millis(random(40)));
        children.push((v.clone(), job(&work, &file, v, &format!("_out/job-{v}"))));
    }
    f.trials += 1;
    let mut published = Vec::new();
    for (v, child) in children {
        let o = child.wait_with_output().unwrap();
        let err = stderr(&o);
        f.jobs += 1;
        match o.status.code() {
            Some(0) => {
                f.exit0 += 1;
                published.push(v.clone());
            }
            Some(1) if err.contains("is older than") => f.refused_older += 1,
            code => {
                f.other += 1;
                eprintln!("{kind:?} job {v} ended {code:?}:\n{err}");
            }
        }
        let n = (1..=8)
            .rev()
            .find(|n| {
                let k = n + 1;
                err.contains(&format!("(attempt {k},")) || err.contains(&format!("(attempt {k} of"))
            })
            .unwrap_or(0);
        f.redecided[n.min(3)] += 1;
        if err.contains("waited for another job") {
            f.waited += 1;
        }
    }
    let catalog = match &repo {
        None => std::fs::read_to_string(
            work.path()
                .join("_out/catalog-only/catalog/sample-operator/catalog.yaml"),
        )
        .unwrap(),
        Some(repo) => git_out(repo, &["show", "main:catalog/sample-operator/catalog.yaml"]),
    };
    let entries = entries(&catalog);
    for v in &published {
        let name = format!("sample-operator.v{v}");
        if !entries.iter().any(|(n, _, _)| *n == name) {
            f.lost += 1;
            eprintln!("{kind:?}: {name} exited 0 but is not in the catalog:\n{catalog}");
        }
    }
    if !one_chain(&entries) {
        f.forks += 1;
        eprintln!("{kind:?}: the channel is not one chain:\n{catalog}");
    }
}

fn trials() -> usize {
    std::env::var("RACE_TRIALS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2)
}

fn race(kind: Kind, name: &str) {
    let scratch = tempfile::tempdir().unwrap();
    let mut f = Figures::default();
    let started = Instant::now();
    for _ in 0..trials() {
        trial(kind, scratch.path(), &mut f);
    }
    f.seconds = started.elapsed().as_secs_f64();
    let line = format!(
        "| {name} | {K} | {} | {} | {} | {} | {} | {} | {} | {}/{}/{}/{} | {} | {:.0} s |",
        f.trials,
        f.jobs,
        f.exit0,
        f.refused_older,
        f.other,
        f.lost,
        f.forks,
        f.redecided[0],
        f.redecided[1],
        f.redecided[2],
        f.redecided[3],
        f.waited,
        f.seconds
    );
    println!("{line}");
    eprintln!("{line}");
    assert_eq!((f.lost, f.forks, f.other), (0, 0, 0), "{f:?}");
}

#[test]
fn racing_catalog_jobs_on_one_dir_folder_lose_nothing() {
    race(Kind::Dir, "`dir:` folder");
}

#[test]
fn racing_catalog_jobs_on_one_bare_repository_lose_nothing() {
    race(Kind::Git, "`git:` bare repository");
}
