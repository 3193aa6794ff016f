//! `index.json`, read and rewritten in memory bounded by the file: the file is parsed as a
//! stream, entries are kept as borrowed raw JSON (no value tree), and a look-up keeps only the
//! entry it wants. A 64 MiB index of 300,000 manifests costs its bytes and, to rewrite it, one
//! pointer per entry (and a tag per entry when another tool left it unsorted), written to the
//! file as it is produced, where a parsed tree cost 16 times its size.
//!
//! The rewritten index is written as before: keys sorted (`manifests`, `mediaType`,
//! `schemaVersion`), compact, entries sorted by tag, existing entries byte for byte.

use std::borrow::Cow;
use std::fmt;
use std::io::Write;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

/// The fields of an index entry a look-up reads.
#[derive(Deserialize)]
struct EntryView<'a> {
    #[serde(borrow, default)]
    digest: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    annotations: Option<Annotations<'a>>,
}

#[derive(Deserialize)]
struct Annotations<'a> {
    #[serde(borrow, rename = "org.opencontainers.image.ref.name", default)]
    ref_name: Option<Cow<'a, str>>,
}

/// The tag an entry names, if any (an entry that is not an object names none).
pub(crate) fn tag_of(raw: &RawValue) -> Option<Cow<'_, str>> {
    let view: EntryView = serde_json::from_str(raw.get()).ok()?;
    view.annotations?.ref_name
}

/// What to do with each entry of `manifests`.
trait OnEntry<'de> {
    fn entry(&mut self, raw: &'de RawValue);
}

/// Visits the top-level object, handing each `manifests` entry to `on`; `Ok(false)` when the
/// object has no `manifests` list.
struct Top<'o, O>(&'o mut O);

impl<'de, O: OnEntry<'de>> Visitor<'de> for Top<'_, O> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an OCI image index object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let mut found = false;
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            if key == "manifests" && !found {
                found = map.next_value_seed(Entries(&mut *self.0))?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

/// The `manifests` value: a list (`true`) or anything else (`false`).
struct Entries<'o, O>(&'o mut O);

impl<'de, O: OnEntry<'de>> DeserializeSeed<'de> for Entries<'_, O> {
    type Value = bool;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, O: OnEntry<'de>> Visitor<'de> for Entries<'_, O> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of manifests")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        while let Some(raw) = seq.next_element::<&'de RawValue>()? {
            self.0.entry(raw);
        }
        Ok(true)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(false)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
        Ok(false)
    }
}

/// Streams `bytes` as an index; `Err` names what is wrong.
fn scan<'de, O: OnEntry<'de>>(bytes: &'de [u8], on: &mut O) -> Result<(), String> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let found = de::Deserializer::deserialize_map(&mut de, Top(on))
        .map_err(|e| format!("not JSON: {e}"))?;
    de.end().map_err(|e| format!("not JSON: {e}"))?;
    if found {
        Ok(())
    } else {
        Err("no \"manifests\" list; not an OCI image index".into())
    }
}

struct Find<'t> {
    tag: &'t str,
    digest: Option<String>,
}

impl<'de> OnEntry<'de> for Find<'_> {
    fn entry(&mut self, raw: &'de RawValue) {
        if self.digest.is_some() {
            return;
        }
        let Ok(view) = serde_json::from_str::<EntryView>(raw.get()) else {
            return;
        };
        let named = view.annotations.and_then(|a| a.ref_name);
        if named.as_deref() == Some(self.tag) {
            self.digest = view.digest.map(Cow::into_owned);
        }
    }
}

/// The manifest digest the index tags `tag` (the first such entry).
pub(crate) fn find(bytes: &[u8], tag: &str) -> Result<Option<String>, String> {
    let mut f = Find { tag, digest: None };
    scan(bytes, &mut f)?;
    Ok(f.digest)
}

struct Collect<'de>(Vec<&'de RawValue>);

