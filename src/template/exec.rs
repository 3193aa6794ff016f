//! The executor: walks the parsed tree with the data and writes the output.
//!
//! Field reads never invent a value: a missing variable or key is an error naming the file,
//! the line and the full path (`.Spec.Name`). Truth follows Go: false, 0, nil and empty
//! strings, lists and maps are false. Printing a [`Value::Block`] goes through [`super::block`].

use std::fmt::Write as _;

use super::lexer::Root;
use super::parser::{Arg, Cmd, Node, Pipe};
use super::{Error, Value, block};
use serde_yaml_ng::Value as Yaml;

pub struct Exec<'a> {
    pub file: &'a str,
    pub root: &'a Value,
    pub depth: usize,
}

type R<T> = Result<T, Error>;

impl Exec<'_> {
    fn err(&self, line: usize, message: impl Into<String>) -> Error {
        Error {
            file: self.file.to_string(),
            line,
            message: message.into(),
        }
    }

    pub fn run(&self, nodes: &[Node], dot: &Value, out: &mut String) -> R<()> {
        for node in nodes {
            match node {
                Node::Text(t) => out.push_str(t),
                Node::Print(p) => {
                    let v = self.pipe(p, dot)?;
                    self.print(&v, p.line, out)?;
                }
                Node::If {
                    branches,
                    otherwise,
                } => {
                    let mut chosen = otherwise;
                    for (cond, body) in branches {
                        if truth(&self.pipe(cond, dot)?) {
                            chosen = body;
                            break;
                        }
                    }
                    self.run(chosen, dot, out)?;
                }
                Node::With {
                    pipe,
                    body,
                    otherwise,
                } => {
                    let v = self.pipe(pipe, dot)?;
                    if truth(&v) {
                        self.run(body, &v, out)?;
                    } else {
                        self.run(otherwise, dot, out)?;
                    }
                }
                Node::Range {
                    pipe,
                    body,
                    otherwise,
                } => {
                    let items = self.items(&self.pipe(pipe, dot)?, pipe.line)?;
                    if items.is_empty() {
                        self.run(otherwise, dot, out)?;
                    }
                    for item in &items {
                        self.run(body, item, out)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn items(&self, v: &Value, line: usize) -> R<Vec<Value>> {
        Ok(match v {
            Value::List(l) => l.clone(),
            Value::Map(m) => m.values().cloned().collect(),
            Value::Block(Yaml::Sequence(s)) => s.iter().cloned().map(Value::Block).collect(),
            Value::Block(Yaml::Mapping(m)) => m.values().cloned().map(Value::Block).collect(),
            Value::Nil | Value::Block(Yaml::Null) => Vec::new(),
            other => {
                return Err(self.err(line, format!("range can't iterate over {}", kind(other))));
            }
        })
    }

    fn print(&self, v: &Value, line: usize, out: &mut String) -> R<()> {
        match v {
            Value::Block(y) => block::emit(out, y).map_err(|e| self.err(line, e)),
            Value::List(_) | Value::Map(_) | Value::Files(_) => Err(self.err(
                line,
                format!("cannot print {}; index it or range over it", kind(v)),
            )),
            other => {
                out.push_str(&self.text(other, line)?);
                Ok(())
            }
        }
    }

    /// A value as text, as `print` shows it.
    fn text(&self, v: &Value, line: usize) -> R<String> {
        Ok(match v {
            Value::Str(s) => s.clone(),
            Value::Bool(b) => b.to_string(),
            Value::Int(n) => n.to_string(),
            Value::Nil => String::new(),
            Value::Block(Yaml::String(s)) => s.clone(),
            Value::Block(Yaml::Null) => String::new(),
            Value::Block(y @ (Yaml::Bool(_) | Yaml::Number(_))) => serde_yaml_ng::to_string(y)
                .unwrap_or_default()
                .trim_end()
                .to_string(),
            Value::Block(y) => {
                serde_json::to_string(y).map_err(|e| self.err(line, e.to_string()))?
            }
            other => return Err(self.err(line, format!("cannot print {}", kind(other)))),
        })
    }

    fn pipe(&self, p: &Pipe, dot: &Value) -> R<Value> {
        let mut prev = None;
        for cmd in &p.cmds {
            prev = Some(self.cmd(cmd, dot, p.line, prev)?);
        }
        Ok(prev.unwrap_or(Value::Nil))
    }

    fn cmd(&self, cmd: &Cmd, dot: &Value, line: usize, prev: Option<Value>) -> R<Value> {
        let (first, rest) = cmd
            .args
            .split_first()
            .ok_or_else(|| self.err(line, "empty command"))?;
        if let Arg::Func(name) = first {
            let mut args = rest
                .iter()
                .map(|a| self.arg(a, dot, line))
                .collect::<R<Vec<_>>>()?;
            args.extend(prev);
            return self.call(name, args, line);
        }
        if !rest.is_empty() || prev.is_some() {
            return Err(self.err(line, "only a function can take arguments"));
        }
        self.arg(first, dot, line)
    }

    fn arg(&self, a: &Arg, dot: &Value, line: usize) -> R<Value> {
        Ok(match a {
            Arg::Str(s) => Value::Str(s.clone()),
            Arg::Int(n) => Value::Int(*n),
            Arg::Bool(b) => Value::Bool(*b),
            Arg::Nil => Value::Nil,
            Arg::Sub(p) => self.pipe(p, dot)?,
            Arg::Func(name) => self.call(name, Vec::new(), line)?,
            Arg::Path(root, fields) => {
                let (start, shown) = match root {
                    Root::Dot => (dot, String::new()),
                    Root::Var(v) if v == "$" => (self.root, "$".to_string()),
                    Root::Var(v) => {
                        return Err(self.err(line, format!("variable {v} is not defined")));
                    }
                };
                self.path(start, fields, shown, line)?
            }
        })
    }

    fn path(&self, start: &Value, fields: &[String], mut shown: String, line: usize) -> R<Value> {
        let mut cur = start.clone();
        for f in fields {
            shown.push('.');
            shown.push_str(f);
            cur = match &cur {
                Value::Map(m) => m.get(f).cloned(),
                Value::Block(Yaml::Mapping(m)) => m.get(f.as_str()).cloned().map(Value::Block),
                other => {
                    return Err(self.err(
                        line,
                        format!("can't read field {f} of {} (in {shown})", kind(other)),
                    ));
                }
            }
            .ok_or_else(|| {
                let what = if shown.matches('.').count() == 1 && !shown.starts_with('$') {
                    "undefined variable"
                } else {
                    "undefined field"
                };
                self.err(
                    line,
                    format!("{what} {shown} (define it under render.vars in the pipeline file)"),
                )
            })?;
        }
        Ok(cur)
    }

    fn call(&self, name: &str, args: Vec<Value>, line: usize) -> R<Value> {
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

    /// Reads `dir/name` and renders it with the same data.
    fn include(&self, dir: &std::path::Path, name: &str, line: usize) -> R<Value> {
        let plain = std::path::Path::new(name)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
        if !plain || name.is_empty() {
            return Err(self.err(
                line,
                format!(
                    "include \"{name}\": only a file name inside {} is allowed",
                    dir.display()
                ),
            ));
        }
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            self.err(
                line,
                format!("include \"{name}\": cannot read {}: {e}", path.display()),
            )
        })?;
        let shown = path.display().to_string();
        super::render_in(&shown, &text, self.root, self.depth + 1).map(Value::Str)
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

/// Go's notion of truth.
pub fn truth(v: &Value) -> bool {
    match v {
        Value::Str(s) => !s.is_empty(),
        Value::Bool(b) => *b,
        Value::Int(n) => *n != 0,
        Value::List(l) => !l.is_empty(),
        Value::Map(m) => !m.is_empty(),
        Value::Files(_) => true,
        Value::Nil => false,
        Value::Block(y) => match y {
            Yaml::Null => false,
            Yaml::Bool(b) => *b,
            Yaml::Number(n) => n.as_f64() != Some(0.0),
            Yaml::String(s) => !s.is_empty(),
            Yaml::Sequence(s) => !s.is_empty(),
            Yaml::Mapping(m) => !m.is_empty(),
            Yaml::Tagged(_) => true,
        },
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

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Str(_) | Value::Block(Yaml::String(_)) => "a string",
        Value::Bool(_) | Value::Block(Yaml::Bool(_)) => "a boolean",
        Value::Int(_) | Value::Block(Yaml::Number(_)) => "a number",
        Value::List(_) | Value::Block(Yaml::Sequence(_)) => "a list",
        Value::Map(_) | Value::Block(Yaml::Mapping(_)) => "a map",
        Value::Files(_) => "a folder of includes",
        Value::Nil | Value::Block(Yaml::Null) => "nil",
        Value::Block(Yaml::Tagged(_)) => "a tagged value",
    }
}

fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Str(_) => "string",
        Value::Bool(_) => "bool",
        _ => "value",
    }
}
