//! Scanning inside an action: spaces (and the ` -}}` trim marker), punctuation, fields and
//! variables, identifiers and keywords, character constants, numbers and quoted strings, with
//! Go's error messages (`unclosed action`, `bad character U+0023 '#'`, `bad number syntax`).

use super::{It, Lexer, State, go_u, has_right_trim, is_alnum, is_space, keyword};

impl Lexer<'_> {
    pub(super) fn inside(&mut self) -> State {
        let (delim, _) = self.at_right_delim();
        if delim {
            if self.paren_depth == 0 {
                return State::RightDelim;
            }
            return self.error("unclosed left paren".into());
        }
        let Some(c) = self.next() else {
            return self.error("unclosed action".into());
        };
        match c {
            c if is_space(c) => {
                self.backup(Some(c));
                return self.space();
            }
            '=' => self.emit(It::Assign),
            ':' => {
                if self.next() != Some('=') {
                    return self.error("expected :=".into());
                }
                self.emit(It::Declare);
            }
            '|' => self.emit(It::Pipe),
            '"' => return self.quote(),
            '`' => return self.raw_quote(),
            '$' => return self.variable(),
            '\'' => return self.char_constant(),
            '.' if !self.peek().is_some_and(|c| c.is_ascii_digit()) => {
                return self.field_or_variable(It::Field);
            }
            '.' | '+' | '-' | '0'..='9' => {
                self.backup(Some(c));
                return self.number();
            }
            c if is_alnum(c) => {
                self.backup(Some(c));
                return self.identifier();
            }
            '(' => {
                self.emit(It::LeftParen);
                self.paren_depth += 1;
            }
            ')' => {
                self.emit(It::RightParen);
                self.paren_depth -= 1;
                if self.paren_depth < 0 {
                    return self.error(format!("unexpected right paren {}", go_u(c)));
                }
            }
            c if c.is_ascii() && !c.is_ascii_control() => self.emit(It::Char),
            c => {
                return self.error(format!("unrecognized character in action: {}", go_u(c)));
            }
        }
        State::Inside
    }

    fn space(&mut self) -> State {
        let mut n = 0;
        while self.peek().is_some_and(is_space) {
            self.next();
            n += 1;
        }
        let before = self.pos - 1;
        if has_right_trim(&self.input[before..]) && self.input[before + 2..].starts_with("}}") {
            let c = self.input[before..].chars().next();
            self.backup(c);
            if n == 1 {
                return State::RightDelim;
            }
        }
        self.emit(It::Space);
        State::Inside
    }

    fn at_terminator(&self) -> bool {
        match self.peek() {
            None => true,
            Some(c) if is_space(c) => true,
            Some('.' | ',' | '|' | ':' | ')' | '(') => true,
            _ => self.input[self.pos..].starts_with("}}"),
        }
    }

    fn identifier(&mut self) -> State {
        loop {
            let c = self.next();
            if c.is_some_and(is_alnum) {
                continue;
            }
            self.backup(c);
            if !self.at_terminator() {
                return self.error(format!("bad character {}", go_u(c.unwrap_or('\0'))));
            }
            let word = &self.input[self.start..self.pos];
            let typ = match keyword(word) {
                Some(k) => k,
                None if word == "true" || word == "false" => It::Bool,
                None => It::Identifier,
            };
            self.emit(typ);
            return State::Inside;
        }
    }

    fn variable(&mut self) -> State {
        if self.at_terminator() {
            self.emit(It::Variable);
            return State::Inside;
        }
        self.field_or_variable(It::Variable)
    }

    fn field_or_variable(&mut self, typ: It) -> State {
        if self.at_terminator() {
            self.emit(if typ == It::Variable {
                It::Variable
            } else {
                It::Dot
            });
            return State::Inside;
        }
        let mut c;
        loop {
            c = self.next();
            if !c.is_some_and(is_alnum) {
                self.backup(c);
                break;
            }
        }
        if !self.at_terminator() {
            return self.error(format!("bad character {}", go_u(c.unwrap_or('\0'))));
        }
        self.emit(typ);
        State::Inside
    }

    fn char_constant(&mut self) -> State {
        loop {
            match self.next() {
                Some('\\') => match self.next() {
                    None | Some('\n') => {
                        return self.error("unterminated character constant".into());
                    }
                    Some(_) => {}
                },
                None | Some('\n') => return self.error("unterminated character constant".into()),
                Some('\'') => break,
                Some(_) => {}
            }
        }
        self.emit(It::CharConstant);
        State::Inside
    }

    fn number(&mut self) -> State {
        if !self.scan_number() {
            let text = self.input[self.start..self.pos].to_string();
            return self.error(format!("bad number syntax: {}", crate::fmt::quote(&text)));
        }
        if matches!(self.peek(), Some('+' | '-')) {
            if !self.scan_number() || !self.input[..self.pos].ends_with('i') {
                let text = self.input[self.start..self.pos].to_string();
                return self.error(format!("bad number syntax: {}", crate::fmt::quote(&text)));
            }
            self.emit(It::Complex);
        } else {
            self.emit(It::Number);
        }
        State::Inside
    }

    fn scan_number(&mut self) -> bool {
        self.accept("+-");
        let mut digits = "0123456789_";
        if self.accept("0") {
            if self.accept("xX") {
                digits = "0123456789abcdefABCDEF_";
            } else if self.accept("oO") {
                digits = "01234567_";
            } else if self.accept("bB") {
                digits = "01_";
            }
        }
        self.accept_run(digits);
        if self.accept(".") {
            self.accept_run(digits);
        }
        if digits.len() == 11 && self.accept("eE") {
            self.accept("+-");
            self.accept_run("0123456789_");
        }
        if digits.len() == 23 && self.accept("pP") {
            self.accept("+-");
            self.accept_run("0123456789_");
        }
        self.accept("i");
        if self.peek().is_some_and(is_alnum) {
            self.next();
            return false;
        }
        true
    }

    fn quote(&mut self) -> State {
        loop {
            match self.next() {
                Some('\\') => match self.next() {
                    None | Some('\n') => return self.error("unterminated quoted string".into()),
                    Some(_) => {}
                },
                None | Some('\n') => return self.error("unterminated quoted string".into()),
                Some('"') => break,
                Some(_) => {}
            }
        }
        self.emit(It::String);
        State::Inside
    }

    fn raw_quote(&mut self) -> State {
        loop {
            match self.next() {
                None => return self.error("unterminated raw quoted string".into()),
                Some('`') => break,
                Some(_) => {}
            }
        }
        self.emit(It::RawString);
        State::Inside
    }
}
