//! Literals as Go reads them: numbers (`strconv.ParseInt/ParseUint/ParseFloat` with base 0:
//! `0x`, `0o`, `0b`, a leading `0` for octal, `_` between digits, hexadecimal floats) and
//! quoted strings and characters (`strconv.Unquote`: `\a \b \f \n \r \t \v \\ \' \"`, `\x`,
//! octal, `\u`, `\U`).
//!
//! One difference is deliberate: strings here are UTF-8, so a `\x` or octal escape that leaves
//! invalid UTF-8 (Go would print the raw byte) is refused.

use super::node::Number;

/// Parses a number item as Go's parser does (`newNumber`).
pub(crate) fn number(text: &str, char_constant: bool) -> Result<Number, String> {
    let mut n = Number {
        text: text.to_string(),
        int: None,
        uint: None,
        float: None,
        complex: false,
    };
    if char_constant {
        let (c, tail) = unquote_char(&text[1..], '\'')?;
        if tail != "'" {
            return Err(format!("malformed character constant: {text}"));
        }
        n.int = Some(c as i64);
        n.uint = Some(c as u64);
        n.float = Some(c as u32 as f64);
        return Ok(n);
    }
    if text.ends_with('i') {
        n.complex = true;
        return Ok(n);
    }
    n.uint = parse_uint(text);
    n.int = parse_int(text);
    if n.int == Some(0) {
        n.uint = Some(0);
    }
    if let Some(i) = n.int {
        n.float = Some(i as f64);
    } else if let Some(u) = n.uint {
        n.float = Some(u as f64);
    } else if let Some(f) = parse_float(text) {
        if !text.contains(['.', 'e', 'E', 'p', 'P']) {
            return Err(format!(
                "integer overflow: {}",
                super::super::fmt::quote(text)
            ));
        }
        n.float = Some(f);
        if f.fract() == 0.0 && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f) {
            n.int = Some(f as i64);
        }
        if f.fract() == 0.0 && (0.0..1.844_674_407_370_955_2e19).contains(&f) {
            n.uint = Some(f as u64);
        }
    }
    if n.int.is_none() && n.uint.is_none() && n.float.is_none() {
        return Err(format!(
            "illegal number syntax: {}",
            super::super::fmt::quote(text)
        ));
    }
    Ok(n)
}

/// Whether the underscores in `s` stand only between digits (or after a base prefix).
fn underscore_ok(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    let b = s.as_bytes();
    let mut saw = b'^';
    let mut i = 0;
    let mut hex = false;
    if b.len() >= 2 && b[0] == b'0' && matches!(b[1] | 0x20, b'b' | b'o' | b'x') {
        i = 2;
        saw = b'0';
        hex = b[1] | 0x20 == b'x';
    }
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() || hex && (c | 0x20).is_ascii_hexdigit() {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else {
            if saw == b'_' {
                return false;
            }
            saw = b'!';
        }
        i += 1;
    }
    saw != b'_'
}

fn parse_uint(text: &str) -> Option<u64> {
    if text.starts_with(['+', '-']) || text.is_empty() {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    let (base, digits) = if let Some(r) = lower.strip_prefix("0x") {
        (16, r)
    } else if let Some(r) = lower.strip_prefix("0b") {
        (2, r)
    } else if let Some(r) = lower.strip_prefix("0o") {
        (8, r)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower.as_str())
    };
    if text.contains('_') && !underscore_ok(text) {
        return None;
    }
    let digits: String = digits.chars().filter(|c| *c != '_').collect();
    if digits.is_empty() {
        return None;
    }
    u64::from_str_radix(&digits, base).ok()
}

fn parse_int(text: &str) -> Option<i64> {
    let (neg, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let u = parse_uint(rest)?;
    if neg {
        if u <= 1 << 63 {
            Some((u as i64).wrapping_neg())
        } else {
            None
        }
    } else {
        i64::try_from(u).ok()
    }
}

/// `strconv.ParseFloat(text, 64)` for what the lexer can produce.
fn parse_float(text: &str) -> Option<f64> {
    if text.contains('_') && !underscore_ok(text) {
        return None;
    }
    let clean: String = text.chars().filter(|c| *c != '_').collect();
    let (neg, body) = match clean.as_bytes().first() {
        Some(b'-') => (true, &clean[1..]),
        Some(b'+') => (false, &clean[1..]),
        _ => (false, clean.as_str()),
    };
    let lower = body.to_ascii_lowercase();
    let value = if let Some(hex) = lower.strip_prefix("0x") {
        hex_float(hex)?
    } else {
        if lower.is_empty()
            || !lower
                .bytes()
                .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'+' | b'-'))
        {
            return None;
        }
        lower.parse::<f64>().ok()?
    };
    Some(if neg { -value } else { value })
}

/// A hexadecimal float's digits after `0x`: `1.8p3`; the `p` exponent is required.
fn hex_float(s: &str) -> Option<f64> {
    let (mant, exp) = s.split_once('p')?;
    let exp: i32 = exp.parse().ok()?;
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut value = 0f64;
    for c in int.chars().chain(frac.chars()) {
        value = value * 16.0 + f64::from(c.to_digit(16)?);
    }
    let shift = exp - 4 * frac.len() as i32;
    Some(value * 2f64.powi(shift))
}

