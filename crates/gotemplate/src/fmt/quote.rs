//! Go's `strconv.Quote` family: `"…"` with Go's escapes (`\a \b \f \n \r \t \v`, `\xNN` below
//! a space, `\u`/`\U` for what is not printable), `'…'` for runes, and whether a string can be
//! written between backquotes.
//!
//! Printable means what Go's `unicode.IsPrint` says: letters, marks, numbers, punctuation,
//! symbols and the ASCII space. Without Unicode category tables, "not printable" here is
//! control characters, separators other than the space, format characters, private use and
//! the non-characters; an unassigned code point counts as printable (Go escapes it).

/// Whether Go's `strconv.IsPrint` holds for `c` (see the module notes).
pub(crate) fn is_print(c: char) -> bool {
    let u = c as u32;
    if u < 0x80 {
        return (0x20..0x7f).contains(&u);
    }
    !(c.is_control()
        || matches!(u,
            0xa0 | 0xad | 0x1680 | 0x2000..=0x200f | 0x2028..=0x202f | 0x205f..=0x2064
            | 0x2066..=0x206f | 0x3000 | 0xd800..=0xf8ff | 0xfeff | 0xfff9..=0xfffb
            | 0xfffe | 0xffff | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x180e
            | 0x110bd | 0x1d173..=0x1d17a | 0xe0001 | 0xe0020..=0xe007f | 0xf0000..)
        || (u & 0xfffe) == 0xfffe)
}

fn escape(out: &mut String, c: char, quote: char, ascii_only: bool) {
    if c == quote || c == '\\' {
        out.push('\\');
        out.push(c);
        return;
    }
    if ascii_only {
        if (c as u32) < 0x80 && is_print(c) {
            out.push(c);
            return;
        }
    } else if is_print(c) {
        out.push(c);
        return;
    }
    match c {
        '\x07' => out.push_str("\\a"),
        '\x08' => out.push_str("\\b"),
        '\x0c' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\x0b' => out.push_str("\\v"),
        c if (c as u32) < 0x20 || c as u32 == 0x7f => {
            out.push_str(&format!("\\x{:02x}", c as u32));
        }
        c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
        c => out.push_str(&format!("\\U{:08x}", c as u32)),
    }
}

/// `strconv.Quote`.
pub(crate) fn quote(s: &str) -> String {
    quote_with(s, false)
}

/// `strconv.Quote` or, with `ascii_only`, `strconv.QuoteToASCII`.
pub(crate) fn quote_with(s: &str, ascii_only: bool) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        escape(&mut out, c, '"', ascii_only);
    }
    out.push('"');
    out
}

/// `strconv.QuoteRune` (or `QuoteRuneToASCII`).
pub(crate) fn quote_rune(c: char, ascii_only: bool) -> String {
    let mut out = String::from("'");
    escape(&mut out, c, '\'', ascii_only);
    out.push('\'');
    out
}

/// `strconv.CanBackquote`.
pub(crate) fn can_backquote(s: &str) -> bool {
    s.chars()
        .all(|c| c != '`' && c != '\u{feff}' && (c == '\t' || !((c as u32) < 0x20 || c == '\x7f')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_like_go() {
        assert_eq!(
            quote("a\"b\\\n\t\x01é\u{a0}😀"),
            r#""a\"b\\\n\t\x01é\u00a0😀""#
        );
        assert_eq!(quote_with("é😀", true), r#""\u00e9\U0001f600""#);
        assert_eq!(quote_rune('\'', false), r"'\''");
        assert!(can_backquote("a\tb") && !can_backquote("a`b") && !can_backquote("a\nb"));
    }
}
