//! The executor: walks a parsed template with the data and writes the output, as Go's
//! `text/template` executes it.
//!
//! Variables live on one stack (`$` is the data; `:=` pushes, `=` assigns the nearest of that
//! name); a control structure pops what it pushed when it ends. `range` visits lists in order
//! and maps in key order, setting its one or two variables per turn; `break` and `continue`
//! end a turn or the loop. `{{template "x" P}}` runs `x` with `P` as both `.` and `$`. A value
//! that is missing (an undefined key) is always an error here; Go's `<no value>` appears only
//! where Go prints a nil (`{{index .M "absent"}}`). Evaluation of pipelines, commands and
//! arguments is in [`eval`].

mod eval;
pub(crate) mod state;

pub(crate) use state::Exec;

use super::Error;
use super::error::Location;
use super::parse::{Control, Node, Pipe};
use super::{Data, Value, block};

/// Deepest `{{template}}` nesting (Go allows 100000; a template calling itself without end
/// fails here sooner, with the same message).
const MAX_TEMPLATE_DEPTH: usize = 200;

pub(crate) type R<T> = Result<T, Error>;

/// How a list of nodes ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    Normal,
    Break,
    Continue,
}

impl Exec<'_> {
    /// An execution error at byte `pos`, with the node printed as Go prints it.
    pub(crate) fn fail(
        &self,
        pos: usize,
        context: impl ToString,
        message: impl Into<String>,
    ) -> Error {
        Error::Exec {
            at: Location::at(self.file, self.text, pos),
            template: self.name.clone(),
            context: context.to_string(),
            message: message.into(),
        }
    }

    pub(crate) fn walk(&mut self, dot: &Value, nodes: &[Node], out: &mut String) -> R<Flow> {
        for node in nodes {
            let flow = match node {
                Node::Text(t) => {
                    out.push_str(t);
                    Flow::Normal
                }
                Node::Action(pipe) => {
                    let v = self.eval_pipeline(dot, pipe)?;
                    if pipe.decl.is_empty() {
                        self.print(&v, pipe, out)?;
                    }
                    Flow::Normal
                }
                Node::If(c) => self.if_or_with(dot, c, false, out)?,
                Node::With(c) => self.if_or_with(dot, c, true, out)?,
                Node::Range(c) => self.range(dot, c, node, out)?,
                Node::Template { pos, name, pipe } => {
                    self.template(dot, *pos, name, pipe.as_ref(), node, out)?
                }
                Node::Break(_) => Flow::Break,
                Node::Continue(_) => Flow::Continue,
            };
            if flow != Flow::Normal {
                return Ok(flow);
            }
        }
        Ok(Flow::Normal)
    }

    fn print(&self, v: &Value, pipe: &Pipe, out: &mut String) -> R<()> {
        match v {
            Value::Nil => out.push_str("<no value>"),
            Value::Block(y) => block::emit(out, y)
                .map_err(|e| self.fail(pipe.pos, format!("{{{{{pipe}}}}}"), e))?,
            Value::Files(_) | Value::Texts(_) => {
                return Err(self.fail(
                    pipe.pos,
                    format!("{{{{{pipe}}}}}"),
                    "can't print a folder of includes; index it with a file name",
                ));
            }
            other => out.push_str(&super::fmt::value_text(other)),
        }
        Ok(())
    }

    fn if_or_with(&mut self, dot: &Value, c: &Control, with: bool, out: &mut String) -> R<Flow> {
        let mark = self.vars.len();
        let val = self.eval_pipeline(dot, &c.pipe)?;
        let flow = if val.truth() {
            if with {
                self.walk(&val, &c.list, out)
            } else {
                self.walk(dot, &c.list, out)
            }
        } else if let Some(else_list) = &c.else_list {
            self.walk(dot, else_list, out)
        } else {
            Ok(Flow::Normal)
        };
        self.vars.truncate(mark);
        flow
    }

    fn range(&mut self, dot: &Value, c: &Control, node: &Node, out: &mut String) -> R<Flow> {
        let outer = self.vars.len();
        let val = self.eval_pipeline(dot, &c.pipe)?;
        let mark = self.vars.len();
        let decls = c.pipe.decl.len();
        let items: Vec<(Value, Value)> = if let Some(entries) = val.map_entries() {
            entries
                .into_iter()
                .map(|(k, v)| (Value::Str(k), v))
                .collect()
        } else if let Some(items) = val.list_items() {
            items
                .into_iter()
                .enumerate()
                .map(|(i, v)| (Value::Int(i as i64), v))
                .collect()
        } else if matches!(val, Value::Nil) {
            Vec::new()
        } else {
            let shown = super::fmt::value_text(&val);
            return Err(self.fail(
                c.pos,
                node.context(),
                format!("range can't iterate over {shown}"),
            ));
        };
        let empty = items.is_empty();
        for (index, elem) in items {
            if decls > 0 {
                self.vars[mark - 1].1 = elem.clone();
            }
            if decls > 1 {
                self.vars[mark - 2].1 = index;
            }
            let flow = self.walk(&elem, &c.list, out);
            self.vars.truncate(mark);
            if flow? == Flow::Break {
                break;
            }
        }
        if empty && let Some(else_list) = &c.else_list {
            let flow = self.walk(dot, else_list, out);
            self.vars.truncate(outer);
            return flow;
        }
        self.vars.truncate(outer);
        Ok(Flow::Normal)
    }

    fn template(
        &mut self,
        dot: &Value,
        pos: usize,
        name: &str,
        pipe: Option<&Pipe>,
        node: &Node,
        out: &mut String,
    ) -> R<Flow> {
        let Some(tree) = self.set.get(name) else {
            return Err(self.fail(
                pos,
                node.context(),
                format!("template {} not defined", super::fmt::quote(name)),
            ));
        };
        if self.depth >= MAX_TEMPLATE_DEPTH {
            return Err(self.fail(
                pos,
                node.context(),
                format!("exceeded maximum template depth ({MAX_TEMPLATE_DEPTH})"),
            ));
        }
        let new_dot = match pipe {
            Some(p) => self.eval_pipeline(dot, p)?,
            None => Value::Nil,
        };
        let mut inner = Exec {
            set: self.set,
            file: self.file,
            text: self.text,
            name: name.to_string(),
            data: self.data,
            root: self.root,
            vars: vec![("$".into(), new_dot.clone())],
            depth: self.depth + 1,
            include_depth: self.include_depth,
        };
        inner.walk(&new_dot, tree, out)?;
        Ok(Flow::Normal)
    }
}

