//! A bundle's manifests read as operator-registry reads them: through Kubernetes' YAML decoder
//! (`sigs.k8s.io/yaml`, over go-yaml v2's non-strict `Unmarshal`), where a key repeated in a
//! mapping is no error and the last one wins (go-yaml v2 refuses it only in `UnmarshalStrict`:
//! <https://github.com/go-yaml/yaml/issues/284>). `opm render` accepts such a bundle, so its
//! entry is built from it the same way; everything else is read as YAML is.

use serde::de::{
    Deserialize, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};
use serde_yaml_ng::value::{Tag, TaggedValue};
use serde_yaml_ng::{Mapping, Value};

/// A YAML value whose mappings keep the last of repeated keys.
pub(crate) struct LastWins(pub(crate) Value);

impl<'de> Deserialize<'de> for LastWins {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Read).map(LastWins)
    }
}

struct Read;

impl<'de> Visitor<'de> for Read {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Number(i.into()))
    }
    fn visit_u64<E>(self, u: u64) -> Result<Value, E> {
        Ok(Value::Number(u.into()))
    }
    fn visit_f64<E>(self, f: f64) -> Result<Value, E> {
        Ok(Value::Number(f.into()))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        LastWins::deserialize(d).map(|v| v.0)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(LastWins(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Sequence(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Mapping::new();
        while let Some((LastWins(k), LastWins(v))) = map.next_entry()? {
            out.insert(k, v); // a repeated key: the later value
        }
        Ok(Value::Mapping(out))
    }
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        let (tag, variant): (String, _) = data.variant()?;
        let LastWins(value) = variant.newtype_variant()?;
        Ok(Value::Tagged(Box::new(TaggedValue {
            tag: Tag::new(tag),
            value,
        })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Value {
        LastWins::deserialize(serde_yaml_ng::Deserializer::from_str(text))
            .unwrap()
            .0
    }

    #[test]
    fn a_repeated_key_keeps_the_last_value_and_the_rest_reads_as_yaml_does() {
        let text = "spec:\n  subresources: {status: {}}\n  scope: Namespaced\n  subresources: {scale: {}}\nn: [1, -2, 0.5, true, null, x]\nt: !custom {a: 1}\n";
        let v = read(text);
        assert_eq!(v["spec"]["subresources"], read("{scale: {}}"));
        assert_eq!(v["spec"]["scope"], Value::from("Namespaced"));
        let plain = "n: [1, -2, 0.5, true, null, x]\nt: !custom {a: 1}\n";
        let want: Value = serde_yaml_ng::from_str(plain).unwrap();
        assert_eq!(v["n"], want["n"]);
        assert_eq!(v["t"], want["t"]);
        assert!(
            serde_yaml_ng::from_str::<Value>(text).is_err(),
            "strict YAML refuses it"
        );
    }
}
