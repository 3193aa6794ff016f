//! The release stage: attach the chosen artifacts to the release target.

use super::Ctx;
use crate::error::{Error, Result};
use crate::settings::Target;
use crate::target::{self, dir, github};

pub async fn run(ctx: &mut Ctx<'_>) -> Result<()> {
    let release = ctx
        .settings
        .release
        .as_ref()
        .ok_or_else(|| Error::input("the release stage needs a release: section"))?;
    let assets = target::resolve_assets(ctx, &release.assets)?;
    match &release.target {
        Target::Dir(root) => dir::publish(ctx, root, &release.tag, &assets),
        Target::GitHub { api, owner, repo } => {
            github::publish(ctx, release, api, owner, repo, &assets).await
        }
    }
}
