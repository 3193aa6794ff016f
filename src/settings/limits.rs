//! The reading limits of bundles: `--max-bundle-bytes`, else `OLM_RELEASE_MAX_BUNDLE_BYTES`,
//! else the default of [`Limits`]. The other limits (depth, entries, ratio) are fixed.

use super::inputs::Env;
use crate::error::Problem;
use olm_release_olm::archive::Limits;

/// The variable that sets the largest bundle read when `--max-bundle-bytes` is not given.
const VAR: &str = "OLM_RELEASE_MAX_BUNDLE_BYTES";

/// The limits on every bundle a command reads: `flag` (`--max-bundle-bytes`, already parsed),
/// else the variable, else the defaults. A variable that is not a size is a problem naming it.
pub(crate) fn bundle_limits(flag: Option<u64>, env: &Env) -> Result<Limits, Problem> {
    let max = match (flag, env.get(VAR)) {
        (Some(n), _) => Some(n),
        (None, Some(v)) => Some(crate::cli::parse_size(v).map_err(|e| Problem::new(VAR, e))?),
        (None, None) => None,
    };
    Ok(Limits::with_max_bytes(max))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_with_binary_suffixes_and_the_flag_wins_over_the_variable() {
        use crate::cli::parse_size;
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
