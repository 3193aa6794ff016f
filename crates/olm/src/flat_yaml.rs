//! The outer document of a flattened `bundle.yaml` (`data:` with three keys whose values are YAML
//! strings), written and read without the general YAML machinery.
//!
//! Why: the three strings hold the whole bundle (megabytes for a cumulative bundle of a hundred
//! KubeVirt-sized CSVs), and pushing them through a general YAML emitter and scanner a second
//! time, one character at a time, cost as much as serialising and parsing every CSV itself
//! (profiled: about 50 ms to write and 40 ms to read at 100 CSVs). Here each string is
//! a literal block scalar copied line by line.
//!
//! Both directions are exact or decline: [`emit`] produces byte for byte what `serde_yaml_ng`
//! (libyaml's emitter) writes, and only for strings that emitter writes as a plain `|` or `|-`
//! literal block; [`read`] accepts only documents of exactly that shape and returns the same
//! value the general parser would. Anything else (other characters, indentation hints, other
//! chomping, comments, flow style, duplicate keys) returns `None` and the caller uses the
//! general YAML code, so the fast path never changes a digest or a reading.

use serde_yaml_ng::{Mapping, Value};

/// `data:` with `entries` as literal blocks, as `serde_yaml_ng::to_string` of that mapping
/// writes it; `None` when any value needs a style other than a plain literal block.
pub fn emit(entries: &[(&str, &str)]) -> Option<String> {
    let size: usize = entries
        .iter()
        .map(|(k, v)| k.len() + v.len() * 11 / 10 + 16)
        .sum();
    let mut out = String::with_capacity(size + 8);
    out.push_str("data:\n");
    for (key, value) in entries {
        if !plain_key(key) {
            return None;
        }
        let chomp = literal_chomping(value)?;
        out.push_str("  ");
        out.push_str(key);
        out.push_str(": |");
        out.push_str(chomp);
        out.push('\n');
        for line in value.strip_suffix('\n').unwrap_or(value).split('\n') {
            if !line.is_empty() {
                out.push_str("    ");
                out.push_str(line);
            }
            out.push('\n');
        }
    }
    Some(out)
}

/// The chomping indicator libyaml writes for `s` as a literal block ("" or "-"), or `None`
/// when libyaml would not write `s` as a literal block without hints.
fn literal_chomping(s: &str) -> Option<&'static str> {
    // serde_yaml_ng asks for a literal block only for strings holding a line break.
    if !s.contains('\n') || s.starts_with([' ', '\n']) || s.ends_with(' ') || s.contains(" \n") {
        return None;
    }
    if !s.chars().all(block_safe) {
        return None;
    }
    match (s.ends_with('\n'), s.ends_with("\n\n")) {
        (true, false) => Some(""),
        (false, _) => Some("-"),
        (true, true) => None,
    }
}

/// Characters libyaml writes as themselves in a block scalar and reads back unchanged: line
/// feed, printable ASCII and printable non-ASCII other than the BOM and Unicode line breaks.
/// Tabs, carriage returns and every other control character take the general path.
fn block_safe(c: char) -> bool {
    matches!(c, '\n' | ' '..='~')
        || (c >= '\u{a0}'
            && !matches!(
                c,
                '\u{feff}' | '\u{2028}' | '\u{2029}' | '\u{fffe}' | '\u{ffff}'
            ))
}

/// The keys of a flattened bundle (the `data` section operator-courier's `format.py` writes and
/// operator-registry's `pkg/appregistry` package reads): written plain, read back as strings.
fn plain_key(k: &str) -> bool {
    matches!(
        k,
        "customResourceDefinitions" | "clusterServiceVersions" | "packages"
    )
}

