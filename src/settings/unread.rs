//! `--var NAME=VALUE` naming a variable the pipeline file never reads: a typo that would
//! otherwise silently leave the default in place (`--var CSV_VERISON=0.22.0`). The names a
//! pipeline reads are the `${NAME…}` references in its text, defaults included; each unread
//! `--var` gets a warning with the closest name the file does read.

use std::collections::{BTreeMap, BTreeSet};

/// A warning for each of `overrides` that `text` never reads.
pub(crate) fn warnings(
    shown: &str,
    text: &str,
    overrides: &BTreeMap<String, String>,
) -> Vec<String> {
    let read = referenced(text);
    overrides
        .keys()
        .filter(|name| !read.contains(name.as_str()))
        .map(|name| {
            let hint = closest(name, &read)
                .map(|c| format!("; did you mean {c}?"))
                .unwrap_or_default();
            format!("--var {name}: {shown} never reads ${{{name}}}, so it changes nothing{hint}")
        })
        .collect()
}

/// The variable names referenced as `${NAME…}` anywhere in `text`.
fn referenced(text: &str) -> BTreeSet<&str> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(i) = rest.find("${") {
        rest = &rest[i + 2..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end > 0 {
            out.insert(&rest[..end]);
        }
    }
    out
}

/// The read name nearest to `name` by edit distance, if near enough to be a typo.
fn closest<'a>(name: &str, read: &BTreeSet<&'a str>) -> Option<&'a str> {
    let limit = (name.len() / 3).max(2);
    read.iter()
        .map(|r| (distance(name, r), *r))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, r)| r)
}

/// Levenshtein distance (insertions, deletions, substitutions), case-sensitive.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unread_var_warns_with_the_closest_name() {
        let text = "version: ${CSV_VERSION:-${TRAVIS_TAG#v}}\nx: ${DOCKER_TAG:-latest}\n";
        let vars: BTreeMap<String, String> =
            [("CSV_VERISON", "1"), ("TRAVIS_TAG", "v1"), ("ZZZ", "")]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
        assert_eq!(
            warnings("p.yaml", text, &vars),
            [
                "--var CSV_VERISON: p.yaml never reads ${CSV_VERISON}, so it changes nothing; did you mean CSV_VERSION?",
                "--var ZZZ: p.yaml never reads ${ZZZ}, so it changes nothing",
            ]
        );
    }
}
