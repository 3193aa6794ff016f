//! Property tests of the budgets: the YAML scan never sees less than the parser
//! builds, deep nesting, huge counts and bombs stop at the limits, and the flattened-YAML fast
//! readers agree with the general parser or decline. Case counts as in the parent module.

use olm_release_olm::archive::{self, Limits};
use proptest::prelude::*;

use super::{config, config_heavy, yaml_value};

/// Depth (collections) and number of values (keys included) of a parsed YAML value.
fn shape(v: &serde_yaml_ng::Value) -> (usize, u64) {
    use serde_yaml_ng::Value;
    match v {
        Value::Sequence(items) => items.iter().fold((1, 1), |(d, n), x| {
            let (xd, xn) = shape(x);
            (d.max(xd + 1), n + xn)
        }),
        Value::Mapping(m) => m.iter().fold((1, 1), |(d, n), (k, x)| {
            let ((kd, kn), (xd, xn)) = (shape(k), shape(x));
            (d.max(kd + 1).max(xd + 1), n + kn + xn)
        }),
        Value::Tagged(t) => shape(&t.value),
        _ => (0, 1),
    }
}

/// The scan must never see less than the parser builds: depth at least the parsed depth, and
/// values at least half the parsed ones (an implicit null after `key:` is not counted).
fn scan_covers(text: &str, value: &serde_yaml_ng::Value) -> Result<(), TestCaseError> {
    let m = archive::scan::measure(text);
    let (depth, nodes) = shape(value);
    prop_assert!(
        m.depth >= depth,
        "scan depth {} < parsed depth {depth}:\n{text}",
        m.depth
    );
    prop_assert!(
        2 * m.nodes + 1 >= nodes,
        "scan values {} vs parsed {nodes}:\n{text}",
        m.nodes
    );
    Ok(())
}

/// Nested YAML in one of the styles an attacker would pick, `depth` levels deep.
fn nested(style: u8, depth: usize) -> String {
    match style % 6 {
        0 => format!("data: {}x{}\n", "[".repeat(depth), "]".repeat(depth)),
        1 => format!("data: {}x{}\n", "{a: ".repeat(depth), "}".repeat(depth)),
        2 => format!("data:\n{}x\n", "- ".repeat(depth)),
        3 => {
            let mut t = String::from("data:\n");
            for i in 0..depth.min(300) {
                t.push_str(&format!("{}k{i}:\n", " ".repeat(2 * i + 2)));
            }
            t
        }
        4 => format!("data: {}x{}\n", "[a: ".repeat(depth), "]".repeat(depth)),
        _ => format!(
            "data: # [[[[\n  s: '[[[['\n  t: |\n    [[[[\n  u: {}\"]]\"{}\n",
            "[\n  ".repeat(depth),
            "]".repeat(depth)
        ),
    }
}

proptest! {
    #![proptest_config(config())]

    /// What the writers emit (block style, this tool's block style, JSON's flow style) is never
    /// measured shallower or smaller than it parses.
    #[test]
    fn scan_covers_what_the_writers_emit(value in yaml_value()) {
        let texts = [
            serde_yaml_ng::to_string(&value).unwrap(),
            olm_release_base::yaml::to_string(&value),
            serde_json::to_string(&value).unwrap_or_default(),
        ];
        for text in texts {
            if let Ok(parsed) = serde_yaml_ng::from_str::<serde_yaml_ng::Value>(&text) {
                scan_covers(&text, &parsed)?;
            }
        }
    }

    /// Text mutated with YAML's own punctuation: whenever the parser accepts it, the scan saw
    /// at least as much. A disagreement here is how a hidden `[[[…` would get past the scan.
    #[test]
    fn scan_covers_what_the_parser_accepts(
        value in yaml_value(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), "[ \\-?:,\\[\\]{}#|>'\"\\n\\r\\t&*!%@`a-z0-9]{1,4}"), 1..6),
    ) {
        let mut text = serde_yaml_ng::to_string(&value).unwrap();
        for (at, insert) in edits {
            let mut pos = at.index(text.len() + 1);
            while !text.is_char_boundary(pos) {
                pos -= 1;
            }
            text.insert_str(pos, &insert);
        }
        // Aliases nest through their anchors, which the parser bounds itself (128 levels).
        let parsed = serde_yaml_ng::from_str::<serde_yaml_ng::Value>(&text);
        if let (false, Ok(parsed)) = (text.contains('*'), parsed) {
            scan_covers(&text, &parsed)?;
        }
    }

    /// YAML built from its own tokens in any order: whatever the parser accepts, the scan saw.
    #[test]
    fn scan_covers_token_soup(parts in proptest::collection::vec(prop_oneof![
        Just("["), Just("]"), Just("{"), Just("}"), Just(", "), Just(","), Just(": "), Just(":"),
        Just("- "), Just("-"), Just("? "), Just("\n"), Just("\n  "), Just("\n    "), Just("'"),
        Just("\""), Just("''"), Just("\\"), Just("| "), Just("|\n"), Just(">2\n"), Just(" #"),
        Just("#"), Just("&a "), Just("&b"), Just("!t "), Just("!!str "), Just("a"), Just("x y"),
        Just("\r"), Just("\r\n"), Just("\u{85}"), Just("\u{2028}"), Just("--- "), Just("\n---\n"),
        Just("\n...\n"), Just("\t"), Just(" "), Just("k: "), Just("%YAML 1.1\n"),
    ], 0..40)) {
        let text: String = parts.concat();
        if !text.contains('*') {
            for doc in serde_yaml_ng::Deserializer::from_str(&text) {
                match <serde_yaml_ng::Value as serde::Deserialize>::deserialize(doc) {
                    // Each document's depth is at most the whole text's.
                    Ok(parsed) => scan_covers(&text, &parsed)?,
                    Err(_) => break,
                }
            }
        }
    }

    /// Deep nesting of every style is refused at the fixed depth, and shallower nesting of the
    /// same style is read.
    #[test]
    fn bundle_reader_refuses_deep_nesting(style in any::<u8>(), depth in 1usize..3000) {
        let text = nested(style, depth);
        let result = archive::read_flattened("b.yaml", text.as_bytes(), &Limits::default());
        let measured = archive::scan::measure(&text).depth;
        match result {
            Err(e) if matches!(e.innermost(), archive::ReadError::TooDeep { .. }) => {
                prop_assert!(measured > 100, "refused at {measured}: {e}");
            }
            // Read (or refused for what is missing, never for depth) at or under the limit.
            _ => prop_assert!(measured <= 100, "{measured} levels got through"),
        }
    }

}

