//! `semverCompare CONSTRAINT VERSION` as sprig 3.2.3 evaluates it (Masterminds semver 3.2):
//! constraints `=`, `!=`, `>`, `<`, `>=`, `<=`, `~` (same minor), `^` (same major, or minor
//! below 1.0), wildcards `x`, `X`, `*` and missing parts, ranges `A - B`, `,` or space for
//! "and", `||` for "or". A pre-release version matches only a constraint that names a
//! pre-release. Versions are read leniently (`v1.2` is 1.2.0).

use std::cmp::Ordering;

#[derive(Debug, Clone, PartialEq)]
struct Version {
    major: u64,
    minor: u64,
    patch: u64,
    pre: String,
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-'
}

/// Splits `-pre` and `+meta` off `rest`; both must be dot-separated identifiers.
fn pre_meta(rest: &str) -> Option<(String, String)> {
    let (before, meta) = rest.split_once('+').unwrap_or((rest, ""));
    let pre = match before {
        "" => "",
        s => s.strip_prefix('-')?,
    };
    let parts_ok = |s: &str| {
        s.is_empty()
            || s.split('.')
                .all(|p| !p.is_empty() && p.chars().all(is_ident))
    };
    if !parts_ok(pre) || !parts_ok(meta) || (rest.contains('+') && meta.is_empty()) {
        return None;
    }
    if rest.starts_with('-') && pre.is_empty() {
        return None;
    }
    Some((pre.to_string(), meta.to_string()))
}

fn parse_version(s: &str) -> Result<Version, String> {
    let invalid = || "Invalid Semantic Version".to_string();
    let body = s.strip_prefix('v').unwrap_or(s);
    let end = body
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(body.len());
    let (nums, rest) = body.split_at(end);
    let parts: Vec<&str> = nums.split('.').collect();
    if parts.len() > 3 || parts.iter().any(|p| p.is_empty()) {
        return Err(invalid());
    }
    let (pre, _) = pre_meta(rest).ok_or_else(invalid)?;
    if pre
        .split('.')
        .any(|p| p.len() > 1 && p.starts_with('0') && p.chars().all(|c| c.is_ascii_digit()))
    {
        return Err("Version segment starts with 0".into());
    }
    let num = |i: usize| -> Result<u64, String> {
        parts.get(i).map_or(Ok(0), |p| {
            p.parse()
                .map_err(|e| format!("Error parsing version segment: {e}"))
        })
    };
    Ok(Version {
        major: num(0)?,
        minor: num(1)?,
        patch: num(2)?,
        pre,
    })
}

fn compare_pre_part(s: &str, o: &str) -> Ordering {
    if s == o {
        return Ordering::Equal;
    }
    match (s.is_empty(), o.is_empty()) {
        (true, _) => return Ordering::Less,
        (_, true) => return Ordering::Greater,
        _ => {}
    }
    match (s.parse::<u64>(), o.parse::<u64>()) {
        (Ok(a), Ok(b)) => a.cmp(&b).then(Ordering::Less),
        (Ok(_), Err(_)) => Ordering::Less,
        (Err(_), Ok(_)) => Ordering::Greater,
        (Err(_), Err(_)) => {
            if s > o {
                Ordering::Greater
            } else {
                Ordering::Less
            }
        }
    }
}

fn compare(v: &Version, o: &Version) -> Ordering {
    let by_numbers = (v.major, v.minor, v.patch).cmp(&(o.major, o.minor, o.patch));
    if by_numbers != Ordering::Equal {
        return by_numbers;
    }
    match (v.pre.is_empty(), o.pre.is_empty()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => {
            let (a, b): (Vec<&str>, Vec<&str>) =
                (v.pre.split('.').collect(), o.pre.split('.').collect());
            for i in 0..a.len().max(b.len()) {
                let d = compare_pre_part(a.get(i).unwrap_or(&""), b.get(i).unwrap_or(&""));
                if d != Ordering::Equal {
                    return d;
                }
            }
            Ordering::Equal
        }
    }
}

