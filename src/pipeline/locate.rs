//! Where a key is written in the pipeline file, so that a problem found after parsing (a bad
//! option value, a missing section, an unset variable in a variant) still names `FILE:LINE`.
//!
//! serde keeps no positions for values, so this reads the text itself: block mappings by
//! indentation, and flow mappings (`options: { a: "1" }`) on their line. It only ever narrows
//! a message down; when a key cannot be found, the nearest ancestor's line is given.

/// The 1-based line of the key at `path` (e.g. `["release", "options", "retries"]`), or of the
/// deepest ancestor that was found; `None` when not even the first key is in the text.
pub(crate) fn line_of(text: &str, path: &[&str]) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found: Option<(usize, usize)> = None;
    for key in path {
        let next = match found {
            None => find_block(&lines, 0, None, key),
            Some((at, indent)) => {
                if flow_holds(lines[at], key) {
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
}
