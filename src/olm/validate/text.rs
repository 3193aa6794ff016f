//! Small, allocation-light checks on strings that several rules share: DNS-1123 names, strict
//! SemVer, `X.Y.Z`, e-mail addresses, URLs and `olm.skipRange` ranges. Hand-written instead of
//! regular expressions so validating a bundle of a hundred CSVs compiles nothing and stays well
//! under a millisecond per CSV.

/// A Kubernetes DNS-1123 subdomain: lowercase alphanumerics, `-` and `.`, each label starting
/// and ending alphanumeric, at most 253 characters.
pub fn is_dns1123_subdomain(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            let b = label.as_bytes();
            !b.is_empty()
                && b.iter()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
                && b[0] != b'-'
                && b[b.len() - 1] != b'-'
        })
}

/// Strict SemVer 2.0 (no `v`, no leading zeros, three numbers).
pub fn strict_semver(s: &str) -> Option<semver::Version> {
    semver::Version::parse(s).ok()
}

/// `X.Y.Z` with plain decimal numbers (no prerelease), as `minKubeVersion` requires.
pub fn is_xyz(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()))
}

/// A plausible e-mail address: one `@`, a local part, a dotted domain, no spaces.
pub fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.contains('@')
        && !s.chars().any(char::is_whitespace)
        && domain.contains('.')
        && domain
            .split('.')
            .all(|l| !l.is_empty() && l.chars().all(|c| c.is_alphanumeric() || c == '-'))
}

/// An absolute URL with an http(s) or ftp scheme and a host, no spaces.
pub fn is_url(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once("://") else {
        return false;
    };
    if !matches!(scheme, "http" | "https" | "ftp" | "ftps") || s.chars().any(char::is_whitespace) {
        return false;
    }
    let host_port = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = host_port.rsplit('@').next().unwrap_or("");
    let host = host.split(':').next().unwrap_or("");
    !host.is_empty()
        && host
            .split('.')
            .all(|l| !l.is_empty() && l.chars().all(|c| c.is_alphanumeric() || c == '-'))
}

/// One comparison of an `olm.skipRange`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Comparator {
    op: Op,
    version: semver::Version,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Gt,
    Ge,
    Lt,
    Le,
}

/// An `olm.skipRange` in the grammar OLM parses (blang/semver ranges): comparators such as
/// `>=1.0.0` joined by spaces (and) and `||` (or).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Range(Vec<Vec<Comparator>>);

impl Range {
    pub fn parse(s: &str) -> Result<Range, String> {
        let mut any = Vec::new();
        for alternative in s.split("||") {
            let mut all = Vec::new();
            for part in alternative.split_whitespace() {
                let (op, rest) = [
                    (">=", Op::Ge),
                    ("<=", Op::Le),
                    ("!=", Op::Ne),
                    ("==", Op::Eq),
                    (">", Op::Gt),
                    ("<", Op::Lt),
                    ("=", Op::Eq),
                    ("!", Op::Ne),
                ]
                .iter()
                .find_map(|(p, op)| part.strip_prefix(p).map(|r| (*op, r)))
                .unwrap_or((Op::Eq, part));
                let version = semver::Version::parse(rest)
                    .map_err(|e| format!("'{part}' is not a comparison with a version: {e}"))?;
                all.push(Comparator { op, version });
            }
            if all.is_empty() {
                return Err(format!("'{s}' has an empty alternative"));
            }
            any.push(all);
        }
        Ok(Range(any))
    }

    pub fn contains(&self, v: &semver::Version) -> bool {
        self.0.iter().any(|all| {
            all.iter().all(|c| {
                let ord = v.cmp_precedence(&c.version);
                use std::cmp::Ordering::*;
                match c.op {
                    Op::Eq => ord == Equal,
                    Op::Ne => ord != Equal,
                    Op::Gt => ord == Greater,
                    Op::Ge => ord != Less,
                    Op::Lt => ord == Less,
                    Op::Le => ord != Greater,
                }
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dns_names() {
        assert!(is_dns1123_subdomain("widget-operator.v1.2.3"));
        assert!(!is_dns1123_subdomain("Widget.v1"));
        assert!(!is_dns1123_subdomain("widget..v1"));
        assert!(!is_dns1123_subdomain("-widget"));
        assert!(!is_dns1123_subdomain("widget_operator"));
    }

    #[test]
    fn semver_is_strict() {
        assert!(strict_semver("1.2.3-rc.0+build.01").is_some());
        for bad in ["v1.2.3", "1.2", "01.2.3", "1.2.3 ", ""] {
            assert!(strict_semver(bad).is_none(), "{bad}");
        }
        assert!(is_xyz("1.11.0"));
        assert!(!is_xyz("1.11") && !is_xyz("v1.11.0") && !is_xyz("1.11.0-rc"));
    }

    #[test]
    fn emails_and_urls() {
        assert!(is_email("a.b@example.com"));
        assert!(!is_email("nobody") && !is_email("a@b") && !is_email("a b@c.d"));
        assert!(is_url("https://example.com/x?y#z"));
        assert!(is_url("http://user@127.0.0.1:8080/"));
        assert!(!is_url("example.com") && !is_url("https://") && !is_url("mailto:x@y.z"));
    }

    #[test]
    fn skip_ranges() {
        let r = Range::parse(">=1.0.0 <1.2.0").unwrap();
        let v = |s| semver::Version::parse(s).unwrap();
        assert!(r.contains(&v("1.0.0")) && r.contains(&v("1.1.9")));
        assert!(!r.contains(&v("1.2.0")) && !r.contains(&v("0.9.0")));
        let or = Range::parse("<1.0.0 || >=2.0.0 !2.1.0").unwrap();
        assert!(or.contains(&v("0.1.0")) && or.contains(&v("2.0.0")));
        assert!(!or.contains(&v("2.1.0")) && !or.contains(&v("1.5.0")));
        for bad in [">=1.0 <2.0.0", "", "soon", ">=1.0.0 ||"] {
            assert!(Range::parse(bad).is_err(), "{bad}");
        }
    }
}
