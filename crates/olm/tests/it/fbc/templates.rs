//! Catalog templates in the domain: a basic template that lists nothing yet gains the package,
//! the channel and the stub; a bundle stub with fields besides schema and image is refused as
//! opm refuses it; a lowercase semver template stays lowercase.

use olm_release_olm::fbc::template::{self, Release};
use olm_release_olm::fbc::{self, AddBundle};

use super::{crd, csv, image};

fn request(version: &str) -> AddBundle {
    let name = format!("widget.v{version}");
    let m = csv(&name, version, None, &[]);
    AddBundle::from_csv("widget", &m, &[crd()], &image(&name), &["stable".into()]).unwrap()
}

fn release(req: &AddBundle) -> Release<'_> {
    Release {
        request: req,
        deprecations: &[],
        icon: None,
        description: None,
    }
}

#[test]
fn an_empty_basic_template_gains_the_package_channel_and_stub() {
    let mut t = template::parse("t.yaml", "schema: olm.template.basic\nentries: []\n").unwrap();
    let req = request("0.1.0");
    let r = t.release(&fbc::Catalog::default(), &release(&req)).unwrap();
    let back = template::parse("t.yaml", &r.text).unwrap();
    assert_eq!(back, t, "the text is the template");
    let kinds: Vec<&str> = r
        .text
        .lines()
        .filter(|l| l.starts_with("- schema:"))
        .collect();
    assert_eq!(
        kinds,
        [
            "- schema: olm.package",
            "- schema: olm.channel",
            "- schema: olm.bundle"
        ]
    );
    assert!(
        fbc::validate(&r.catalog).is_empty(),
        "{:?}",
        fbc::validate(&r.catalog)
    );
    assert_eq!(r.catalog.bundles[0].image, req.image);
    let err = template::parse(
        "t.yaml",
        "schema: olm.template.basic\nentries:\n- {schema: olm.bundle, image: x, name: y}\n",
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("unexpected fields present"),
        "{err}"
    );
}

#[test]
fn a_lowercase_semver_template_keeps_its_spelling() {
    let mut t = template::parse("s.yaml", "schema: olm.semver\n").unwrap();
    let req = request("1.2.0");
    let r = t.release(&fbc::Catalog::default(), &release(&req)).unwrap();
    assert_eq!(
        r.text,
        format!(
            "schema: olm.semver\nstable:\n  bundles:\n  - image: {}\n",
            req.image
        )
    );
    let names: Vec<&str> = r.catalog.channels.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["stable-v1.2"]);
    let err = template::parse("s.yaml", "schema: olm.semver\navoidSkipPatch: true\n").unwrap_err();
    assert!(
        err.to_string().contains("unknown field \"avoidskippatch\""),
        "{err}"
    );
}