/// Reads a document of exactly the shape [`emit`] writes into the value the general parser
/// would return; `None` for anything else.
pub fn read(text: &str) -> Option<Value> {
    let body = text.strip_prefix("data:\n")?;
    let mut data = Mapping::new();
    let mut lines = body.split_inclusive('\n').peekable();
    while let Some(header) = lines.next() {
        let header = header.strip_prefix("  ")?.strip_suffix('\n')?;
        let (key, indicator) = header.split_once(": |")?;
        let strip = match indicator {
            "" => false,
            "-" => true,
            _ => return None,
        };
        if !plain_key(key) || data.contains_key(key) {
            return None;
        }
        let mut value = String::new();
        let mut first = true;
        while let Some(line) = lines.peek() {
            let content = match line.strip_prefix("    ") {
                Some(c) => c,
                None if *line == "\n" => "\n",
                None => break,
            };
            // The first line sets the block's indentation: exactly four spaces.
            if first && (content.starts_with(' ') || content == "\n") {
                return None;
            }
            first = false;
            value.push_str(content);
            lines.next();
        }
        if first || !value.ends_with('\n') || value.ends_with("\n\n") {
            return None;
        }
        if strip {
            value.pop();
        }
        // What emit would not write (tabs, trailing spaces, control characters) is left to
        // the general parser, which knows every rule for them.
        if literal_chomping(&value) != Some(if strip { "-" } else { "" }) {
            return None;
        }
        data.insert(Value::from(key), Value::String(value));
    }
    let mut top = Mapping::new();
    top.insert(Value::from("data"), Value::Mapping(data));
    Some(Value::Mapping(top))
}

/// Parses a YAML block sequence whose items start with `- ` at column 0 (what the emitter
/// writes for the CSV and CRD lists of a flattened bundle) item by item, on every core: the
/// same values as parsing the whole text, without buffering the events of megabytes of YAML at
/// once. `None` when the text has another shape or an item does not parse on its own (e.g. an
/// alias to an anchor in another item): the caller then parses the whole text.
pub fn read_list(text: &str) -> Option<Vec<Value>> {
    // Each item's lines without their first two columns, copied into a string of exactly its
    // size (a list of millions of tiny items must not cost a page each): sizes first, then text.
    // Lines that read differently once their two columns are gone decline: an item that is a
    // block scalar itself (its indentation is relative to the list's), and lines that become
    // a document marker, a directive or a leading BOM at column 0.
    let item_line = |line: &str| -> Option<(bool, usize)> {
        let (new, cut) = if line.starts_with("- ") {
            (true, 2)
        } else if line.starts_with("  ") {
            (false, 2)
        } else if line == "\n" {
            return Some((false, 0));
        } else {
            return None;
        };
        let rest = &line[cut..];
        let marker = (rest.starts_with("---") || rest.starts_with("..."))
            && rest[3..].starts_with([' ', '\t', '\r', '\n']);
        if marker || rest.starts_with(['%', '\u{feff}']) || new && block_scalar_item(rest) {
            return None;
        }
        Some((new, cut))
    };
    let mut sizes: Vec<usize> = Vec::new();
    for line in text.split_inclusive('\n') {
        let (new, cut) = item_line(line)?;
        if new {
            sizes.push(0);
        }
        *sizes.last_mut()? += line.len() - cut;
    }
    let mut items: Vec<String> = Vec::with_capacity(sizes.len());
    let mut next = sizes.into_iter();
    for line in text.split_inclusive('\n') {
        let (new, cut) = item_line(line)?;
        if new {
            items.push(String::with_capacity(next.next()?));
        }
        items.last_mut()?.push_str(&line[cut..]);
    }
    let parse = |item: &String| -> Option<Value> {
        let mut docs = serde_yaml_ng::Deserializer::from_str(item);
        let value = <Value as serde::Deserialize>::deserialize(docs.next()?).ok()?;
        docs.next().is_none().then_some(value)
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    if threads < 2 || items.len() < 8 {
        return items.iter().map(parse).collect();
    }
    let chunk = items.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let workers: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(parse).collect::<Option<Vec<_>>>()))
            .collect();
        let mut out = Vec::with_capacity(items.len());
        for w in workers {
            out.extend(w.join().unwrap_or_else(|p| std::panic::resume_unwind(p))?);
        }
        Some(out)
    })
}