#[derive(Debug)]
struct Constraint {
    op: String,
    con: Version,
    minor_dirty: bool,
    patch_dirty: bool,
    dirty: bool,
}

fn is_x(s: &str) -> bool {
    matches!(s, "x" | "X" | "*")
}

fn parse_constraint(op: &str, cv: &str) -> Result<Constraint, String> {
    let body = cv.strip_prefix('v').unwrap_or(cv);
    let end = body.find(['-', '+']).unwrap_or(body.len());
    let (nums, rest) = body.split_at(end);
    let pre = rest.split('+').next().unwrap_or("");
    let parts: Vec<&str> = nums.split('.').collect();
    let seg = |i: usize| parts.get(i).copied().unwrap_or("");
    let (mut minor_dirty, mut patch_dirty, mut dirty) = (false, false, false);
    let ver = if is_x(seg(0)) || seg(0).is_empty() {
        dirty = true;
        format!("0.0.0{pre}")
    } else if is_x(seg(1)) || seg(1).is_empty() {
        minor_dirty = true;
        dirty = true;
        format!("{}.0.0{pre}", seg(0))
    } else if is_x(seg(2)) || seg(2).is_empty() {
        dirty = true;
        patch_dirty = true;
        format!("{}.{}.0{pre}", seg(0), seg(1))
    } else {
        cv.to_string()
    };
    let con = parse_version(&ver).map_err(|_| "constraint Parser Error".to_string())?;
    Ok(Constraint {
        op: op.to_string(),
        con,
        minor_dirty,
        patch_dirty,
        dirty,
    })
}

impl Constraint {
    fn check(&self, v: &Version) -> bool {
        let c = &self.con;
        if !v.pre.is_empty() && c.pre.is_empty() {
            return false;
        }
        let tilde = || {
            if compare(v, c) == Ordering::Less {
                return false;
            }
            if c.major == 0
                && c.minor == 0
                && c.patch == 0
                && !self.minor_dirty
                && !self.patch_dirty
            {
                return true;
            }
            v.major == c.major && (v.minor == c.minor || self.minor_dirty)
        };
        match self.op.as_str() {
            "" | "=" => {
                if self.dirty {
                    tilde()
                } else {
                    compare(v, c) == Ordering::Equal
                }
            }
            "!=" => {
                if self.dirty {
                    if c.major != v.major {
                        return true;
                    }
                    if self.minor_dirty {
                        return false;
                    }
                    if c.minor != v.minor {
                        return true;
                    }
                    if !self.patch_dirty && c.patch != v.patch {
                        return true;
                    }
                    if self.patch_dirty {
                        return false;
                    }
                }
                compare(v, c) != Ordering::Equal
            }
            ">" => {
                if !self.dirty {
                    return compare(v, c) == Ordering::Greater;
                }
                if v.major != c.major {
                    return v.major > c.major;
                }
                if self.minor_dirty {
                    return false;
                }
                if self.patch_dirty {
                    return v.minor > c.minor;
                }
                compare(v, c) == Ordering::Greater
            }
            "<" => compare(v, c) == Ordering::Less,
            ">=" | "=>" => compare(v, c) != Ordering::Less,
            "<=" | "=<" => {
                if !self.dirty {
                    return compare(v, c) != Ordering::Greater;
                }
                !(v.major > c.major || v.major == c.major && v.minor > c.minor && !self.minor_dirty)
            }
            "~" | "~>" => tilde(),
            _ => {
                // "^"
                if compare(v, c) == Ordering::Less {
                    return false;
                }
                if c.major > 0 || self.minor_dirty {
                    return v.major == c.major;
                }
                if v.major > 0 {
                    return false;
                }
                if c.minor > 0 || self.patch_dirty {
                    return v.minor == c.minor;
                }
                if v.minor > 0 {
                    return false;
                }
                c.patch == v.patch
            }
        }
    }
}

const OPS: [&str; 11] = ["!=", ">=", "=>", "<=", "=<", "~>", ">", "<", "=", "~", "^"];

