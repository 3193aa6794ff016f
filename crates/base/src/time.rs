//! Timestamps written into published artefacts (a CSV's `createdAt`, an image config's
//! `created`): RFC 3339 in UTC from a UNIX time, so a fixed `SOURCE_DATE_EPOCH` gives fixed bytes
//! (<https://reproducible-builds.org/specs/source-date-epoch/>). No clock is read here.

/// `2006-01-02T15:04:05Z` for a UNIX time (RFC 3339 §5.6 in UTC, the form OperatorHub's
/// `createdAt` and the OCI image config's `created` use).
pub fn rfc3339(epoch: u64) -> String {
    let days = (epoch / 86_400) as i64;
    let secs = epoch % 86_400;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn formats_utc() {
        assert_eq!(super::rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::rfc3339(1_570_449_600), "2019-10-07T12:00:00Z");
        assert_eq!(super::rfc3339(1_835_438_400), "2028-02-29T12:00:00Z");
    }
}
