//! A catalog file as text: its documents located byte by byte, so one document can be replaced
//! or another inserted while every other byte (license headers, comments between documents, the
//! other documents themselves) stays as it was.
//!
//! YAML files are cut at their `---` lines: what comes before the first one is the file's
//! prefix (a license header, comments) unless it holds a document of its own; each document
//! runs to the next `---`. JSON files (concatenated values, as `opm render -o json` writes
//! them) are cut after each value. A document's *body* is its text without the `---` line and
//! without the comment and blank lines around it; that is what a replacement replaces. The cut
//! is checked against the loader's reading ([`super::super::load`]): the same documents with the
//! same values, else the file is not edited in place.
//!
//! A document is written in the file's style: YAML by [`olm_release_base::yaml`], JSON indented
//! as the file's first indented line is (`opm render -o json` indents by four spaces), with its
//! keys in the order of the document it replaces or sits beside ([`ordered_like`]).

use serde::{Deserialize, Serialize};
use serde_yaml_ng::{Mapping, Value};

/// One document of a file.
#[derive(Debug, Clone)]
pub(crate) struct Doc {
    /// Where its text starts (its `---` line, or leading whitespace in JSON).
    pub start: usize,
    /// Where its body starts and ends.
    pub body: (usize, usize),
    /// Where its text ends (the next document's start, or the end of the file).
    pub end: usize,
    /// Its value (`Null` for an empty YAML document).
    pub value: Value,
}

/// A catalog file cut into documents.
#[derive(Debug, Clone)]
pub(crate) struct FileText {
    pub text: String,
    pub json: bool,
    /// The text before the first document (YAML: comments and blank lines).
    pub prefix: usize,
    pub docs: Vec<Doc>,
}

fn is_marker(line: &str) -> bool {
    let l = line.trim_end_matches(['\n', '\r']);
    l == "---" || l.starts_with("--- ") || l.starts_with("---\t")
}

fn is_filler(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// The lines of `text` with their byte offsets.
fn lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        out.push((at, line));
        at += line.len();
    }
    out
}

/// The body of the lines `[from, to)`: from the first to the last line that is not filler.
fn body(lines: &[(usize, &str)], from: usize, to: usize, end: usize) -> (usize, usize) {
    let content: Vec<&(usize, &str)> = lines[from..to]
        .iter()
        .filter(|(_, l)| !is_filler(l))
        .collect();
    match (content.first(), content.last()) {
        (Some((s, _)), Some((e, l))) => (*s, e + l.len()),
        _ => {
            let at = lines.get(from).map_or(end, |(s, _)| *s);
            (at, at)
        }
    }
}

impl FileText {
    /// `text` (the file `rel`) cut into documents; `None` when the cut does not give what the
    /// loader reads.
    pub(crate) fn cut(rel: &str, text: String) -> Option<FileText> {
        if rel.ends_with(".json") {
            return Self::cut_json(text);
        }
        let ls = lines(&text);
        let markers: Vec<usize> = (0..ls.len()).filter(|&i| is_marker(ls[i].1)).collect();
        let mut spans = Vec::new(); // (first line, first body line, end line)
        let first = markers.first().copied().unwrap_or(ls.len());
        let prefix_is_doc = ls[..first].iter().any(|(_, l)| !is_filler(l));
        if prefix_is_doc {
            spans.push((0, 0, first));
        }
        for (k, &m) in markers.iter().enumerate() {
            let next = markers.get(k + 1).copied().unwrap_or(ls.len());
            spans.push((m, m + 1, next));
        }
        let offset = |i: usize| ls.get(i).map_or(text.len(), |(s, _)| *s);
        let mut docs = Vec::new();
        for (s, b, e) in spans {
            let (start, end) = (offset(s), offset(e));
            let value: Value = serde_yaml_ng::from_str(&text[start..end]).ok()?;
            docs.push(Doc {
                start,
                body: body(&ls, b, e, end),
                end,
                value,
            });
        }
        // The loader's reading: the same documents, in the same order.
        let read: Vec<Value> = serde_yaml_ng::Deserializer::from_str(&text)
            .map(Value::deserialize)
            .collect::<Result<_, _>>()
            .ok()?;
        let same = read.len() == docs.len() && read.iter().zip(&docs).all(|(r, d)| *r == d.value);
        let prefix = if prefix_is_doc { 0 } else { offset(first) };
        drop(ls);
        same.then_some(FileText {
            prefix,
            text,
            json: false,
            docs,
        })
    }

