//! Time in the plan: `createdAt` of the CSV, resolved once so that the same inputs render the
//! same bytes.

use std::path::Path;

use super::{CreatedAt, TimeSource};

/// `createdAt`: `SOURCE_DATE_EPOCH`, else the commit time of the source folder's `HEAD`, so
/// the same inputs render the same bytes; without either, the UNIX epoch.
pub(crate) fn created_at(epoch: Option<u64>, source: &Path) -> CreatedAt {
    let (secs, from) = match epoch {
        Some(e) => (e, TimeSource::SourceDateEpoch),
        None => match git_commit_time(source) {
            Some(e) => (e, TimeSource::GitCommit),
            None => (0, TimeSource::Epoch),
        },
    };
    CreatedAt {
        value: format_time(secs),
        from,
    }
}

fn git_commit_time(source: &Path) -> Option<u64> {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(source)
        .args(["log", "-1", "--format=%ct", "HEAD"])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8_lossy(&out.stdout).trim().parse().ok()
}

/// `2006-01-02T15:04:05Z` for a UNIX time (the form OperatorHub asks for).
pub(crate) fn format_time(epoch: u64) -> String {
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
    fn formats_times() {
        assert_eq!(super::format_time(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::format_time(1_554_465_600), "2019-04-05T12:00:00Z");
    }
}
