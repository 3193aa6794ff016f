//! A function's Go signature (parameter types, a variadic tail, short-circuiting), which the
//! executor checks before calling its implementation, and how a call fails.

use crate::execute::state::Exec;
use crate::{Error, Value};

/// A Go parameter type, as far as argument checking needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ty {
    /// `interface{}`.
    Any,
    /// `reflect.Value` (the builtins' parameters; like `Any` for checking).
    Refl,
    Str,
    Int,
    Bool,
    /// `map[string]interface{}`.
    Map,
}

impl Ty {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Ty::Any => "interface {}",
            Ty::Refl => "reflect.Value",
            Ty::Str => "string",
            Ty::Int => "int",
            Ty::Bool => "bool",
            Ty::Map => "map[string]interface {}",
        }
    }

    pub(crate) fn can_be_nil(self) -> bool {
        matches!(self, Ty::Any | Ty::Refl | Ty::Map)
    }
}

/// Why a call failed: Go's `error calling NAME: …`, or an error of an included template.
pub(crate) enum CallError {
    Message(String),
    Template(Box<Error>),
}

impl From<String> for CallError {
    fn from(m: String) -> Self {
        CallError::Message(m)
    }
}

impl From<&str> for CallError {
    fn from(m: &str) -> Self {
        CallError::Message(m.to_string())
    }
}

pub(crate) type Imp = fn(&mut Exec<'_>, &[Value], usize) -> Result<Value, CallError>;

pub(crate) struct Func {
    pub(crate) params: &'static [Ty],
    pub(crate) variadic: Option<Ty>,
    /// `Some(true)` for `or`, `Some(false)` for `and`: arguments evaluated only as needed.
    pub(crate) short_circuit: Option<bool>,
    pub(crate) imp: Imp,
}

pub(crate) const fn f(params: &'static [Ty], imp: Imp) -> Func {
    Func {
        params,
        variadic: None,
        short_circuit: None,
        imp,
    }
}

pub(crate) const fn fv(params: &'static [Ty], rest: Ty, imp: Imp) -> Func {
    Func {
        params,
        variadic: Some(rest),
        short_circuit: None,
        imp,
    }
}
