//! The sprig functions operator templates use, offered when a pipeline says
//! `render.functions: sprig`, with sprig 3.2.3's signatures and behaviour (Helm's `toYaml`
//! and `required`, which are not sprig's own, as Helm defines them):
//! `default empty coalesce ternary quote squote upper lower title trim trimPrefix trimSuffix
//! replace contains hasPrefix hasSuffix split join list dict get hasKey keys indent nindent
//! toYaml toJson b64enc b64dec sha256sum semverCompare required fail`.
//!
//! `keys` returns the keys sorted (sprig's order is Go's random map order).

mod data;
mod semver;

use base64::Engine as _;
use sha2::Digest as _;

use super::execute::state::Exec;
use super::{Value, fmt};
use crate::funcs::signature::{CallError, Func, Ty, f, fv};

type Res = Result<Value, CallError>;

use Ty::{Any, Bool, Int, Map, Str};

/// The string of a `Str`-typed argument (already checked by the executor).
fn s(v: &Value) -> &str {
    match v {
        Value::Str(s) => s,
        _ => "",
    }
}

/// sprig's `empty`: nil, false, 0 and empty strings, lists and maps.
fn empty(v: &Value) -> bool {
    !v.truth()
}

/// sprig's `strval`: a string as it is, anything else as `%v` prints it.
fn strval(v: &Value) -> String {
    match &*v.plain() {
        Value::Str(s) => s.clone(),
        other => fmt::value_text(other),
    }
}

/// Go's `unicode.ToUpper`/`ToLower` per character (one character in, one out).
fn map_chars(s: &str, upper: bool) -> String {
    s.chars()
        .map(|c| {
            let mut m: Vec<char> = if upper {
                c.to_uppercase().collect()
            } else {
                c.to_lowercase().collect()
            };
            if m.len() == 1 { m.remove(0) } else { c }
        })
        .collect()
}

fn title(s: &str) -> String {
    let separator = |c: char| {
        if c.is_ascii() {
            !(c.is_ascii_alphanumeric() || c == '_')
        } else if c.is_alphanumeric() {
            false
        } else {
            c.is_whitespace()
        }
    };
    let mut prev = ' ';
    s.chars()
        .map(|c| {
            let out = if separator(prev) {
                map_chars(&c.to_string(), true).chars().next().unwrap_or(c)
            } else {
                c
            };
            prev = c;
            out
        })
        .collect()
}

fn default(_: &mut Exec<'_>, a: &[Value], _: usize) -> Res {
    Ok(match a.get(1) {
        Some(given) if !empty(given) => given.clone(),
        _ => a[0].clone(),
    })
}

fn quote(_: &mut Exec<'_>, a: &[Value], _: usize) -> Res {
    let parts: Vec<String> = a
        .iter()
        .filter(|v| !matches!(v, Value::Nil))
        .map(|v| fmt::quote(&strval(v)))
        .collect();
    Ok(Value::Str(parts.join(" ")))
}

fn squote(_: &mut Exec<'_>, a: &[Value], _: usize) -> Res {
    let parts: Vec<String> = a
        .iter()
        .filter(|v| !matches!(v, Value::Nil))
        .map(|v| format!("'{}'", fmt::value_text(v)))
        .collect();
    Ok(Value::Str(parts.join(" ")))
}

fn split(_: &mut Exec<'_>, a: &[Value], _: usize) -> Res {
    let (sep, orig) = (s(&a[0]), s(&a[1]));
    let parts: Vec<String> = if sep.is_empty() {
        orig.chars().map(String::from).collect()
    } else {
        orig.split(sep).map(String::from).collect()
    };
    Ok(Value::Map(
        parts
            .into_iter()
            .enumerate()
            .map(|(i, p)| (format!("_{i}"), Value::Str(p)))
            .collect(),
    ))
}

fn join(_: &mut Exec<'_>, a: &[Value], _: usize) -> Res {
    let items: Vec<String> = match &a[1] {
        Value::Nil => Vec::new(),
        v if v.is_list() => v
            .list_items()
            .unwrap_or_default()
            .iter()
            .filter(|i| !matches!(&*i.plain(), Value::Nil))
            .map(strval)
            .collect(),
        other => vec![strval(other)],
    };
    Ok(Value::Str(items.join(s(&a[0]))))
}

