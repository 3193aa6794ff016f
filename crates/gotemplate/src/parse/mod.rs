//! The parser: lexed items → a set of named trees (the template itself, and every `define`d or
//! `block` template), following Go's `text/template/parse` rule for rule, so the same text
//! parses, or fails, as it does in Go.
//!
//! Checked here as in Go: every function named exists (in the builtins, or sprig's when
//! enabled), every variable is declared before use and lives until the `{{end}}` of the
//! control structure that declared it, `break`/`continue` stand inside a `range`, and a
//! template is defined once. One extension: `{{else with …}}` chains `with` blocks as Go 1.23
//! does (Go 1.19 refuses it).

mod literal;
pub(crate) mod node;
mod pipeline;

use std::collections::BTreeMap;

use super::lex::{self, It, Item};
pub(crate) use node::{Arg, Cmd, Control, Node, Pipe};

/// The parsed templates by name.
pub(crate) type Set = BTreeMap<String, Vec<Node>>;

/// A parse error: the byte offset of the item that failed, and Go's message.
pub(crate) type ParseError = (usize, String);

type R<T> = Result<T, ParseError>;

/// What ended a list of nodes.
enum Stop {
    End(usize),
    Else(usize),
    ElseIf(usize),
    ElseWith(usize),
}

struct Parser<'f> {
    items: Vec<Item>,
    next: usize,
    /// The byte offset of the last item read, for errors.
    last: usize,
    vars: Vec<String>,
    range_depth: usize,
    has_func: &'f dyn Fn(&str) -> bool,
    set: Set,
}

/// Parses `text` as the template `name`, with the functions `has_func` accepts.
pub(crate) fn parse(name: &str, text: &str, has_func: &dyn Fn(&str) -> bool) -> R<Set> {
    let mut p = Parser {
        items: lex::lex(text),
        next: 0,
        last: 0,
        vars: vec!["$".into()],
        range_depth: 0,
        has_func,
        set: Set::new(),
    };
    let root = p.parse_top()?;
    p.add(name, root)?;
    Ok(p.set)
}

/// Whether a tree does nothing (only blank text), so a later definition may replace it.
fn is_empty_tree(nodes: &[Node]) -> bool {
    nodes.iter().all(|n| match n {
        Node::Text(t) => t.trim().is_empty(),
        _ => false,
    })
}

fn item_string(i: &Item) -> String {
    match i.typ {
        It::Eof => "EOF".into(),
        It::Error => i.val.clone(),
        t if t.is_keyword() => format!("<{}>", i.val),
        _ if i.val.chars().count() > 10 => {
            let short: String = i.val.chars().take(10).collect();
            format!("{}...", super::fmt::quote(&short))
        }
        _ => super::fmt::quote(&i.val),
    }
}

