//! One operand under one verb, with the current flags, width and precision (Go's `pp` and
//! `fmt` types): padding, signs, bases, quoting, and how lists and maps print element by
//! element (`[a b]`, `map[k:v]`, or Go syntax under `%#v`).

use super::float;
use super::quote::{can_backquote, is_print, quote_rune, quote_with};
use crate::template::Value;

#[derive(Default)]
pub(super) struct Printer {
    pub buf: String,
    pub wid: i64,
    pub prec: i64,
    pub wid_present: bool,
    pub prec_present: bool,
    pub minus: bool,
    pub plus: bool,
    pub sharp: bool,
    pub space: bool,
    pub zero: bool,
    pub plus_v: bool,
    pub sharp_v: bool,
    pub good_arg_num: bool,
}

impl Printer {
    pub fn clear_flags(&mut self) {
        self.wid_present = false;
        self.prec_present = false;
        self.minus = false;
        self.plus = false;
        self.sharp = false;
        self.space = false;
        self.zero = false;
        self.plus_v = false;
        self.sharp_v = false;
    }

    fn write_padding(&mut self, n: i64) {
        let c = if self.zero { '0' } else { ' ' };
        for _ in 0..n.max(0) {
            self.buf.push(c);
        }
    }

    fn pad(&mut self, s: &str) {
        if !self.wid_present || self.wid == 0 {
            self.buf.push_str(s);
            return;
        }
        let width = self.wid - s.chars().count() as i64;
        if self.minus {
            self.buf.push_str(s);
            self.write_padding(width);
        } else {
            self.write_padding(width);
            self.buf.push_str(s);
        }
    }

    pub fn print_arg(&mut self, arg: &Value, verb: char) {
        let arg = arg.plain();
        if let Value::Nil = &*arg {
            match verb {
                'T' | 'v' => self.pad("<nil>"),
                _ => self.bad_verb(&arg, verb),
            }
            return;
        }
        if verb == 'T' {
            self.fmt_s(arg.type_name());
            return;
        }
        if verb == 'p' {
            self.bad_verb(&arg, verb);
            return;
        }
        self.print_value(&arg, verb, 0);
    }

    fn bad_verb(&mut self, v: &Value, verb: char) {
        self.buf.push_str("%!");
        self.buf.push(verb);
        self.buf.push('(');
        if let Value::Nil = v {
            self.buf.push_str("<nil>");
        } else {
            self.buf.push_str(v.type_name());
            self.buf.push('=');
            let saved = (
                self.wid_present,
                self.prec_present,
                self.sharp_v,
                self.plus_v,
            );
            self.print_value(v, 'v', 0);
            (
                self.wid_present,
                self.prec_present,
                self.sharp_v,
                self.plus_v,
            ) = saved;
        }
        self.buf.push(')');
    }

