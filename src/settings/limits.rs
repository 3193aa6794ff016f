//! The reading limits of bundles: `--max-bundle-bytes`, else `OLM_RELEASE_MAX_BUNDLE_BYTES`,
//! else the default of [`Limits`]. The other limits (depth, entries, ratio) are fixed. The
//! bounds on a catalog image's base: `OLM_RELEASE_MAX_BASE_LAYERS` and
//! `OLM_RELEASE_MAX_BASE_BYTES`, else the defaults of [`BaseLimits`].

use super::inputs::Env;
use crate::error::Problem;
use olm_release_oci::catalog_image::BaseLimits;
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

/// The variable that sets the most layers of a catalog image's base.
const BASE_LAYERS: &str = "OLM_RELEASE_MAX_BASE_LAYERS";
/// The variable that sets the most bytes of a catalog image's base.
const BASE_BYTES: &str = "OLM_RELEASE_MAX_BASE_BYTES";

/// The bounds on a catalog image's base: the variables, else the defaults. A variable that is
/// not a count (or a size) is a problem naming it.
pub(crate) fn base_limits(env: &Env, problems: &mut Vec<Problem>) -> BaseLimits {
    let mut limits = BaseLimits::DEFAULT;
    if let Some(v) = env.get(BASE_LAYERS) {
        match v.trim().parse::<usize>() {
            Ok(n) if n > 0 => limits.max_layers = n,
            _ => problems.push(Problem::new(
                BASE_LAYERS,
                format!("{BASE_LAYERS}={v}: not a count of layers (a whole number above 0)"),
            )),
        }
    }
    if let Some(v) = env.get(BASE_BYTES) {
        match crate::cli::parse_size(v) {
            Ok(n) => limits.max_bytes = n,
            Err(e) => problems.push(Problem::new(BASE_BYTES, e)),
        }
    }
    limits
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

    #[test]
    fn base_limits_come_from_their_variables_else_the_defaults() {
        let mut problems = Vec::new();
        assert_eq!(base_limits(&Env::new(), &mut problems), BaseLimits::DEFAULT);
        let env: Env = [
            (BASE_LAYERS.to_string(), "12".to_string()),
            (BASE_BYTES.to_string(), "1GiB".to_string()),
        ]
        .into();
        let limits = base_limits(&env, &mut problems);
        assert_eq!((limits.max_layers, limits.max_bytes), (12, 1 << 30));
        assert!(problems.is_empty());
        let bad: Env = [
            (BASE_LAYERS.to_string(), "0".to_string()),
            (BASE_BYTES.to_string(), "huge".to_string()),
        ]
        .into();
        assert_eq!(base_limits(&bad, &mut problems), BaseLimits::DEFAULT);
        let at: Vec<_> = problems.iter().map(|p| p.at.as_str()).collect();
        assert_eq!(at, [BASE_LAYERS, BASE_BYTES]);
    }
}
