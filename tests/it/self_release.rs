//! olm-release releasing itself: `pipelines/olm-release.yaml` run as the tag job of
//! `.travis.yml` runs it, against the in-process GitHub fake serving olm-release/olm-release.

use crate::github_fake::{Fake, TOKEN};
use crate::support::{self, Work, assert_code, stderr};

fn sha(bytes: &[u8]) -> String {
    olm_release_base::digest::sha256_hex(bytes)
}

/// `pipelines/olm-release.yaml`, as the tag job runs it after `scripts/dist.sh`: the archive and
/// the given SHA256SUMS attached byte for byte to release v0.3.0 of olm-release/olm-release; a
/// rerun uploads nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn olm_release_releases_itself_with_its_own_pipeline() {
    let fake = Fake::start_for("olm-release/olm-release").await;
    let work = Work::sample();
    let dist = work.path().join("_dist");
    std::fs::create_dir_all(&dist).unwrap();
    let archive = "olm-release-0.3.0-x86_64-unknown-linux-gnu.tar.gz";
    let bytes: Vec<u8> = (0..=255u8).cycle().take(70_000).collect();
    std::fs::write(dist.join(archive), &bytes).unwrap();
    let sums = format!("{}  {archive}\n", sha(&bytes));
    std::fs::write(dist.join("SHA256SUMS"), &sums).unwrap();
    let dir = work.path().to_path_buf();
    let api = fake.api.clone();
    let run = move || {
        let (dir, api) = (dir.clone(), api.clone());
        tokio::task::spawn_blocking(move || {
            support::olm_release(
                &dir,
                &["run", "pipelines/olm-release.yaml"],
                &[
                    ("VERSION", "0.3.0"),
                    ("GITHUB_API_URL", &api),
                    ("GITHUB_TOKEN", TOKEN),
                ],
            )
        })
    };
    let first = run().await.unwrap();
    assert_code(&first, 0);
    {
        let w = fake.world();
        let r = w.release("v0.3.0").expect("release v0.3.0 exists");
        assert!(!r.draft, "published");
        let mut names: Vec<&str> = r.assets.iter().map(|a| a.name.as_str()).collect();
        names.sort();
        assert_eq!(names, ["SHA256SUMS", archive]);
        let get = |n: &str| r.assets.iter().find(|a| a.name == n).unwrap().bytes.clone();
        assert_eq!(get(archive), bytes, "the archive byte for byte");
        assert_eq!(
            get("SHA256SUMS"),
            sums.as_bytes(),
            "the given sums, as given"
        );
        assert!(
            w.log
                .iter()
                .any(|l| l.starts_with("POST /repos/olm-release/olm-release/releases")),
            "{:#?}",
            w.log
        );
    }
    let uploads = |fake: &Fake| {
        fake.world()
            .log
            .iter()
            .filter(|l| l.starts_with("POST") && l.contains("?name="))
            .count()
    };
    let before = uploads(&fake);
    let again = run().await.unwrap();
    assert_code(&again, 0);
    assert_eq!(uploads(&fake), before, "a rerun uploads nothing");
    assert!(stderr(&again).contains("unchanged: "), "{}", stderr(&again));
}
