//! The lexer: splits template text into literal text and actions, and an action into tokens.
//!
//! It follows Go `text/template`'s surface syntax: `{{` and `}}` delimit actions; `{{- ` and
//! ` -}}` (with the space) trim the whitespace, newlines included, before and after the action;
//! `{{/* … */}}` is a comment. Inside an action: `.`, field chains `.A.B`, variables `$` and
//! `$x.A`, identifiers (keywords and function names), `"…"` and `` `…` `` strings, integers,
//! `true`/`false`/`nil`, `|` and parentheses. Every action records the line it starts on, so
//! later errors can name it.

/// One piece of a template.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    Text(String),
    Action(Action),
}

/// The tokens between `{{` and `}}`, with the 1-based line the action starts on.
#[derive(Debug, Clone, PartialEq)]
pub struct Action {
    pub tokens: Vec<Token>,
    pub line: usize,
}

/// Where a field chain starts.
#[derive(Debug, Clone, PartialEq)]
pub enum Root {
    /// `.`: the current value.
    Dot,
    /// `$` or `$name`.
    Var(String),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    /// `.`, `.A.B`, `$`, `$.A`: a root and the fields read from it.
    Path(Root, Vec<String>),
    Ident(String),
    Str(String),
    Int(i64),
    Bool(bool),
    Nil,
    Pipe,
    LParen,
    RParen,
}

/// A lexing error: the line and what is wrong.
pub type LexError = (usize, String);

/// Splits `text` into pieces, applying trim markers and dropping comments.
pub fn lex(text: &str) -> Result<Vec<Piece>, LexError> {
    let mut pieces: Vec<Piece> = Vec::new();
    let mut rest = text;
    let mut trim_next = false;
    let line_at = |rest: &str| 1 + text[..text.len() - rest.len()].matches('\n').count();
    while let Some(open) = rest.find("{{") {
        push_text(&mut pieces, &rest[..open], trim_next);
        let line = line_at(&rest[open..]);
        let mut body = &rest[open + 2..];
        if body.starts_with("- ") || body.starts_with("-\t") || body.starts_with("-\n") {
            trim_trailing(&mut pieces);
            body = &body[1..];
        }
        let (inner, after, trim_after) = split_action(body, line)?;
        trim_next = trim_after;
        let trimmed = inner.trim();
        if trimmed.starts_with("/*") {
            if !trimmed.ends_with("*/") {
                return Err((line, "a comment must be written {{/* … */}}".into()));
            }
        } else {
            pieces.push(Piece::Action(Action {
                tokens: tokens(inner, line)?,
                line,
            }));
        }
        rest = after;
    }
    push_text(&mut pieces, rest, trim_next);
    Ok(pieces)
}

fn push_text(pieces: &mut Vec<Piece>, text: &str, trim_leading: bool) {
    let text = if trim_leading {
        text.trim_start()
    } else {
        text
    };
    if !text.is_empty() {
        pieces.push(Piece::Text(text.to_string()));
    }
}

fn trim_trailing(pieces: &mut [Piece]) {
    if let Some(Piece::Text(t)) = pieces.last_mut() {
        t.truncate(t.trim_end().len());
    }
}

