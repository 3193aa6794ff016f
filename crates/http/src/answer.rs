//! Describing a server's answer in a message: a body that is not the JSON an API promised
//! (an HTML error page from a proxy, plain text), cut to one line, and the wait a
//! `Retry-After` header asks for.

use std::time::Duration;

/// A one-line description of a body that is not JSON.
pub fn describe_non_json(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    if lower.starts_with('<') || lower.contains("<html") {
        let title = lower.find("<title>").and_then(|start| {
            let rest = &text[start + 7..];
            rest.find("</").map(|end| rest[..end].trim().to_string())
        });
        match title {
            Some(t) if !t.is_empty() => format!("an HTML page ('{}')", shorten(&t, 100)),
            _ => "an HTML page".into(),
        }
    } else {
        format!("plain text ('{}')", shorten(text, 120))
    }
}

/// At most `max` characters on one line.
pub fn shorten(s: &str, max: usize) -> String {
    let one_line: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let mut out: String = one_line.chars().take(max).collect();
    if one_line.chars().count() > max {
        out.push('…');
    }
    out
}

/// Reads `Retry-After`: seconds or an HTTP-date ([`crate::retry::retry_after`]).
pub fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let value = headers.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?;
    crate::retry::retry_after(value, std::time::SystemTime::now())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_pages_are_named_by_their_title_and_text_is_cut_to_one_line() {
        assert_eq!(
            describe_non_json("<html><title>502 Bad Gateway</title></html>"),
            "an HTML page ('502 Bad Gateway')"
        );
        assert_eq!(describe_non_json("<p>oops</p>"), "an HTML page");
        assert_eq!(describe_non_json("no\nway"), "plain text ('no way')");
        assert_eq!(shorten("abcdef", 3), "abc…");
    }
}
