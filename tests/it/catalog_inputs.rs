//! One catalog loader for `graph CATALOG`, `verify CATALOG` and the catalog stage (`run`): a
//! catalog folder with a hostile or broken file is refused by all three with the same message
//! naming the file and the same exit code — 2 for a file that cannot be read as catalog
//! documents (nested too deep, larger than 64 MiB, an alias bomb, not UTF-8), 1 for a catalog
//! that reads but breaks `opm validate`'s rules (two `olm.package` documents for one package).

use std::path::Path;

use crate::support::{Work, assert_code, stderr, stdout};

const PIPELINE: &str = "pipelines/sample-catalog.yaml";
const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");
const CATALOG: &str = "_out/catalog-only/catalog";

/// Writes the bad file into the sample package's folder of the catalog.
type Spoil = fn(&Path);

fn cases() -> Vec<(&'static str, Spoil, i32, &'static str)> {
    vec![
        (
            "a deep JSON file",
            |dir| {
                let text = format!(
                    "{{\"schema\": \"olm.bundle\", \"x\": {}{}}}",
                    "[".repeat(100_000),
                    "]".repeat(100_000)
                );
                std::fs::write(dir.join("deep.json"), text).unwrap();
            },
            2,
            "sample-operator/deep.json:1: YAML nested deeper than 100 levels",
        ),
        (
            "a 1 GiB file",
            |dir| {
                let f = std::fs::File::create(dir.join("huge.yaml")).unwrap();
                f.set_len(1 << 30).unwrap(); // sparse: nothing is written
            },
            2,
            "sample-operator/huge.yaml: is larger than the limit of 67108864 bytes",
        ),
        (
            "an alias bomb",
            |dir| {
                let mut text =
                    String::from("schema: olm.bundle\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
                for i in 1..12 {
                    let p = i - 1;
                    text.push_str(&format!(
                        "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
                    ));
                }
                std::fs::write(dir.join("bomb.yaml"), text).unwrap();
            },
            2,
            "sample-operator/bomb.yaml",
        ),
        (
            "a file that is not UTF-8",
            |dir| {
                std::fs::write(
                    dir.join("latin1.yaml"),
                    b"schema: olm.bundle\nname: caf\xe9\n",
                )
                .unwrap();
            },
            2,
            "sample-operator/latin1.yaml: not UTF-8 text (invalid byte at offset 28)",
        ),
        (
            "two olm.package documents",
            |dir| {
                std::fs::write(
                    dir.join("again.yaml"),
                    "schema: olm.package\nname: sample-operator\ndefaultChannel: alpha\n",
                )
                .unwrap();
            },
            1,
            "package sample-operator is defined twice",
        ),
    ]
}

#[test]
fn graph_verify_and_run_refuse_a_bad_catalog_file_alike() {
    let work = Work::sample();
    assert_code(&work.run(&["run", PIPELINE], &[EPOCH]), 0);
    let catalog = work.path().join(CATALOG);
    let good = std::fs::read(catalog.join("sample-operator/catalog.yaml")).unwrap();
    for (case, spoil, code, says) in cases() {
        let dir = catalog.join("sample-operator");
        spoil(&dir);
        let runs = [
            ("graph", work.run(&["graph", CATALOG], &[])),
            ("verify", work.run(&["verify", CATALOG], &[])),
            (
                "run",
                work.run(&["run", PIPELINE, "--var", "VERSION=0.2.0"], &[EPOCH]),
            ),
        ];
        for (command, out) in &runs {
            // verify prints its findings on stdout, every command its error on stderr.
            let err = stderr(out) + &stdout(out);
            assert_eq!(out.status.code(), Some(code), "{case}, {command}: {err}");
            assert!(err.contains(says), "{case}, {command}: {err}");
        }
        // Nothing was written: the bad file is removed and the catalog is as the first run left it.
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.file_name().unwrap() != "catalog.yaml" {
                std::fs::remove_file(p).unwrap();
            }
        }
        assert_eq!(
            std::fs::read(dir.join("catalog.yaml")).unwrap(),
            good,
            "{case}"
        );
    }
    assert_code(&work.run(&["graph", CATALOG], &[]), 0);
    assert_code(&work.run(&["verify", CATALOG], &[]), 0);
}