/// Reads a constraint version (`v1.x.3-pre+meta`) at the start of `s`.
fn take_cv(s: &str) -> Option<(&str, &str)> {
    let mut i = usize::from(s.starts_with('v'));
    let b = s.as_bytes();
    let start = i;
    let part = |c: u8| c.is_ascii_digit() || matches!(c, b'x' | b'X' | b'*' | b'|');
    while i < b.len() && (part(b[i]) || b[i] == b'.') {
        i += 1;
    }
    if i == start {
        return None;
    }
    if i < b.len()
        && (b[i] == b'-' || b[i] == b'+')
        && b.get(i + 1).is_some_and(|c| is_ident(*c as char))
    {
        while i < b.len() && (is_ident(b[i] as char) || matches!(b[i], b'.' | b'+')) {
            i += 1;
        }
    }
    Some(s.split_at(i))
}

fn parse_and(part: &str) -> Result<Vec<Constraint>, String> {
    let improper = || format!("improper constraint: {part}");
    let mut out = Vec::new();
    let mut rest = part.trim();
    while !rest.is_empty() {
        if !out.is_empty() {
            let trimmed = rest.trim_start_matches([' ', '\t', '\n', '\r']);
            let had_space = trimmed.len() < rest.len();
            rest = trimmed;
            if let Some(r) = rest.strip_prefix(',') {
                rest = r.trim_start();
            } else if !had_space {
                return Err(improper());
            }
            if rest.is_empty() {
                return Err(improper());
            }
        }
        let op = OPS
            .iter()
            .find(|op| rest.starts_with(**op))
            .copied()
            .unwrap_or("");
        rest = rest[op.len()..].trim_start();
        let (cv, after) = take_cv(rest).ok_or_else(improper)?;
        rest = after;
        // A hyphen range `A - B` (no operator before A).
        let t = rest.trim_start();
        if op.is_empty()
            && t.len() < rest.len()
            && t.starts_with('-')
            && t[1..].starts_with(char::is_whitespace)
        {
            let (hi, after) = take_cv(t[1..].trim_start()).ok_or_else(improper)?;
            out.push(parse_constraint(">=", cv)?);
            out.push(parse_constraint("<=", hi)?);
            rest = after;
            continue;
        }
        out.push(parse_constraint(op, cv)?);
    }
    if out.is_empty() {
        return Err(improper());
    }
    Ok(out)
}

/// Whether `version` satisfies `constraint`; an error if either does not parse.
pub(super) fn compare_constraint(constraint: &str, version: &str) -> Result<bool, String> {
    let ors = constraint
        .split("||")
        .map(parse_and)
        .collect::<Result<Vec<_>, _>>()?;
    let v = parse_version(version)?;
    Ok(ors.iter().any(|and| and.iter().all(|c| c.check(&v))))
}

#[cfg(test)]
mod tests {
    use super::compare_constraint as c;

    #[test]
    fn constraints_like_masterminds() {
        assert!(c(">=1.2.0", "1.4.2").unwrap());
        assert!(!c(">=1.2.0", "1.4.2-rc.1").unwrap());
        assert!(c(">=1.2.0-0", "1.4.2-rc.1").unwrap());
        assert!(c("~1.4", "1.4.9").unwrap() && !c("~1.4", "1.5.0").unwrap());
        assert!(c("^1.2", "1.9.0").unwrap() && !c("^1.2", "2.0.0").unwrap());
        assert!(c("^0.2.3", "0.2.9").unwrap() && !c("^0.2.3", "0.3.0").unwrap());
        assert!(c("1.2 - 1.4", "1.3.0").unwrap());
        assert!(c("<1.0 || >=2.0", "2.1.0").unwrap());
        assert!(c(">1.0, <2.0", "1.5.0").unwrap());
        assert!(c("1.x", "1.9.9").unwrap());
        assert!(c("!=1.2.3", "1.2.4").unwrap());
        assert!(c("nope", "1.0.0").is_err());
        assert!(c(">=1.0", "one").is_err());
    }
}