    fn cut_json(text: String) -> Option<FileText> {
        let mut docs = Vec::new();
        let mut stream = serde_json::Deserializer::from_str(&text).into_iter::<Value>();
        let mut at = 0;
        while let Some(value) = stream.next() {
            let value = value.ok()?;
            let end = stream.byte_offset();
            let lead = text[at..end].len() - text[at..end].trim_start().len();
            docs.push(Doc {
                start: at,
                body: (at + lead, end),
                end,
                value,
            });
            at = end;
        }
        if let Some(last) = docs.last_mut() {
            last.end = text.len();
        }
        Some(FileText {
            prefix: 0,
            text,
            json: true,
            docs,
        })
    }

    /// The JSON indentation of the file: the leading spaces of its first indented line (four,
    /// as opm writes, when none is).
    fn indent(&self) -> usize {
        self.text
            .lines()
            .map(|l| l.len() - l.trim_start_matches(' ').len())
            .find(|&n| n > 0)
            .unwrap_or(4)
    }

    /// `value` as a document body in the file's style (YAML ends with a newline, JSON does not).
    pub(crate) fn render(&self, value: &Value) -> String {
        if !self.json {
            return olm_release_base::yaml::to_string(value);
        }
        let indent = " ".repeat(self.indent());
        let mut out = Vec::new();
        let fmt = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
        let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
        // A catalog value always serialises (its keys are strings or scalars).
        let _ = value.serialize(&mut ser);
        String::from_utf8(out).unwrap_or_default()
    }

    /// A new document's text, to insert after a document (YAML: `---` and the body).
    pub(crate) fn new_doc(&self, value: &Value) -> String {
        if self.json {
            format!("\n{}", self.render(value))
        } else {
            format!("---\n{}", self.render(value))
        }
    }
}

/// The text of the YAML document `doc` of `file` with `new`'s entries appended to its
/// top-level `entries:` list, indented as its items are, when `new` is `doc` with entries added
/// at the end of that list and nothing else changed (a channel gaining a release): the channel
/// file's own style (indented lists, comments between entries) stays. `None` otherwise.
pub(crate) fn append_entries(file: &FileText, doc: &Doc, new: &Value) -> Option<(usize, String)> {
    let (old, new_map) = (doc.value.as_mapping()?, new.as_mapping()?);
    let key = Value::from("entries");
    let (was, now) = (
        old.get(&key)?.as_sequence()?,
        new_map.get(&key)?.as_sequence()?,
    );
    let same_rest = old.len() == new_map.len()
        && old
            .iter()
            .all(|(k, v)| *k == key || new_map.get(k) == Some(v));
    if file.json || !same_rest || now.len() <= was.len() || now[..was.len()] != was[..] {
        return None;
    }
    let body = &file.text[doc.body.0..doc.body.1];
    let ls = lines(body);
    let at = ls.iter().position(|(_, l)| l.trim_end() == "entries:")?;
    // The list runs until the next line at the key's column that is not an item.
    let end = ls[at + 1..]
        .iter()
        .position(|(_, l)| !l.starts_with([' ', '-', '#', '\n', '\r']) || l.starts_with("---"))
        .map_or(ls.len(), |i| at + 1 + i);
    let last = (at + 1..end).rev().find(|&i| !is_filler(ls[i].1))?;
    let first = (at + 1..end).find(|&i| !is_filler(ls[i].1))?;
    let indent = ls[first].1.len() - ls[first].1.trim_start_matches(' ').len();
    let items: Vec<&Value> = now[was.len()..].iter().collect();
    let pad = " ".repeat(indent);
    let text: String = olm_release_base::yaml::sequence_to_string(&items)
        .lines()
        .map(|l| format!("{pad}{l}\n"))
        .collect();
    let insert = doc.body.0 + ls[last].0 + ls[last].1.len();
    let mut spliced = file.text[doc.start..doc.end].to_string();
    spliced.insert_str(insert - doc.start, &text);
    let read: Value = serde_yaml_ng::from_str(&spliced).ok()?;
    (read == *new).then_some((insert, text))
}

