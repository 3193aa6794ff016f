//! Template values: the handful of Go types a template meets, with Go's names, truth and kinds.
//!
//! Data read from YAML becomes what Go's YAML readers give an `interface{}`: integers are `int`,
//! decimals `float64`, lists `[]interface {}` and maps `map[string]interface {}` (their keys
//! sorted, as Go ranges over and prints maps). Two kinds are this engine's own: [`Value::Block`]
//! (structured YAML printed at the column of its action) and [`Value::Files`] (a folder of
//! includes).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_yaml_ng::Value as Yaml;

/// A template value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Go's untyped `nil` (a missing value prints `<no value>`, as in Go).
    Nil,
    /// Go `bool`.
    Bool(bool),
    /// Go `int`.
    Int(i64),
    /// Go `uint8`: what `index` returns for a byte of a string.
    Uint8(u8),
    /// Go `float64`.
    Float(f64),
    /// Go `string`.
    Str(String),
    /// Go `[]interface {}`.
    List(Vec<Value>),
    /// Go `map[string]interface {}`.
    Map(BTreeMap<String, Value>),
    /// Structured YAML, printed re-indented to where the action stands.
    Block(Yaml),
    /// A folder whose files `index` includes, rendered as templates with the same data.
    Files(PathBuf),
    /// A folder whose files `index` inserts as they are: manifests that are not templates,
    /// whose `{{` (a CRD's description quoting a template, say) stay text.
    Texts(PathBuf),
}

/// The basic kinds Go's comparison functions know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Invalid,
    Bool,
    Int,
    Uint,
    Float,
    Str,
    Other,
}

impl Value {
    /// A YAML value as Go's YAML readers hand it to a template.
    pub fn from_yaml(y: &Yaml) -> Value {
        match y {
            Yaml::Null => Value::Nil,
            Yaml::Bool(b) => Value::Bool(*b),
            Yaml::Number(n) => match n.as_i64() {
                Some(i) => Value::Int(i),
                None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            Yaml::String(s) => Value::Str(s.clone()),
            Yaml::Sequence(s) => Value::List(s.iter().map(Value::from_yaml).collect()),
            Yaml::Mapping(m) => Value::Map(
                m.iter()
                    .map(|(k, v)| (yaml_key(k), Value::from_yaml(v)))
                    .collect(),
            ),
            Yaml::Tagged(t) => Value::from_yaml(&t.value),
        }
    }

    /// The value with a block scalar turned into the plain value it holds; collections in a
    /// block stay blocks.
    pub(crate) fn plain(&self) -> Cow<'_, Value> {
        match self {
            Value::Block(y) => match y {
                Yaml::Sequence(_) | Yaml::Mapping(_) => Cow::Borrowed(self),
                Yaml::Tagged(t) => Cow::Owned(Value::Block(t.value.clone()).plain().into_owned()),
                other => Cow::Owned(Value::from_yaml(other)),
            },
            _ => Cow::Borrowed(self),
        }
    }

