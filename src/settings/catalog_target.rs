//! The catalog target as one typed value: where the catalog is kept (`dir:`, a folder of a git
//! branch, possibly proposed as a GitHub pull request, or a catalog image's tag) with everything
//! its store needs to read it, write it and know whether someone else wrote it meanwhile.
//! Settings build it once from the `catalog:` keys ([`super::catalog`]) or `import`'s flags
//! ([`super::catalog_flags`]) and the run's credentials, time and output folder; the plan holds
//! it as built (the catalog step and fetch-previous share it) and shows it; the executor's
//! catalog step hands it to the store that opens it.

use std::path::PathBuf;

use serde::Serialize;

use super::ImageJob;
use olm_release_oci::ImageLocation;
use olm_release_olm::fbc::swap::Patience;

/// Where the catalog is kept, and how to reach it.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(crate) enum CatalogTarget {
    /// A folder, locked from fetch-previous to the write.
    Dir { dir: PathBuf },
    /// A folder of a git branch.
    Git(Box<GitTarget>),
    /// A catalog image's tag.
    Image(Box<ImageTarget>),
}

impl CatalogTarget {
    /// `dir:PATH`, `git:URL (branch B, folder P)`, `image:REF:TAG`.
    pub(crate) fn describe(&self) -> String {
        match self {
            CatalogTarget::Dir { dir } => dir.display().to_string(),
            CatalogTarget::Git(g) => format!(
                "{}/ of branch {} of {}",
                g.path,
                g.branch.as_deref().unwrap_or("(the default branch)"),
                g.git
            ),
            CatalogTarget::Image(i) => i.describe(),
        }
    }

    /// How long and how often a job tries again after another job moved the target
    /// (`catalog.publish_deadline_seconds`, `catalog.retries`; a `dir:` folder is locked, so
    /// it never moves).
    pub(crate) fn patience(&self) -> Patience {
        match self {
            CatalogTarget::Dir { .. } => Patience {
                deadline: std::time::Duration::ZERO,
                retries: Some(0),
            },
            CatalogTarget::Git(g) => g.patience,
            CatalogTarget::Image(i) => i.patience,
        }
    }
}

/// A folder of a branch of a git repository.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct GitTarget {
    /// The URL or path, as the git CLI takes it (a relative path resolved against `--source`).
    pub(crate) git: String,
    /// `None`: the remote's default branch.
    pub(crate) branch: Option<String>,
    /// The catalog folder in the repository (`catalog.path`), with `/`, no leading `/`.
    pub(crate) path: String,
    /// The commit's author and committer, `Name <email>`.
    pub(crate) author: String,
    #[serde(skip)]
    pub(crate) name: String,
    #[serde(skip)]
    pub(crate) email: String,
    /// The commit date (`SOURCE_DATE_EPOCH`, else the source's commit time).
    pub(crate) date: u64,
    /// The variables HTTPS credentials come from.
    pub(crate) credentials: Option<&'static str>,
    #[serde(skip)]
    pub(crate) secret: Option<olm_release_git::Credentials>,
    /// How long and how often the job tries again after someone else moved the branch
    /// (`catalog.publish_deadline_seconds`, `catalog.retries`).
    #[serde(skip)]
    pub(crate) patience: Patience,
    /// How long one git command that talks to the remote may take (`catalog.retry_max_seconds`).
    #[serde(skip)]
    pub(crate) budget: std::time::Duration,
    /// Propose the change as a pull request instead of pushing it (`catalog.pull_request`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) pull_request: Option<PullRequest>,
    /// The scratch checkout (under the output folder).
    #[serde(skip)]
    pub(crate) scratch: PathBuf,
}

impl GitTarget {
    /// The commit's author, committer and date, as the git client takes them.
    pub(crate) fn signature(&self) -> olm_release_git::Signature {
        olm_release_git::Signature {
            name: self.name.clone(),
            email: self.email.clone(),
            epoch: self.date,
        }
    }

    /// The repository and branch, as the git client takes them.
    pub(crate) fn remote(&self) -> olm_release_git::Remote {
        olm_release_git::Remote {
            url: self.git.clone(),
            branch: self.branch.clone(),
        }
    }
}

/// A change proposed as a GitHub pull request (a catalog target's `catalog.pull_request`, and
/// the `operatorhub` step's): where, from which branch, titled how.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct PullRequest {
    /// The REST API base.
    pub(crate) api: String,
    /// The repository the pull request is opened on, `OWNER/REPO`.
    pub(crate) repository: String,
    /// The repository its branch is pushed to, `OWNER/REPO`.
    pub(crate) fork: String,
    /// The pull request's branch.
    pub(crate) branch: String,
    pub(crate) title: String,
    pub(crate) draft: bool,
    /// The variables the token came from.
    pub(crate) credentials: Option<&'static str>,
    #[serde(skip)]
    pub(crate) token: Option<olm_release_base::Secret>,
}

impl PullRequest {
    /// `OWNER` and `REPO` of the repository, and of the fork.
    pub(crate) fn repos(&self) -> ((&str, &str), (&str, &str)) {
        fn split(r: &str) -> (&str, &str) {
            r.split_once('/').unwrap_or((r, ""))
        }
        (split(&self.repository), split(&self.fork))
    }
}

