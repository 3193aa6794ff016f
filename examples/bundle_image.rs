//! The bundle-image library from the command line, for the benchmark (scripts/bench_oci.sh)
//! and for trying it by hand until the `bundle-image` stage is wired into pipelines.
//!
//!     bundle_image folder --from APPREGISTRY_FOLDER --out BUNDLE_FOLDER
//!         the newest CSV of an app-registry bundle folder as a registry+v1 bundle folder
//!     bundle_image push --folder BUNDLE_FOLDER --target TARGET --tag TAG [--epoch N] [--force]
//!         builds the image of a bundle folder and pushes it (TARGET: oci:PATH or HOST/REPO);
//!         prints the manifest digest and what happened
//!
//! Registry credentials, if any, come from OCI_USERNAME and OCI_PASSWORD.

use std::path::PathBuf;

use olm_release_base::secret::Secret;
use olm_release_oci::{
    Credentials, ImageLocation, NoEvents, PushOutcome, PushRequest, Store, StoreOptions,
};
use olm_release_olm::bundle_image::{BundleFolder, build_image};
use olm_release_olm::fbc::migrate;

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

fn need(args: &[String], name: &str) -> String {
    arg(args, name).unwrap_or_else(|| fail(&format!("{name} is required")))
}

fn fail(msg: &str) -> ! {
    eprintln!("bundle_image: {msg}");
    std::process::exit(2)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("folder") => {
            let from = PathBuf::from(need(&args, "--from"));
            let out = PathBuf::from(need(&args, "--out"));
            let bundle = olm_release_olm::archive::read_path(&from, &Default::default())
                .unwrap_or_else(|e| fail(&e.to_string()));
            let split = migrate::plan(&bundle).unwrap_or_else(|e| fail(&e.to_string()));
            let newest = split
                .bundles
                .last()
                .unwrap_or_else(|| fail("no CSV in a channel"))
                .input();
            let folder = BundleFolder::build(&newest).unwrap_or_else(|e| fail(&e.to_string()));
            folder.write(&out).unwrap_or_else(|e| fail(&e.to_string()));
            println!("{}", newest.csv.name().unwrap_or_default());
        }
        Some("push") => {
            let folder = BundleFolder::read(&PathBuf::from(need(&args, "--folder")))
                .unwrap_or_else(|e| fail(&e.to_string()));
            let epoch = arg(&args, "--epoch")
                .map_or(0, |e| e.parse().unwrap_or_else(|_| fail("--epoch N")));
            let image = build_image(&folder, epoch).unwrap_or_else(|e| fail(&e.to_string()));
            let target = ImageLocation::parse(&need(&args, "--target"))
                .unwrap_or_else(|e| fail(&e.to_string()));
            let credentials = match (std::env::var("OCI_USERNAME"), std::env::var("OCI_PASSWORD")) {
                (Ok(username), Ok(p)) => Some(Credentials {
                    username,
                    password: Secret::new(p),
                }),
                _ => None,
            };
            let store = Store::open(
                &target,
                StoreOptions::default().with_credentials(credentials),
                &olm_release_oci::NoEvents,
            )
            .unwrap_or_else(|e| fail(&e.to_string()));
            let tag = need(&args, "--tag");
            let req = PushRequest {
                image: &image,
                tag: &tag,
                force: args.iter().any(|a| a == "--force"),
            };
            match olm_release_oci::push(&store, &req, &NoEvents).await {
                Ok(PushOutcome::Unchanged { digest }) => println!("{digest} unchanged"),
                Ok(PushOutcome::Pushed { digest, .. }) => println!("{digest} pushed"),
                Err(e) => {
                    eprintln!("bundle_image: {e}");
                    std::process::exit(1)
                }
            }
        }
        _ => fail(
            "usage: bundle_image folder --from DIR --out DIR | push --folder DIR --target T --tag TAG",
        ),
    }
}