fn dict(_: &mut Exec<'_>, a: &[Value], _: usize) -> Res {
    let mut m = std::collections::BTreeMap::new();
    for pair in a.chunks(2) {
        let value = pair.get(1).cloned().unwrap_or(Value::Str(String::new()));
        m.insert(strval(&pair[0]), value);
    }
    Ok(Value::Map(m))
}

fn keys(_: &mut Exec<'_>, a: &[Value], _: usize) -> Res {
    let mut k: Vec<String> = a
        .iter()
        .flat_map(|m| m.map_entries().unwrap_or_default())
        .map(|(k, _)| k)
        .collect();
    k.sort();
    Ok(Value::List(k.into_iter().map(Value::Str).collect()))
}

fn indent(n: &Value, text: &str) -> String {
    let pad = " ".repeat(match n {
        Value::Int(n) => (*n).max(0) as usize,
        _ => 0,
    });
    format!("{pad}{}", text.replace('\n', &format!("\n{pad}")))
}

fn b64dec(_: &mut Exec<'_>, a: &[Value], _: usize) -> Res {
    let input = s(&a[0]);
    Ok(Value::Str(
        match base64::engine::general_purpose::STANDARD.decode(input) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                let at = match e {
                    base64::DecodeError::InvalidByte(i, _)
                    | base64::DecodeError::InvalidLastSymbol(i, _) => i,
                    _ => input.len() / 4 * 4,
                };
                format!("illegal base64 data at input byte {at}")
            }
        },
    ))
}

fn required(_: &mut Exec<'_>, a: &[Value], _: usize) -> Res {
    match &*a[1].plain() {
        Value::Nil => Err(s(&a[0]).into()),
        Value::Str(v) if v.is_empty() => Err(s(&a[0]).into()),
        _ => Ok(a[1].clone()),
    }
}

macro_rules! str_fn {
    ($name:ident, |$($v:ident),*| $body:expr) => {
        fn $name(_: &mut Exec<'_>, a: &[Value], _: usize) -> Res {
            let mut it = a.iter();
            $(let $v = s(it.next().unwrap_or(&Value::Nil));)*
            Ok($body)
        }
    };
}

str_fn!(upper, |x| Value::Str(map_chars(x, true)));
str_fn!(lower, |x| Value::Str(map_chars(x, false)));
str_fn!(title_fn, |x| Value::Str(title(x)));
str_fn!(trim, |x| Value::Str(x.trim().to_string()));
str_fn!(trim_prefix, |p, x| Value::Str(
    x.strip_prefix(p).unwrap_or(x).to_string()
));
str_fn!(trim_suffix, |p, x| Value::Str(
    x.strip_suffix(p).unwrap_or(x).to_string()
));
str_fn!(replace, |old, new, src| Value::Str(src.replace(old, new)));
str_fn!(contains, |sub, x| Value::Bool(x.contains(sub)));
str_fn!(has_prefix, |p, x| Value::Bool(x.starts_with(p)));
str_fn!(has_suffix, |p, x| Value::Bool(x.ends_with(p)));
str_fn!(b64enc, |x| Value::Str(
    base64::engine::general_purpose::STANDARD.encode(x)
));
str_fn!(sha256sum, |x| Value::Str(hex::encode(
    sha2::Sha256::digest(x.as_bytes())
)));

fn fail(_: &mut Exec<'_>, a: &[Value], _: usize) -> Res {
    Err(s(&a[0]).into())
}

fn semver_compare(_: &mut Exec<'_>, a: &[Value], _: usize) -> Res {
    semver::compare_constraint(s(&a[0]), s(&a[1]))
        .map(Value::Bool)
        .map_err(CallError::Message)
}

