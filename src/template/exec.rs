//! The executor: walks the parsed tree with the data and writes the output.
//!
//! Field reads never invent a value: a missing variable or key is an error naming the file,
//! the line and the full path (`.Spec.Name`). Truth follows Go: false, 0, nil and empty
//! strings, lists and maps are false. Printing a [`Value::Block`] goes through [`super::block`];
//! the built-in functions live in [`super::funcs`].

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
    pub(super) fn err(&self, line: usize, message: impl Into<String>) -> Error {
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
    pub(super) fn text(&self, v: &Value, line: usize) -> R<String> {
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

    /// Reads `dir/name` and renders it with the same data.
    pub(super) fn include(&self, dir: &std::path::Path, name: &str, line: usize) -> R<Value> {
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

pub(super) fn kind(v: &Value) -> &'static str {
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
