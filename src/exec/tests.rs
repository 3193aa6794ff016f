//! Every stage list the plan builder accepts runs: the executor has an arm for each pair of
//! step and carried output the builder can produce, so "X has not run" cannot happen.

use std::path::Path;
use std::sync::Arc;

use crate::cli::PipelineArgs;
use crate::pipeline::StageName;
use crate::report::{Reporter, Verbosity};
use crate::settings::{self, RunMode};

const ALL: [StageName; 6] = [
    StageName::Render,
    StageName::FetchPrevious,
    StageName::Package,
    StageName::Verify,
    StageName::Push,
    StageName::Release,
];

/// Lists with the bundle-image and catalog stages (every ordering of all eight would be
/// 109,600 lists): where they may stand, and where they may not.
fn image_lists() -> Vec<Vec<StageName>> {
    use StageName::*;
    vec![
        vec![Render, Package, Verify, BundleImage],
        vec![Render, Package, Verify, BundleImage, Catalog],
        vec![
            Render,
            FetchPrevious,
            Package,
            Verify,
            Push,
            BundleImage,
            Catalog,
            Release,
        ],
        vec![
            Render,
            FetchPrevious,
            Package,
            Verify,
            BundleImage,
            Catalog,
            Push,
            Release,
        ],
        vec![Render, Package, Verify, BundleImage, Release, Catalog],
        // refused: no verify before bundle-image, no bundle-image before catalog
        vec![Render, Package, BundleImage],
        vec![Render, Package, Verify, Catalog],
        vec![Render, Package, Verify, Catalog, BundleImage],
    ]
}

/// Every ordered selection of distinct stages (1,956 lists).
fn all_lists() -> Vec<Vec<StageName>> {
    fn grow(prefix: &mut Vec<StageName>, out: &mut Vec<Vec<StageName>>) {
        for s in ALL {
            if prefix.contains(&s) {
                continue;
            }
            prefix.push(s);
            out.push(prefix.clone());
            grow(prefix, out);
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    grow(&mut Vec::new(), &mut out);
    out
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}

/// The sample pipeline with `stages` and `assets` in place of its own.
fn pipeline(sample: &str, stages: &[StageName], assets: &str) -> String {
    const STAGES: &str =
        "stages: [render, fetch-previous, package, verify, push, bundle-image, catalog, release]";
    const ASSETS: &str = r#"assets: ["{csv}", sample-operatorsource.yaml]"#;
    assert!(
        sample.contains(STAGES) && sample.contains(ASSETS),
        "the sample pipeline changed shape"
    );
    let list: Vec<&str> = stages.iter().map(|s| s.as_str()).collect();
    sample
        .replace(STAGES, &format!("stages: [{}]", list.join(", ")))
        .replace(ASSETS, &format!("assets: {assets}"))
}

#[tokio::test(flavor = "current_thread")]
async fn every_stage_list_the_builder_accepts_runs_in_a_dry_run() {
    let work = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    copy_dir(
        &root.join("fixtures/sample-operator"),
        &work.path().join("fixtures/sample-operator"),
    );
    std::fs::write(work.path().join("NOTICE"), "a file of the source folder\n").unwrap();
    let sample = std::fs::read_to_string(root.join("pipelines/sample.yaml")).unwrap();
    let env = settings::Env::from([("SOURCE_DATE_EPOCH".to_string(), "0".to_string())]);
    let report = Arc::new(Reporter::new(Verbosity::Quiet, true));
    let mut accepted = Vec::new();
    for (assets, lists) in [
        (r#"["{csv}", sample-operatorsource.yaml]"#, all_lists()),
        (r#"["{csv}", sample-operatorsource.yaml]"#, image_lists()),
        ("[{file: NOTICE}]", vec![vec![StageName::Release]]),
    ] {
        let file = work.path().join("p.yaml");
        std::fs::write(&file, pipeline(&sample, &ALL, assets)).unwrap();
        let args = PipelineArgs {
            pipeline: file,
            variant: None,
            vars: vec![],
            source: work.path().to_path_buf(),
            out: Some(work.path().join("_out/t")),
            insecure: false,
        };
        let mode = RunMode {
            dry_run: true,
            force: false,
        };
        let resolved = settings::resolve(&args, mode, &env, crate::pipeline::Uses::Stages).unwrap();
        for stages in lists {
            let mut s = resolved.clone();
            s.stages = stages.clone();
            let Ok(plan) = crate::plan::build(&s) else {
                continue;
            };
            super::execute(&plan, &report)
                .await
                .unwrap_or_else(|e| panic!("{stages:?}: {e}"));
            accepted.push(stages);
        }
    }
    eprintln!("{} stage lists accepted and run", accepted.len());
    // The builder accepts what the stage order allows, and no more.
    assert!(accepted.len() > 20, "{accepted:?}");
    assert!(accepted.contains(&ALL.to_vec()));
    assert!(accepted.contains(&vec![StageName::Release]));
    assert!(!accepted.iter().any(|l| {
        let at = |s| l.iter().position(|x| *x == s);
        at(StageName::Push).is_some_and(|p| at(StageName::Verify).is_none_or(|v| v >= p))
    }));
    for l in image_lists() {
        let at = |s| l.iter().position(|x| *x == s);
        let ok = at(StageName::BundleImage)
            .is_none_or(|b| at(StageName::Verify).is_some_and(|v| v < b))
            && at(StageName::Catalog)
                .is_none_or(|c| at(StageName::BundleImage).is_some_and(|b| b < c));
        assert_eq!(accepted.contains(&l), ok, "{l:?}");
    }
    for written in ["_out/registry", "_out/release", "_out/oci", "_out/catalog"] {
        assert!(
            !work.path().join(written).exists(),
            "a dry-run wrote {written}"
        );
    }
}
