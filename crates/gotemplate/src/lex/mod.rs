//! The lexer: template text → items (text, delimiters and the tokens inside actions), with the
//! byte offset and line of each, following the lexical rules of Go's `text/template/parse`.
//!
//! `{{- ` and ` -}}` trim the text before and after the action of ASCII space, tab, carriage
//! return and newline only (the marker needs one of those beside it, so `{{-3}}` is the number
//! -3). `{{/* … */}}` is a comment. Actions may span lines; quoted strings may not. Numbers are
//! scanned as Go scans them (bases, `_`, fractions, exponents, a trailing `i`) and checked later
//! by the parser. A lexing error is the last item: the parser reports it when it reaches it.
//! Inside an action, the tokens are scanned by [`action`].

mod action;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum It {
    Error,
    Bool,
    Char,
    CharConstant,
    Complex,
    Assign,
    Declare,
    Eof,
    Field,
    Identifier,
    LeftDelim,
    LeftParen,
    Number,
    Pipe,
    RawString,
    RightDelim,
    RightParen,
    Space,
    String,
    Text,
    Variable,
    // Keywords.
    Block,
    Break,
    Continue,
    Dot,
    Define,
    Else,
    End,
    If,
    Nil,
    Range,
    Template,
    With,
}

impl It {
    pub(crate) fn is_keyword(self) -> bool {
        self as u8 >= It::Block as u8
    }
}

/// One lexed item: its type, byte offset, text (the error message for [`It::Error`]) and the
/// line it starts on.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Item {
    pub(crate) typ: It,
    pub(crate) pos: usize,
    pub(crate) val: String,
    pub(crate) line: usize,
}

fn keyword(word: &str) -> Option<It> {
    Some(match word {
        "block" => It::Block,
        "break" => It::Break,
        "continue" => It::Continue,
        "define" => It::Define,
        "else" => It::Else,
        "end" => It::End,
        "if" => It::If,
        "range" => It::Range,
        "nil" => It::Nil,
        "template" => It::Template,
        "with" => It::With,
        _ => return None,
    })
}

const SPACE: &[char] = &[' ', '\t', '\r', '\n'];

pub(crate) fn is_space(c: char) -> bool {
    SPACE.contains(&c)
}

pub(crate) fn is_alnum(c: char) -> bool {
    c == '_' || c.is_alphabetic() || c.is_numeric()
}

fn has_left_trim(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2 && b[0] == b'-' && is_space(b[1] as char)
}

fn has_right_trim(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2 && is_space(b[0] as char) && b[1] == b'-'
}

struct Lexer<'a> {
    input: &'a str,
    pos: usize,
    start: usize,
    line: usize,
    start_line: usize,
    paren_depth: i32,
    items: Vec<Item>,
}

/// Lexes the whole text; the last item is [`It::Eof`] or [`It::Error`].
pub(crate) fn lex(input: &str) -> Vec<Item> {
    let mut l = Lexer {
        input,
        pos: 0,
        start: 0,
        line: 1,
        start_line: 1,
        paren_depth: 0,
        items: Vec::new(),
    };
    l.run();
    l.items
}

enum State {
    Text,
    LeftDelim,
    Comment,
    RightDelim,
    Inside,
    Done,
}

