//! A changed document whose only changes are top-level strings — the package's `defaultChannel`
//! when a release makes another channel the default — edited line by line: each changed value
//! is replaced on the one line that holds its key, so every other line of the document (a long
//! `description`, the icon's data, comments) keeps its bytes. Anything else (a value over
//! several lines, a quoted key, a comment after the value, a changed list) is left to the
//! caller, which writes the document again whole.

use serde_yaml_ng::Value;

use super::text::{Doc, FileText};

/// One replacement in the file's text: `[start, end)` becomes `text`.
pub(super) struct LineEdit {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// The lines that turn `doc` (as `file` holds it) into `new`, when `new` differs from it only
/// in top-level string values written each on one line; `None` otherwise. The edited text is
/// read back and must be `new`.
pub(super) fn replace_scalars(file: &FileText, doc: &Doc, new: &Value) -> Option<Vec<LineEdit>> {
    let (old, now) = (doc.value.as_mapping()?, new.as_mapping()?);
    if old.len() != now.len() || !old.keys().all(|k| now.contains_key(k)) {
        return None;
    }
    let mut changed = Vec::new();
    for (k, was) in old {
        let is = now.get(k)?;
        if was != is {
            let (key, _, value) = (k.as_str()?, was.as_str()?, is.as_str()?);
            changed.push((key, value));
        }
    }
    if changed.is_empty() {
        return None;
    }
    let body = &file.text[doc.body.0..doc.body.1];
    let lines: Vec<(usize, &str)> = body
        .split_inclusive('\n')
        .scan(0, |at, l| {
            let start = *at;
            *at += l.len();
            Some((start, l))
        })
        .collect();
    let mut edits = Vec::new();
    for (key, value) in changed {
        let (i, text) = if file.json {
            json_line(&lines, key, value)?
        } else {
            yaml_line(&lines, key, value)?
        };
        let (at, line) = lines[i];
        let ending = &line[line.trim_end_matches(['\n', '\r']).len()..];
        edits.push(LineEdit {
            start: doc.body.0 + at,
            end: doc.body.0 + at + line.len(),
            text: format!("{text}{ending}"),
        });
    }
    // Read back: the document with the lines replaced is `new`.
    let mut spliced = body.to_string();
    let mut sorted: Vec<&LineEdit> = edits.iter().collect();
    sorted.sort_by_key(|e| e.start);
    for e in sorted.iter().rev() {
        spliced.replace_range(e.start - doc.body.0..e.end - doc.body.0, &e.text);
    }
    let read: Value = serde_yaml_ng::from_str(&spliced).ok()?;
    (read == *new).then_some(edits)
}

/// The one YAML line `key: …` at the document's top level, and its new text; its value must
/// end on that line (the next line starts a key, a comment, or nothing) with no comment after it.
fn yaml_line(lines: &[(usize, &str)], key: &str, value: &str) -> Option<(usize, String)> {
    let prefix = format!("{key}:");
    let found: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].1.starts_with(&prefix))
        .collect();
    let [i] = found[..] else { return None };
    let rest = lines[i].1[prefix.len()..].trim();
    if rest.is_empty() || rest.contains(" #") || rest.starts_with(['|', '>', '&', '*', '!']) {
        return None;
    }
    if let Some((_, next)) = lines.get(i + 1)
        && next.starts_with([' ', '\t'])
    {
        return None;
    }
    let mut one = serde_yaml_ng::Mapping::new();
    one.insert(Value::from(key), Value::from(value));
    let text = olm_release_base::yaml::to_string(&Value::Mapping(one));
    let text = text.strip_suffix('\n').unwrap_or(&text);
    (!text.contains('\n')).then(|| (i, text.to_string()))
}

/// The one JSON line `"key": "…"` at the value's top level (indented as the value's first
/// member is), and its new text, keeping the comma after it.
fn json_line(lines: &[(usize, &str)], key: &str, value: &str) -> Option<(usize, String)> {
    let indent_of = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let top = lines.get(1).map(|(_, l)| indent_of(l))?;
    let member = format!("\"{key}\":");
    let found: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            let l = lines[i].1;
            indent_of(l) == top && l.trim_start().starts_with(&member)
        })
        .collect();
    let [i] = found[..] else { return None };
    let line = lines[i].1.trim_end_matches(['\n', '\r']);
    let comma = if line.ends_with(',') { "," } else { "" };
    let quoted = serde_json::to_string(value).ok()?;
    Some((i, format!("{}{member} {quoted}{comma}", " ".repeat(top))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(file: &FileText, edits: Vec<LineEdit>) -> String {
        let mut out = file.text.clone();
        for e in edits.into_iter().rev() {
            out.replace_range(e.start..e.end, &e.text);
        }
        out
    }

    #[test]
    fn a_yaml_default_channel_changes_on_its_line_alone() {
        let text = "---\ndefaultChannel: stable\ndescription: |\n  A long text\n  # not a comment\nicon:\n  base64data: AAAA\n  mediatype: image/png\nname: widget\nschema: olm.package\n";
        let f = FileText::cut("p.yaml", text.into()).unwrap();
        let mut new = f.docs[0].value.clone();
        new["defaultChannel"] = Value::from("fast");
        let edits = replace_scalars(&f, &f.docs[0], &new).unwrap();
        assert_eq!(apply(&f, edits), text.replace("stable", "fast"));
    }

    #[test]
    fn a_json_member_keeps_its_comma_and_indentation() {
        let text = "{\n    \"schema\": \"olm.package\",\n    \"name\": \"widget\",\n    \"defaultChannel\": \"stable\",\n    \"icon\": {\n        \"base64data\": \"AAAA\"\n    }\n}\n";
        let f = FileText::cut("c.json", text.into()).unwrap();
        let mut new = f.docs[0].value.clone();
        new["defaultChannel"] = Value::from("fast");
        let edits = replace_scalars(&f, &f.docs[0], &new).unwrap();
        assert_eq!(apply(&f, edits), text.replace("stable", "fast"));
    }

    #[test]
    fn what_is_not_one_line_strings_is_left_to_the_caller() {
        let f = FileText::cut(
            "p.yaml",
            "defaultChannel: stable # the default\nname: widget\nschema: olm.package\n".into(),
        )
        .unwrap();
        let mut new = f.docs[0].value.clone();
        new["defaultChannel"] = Value::from("fast");
        assert!(replace_scalars(&f, &f.docs[0], &new).is_none(), "a comment");
        let f = FileText::cut(
            "p.yaml",
            "defaultChannel:\n  stable\nname: widget\nschema: olm.package\n".into(),
        )
        .unwrap();
        assert!(replace_scalars(&f, &f.docs[0], &new).is_none(), "two lines");
        let mut listed = f.docs[0].value.clone();
        listed["name"] = Value::Sequence(vec![]);
        assert!(
            replace_scalars(&f, &f.docs[0], &listed).is_none(),
            "not a string"
        );
        let mut added = f.docs[0].value.clone();
        added["description"] = Value::from("new");
        assert!(
            replace_scalars(&f, &f.docs[0], &added).is_none(),
            "a new key"
        );
    }
}