/// `strconv.Unquote` for a `"…"` or `` `…` `` literal.
pub(crate) fn unquote(lit: &str) -> Result<String, String> {
    let syntax = || "invalid syntax".to_string();
    if let Some(raw) = lit.strip_prefix('`') {
        let raw = raw.strip_suffix('`').ok_or_else(syntax)?;
        return Ok(raw.replace('\r', ""));
    }
    let mut s = lit
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .ok_or_else(syntax)?;
    let mut bytes = Vec::with_capacity(s.len());
    while !s.is_empty() {
        if s.starts_with('"') {
            return Err(syntax());
        }
        let (piece, rest) = unquote_piece(s, '"')?;
        bytes.extend_from_slice(&piece);
        s = rest;
    }
    String::from_utf8(bytes)
        .map_err(|_| "string literal is not valid UTF-8 (a \\x or octal escape above 0x7f)".into())
}

/// One character of a quoted literal (`strconv.UnquoteChar`), as a rune, and the rest.
fn unquote_char(s: &str, quote: char) -> Result<(char, &str), String> {
    let (bytes, rest) = unquote_piece(s, quote)?;
    let text = std::str::from_utf8(&bytes).map_err(|_| "invalid syntax".to_string())?;
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok((c, rest)),
        _ => Err("invalid syntax".into()),
    }
}

/// The bytes one escape or character stands for, and the rest of `s`.
fn unquote_piece(s: &str, quote: char) -> Result<(Vec<u8>, &str), String> {
    let syntax = || "invalid syntax".to_string();
    let mut chars = s.chars();
    let c = chars.next().ok_or_else(syntax)?;
    if c == quote && quote == '\'' {
        return Err(syntax());
    }
    if c != '\\' {
        let mut buf = [0u8; 4];
        return Ok((c.encode_utf8(&mut buf).as_bytes().to_vec(), chars.as_str()));
    }
    let e = chars.next().ok_or_else(syntax)?;
    let rest = chars.as_str();
    let simple = match e {
        'a' => Some(7u8),
        'b' => Some(8),
        'f' => Some(12),
        'n' => Some(b'\n'),
        'r' => Some(b'\r'),
        't' => Some(b'\t'),
        'v' => Some(11),
        '\\' => Some(b'\\'),
        '\'' | '"' if e == quote => Some(e as u8),
        _ => None,
    };
    if let Some(b) = simple {
        return Ok((vec![b], rest));
    }
    let hex = |n: usize| -> Result<(u32, &str), String> {
        let digits = rest.get(..n).ok_or_else(syntax)?;
        let v = u32::from_str_radix(digits, 16).map_err(|_| syntax())?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(syntax());
        }
        Ok((v, &rest[n..]))
    };
    match e {
        'x' => {
            let (v, r) = hex(2)?;
            if quote == '\'' {
                let c = char::from_u32(v).ok_or_else(syntax)?;
                let mut buf = [0u8; 4];
                return Ok((c.encode_utf8(&mut buf).as_bytes().to_vec(), r));
            }
            Ok((vec![v as u8], r))
        }
        'u' | 'U' => {
            let (v, r) = hex(if e == 'u' { 4 } else { 8 })?;
            let c = char::from_u32(v).ok_or_else(syntax)?;
            let mut buf = [0u8; 4];
            Ok((c.encode_utf8(&mut buf).as_bytes().to_vec(), r))
        }
        '0'..='7' => {
            let digits = s.get(1..4).ok_or_else(syntax)?;
            let v = u32::from_str_radix(digits, 8).map_err(|_| syntax())?;
            if v > 255 || !digits.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
                return Err(syntax());
            }
            if quote == '\'' {
                let c = char::from_u32(v).ok_or_else(syntax)?;
                let mut buf = [0u8; 4];
                return Ok((c.encode_utf8(&mut buf).as_bytes().to_vec(), &s[4..]));
            }
            Ok((vec![v as u8], &s[4..]))
        }
        _ => Err(syntax()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_every_base() {
        assert_eq!(number("010", false).unwrap().int, Some(8));
        assert_eq!(number("0x_1F", false).unwrap().int, Some(31));
        assert_eq!(number("0b101", false).unwrap().int, Some(5));
        assert_eq!(number("0o17", false).unwrap().int, Some(15));
        assert_eq!(number("1_000", false).unwrap().int, Some(1000));
        assert_eq!(number("0x1p4", false).unwrap().float, Some(16.0));
        assert_eq!(number("1e3", false).unwrap().int, Some(1000));
        assert_eq!(number("'a'", true).unwrap().int, Some(97));
        assert_eq!(number("'\\u00e9'", true).unwrap().int, Some(0xe9));
        assert!(
            number("08", false)
                .unwrap_err()
                .contains("integer overflow")
        );
        assert!(number("1__0", false).is_err());
        assert!(number("2i", false).unwrap().complex);
    }

    #[test]
    fn strings_unquote_like_go() {
        assert_eq!(
            unquote(r#""a\tb\x41\u00e9\U0001F600\101""#).unwrap(),
            "a\tbAé😀A"
        );
        assert_eq!(unquote("`a\\n\r`").unwrap(), "a\\n");
        assert!(unquote(r#""\'""#).is_err());
        assert!(unquote(r#""\xff""#).is_err());
        assert_eq!(unquote(r#""\xc3\xa9""#).unwrap(), "é");
    }
}