impl Lexer<'_> {
    fn next(&mut self) -> Option<char> {
        let c = self.input[self.pos..].chars().next()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn peek(&self) -> Option<char> {
        self.input[self.pos..].chars().next()
    }

    fn backup(&mut self, c: Option<char>) {
        if let Some(c) = c {
            self.pos -= c.len_utf8();
            if c == '\n' {
                self.line -= 1;
            }
        }
    }

    fn emit(&mut self, typ: It) {
        self.items.push(Item {
            typ,
            pos: self.start,
            val: self.input[self.start..self.pos].to_string(),
            line: self.start_line,
        });
        self.start = self.pos;
        self.start_line = self.line;
    }

    fn ignore(&mut self) {
        self.line += self.input[self.start..self.pos].matches('\n').count();
        self.start = self.pos;
        self.start_line = self.line;
    }

    fn error(&mut self, message: String) -> State {
        self.items.push(Item {
            typ: It::Error,
            pos: self.start,
            val: message,
            line: self.start_line,
        });
        State::Done
    }

    fn accept(&mut self, valid: &str) -> bool {
        match self.peek() {
            Some(c) if valid.contains(c) => {
                self.next();
                true
            }
            _ => false,
        }
    }

    fn accept_run(&mut self, valid: &str) {
        while self.accept(valid) {}
    }

    fn run(&mut self) {
        let mut state = State::Text;
        loop {
            state = match state {
                State::Text => self.text(),
                State::LeftDelim => self.left_delim(),
                State::Comment => self.comment(),
                State::RightDelim => self.right_delim(),
                State::Inside => self.inside(),
                State::Done => return,
            }
        }
    }

    fn text(&mut self) -> State {
        if let Some(x) = self.input[self.pos..].find("{{") {
            self.pos += x;
            let mut trim = 0;
            if has_left_trim(&self.input[self.pos + 2..]) {
                let text = &self.input[self.start..self.pos];
                trim = text.len() - text.trim_end_matches(SPACE).len();
            }
            self.pos -= trim;
            if self.pos > self.start {
                self.line += self.input[self.start..self.pos].matches('\n').count();
                self.emit(It::Text);
            }
            self.pos += trim;
            self.ignore();
            return State::LeftDelim;
        }
        self.pos = self.input.len();
        if self.pos > self.start {
            self.line += self.input[self.start..self.pos].matches('\n').count();
            self.emit(It::Text);
        }
        self.emit(It::Eof);
        State::Done
    }

    /// Whether the input is at `}}` (optionally after a ` -` trim marker).
    fn at_right_delim(&self) -> (bool, bool) {
        let rest = &self.input[self.pos..];
        if has_right_trim(rest) && rest[2..].starts_with("}}") {
            return (true, true);
        }
        (rest.starts_with("}}"), false)
    }

    fn left_delim(&mut self) -> State {
        self.pos += 2;
        let trim = has_left_trim(&self.input[self.pos..]);
        let after = if trim { 2 } else { 0 };
        if self.input[self.pos + after..].starts_with("/*") {
            self.pos += after;
            self.ignore();
            return State::Comment;
        }
        self.emit(It::LeftDelim);
        self.pos += after;
        self.ignore();
        self.paren_depth = 0;
        State::Inside
    }

    fn comment(&mut self) -> State {
        self.pos += 2;
        let Some(i) = self.input[self.pos..].find("*/") else {
            return self.error("unclosed comment".into());
        };
        self.pos += i + 2;
        let (delim, trim) = self.at_right_delim();
        if !delim {
            return self.error("comment ends before closing delimiter".into());
        }
        if trim {
            self.pos += 2;
        }
        self.pos += 2;
        if trim {
            let rest = &self.input[self.pos..];
            self.pos += rest.len() - rest.trim_start_matches(SPACE).len();
        }
        self.ignore();
        State::Text
    }

    fn right_delim(&mut self) -> State {
        let trim = has_right_trim(&self.input[self.pos..]);
        if trim {
            self.pos += 2;
            self.ignore();
        }
        self.pos += 2;
        self.emit(It::RightDelim);
        if trim {
            let rest = &self.input[self.pos..];
            self.pos += rest.len() - rest.trim_start_matches(SPACE).len();
            self.ignore();
        }
        State::Text
    }
}

/// A character as Go's `%#U` prints it: `U+007D '}'`.
pub(crate) fn go_u(c: char) -> String {
    format!("U+{:04X} '{c}'", c as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types(s: &str) -> Vec<It> {
        lex(s).into_iter().map(|i| i.typ).collect()
    }

    #[test]
    fn trims_only_ascii_space() {
        let items = lex("a \u{a0} {{- .X -}} \n b");
        assert_eq!(items[0].val, "a \u{a0}");
        assert_eq!(items.last().unwrap().typ, It::Eof);
        assert_eq!(items[items.len() - 2].val, "b");
    }

    #[test]
    fn minus_number_is_not_a_trim_marker() {
        let items = lex("{{-3}}");
        assert_eq!(items[1].typ, It::Number);
        assert_eq!(items[1].val, "-3");
    }

    #[test]
    fn comments_disappear_and_errors_end_the_items() {
        assert_eq!(types("a{{/* c */}}b"), vec![It::Text, It::Text, It::Eof]);
        let items = lex("x\n{{ .A \"b");
        let last = items.last().unwrap();
        assert_eq!(
            (last.typ, last.val.as_str(), last.line),
            (It::Error, "unterminated quoted string", 2)
        );
    }
}
