//! The parser: lexed pieces → a tree of nodes.
//!
//! Supported control structures are those of Go `text/template` that manifests use:
//! `{{if P}}…{{else if P}}…{{else}}…{{end}}`, `{{with P}}…{{else}}…{{end}}` and
//! `{{range P}}…{{else}}…{{end}}`. A pipeline is commands separated by `|`; the value of each
//! command is passed as the last argument of the next. `define`, `template` and `block` are
//! refused with an error naming the line rather than silently ignored.

use super::lexer::{Action, Piece, Root, Token};

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Text(String),
    /// `{{PIPELINE}}`: print the value.
    Print(Pipe),
    /// `if` / `else if` branches, then the `else` body.
    If {
        branches: Vec<(Pipe, Vec<Node>)>,
        otherwise: Vec<Node>,
    },
    With {
        pipe: Pipe,
        body: Vec<Node>,
        otherwise: Vec<Node>,
    },
    Range {
        pipe: Pipe,
        body: Vec<Node>,
        otherwise: Vec<Node>,
    },
}

/// Commands joined by `|`, with the line they stand on.
#[derive(Debug, Clone, PartialEq)]
pub struct Pipe {
    pub cmds: Vec<Cmd>,
    pub line: usize,
}

/// One command: a function and its arguments, or a single operand.
#[derive(Debug, Clone, PartialEq)]
pub struct Cmd {
    pub args: Vec<Arg>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Path(Root, Vec<String>),
    Func(String),
    Str(String),
    Int(i64),
    Bool(bool),
    Nil,
    Sub(Pipe),
}

pub type ParseError = (usize, String);

/// How a list of nodes ended.
enum Stop {
    Eof,
    End(usize),
    Else(usize, Option<Pipe>),
}

/// Parses the whole template.
pub fn parse(pieces: Vec<Piece>) -> Result<Vec<Node>, ParseError> {
    let mut it = pieces.into_iter();
    let (nodes, end) = parse_list(&mut it)?;
    match end {
        Stop::Eof => Ok(nodes),
        Stop::End(line) => Err((line, "{{end}} without a matching if/with/range".into())),
        Stop::Else(line, _) => Err((line, "{{else}} without a matching if/with/range".into())),
    }
}

fn parse_list(it: &mut impl Iterator<Item = Piece>) -> Result<(Vec<Node>, Stop), ParseError> {
    let mut nodes = Vec::new();
    while let Some(piece) = it.next() {
        let action = match piece {
            Piece::Text(t) => {
                nodes.push(Node::Text(t));
                continue;
            }
            Piece::Action(a) => a,
        };
        let Action { tokens, line } = action;
        let keyword = match tokens.first() {
            Some(Token::Ident(k)) => k.as_str(),
            None => return Err((line, "empty action {{}}".into())),
            _ => "",
        };
        match keyword {
            "end" if tokens.len() == 1 => return Ok((nodes, Stop::End(line))),
            "else" => {
                let rest = &tokens[1..];
                let cond = match rest.first() {
                    None => None,
                    Some(Token::Ident(k)) if k == "if" => Some(pipe(&rest[1..], line)?),
                    _ => return Err((line, "expected {{else}} or {{else if …}}".into())),
                };
                return Ok((nodes, Stop::Else(line, cond)));
            }
            "if" => nodes.push(parse_if(it, pipe(&tokens[1..], line)?)?),
            "with" | "range" => {
                let p = pipe(&tokens[1..], line)?;
                let (body, end) = parse_list(it)?;
                let otherwise = match end {
                    Stop::End(_) => Vec::new(),
                    Stop::Else(l, Some(_)) => {
                        return Err((l, format!("{{{{else if}}}} is not allowed in {keyword}")));
                    }
                    Stop::Else(_, None) => expect_end(it, keyword, line)?,
                    Stop::Eof => return Err(unclosed(keyword, line)),
                };
                nodes.push(if keyword == "with" {
                    Node::With {
                        pipe: p,
                        body,
                        otherwise,
                    }
                } else {
                    Node::Range {
                        pipe: p,
                        body,
                        otherwise,
                    }
                });
            }
            "define" | "template" | "block" | "break" | "continue" | "end" => {
                return Err((
                    line,
                    format!("{{{{{keyword}}}}} is not supported in these templates"),
                ));
            }
            _ => nodes.push(Node::Print(pipe(&tokens, line)?)),
        }
    }
    Ok((nodes, Stop::Eof))
}

