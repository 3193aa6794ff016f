//! `index`, `slice`, `len`, `not`, `call` and the `fmt` family, with Go's messages.

use super::signature::CallError;
use crate::execute::state::Exec;
use crate::{Value, fmt};

type Res = Result<Value, CallError>;

/// An index operand (Go's `indexArg`): an integer in `0..=cap`.
fn index_arg(index: &Value, cap: usize) -> Result<usize, CallError> {
    let x = match &*index.plain() {
        Value::Int(n) => *n,
        Value::Uint8(n) => i64::from(*n),
        Value::Nil => return Err("cannot index slice/array with nil".into()),
        other => {
            return Err(format!("cannot index slice/array with type {}", other.type_name()).into());
        }
    };
    if x < 0 || x as u64 > cap as u64 {
        return Err(format!("index out of range: {x}").into());
    }
    Ok(x as usize)
}

pub(super) fn index(exec: &mut Exec<'_>, args: &[Value], pos: usize) -> Res {
    let mut item = args[0].clone();
    if matches!(item, Value::Nil) {
        return Err("index of untyped nil".into());
    }
    for key in &args[1..] {
        item = match (&item, &*key.plain()) {
            (Value::Files(dir), Value::Str(name)) => exec
                .include(&dir.clone(), name, pos, true)
                .map_err(|e| CallError::Template(Box::new(e)))?,
            (Value::Texts(dir), Value::Str(name)) => {
                exec.include(&dir.clone(), name, pos, false)
                    .map_err(|e| CallError::Template(Box::new(e)))?
            }
            (Value::Nil, _) => return Err("index of nil pointer".into()),
            (m, k) if m.is_map() => match k {
                Value::Str(k) => m.map_get(k).unwrap_or(Value::Nil),
                Value::Nil => return Err("value is nil; should be of type string".into()),
                other => {
                    return Err(
                        format!("value has type {}; should be string", other.type_name()).into(),
                    );
                }
            },
            (l, _) if l.is_list() => {
                let items = l.list_items().unwrap_or_default();
                let i = index_arg(key, items.len())?;
                items
                    .into_iter()
                    .nth(i)
                    .ok_or_else(|| CallError::from("reflect: slice index out of range"))?
            }
            (s, _) if matches!(&*s.plain(), Value::Str(_)) => {
                let Value::Str(s) = s.plain().into_owned() else {
                    unreachable!()
                };
                let i = index_arg(key, s.len())?;
                Value::Uint8(
                    *s.as_bytes()
                        .get(i)
                        .ok_or_else(|| CallError::from("reflect: string index out of range"))?,
                )
            }
            (other, _) => {
                return Err(format!("can't index item of type {}", other.type_name()).into());
            }
        };
    }
    Ok(item)
}

pub(super) fn slice(_: &mut Exec<'_>, args: &[Value], _: usize) -> Res {
    let item = args[0].plain().into_owned();
    let indexes = &args[1..];
    if matches!(item, Value::Nil) {
        return Err("slice of untyped nil".into());
    }
    if indexes.len() > 3 {
        return Err(format!("too many slice indexes: {}", indexes.len()).into());
    }
    let len = match &item {
        Value::Str(s) => {
            if indexes.len() == 3 {
                return Err("cannot 3-index slice a string".into());
            }
            s.len()
        }
        l if l.is_list() => l.len().unwrap_or(0),
        other => return Err(format!("can't slice item of type {}", other.type_name()).into()),
    };
    let mut idx = [0, len, len];
    for (i, index) in indexes.iter().enumerate() {
        idx[i] = index_arg(index, len)?;
    }
    if idx[0] > idx[1] {
        return Err(format!("invalid slice index: {} > {}", idx[0], idx[1]).into());
    }
    if indexes.len() == 3 && idx[1] > idx[2] {
        return Err(format!("invalid slice index: {} > {}", idx[1], idx[2]).into());
    }
    Ok(match item {
        Value::Str(s) => {
            Value::Str(String::from_utf8_lossy(&s.as_bytes()[idx[0]..idx[1]]).into_owned())
        }
        l => Value::List(l.list_items().unwrap_or_default()[idx[0]..idx[1]].to_vec()),
    })
}

pub(super) fn len(_: &mut Exec<'_>, args: &[Value], _: usize) -> Res {
    match &args[0] {
        Value::Nil => Err("len of nil pointer".into()),
        v => match v.len() {
            Some(n) => Ok(Value::Int(n as i64)),
            None => Err(format!("len of type {}", v.type_name()).into()),
        },
    }
}

pub(super) fn not(_: &mut Exec<'_>, args: &[Value], _: usize) -> Res {
    Ok(Value::Bool(!args[0].truth()))
}

pub(super) fn call(_: &mut Exec<'_>, args: &[Value], _: usize) -> Res {
    match &args[0] {
        Value::Nil => Err("call of nil".into()),
        v => Err(format!(
            "non-function of type {} (no functions are passed to templates)",
            v.type_name()
        )
        .into()),
    }
}

pub(super) fn print(_: &mut Exec<'_>, args: &[Value], _: usize) -> Res {
    Ok(Value::Str(fmt::sprint(args)))
}

pub(super) fn printf(_: &mut Exec<'_>, args: &[Value], _: usize) -> Res {
    let Value::Str(format) = &*args[0].plain() else {
        return Err("printf's format must be a string".into());
    };
    Ok(Value::Str(fmt::sprintf(format, &args[1..])))
}

pub(super) fn println(_: &mut Exec<'_>, args: &[Value], _: usize) -> Res {
    Ok(Value::Str(fmt::sprintln(args)))
}
