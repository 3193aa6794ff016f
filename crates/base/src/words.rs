//! Counted nouns in messages: "1 CSV", "2 CSVs", "0 warnings", and long lists cut to a few
//! items with the count of the rest ("a, b, c and 397 more"). A leaf every layer may use, so
//! no message says "1 CRDs" or "warning(s)", and none lists 400 names. Every noun olm-release
//! counts takes a plain `s`.

/// `n` and the noun `one`, plural unless `n` is 1.
pub fn count(n: usize, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// The first `shown` of `items`, comma-separated, and how many more there are: `a, b, c and 4
/// more`; all of them when there are at most `shown + 1` (never "and 1 more" for one name
/// that would fit).
pub fn some<S: AsRef<str>>(items: &[S], shown: usize) -> String {
    let names = |list: &[S]| {
        list.iter()
            .map(|s| s.as_ref())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if items.len() <= shown + 1 {
        return names(items);
    }
    format!(
        "{} and {} more",
        names(&items[..shown]),
        items.len() - shown
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(super::count(1, "CSV"), "1 CSV");
        assert_eq!(super::count(0, "warning"), "0 warnings");
        assert_eq!(super::count(2, "CRD"), "2 CRDs");
    }

    #[test]
    fn long_lists_are_cut_with_the_count() {
        let many: Vec<String> = (0..400).map(|i| format!("p{i}")).collect();
        assert_eq!(super::some(&many, 3), "p0, p1, p2 and 397 more");
        assert_eq!(super::some(&["a", "b", "c", "d"], 3), "a, b, c, d");
        assert_eq!(super::some(&["a"], 3), "a");
    }
}