impl<'de> OnEntry<'de> for Collect<'de> {
    fn entry(&mut self, raw: &'de RawValue) {
        self.0.push(raw);
    }
}

/// The entries of the index, as raw JSON.
pub(crate) fn entries(bytes: &[u8]) -> Result<Vec<&RawValue>, String> {
    let mut c = Collect(Vec::new());
    scan(bytes, &mut c)?;
    Ok(c.0)
}

/// Writes the index holding `kept` and `new` (tagged `tag`), entries sorted by tag (untagged
/// first), as `{"manifests":[…],"mediaType":…,"schemaVersion":2}`.
pub(crate) fn write(
    out: &mut (impl Write + ?Sized),
    kept: Vec<&RawValue>,
    tag: &str,
    new: &RawValue,
    media_type: &str,
) -> std::io::Result<()> {
    let sorted = kept.windows(2).all(|w| tag_of(w[0]) <= tag_of(w[1]));
    out.write_all(b"{\"manifests\":[")?;
    if sorted {
        let at = kept.partition_point(|r| tag_of(r).as_deref() <= Some(tag));
        let all = kept[..at]
            .iter()
            .copied()
            .chain([new])
            .chain(kept[at..].iter().copied());
        entries_to(out, all)?;
    } else {
        // An index other tools appended to: sorted by tag here, each tag read once (the
        // pointers are consumed into the keyed list, never held twice).
        let mut keyed: Vec<(Option<Cow<str>>, &RawValue)> = Vec::with_capacity(kept.len() + 1);
        keyed.extend(kept.into_iter().map(|r| (tag_of(r), r)));
        keyed.push((Some(Cow::Borrowed(tag)), new));
        // Equal tags keep their order in the file (the entries point into it), as a stable
        // sort would, without a stable sort's scratch copy of the list.
        keyed.sort_unstable_by(|a, b| (&a.0, a.1.get().as_ptr()).cmp(&(&b.0, b.1.get().as_ptr())));
        entries_to(out, keyed.iter().map(|(_, r)| *r))?;
    }
    let tail = serde_json::json!({"mediaType": media_type, "schemaVersion": 2}).to_string();
    out.write_all(b"],")?;
    out.write_all(&tail.as_bytes()[1..])
}

/// Writes `entries` separated by commas.
fn entries_to<'r>(
    out: &mut (impl Write + ?Sized),
    entries: impl Iterator<Item = &'r RawValue>,
) -> std::io::Result<()> {
    for (i, raw) in entries.enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        out.write_all(raw.get().as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::REF_NAME;
    use super::*;

    #[test]
    fn finds_a_tag_and_rewrites_sorted() {
        let index = br#"{"schemaVersion":2,"manifests":[{"digest":"sha256:a","annotations":{"org.opencontainers.image.ref.name":"1"}},{"digest":"sha256:c","annotations":{"org.opencontainers.image.ref.name":"3"}}],"x":[1]}"#;
        assert_eq!(find(index, "3").unwrap().as_deref(), Some("sha256:c"));
        assert_eq!(find(index, "2").unwrap(), None);
        let kept = entries(index).unwrap();
        let new = RawValue::from_string(
            r#"{"annotations":{"org.opencontainers.image.ref.name":"2"},"digest":"sha256:b"}"#
                .into(),
        )
        .unwrap();
        let mut out = Vec::new();
        write(&mut out, kept, "2", &new, "m").unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let tags: Vec<&str> = v["manifests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["annotations"][REF_NAME].as_str().unwrap())
            .collect();
        assert_eq!(tags, ["1", "2", "3"]);
        assert!(out.ends_with(br#"],"mediaType":"m","schemaVersion":2}"#));
        assert!(
            find(br#"{"manifests":{}}"#, "1")
                .unwrap_err()
                .contains("no \"manifests\" list")
        );
        assert!(find(b"[1]", "1").unwrap_err().starts_with("not JSON"));
    }
}