impl Exec<'_> {
    /// Reads `dir/name` and, when `render`, renders it as a template with the same data and
    /// functions; otherwise its text is the value.
    pub(crate) fn include(
        &self,
        dir: &std::path::Path,
        name: &str,
        pos: usize,
        render: bool,
    ) -> R<Value> {
        let plain = std::path::Path::new(name)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
        let context = format!("index {}", super::fmt::quote(name));
        if !plain || name.is_empty() {
            return Err(self.fail(
                pos,
                &context,
                format!(
                    "include {}: only a file name inside {} is allowed",
                    super::fmt::quote(name),
                    dir.display()
                ),
            ));
        }
        if self.include_depth >= MAX_INCLUDE_DEPTH {
            return Err(self.fail(
                pos,
                &context,
                format!(
                    "includes nested more than {} deep (does a file include itself?)",
                    MAX_INCLUDE_DEPTH
                ),
            ));
        }
        let path = dir.join(name);
        let max = olm_release_base::input::MAX_FILE_BYTES;
        let text = olm_release_base::input::read_to_string(&path, max).map_err(|source| {
            Error::Include {
                at: Location::at(self.file, self.text, pos),
                name: name.to_string(),
                path: path.clone(),
                source,
            }
        })?;
        if !render {
            return Ok(Value::Str(text));
        }
        let shown = path.display().to_string();
        run(&shown, &text, self.data, self.root, self.include_depth + 1).map(Value::Str)
    }
}

/// Most nested includes allowed (a file including itself would otherwise never end).
pub(crate) const MAX_INCLUDE_DEPTH: usize = 8;

/// Parses and executes `text` (named `name`) with `.` set to `root`; `include_depth` counts the
/// includes this render is nested in.
pub(crate) fn run(
    name: &str,
    text: &str,
    data: &Data,
    root: &Value,
    include_depth: usize,
) -> Result<String, Error> {
    let functions = data.functions;
    let set = crate::parse::parse(name, text, &|f| {
        crate::funcs::lookup(f, functions).is_some()
    })
    .map_err(|(pos, message)| Error::Syntax {
        at: Location::at(name, text, pos),
        message,
    })?;
    let mut out = String::with_capacity(text.len());
    let mut exec = Exec {
        set: &set,
        file: name,
        text,
        name: name.to_string(),
        data,
        root,
        vars: vec![("$".into(), root.clone())],
        depth: 0,
        include_depth,
    };
    exec.walk(root, &set[name], &mut out)?;
    Ok(out)
}
