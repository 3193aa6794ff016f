//! Small, allocation-light checks on strings that several rules share: DNS-1123 names, strict
//! and tolerant SemVer, e-mail addresses, URLs, image references and `olm.skipRange` ranges. Hand-written instead of
//! regular expressions so validating a bundle of a hundred CSVs compiles nothing and stays well
//! under a millisecond per CSV.

/// A Kubernetes DNS-1123 subdomain: lowercase alphanumerics, `-` and `.`, each label starting
/// and ending alphanumeric, at most 253 characters.
pub(crate) fn is_dns1123_subdomain(s: &str) -> bool {
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
pub(crate) fn strict_semver(s: &str) -> Option<semver::Version> {
    semver::Version::parse(s).ok()
}

/// A plausible e-mail address: one `@`, a local part, a dotted domain, no spaces.
pub(crate) fn is_email(s: &str) -> bool {
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
pub(crate) fn is_url(s: &str) -> bool {
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

/// Why `s` is not an image reference the kubelet can pull, in the grammar of the
/// distribution project's `reference` package (`[DOMAIN/]PATH[:TAG][@DIGEST]`: a domain with
/// a `.` or a port, or `localhost`; lowercase path components joined by `.`, `_`, `__` or
/// dashes; a tag of at most 128 word characters, `.` and `-`; a digest `ALGORITHM:HEX`), or
/// `None` when it is one. A reference that is not one makes the kubelet report
/// `InvalidImageName`: the pod never starts.
pub fn image_reference_problem(s: &str) -> Option<String> {
    let (rest, digest) = match s.split_once('@') {
        Some((rest, digest)) => (rest, Some(digest)),
        None => (s, None),
    };
    if let Some(d) = digest {
        let ok = d.split_once(':').is_some_and(|(alg, hex)| {
            !alg.is_empty()
                && alg.split(['+', '.', '_', '-']).all(|p| {
                    !p.is_empty()
                        && p.bytes()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                })
                && hex.len() >= 32
                && hex.bytes().all(|c| c.is_ascii_hexdigit())
        });
        if !ok {
            return Some(format!("its digest {d:?} is not ALGORITHM:HEX"));
        }
    }
    // A `:` after the last `/` starts the tag (one before it is a domain's port).
    let (name, tag) = match rest.rfind(':') {
        Some(i) if !rest[i..].contains('/') => (&rest[..i], Some(&rest[i + 1..])),
        _ => (rest, None),
    };
    if let Some(t) = tag {
        let b = t.as_bytes();
        let word = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_';
        if b.is_empty()
            || b.len() > 128
            || !word(&b[0])
            || !b.iter().all(|c| word(c) || *c == b'.' || *c == b'-')
        {
            return Some(format!(
                "its tag {t:?} is not up to 128 letters, digits, '_', '.' and '-' starting with a letter, digit or '_'"
            ));
        }
    }
    if name.is_empty() {
        return Some("it names no repository".into());
    }
    if name.len() > 255 {
        return Some("its name is longer than 255 characters".into());
    }
    let mut parts: Vec<&str> = name.split('/').collect();
    let first = parts[0];
    if parts.len() > 1 && (first.contains(['.', ':']) || first == "localhost") {
        let (host, port) = match first.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (first, None),
        };
        let host_ok = host.split('.').all(|l| {
            let b = l.as_bytes();
            !b.is_empty()
                && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
                && b[0] != b'-'
                && b[b.len() - 1] != b'-'
        });
        let port_ok = port.is_none_or(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()));
        if !host_ok || !port_ok {
            return Some(format!(
                "its registry {first:?} is not a host name with an optional port"
            ));
        }
        parts.remove(0);
    }
    for part in parts {
        if !path_component(part) {
            return Some(format!(
                "its path component {part:?} is not lowercase letters and digits joined by '.', '_', '__' or dashes"
            ));
        }
    }
    None
}

/// A repository path component: `[a-z0-9]+` runs joined by `.`, `_`, `__` or one or more `-`.
fn path_component(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    if b.is_empty() || !alnum(b[0]) || !alnum(b[b.len() - 1]) {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        if alnum(b[i]) {
            i += 1;
            continue;
        }
        // A separator, followed by an alphanumeric (the last byte is one, checked above).
        let start = i;
        while i < b.len() && !alnum(b[i]) {
            i += 1;
        }
        let sep = &s[start..i];
        if !(sep == "." || sep == "_" || sep == "__" || sep.bytes().all(|c| c == b'-')) {
            return false;
        }
    }
    true
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

/// An `olm.skipRange` in the grammar OLM parses it with (blang/semver's `ParseRange`):
/// comparators joined by whitespace (and) and `||` (or). As there, a space after an operator
/// is allowed (`< 0.6.0` is `<0.6.0`), an operator may be `=`, `==`, `!`, `!=`, `>`, `>=`, `<`
/// or `<=` (none means `=`), a version is strict SemVer, and `x` wildcards expand
/// (`1.2.x` is `>=1.2.0 <1.3.0`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Range(Vec<Vec<Comparator>>);

impl Range {
    pub(crate) fn parse(s: &str) -> Result<Range, String> {
        let mut any = Vec::new();
        let mut all = Vec::new();
        let tokens = split_range(s);
        if tokens.is_empty() {
            return Err(format!("'{s}' holds no comparison"));
        }
        for token in &tokens {
            if token == "||" {
                if all.is_empty() {
                    return Err(format!("'{s}' has an empty alternative around ||"));
                }
                any.push(std::mem::take(&mut all));
                continue;
            }
            all.extend(comparators(token)?);
        }
        if all.is_empty() {
            return Err(format!("'{s}' has an empty alternative around ||"));
        }
        any.push(all);
        Ok(Range(any))
    }

    pub(crate) fn contains(&self, v: &semver::Version) -> bool {
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

/// Splits a range at whitespace, except whitespace right after an operator character, and
/// drops the spaces inside each part.
fn split_range(s: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut last = ' ';
    for c in s.chars() {
        if c.is_whitespace() {
            if !matches!(last, '>' | '<' | '=') && !current.is_empty() {
                parts.push(std::mem::take(&mut current));
            }
        } else {
            current.push(c);
            last = c;
        }
    }
    if !current.is_empty() {
        parts.push(current);
    }
    parts
}

/// One part of a range: an operator and a version, the version possibly with `x` wildcards
/// (which expand to one or two comparisons).
fn comparators(part: &str) -> Result<Vec<Comparator>, String> {
    let bad = |why: &str| format!("'{part}' is not a comparison with a version: {why}");
    let Some(i) = part.find(|c: char| c.is_ascii_digit() || c == 'x' || c == 'X' || c == '*')
    else {
        return Err(bad("no version"));
    };
    let (op_text, version) = part.split_at(i);
    let op = match op_text {
        "" | "=" | "==" => Op::Eq,
        "!" | "!=" => Op::Ne,
        ">" => Op::Gt,
        ">=" => Op::Ge,
        "<" => Op::Lt,
        "<=" => Op::Le,
        other => return Err(bad(&format!("'{other}' is not an operator"))),
    };
    let fields: Vec<&str> = version.split('.').collect();
    let wild = |f: &str| matches!(f, "x" | "X" | "*");
    let first_wild = fields.iter().take(3).position(|f| wild(f));
    let Some(w) = first_wild else {
        let version = semver::Version::parse(version).map_err(|e| bad(&e.to_string()))?;
        return Ok(vec![Comparator { op, version }]);
    };
    // `1.x`, `1.2.x`, `x`: the fixed fields, then the lowest version of the wildcard's span
    // and the lowest version above it.
    let fixed: Vec<u64> = fields[..w]
        .iter()
        .map(|f| {
            f.parse::<u64>()
                .map_err(|_| bad("a wildcard version needs numbers before x"))
        })
        .collect::<Result<_, _>>()?;
    if fields.len() > 3 || fields[w..].iter().any(|f| !wild(f)) {
        return Err(bad("only trailing fields may be x"));
    }
    let at = |n: &[u64]| {
        semver::Version::new(
            n.first().copied().unwrap_or(0),
            n.get(1).copied().unwrap_or(0),
            n.get(2).copied().unwrap_or(0),
        )
    };
    let low = at(&fixed);
    let high = match fixed.len() {
        0 => None,
        n => {
            let mut up = fixed.clone();
            up[n - 1] += 1;
            Some(at(&up))
        }
    };
    let c = |op, version| Comparator { op, version };
    Ok(match (op, high) {
        (Op::Eq, None) => vec![c(Op::Ge, low)],
        (Op::Eq, Some(h)) => vec![c(Op::Ge, low), c(Op::Lt, h)],
        (Op::Ne, None) => vec![c(Op::Lt, low)],
        (Op::Ne, Some(h)) => vec![c(Op::Lt, low), c(Op::Ge, h)],
        (Op::Gt | Op::Le, None) => vec![c(if op == Op::Gt { Op::Lt } else { Op::Ge }, low)],
        (Op::Gt, Some(h)) => vec![c(Op::Ge, h)],
        (Op::Le, Some(h)) => vec![c(Op::Lt, h)],
        (Op::Ge, _) => vec![c(Op::Ge, low)],
        (Op::Lt, _) => vec![c(Op::Lt, low)],
    })
}

/// A version as OLM reads `spec.version` (blang/semver's `ParseTolerant`): surrounding spaces
/// and a leading `v` are dropped, a missing minor or patch is 0, leading zeros are dropped.
pub(crate) fn tolerant_semver(s: &str) -> Option<semver::Version> {
    let s = s.trim();
    let s = s.strip_prefix('v').unwrap_or(s);
    let (core, rest) = match s.find(['-', '+']) {
        Some(i) => s.split_at(i),
        None => (s, ""),
    };
    let mut nums: Vec<String> = Vec::new();
    for f in core.split('.') {
        if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let t = f.trim_start_matches('0');
        nums.push(if t.is_empty() { "0".into() } else { t.into() });
    }
    if nums.len() > 3 {
        return None;
    }
    while nums.len() < 3 {
        nums.push("0".into());
    }
    semver::Version::parse(&format!("{}{rest}", nums.join("."))).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(s: &str) -> Option<String> {
        image_reference_problem(s)
    }

    #[test]
    fn image_references_follow_the_distribution_grammar() {
        for ok in [
            "controller:latest",
            "quay.io/example/widget:v0.1.0",
            "registry.redhat.io/openshift4/ose-kube-rbac-proxy@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "localhost:5000/a/b_c__d.e-f--g:1.0",
            "gcr.io/kubebuilder/kube-rbac-proxy:v0.13.1@sha256:0123456789abcdef0123456789abcdef",
            "busybox",
            "Registry.Example.com/x",
        ] {
            assert_eq!(problem(ok), None, "{ok}");
        }
        for (bad, says) in [
            ("$SRIOV_NETWORK_OPERATOR_IMAGE", "path component"),
            ("${IMAGE}:v1", "path component"),
            ("quay.io/Example/widget", "path component"),
            ("quay.io/a/b:", "tag"),
            ("quay.io/a/b:v1 ", "tag"),
            ("quay.io/a/b@sha256:xyz", "digest"),
            ("quay.io:port/a", "registry"),
            ("a//b", "path component"),
            ("", "no repository"),
        ] {
            let p = problem(bad).unwrap_or_else(|| panic!("{bad:?} passed"));
            assert!(p.contains(says), "{bad:?}: {p}");
        }
    }

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
        for bad in [
            ">=1.0 <2.0.0",
            "",
            "soon",
            ">=1.0.0 ||",
            "|| <1.0.0",
            "~1.0.0",
            "v1.0.0",
        ] {
            assert!(Range::parse(bad).is_err(), "{bad}");
        }
        // As OLM reads them: a space after the operator, wildcards.
        let spaced = Range::parse("< 0.6.0").unwrap();
        assert!(spaced.contains(&v("0.5.9")) && !spaced.contains(&v("0.6.0")));
        let wide = Range::parse(">= 4.3.0 < 4.7.0").unwrap();
        assert!(wide.contains(&v("4.6.0")));
        let x = Range::parse("1.2.x").unwrap();
        assert!(x.contains(&v("1.2.7")) && !x.contains(&v("1.3.0")));
        assert!(Range::parse("<0.0.5").unwrap().contains(&v("0.0.5-rc.1")));
    }

    #[test]
    fn tolerant_versions() {
        let t = |s| tolerant_semver(s).map(|v| v.to_string());
        assert_eq!(t("v1.2"), Some("1.2.0".into()));
        assert_eq!(t(" 1.02.3-rc.1 "), Some("1.2.3-rc.1".into()));
        assert_eq!(t("1"), Some("1.0.0".into()));
        assert_eq!(t("soon"), None);
        assert_eq!(t("1.2.3.4"), None);
    }
}