    fn print_value(&mut self, v: &Value, verb: char, depth: usize) {
        let plain = v.plain();
        match &*plain {
            Value::Nil => {
                if depth > 0 {
                    if self.sharp_v {
                        self.buf.push_str("interface {}(nil)");
                    } else {
                        self.buf.push_str("<nil>");
                    }
                } else {
                    self.buf.push_str("<invalid reflect.Value>");
                }
            }
            Value::Bool(b) => match verb {
                't' | 'v' => self.pad(if *b { "true" } else { "false" }),
                _ => self.bad_verb(&plain, verb),
            },
            Value::Int(n) => self.fmt_integer(*n as u64, true, verb, &plain),
            Value::Uint8(n) => self.fmt_integer(u64::from(*n), false, verb, &plain),
            Value::Float(f) => self.fmt_float_verb(*f, verb, &plain),
            Value::Str(s) => self.fmt_string(s, verb, &plain),
            Value::Files(p) => self.pad(&p.display().to_string()),
            Value::Block(_) | Value::Map(_) if plain.is_map() => {
                let entries = plain.map_entries().unwrap_or_default();
                if self.sharp_v {
                    self.buf.push_str(plain.type_name());
                    self.buf.push('{');
                } else {
                    self.buf.push_str("map[");
                }
                for (i, (k, val)) in entries.iter().enumerate() {
                    if i > 0 {
                        self.buf.push_str(if self.sharp_v { ", " } else { " " });
                    }
                    self.print_value(&Value::Str(k.clone()), verb, depth + 1);
                    self.buf.push(':');
                    self.print_value(val, verb, depth + 1);
                }
                self.buf.push(if self.sharp_v { '}' } else { ']' });
            }
            _ => {
                let items = plain.list_items().unwrap_or_default();
                if self.sharp_v {
                    self.buf.push_str(plain.type_name());
                    self.buf.push('{');
                } else {
                    self.buf.push('[');
                }
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.buf.push_str(if self.sharp_v { ", " } else { " " });
                    }
                    self.print_value(item, verb, depth + 1);
                }
                self.buf.push(if self.sharp_v { '}' } else { ']' });
            }
        }
    }

    fn fmt_string(&mut self, s: &str, verb: char, v: &Value) {
        match verb {
            'v' if self.sharp_v => self.fmt_q(s),
            'v' | 's' => self.fmt_s(s),
            'x' => self.fmt_sx(s, false),
            'X' => self.fmt_sx(s, true),
            'q' => self.fmt_q(s),
            _ => self.bad_verb(v, verb),
        }
    }

    fn truncate<'s>(&self, s: &'s str) -> &'s str {
        if self.prec_present
            && let Some((i, _)) = s.char_indices().nth(self.prec.max(0) as usize)
        {
            return &s[..i];
        }
        s
    }

    fn fmt_s(&mut self, s: &str) {
        let s = self.truncate(s).to_string();
        self.pad(&s);
    }

    fn fmt_q(&mut self, s: &str) {
        let s = self.truncate(s).to_string();
        if self.sharp && can_backquote(&s) {
            self.pad(&format!("`{s}`"));
            return;
        }
        let q = quote_with(&s, self.plus);
        self.pad(&q);
    }

    fn fmt_sx(&mut self, s: &str, upper: bool) {
        let digits: &[u8] = if upper {
            b"0123456789ABCDEFX"
        } else {
            b"0123456789abcdefx"
        };
        let b = s.as_bytes();
        let mut length = b.len() as i64;
        if self.prec_present && self.prec < length {
            length = self.prec;
        }
        let mut width = 2 * length;
        if width > 0 {
            if self.space {
                if self.sharp {
                    width *= 2;
                }
                width += length - 1;
            } else if self.sharp {
                width += 2;
            }
        } else {
            if self.wid_present {
                self.write_padding(self.wid);
            }
            return;
        }
        if self.wid_present && self.wid > width && !self.minus {
            self.write_padding(self.wid - width);
        }
        if self.sharp {
            self.buf.push('0');
            self.buf.push(digits[16] as char);
        }
        for (i, c) in b.iter().take(length as usize).enumerate() {
            if self.space && i > 0 {
                self.buf.push(' ');
                if self.sharp {
                    self.buf.push('0');
                    self.buf.push(digits[16] as char);
                }
            }
            self.buf.push(digits[(c >> 4) as usize] as char);
            self.buf.push(digits[(c & 0xf) as usize] as char);
        }
        if self.wid_present && self.wid > width && self.minus {
            self.write_padding(self.wid - width);
        }
    }

    fn fmt_integer(&mut self, u: u64, signed: bool, verb: char, v: &Value) {
        match verb {
            'v' if self.sharp_v && !signed => {
                let sharp = self.sharp;
                self.sharp = true;
                self.integer(u, 16, signed, verb, false);
                self.sharp = sharp;
            }
            'v' | 'd' => self.integer(u, 10, signed, verb, false),
            'b' => self.integer(u, 2, signed, verb, false),
            'o' | 'O' => self.integer(u, 8, signed, verb, false),
            'x' => self.integer(u, 16, signed, verb, false),
            'X' => self.integer(u, 16, signed, verb, true),
            'c' => {
                let c = char::from_u32(u as u32)
                    .filter(|_| u <= 0x10ffff)
                    .unwrap_or('\u{fffd}');
                self.pad(&c.to_string());
            }
            'q' => {
                let c = char::from_u32(u as u32)
                    .filter(|_| u <= 0x10ffff)
                    .unwrap_or('\u{fffd}');
                let q = quote_rune(c, self.plus);
                self.pad(&q);
            }
            'U' => self.unicode(u),
            _ => self.bad_verb(v, verb),
        }
    }

    fn unicode(&mut self, u: u64) {
        let mut prec = 4;
        if self.prec_present && self.prec > 4 {
            prec = self.prec as usize;
        }
        let mut s = format!("U+{u:0prec$X}");
        if self.sharp
            && let Some(c) = char::from_u32(u as u32).filter(|c| u <= 0x10ffff && is_print(*c))
        {
            s.push_str(&format!(" '{c}'"));
        }
        let zero = self.zero;
        self.zero = false;
        self.pad(&s);
        self.zero = zero;
    }

    fn integer(&mut self, u: u64, base: u32, signed: bool, verb: char, upper: bool) {
        let negative = signed && (u as i64) < 0;
        let mut u = if negative {
            (u as i64).unsigned_abs()
        } else {
            u
        };
        let mut prec = 0i64;
        if self.prec_present {
            prec = self.prec;
            if prec == 0 && u == 0 {
                let zero = self.zero;
                self.zero = false;
                self.write_padding(self.wid);
                self.zero = zero;
                return;
            }
        } else if self.zero && self.wid_present {
            prec = self.wid;
            if negative || self.plus || self.space {
                prec -= 1;
            }
        }
        let digits: &[u8] = if upper {
            b"0123456789ABCDEFX"
        } else {
            b"0123456789abcdefx"
        };
        let mut rev: Vec<u8> = Vec::new();
        loop {
            rev.push(digits[(u % u64::from(base)) as usize]);
            u /= u64::from(base);
            if u == 0 {
                break;
            }
        }
        while (rev.len() as i64) < prec {
            rev.push(b'0');
        }
        if self.sharp {
            match base {
                2 => rev.extend_from_slice(b"b0"),
                8 if rev.last() != Some(&b'0') => rev.push(b'0'),
                16 => {
                    rev.push(digits[16]);
                    rev.push(b'0');
                }
                _ => {}
            }
        }
        if verb == 'O' {
            rev.extend_from_slice(b"o0");
        }
        if negative {
            rev.push(b'-');
        } else if self.plus {
            rev.push(b'+');
        } else if self.space {
            rev.push(b' ');
        }
        rev.reverse();
        let s = String::from_utf8(rev).unwrap_or_default();
        let zero = self.zero;
        self.zero = false;
        self.pad(&s);
        self.zero = zero;
    }

    fn fmt_float_verb(&mut self, f: f64, verb: char, v: &Value) {
        match verb {
            'v' => self.fmt_float(f, 'g', -1),
            'b' | 'g' | 'G' | 'x' | 'X' => self.fmt_float(f, verb, -1),
            'f' | 'e' | 'E' => self.fmt_float(f, verb, 6),
            'F' => self.fmt_float(f, 'f', 6),
            _ => self.bad_verb(v, verb),
        }
    }

    fn fmt_float(&mut self, v: f64, verb: char, prec: i64) {
        let prec = if self.prec_present { self.prec } else { prec };
        let mut num = float::format(v, verb, prec as i32);
        if !num.starts_with(['-', '+']) {
            num.insert(0, '+');
        }
        if self.space && num.starts_with('+') && !self.plus {
            num.replace_range(0..1, " ");
        }
        if num[1..].starts_with(['I', 'N']) {
            let zero = self.zero;
            self.zero = false;
            if num[1..].starts_with('N') && !self.space && !self.plus {
                num.remove(0);
            }
            self.pad(&num);
            self.zero = zero;
            return;
        }
        if self.sharp && verb != 'b' {
            let mut digits = match verb {
                'v' | 'g' | 'G' | 'x' => {
                    if prec == -1 {
                        6
                    } else {
                        prec
                    }
                }
                _ => 0,
            };
            let mut tail = String::new();
            let mut has_point = false;
            let mut saw_nonzero = false;
            let bytes: Vec<char> = num.chars().collect();
            let mut cut = bytes.len();
            for (i, c) in bytes.iter().enumerate().skip(1) {
                match c {
                    '.' => has_point = true,
                    'p' | 'P' => {
                        tail = bytes[i..].iter().collect();
                        cut = i;
                        break;
                    }
                    'e' | 'E' if verb != 'x' && verb != 'X' => {
                        tail = bytes[i..].iter().collect();
                        cut = i;
                        break;
                    }
                    _ => {
                        if *c != '0' {
                            saw_nonzero = true;
                        }
                        if saw_nonzero {
                            digits -= 1;
                        }
                    }
                }
            }
            let mut head: String = bytes[..cut].iter().collect();
            if !has_point {
                if head.len() == 2 && head.ends_with('0') {
                    digits -= 1;
                }
                head.push('.');
            }
            while digits > 0 {
                head.push('0');
                digits -= 1;
            }
            head.push_str(&tail);
            num = head;
        }
        if self.plus || !num.starts_with('+') {
            if self.zero && self.wid_present && self.wid > num.chars().count() as i64 {
                let sign = num.remove(0);
                self.buf.push(sign);
                self.write_padding(self.wid - num.chars().count() as i64 - 1);
                self.buf.push_str(&num);
                return;
            }
            self.pad(&num);
            return;
        }
        let rest = num[1..].to_string();
        self.pad(&rest);
    }
}
