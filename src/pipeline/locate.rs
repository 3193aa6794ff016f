//! Where a key is written in the pipeline file, so that a problem found after parsing (a bad
//! option value, a missing section, an unset variable in a variant) still names `FILE:LINE`.
//!
//! serde keeps no positions for values, so this reads the text itself: block mappings by
//! indentation, block sequences by item (a path's number is an item's index), and flow
//! mappings and sequences (`options: { a: "1" }`, `[a, b]`) on their line. It only ever narrows
//! a message down; when a key cannot be found, the nearest ancestor's line is given.

/// The 1-based line of the key at `path` (e.g. `["release", "options", "retries"]`), or of the
/// deepest ancestor that was found; `None` when not even the first key is in the text.
pub(crate) fn line_of(text: &str, path: &[&str]) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found: Option<(usize, usize)> = None;
    for key in path {
        let next = match (found, key.parse::<usize>()) {
            (None, _) => find_block(&lines, 0, None, key),
            (Some((at, indent)), Ok(n)) => find_item(&lines, at, indent, n),
            (Some((at, indent)), Err(_)) => {
                if flow_holds(lines[at], key) || item_holds(lines[at], key) {
                    Some((at, indent))
                } else {
                    find_block(&lines, at + 1, Some(indent), key)
                }
            }
        };
        match next {
            Some(n) => found = Some(n),
            None => break,
        }
    }
    found.map(|(at, _)| at + 1)
}

/// The first line from `from` on, inside the block of a parent at `parent` indentation, that
/// holds `key:` as a mapping key.
fn find_block(
    lines: &[&str],
    from: usize,
    parent: Option<usize>,
    key: &str,
) -> Option<(usize, usize)> {
    for (i, line) in lines.iter().enumerate().skip(from) {
        let content = line.trim_start();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let indent = line.len() - content.len();
        match parent {
            Some(p) if indent <= p => return None,
            None if indent > 0 => continue,
            _ => {}
        }
        let content = content.strip_prefix("- ").unwrap_or(content).trim_start();
        if is_key(content, key) {
            return Some((i, indent));
        }
    }
    None
}

/// The `n`th item (from 0) of the block sequence under the key on line `at` (indented
/// `indent`), as the line of its `- ` and that indentation; a flow sequence (`[a, b]`) is the
/// key's own line. YAML lets a mapping's sequence start at the key's own indentation.
fn find_item(lines: &[&str], at: usize, indent: usize, n: usize) -> Option<(usize, usize)> {
    if lines[at].contains('[') {
        return Some((at, indent));
    }
    let mut seen = 0;
    let mut items_at: Option<usize> = None;
    for (i, line) in lines.iter().enumerate().skip(at + 1) {
        let content = line.trim_start();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let here = line.len() - content.len();
        let item = content.starts_with("- ") || content == "-";
        if here < indent || (here == indent && !item) {
            return None;
        }
        if !item || *items_at.get_or_insert(here) != here {
            continue;
        }
        if seen == n {
            return Some((i, here));
        }
        seen += 1;
    }
    None
}

/// Whether `line` is a sequence item whose mapping starts with `key:` (`- rule: x`).
fn item_holds(line: &str, key: &str) -> bool {
    line.trim_start()
        .strip_prefix("- ")
        .is_some_and(|rest| is_key(rest.trim_start(), key))
}

/// Whether `line` holds a flow mapping with `key:` after its first `{`.
fn flow_holds(line: &str, key: &str) -> bool {
    let Some(open) = line.find('{') else {
        return false;
    };
    line[open + 1..]
        .split(',')
        .any(|part| is_key(part.trim_start().trim_start_matches('{').trim_start(), key))
}

fn is_key(content: &str, key: &str) -> bool {
    let unquoted = content
        .strip_prefix('"')
        .and_then(|c| c.strip_prefix(key))
        .and_then(|c| c.strip_prefix('"'))
        .or_else(|| content.strip_prefix(key));
    unquoted.is_some_and(|rest| rest.starts_with(':'))
}

#[cfg(test)]
mod tests {
    use super::line_of;

    const TEXT: &str = "\
name: t
# a comment
registry:
  url: dir:x
  namespace: ns
release:
  target: github:a/b
  assets:
    - file: LICENSE
  options: { concurrency: \"3\", retires: \"2\" }
stages: [release]
";

    #[test]
    fn finds_block_and_flow_keys() {
        assert_eq!(line_of(TEXT, &["registry", "namespace"]), Some(5));
        assert_eq!(line_of(TEXT, &["release", "options", "retires"]), Some(10));
        assert_eq!(line_of(TEXT, &["release", "assets"]), Some(8));
        assert_eq!(line_of(TEXT, &["stages"]), Some(11));
        // Not written: the nearest ancestor.
        assert_eq!(line_of(TEXT, &["release", "tag"]), Some(6));
        assert_eq!(line_of(TEXT, &["render", "templates"]), None);
        // `namespace` under registry, not a later key of the same name elsewhere.
        let two = "a:\n  x: 1\nb:\n  x: 2\n";
        assert_eq!(line_of(two, &["b", "x"]), Some(4));
    }

    #[test]
    fn finds_sequence_items_and_their_keys() {
        let text = "\
verify:
  provided: [ConfigMap/a, Secret/b]
  accept:
    - rule: r1
      because: one
    # a comment between items
    - rule: r2
      object: o
      because: two
other:
  list:
  - rule: same-indent
    because: three
";
        assert_eq!(line_of(text, &["verify", "accept", "0", "rule"]), Some(4));
        assert_eq!(
            line_of(text, &["verify", "accept", "0", "because"]),
            Some(5)
        );
        assert_eq!(
            line_of(text, &["verify", "accept", "1", "because"]),
            Some(9)
        );
        assert_eq!(line_of(text, &["verify", "accept", "1", "rule"]), Some(7));
        // Past the last item: the sequence's key.
        assert_eq!(line_of(text, &["verify", "accept", "2", "rule"]), Some(3));
        // A flow sequence: the key's line.
        assert_eq!(line_of(text, &["verify", "provided", "1"]), Some(2));
        // Items at the key's own indentation.
        assert_eq!(line_of(text, &["other", "list", "0", "because"]), Some(13));
        assert_eq!(line_of(TEXT, &["release", "assets", "0", "file"]), Some(9));
    }
}
