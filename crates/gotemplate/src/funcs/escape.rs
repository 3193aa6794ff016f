//! `html`, `js` and `urlquery`: Go's `HTMLEscapeString`, `JSEscapeString` and
//! `url.QueryEscape` of their arguments (one string as it is, anything else as `print` joins
//! it, a nil shown as `<no value>`).

use super::signature::CallError;
use crate::execute::state::Exec;
use crate::{Value, fmt};

type Res = Result<Value, CallError>;

fn eval_args(args: &[Value]) -> String {
    if let [one] = args
        && let Value::Str(s) = &*one.plain()
    {
        return s.clone();
    }
    let shown: Vec<Value> = args
        .iter()
        .map(|a| match a {
            Value::Nil => Value::Str("<no value>".into()),
            other => other.clone(),
        })
        .collect();
    fmt::sprint(&shown)
}

pub(super) fn html(_: &mut Exec<'_>, args: &[Value], _: usize) -> Res {
    let s = eval_args(args);
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\0' => out.push('\u{fffd}'),
            '"' => out.push_str("&#34;"),
            '\'' => out.push_str("&#39;"),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    Ok(Value::Str(out))
}

pub(super) fn js(_: &mut Exec<'_>, args: &[Value], _: usize) -> Res {
    let s = eval_args(args);
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '"' => out.push_str("\\\""),
            '<' => out.push_str("\\u003C"),
            '>' => out.push_str("\\u003E"),
            '&' => out.push_str("\\u0026"),
            '=' => out.push_str("\\u003D"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u00{:02X}", c as u32)),
            c if (c as u32) < 0x80 || fmt::is_print(c) => out.push(c),
            c => out.push_str(&format!("\\u{:04X}", c as u32)),
        }
    }
    Ok(Value::Str(out))
}

pub(super) fn urlquery(_: &mut Exec<'_>, args: &[Value], _: usize) -> Res {
    let s = eval_args(args);
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            b => out.push_str(&format!("%{b:02X}")),
        }
    }
    Ok(Value::Str(out))
}
