//! One operand under one verb, with the current flags, width and precision (Go's `pp` and
//! `fmt` types): padding, signs, bases, quoting, and how lists and maps print element by
//! element (`[a b]`, `map[k:v]`, or Go syntax under `%#v`).

use super::quote::{can_backquote, quote_with};
use crate::Value;

#[derive(Default)]
pub(super) struct Printer {
    pub(crate) buf: String,
    pub(crate) wid: i64,
    pub(crate) prec: i64,
    pub(crate) wid_present: bool,
    pub(crate) prec_present: bool,
    pub(crate) minus: bool,
    pub(crate) plus: bool,
    pub(crate) sharp: bool,
    pub(crate) space: bool,
    pub(crate) zero: bool,
    pub(crate) plus_v: bool,
    pub(crate) sharp_v: bool,
    pub(crate) good_arg_num: bool,
}

impl Printer {
    pub(crate) fn clear_flags(&mut self) {
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

    pub(super) fn write_padding(&mut self, n: i64) {
        let c = if self.zero { '0' } else { ' ' };
        for _ in 0..n.max(0) {
            self.buf.push(c);
        }
    }

    pub(super) fn pad(&mut self, s: &str) {
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

    pub(crate) fn print_arg(&mut self, arg: &Value, verb: char) {
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

    pub(super) fn bad_verb(&mut self, v: &Value, verb: char) {
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
            Value::Files(p) | Value::Texts(p) => self.pad(&p.display().to_string()),
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
}