/// A catalog image: `image:HOST[:PORT]/REPOSITORY:TAG` or `image:oci:PATH:TAG`, reached as a
/// bundle image's target is (with `OCI_USERNAME`/`OCI_PASSWORD`), built on a base pinned by
/// digest.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ImageTarget {
    pub(crate) image: ImageJob,
    pub(crate) tag: String,
    /// The base, as it reads (`HOST/REPOSITORY@sha256:…`).
    #[serde(rename = "base_image")]
    pub(crate) base_shown: String,
    #[serde(skip)]
    pub(crate) base: ImageLocation,
    #[serde(skip)]
    pub(crate) base_digest: String,
    /// The layer's mtimes and the config's `created` (`SOURCE_DATE_EPOCH`, else the source's
    /// commit time).
    pub(crate) epoch: u64,
    /// How long and how often the job tries again after someone else moved the tag
    /// (`catalog.publish_deadline_seconds`, `catalog.retries`).
    #[serde(skip)]
    pub(crate) patience: Patience,
    /// The bounds on the base (`OLM_RELEASE_MAX_BASE_LAYERS`, `OLM_RELEASE_MAX_BASE_BYTES`).
    #[serde(skip)]
    pub(crate) base_limits: olm_release_oci::catalog_image::BaseLimits,
    /// Where the tag's catalog is read into (under the output folder).
    #[serde(skip)]
    pub(crate) scratch: PathBuf,
}

impl ImageTarget {
    /// `HOST[:PORT]/REPOSITORY:TAG` or `oci:PATH:TAG`.
    pub(crate) fn describe(&self) -> String {
        format!("{}:{}", self.image.target.describe(), self.tag)
    }

    /// The base image's target, reached with the same settings.
    pub(crate) fn base_job(&self) -> ImageJob {
        ImageJob {
            target: self.base.clone(),
            ..self.image.clone()
        }
    }
}

/// What a target needs besides its own keys: the run's credentials, time and scratch folder,
/// how long it waits for racing jobs, and the pull request's defaults.
pub(crate) struct TargetRun<'a> {
    /// The commit date and the image layer's time, computed when a target needs one.
    pub(crate) epoch: &'a dyn Fn() -> u64,
    pub(crate) git: Option<olm_release_git::Credentials>,
    pub(crate) github: Option<olm_release_base::Secret>,
    pub(crate) image: Option<olm_release_oci::Credentials>,
    /// Where scratch checkouts and images are read into (`catalog-git`, `catalog-image`).
    pub(crate) scratch: PathBuf,
    pub(crate) patience: Patience,
    /// How long one git command that talks to the remote may take.
    pub(crate) budget: std::time::Duration,
    pub(crate) base_limits: olm_release_oci::catalog_image::BaseLimits,
    /// A pull request's branch and title unless given.
    pub(crate) pull_branch: String,
    pub(crate) pull_title: String,
}

impl TargetRun<'_> {
    /// The pull request on `repository` from `fork` (the branch and title given, else the run's).
    pub(crate) fn pull_request(
        &self,
        api: String,
        repository: &(String, String),
        fork: &(String, String),
        branch: Option<String>,
        title: Option<String>,
        draft: bool,
    ) -> PullRequest {
        PullRequest {
            api,
            repository: format!("{}/{}", repository.0, repository.1),
            fork: format!("{}/{}", fork.0, fork.1),
            branch: branch.unwrap_or_else(|| self.pull_branch.clone()),
            title: title.unwrap_or_else(|| self.pull_title.clone()),
            draft,
            credentials: self.github.as_ref().map(|_| "GITHUB_TOKEN or GH_TOKEN"),
            token: self.github.clone(),
        }
    }

    /// `git:URL`: the folder `path` of `branch`, committed as `author`.
    pub(crate) fn git(
        &self,
        url: String,
        branch: Option<String>,
        path: String,
        author: (String, String),
        pull_request: Option<PullRequest>,
    ) -> CatalogTarget {
        CatalogTarget::Git(Box::new(GitTarget {
            git: url,
            branch,
            path,
            author: format!("{} <{}>", author.0, author.1),
            name: author.0,
            email: author.1,
            date: (self.epoch)(),
            credentials: self.git.as_ref().map(|_| super::GIT_CREDENTIALS),
            secret: self.git.clone(),
            patience: self.patience,
            budget: self.budget,
            pull_request,
            scratch: self.scratch.join("catalog-git"),
        }))
    }

    /// `image:REF:TAG` on the base `base` pinned by `base_digest`.
    pub(crate) fn image(
        &self,
        target: ImageLocation,
        tag: String,
        (base, base_digest): (ImageLocation, String),
        insecure: bool,
    ) -> CatalogTarget {
        CatalogTarget::Image(Box::new(ImageTarget {
            base_shown: match &base {
                ImageLocation::Remote(r) => r.pinned(&base_digest),
                ImageLocation::Layout(_) => format!("{}@{base_digest}", base.describe()),
            },
            base,
            base_digest,
            image: ImageJob {
                target,
                credentials: self.image.as_ref().map(|_| "OCI_USERNAME and OCI_PASSWORD"),
                secret: self.image.clone(),
                insecure,
                retry: Default::default(),
            },
            tag,
            epoch: (self.epoch)(),
            patience: self.patience,
            base_limits: self.base_limits,
            scratch: self.scratch.join("catalog-image"),
        }))
    }
}