/// `new` with its mapping keys in the order `like` has them (keys `like` lacks after, in
/// `new`'s order), all the way down; a list's items follow the item of `like` with the same
/// `name` (or `type`), else its last item.
pub(crate) fn ordered_like(new: Value, like: &Value) -> Value {
    match (new, like) {
        (Value::Mapping(n), Value::Mapping(l)) => {
            let mut n = n;
            let mut out = Mapping::new();
            for (k, lv) in l {
                if let Some(v) = n.remove(k) {
                    out.insert(k.clone(), ordered_like(v, lv));
                }
            }
            for (k, v) in n {
                out.insert(k, v);
            }
            Value::Mapping(out)
        }
        (Value::Sequence(n), Value::Sequence(l)) if !l.is_empty() => Value::Sequence(
            n.into_iter()
                .map(|item| {
                    let key = |v: &Value| {
                        v.get("name")
                            .or_else(|| v.get("type"))
                            .cloned()
                            .filter(|_| v.is_mapping())
                    };
                    let mine = key(&item);
                    let twin = l
                        .iter()
                        .find(|x| mine.is_some() && key(x) == mine)
                        .or_else(|| l.last());
                    match twin {
                        Some(t) => ordered_like(item, t),
                        None => item,
                    }
                })
                .collect(),
        ),
        (new, _) => new,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_is_the_prefix_and_each_document_a_body() {
        let text = "# Copyright\n# License\n---\nschema: olm.package\nname: a\n# about the channel\n---\nschema: olm.channel\n";
        let f = FileText::cut("c.yaml", text.into()).unwrap();
        assert_eq!(&f.text[..f.prefix], "# Copyright\n# License\n");
        assert_eq!(f.docs.len(), 2);
        let (s, e) = f.docs[0].body;
        assert_eq!(&f.text[s..e], "schema: olm.package\nname: a\n");
        assert_eq!(f.docs[1].value["schema"], Value::from("olm.channel"));
    }

    #[test]
    fn a_file_without_markers_is_one_document_and_json_is_cut_after_each_value() {
        let f = FileText::cut("b.yaml", "schema: olm.bundle\nname: b\n".into()).unwrap();
        assert_eq!((f.prefix, f.docs.len()), (0, 1));
        let f = FileText::cut("c.json", "{\n    \"a\": 1\n}\n{\n    \"b\": 2\n}\n".into()).unwrap();
        assert_eq!(f.docs.len(), 2);
        let (s, e) = f.docs[1].body;
        assert_eq!(&f.text[s..e], "{\n    \"b\": 2\n}");
        assert_eq!(f.render(&f.docs[0].value), "{\n    \"a\": 1\n}");
    }

    #[test]
    fn entries_appended_keep_the_lists_indentation_and_comments() {
        let text = "---\nentries:\n  # the first\n  - name: a\n  - name: b\n    replaces: a\nname: stable\nschema: olm.channel\n";
        let f = FileText::cut("c.yaml", text.into()).unwrap();
        let mut new = f.docs[0].value.clone();
        let added: Value = serde_yaml_ng::from_str("{name: c, replaces: b}").unwrap();
        new["entries"].as_sequence_mut().unwrap().push(added);
        let (at, insert) = append_entries(&f, &f.docs[0], &new).unwrap();
        let mut out = f.text.clone();
        out.insert_str(at, &insert);
        assert_eq!(
            out,
            text.replace("a\nname:", "a\n  - name: c\n    replaces: b\nname:")
        );
        let mut other = new.clone();
        other["name"] = Value::from("fast");
        assert!(
            append_entries(&f, &f.docs[0], &other).is_none(),
            "more than entries changed"
        );
    }

    #[test]
    fn keys_follow_the_document_they_sit_beside() {
        let like: Value =
            serde_yaml_ng::from_str("entries: [{name: a, replaces: z}]\nname: c\nschema: s\n")
                .unwrap();
        let new: Value = serde_yaml_ng::from_str(
            "schema: s\nname: c\nentries: [{replaces: a, name: b}]\nextra: 1\n",
        )
        .unwrap();
        let text = olm_release_base::yaml::to_string(&ordered_like(new, &like));
        assert_eq!(
            text,
            "entries:\n- name: b\n  replaces: a\nname: c\nschema: s\nextra: 1\n"
        );
    }
}
