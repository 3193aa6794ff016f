//! The book against the code it describes: the architecture page's crate table
//! (`docs/src/architecture.md`) lists exactly the workspace's crates as `cargo metadata` reports
//! them, each with its folder and the workspace crates it depends on, and the page names every
//! stage the plan knows (`src/plan/steps.rs`). A crate added, renamed or given another
//! dependency without the page fails here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::support::root;

/// A workspace crate as the table or `cargo metadata` gives it: its folder (relative to the
/// workspace root, `.` for the root crate) and the workspace crates it depends on.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Crate {
    folder: String,
    depends_on: BTreeSet<String>,
}

const PREFIX: &str = "olm-release-";

/// `olm-release-http` → `http`, as the table's "depends on" column writes it.
fn short(name: &str) -> &str {
    name.strip_prefix(PREFIX).unwrap_or(name)
}

/// The workspace's crates, from `cargo metadata --no-deps`: normal dependencies only (a
/// dev-dependency is no arrow of the architecture).
fn workspace() -> BTreeMap<String, Crate> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ws = Path::new(meta["workspace_root"].as_str().unwrap());
    let members: BTreeSet<&str> = meta["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let packages: Vec<&serde_json::Value> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| members.contains(p["id"].as_str().unwrap()))
        .collect();
    let names: BTreeSet<&str> = packages
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    packages
        .iter()
        .map(|p| {
            let manifest = Path::new(p["manifest_path"].as_str().unwrap());
            let folder = manifest
                .parent()
                .unwrap()
                .strip_prefix(ws)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let depends_on = p["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["kind"].is_null())
                .filter_map(|d| d["name"].as_str())
                .filter(|d| names.contains(d))
                .map(|d| short(d).to_string())
                .collect();
            let folder = if folder.is_empty() {
                ".".into()
            } else {
                folder
            };
            let name = p["name"].as_str().unwrap().to_string();
            (name, Crate { folder, depends_on })
        })
        .collect()
}

/// The rows of the page's crate table: `| crate | folder | holds | depends on |`.
fn table(page: &str) -> Result<BTreeMap<String, Crate>, String> {
    let mut rows = BTreeMap::new();
    for line in page.lines().filter(|l| l.starts_with("| `olm-release")) {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        let [name, folder, _holds, depends] = cells.as_slice() else {
            return Err(format!("a row of other than four cells: {line}"));
        };
        let name = name.trim_matches('`').to_string();
        let depends_on = if *depends == "nothing of ours" {
            BTreeSet::new()
        } else {
            depends.split(", ").map(str::to_string).collect()
        };
        let folder = folder
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .trim_matches('`')
            .trim_end_matches('/')
            .to_string();
        if rows
            .insert(name.clone(), Crate { folder, depends_on })
            .is_some()
        {
            return Err(format!("{name} is listed twice"));
        }
    }
    Ok(rows)
}

/// What the page's table says differently from the workspace, one line per difference.
fn mismatches(page: &str, crates: &BTreeMap<String, Crate>) -> Vec<String> {
    let rows = match table(page) {
        Ok(rows) => rows,
        Err(e) => return vec![e],
    };
    let mut out = Vec::new();
    for (name, krate) in crates {
        match rows.get(name) {
            None => out.push(format!("{name} ({}) is not in the table", krate.folder)),
            Some(row) if row != krate => out.push(format!(
                "{name}: the table says {row:?}, cargo metadata {krate:?}"
            )),
            Some(_) => {}
        }
    }
    for name in rows.keys().filter(|n| !crates.contains_key(*n)) {
        out.push(format!("{name} is in the table but not in the workspace"));
    }
    // The drawing names every crate too.
    let drawing = page.split("```").nth(1).unwrap_or_default();
    for name in crates.keys().filter(|n| !drawing.contains(n.as_str())) {
        out.push(format!("{name} is not in the drawing"));
    }
    out
}

fn page() -> String {
    std::fs::read_to_string(root().join("docs/src/architecture.md")).unwrap()
}

#[test]
fn the_architecture_table_lists_exactly_the_workspace_crates() {
    let crates = workspace();
    assert!(crates.len() >= 9, "{crates:?}");
    assert!(crates.contains_key("olm-release-git"), "{crates:?}");
    let wrong = mismatches(&page(), &crates);
    assert!(
        wrong.is_empty(),
        "docs/src/architecture.md and cargo metadata disagree:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_table_check_catches_a_crate_missing_renamed_or_rewired() {
    let crates = workspace();
    let page = page();
    // A crate the page does not know (as when one is added without the page).
    let mut added = crates.clone();
    added.insert(
        "olm-release-new".into(),
        Crate {
            folder: "crates/new".into(),
            depends_on: ["base".to_string()].into(),
        },
    );
    let wrong = mismatches(&page, &added);
    assert!(
        wrong
            .iter()
            .any(|w| w.starts_with("olm-release-new (crates/new) is not in the table")),
        "{wrong:?}"
    );
    assert!(
        wrong
            .iter()
            .any(|w| w == "olm-release-new is not in the drawing"),
        "{wrong:?}"
    );
    // A crate renamed: the old name is left in the table.
    let mut renamed = crates.clone();
    let git = renamed.remove("olm-release-git").unwrap();
    renamed.insert("olm-release-vcs".into(), git);
    let wrong = mismatches(&page, &renamed);
    assert!(
        wrong
            .iter()
            .any(|w| w == "olm-release-git is in the table but not in the workspace"),
        "{wrong:?}"
    );
    // A dependency added.
    let mut rewired = crates.clone();
    rewired
        .get_mut("olm-release-git")
        .unwrap()
        .depends_on
        .insert("http".into());
    assert_eq!(mismatches(&page, &rewired).len(), 1);
    // A row dropped from the page.
    let without: String = page
        .lines()
        .filter(|l| !l.starts_with("| `olm-release-git`"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(
        mismatches(&without, &crates)
            .iter()
            .any(|w| w.starts_with("olm-release-git (crates/git) is not in the table")),
    );
}

#[test]
fn the_architecture_page_names_every_stage_of_the_plan() {
    let steps = std::fs::read_to_string(root().join("src/plan/steps.rs")).unwrap();
    let names: Vec<&str> = steps
        .lines()
        .filter_map(|l| l.trim().strip_prefix("Step::"))
        .filter_map(|l| l.split_once("=> \""))
        .filter_map(|(_, rest)| rest.split_once('"'))
        .map(|(name, _)| name)
        .collect();
    assert!(names.contains(&"operatorhub"), "{names:?}");
    let page = page();
    for name in &names {
        assert!(
            page.contains(&format!("`{name}`")),
            "docs/src/architecture.md does not name the stage {name}"
        );
    }
}
