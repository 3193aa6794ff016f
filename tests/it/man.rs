//! `olm-release man` stands alone (every pipeline key, exit code and environment variable, the
//! examples), and `man --dir DIR` writes a page per command whose references all resolve.

use std::collections::BTreeSet;

use crate::support::{Work, assert_code, root, stdout};

/// The text between `.SH NAME` and the next `.SH`.
fn section<'a>(page: &'a str, name: &str) -> &'a str {
    let start = page
        .find(&format!(".SH {name}\n"))
        .unwrap_or_else(|| panic!("no section {name}"));
    let body = &page[start + name.len() + 5..];
    &body[..body.find("\n.SH ").unwrap_or(body.len())]
}

#[test]
fn man_page_names_every_pipeline_key_exit_code_and_variable() {
    let work = Work::sample();
    let o = work.run(&["man"], &[]);
    assert_code(&o, 0);
    let page = stdout(&o);
    let pipeline = section(&page, "\"PIPELINE FILE\"");
    // Every field of the pipeline model, read from the source, is a key the page shows.
    for file in ["src/pipeline/model.rs", "src/pipeline/render_spec.rs"] {
        let src = std::fs::read_to_string(root().join(file)).unwrap();
        for line in src.lines() {
            let Some(key) = line
                .trim()
                .strip_prefix("pub ")
                .and_then(|l| l.split_once(':'))
                .map(|(k, _)| k)
                .filter(|k| k.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
            else {
                continue;
            };
            let roff = key.replace('-', "\\-");
            assert!(
                pipeline.contains(&format!("{roff}:")),
                "the man page lacks the pipeline key {key} ({file})"
            );
        }
    }
    let exit = section(&page, "\"EXIT STATUS\"");
    for code in [" 0 ", " 1 ", " 2 ", " 70 ", " 130 "] {
        assert!(exit.contains(code), "exit code{code}missing: {exit}");
    }
    let env = section(&page, "ENVIRONMENT");
    for var in [
        "QUAY_TOKEN",
        "GITHUB_TOKEN",
        "OCI_PASSWORD",
        "SOURCE_DATE_EPOCH",
        "OLM_RELEASE_MAX_BUNDLE_BYTES",
    ] {
        assert!(env.contains(var), "{var} missing: {env}");
    }
    // Every command with its own options, and examples.
    let commands = section(&page, "COMMANDS");
    for sub in [
        "olm\\-release run",
        "olm\\-release registry show",
        "olm\\-release next\\-version",
    ] {
        assert!(
            commands.contains(&format!(".SS \"{sub}\"")),
            "{sub} missing"
        );
    }
    assert!(commands.contains("mermaid"));
    assert!(
        section(&page, "EXAMPLES")
            .replace("\\-", "-")
            .contains("olm-release man --dir")
    );
    // The single page points nowhere: no SEE ALSO to pages that may not be installed.
    assert!(!page.contains("SEE ALSO"));
}

#[test]
fn man_dir_writes_a_page_per_command_and_every_reference_resolves() {
    let work = Work::sample();
    let dir = work.path().join("man1");
    let o = work.run(&["man", "--dir", dir.to_str().unwrap()], &[]);
    assert_code(&o, 0);
    let files: BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for page in [
        "olm-release.1",
        "olm-release-run.1",
        "olm-release-graph.1",
        "olm-release-registry.1",
        "olm-release-registry-show.1",
        "olm-release-man.1",
    ] {
        assert!(files.contains(page), "{page} not written: {files:?}");
    }
    assert_eq!(stdout(&o).lines().count(), files.len());
    let mut referenced = 0;
    for file in &files {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let name = file.trim_end_matches(".1");
        assert!(
            text.starts_with(&format!(
                ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n.TH {name} 1"
            )) || text.contains(&format!(".TH {name} 1")),
            "{file} has no .TH {name}"
        );
        // Every NAME(1) reference, in SEE ALSO or a SUBCOMMANDS list, is a page in DIR.
        for (i, _) in text.match_indices("(1)") {
            let before = text[..i].trim_end_matches("\\fR");
            let start = before
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '\\'))
                .map_or(0, |s| s + 1);
            let page = before[start..]
                .trim_start_matches("\\fB")
                .replace("\\-", "-");
            if !page.starts_with("olm-release") {
                continue;
            }
            referenced += 1;
            assert!(
                files.contains(&format!("{page}.1")),
                "{file} refers to {page}(1), which is not in DIR"
            );
        }
    }
    assert!(
        referenced > files.len(),
        "only {referenced} references found"
    );
}

#[test]
fn man_page_sections_are_the_books_reference_pages() {
    let work = Work::sample();
    let o = work.run(&["man"], &[]);
    assert_code(&o, 0);
    let page = stdout(&o).replace("\\-", "-");
    let book =
        |p: &str| std::fs::read_to_string(root().join("docs/src/reference").join(p)).unwrap();
    // Every variable of the book's environment table is a tagged paragraph of ENVIRONMENT.
    let env = section(&page, "ENVIRONMENT");
    let rows: Vec<String> = book("environment.md")
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .next()
                .unwrap()
                .trim()
                .replace('`', "")
        })
        .collect();
    assert!(rows.len() >= 10, "{rows:?}");
    for name in &rows {
        assert!(
            env.contains(&format!(".TP\n\\fB{name}\\fR\n")),
            "{name} missing: {env}"
        );
    }
    // Each heading of the pipeline reference is a subsection of PIPELINE FILE, in its order.
    let pipeline = section(&page, "\"PIPELINE FILE\"");
    let mut at = 0;
    for heading in book("pipeline.md")
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
    {
        let ss = format!(".SS \"{}\"\n", heading.replace('`', ""));
        let found = pipeline[at..]
            .find(&ss)
            .unwrap_or_else(|| panic!("{ss} missing or out of order"));
        at += found + ss.len();
    }
    // The exit codes are the reference's paragraph, marks and links removed.
    let exit = book("commands.md");
    let exit = exit
        .split("\n\n")
        .find(|p| p.starts_with("Exit codes:"))
        .unwrap();
    let first = exit
        .lines()
        .next()
        .unwrap()
        .replace("**", "")
        .replace('`', "");
    assert!(
        section(&page, "\"EXIT STATUS\"").starts_with(&first[..40]),
        "{first}"
    );
}