impl Parser<'_> {
    fn next_item(&mut self) -> Item {
        let i = self.items[self.next.min(self.items.len() - 1)].clone();
        if self.next < self.items.len() {
            self.next += 1;
        }
        self.last = i.pos;
        i
    }

    fn backup(&mut self) {
        self.next -= 1;
    }

    fn peek(&self) -> &Item {
        &self.items[self.next.min(self.items.len() - 1)]
    }

    fn next_non_space(&mut self) -> Item {
        loop {
            let i = self.next_item();
            if i.typ != It::Space {
                return i;
            }
        }
    }

    fn peek_non_space(&mut self) -> Item {
        let i = self.next_non_space();
        self.backup();
        i
    }

    fn error<T>(&self, message: impl Into<String>) -> R<T> {
        Err((self.last, message.into()))
    }

    fn unexpected<T>(&self, item: &Item, context: &str) -> R<T> {
        if item.typ == It::Error {
            return Err((item.pos, item.val.clone()));
        }
        Err((
            item.pos,
            format!("unexpected {} in {context}", item_string(item)),
        ))
    }

    fn expect(&mut self, typ: It, context: &str) -> R<Item> {
        let i = self.next_non_space();
        if i.typ != typ {
            return self.unexpected(&i, context);
        }
        Ok(i)
    }

    fn add(&mut self, name: &str, root: Vec<Node>) -> R<()> {
        match self.set.get(name) {
            Some(existing) if !is_empty_tree(existing) => {
                if !is_empty_tree(&root) {
                    return self.error(format!(
                        "template: multiple definition of template {}",
                        super::fmt::quote(name)
                    ));
                }
            }
            _ => {
                self.set.insert(name.to_string(), root);
            }
        }
        Ok(())
    }

    fn parse_top(&mut self) -> R<Vec<Node>> {
        let mut root = Vec::new();
        while self.peek().typ != It::Eof {
            if self.peek().typ == It::LeftDelim {
                let delim = self.next;
                self.next_item();
                if self.next_non_space().typ == It::Define {
                    self.parse_definition()?;
                    continue;
                }
                self.next = delim;
            }
            match self.text_or_action()? {
                Ok(n) => root.push(n),
                Err(Stop::End(pos)) => return Err((pos, "unexpected {{end}}".into())),
                Err(Stop::Else(pos) | Stop::ElseIf(pos) | Stop::ElseWith(pos)) => {
                    return Err((pos, "unexpected {{else}}".into()));
                }
            }
        }
        Ok(root)
    }

    fn parse_definition(&mut self) -> R<()> {
        let context = "define clause";
        let name_item = self.next_non_space();
        if !matches!(name_item.typ, It::String | It::RawString) {
            return self.unexpected(&name_item, context);
        }
        let name = literal::unquote(&name_item.val).map_err(|e| (name_item.pos, e))?;
        self.expect(It::RightDelim, context)?;
        let saved = std::mem::replace(&mut self.vars, vec!["$".into()]);
        let depth = std::mem::take(&mut self.range_depth);
        let (list, stop) = self.item_list()?;
        self.vars = saved;
        self.range_depth = depth;
        if !matches!(stop, Stop::End(_)) {
            return self.error(format!("unexpected {} in {context}", stop_string(&stop)));
        }
        self.add(&name, list)
    }

    /// Nodes up to an `{{end}}` or `{{else}}`.
    fn item_list(&mut self) -> R<(Vec<Node>, Stop)> {
        let mut list = Vec::new();
        while self.peek_non_space().typ != It::Eof {
            match self.text_or_action()? {
                Ok(n) => list.push(n),
                Err(stop) => return Ok((list, stop)),
            }
        }
        let eof = self.peek_non_space();
        self.last = eof.pos;
        self.error("unexpected EOF")
    }

    fn text_or_action(&mut self) -> R<Result<Node, Stop>> {
        let item = self.next_non_space();
        match item.typ {
            It::Text => Ok(Ok(Node::Text(item.val))),
            It::LeftDelim => self.action(),
            _ => self.unexpected(&item, "input"),
        }
    }

    fn action(&mut self) -> R<Result<Node, Stop>> {
        let item = self.next_non_space();
        let node = match item.typ {
            It::Block => self.block_control()?,
            It::Break | It::Continue => {
                let context = if item.typ == It::Break {
                    "{{break}}"
                } else {
                    "{{continue}}"
                };
                let next = self.next_non_space();
                if next.typ != It::RightDelim {
                    return self.unexpected(&next, context);
                }
                if self.range_depth == 0 {
                    return Err((item.pos, format!("{context} outside {{{{range}}}}")));
                }
                if item.typ == It::Break {
                    Node::Break(item.pos)
                } else {
                    Node::Continue(item.pos)
                }
            }
            It::Else => {
                let peek = self.peek_non_space();
                return Ok(Err(match peek.typ {
                    It::If => Stop::ElseIf(peek.pos),
                    It::With => Stop::ElseWith(peek.pos),
                    _ => Stop::Else(self.expect(It::RightDelim, "else")?.pos),
                }));
            }
            It::End => return Ok(Err(Stop::End(self.expect(It::RightDelim, "end")?.pos))),
            It::If => Node::If(self.control("if")?),
            It::Range => Node::Range(self.control("range")?),
            It::With => Node::With(self.control("with")?),
            It::Template => self.template_control()?,
            _ => {
                self.backup();
                Node::Action(self.pipeline("command", It::RightDelim)?)
            }
        };
        Ok(Ok(node))
    }

    fn control(&mut self, context: &str) -> R<Control> {
        let mark = self.vars.len();
        let pipe = self.pipeline(context, It::RightDelim)?;
        if context == "range" {
            self.range_depth += 1;
        }
        let (list, stop) = self.item_list()?;
        if context == "range" {
            self.range_depth -= 1;
        }
        let else_list = match stop {
            Stop::End(_) => None,
            Stop::ElseIf(pos) if context == "if" => {
                self.next_non_space(); // the `if`
                Some(vec![Node::If(Control {
                    pos,
                    ..self.control("if")?
                })])
            }
            Stop::ElseWith(pos) if context == "with" => {
                self.next_non_space(); // the `with`
                Some(vec![Node::With(Control {
                    pos,
                    ..self.control("with")?
                })])
            }
            Stop::ElseIf(_) | Stop::ElseWith(_) => {
                let item = self.next_non_space();
                return self.unexpected(&item, "input");
            }
            Stop::Else(_) => {
                let (list, stop) = self.item_list()?;
                if !matches!(stop, Stop::End(_)) {
                    return self.error(format!("expected end; found {}", stop_string(&stop)));
                }
                Some(list)
            }
        };
        self.vars.truncate(mark);
        Ok(Control {
            pos: pipe.pos,
            pipe,
            list,
            else_list,
        })
    }

    fn block_control(&mut self) -> R<Node> {
        let context = "block clause";
        let token = self.next_non_space();
        let name = self.template_name(&token, context)?;
        let pipe = self.pipeline(context, It::RightDelim)?;
        let saved = std::mem::replace(&mut self.vars, vec!["$".into()]);
        let depth = std::mem::take(&mut self.range_depth);
        let (list, stop) = self.item_list()?;
        self.vars = saved;
        self.range_depth = depth;
        if !matches!(stop, Stop::End(_)) {
            return self.error(format!("unexpected {} in {context}", stop_string(&stop)));
        }
        self.add(&name, list)?;
        Ok(Node::Template {
            pos: token.pos,
            name,
            pipe: Some(pipe),
        })
    }

    fn template_control(&mut self) -> R<Node> {
        let context = "template clause";
        let token = self.next_non_space();
        let name = self.template_name(&token, context)?;
        let pipe = if self.next_non_space().typ != It::RightDelim {
            self.backup();
            Some(self.pipeline(context, It::RightDelim)?)
        } else {
            None
        };
        Ok(Node::Template {
            pos: token.pos,
            name,
            pipe,
        })
    }

    fn template_name(&self, token: &Item, context: &str) -> R<String> {
        match token.typ {
            It::String | It::RawString => literal::unquote(&token.val).map_err(|e| (token.pos, e)),
            _ => self.unexpected(token, context),
        }
    }
}