    /// Go's type name, as `%T` and error messages show it.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Value::Nil => "<nil>",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Uint8(_) => "uint8",
            Value::Float(_) => "float64",
            Value::Str(_) => "string",
            Value::List(_) => "[]interface {}",
            Value::Map(_) => "map[string]interface {}",
            Value::Files(_) | Value::Texts(_) => "includes",
            Value::Block(y) => match y {
                Yaml::Sequence(_) => "[]interface {}",
                Yaml::Mapping(_) => "map[string]interface {}",
                _ => self.plain().type_name(),
            },
        }
    }

    pub(crate) fn kind(&self) -> Kind {
        match &*self.plain() {
            Value::Nil => Kind::Invalid,
            Value::Bool(_) => Kind::Bool,
            Value::Int(_) => Kind::Int,
            Value::Uint8(_) => Kind::Uint,
            Value::Float(_) => Kind::Float,
            Value::Str(_) => Kind::Str,
            _ => Kind::Other,
        }
    }

    /// Go's truth: false, 0, nil and empty strings, lists and maps are false.
    pub(crate) fn truth(&self) -> bool {
        match self {
            Value::Nil => false,
            Value::Bool(b) => *b,
            Value::Int(n) => *n != 0,
            Value::Uint8(n) => *n != 0,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::List(l) => !l.is_empty(),
            Value::Map(m) => !m.is_empty(),
            Value::Files(_) | Value::Texts(_) => true,
            Value::Block(Yaml::Sequence(s)) => !s.is_empty(),
            Value::Block(Yaml::Mapping(m)) => !m.is_empty(),
            Value::Block(_) => self.plain().truth(),
        }
    }

    /// The length of a string (in bytes), list or map, as Go's `len`.
    pub(crate) fn len(&self) -> Option<usize> {
        match &*self.plain() {
            Value::Str(s) => Some(s.len()),
            Value::List(l) => Some(l.len()),
            Value::Map(m) => Some(m.len()),
            Value::Block(Yaml::Sequence(s)) => Some(s.len()),
            Value::Block(Yaml::Mapping(m)) => Some(m.len()),
            _ => None,
        }
    }

    /// The entry `key` of a map (a block mapping's entries stay blocks); `None` if absent or
    /// not a map.
    pub(crate) fn map_get(&self, key: &str) -> Option<Value> {
        match self {
            Value::Map(m) => m.get(key).cloned(),
            Value::Block(Yaml::Mapping(m)) => m.get(key).cloned().map(Value::Block),
            _ => None,
        }
    }

    pub(crate) fn is_map(&self) -> bool {
        matches!(self, Value::Map(_) | Value::Block(Yaml::Mapping(_)))
    }

    pub(crate) fn is_list(&self) -> bool {
        matches!(self, Value::List(_) | Value::Block(Yaml::Sequence(_)))
    }

    /// The elements of a list (a block sequence's items stay blocks).
    pub(crate) fn list_items(&self) -> Option<Vec<Value>> {
        match self {
            Value::List(l) => Some(l.clone()),
            Value::Block(Yaml::Sequence(s)) => Some(s.iter().cloned().map(Value::Block).collect()),
            _ => None,
        }
    }

    /// The entries of a map in key order (a block mapping's values stay blocks).
    pub(crate) fn map_entries(&self) -> Option<Vec<(String, Value)>> {
        match self {
            Value::Map(m) => Some(m.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
            Value::Block(Yaml::Mapping(m)) => {
                let mut e: Vec<(String, Value)> = m
                    .iter()
                    .map(|(k, v)| (yaml_key(k), Value::Block(v.clone())))
                    .collect();
                e.sort_by(|a, b| a.0.cmp(&b.0));
                Some(e)
            }
            _ => None,
        }
    }

    /// A block collection as the plain list or map it holds (other values unchanged).
    pub(crate) fn unblock(&self) -> Value {
        match self {
            Value::Block(y) => Value::from_yaml(y),
            other => other.clone(),
        }
    }
}

fn yaml_key(k: &Yaml) -> String {
    match k {
        Yaml::String(s) => s.clone(),
        other => olm_release_base::yaml::to_string(other)
            .trim_end()
            .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_becomes_go_like_values() {
        let y: Yaml = serde_yaml_ng::from_str("{a: 1, b: 2.5, c: [x, null], d: true}").unwrap();
        let v = Value::from_yaml(&y);
        assert_eq!(v.map_get("a"), Some(Value::Int(1)));
        assert_eq!(v.map_get("b"), Some(Value::Float(2.5)));
        assert_eq!(
            v.map_get("c"),
            Some(Value::List(vec![Value::Str("x".into()), Value::Nil]))
        );
        assert_eq!(v.type_name(), "map[string]interface {}");
        assert!(!Value::Float(0.0).truth() && Value::Str("0".into()).truth());
    }
}
