//! Pipelines and their parts: variable declarations (`$x :=`, `$x =`, `$i, $e :=` in
//! `range`), commands separated by `|`, operands with field chains, and terms (fields,
//! variables, functions checked to exist, literals, parenthesized pipelines).

use super::{Arg, Cmd, Parser, Pipe, R, literal};
use crate::lex::It;

impl Parser<'_> {
    pub(super) fn pipeline(&mut self, context: &str, end: It) -> R<Pipe> {
        let start = self.peek_non_space();
        let mut pipe = Pipe {
            pos: start.pos,
            is_assign: false,
            decl: Vec::new(),
            cmds: Vec::new(),
        };
        loop {
            let v = self.peek_non_space();
            if v.typ != It::Variable {
                break;
            }
            let at = self.next;
            self.next_non_space();
            let next = self.peek_non_space();
            match next.typ {
                It::Assign | It::Declare => {
                    pipe.is_assign = next.typ == It::Assign;
                    self.next_non_space();
                    pipe.decl.push(v.val.clone());
                    self.vars.push(v.val);
                }
                It::Char if next.val == "," => {
                    self.next_non_space();
                    pipe.decl.push(v.val.clone());
                    self.vars.push(v.val);
                    if context == "range" && pipe.decl.len() < 2 {
                        match self.peek_non_space().typ {
                            It::Variable | It::RightDelim | It::RightParen => continue,
                            _ => return self.error("range can only initialize variables"),
                        }
                    }
                    return self.error(format!("too many declarations in {context}"));
                }
                _ => self.next = at,
            }
            break;
        }
        loop {
            let token = self.next_non_space();
            match token.typ {
                t if t == end => {
                    self.check_pipeline(&pipe, context)?;
                    return Ok(pipe);
                }
                It::Bool
                | It::CharConstant
                | It::Complex
                | It::Dot
                | It::Field
                | It::Identifier
                | It::Number
                | It::Nil
                | It::RawString
                | It::String
                | It::Variable
                | It::LeftParen => {
                    self.backup();
                    let cmd = self.command()?;
                    pipe.cmds.push(cmd);
                }
                _ => return self.unexpected(&token, context),
            }
        }
    }

    fn check_pipeline(&self, pipe: &Pipe, context: &str) -> R<()> {
        if pipe.cmds.is_empty() {
            return self.error(format!("missing value for {context}"));
        }
        for (i, c) in pipe.cmds.iter().enumerate().skip(1) {
            if matches!(
                c.args[0],
                Arg::Bool(..) | Arg::Dot(_) | Arg::Nil(_) | Arg::Number(..) | Arg::Str(..)
            ) {
                return Err((
                    c.pos,
                    format!("non executable command in pipeline stage {}", i + 1),
                ));
            }
        }
        Ok(())
    }

    fn command(&mut self) -> R<Cmd> {
        let pos = self.peek_non_space().pos;
        let mut args = Vec::new();
        loop {
            self.peek_non_space();
            if let Some(op) = self.operand()? {
                args.push(op);
            }
            let token = self.next_item();
            match token.typ {
                It::Space => continue,
                It::RightDelim | It::RightParen => self.backup(),
                It::Pipe => {}
                _ => return self.unexpected(&token, "operand"),
            }
            break;
        }
        if args.is_empty() {
            return self.error("empty command");
        }
        Ok(Cmd { pos, args })
    }

    fn operand(&mut self) -> R<Option<Arg>> {
        let Some(node) = self.term()? else {
            return Ok(None);
        };
        if self.peek().typ != It::Field {
            return Ok(Some(node));
        }
        let pos = self.peek().pos;
        let mut fields = Vec::new();
        while self.peek().typ == It::Field {
            fields.push(self.next_item().val[1..].to_string());
        }
        Ok(Some(match node {
            Arg::Field(p, mut idents) => {
                idents.extend(fields);
                Arg::Field(p, idents)
            }
            Arg::Variable(p, mut idents) => {
                idents.extend(fields);
                Arg::Variable(p, idents)
            }
            Arg::Bool(..) | Arg::Str(..) | Arg::Number(..) | Arg::Nil(_) | Arg::Dot(_) => {
                return self.error(format!(
                    "unexpected . after term {}",
                    crate::fmt::quote(&node.to_string())
                ));
            }
            other => Arg::Chain(pos, Box::new(other), fields),
        }))
    }

    fn term(&mut self) -> R<Option<Arg>> {
        let token = self.next_non_space();
        let pos = token.pos;
        Ok(Some(match token.typ {
            It::Identifier => {
                if !(self.has_func)(&token.val) {
                    return self.error(format!(
                        "function {} not defined",
                        crate::fmt::quote(&token.val)
                    ));
                }
                Arg::Ident(pos, token.val)
            }
            It::Dot => Arg::Dot(pos),
            It::Nil => Arg::Nil(pos),
            It::Variable => {
                let idents: Vec<String> = token.val.split('.').map(str::to_string).collect();
                if !self.vars.contains(&idents[0]) {
                    return self.error(format!(
                        "undefined variable {}",
                        crate::fmt::quote(&idents[0])
                    ));
                }
                Arg::Variable(pos, idents)
            }
            It::Field => Arg::Field(pos, vec![token.val[1..].to_string()]),
            It::Bool => Arg::Bool(pos, token.val == "true"),
            It::CharConstant | It::Complex | It::Number => {
                let n = literal::number(&token.val, token.typ == It::CharConstant)
                    .map_err(|e| (pos, e))?;
                Arg::Number(pos, n)
            }
            It::LeftParen => Arg::Pipe(Box::new(
                self.pipeline("parenthesized pipeline", It::RightParen)?,
            )),
            It::String | It::RawString => {
                let s = literal::unquote(&token.val).map_err(|e| (pos, e))?;
                Arg::Str(pos, token.val, s)
            }
            _ => {
                self.backup();
                return Ok(None);
            }
        }))
    }
}
