//! Floats as Go's `strconv.FormatFloat` writes them (`%e %E %f %g %G %x %X %b`, shortest or
//! with a precision). The decimal digits come from Rust's own exact formatting (shortest
//! round-trip, or correctly rounded to a number of digits, ties to even as Go rounds); the
//! layout around them (`1e+06`, when `%g` switches to an exponent) follows Go.

/// Decimal digits (no leading zeros, trailing zeros removed) and the position of the decimal
/// point relative to them: the value is `0.DIGITS × 10^dp`.
struct Digits {
    d: Vec<u8>,
    dp: i32,
}

/// Parses Rust's `{:e}` output (`1.2345e6`) into digits.
fn from_sci(s: &str) -> Digits {
    let (mant, exp) = s.split_once('e').unwrap_or((s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut d: Vec<u8> = mant.bytes().filter(u8::is_ascii_digit).collect();
    while d.len() > 1 && d.last() == Some(&b'0') {
        d.pop();
    }
    if d == [b'0'] {
        return Digits {
            d: Vec::new(),
            dp: 0,
        };
    }
    Digits { d, dp: exp + 1 }
}

fn shortest(v: f64) -> Digits {
    from_sci(&format!("{:e}", v.abs()))
}

/// Rounded to `n` (≥ 1) significant digits.
fn significant(v: f64, n: usize) -> Digits {
    from_sci(&format!("{:.*e}", n - 1, v.abs()))
}

/// Rounded to `prec` digits after the decimal point.
fn fixed(v: f64, prec: usize) -> Digits {
    let s = format!("{:.*}", prec, v.abs());
    let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
    let all: Vec<u8> = int.bytes().chain(frac.bytes()).collect();
    let lead = all.iter().take_while(|b| **b == b'0').count();
    let mut d = all[lead..].to_vec();
    while d.last() == Some(&b'0') {
        d.pop();
    }
    if d.is_empty() {
        return Digits { d, dp: 0 };
    }
    Digits {
        d,
        dp: int.len() as i32 - lead as i32,
    }
}

/// `strconv.FormatFloat(v, fmt, prec, 64)`.
pub(crate) fn format(v: f64, fmt: char, prec: i32) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    let neg = v.is_sign_negative();
    match fmt {
        'b' => return fmt_b(v),
        'x' | 'X' => return fmt_x(v, prec, fmt),
        _ => {}
    }
    let short = prec < 0;
    let mut prec = prec;
    let digs = if short {
        let d = shortest(v);
        let nd = d.d.len() as i32;
        prec = match fmt {
            'e' | 'E' => (nd - 1).max(0),
            'f' => (nd - d.dp).max(0),
            _ => nd,
        };
        d
    } else {
        match fmt {
            'e' | 'E' => significant(v, prec as usize + 1),
            'f' => fixed(v, prec as usize),
            _ => {
                if prec == 0 {
                    prec = 1;
                }
                significant(v, prec as usize)
            }
        }
    };
    match fmt {
        'e' | 'E' => fmt_e(neg, &digs, prec, fmt),
        'f' => fmt_f(neg, &digs, prec),
        _ => {
            let nd = digs.d.len() as i32;
            let mut eprec = prec;
            if eprec > nd && nd >= digs.dp {
                eprec = nd;
            }
            if short {
                eprec = 6;
            }
            let exp = digs.dp - 1;
            if exp < -4 || exp >= eprec {
                if prec > nd {
                    prec = nd;
                }
                let e = if fmt == 'G' { 'E' } else { 'e' };
                return fmt_e(neg, &digs, prec - 1, e);
            }
            if prec > digs.dp {
                prec = nd;
            }
            fmt_f(neg, &digs, (prec - digs.dp).max(0))
        }
    }
}

fn fmt_e(neg: bool, d: &Digits, prec: i32, fmt: char) -> String {
    let mut s = String::new();
    if neg {
        s.push('-');
    }
    s.push(d.d.first().map_or('0', |c| *c as char));
    if prec > 0 {
        s.push('.');
        for i in 1..=prec as usize {
            s.push(d.d.get(i).map_or('0', |c| *c as char));
        }
    }
    s.push(fmt);
    let exp = if d.d.is_empty() { 0 } else { d.dp - 1 };
    s.push(if exp < 0 { '-' } else { '+' });
    let exp = exp.abs();
    if exp < 10 {
        s.push('0');
    }
    s.push_str(&exp.to_string());
    s
}

fn fmt_f(neg: bool, d: &Digits, prec: i32) -> String {
    let mut s = String::new();
    if neg {
        s.push('-');
    }
    if d.dp > 0 {
        for i in 0..d.dp as usize {
            s.push(d.d.get(i).map_or('0', |c| *c as char));
        }
    } else {
        s.push('0');
    }
    if prec > 0 {
        s.push('.');
        for i in 0..prec {
            let j = d.dp + i;
            s.push(if j >= 0 {
                d.d.get(j as usize).map_or('0', |c| *c as char)
            } else {
                '0'
            });
        }
    }
    s
}

/// Mantissa and binary exponent as Go's `genericFtoa` computes them.
fn parts(v: f64) -> (bool, u64, i32) {
    let bits = v.to_bits();
    let neg = bits >> 63 != 0;
    let mut exp = ((bits >> 52) & 0x7ff) as i32;
    let mut mant = bits & ((1 << 52) - 1);
    if exp == 0 {
        exp += 1;
    } else {
        mant |= 1 << 52;
    }
    (neg, mant, exp - 1023)
}

fn fmt_b(v: f64) -> String {
    let (neg, mant, exp) = parts(v);
    let exp = exp - 52;
    format!(
        "{}{mant}p{}{exp}",
        if neg { "-" } else { "" },
        if exp >= 0 { "+" } else { "" }
    )
}

fn fmt_x(v: f64, prec: i32, fmt: char) -> String {
    let (neg, mut mant, mut exp) = parts(v);
    if mant == 0 {
        exp = 0;
    }
    mant <<= 60 - 52;
    while mant != 0 && mant & (1 << 60) == 0 {
        mant <<= 1;
        exp -= 1;
    }
    if (0..15).contains(&prec) {
        let shift = (prec * 4) as u32;
        let extra = (mant << shift) & ((1 << 60) - 1);
        mant >>= 60 - shift;
        if extra | (mant & 1) > 1 << 59 {
            mant += 1;
        }
        mant <<= 60 - shift;
        if mant & (1 << 61) != 0 {
            mant >>= 1;
            exp += 1;
        }
    }
    let hex: &[u8] = if fmt == 'X' {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    let mut s = String::new();
    if neg {
        s.push('-');
    }
    s.push('0');
    s.push(fmt);
    s.push((b'0' + ((mant >> 60) & 1) as u8) as char);
    mant <<= 4;
    if prec < 0 && mant != 0 {
        s.push('.');
        while mant != 0 {
            s.push(hex[((mant >> 60) & 15) as usize] as char);
            mant <<= 4;
        }
    } else if prec > 0 {
        s.push('.');
        for _ in 0..prec {
            s.push(hex[((mant >> 60) & 15) as usize] as char);
            mant <<= 4;
        }
    }
    s.push(if fmt == 'X' { 'P' } else { 'p' });
    s.push(if exp < 0 { '-' } else { '+' });
    let exp = exp.abs();
    if exp < 10 {
        s.push('0');
    }
    s.push_str(&exp.to_string());
    s
}

#[cfg(test)]
mod tests {
    use super::format;

    #[test]
    fn like_go() {
        assert_eq!(format(1_000_000.0, 'g', -1), "1e+06");
        assert_eq!(format(123456.0, 'g', -1), "123456");
        assert_eq!(format(0.000012, 'g', -1), "1.2e-05");
        assert_eq!(format(3.5, 'e', 6), "3.500000e+00");
        assert_eq!(format(1.23456, 'f', 2), "1.23");
        assert_eq!(format(2.5, 'f', 0), "2");
        assert_eq!(format(1.0, 'g', 3), "1");
        assert_eq!(format(123456789.0, 'g', 3), "1.23e+08");
        assert_eq!(format(0.0, 'e', -1), "0e+00");
        assert_eq!(format(-0.0, 'g', -1), "-0");
        assert_eq!(format(1.5, 'x', -1), "0x1.8p+00");
        assert_eq!(format(1.0, 'b', -1), "4503599627370496p-52");
    }
}
