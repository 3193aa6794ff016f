//! Counted nouns in messages: "1 CSV", "2 CSVs", "0 warnings". A leaf every layer may use, so
//! no message says "1 CRDs" or "warning(s)". Every noun olm-release counts takes a plain `s`.

/// `n` and the noun `one`, plural unless `n` is 1.
pub fn count(n: usize, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(super::count(1, "CSV"), "1 CSV");
        assert_eq!(super::count(0, "warning"), "0 warnings");
        assert_eq!(super::count(2, "CRD"), "2 CRDs");
    }
}
