//! Property tests ("fuzzing" with a bounded case count, so CI time stays bounded): the pipeline
//! file parser and the `${VAR}` expander never panic on arbitrary input, and their errors name
//! the file. `PROPTEST_CASES` raises the count for a longer local run
//! (`olm_release_testsupport::fuzz`). The library crates' own property tests are theirs
//! (crates/olm, crates/base and crates/gotemplate, `tests/it/fuzz`).

use olm_release::pipeline::{self, Vars, interpolate};
use olm_release_base::Classified as _;
use olm_release_testsupport::fuzz::config;
use proptest::prelude::*;

const PIPELINE: &str = "name: t\npackage: p\nchannel: alpha\nversion: ${VERSION:-0.1.0}\nrender:\n  templates: olm\nregistry:\n  url: dir:_out/registry\n  namespace: ns\nstages: [render, package, verify, push]\n";

proptest! {
    #![proptest_config(config())]

    #[test]
    fn pipeline_parser_never_panics(text in "\\PC{0,400}") {
        let _ = pipeline::parse("fuzz.yaml", &text, &Vars::default());
    }

    #[test]
    fn pipeline_parser_survives_mutations(pos in 0usize..PIPELINE.len(), insert in "[ :\\-\\[\\]{}$#&*!|>'\"\\n\\ta-z0-9]{0,12}", cut in 0usize..8) {
        let mut text = PIPELINE.to_string();
        let pos = (0..=pos).rev().find(|p| text.is_char_boundary(*p)).unwrap_or(0);
        let end = (pos + cut).min(text.len());
        let end = (end..=text.len()).find(|p| text.is_char_boundary(*p)).unwrap_or(text.len());
        text.replace_range(pos..end, &insert);
        if let Err(e) = pipeline::parse("fuzz.yaml", &text, &Vars::default()) {
            prop_assert!(e.to_string().starts_with("fuzz.yaml"), "errors name the file: {}", e.to_string());
            prop_assert_eq!(e.class().exit_code(), 2);
        }
    }

    #[test]
    fn expander_never_panics_and_is_identity_without_dollars(text in "\\PC{0,200}") {
        let vars = Vars::default();
        let expanded = interpolate::expand(&text, &vars);
        if !text.contains('$') {
            prop_assert_eq!(expanded.unwrap(), text);
        }
    }
}
