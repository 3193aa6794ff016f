//! Parsing stops at the budget: nesting at a fixed depth, values at the bundle's budget,
//! aliases counted as what they expand to.

use std::time::{Duration, Instant};

use olm_release_olm::archive::{self, Limits, ReadError};

use super::{assert_input_error, run_measured};

#[test]
fn nesting_is_refused_at_a_fixed_depth_before_parsing() {
    let deep = |open: &str, close: &str, n: usize| {
        format!("data: {}{}\n", open.repeat(n), close.repeat(n))
    };
    for text in [
        deep("[", "]", 100_000),
        deep("{a: ", "}", 100_000),
        format!("data:\n{}", "- ".repeat(100_000) + "x\n"),
        format!(
            "data:\n  packages: |\n    - a\n  clusterServiceVersions: \"{}\"\n",
            "[".repeat(150)
        ),
    ] {
        let err = archive::read_flattened("b.yaml", text.as_bytes(), &Limits::default())
            .expect_err("too deep");
        assert!(
            matches!(err.innermost(), ReadError::TooDeep { limit: 100, .. }),
            "{err}"
        );
        assert!(
            err.to_string().contains("nested deeper than 100 levels"),
            "{err}"
        );
    }
    // A CSV nesting `n` lists in its spec: 3 + n levels inside data.clusterServiceVersions.
    let csv = |n: usize| {
        flattened(&format!(
            "- apiVersion: operators.coreos.com/v1alpha1\n  kind: ClusterServiceVersion\n  metadata: {{name: p.v1.0.0}}\n  spec: {{version: 1.0.0, x: {}{}}}\n",
            "[".repeat(n),
            "]".repeat(n)
        ))
    };
    archive::read_flattened("b.yaml", csv(97).as_bytes(), &Limits::default())
        .expect("100 levels are read");
    let err = archive::read_flattened("b.yaml", csv(98).as_bytes(), &Limits::default())
        .expect_err("101 levels are refused");
    assert!(
        matches!(err.innermost(), ReadError::TooDeep { line: 4, .. }),
        "{err}"
    );
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("deep.yaml");
    std::fs::write(&file, deep("[", "]", 200_000)).unwrap();
    let (o, _) = run_measured(&["verify", file.to_str().unwrap()], Duration::from_secs(60));
    assert_input_error(&o, "deep.yaml:1: YAML nested deeper than 100 levels");
}

/// A flattened bundle with `csvs` (a YAML list, as text) and a one-channel package.
pub fn flattened(csvs: &str) -> String {
    let indent = |t: &str| t.lines().map(|l| format!("    {l}\n")).collect::<String>();
    format!(
        "data:\n  packages: |\n    - packageName: p\n      channels: [{{name: alpha, currentCSV: p.v1.0.0}}]\n  clusterServiceVersions: |\n{}",
        indent(csvs)
    )
}

#[test]
fn parsing_stops_at_the_value_budget() {
    let limits = Limits {
        max_bytes: 1 << 20,
        ..Limits::default()
    };
    assert_eq!(limits.max_nodes(), 16_384);
    // A list of tiny items: more items than a bundle holds manifests (entries).
    let few = Limits {
        max_entries: 1_000,
        ..limits
    };
    let items = "- 0\n".repeat(5_000);
    let err = archive::read_flattened("b.yaml", flattened(&items).as_bytes(), &few)
        .expect_err("too many items");
    assert!(
        matches!(
            err.innermost(),
            ReadError::TooManyItems { limit: 1_000, .. }
        ),
        "{err}"
    );
    // One CSV holding a list of tiny values past the value budget.
    let csv = format!(
        "- kind: ClusterServiceVersion\n  metadata: {{name: p.v1.0.0}}\n  spec:\n    keywords:\n{}",
        "    - k\n".repeat(20_000)
    );
    let err = archive::read_flattened("b.yaml", flattened(&csv).as_bytes(), &limits)
        .expect_err("too many values");
    assert!(
        matches!(
            err.innermost(),
            ReadError::TooManyNodes { limit: 16_384, .. }
        ),
        "{err}"
    );
    assert!(
        err.to_string()
            .starts_with("b.yaml: data.clusterServiceVersions:"),
        "{err}"
    );
    // The budget is the bundle's, not each file's: two CSV files of 12,000 values each (a
    // list entry counts as a value of its own, beside its content).
    let csv_file = |i: usize| {
        format!(
            "kind: ClusterServiceVersion\nmetadata: {{name: p.v{i}.0.0}}\nspec:\n  keywords:\n{}",
            "  - k\n".repeat(6_000)
        )
    };
    let files = vec![
        (
            "pkg/p.package.yaml".to_string(),
            b"packageName: p\nchannels: []\n".to_vec(),
        ),
        ("pkg/a.yaml".to_string(), csv_file(1).into_bytes()),
        ("pkg/b.yaml".to_string(), csv_file(2).into_bytes()),
    ];
    let err = archive::read_bundle(&files, &limits).expect_err("over the bundle's budget");
    assert!(
        matches!(err.innermost(), ReadError::TooManyNodes { .. }),
        "{err}"
    );
    assert!(archive::read_bundle(&files[..2], &limits).is_ok());
}

#[test]
fn aliases_count_as_what_they_expand_to() {
    let limits = Limits::default();
    // One big anchor, many aliases: quadratic growth that the parser's own limit lets through.
    let text = format!(
        "a: &a [{}]\ndata: [{}]\n",
        vec!["x"; 10_000].join(", "),
        vec!["*a"; 10_000].join(", ")
    );
    let started = Instant::now();
    let err = archive::read_flattened("b.yaml", text.as_bytes(), &limits).expect_err("expands");
    assert!(
        matches!(err.innermost(), ReadError::TooManyNodes { line: 2, .. }),
        "{err}"
    );
    eprintln!("alias expansion refused in {:?}", started.elapsed());
}

/// A catalog folder's files are measured before they are parsed, as bundles are: 200k levels
/// of nesting in a catalog file are refused at the fixed depth, in linear time, naming the
/// file and line; a catalog within the budget reads.
#[test]
fn a_catalog_file_nested_past_the_depth_is_refused_before_parsing() {
    use olm_release_olm::fbc::disk;
    use olm_release_olm::fbc::error::CatalogError;
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("op");
    std::fs::create_dir(&pkg).unwrap();
    let file = pkg.join("catalog.yaml");
    std::fs::write(
        &file,
        "schema: olm.package\nname: op\ndefaultChannel: stable\n",
    )
    .unwrap();
    disk::read(tmp.path()).expect("a plain catalog reads");
    for text in [
        format!(
            "schema: olm.package\nname: op\nx: {}{}\n",
            "[".repeat(200_000),
            "]".repeat(200_000)
        ),
        format!(
            "{{\"schema\": \"olm.package\", \"x\": {}",
            "[".repeat(200_000)
        ),
    ] {
        std::fs::write(&file, &text).unwrap();
        let started = Instant::now();
        let err = disk::read(tmp.path()).expect_err("too deep");
        let took = started.elapsed();
        assert!(
            matches!(
                &err,
                CatalogError::Budget(ReadError::TooDeep { limit: 100, .. })
            ),
            "{err}"
        );
        let shown = err.to_string();
        assert!(
            shown.contains("catalog.yaml") && shown.contains("nested deeper than 100 levels"),
            "{shown}"
        );
        eprintln!(
            "catalog file of {} KB nested 200k levels: refused in {took:?}",
            text.len() / 1024
        );
    }
}