proptest! {
    #![proptest_config(config_heavy())]

    /// Lists of tiny items and gzip bombs stop at the budget, never past it, whatever their
    /// size and limits.
    #[test]
    fn bundle_reader_stops_huge_counts_and_bombs(
        items in 0usize..40_000,
        zeros in 0u64..(8 << 20),
        max_kib in 16u64..2048,
        max_entries in 1usize..20_000,
    ) {
        let limits = Limits { max_bytes: max_kib << 10, max_entries, ..Limits::default() };
        let text = format!(
            "data:\n  packages: |\n    - packageName: p\n      channels: []\n  clusterServiceVersions: |\n{}",
            "    - 0\n".repeat(items)
        );
        let gz = archive::pack(&[("pkg/bundle.yaml".to_string(), text.clone().into_bytes())], 0).unwrap();
        match archive::unpack(&gz.gz, limits).and_then(|(files, _)| archive::read_bundle(&files, &limits)) {
            Ok(b) => {
                prop_assert!(gz.tar_size <= limits.max_bytes);
                // Each item is two values: its entry and its content.
                prop_assert!(2 * items as u64 <= limits.max_nodes() && items <= max_entries);
                prop_assert_eq!(b.csvs.len(), items);
            }
            Err(e) => {
                use archive::ReadError::*;
                let over = gz.tar_size > limits.max_bytes
                    || 2 * items as u64 + 16 > limits.max_nodes()
                    || items > max_entries;
                prop_assert!(over, "refused within the limits: {e}");
                prop_assert!(matches!(e.innermost(), TooLarge { .. } | TooManyNodes { .. } | TooManyItems { .. }), "{e}");
            }
        }
        let bomb = {
            use std::io::{Read as _, Write};
            let mut tar = tar::Builder::new(Vec::new());
            let mut h = tar::Header::new_gnu();
            h.set_size(zeros);
            h.set_mode(0o644);
            h.set_cksum();
            tar.append_data(&mut h, "pkg/bundle.yaml", std::io::repeat(0).take(zeros)).unwrap();
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            e.write_all(&tar.into_inner().unwrap()).unwrap();
            e.finish().unwrap()
        };
        match archive::unpack(&bomb, limits) {
            Ok((files, _)) => prop_assert!(files[0].1.len() as u64 <= limits.max_bytes),
            Err(e) => prop_assert!(
                matches!(e, archive::ReadError::TooLarge { .. } | archive::ReadError::Ratio { .. }),
                "{e}"
            ),
        }
    }

}

proptest! {
    #![proptest_config(config())]

    /// The flattened-YAML fast readers return what the general parser returns, or decline.
    #[test]
    fn flattened_readers_agree_with_the_parser_or_decline(items in proptest::collection::vec(yaml_value(), 0..6), junk in "[ \\-:|'\"\\n#a-z]{0,12}") {
        use olm_release_olm::flat_yaml;
        let list = serde_yaml_ng::to_string(&items).unwrap();
        for text in [list.clone(), format!("{list}{junk}"), format!("{junk}{list}")] {
            if let Some(ours) = flat_yaml::read_list(&text) {
                let general = serde_yaml_ng::from_str::<Vec<serde_yaml_ng::Value>>(&text);
                prop_assert_eq!(Some(ours), general.ok(), "{}", text);
            }
            let outer = flat_yaml::emit(&[("clusterServiceVersions", &text), ("packages", "- x\n")]);
            if let Some(outer) = outer {
                let general: serde_yaml_ng::Value = serde_yaml_ng::from_str(&outer).unwrap();
                prop_assert_eq!(flat_yaml::read(&outer), Some(general));
            }
        }
    }
}
