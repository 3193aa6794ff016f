//! The parse tree, and how each node prints in an error's `at <…>` (as Go prints it).

use std::fmt;

/// A parsed number literal: which Go types it fits and its values in them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Number {
    pub(crate) text: String,
    pub(crate) int: Option<i64>,
    pub(crate) uint: Option<u64>,
    pub(crate) float: Option<f64>,
    pub(crate) complex: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Text(String),
    Action(Pipe),
    If(Control),
    With(Control),
    Range(Control),
    Template {
        pos: usize,
        name: String,
        pipe: Option<Pipe>,
    },
    Break(usize),
    Continue(usize),
}

/// The parts of `if`, `with` and `range`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Control {
    pub(crate) pos: usize,
    pub(crate) pipe: Pipe,
    pub(crate) list: Vec<Node>,
    pub(crate) else_list: Option<Vec<Node>>,
}

/// `$x := cmd | cmd …`
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pipe {
    pub(crate) pos: usize,
    pub(crate) is_assign: bool,
    pub(crate) decl: Vec<String>,
    pub(crate) cmds: Vec<Cmd>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cmd {
    pub(crate) pos: usize,
    pub(crate) args: Vec<Arg>,
}

/// An operand. `Variable` holds the variable name then the fields (`$x.A` → `["$x", "A"]`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Arg {
    Field(usize, Vec<String>),
    Variable(usize, Vec<String>),
    Chain(usize, Box<Arg>, Vec<String>),
    Dot(usize),
    Nil(usize),
    Bool(usize, bool),
    Number(usize, Number),
    /// The literal as written, and its value.
    Str(usize, String, String),
    Ident(usize, String),
    Pipe(Box<Pipe>),
}

impl Arg {
    pub(crate) fn pos(&self) -> usize {
        match self {
            Arg::Field(p, _)
            | Arg::Variable(p, _)
            | Arg::Chain(p, _, _)
            | Arg::Dot(p)
            | Arg::Nil(p)
            | Arg::Bool(p, _)
            | Arg::Number(p, _)
            | Arg::Str(p, _, _)
            | Arg::Ident(p, _) => *p,
            Arg::Pipe(p) => p.pos,
        }
    }
}

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Field(_, idents) => idents.iter().try_for_each(|i| write!(f, ".{i}")),
            Arg::Variable(_, idents) => f.write_str(&idents.join(".")),
            Arg::Chain(_, node, fields) => {
                if matches!(**node, Arg::Pipe(_)) {
                    write!(f, "({node})")?;
                } else {
                    write!(f, "{node}")?;
                }
                fields.iter().try_for_each(|i| write!(f, ".{i}"))
            }
            Arg::Dot(_) => f.write_str("."),
            Arg::Nil(_) => f.write_str("nil"),
            Arg::Bool(_, b) => write!(f, "{b}"),
            Arg::Number(_, n) => f.write_str(&n.text),
            Arg::Str(_, quoted, _) => f.write_str(quoted),
            Arg::Ident(_, name) => f.write_str(name),
            Arg::Pipe(p) => write!(f, "{p}"),
        }
    }
}

impl fmt::Display for Cmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, a) in self.args.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            if let Arg::Pipe(_) = a {
                write!(f, "({a})")?;
            } else {
                write!(f, "{a}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Pipe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.decl.is_empty() {
            f.write_str(&self.decl.join(", "))?;
            f.write_str(if self.is_assign { " = " } else { " := " })?;
        }
        for (i, c) in self.cmds.iter().enumerate() {
            if i > 0 {
                f.write_str(" | ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl Node {
    /// How Go prints a control node in an error context (`{{range .L}}`, `{{template "x"}}`).
    pub(crate) fn context(&self) -> String {
        match self {
            Node::Text(t) => t.clone(),
            Node::Action(p) => format!("{{{{{p}}}}}"),
            Node::If(c) => format!("{{{{if {}}}}}", c.pipe),
            Node::With(c) => format!("{{{{with {}}}}}", c.pipe),
            Node::Range(c) => format!("{{{{range {}}}}}", c.pipe),
            Node::Template { name, pipe, .. } => match pipe {
                Some(p) => format!("{{{{template {} {p}}}}}", super::super::fmt::quote(name)),
                None => format!("{{{{template {}}}}}", super::super::fmt::quote(name)),
            },
            Node::Break(_) => "{{break}}".into(),
            Node::Continue(_) => "{{continue}}".into(),
        }
    }
}
