//! The plan before anything runs: every static problem listed at once (exit 2, nothing
//! written), each stage naming the section it needs, assets that will not exist found early,
//! the preflight's server checks listed together (exit 1, nothing written), and release-only
//! pipelines that attach files of the source folder with a generated or a given SHA256SUMS.

use crate::github_fake;
use crate::quay_fake;
use crate::support::{self, Work, assert_code, list_files, stderr, stdout};

/// Writes `pipelines/p.yaml` from the sample with `edit` applied and returns its path.
fn sample_with(work: &Work, edit: impl Fn(String) -> String) -> &'static str {
    let p = work.path().join("pipelines/sample.yaml");
    let text = std::fs::read_to_string(&p).unwrap();
    let edited = edit(text.clone());
    assert_ne!(edited, text, "the sample pipeline changed shape");
    std::fs::write(work.path().join("pipelines/p.yaml"), edited).unwrap();
    "pipelines/p.yaml"
}

#[test]
fn every_static_problem_is_listed_at_once_and_nothing_runs() {
    let work = Work::sample();
    let file = sample_with(&work, |t| {
        t.replace(
            "  target: dir:_out/release\n",
            "  target: github:acme/sample-operator\n  options: { retires: \"3\", concurrency: \"x\" }\n",
        )
        .replace("url: dir:_out/registry", "url: https://quay.example/cnr")
        .replace("sample-operatorsource.yaml]", "sample-operatorsource.yml, notes.txt]")
    });
    for cmd in ["plan", "run"] {
        let o = work.run(&[cmd, file], &[]);
        assert_code(&o, 2);
        let err = stderr(&o);
        for needle in [
            "6 problems; nothing was run:",
            "pipelines/p.yaml:29: release.options.concurrency: 'x' is not a whole number",
            "pipelines/p.yaml:29: release.options.retires: unknown option for a github: target",
            "QUAY_TOKEN: pushing to https://quay.example/cnr (registry.url) needs credentials",
            "GITHUB_TOKEN: github:acme/sample-operator release: set GITHUB_TOKEN",
            "pipelines/p.yaml:31: release.assets: 'sample-operatorsource.yml' matches no file the render stage writes; it writes: ",
            "release.assets: 'notes.txt' matches no file",
        ] {
            assert!(err.contains(needle), "{cmd}: missing {needle:?} in\n{err}");
        }
        assert!(!work.path().join("_out").exists(), "{cmd} wrote something");
    }
}

#[test]
fn each_stage_names_the_section_it_needs() {
    let work = Work::sample();
    let file = sample_with(&work, |t| {
        let start = t.find("registry:\n").unwrap();
        let end = t.find("release:\n").unwrap();
        // Neither registry: nor catalog: (with a catalog: section, fetch-previous reads it).
        let catalog = t.find("\ncatalog:").unwrap();
        format!("{}{}", &t[..start], &t[end..=catalog]).replace("channel: alpha\n", "")
    });
    let o = work.run(&["plan", file], &[]);
    assert_code(&o, 2);
    let err = stderr(&o);
    for needle in [
        "pipelines/p.yaml:27: stages: 'render' needs channel: (the OLM channel), which the pipeline does not have",
        "pipelines/p.yaml:27: stages: 'fetch-previous' needs a registry: section, which the pipeline does not have",
        "pipelines/p.yaml:27: stages: 'push' needs a registry: section",
        "pipelines/p.yaml:27: stages: 'catalog' needs a catalog: section",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in\n{err}");
    }
}