/// Whether a list item's first line starts a block scalar (`|`, `>`), after any anchor or tag.
fn block_scalar_item(first: &str) -> bool {
    let mut t = first.trim_start_matches(' ');
    while t.starts_with(['&', '!']) {
        t = t
            .split_once(' ')
            .map_or("", |(_, after)| after)
            .trim_start_matches(' ');
    }
    t.starts_with(['|', '>'])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn general(entries: &[(&str, &str)]) -> String {
        let mut data = Mapping::new();
        for (k, v) in entries {
            data.insert(Value::from(*k), Value::from(*v));
        }
        let mut top = Mapping::new();
        top.insert(Value::from("data"), Value::Mapping(data));
        serde_yaml_ng::to_string(&top).unwrap()
    }

    const CASES: &[&str] = &[
        "- a: 1\n  b: |\n    x\n\n    y\n",
        "[]\n",
        "- kind: X\n  description: \"quoted: yes\"\n  é: ü 漢字\n",
        "no final newline\nsecond",
        "two final newlines\n\n",
        " leading space\n",
        "\nleading break\n",
        "trailing space \nx\n",
        "tab\there\n",
        "carriage\r\nreturn\n",
        "bom \u{feff}\n",
        "nel \u{85} ls \u{2028}\n",
        "control \u{7}\n",
        "single line",
        "",
        "a\n\n\nb\n",
    ];

    #[test]
    fn read_list_matches_the_general_parser_or_declines() {
        let item = |i: usize| {
            format!(
                "a{i}: 1\nlit: |\n  one\n\n  two\n    deeper\nseq:\n- - x\n  - y\nq: \"multi\n  line\"\nplain: multi\n  line\nempty: {{}}\n"
            )
        };
        let docs: Vec<Value> = (0..20)
            .map(|i| serde_yaml_ng::from_str(&item(i)).unwrap())
            .collect();
        let text = serde_yaml_ng::to_string(&docs).unwrap();
        assert_eq!(read_list(&text), Some(docs), "{text}");
        let whole = |t: &str| serde_yaml_ng::from_str::<Vec<Value>>(t).ok();
        for text in [
            "- a: &x 1\n- b: *x\n",
            "# comment\n- a: 1\n",
            "- a: 1\n---\n- b: 2\n",
            "-\n  a: 1\n",
            "- a: |\n   x\n \n   y\n",
            "[a, b]\n",
        ] {
            if let Some(ours) = read_list(text) {
                assert_eq!(Some(ours), whole(text), "{text:?}");
            }
        }
        assert_eq!(read_list("- a: &x 1\n- b: *x\n"), None);
        // Shapes whose meaning depends on the list around them.
        for text in [
            "- |2\n    a\n",
            "- |\n  #\n",
            "- !!str >\n  x\n",
            "- a\n  ...\n",
            "- a\n  %x\n",
        ] {
            assert_eq!(read_list(text), None, "{text:?}");
        }
    }

    #[test]
    fn emit_is_byte_identical_to_serde_yaml_or_declines() {
        let mut fast = 0;
        for case in CASES {
            let entries = [
                ("customResourceDefinitions", *case),
                ("packages", "- x: 1\n"),
            ];
            if let Some(ours) = emit(&entries) {
                assert_eq!(ours, general(&entries), "case {case:?}");
                fast += 1;
            }
        }
        assert!(fast >= 4, "the fast path takes the ordinary cases");
    }

    #[test]
    fn read_matches_the_general_parser_or_declines() {
        for case in CASES {
            let text = general(&[("clusterServiceVersions", *case), ("packages", "- y\n")]);
            let expected: Value = serde_yaml_ng::from_str(&text).unwrap();
            if let Some(ours) = read(&text) {
                assert_eq!(ours, expected, "case {case:?}\n{text}");
            }
        }
        // Shapes the writer never produces go to the general parser.
        for text in [
            "data:\n  packages: |\n      deeper\n",
            "data:\n  packages: |2\n    x\n",
            "data:\n  packages: |\n    x\n  packages: |\n    y\n",
            "data:\n  packages: |\n    x\n# comment\n",
            "data:\n  packages: 'x'\n",
            "---\ndata:\n  packages: |\n    x\n",
            "data:\n  packages: |\n    x\n\n",
            "data:\n  true: |\n    x\n",
        ] {
            assert_eq!(read(text), None, "{text:?}");
        }
    }
}
