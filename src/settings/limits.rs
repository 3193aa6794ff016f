//! The reading limits of bundles: `--max-bundle-bytes`, else `OLM_RELEASE_MAX_BUNDLE_BYTES`,
//! else the default of [`Limits`]. The other limits (depth, entries, ratio) are fixed.

use super::Env;
use crate::error::Problem;
use olm_release_olm::archive::Limits;

/// The variable that sets the largest bundle read when `--max-bundle-bytes` is not given.
const VAR: &str = "OLM_RELEASE_MAX_BUNDLE_BYTES";

/// The limits on every bundle a command reads: `flag` (`--max-bundle-bytes`, already parsed),
/// else the variable, else the defaults. A variable that is not a size is a problem naming it.
pub(crate) fn bundle_limits(flag: Option<u64>, env: &Env) -> Result<Limits, Problem> {
    let max = match (flag, env.get(VAR)) {
        (Some(n), _) => Some(n),
        (None, Some(v)) => Some(parse_size(v).map_err(|e| Problem::new(VAR, e))?),
        (None, None) => None,
    };
    Ok(Limits::with_max_bytes(max))
}

/// `1048576`, `512KiB`, `64MiB`, `1GiB` (also `K`, `M`, `G`, `KB`, `MB`, `GB` as powers of 1024).
pub(crate) fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (n, unit) = t.split_at(digits);
    let not_a_size = || format!("'{s}' is not a size (e.g. 67108864, 64MiB, 1GiB)");
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return Err(not_a_size()),
    };
    let n: u64 = n.parse().map_err(|_| not_a_size())?;
    match n.checked_mul(1 << shift) {
        Some(0) => Err("the size must be more than 0".into()),
        Some(v) => Ok(v),
        None => Err(format!("'{s}' is too large")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_with_binary_suffixes_and_the_flag_wins_over_the_variable() {
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert_eq!(parse_size("64MiB"), Ok(64 << 20));
        assert_eq!(parse_size("2 g"), Ok(2 << 30));
        assert!(parse_size("0").is_err());
        assert!(parse_size("lots").is_err());
        let env: Env = [(VAR.to_string(), "1KiB".to_string())].into();
        assert_eq!(bundle_limits(None, &env).unwrap().max_bytes, 1024);
        assert_eq!(bundle_limits(Some(7), &env).unwrap().max_bytes, 7);
        assert_eq!(bundle_limits(None, &Env::new()).unwrap(), Limits::default());
        let bad: Env = [(VAR.to_string(), "big".to_string())].into();
        assert_eq!(bundle_limits(None, &bad).unwrap_err().at, VAR);
    }
}
