//! How the plan's typed values are written in its JSON form (`plan --format json`): a version
//! as its text, exactly as the pipeline wrote it, so the JSON reads the same as before the
//! plan kept versions typed.

use serde::Serializer;

/// A version as its text.
pub(crate) fn as_text<S: Serializer>(v: &semver::Version, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}
