//! The git data API calls a pull request needs (GitHub REST "Git database": refs, commits,
//! trees, blobs): read a branch's files without a clone, and write a commit on a branch without
//! a push. <https://docs.github.com/en/rest/git>
//!
//! Reading walks trees one folder at a time from a commit's root tree ([`Client::file`],
//! [`Client::folder`]), so a large repository such as a community catalog is read only along the
//! paths that matter. A symbolic link (a tree entry of mode `120000`) on the way to a path read,
//! or anywhere under a folder read, is never followed nor read as a file: the read stops with
//! [`GitHubError::Link`], naming the path and where the link points (its blob), before anything
//! is written. Writing creates the blobs, one tree on the base commit's tree
//! (`base_tree`: every other file is kept as it is; a `sha: null` entry deletes a file), the
//! commit with the pipeline's author and date, and creates or moves the branch.

use std::collections::BTreeMap;

use base64::Engine as _;
use reqwest::Method;
use serde::Deserialize;
use serde_json::{Value, json};

use super::client::{ApiResult, Client};
use super::config::encode;
use super::error::GitHubError;

/// A commit: its tree.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Commit {
    pub(crate) tree: Sha,
}

/// An object named by its SHA.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Sha {
    pub(crate) sha: String,
}

/// One entry of a tree.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct TreeEntry {
    pub(crate) path: String,
    /// The file mode: `100644`, `100755`, `040000` (a tree), `120000` (a symbolic link, whose
    /// blob holds where it points), `160000` (a submodule).
    #[serde(default)]
    pub(crate) mode: String,
    #[serde(rename = "type")]
    pub(crate) kind: String,
    pub(crate) sha: String,
}

/// The mode of a symbolic link in a git tree.
const LINK_MODE: &str = "120000";

/// The longest link target a message shows.
const SHOWN_TARGET: usize = 200;

#[derive(Debug, Deserialize)]
struct Tree {
    tree: Vec<TreeEntry>,
    #[serde(default)]
    truncated: bool,
}

#[derive(Debug, Deserialize)]
struct Ref {
    object: Sha,
}

#[derive(Debug, Deserialize)]
struct Blob {
    content: String,
    encoding: String,
}

/// Who wrote a commit, and when.
#[derive(Debug, Clone)]
pub struct Author {
    /// The name.
    pub name: String,
    /// The e-mail address.
    pub email: String,
    /// Seconds since 1970 (`SOURCE_DATE_EPOCH`).
    pub epoch: u64,
}

#[derive(Debug, Deserialize)]
struct Repository {
    default_branch: String,
}

impl Client {
    /// The repository's default branch ("Get a repository").
    pub(crate) async fn default_branch(&self) -> ApiResult<String> {
        let route = self.repo_route.clone();
        Ok(self
            .call::<Repository>(Method::GET, &route, None)
            .await?
            .1
            .default_branch)
    }