fn stop_string(stop: &Stop) -> &'static str {
    match stop {
        Stop::End(_) => "{{end}}",
        _ => "{{else}}",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> R<Set> {
        parse("t", text, &|f| f == "printf")
    }

    #[test]
    fn go_messages() {
        assert_eq!(p("{{.A }").unwrap_err().1, "unexpected \"}\" in operand");
        assert_eq!(p("{{if .A}}x").unwrap_err().1, "unexpected EOF");
        assert_eq!(
            p("{{upper .A}}").unwrap_err().1,
            "function \"upper\" not defined"
        );
        assert_eq!(p("{{$x}}").unwrap_err().1, "undefined variable \"$x\"");
        assert_eq!(p("{{break}}").unwrap_err().1, "{{break}} outside {{range}}");
        assert_eq!(p("{{end}}").unwrap_err().1, "unexpected {{end}}");
        assert_eq!(
            p("{{.A | 3}}").unwrap_err().1,
            "non executable command in pipeline stage 2"
        );
    }

    #[test]
    fn defines_and_blocks_join_the_set() {
        let set = p("{{define \"a\"}}A{{end}}{{block \"b\" .}}B{{end}}x").unwrap();
        assert_eq!(set.keys().collect::<Vec<_>>(), ["a", "b", "t"]);
        assert!(p("{{define \"a\"}}A{{end}}{{define \"a\"}}B{{end}}").is_err());
    }

    #[test]
    fn variables_live_until_end() {
        assert!(p("{{if true}}{{$x := 1}}{{end}}{{$x}}").is_err());
        assert!(p("{{range $i, $e := .}}{{$i}}{{$e}}{{end}}").is_ok());
        assert!(p("{{with $x := 1}}{{else with $y := 2}}{{$x}}{{$y}}{{end}}").is_ok());
    }
}
