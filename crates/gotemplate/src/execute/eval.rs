//! Evaluating pipelines, commands, fields and arguments, and calling functions with Go's
//! argument rules: the count checked against the signature, each literal checked against the
//! parameter's type (`expected string; found 1`), each computed value against it (`wrong type
//! for value; expected string; got int`), `and`/`or` evaluating their arguments only as far as
//! needed, and a piped value passed as the last argument.

use super::{Exec, R};
use crate::funcs::{self, CallError, Func, Ty};
use crate::parse::node::Number;
use crate::parse::{Arg, Cmd, Pipe};
use crate::{Value, fmt};

impl Exec<'_> {
    pub(crate) fn eval_pipeline(&mut self, dot: &Value, pipe: &Pipe) -> R<Value> {
        let mut value = None;
        for cmd in &pipe.cmds {
            value = Some(self.eval_command(dot, cmd, value)?);
        }
        let value = value.unwrap_or(Value::Nil);
        for name in &pipe.decl {
            if pipe.is_assign {
                match self.vars.iter_mut().rev().find(|(n, _)| n == name) {
                    Some(slot) => slot.1 = value.clone(),
                    None => {
                        return Err(self.fail(
                            pipe.pos,
                            pipe,
                            format!("undefined variable: {name}"),
                        ));
                    }
                }
            } else {
                self.vars.push((name.clone(), value.clone()));
            }
        }
        Ok(value)
    }

    fn not_a_function(&self, args: &[Arg], last: &Option<Value>) -> R<()> {
        if args.len() > 1 || last.is_some() {
            return Err(self.fail(
                args[0].pos(),
                &args[0],
                format!("can't give argument to non-function {}", args[0]),
            ));
        }
        Ok(())
    }

    fn eval_command(&mut self, dot: &Value, cmd: &Cmd, last: Option<Value>) -> R<Value> {
        let first = &cmd.args[0];
        match first {
            Arg::Field(pos, idents) => {
                self.field_chain(dot, dot.clone(), *pos, first, idents, &cmd.args, last, true)
            }
            Arg::Chain(pos, node, fields) => {
                let receiver = self.chain_receiver(dot, node, first)?;
                self.field_chain(dot, receiver, *pos, first, fields, &cmd.args, last, false)
            }
            Arg::Ident(pos, name) => self.call(dot, *pos, name, &cmd.args[1..], last),
            Arg::Pipe(p) => {
                self.not_a_function(&cmd.args, &last)?;
                self.eval_pipeline(dot, p)
            }
            Arg::Variable(pos, idents) => {
                let value = self.variable(*pos, first, &idents[0])?;
                if idents.len() == 1 {
                    self.not_a_function(&cmd.args, &last)?;
                    return Ok(value);
                }
                self.field_chain(
                    dot,
                    value,
                    *pos,
                    first,
                    &idents[1..],
                    &cmd.args,
                    last,
                    false,
                )
            }
            _ => {
                self.not_a_function(&cmd.args, &last)?;
                match first {
                    Arg::Bool(_, b) => Ok(Value::Bool(*b)),
                    Arg::Dot(_) => Ok(dot.clone()),
                    Arg::Nil(pos) => Err(self.fail(*pos, first, "nil is not a command")),
                    Arg::Number(pos, n) => self.ideal_constant(*pos, first, n),
                    Arg::Str(_, _, s) => Ok(Value::Str(s.clone())),
                    _ => Err(self.fail(first.pos(), first, "can't evaluate command")),
                }
            }
        }
    }

    fn chain_receiver(&mut self, dot: &Value, node: &Arg, chain: &Arg) -> R<Value> {
        match node {
            Arg::Nil(pos) => Err(self.fail(
                *pos,
                chain,
                format!("indirection through explicit nil in {chain}"),
            )),
            Arg::Pipe(p) => self.eval_pipeline(dot, p),
            other => self.arg(dot, Ty::Any, other),
        }
    }

    fn variable(&self, pos: usize, node: &Arg, name: &str) -> R<Value> {
        match self.vars.iter().rev().find(|(n, _)| n == name) {
            Some((_, v)) => Ok(v.clone()),
            None => Err(self.fail(pos, node, format!("undefined variable: {name}"))),
        }
    }

    /// A number literal where no type is expected: `int` unless written as a float.
    fn ideal_constant(&self, pos: usize, node: &Arg, n: &Number) -> R<Value> {
        if n.complex {
            return Err(self.fail(pos, node, "complex numbers are not supported"));
        }
        let t = &n.text;
        let hex_int = t.len() > 2
            && t.starts_with('0')
            && t[1..].starts_with(['x', 'X'])
            && !t.contains(['p', 'P']);
        let rune = t.starts_with('\'');
        if let Some(f) = n.float
            && !hex_int
            && !rune
            && t.contains(['.', 'e', 'E', 'p', 'P'])
        {
            return Ok(Value::Float(f));
        }
        if let Some(i) = n.int {
            return Ok(Value::Int(i));
        }
        Err(self.fail(pos, node, format!("{t} overflows int")))
    }

    /// Reads `fields` in turn from `receiver`; the last one gets `args` and `last`.
    #[allow(clippy::too_many_arguments)]
    fn field_chain(
        &mut self,
        dot: &Value,
        mut receiver: Value,
        pos: usize,
        node: &Arg,
        fields: &[String],
        args: &[Arg],
        last: Option<Value>,
        from_dot: bool,
    ) -> R<Value> {
        let has_args = args.len() > 1 || last.is_some();
        let at_root = from_dot && std::ptr::eq(dot, self.root);
        for (i, f) in fields.iter().enumerate() {
            let final_field = i + 1 == fields.len();
            receiver = self.field(
                pos,
                node,
                f,
                final_field && has_args,
                receiver,
                at_root && i == 0,
            )?;
        }
        Ok(receiver)
    }

    fn field(
        &self,
        pos: usize,
        node: &Arg,
        name: &str,
        has_args: bool,
        receiver: Value,
        at_root: bool,
    ) -> R<Value> {
        let receiver = receiver.plain().into_owned();
        if matches!(receiver, Value::Nil) {
            return Err(self.fail(
                pos,
                node,
                format!("nil pointer evaluating interface {{}}.{name}"),
            ));
        }
        if receiver.is_map() {
            if has_args {
                return Err(self.fail(
                    pos,
                    node,
                    format!("{name} is not a method but has arguments"),
                ));
            }
            return receiver.map_get(name).ok_or_else(|| {
                let hint = if at_root {
                    " (define it under render.vars in the pipeline file)"
                } else {
                    ""
                };
                self.fail(
                    pos,
                    node,
                    format!("map has no entry for key {}{hint}", fmt::quote(name)),
                )
            });
        }
        Err(self.fail(
            pos,
            node,
            format!(
                "can't evaluate field {name} in type {}",
                receiver.type_name()
            ),
        ))
    }

    /// Calls the function `name` with the argument nodes `args` and the piped value `last`.
    pub(crate) fn call(
        &mut self,
        dot: &Value,
        pos: usize,
        name: &str,
        args: &[Arg],
        last: Option<Value>,
    ) -> R<Value> {
        let ctx = name;
        let Some(func) = funcs::lookup(name, self.data.functions) else {
            return Err(self.fail(
                pos,
                ctx,
                format!("{} is not a defined function", fmt::quote(name)),
            ));
        };
        let fixed = func.params.len();
        let num_in = args.len() + usize::from(last.is_some());
        if func.variadic.is_some() {
            if num_in < fixed {
                return Err(self.fail(
                    pos,
                    ctx,
                    format!(
                        "wrong number of args for {name}: want at least {fixed} got {}",
                        args.len()
                    ),
                ));
            }
        } else if num_in != fixed {
            return Err(self.fail(
                pos,
                ctx,
                format!("wrong number of args for {name}: want {fixed} got {num_in}"),
            ));
        }
        if let Some(or) = func.short_circuit {
            let mut v = Value::Nil;
            for a in args {
                v = self.arg(dot, Ty::Refl, a)?;
                if v.truth() == or {
                    return Ok(v);
                }
            }
            if let Some(last) = last {
                v = last;
            }
            return Ok(v);
        }
        let mut argv = Vec::with_capacity(num_in);
        for (i, a) in args.iter().enumerate() {
            let ty = func
                .params
                .get(i)
                .copied()
                .or(func.variadic)
                .unwrap_or(Ty::Any);
            argv.push(self.arg(dot, ty, a)?);
        }
        if let Some(last) = last {
            let ty = if func.variadic.is_some() && num_in > fixed {
                func.variadic.unwrap_or(Ty::Any)
            } else {
                func.params[num_in - 1]
            };
            argv.push(self.validate(pos, ctx, last, ty)?);
        }
        self.invoke(func, pos, name, argv)
    }

    fn invoke(&mut self, func: &Func, pos: usize, name: &str, argv: Vec<Value>) -> R<Value> {
        match (func.imp)(self, &argv, pos) {
            Ok(v) => Ok(v),
            Err(CallError::Message(m)) => {
                Err(self.fail(pos, name, format!("error calling {name}: {m}")))
            }
            Err(CallError::Template(e)) => Err(*e),
        }
    }

    /// Checks a computed value against a parameter type (Go's `validateType`).
    fn validate(&self, pos: usize, ctx: impl ToString, v: Value, ty: Ty) -> R<Value> {
        if matches!(v, Value::Nil) {
            if ty.can_be_nil() {
                return Ok(Value::Nil);
            }
            return Err(self.fail(pos, ctx, format!("invalid value; expected {}", ty.name())));
        }
        let ok = match ty {
            Ty::Any | Ty::Refl => true,
            Ty::Str => matches!(&*v.plain(), Value::Str(_)),
            Ty::Int => matches!(&*v.plain(), Value::Int(_)),
            Ty::Bool => matches!(&*v.plain(), Value::Bool(_)),
            Ty::Map => v.is_map(),
        };
        if !ok {
            return Err(self.fail(
                pos,
                ctx,
                format!(
                    "wrong type for value; expected {}; got {}",
                    ty.name(),
                    v.type_name()
                ),
            ));
        }
        Ok(match ty {
            Ty::Str | Ty::Int | Ty::Bool => v.plain().into_owned(),
            _ => v,
        })
    }

    /// Evaluates an argument node for a parameter of type `ty` (Go's `evalArg`).
    pub(crate) fn arg(&mut self, dot: &Value, ty: Ty, node: &Arg) -> R<Value> {
        let pos = node.pos();
        let v = match node {
            Arg::Dot(_) => dot.clone(),
            Arg::Nil(_) => {
                if ty.can_be_nil() {
                    return Ok(Value::Nil);
                }
                return Err(self.fail(pos, node, format!("cannot assign nil to {}", ty.name())));
            }
            Arg::Field(p, idents) => self.field_chain(
                dot,
                dot.clone(),
                *p,
                node,
                idents,
                std::slice::from_ref(node),
                None,
                true,
            )?,
            Arg::Variable(p, idents) => {
                let v = self.variable(*p, node, &idents[0])?;
                if idents.len() == 1 {
                    v
                } else {
                    self.field_chain(dot, v, *p, node, &idents[1..], &[], None, false)?
                }
            }
            Arg::Pipe(p) => self.eval_pipeline(dot, p)?,
            Arg::Ident(p, name) => self.call(dot, *p, name, &[], None)?,
            Arg::Chain(p, inner, fields) => {
                let receiver = self.chain_receiver(dot, inner, node)?;
                self.field_chain(dot, receiver, *p, node, fields, &[], None, false)?
            }
            Arg::Bool(_, b) => {
                return match ty {
                    Ty::Bool | Ty::Any | Ty::Refl => Ok(Value::Bool(*b)),
                    _ => Err(self.literal_mismatch(node, ty)),
                };
            }
            Arg::Str(_, _, s) => {
                return match ty {
                    Ty::Str | Ty::Any | Ty::Refl => Ok(Value::Str(s.clone())),
                    _ => Err(self.literal_mismatch(node, ty)),
                };
            }
            Arg::Number(_, n) => {
                return match ty {
                    Ty::Int => match (n.int, n.complex) {
                        (Some(i), false) => Ok(Value::Int(i)),
                        _ => Err(self.literal_mismatch(node, ty)),
                    },
                    Ty::Any | Ty::Refl => self.ideal_constant(pos, node, n),
                    _ => Err(self.literal_mismatch(node, ty)),
                };
            }
        };
        self.validate(pos, node, v, ty)
    }

    fn literal_mismatch(&self, node: &Arg, ty: Ty) -> crate::Error {
        let message = match ty {
            Ty::Bool => format!("expected bool; found {node}"),
            Ty::Str => format!("expected string; found {node}"),
            Ty::Int => format!("expected integer; found {node}"),
            _ => format!("can't handle {node} for arg of type {}", ty.name()),
        };
        self.fail(node.pos(), node, message)
    }
}