    /// The commit `branch` names, `None` when the branch does not exist.
    pub(crate) async fn branch_head(&self, branch: &str) -> ApiResult<Option<String>> {
        let route = format!("{}/git/ref/{}", self.repo_route, ref_encode(branch));
        match self.call::<Ref>(Method::GET, &route, None).await {
            Ok((_, r)) => Ok(Some(r.object.sha)),
            Err(e) if e.status == Some(404) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// A commit, `None` when this repository (and its fork network) does not have it.
    pub(crate) async fn commit(&self, sha: &str) -> ApiResult<Option<Commit>> {
        let route = format!("{}/git/commits/{}", self.repo_route, encode(sha));
        match self.call::<Commit>(Method::GET, &route, None).await {
            Ok((_, c)) => Ok(Some(c)),
            Err(e) if e.status == Some(404) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The entries of one tree (not recursive).
    async fn tree(&self, sha: &str) -> ApiResult<Vec<TreeEntry>> {
        let route = format!("{}/git/trees/{}", self.repo_route, encode(sha));
        Ok(self.call::<Tree>(Method::GET, &route, None).await?.1.tree)
    }

    /// The entry at `path` (a file or a folder) under the tree `root`, walking one folder at a
    /// time; `None` when there is none. A symbolic link on the way, or at `path`, is
    /// [`GitHubError::Link`].
    pub(crate) async fn entry(
        &self,
        root: &str,
        path: &str,
    ) -> Result<Option<TreeEntry>, GitHubError> {
        let mut tree = root.to_string();
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        for (i, part) in parts.iter().enumerate() {
            let entries = self.tree(&tree).await?;
            let Some(found) = entries.into_iter().find(|e| e.path == *part) else {
                return Ok(None);
            };
            if found.mode == LINK_MODE {
                return Err(self.link(&parts[..=i].join("/"), &found.sha).await);
            }
            if i + 1 == parts.len() {
                return Ok(Some(found));
            }
            if found.kind != "tree" {
                return Ok(None);
            }
            tree = found.sha;
        }
        Ok(None)
    }

    /// The bytes of the file at `path` under the tree `root`, `None` when there is none.
    pub(crate) async fn file(
        &self,
        root: &str,
        path: &str,
    ) -> Result<Option<Vec<u8>>, GitHubError> {
        match self.entry(root, path).await? {
            Some(e) if e.kind == "blob" => Ok(Some(self.blob(&e.sha).await?)),
            _ => Ok(None),
        }
    }

    /// Every file under the folder `path` of the tree `root` (relative to it), read whole;
    /// empty when there is no such folder. A symbolic link on the way or under the folder is
    /// [`GitHubError::Link`], found before any file is read.
    pub(crate) async fn folder(
        &self,
        root: &str,
        path: &str,
    ) -> Result<BTreeMap<String, Vec<u8>>, GitHubError> {
        let mut out = BTreeMap::new();
        let start = if path.is_empty() {
            Some(root.to_string())
        } else {
            match self.entry(root, path).await? {
                Some(e) if e.kind == "tree" => Some(e.sha),
                _ => None,
            }
        };
        let Some(start) = start else {
            return Ok(out);
        };
        let route = format!(
            "{}/git/trees/{}?recursive=1",
            self.repo_route,
            encode(&start)
        );
        let (_, tree): (_, Tree) = self.call(Method::GET, &route, None).await?;
        if tree.truncated {
            return Err(super::client::Client::transport(
                &format!("GET {}{route}", self.api),
                format!("the tree of {path}/ is too large for one answer (GitHub truncated it)"),
            )
            .fail()
            .into());
        }
        if let Some(link) = tree.tree.iter().find(|e| e.mode == LINK_MODE) {
            let at = match path {
                "" => link.path.clone(),
                _ => format!("{}/{}", path.trim_end_matches('/'), link.path),
            };
            return Err(self.link(&at, &link.sha).await);
        }
        for e in tree.tree.into_iter().filter(|e| e.kind == "blob") {
            let bytes = self.blob(&e.sha).await?;
            out.insert(e.path, bytes);
        }
        Ok(out)
    }

    /// The refusal of the symbolic link at `path` whose blob is `sha`: where it points is read
    /// (once; a target that cannot be read is named as such).
    async fn link(&self, path: &str, sha: &str) -> GitHubError {
        let to = match self.blob(sha).await {
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes).trim().to_string();
                match text.char_indices().nth(SHOWN_TARGET) {
                    Some((i, _)) => format!("{}…", &text[..i]),
                    None => text,
                }
            }
            Err(e) => format!("(its target cannot be read: {})", e.why()),
        };
        GitHubError::Link {
            repository: format!("{}/{}", self.owner, self.repo),
            path: path.to_string(),
            to,
        }
    }

    /// A blob's bytes.
    pub(crate) async fn blob(&self, sha: &str) -> ApiResult<Vec<u8>> {
        let route = format!("{}/git/blobs/{}", self.repo_route, encode(sha));
        let (_, b): (_, Blob) = self.call(Method::GET, &route, None).await?;
        let what = || format!("GET {}{route}", self.api);
        match b.encoding.as_str() {
            "base64" => base64::engine::general_purpose::STANDARD
                .decode(b.content.replace(['\n', '\r'], ""))
                .map_err(|e| {
                    Client::transport(&what(), format!("the blob is not base64: {e}")).fail()
                }),
            "utf-8" | "utf8" => Ok(b.content.into_bytes()),
            other => {
                Err(Client::transport(&what(), format!("a blob in encoding '{other}'")).fail())
            }
        }
    }

    /// Creates a blob of `bytes`; its SHA.
    pub(crate) async fn create_blob(&self, bytes: &[u8]) -> ApiResult<String> {
        let route = format!("{}/git/blobs", self.repo_route);
        let body = json!({
            "content": base64::engine::general_purpose::STANDARD.encode(bytes),
            "encoding": "base64",
        });
        Ok(self
            .call::<Sha>(Method::POST, &route, Some(&body))
            .await?
            .1
            .sha)
    }

    /// Creates a tree: `base` with each path set to a blob, or removed (`None`).
    pub(crate) async fn create_tree(
        &self,
        base: &str,
        entries: &[(String, Option<String>)],
    ) -> ApiResult<String> {
        let route = format!("{}/git/trees", self.repo_route);
        let tree: Vec<Value> = entries
            .iter()
            .map(
                |(path, sha)| json!({ "path": path, "mode": "100644", "type": "blob", "sha": sha }),
            )
            .collect();
        let body = json!({ "base_tree": base, "tree": tree });
        Ok(self
            .call::<Sha>(Method::POST, &route, Some(&body))
            .await?
            .1
            .sha)
    }

    /// Creates a commit of `tree` on `parent`.
    pub(crate) async fn create_commit(
        &self,
        message: &str,
        tree: &str,
        parent: &str,
        author: &Author,
    ) -> ApiResult<String> {
        let route = format!("{}/git/commits", self.repo_route);
        let who = json!({
            "name": author.name,
            "email": author.email,
            "date": olm_release_base::time::rfc3339(author.epoch),
        });
        let body = json!({
            "message": message,
            "tree": tree,
            "parents": [parent],
            "author": who,
            "committer": who,
        });
        Ok(self
            .call::<Sha>(Method::POST, &route, Some(&body))
            .await?
            .1
            .sha)
    }

    /// Points `branch` at `sha`: creates it, or (`exists`) moves it, also when that is not a
    /// fast-forward (`force`): used for a pull request's own branch only, which its run owns.
    pub(crate) async fn set_branch(&self, branch: &str, sha: &str, exists: bool) -> ApiResult<()> {
        if exists {
            let route = format!("{}/git/refs/{}", self.repo_route, ref_encode(branch));
            let body = json!({ "sha": sha, "force": true });
            self.call::<Value>(Method::PATCH, &route, Some(&body))
                .await?;
        } else {
            let route = format!("{}/git/refs", self.repo_route);
            let body = json!({ "ref": format!("refs/heads/{branch}"), "sha": sha });
            self.call::<Value>(Method::POST, &route, Some(&body))
                .await?;
        }
        Ok(())
    }
}

/// A branch's ref in a route: `heads/BRANCH` as one path segment, its slashes encoded, as the
/// OpenAPI description's `{ref}` parameter is (and as GitHub's own clients send it).
fn ref_encode(branch: &str) -> String {
    encode(&format!("heads/{branch}"))
}
