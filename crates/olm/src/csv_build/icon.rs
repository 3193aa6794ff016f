//! The CSV icon: the image file's bytes in standard base64, with the media type read from the
//! bytes themselves (magic numbers), never from the file name or a hard-coded string, since the
//! 2019 CSV schema accepts only `image/gif`, `image/jpeg`, `image/png` and `image/svg+xml` and a
//! wrong type shows a broken image in the console.

use base64::Engine as _;
use serde_yaml_ng::{Mapping, Value};

/// `spec.icon[0]` of a CSV.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Icon {
    pub(crate) base64data: String,
    pub(crate) mediatype: &'static str,
}

impl Icon {
    /// Builds the icon from an image's bytes; `file` names it in errors.
    pub(crate) fn from_bytes(file: &str, bytes: &[u8]) -> Result<Icon, super::CsvError> {
        let mediatype = sniff(bytes).ok_or_else(|| {
            let head: Vec<String> = bytes.iter().take(8).map(|b| format!("{b:02x}")).collect();
            super::CsvError::Icon {
                file: file.into(),
                head: head.join(" "),
            }
        })?;
        Ok(Icon {
            base64data: base64::engine::general_purpose::STANDARD.encode(bytes),
            mediatype,
        })
    }

    pub(crate) fn to_yaml(&self) -> Value {
        let mut m = Mapping::new();
        m.insert("base64data".into(), self.base64data.clone().into());
        m.insert("mediatype".into(), self.mediatype.into());
        Value::Mapping(m)
    }
}

/// The media type of an image, from its first bytes.
pub(crate) fn sniff(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Some("image/png");
    }
    if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        return Some("image/jpeg");
    }
    if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        return Some("image/gif");
    }
    let head = &bytes[..bytes.len().min(4096)];
    let text = std::str::from_utf8(head).ok().or_else(|| {
        // A 4 KiB cut can split a UTF-8 character; retry on the valid prefix.
        std::str::from_utf8(&head[..head.len().saturating_sub(3)]).ok()
    })?;
    let text = text.trim_start_matches('\u{feff}').trim_start();
    if text.starts_with('<') && text.contains("<svg") {
        return Some("image/svg+xml");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_each_format() {
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n...."), Some("image/png"));
        assert_eq!(sniff(&[0xff, 0xd8, 0xff, 0xe0]), Some("image/jpeg"));
        assert_eq!(sniff(b"GIF89a.."), Some("image/gif"));
        assert_eq!(
            sniff(b"<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
            Some("image/svg+xml")
        );
        assert_eq!(sniff(b"<html></html>"), None);
        assert_eq!(sniff(b"PNG but not really"), None);
    }

    #[test]
    fn rejects_unknown_bytes_with_the_file_name() {
        let e = Icon::from_bytes("logo.bmp", b"BM\x00\x00").unwrap_err();
        let e = e.to_string();
        assert!(e.starts_with("logo.bmp:") && e.contains("42 4d"), "{e}");
        let i = Icon::from_bytes("x.gif", b"GIF87a").unwrap();
        assert_eq!(
            (i.mediatype, i.base64data.as_str()),
            ("image/gif", "R0lGODdh")
        );
    }
}