#[test]
fn a_release_only_pipeline_attaches_files_with_generated_or_given_sums() {
    let work = Work::sample();
    std::fs::create_dir_all(work.path().join("dist")).unwrap();
    std::fs::write(
        work.path().join("dist/tool.tar.gz"),
        b"not really a tarball",
    )
    .unwrap();
    std::fs::write(work.path().join("LICENSE"), b"Apache-2.0\n").unwrap();
    let pipeline = |assets: &str| {
        format!(
            "name: self\nversion: 1.0.0\nrelease:\n  target: dir:_out/release\n  tag: v1.0.0\n  assets:\n{assets}stages: [release]\n"
        )
    };
    let write =
        |text: String| std::fs::write(work.path().join("pipelines/self.yaml"), text).unwrap();
    write(pipeline(
        "    - file: LICENSE\n    - file: dist/tool.tar.gz\n",
    ));
    let plan = work.run(&["plan", "pipelines/self.yaml"], &[]);
    assert_code(&plan, 0);
    assert!(stdout(&plan).contains("1. release"), "{}", stdout(&plan));
    let o = work.run(&["run", "pipelines/self.yaml"], &[]);
    assert_code(&o, 0);
    let dir = work.path().join("_out/release/v1.0.0");
    assert_eq!(list_files(&dir), ["LICENSE", "SHA256SUMS", "tool.tar.gz"]);
    let sums = std::fs::read_to_string(dir.join("SHA256SUMS")).unwrap();
    let sha = |b: &[u8]| olm_release_base::digest::sha256_hex(b);
    assert_eq!(
        sums,
        format!(
            "{}  LICENSE\n{}  tool.tar.gz\n",
            sha(b"Apache-2.0\n"),
            sha(b"not really a tarball")
        )
    );

    // A SHA256SUMS of the project's own is checked and attached as it is.
    let given = format!("{} *tool.tar.gz\n", sha(b"not really a tarball"));
    std::fs::write(work.path().join("dist/SHA256SUMS"), &given).unwrap();
    write(pipeline(
        "    - file: dist/tool.tar.gz\n    - file: dist/SHA256SUMS\n",
    ));
    std::fs::remove_dir_all(work.path().join("_out")).unwrap();
    let o = work.run(&["run", "pipelines/self.yaml"], &[]);
    assert_code(&o, 0);
    assert_eq!(
        std::fs::read_to_string(dir.join("SHA256SUMS")).unwrap(),
        given
    );

    // One that does not list an asset, or lists it with another digest, stops the release.
    std::fs::write(
        work.path().join("dist/SHA256SUMS"),
        format!("{}  tool.tar.gz\n", sha(b"x")),
    )
    .unwrap();
    write(pipeline(
        "    - file: dist/tool.tar.gz\n    - file: LICENSE\n    - file: dist/SHA256SUMS\n",
    ));
    std::fs::remove_dir_all(work.path().join("_out")).unwrap();
    let o = work.run(&["run", "pipelines/self.yaml"], &[]);
    assert_code(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains(
            "the given SHA256SUMS does not match the assets: tool.tar.gz is listed with sha256"
        ) && err.contains("LICENSE is not listed"),
        "{err}"
    );
    assert!(!dir.exists(), "nothing was attached");

    // A file that does not exist is found before anything runs.
    write(pipeline("    - file: dist/missing.tar.gz\n"));
    let o = work.run(&["run", "pipelines/self.yaml"], &[]);
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains("pipelines/self.yaml:6: release.assets: file ")
            && stderr(&o).contains("dist/missing.tar.gz does not exist"),
        "{}",
        stderr(&o)
    );
    // And a rendered name needs the render stage.
    write(pipeline("    - \"{csv}\"\n"));
    let o = work.run(&["plan", "pipelines/self.yaml"], &[]);
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains(
            "stages: 'release' needs 'render' before it (release.assets names rendered files)"
        ),
        "{}",
        stderr(&o)
    );
}

/// Both servers refuse the credentials: the preflight lists both, exits 1, and nothing is
/// written anywhere (the preflight runs before render).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_preflight_lists_every_server_that_says_no_before_anything_is_written() {
    let quay = quay_fake::Fake::start();
    let github = github_fake::Fake::start(false).await;
    let work = Work::sample();
    let file = sample_with(&work, |t| {
        t.replace("url: dir:_out/registry", &format!("url: {}", quay.url))
            .replace(
                "  target: dir:_out/release\n",
                &format!("  target: github:acme/sample-operator\n  api_url: {}\n  options: {{ retries: \"1\" }}\n", github.api),
            )
    });
    let dir = work.path().to_path_buf();
    let o = tokio::task::spawn_blocking(move || {
        support::olm_release(
            &dir,
            &["run", file],
            &[
                ("QUAY_TOKEN", "basic bm9ib2R5Om5vcGU="),
                ("GITHUB_TOKEN", "ghp_wrong"),
            ],
        )
    })
    .await
    .unwrap();
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("stage preflight: 2 checks failed; nothing was written:"),
        "{err}"
    );
    assert!(
        err.contains("the registry check") && err.contains("HTTP 401"),
        "{err}"
    );
    assert!(
        err.contains("the GitHub check") && err.contains("Bad credentials"),
        "{err}"
    );
    assert!(
        !err.contains("==> render"),
        "the preflight runs first:\n{err}"
    );
    assert_eq!(quay.pushes(), 0);
    let w = github.world();
    assert!(w.log.iter().all(|l| l.starts_with("GET")), "{:#?}", w.log);
    assert!(w.releases.is_empty());
    assert!(!work.path().join("_out").exists());
}