/// Finds the end of an action starting at `body` (just after `{{` and any left trim marker).
/// Returns the inner text, the text after `}}`, and whether a right trim marker was present.
/// `}}` inside a string literal or a comment does not end the action.
fn split_action(body: &str, line: usize) -> Result<(&str, &str, bool), LexError> {
    let bytes = body.as_bytes();
    let mut i = 0;
    let skip_comment = body.trim_start().starts_with("/*");
    if skip_comment {
        let end = body
            .find("*/")
            .ok_or_else(|| (line, "unclosed comment".to_string()))?;
        i = end + 2;
    }
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'`' => {
                let quote = bytes[i];
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    if quote == b'"' && bytes[i] == b'\\' {
                        i += 1;
                    }
                    if quote == b'"' && bytes.get(i) == Some(&b'\n') {
                        return Err((line, "newline in a string literal".into()));
                    }
                    i += 1;
                }
                if i >= bytes.len() {
                    return Err((line, "unterminated string literal".into()));
                }
                i += 1;
            }
            b'}' if bytes.get(i + 1) == Some(&b'}') => {
                let inner = &body[..i];
                let after = &body[i + 2..];
                if let Some(stripped) = inner.strip_suffix('-')
                    && stripped.ends_with([' ', '\t', '\n'])
                {
                    return Ok((stripped, after, true));
                }
                return Ok((inner, after, false));
            }
            _ => i += 1,
        }
    }
    Err((line, "unclosed action: '{{' without '}}'".into()))
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Tokenises the inside of one action.
fn tokens(inner: &str, line: usize) -> Result<Vec<Token>, LexError> {
    let mut out = Vec::new();
    let chars: Vec<char> = inner.chars().collect();
    let mut i = 0;
    let word = |i: &mut usize| {
        let start = *i;
        while *i < chars.len() && is_ident_char(chars[*i]) {
            *i += 1;
        }
        chars[start..*i].iter().collect::<String>()
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            c if c.is_whitespace() => i += 1,
            '|' => {
                out.push(Token::Pipe);
                i += 1;
            }
            '(' => {
                out.push(Token::LParen);
                i += 1;
            }
            ')' => {
                out.push(Token::RParen);
                i += 1;
            }
            '.' | '$' => {
                let root = if c == '$' {
                    i += 1;
                    Root::Var(format!("${}", word(&mut i)))
                } else {
                    Root::Dot
                };
                let mut fields = Vec::new();
                while i < chars.len() && chars[i] == '.' {
                    i += 1;
                    let name = word(&mut i);
                    if name.is_empty() {
                        if fields.is_empty() && root == Root::Dot {
                            break; // a lone `.`
                        }
                        return Err((line, "a '.' must be followed by a field name".into()));
                    }
                    fields.push(name);
                }
                out.push(Token::Path(root, fields));
            }
            '"' => {
                i += 1;
                let mut s = String::new();
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' {
                        i += 1;
                        s.push(match chars.get(i) {
                            Some('n') => '\n',
                            Some('t') => '\t',
                            Some('r') => '\r',
                            Some('\\') => '\\',
                            Some('"') => '"',
                            other => {
                                return Err((
                                    line,
                                    format!("unsupported escape \\{}", other.unwrap_or(&' ')),
                                ));
                            }
                        });
                    } else {
                        s.push(chars[i]);
                    }
                    i += 1;
                }
                i += 1;
                out.push(Token::Str(s));
            }
            '`' => {
                i += 1;
                let start = i;
                while i < chars.len() && chars[i] != '`' {
                    i += 1;
                }
                out.push(Token::Str(chars[start..i].iter().collect()));
                i += 1;
            }
            c if c.is_ascii_digit()
                || (c == '-' && chars.get(i + 1).is_some_and(char::is_ascii_digit)) =>
            {
                let start = i;
                i += 1;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                let text: String = chars[start..i].iter().collect();
                let n = text
                    .parse()
                    .map_err(|_| (line, format!("bad number {text}")))?;
                out.push(Token::Int(n));
            }
            c if is_ident_char(c) => {
                let w = word(&mut i);
                out.push(match w.as_str() {
                    "true" => Token::Bool(true),
                    "false" => Token::Bool(false),
                    "nil" => Token::Nil,
                    _ => Token::Ident(w),
                });
            }
            other => return Err((line, format!("unexpected character '{other}' in an action"))),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_and_comments() {
        let p = lex("a  \n{{- .X -}}\n  b{{/* c */}}d").unwrap();
        assert_eq!(
            p,
            vec![
                Piece::Text("a".into()),
                Piece::Action(Action {
                    tokens: vec![Token::Path(Root::Dot, vec!["X".into()])],
                    line: 2
                }),
                Piece::Text("b".into()),
                Piece::Text("d".into()),
            ]
        );
    }

    #[test]
    fn strings_may_hold_braces() {
        let p = lex(r#"{{index .M "a}}b"}}"#).unwrap();
        let Piece::Action(a) = &p[0] else { panic!() };
        assert_eq!(a.tokens[2], Token::Str("a}}b".into()));
    }

    #[test]
    fn negative_number_is_not_a_trim_marker() {
        let p = lex("{{-3}}").unwrap();
        let Piece::Action(a) = &p[0] else { panic!() };
        assert_eq!(a.tokens, vec![Token::Int(-3)]);
    }

    #[test]
    fn unclosed_action_names_its_line() {
        assert_eq!(lex("a\n\nb {{ .X").unwrap_err().0, 3);
    }
}