static DEFAULT: Func = fv(&[Any], Any, default);
static EMPTY: Func = f(&[Any], |_, a, _| Ok(Value::Bool(empty(&a[0]))));
static COALESCE: Func = fv(&[], Any, |_, a, _| {
    Ok(a.iter().find(|v| !empty(v)).cloned().unwrap_or(Value::Nil))
});
static TERNARY: Func = f(&[Any, Any, Bool], |_, a, _| {
    Ok(if a[2].truth() {
        a[0].clone()
    } else {
        a[1].clone()
    })
});
static QUOTE: Func = fv(&[], Any, quote);
static SQUOTE: Func = fv(&[], Any, squote);
static UPPER: Func = f(&[Str], upper);
static LOWER: Func = f(&[Str], lower);
static TITLE: Func = f(&[Str], title_fn);
static TRIM: Func = f(&[Str], trim);
static TRIM_PREFIX: Func = f(&[Str, Str], trim_prefix);
static TRIM_SUFFIX: Func = f(&[Str, Str], trim_suffix);
static REPLACE: Func = f(&[Str, Str, Str], replace);
static CONTAINS: Func = f(&[Str, Str], contains);
static HAS_PREFIX: Func = f(&[Str, Str], has_prefix);
static HAS_SUFFIX: Func = f(&[Str, Str], has_suffix);
static SPLIT: Func = f(&[Str, Str], split);
static JOIN: Func = f(&[Str, Any], join);
static LIST: Func = fv(&[], Any, |_, a, _| Ok(Value::List(a.to_vec())));
static DICT: Func = fv(&[], Any, dict);
static GET: Func = f(&[Map, Str], |_, a, _| {
    Ok(a[0].map_get(s(&a[1])).unwrap_or(Value::Str(String::new())))
});
static HAS_KEY: Func = f(&[Map, Str], |_, a, _| {
    Ok(Value::Bool(a[0].map_get(s(&a[1])).is_some()))
});
static KEYS: Func = fv(&[], Map, keys);
static INDENT: Func = f(&[Int, Str], |_, a, _| {
    Ok(Value::Str(indent(&a[0], s(&a[1]))))
});
static NINDENT: Func = f(&[Int, Str], |_, a, _| {
    Ok(Value::Str(format!("\n{}", indent(&a[0], s(&a[1])))))
});
static TO_YAML: Func = f(&[Any], |_, a, _| Ok(Value::Str(data::to_yaml(&a[0]))));
static TO_JSON: Func = f(&[Any], |_, a, _| Ok(Value::Str(data::to_json(&a[0]))));
static B64ENC: Func = f(&[Str], b64enc);
static B64DEC: Func = f(&[Str], b64dec);
static SHA256SUM: Func = f(&[Str], sha256sum);
static SEMVER_COMPARE: Func = f(&[Str, Str], semver_compare);
static REQUIRED: Func = f(&[Str, Any], required);
static FAIL: Func = f(&[Str], fail);

/// The sprig function `name`, if it is one of the subset.
pub(crate) fn lookup(name: &str) -> Option<&'static Func> {
    Some(match name {
        "default" => &DEFAULT,
        "empty" => &EMPTY,
        "coalesce" => &COALESCE,
        "ternary" => &TERNARY,
        "quote" => &QUOTE,
        "squote" => &SQUOTE,
        "upper" => &UPPER,
        "lower" => &LOWER,
        "title" => &TITLE,
        "trim" => &TRIM,
        "trimPrefix" => &TRIM_PREFIX,
        "trimSuffix" => &TRIM_SUFFIX,
        "replace" => &REPLACE,
        "contains" => &CONTAINS,
        "hasPrefix" => &HAS_PREFIX,
        "hasSuffix" => &HAS_SUFFIX,
        "split" => &SPLIT,
        "join" => &JOIN,
        "list" => &LIST,
        "dict" => &DICT,
        "get" => &GET,
        "hasKey" => &HAS_KEY,
        "keys" => &KEYS,
        "indent" => &INDENT,
        "nindent" => &NINDENT,
        "toYaml" => &TO_YAML,
        "toJson" => &TO_JSON,
        "b64enc" => &B64ENC,
        "b64dec" => &B64DEC,
        "sha256sum" => &SHA256SUM,
        "semverCompare" => &SEMVER_COMPARE,
        "required" => &REQUIRED,
        "fail" => &FAIL,
        _ => return None,
    })
}
