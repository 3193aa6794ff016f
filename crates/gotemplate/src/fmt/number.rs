//! Numbers under a verb: integers in bases 2, 8, 10 and 16 with signs, `#` prefixes and zero
//! padding, `%c`, `%q` and `%U` of a rune, and floats with Go's sign, `#` and padding rules.

use super::float;
use super::quote::{is_print, quote_rune};
use super::verbs::Printer;
use crate::Value;

impl Printer {
    pub(super) fn fmt_integer(&mut self, u: u64, signed: bool, verb: char, v: &Value) {
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

    pub(super) fn fmt_float_verb(&mut self, f: f64, verb: char, v: &Value) {
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
