//! The GitHub release target (through octocrab).

use super::Asset;
use crate::error::{Error, Result};
use crate::settings::ReleaseSettings;
use crate::stages::Ctx;

pub async fn publish(
    _ctx: &Ctx<'_>,
    _release: &ReleaseSettings,
    api: &str,
    owner: &str,
    repo: &str,
    _assets: &[Asset],
) -> Result<()> {
    Err(Error::stage(format!(
        "{api}: GitHub releases of {owner}/{repo} are not available in this build"
    )))
}