fn parse_if(it: &mut impl Iterator<Item = Piece>, first: Pipe) -> Result<Node, ParseError> {
    let line = first.line;
    let mut branches = Vec::new();
    let mut cond = first;
    loop {
        let (body, end) = parse_list(it)?;
        branches.push((cond, body));
        match end {
            Stop::End(_) => {
                return Ok(Node::If {
                    branches,
                    otherwise: Vec::new(),
                });
            }
            Stop::Else(_, Some(next)) => cond = next,
            Stop::Else(_, None) => {
                let otherwise = expect_end(it, "if", line)?;
                return Ok(Node::If {
                    branches,
                    otherwise,
                });
            }
            Stop::Eof => return Err(unclosed("if", line)),
        }
    }
}

/// Parses an `else` body, which must end with `{{end}}`.
fn expect_end(
    it: &mut impl Iterator<Item = Piece>,
    keyword: &str,
    line: usize,
) -> Result<Vec<Node>, ParseError> {
    let (body, end) = parse_list(it)?;
    match end {
        Stop::End(_) => Ok(body),
        Stop::Else(l, _) => Err((
            l,
            format!("a second {{{{else}}}} in the {keyword} of line {line}"),
        )),
        Stop::Eof => Err(unclosed(keyword, line)),
    }
}

fn unclosed(keyword: &str, line: usize) -> ParseError {
    (line, format!("{{{{{keyword}}}}} without {{{{end}}}}"))
}

/// Parses a pipeline: commands separated by `|`.
fn pipe(tokens: &[Token], line: usize) -> Result<Pipe, ParseError> {
    if tokens.is_empty() {
        return Err((line, "missing value in action".into()));
    }
    let mut cmds = Vec::new();
    let mut i = 0;
    loop {
        let mut args = Vec::new();
        while i < tokens.len() && tokens[i] != Token::Pipe {
            let (arg, next) = operand(tokens, i, line)?;
            args.push(arg);
            i = next;
        }
        if args.is_empty() {
            return Err((line, "empty command in pipeline".into()));
        }
        cmds.push(Cmd { args });
        if i >= tokens.len() {
            break;
        }
        i += 1; // the `|`
    }
    Ok(Pipe { cmds, line })
}

/// One operand starting at `i`; returns it and the index after it.
fn operand(tokens: &[Token], i: usize, line: usize) -> Result<(Arg, usize), ParseError> {
    let arg = match &tokens[i] {
        Token::Path(root, fields) => Arg::Path(root.clone(), fields.clone()),
        Token::Ident(name) => Arg::Func(name.clone()),
        Token::Str(s) => Arg::Str(s.clone()),
        Token::Int(n) => Arg::Int(*n),
        Token::Bool(b) => Arg::Bool(*b),
        Token::Nil => Arg::Nil,
        Token::LParen => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match tokens.get(j) {
                    Some(Token::LParen) => depth += 1,
                    Some(Token::RParen) => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    Some(_) => {}
                    None => return Err((line, "unclosed '('".into())),
                }
                j += 1;
            }
            return Ok((Arg::Sub(pipe(&tokens[i + 1..j], line)?), j + 1));
        }
        Token::RParen => return Err((line, "unexpected ')'".into())),
        Token::Pipe => return Err((line, "unexpected '|'".into())),
    };
    Ok((arg, i + 1))
}

#[cfg(test)]
mod tests {
    use super::super::lexer::lex;
    use super::*;

    #[test]
    fn parses_if_else_if_else() {
        let nodes = parse(lex("{{if .A}}a{{else if .B}}b{{else}}c{{end}}").unwrap()).unwrap();
        let Node::If {
            branches,
            otherwise,
        } = &nodes[0]
        else {
            panic!("{nodes:?}")
        };
        assert_eq!(branches.len(), 2);
        assert_eq!(otherwise, &vec![Node::Text("c".into())]);
    }

    #[test]
    fn reports_unbalanced_blocks_with_lines() {
        assert_eq!(parse(lex("\n{{if .A}}x").unwrap()).unwrap_err().0, 2);
        assert_eq!(parse(lex("x\n\n{{end}}").unwrap()).unwrap_err().0, 3);
        assert!(parse(lex("{{template \"x\"}}").unwrap()).is_err());
    }

    #[test]
    fn parses_pipes_and_parentheses() {
        let nodes =
            parse(lex(r#"{{index .M "k" | printf "%s" }}{{not (eq .A "x")}}"#).unwrap()).unwrap();
        let Node::Print(p) = &nodes[0] else { panic!() };
        assert_eq!(p.cmds.len(), 2);
        let Node::Print(p) = &nodes[1] else { panic!() };
        assert!(matches!(p.cmds[0].args[1], Arg::Sub(_)));
    }
}
