//! What a killed run leaves behind is removed by the next run: the hidden `.NAME.tmp-PID`
//! files and folders of processes that are gone, in the catalog folder and beside the bundle
//! folder (which is staged whole and renamed). Those of a live process are kept (it may rename
//! them any moment), and what the next run writes is unaffected.

use std::path::Path;

use crate::support::{Work, assert_code, stderr};

const SAMPLE: &str = "pipelines/sample.yaml";
const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1570449600");
/// PIDs above the kernel's maximum (2^22) never run.
const DEAD: [u32; 2] = [4_999_999, 4_999_998];

fn plant_file(path: &Path) {
    std::fs::write(path, "partial").unwrap();
}

fn plant_folder(path: &Path) {
    std::fs::create_dir_all(path.join("manifests")).unwrap();
    std::fs::write(path.join("manifests/partial.yaml"), "kind: Partial\n").unwrap();
}

#[test]
fn the_next_run_removes_dead_runs_temporary_files_in_the_catalog_and_bundle_folders() {
    let work = Work::sample();
    assert_code(&work.run(&["run", SAMPLE], &[EPOCH]), 0);
    let catalog = work.path().join("_out/catalog/sample-operator");
    let release = work.path().join("_out/sample-release");
    assert!(catalog.join("catalog.yaml").is_file());
    assert!(release.join("bundle-image").is_dir());

    // A killed run's leftovers: a catalog file's temporary, the staged bundle folder and the
    // replaced one moved aside.
    let mut live = std::process::Command::new("sleep")
        .arg("30")
        .spawn()
        .unwrap();
    let dead = [
        catalog.join(format!(".catalog.yaml.tmp-{}", DEAD[0])),
        release.join(format!(".bundle-image.tmp-{}", DEAD[0])),
        release.join(format!(".bundle-image.old.tmp-{}", DEAD[1])),
    ];
    let alive = [
        catalog.join(format!(".catalog.yaml.tmp-{}", live.id())),
        release.join(format!(".bundle-image.tmp-{}", live.id())),
    ];
    plant_file(&dead[0]);
    plant_folder(&dead[1]);
    plant_folder(&dead[2]);
    plant_file(&alive[0]);
    plant_folder(&alive[1]);

    let next = work.run(&["run", SAMPLE, "--var", "VERSION=0.2.0"], &[EPOCH]);
    let _ = live.kill();
    let _ = live.wait();
    assert_code(&next, 0);
    for p in &dead {
        assert!(!p.exists(), "{} is left", p.display());
    }
    for p in &alive {
        assert!(p.exists(), "a live process's {} was removed", p.display());
    }

    // The contents are the run's own, the leftovers ignored.
    let text = std::fs::read_to_string(catalog.join("catalog.yaml")).unwrap();
    assert!(
        text.contains("- name: sample-operator.v0.2.0\n  replaces: sample-operator.v0.1.0"),
        "{text}"
    );
    assert!(!text.contains("Partial"), "{text}");
    let mut files = crate::support::list_files(&release.join("bundle-image"));
    files.retain(|f| f.contains("partial"));
    assert!(files.is_empty(), "{files:?}");
    let csv = std::fs::read_dir(release.join("bundle-image/manifests"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .find(|t| t.contains("kind: ClusterServiceVersion"))
        .expect("the bundle folder has its CSV");
    assert!(csv.contains("sample-operator.v0.2.0"), "{csv}");
    let graph = work.run(&["graph", "_out/catalog"], &[]);
    assert_code(&graph, 0);
    assert!(!stderr(&graph).contains("Partial"));
}
