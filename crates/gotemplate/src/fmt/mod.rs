//! Go's `fmt` for template values: `print` (`fmt.Sprint`), `println` (`fmt.Sprintln`) and
//! `printf` (`fmt.Sprintf`) with Go's verbs (`%v %+v %#v %T %t %d %b %o %O %x %X %c %q %U %e
//! %E %f %F %g %G %s %%`), flags (`+ - # 0` and space), widths and precisions (also `*` and
//! argument indexes `%[n]`), and Go's in-band errors: `%!d(string=x)` for a wrong verb,
//! `%!d(MISSING)`, `%!(EXTRA string=x)`, `%!(BADINDEX)`, `%!(BADWIDTH)`, `%!(BADPREC)`,
//! `%!(NOVERB)`.

mod float;
mod number;
mod quote;
mod verbs;

pub(crate) use quote::{is_print, quote};

use super::Value;
use verbs::Printer;

/// `fmt.Sprint`: operands separated by a space when neither side is a string.
pub(crate) fn sprint(args: &[Value]) -> String {
    let mut p = Printer::default();
    let mut prev_string = false;
    for (i, a) in args.iter().enumerate() {
        let is_string = matches!(&*a.plain(), Value::Str(_));
        if i > 0 && !is_string && !prev_string {
            p.buf.push(' ');
        }
        p.print_arg(a, 'v');
        prev_string = is_string;
    }
    p.buf
}

/// `fmt.Sprintln`: operands always separated by a space, then a newline.
pub(crate) fn sprintln(args: &[Value]) -> String {
    let mut p = Printer::default();
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            p.buf.push(' ');
        }
        p.print_arg(a, 'v');
    }
    p.buf.push('\n');
    p.buf
}

/// `strconv.FormatFloat(v, fmt, prec, 64)`.
pub(crate) fn float_text(v: f64, fmt: char, prec: i32) -> String {
    float::format(v, fmt, prec)
}

/// A value as `{{.}}` prints it (`fmt.Fprint` of one value).
pub(crate) fn value_text(v: &Value) -> String {
    let mut p = Printer::default();
    p.print_arg(v, 'v');
    p.buf
}

/// Parses a decimal number at `i` (`fmt.parsenum`): value, whether present, next index.
fn parse_num(f: &[u8], mut i: usize) -> (i64, bool, usize) {
    let mut num = 0i64;
    let mut present = false;
    while i < f.len() && f[i].is_ascii_digit() {
        if num > 1_000_000 {
            return (0, false, f.len());
        }
        num = num * 10 + i64::from(f[i] - b'0');
        present = true;
        i += 1;
    }
    (num, present, i)
}

/// `fmt.Sprintf`.
pub(crate) fn sprintf(format: &str, a: &[Value]) -> String {
    let f = format.as_bytes();
    let end = f.len();
    let mut p = Printer::default();
    let mut arg_num = 0usize;
    let mut after_index;
    let mut reordered = false;
    let mut i = 0;
    'format: while i < end {
        let mut good_arg_num = true;
        let last = i;
        while i < end && f[i] != b'%' {
            i += 1;
        }
        if i > last {
            p.buf.push_str(&format[last..i]);
        }
        if i >= end {
            break;
        }
        i += 1;
        p.clear_flags();
        while i < end {
            let c = f[i];
            match c {
                b'#' => p.sharp = true,
                b'0' => p.zero = !p.minus,
                b'+' => p.plus = true,
                b'-' => {
                    p.minus = true;
                    p.zero = false;
                }
                b' ' => p.space = true,
                _ => {
                    if c.is_ascii_lowercase() && arg_num < a.len() {
                        if c == b'v' {
                            p.sharp_v = p.sharp;
                            p.sharp = false;
                            p.plus_v = p.plus;
                            p.plus = false;
                        }
                        p.print_arg(&a[arg_num], c as char);
                        arg_num += 1;
                        i += 1;
                        continue 'format;
                    }
                    break;
                }
            }
            i += 1;
        }
        // Argument index, width.
        let mut arg_index = |p: &mut Printer, arg_num: usize, i: usize| -> (usize, usize, bool) {
            if i >= end || f[i] != b'[' {
                return (arg_num, i, false);
            }
            reordered = true;
            let (index, width, ok) = parse_arg_number(&f[i..]);
            if ok && index < a.len() {
                return (index, i + width, true);
            }
            p.good_arg_num = false;
            (arg_num, i + width, ok)
        };
        p.good_arg_num = true;
        (arg_num, i, after_index) = arg_index(&mut p, arg_num, i);
        if i < end && f[i] == b'*' {
            i += 1;
            let (w, ok, next) = int_from_arg(a, arg_num);
            (p.wid, p.wid_present, arg_num) = (w, ok, next);
            if !ok {
                p.buf.push_str("%!(BADWIDTH)");
            }
            if p.wid < 0 {
                p.wid = -p.wid;
                p.minus = true;
                p.zero = false;
            }
            after_index = false;
        } else {
            let (w, ok, next) = parse_num(f, i);
            (p.wid, p.wid_present, i) = (w, ok, next);
            if after_index && p.wid_present {
                p.good_arg_num = false;
            }
        }
        if i + 1 < end && f[i] == b'.' {
            i += 1;
            if after_index {
                p.good_arg_num = false;
            }
            (arg_num, i, after_index) = arg_index(&mut p, arg_num, i);
            if i < end && f[i] == b'*' {
                i += 1;
                let (pr, ok, next) = int_from_arg(a, arg_num);
                (p.prec, p.prec_present, arg_num) = (pr, ok, next);
                if p.prec < 0 {
                    p.prec = 0;
                    p.prec_present = false;
                }
                if !p.prec_present {
                    p.buf.push_str("%!(BADPREC)");
                }
                after_index = false;
            } else {
                let (pr, ok, next) = parse_num(f, i);
                (p.prec, p.prec_present, i) = (pr, ok, next);
                if !p.prec_present {
                    p.prec = 0;
                    p.prec_present = true;
                }
            }
        }
        if !after_index {
            (arg_num, i, _) = arg_index(&mut p, arg_num, i);
        }
        if i >= end {
            p.buf.push_str("%!(NOVERB)");
            break;
        }
        let verb = format[i..].chars().next().unwrap_or('?');
        i += verb.len_utf8();
        good_arg_num &= p.good_arg_num;
        match verb {
            '%' => p.buf.push('%'),
            _ if !good_arg_num => {
                p.buf.push_str("%!");
                p.buf.push(verb);
                p.buf.push_str("(BADINDEX)");
            }
            _ if arg_num >= a.len() => {
                p.buf.push_str("%!");
                p.buf.push(verb);
                p.buf.push_str("(MISSING)");
            }
            _ => {
                if verb == 'v' {
                    p.sharp_v = p.sharp;
                    p.sharp = false;
                    p.plus_v = p.plus;
                    p.plus = false;
                }
                p.print_arg(&a[arg_num], verb);
                arg_num += 1;
            }
        }
    }
    if !reordered && arg_num < a.len() {
        p.clear_flags();
        p.buf.push_str("%!(EXTRA ");
        for (k, arg) in a[arg_num..].iter().enumerate() {
            if k > 0 {
                p.buf.push_str(", ");
            }
            if matches!(arg, Value::Nil) {
                p.buf.push_str("<nil>");
            } else {
                p.buf.push_str(arg.type_name());
                p.buf.push('=');
                p.print_arg(arg, 'v');
            }
        }
        p.buf.push(')');
    }
    p.buf
}

