//! The built-in functions of Go `text/template` that manifests use: `index` (also the include
//! mechanism, on a [`Value::Files`] folder), `not`, `and`, `or`, `eq`, `ne`, `len`, `print` and
//! `printf` (verbs `%s`, `%v`, `%d`, `%q`, `%%`). Unknown functions are errors, as in Go.

use std::fmt::Write as _;

use serde_yaml_ng::Value as Yaml;

use super::exec::{Exec, kind, truth};
use super::{Error, Value};

type R<T> = Result<T, Error>;

impl Exec<'_> {
    pub(super) fn call(&self, name: &str, args: Vec<Value>, line: usize) -> R<Value> {
        let want = |n: usize| {
            if args.len() == n {
                Ok(())
            } else {
                Err(self.err(
                    line,
                    format!("{name} takes {n} argument(s), got {}", args.len()),
                ))
            }
        };
        match name {
            "not" => {
                want(1)?;
                Ok(Value::Bool(!truth(&args[0])))
            }
            "and" | "or" => {
                let mut last = Value::Nil;
                for a in args {
                    let stop = truth(&a) != (name == "and");
                    last = a;
                    if stop {
                        break;
                    }
                }
                Ok(last)
            }
            "eq" | "ne" => {
                if args.len() < 2 {
                    return Err(self.err(line, format!("{name} needs two arguments")));
                }
                let a = scalar(&args[0]);
                let equal = args[1..].iter().any(|b| scalar(b) == a && a.is_some());
                Ok(Value::Bool(if name == "eq" { equal } else { !equal }))
            }
            "len" => {
                want(1)?;
                let n = match &args[0] {
                    Value::Str(s) => s.len(),
                    Value::List(l) => l.len(),
                    Value::Map(m) => m.len(),
                    Value::Block(Yaml::Sequence(s)) => s.len(),
                    Value::Block(Yaml::Mapping(m)) => m.len(),
                    Value::Block(Yaml::String(s)) => s.len(),
                    other => return Err(self.err(line, format!("len of {}", kind(other)))),
                };
                Ok(Value::Int(n as i64))
            }
            "index" => {
                let (first, keys) = args
                    .split_first()
                    .ok_or_else(|| self.err(line, "index needs a value and keys"))?;
                keys.iter()
                    .try_fold(first.clone(), |cur, key| self.index(&cur, key, line))
            }
            "print" => {
                let mut s = String::new();
                for (i, a) in args.iter().enumerate() {
                    let is_str = |v: &Value| matches!(v, Value::Str(_));
                    if i > 0 && !is_str(a) && !is_str(&args[i - 1]) {
                        s.push(' ');
                    }
                    s.push_str(&self.text(a, line)?);
                }
                Ok(Value::Str(s))
            }
            "printf" => {
                let (format, rest) = args
                    .split_first()
                    .ok_or_else(|| self.err(line, "printf needs a format"))?;
                let Value::Str(format) = format else {
                    return Err(self.err(line, "printf's format must be a string"));
                };
                self.printf(format, rest, line).map(Value::Str)
            }
            other => Err(self.err(line, format!("function \"{other}\" not defined"))),
        }
    }

    fn index(&self, cur: &Value, key: &Value, line: usize) -> R<Value> {
        let missing = |k: &str| self.err(line, format!("index: no key \"{k}\""));
        match (cur, key) {
            (Value::Files(dir), Value::Str(name)) => self.include(dir, name, line),
            (Value::Map(m), Value::Str(k)) => m.get(k).cloned().ok_or_else(|| missing(k)),
            (Value::Block(Yaml::Mapping(m)), Value::Str(k)) => m
                .get(k.as_str())
                .cloned()
                .map(Value::Block)
                .ok_or_else(|| missing(k)),
            (Value::List(l), Value::Int(i)) => usize::try_from(*i)
                .ok()
                .and_then(|i| l.get(i).cloned())
                .ok_or_else(|| self.err(line, format!("index {i} out of range"))),
            (Value::Block(Yaml::Sequence(s)), Value::Int(i)) => usize::try_from(*i)
                .ok()
                .and_then(|i| s.get(i).cloned())
                .map(Value::Block)
                .ok_or_else(|| self.err(line, format!("index {i} out of range"))),
            (c, k) => Err(self.err(line, format!("can't index {} with {}", kind(c), kind(k)))),
        }
    }

    /// Go's `printf` for the verbs manifests use: `%s`, `%v`, `%d`, `%q`, `%%`.
    fn printf(&self, format: &str, args: &[Value], line: usize) -> R<String> {
        let mut out = String::new();
        let mut args = args.iter();
        let mut chars = format.chars();
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            let verb = chars.next().unwrap_or('%');
            if verb == '%' {
                out.push('%');
                continue;
            }
            let Some(a) = args.next() else {
                let _ = write!(out, "%!{verb}(MISSING)");
                continue;
            };
            match (verb, a) {
                ('d', Value::Int(n)) => out.push_str(&n.to_string()),
                ('d', other) => {
                    let _ = write!(out, "%!d({}={})", go_type(other), self.text(other, line)?);
                }
                ('q', other) => out
                    .push_str(&serde_json::to_string(&self.text(other, line)?).unwrap_or_default()),
                ('s' | 'v', other) => out.push_str(&self.text(other, line)?),
                (v, _) => return Err(self.err(line, format!("printf verb %{v} is not supported"))),
            }
        }
        Ok(out)
    }
}

/// A comparable form of a scalar value, for `eq`/`ne`.
fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::Str(s) | Value::Block(Yaml::String(s)) => Some(format!("s:{s}")),
        Value::Int(n) => Some(format!("n:{n}")),
        Value::Block(Yaml::Number(n)) => Some(format!("n:{n}")),
        Value::Bool(b) | Value::Block(Yaml::Bool(b)) => Some(format!("b:{b}")),
        Value::Nil | Value::Block(Yaml::Null) => Some("nil".into()),
        _ => None,
    }
}

fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Str(_) => "string",
        Value::Bool(_) => "bool",
        _ => "value",
    }
}
