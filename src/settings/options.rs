//! `release.options`: the release target's knobs, parsed into the target's typed configuration
//! while the settings are resolved, so a typo or a bad value is an input error before anything
//! runs (not after the bundle was pushed). Every bad key is reported, each with its line.
//!
//! A `github:` target knows the keys in [`GITHUB_KEYS`]; a `dir:` target has none.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::error::Problem;
use olm_release_github::Config;

/// The options a `github:` target takes.
pub(crate) const GITHUB_KEYS: &str = "retries, retry_delay_ms, retry_max_seconds, concurrency, rate_limit_wait_seconds, timeout_seconds, upload_timeout_seconds";

/// Reads `release.options` for a `github:` target; `at(key)` names where a key is written.
pub(crate) fn github(
    options: &BTreeMap<String, String>,
    at: impl Fn(&str) -> String,
) -> (Config, Vec<Problem>) {
    let mut c = Config::default();
    let mut problems = Vec::new();
    for (key, value) in options {
        let problem =
            |message: String| Problem::new(at(key), format!("release.options.{key}: {message}"));
        let Ok(n) = value.trim().parse::<u64>() else {
            problems.push(problem(format!("'{value}' is not a whole number")));
            continue;
        };
        match key.as_str() {
            "retries" => c.retry.max_attempts = n.clamp(1, 20) as u32,
            "retry_delay_ms" => {
                c.retry.base_delay = Duration::from_millis(n);
                c.retry.max_delay = c.retry.max_delay.max(c.retry.base_delay);
            }
            "retry_max_seconds" => c.retry.max_total = Duration::from_secs(n),
            "concurrency" => c.concurrency = n.clamp(1, 10) as usize,
            "rate_limit_wait_seconds" => c.secondary_wait = Duration::from_secs(n),
            "timeout_seconds" => c.timeout = Duration::from_secs(n.max(1)),
            "upload_timeout_seconds" => c.upload_timeout = Duration::from_secs(n.max(1)),
            _ => problems.push(problem(format!(
                "unknown option for a github: target (known: {GITHUB_KEYS})"
            ))),
        }
    }
    (c, problems)
}

/// A `dir:` target takes no options: each one given is a problem.
pub(crate) fn dir(options: &BTreeMap<String, String>, at: impl Fn(&str) -> String) -> Vec<Problem> {
    options
        .keys()
        .map(|key| {
            Problem::new(
                at(key),
                format!("release.options.{key}: a dir: target takes no options; remove it"),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn every_bad_key_is_a_problem_naming_its_place() {
        let (c, problems) = github(&map(&[("concurrency", "2")]), |_| "p.yaml:9".into());
        assert_eq!(c.concurrency, 2);
        assert!(problems.is_empty());
        let (_, problems) = github(
            &map(&[("retires", "2"), ("retries", "x"), ("timeout_seconds", "5")]),
            |k| format!("p.yaml:{}", k.len()),
        );
        let shown: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "p.yaml:7: release.options.retires: unknown option for a github: target (known: retries, retry_delay_ms, retry_max_seconds, concurrency, rate_limit_wait_seconds, timeout_seconds, upload_timeout_seconds)",
                "p.yaml:7: release.options.retries: 'x' is not a whole number",
            ]
        );
        assert_eq!(
            dir(&map(&[("concurrency", "2")]), |_| "p.yaml:3".into()).len(),
            1
        );
    }
}
