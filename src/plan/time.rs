//! Time in the plan: `createdAt` of the CSV, resolved once so that the same inputs render the
//! same bytes.

use std::path::Path;

pub(crate) use crate::settings::{TimeSource, epoch};

use serde::Serialize;

/// `createdAt`: `SOURCE_DATE_EPOCH`, else the commit time of the source folder's `HEAD`, so
/// the same inputs render the same bytes; without either, the UNIX epoch.
pub(crate) fn created_at(epoch: Option<u64>, source: &Path) -> CreatedAt {
    let (secs, from) = self::epoch(epoch, source);
    CreatedAt {
        value: format_time(secs),
        from,
    }
}

/// `2006-01-02T15:04:05Z` for a UNIX time (the form OperatorHub asks for).
pub(crate) fn format_time(epoch: u64) -> String {
    olm_release_base::time::rfc3339(epoch)
}

#[cfg(test)]
mod tests {
    #[test]
    fn formats_times() {
        assert_eq!(super::format_time(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::format_time(1_554_465_600), "2019-04-05T12:00:00Z");
    }
}

/// `createdAt` and where it came from.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CreatedAt {
    pub(crate) value: String,
    pub(crate) from: TimeSource,
}