/// `[n]` at the start of `f`: the zero-based index, the length consumed, whether it parsed.
fn parse_arg_number(f: &[u8]) -> (usize, usize, bool) {
    if f.len() < 3 {
        return (0, 1, false);
    }
    for i in 1..f.len() {
        if f[i] == b']' {
            let (width, ok, next) = parse_num(f, 1);
            if !ok || next != i || width < 1 {
                return (usize::MAX, i + 1, ok && next == i);
            }
            return ((width - 1) as usize, i + 1, true);
        }
    }
    (0, 1, false)
}

/// An integer operand for `*` (`fmt.intFromArg`).
fn int_from_arg(a: &[Value], arg_num: usize) -> (i64, bool, usize) {
    let Some(v) = a.get(arg_num) else {
        return (0, false, arg_num);
    };
    let (n, ok) = match &*v.plain() {
        Value::Int(n) => (*n, true),
        Value::Uint8(n) => (i64::from(*n), true),
        _ => (0, false),
    };
    if !(-1_000_000..=1_000_000).contains(&n) {
        return (0, false, arg_num + 1);
    }
    (n, ok, arg_num + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Value {
        Value::Str(v.into())
    }

    #[test]
    fn printf_like_go() {
        let i = Value::Int;
        assert_eq!(
            sprintf(
                "%5.2f|%-4d|%04d|%x|%X|%o|%b",
                &[
                    Value::Float(1.23456),
                    i(7),
                    i(-7),
                    i(255),
                    s("hi"),
                    i(8),
                    i(5)
                ]
            ),
            " 1.23|7   |-007|ff|6869|10|101"
        );
        assert_eq!(
            sprintf("%q %v %d", &[s("a\"b"), Value::Nil, s("x")]),
            "\"a\\\"b\" <nil> %!d(string=x)"
        );
        assert_eq!(sprintf("%s", &[]), "%!s(MISSING)");
        assert_eq!(sprintf("%s", &[s("a"), i(1)]), "a%!(EXTRA int=1)");
        assert_eq!(sprintf("%[2]s %[1]s", &[s("a"), s("b")]), "b a");
        assert_eq!(
            sprintf("%*d|%.*f", &[i(4), i(1), i(1), Value::Float(2.25)]),
            "   1|2.2"
        );
        assert_eq!(
            sprintf(
                "%T %T %c %U %#U",
                &[i(1), Value::List(vec![]), i(65), i(0x1F600), i(65)]
            ),
            "int []interface {} A U+1F600 U+0041 'A'"
        );
        assert_eq!(
            sprintf("%#v", &[Value::List(vec![i(1), s("a"), Value::Nil])]),
            "[]interface {}{1, \"a\", interface {}(nil)}"
        );
        assert_eq!(sprintf("%!", &[]), "%!!(MISSING)");
        assert_eq!(sprintf("%", &[]), "%!(NOVERB)");
    }

    #[test]
    fn print_spacing() {
        assert_eq!(
            sprint(&[
                Value::Int(1),
                Value::Int(2),
                Value::Str("a".into()),
                Value::Int(3)
            ]),
            "1 2a3"
        );
        assert_eq!(sprintln(&[Value::Int(1), Value::Str("a".into())]), "1 a\n");
    }
}
