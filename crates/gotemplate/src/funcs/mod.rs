//! The functions a template may call: Go's builtins, and, when a pipeline opts in with
//! `render.functions: sprig`, the sprig subset in [`super::sprig`]. Each function has Go's
//! signature (parameter types, variadic tail), which the executor checks before calling.
//!
//! Builtins: `and`, `or` (short-circuiting, returning the deciding value), `not`, `len`,
//! `index` (also how an include folder is read), `slice`, `eq` (one or more comparands), `ne`,
//! `lt`, `le`, `gt`, `ge` (basic types only, ints and uints compare across), `print`, `printf`,
//! `println`, `html`, `js`, `urlquery`, and `call`, which always fails since no function values
//! are passed to templates.

mod builtin;
mod compare;
mod escape;
pub(crate) mod signature;

pub(crate) use signature::{CallError, Func, Ty, f, fv};

use super::execute::state::Exec;
use super::{Functions, Value};

fn never(_: &mut Exec<'_>, _: &[Value], _: usize) -> Result<Value, CallError> {
    Err("unreachable".into())
}

use Ty::{Any, Refl, Str};

static AND: Func = Func {
    params: &[Refl],
    variadic: Some(Refl),
    short_circuit: Some(false),
    imp: never,
};
static OR: Func = Func {
    params: &[Refl],
    variadic: Some(Refl),
    short_circuit: Some(true),
    imp: never,
};
static CALL: Func = fv(&[Refl], Refl, builtin::call);
static HTML: Func = fv(&[], Any, escape::html);
static INDEX: Func = fv(&[Refl], Refl, builtin::index);
static SLICE: Func = fv(&[Refl], Refl, builtin::slice);
static JS: Func = fv(&[], Any, escape::js);
static LEN: Func = f(&[Refl], builtin::len);
static NOT: Func = f(&[Refl], builtin::not);
static PRINT: Func = fv(&[], Any, builtin::print);
static PRINTF: Func = fv(&[Str], Any, builtin::printf);
static PRINTLN: Func = fv(&[], Any, builtin::println);
static URLQUERY: Func = fv(&[], Any, escape::urlquery);
static EQ: Func = fv(&[Refl], Refl, compare::eq);
static NE: Func = f(&[Refl, Refl], compare::ne);
static LT: Func = f(&[Refl, Refl], compare::lt);
static LE: Func = f(&[Refl, Refl], compare::le);
static GT: Func = f(&[Refl, Refl], compare::gt);
static GE: Func = f(&[Refl, Refl], compare::ge);

/// The function `name` in the set `functions` offers.
pub(crate) fn lookup(name: &str, functions: Functions) -> Option<&'static Func> {
    let builtin = match name {
        "and" => Some(&AND),
        "or" => Some(&OR),
        "call" => Some(&CALL),
        "html" => Some(&HTML),
        "index" => Some(&INDEX),
        "slice" => Some(&SLICE),
        "js" => Some(&JS),
        "len" => Some(&LEN),
        "not" => Some(&NOT),
        "print" => Some(&PRINT),
        "printf" => Some(&PRINTF),
        "println" => Some(&PRINTLN),
        "urlquery" => Some(&URLQUERY),
        "eq" => Some(&EQ),
        "ne" => Some(&NE),
        "lt" => Some(&LT),
        "le" => Some(&LE),
        "gt" => Some(&GT),
        "ge" => Some(&GE),
        _ => None,
    };
    match functions {
        // Added functions take precedence over builtins, as in Go.
        Functions::Sprig => super::sprig::lookup(name).or(builtin),
        Functions::Go => builtin,
    }
}
