//! Go 1.19's `text/template` as the oracle: `scripts/peers/go.sh` builds `tests/go-oracle`
//! offline against Debian's Go and sprig sources; this test runs it over the corpus, renders
//! the same cases here, and compares bytes and error-versus-success. It prints the agreement
//! table, and fails on any disagreement that is not a listed deliberate deviation, and on a
//! listed deviation that no longer deviates.

use std::collections::BTreeMap;
use std::process::Command;

use base64::Engine as _;
use serde::Deserialize;

use super::corpus::{self, Case};
use crate as support;

#[derive(Deserialize)]
struct Report {
    go: String,
    results: Vec<GoResult>,
}

#[derive(Deserialize)]
struct GoResult {
    file: String,
    name: String,
    ok: bool,
    out_base64: String,
    error: String,
}

#[derive(Default)]
struct Row {
    cases: usize,
    same_bytes: usize,
    both_reject: usize,
    deviations: usize,
    disagree: usize,
}

impl Row {
    fn add(&mut self, o: &Row) {
        self.cases += o.cases;
        self.same_bytes += o.same_bytes;
        self.both_reject += o.both_reject;
        self.deviations += o.deviations;
        self.disagree += o.disagree;
    }
}

fn show(r: &Result<String, String>) -> String {
    match r {
        Ok(s) => format!("renders {s:?}"),
        Err(e) => format!("fails: {}", e.lines().next().unwrap_or("")),
    }
}

fn run_oracle(bin: &str) -> Report {
    let out = Command::new(bin).arg(corpus::dir()).output().unwrap();
    assert!(
        out.status.success(),
        "{bin} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn go_text_template_agrees_on_the_corpus() {
    let Some(bin) = support::peer("GO_TEMPLATE_ORACLE") else {
        return;
    };
    let report = run_oracle(&bin);
    assert!(
        report.go.starts_with("go1.19"),
        "the corpus and its deviations are written against Go 1.19; the oracle runs {}",
        report.go
    );
    let cases = corpus::load();
    assert_eq!(
        cases.len(),
        report.results.len(),
        "Go and Rust read the corpus alike"
    );
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    let mut problems = Vec::new();
    let mut deviations = Vec::new();
    for (case, go) in cases.iter().zip(&report.results) {
        assert_eq!((&case.file, &case.name), (&go.file, &go.name));
        let go_result: Result<String, String> = if go.ok {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(&go.out_base64)
                .unwrap();
            Ok(String::from_utf8_lossy(&bytes).into_owned())
        } else {
            Err(go.error.clone())
        };
        let ours = corpus::render(case);
        let row = rows.entry(case.file.clone()).or_default();
        row.cases += 1;
        let agree = match (&go_result, &ours) {
            (Ok(a), Ok(b)) if a == b => Some(true),
            (Err(_), Err(_)) => Some(false),
            _ => None,
        };
        match (&case.deviation, agree) {
            (Some(why), None) => {
                row.deviations += 1;
                deviations.push(format!(
                    "  {} / {}: {why}\n      Go {}\n      here {}",
                    case.file,
                    case.name,
                    show(&go_result),
                    show(&ours)
                ));
            }
            (Some(_), Some(_)) => problems.push(describe(
                case,
                &go_result,
                &ours,
                "listed as a deviation but agrees with Go",
            )),
            (None, Some(true)) => row.same_bytes += 1,
            (None, Some(false)) => row.both_reject += 1,
            (None, None) => {
                row.disagree += 1;
                problems.push(describe(case, &go_result, &ours, "disagrees with Go"));
            }
        }
    }
    let mut total = Row::default();
    let mut table = format!(
        "template engine vs {} text/template on tests/corpus\n{:<32} {:>6} {:>10} {:>11} {:>10} {:>9}\n",
        report.go, "file", "cases", "same bytes", "both reject", "deviation", "disagree"
    );
    for (file, r) in &rows {
        table.push_str(&format!(
            "{file:<32} {:>6} {:>10} {:>11} {:>10} {:>9}\n",
            r.cases, r.same_bytes, r.both_reject, r.deviations, r.disagree
        ));
        total.add(r);
    }
    table.push_str(&format!(
        "{:<32} {:>6} {:>10} {:>11} {:>10} {:>9}\n",
        "total", total.cases, total.same_bytes, total.both_reject, total.deviations, total.disagree
    ));
    let agreeing = total.same_bytes + total.both_reject;
    table.push_str(&format!(
        "agreement: {agreeing} of {} cases that are not deliberate deviations ({:.1} %)\ndeliberate deviations:\n{}\n",
        total.cases - total.deviations,
        100.0 * agreeing as f64 / (total.cases - total.deviations).max(1) as f64,
        deviations.join("\n")
    ));
    eprintln!("{table}");
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(
        total.cases >= 200,
        "the corpus has {} cases; it needs at least 200",
        total.cases
    );
}

fn describe(
    case: &Case,
    go: &Result<String, String>,
    ours: &Result<String, String>,
    what: &str,
) -> String {
    format!(
        "{} / {} {what}\n  template: {:?}\n  Go:   {}\n  here: {}",
        case.file,
        case.name,
        case.text,
        show(go),
        show(ours)
    )
}
