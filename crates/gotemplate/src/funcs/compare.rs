//! `eq`, `ne`, `lt`, `le`, `gt`, `ge` with Go's rules: basic types only (bool, integers,
//! floats, strings), both sides of the same kind except that signed and unsigned integers
//! compare by value; `eq` compares its first argument with each of the others and also
//! accepts nil on either side (equal only to nil); lists and maps are not comparable.

use super::signature::CallError;
use crate::Value;
use crate::execute::state::Exec;
use crate::value::Kind;

type Res = Result<Value, CallError>;

const BAD_TYPE: &str = "invalid type for comparison";
const INCOMPATIBLE: &str = "incompatible types for comparison";

fn int_of(v: &Value) -> i64 {
    match v {
        Value::Int(n) => *n,
        Value::Uint8(n) => i64::from(*n),
        _ => 0,
    }
}

fn equal(a: &Value, b: &Value) -> Result<bool, CallError> {
    let (a, b) = (a.plain(), b.plain());
    let (ka, kb) = (a.kind(), b.kind());
    if ka != kb {
        return match (ka, kb) {
            (Kind::Int, Kind::Uint) | (Kind::Uint, Kind::Int) => Ok(int_of(&a) == int_of(&b)),
            _ if matches!(*a, Value::Nil) || matches!(*b, Value::Nil) => Ok(false),
            _ => Err(INCOMPATIBLE.into()),
        };
    }
    Ok(match (&*a, &*b) {
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => x == y,
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Nil, Value::Nil) => true,
        (x, y) if ka == Kind::Int || ka == Kind::Uint => int_of(x) == int_of(y),
        (_, y) => {
            return Err(format!(
                "non-comparable type {}: {}",
                crate::fmt::value_text(y),
                y.type_name()
            )
            .into());
        }
    })
}

pub(super) fn eq(_: &mut Exec<'_>, args: &[Value], _: usize) -> Res {
    if args.len() < 2 {
        return Err("missing argument for comparison".into());
    }
    for b in &args[1..] {
        if equal(&args[0], b)? {
            return Ok(Value::Bool(true));
        }
    }
    Ok(Value::Bool(false))
}

pub(super) fn ne(_: &mut Exec<'_>, args: &[Value], _: usize) -> Res {
    Ok(Value::Bool(!equal(&args[0], &args[1])?))
}

fn less(a: &Value, b: &Value) -> Result<bool, CallError> {
    let (a, b) = (a.plain(), b.plain());
    let (ka, kb) = (a.kind(), b.kind());
    for k in [ka, kb] {
        if matches!(k, Kind::Invalid | Kind::Other) {
            return Err(BAD_TYPE.into());
        }
    }
    if ka != kb {
        return match (ka, kb) {
            (Kind::Int, Kind::Uint) | (Kind::Uint, Kind::Int) => Ok(int_of(&a) < int_of(&b)),
            _ => Err(INCOMPATIBLE.into()),
        };
    }
    Ok(match (&*a, &*b) {
        (Value::Bool(_), _) => return Err(BAD_TYPE.into()),
        (Value::Float(x), Value::Float(y)) => x < y,
        (Value::Str(x), Value::Str(y)) => x < y,
        (x, y) => int_of(x) < int_of(y),
    })
}

pub(super) fn lt(_: &mut Exec<'_>, args: &[Value], _: usize) -> Res {
    Ok(Value::Bool(less(&args[0], &args[1])?))
}

pub(super) fn le(_: &mut Exec<'_>, args: &[Value], _: usize) -> Res {
    Ok(Value::Bool(
        less(&args[0], &args[1])? || equal(&args[0], &args[1])?,
    ))
}

pub(super) fn gt(_: &mut Exec<'_>, args: &[Value], _: usize) -> Res {
    let le = less(&args[0], &args[1])? || equal(&args[0], &args[1])?;
    Ok(Value::Bool(!le))
}

pub(super) fn ge(_: &mut Exec<'_>, args: &[Value], _: usize) -> Res {
    Ok(Value::Bool(!less(&args[0], &args[1])?))
}
