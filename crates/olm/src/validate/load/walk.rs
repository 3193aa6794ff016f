//! Reading the folder `verify` is given, within the bundle's limits: every file under it as
//! (relative path with `/`, bytes), sorted by path, as the bundle reader walks it
//! ([`crate::archive`]'s walk: symlinks followed once, devices and FIFOs refused, the
//! entry and size limits checked before anything is read). Only `.yaml`/`.yml` files carry
//! their bytes: nothing reads the others, which are listed so they can be reported; hidden
//! folders appear as `<path>/` with no bytes.

use std::path::Path;

use crate::archive::{self, Files, Limits, ReadError};
use olm_release_base::input;

/// Every file under `dir` as (relative path with `/`, bytes), sorted by path.
pub fn read_dir(dir: &Path, limits: &Limits) -> Result<Files, ReadError> {
    archive::list(dir, limits)?
        .into_iter()
        .map(|f| {
            let bytes = if f.yaml {
                input::read(&f.path, limits.max_bytes)
                    .map_err(|e| ReadError::io(f.path.display().to_string(), e))?
            } else {
                Vec::new()
            };
            Ok((f.rel, bytes))
        })
        .collect()
}
