//! A stateful, in-process fake of GitHub's git data and pulls APIs, for the pull requests a
//! git catalog target (`catalog.pull_request`) and the `operatorhub` stage open.
//!
//! It keeps repositories (default branch, refs), one object store shared by all of them (a
//! GitHub fork network: a fork sees its upstream's commits) holding blobs, trees and commits,
//! and pull requests. It answers like GitHub where it matters (GitHub's REST docs, "Git
//! database" and "Pulls"): a missing ref, commit or tree is a 404; creating a ref that exists,
//! or moving one by a non-fast-forward without `force`, is a 422; a second open pull request
//! from the same head is a 422; requests without the token get 401. Object names are content
//! hashes (sha256 cut to 40 hex digits), so the same tree is the same name. Its JSON carries
//! every field GitHub's OpenAPI description requires (`json`), so it can sit behind
//! `prism proxy --errors`. Every request is logged as `METHOD path?query`.

#![allow(dead_code)]

mod handler;
mod json;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;

pub const TOKEN: &str = "ghp_fake_pulls_token_for_tests";

/// One object of the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Object {
    Blob(Vec<u8>),
    /// Entries by name: (mode, kind, sha).
    Tree(BTreeMap<String, (String, String, String)>),
    Commit {
        tree: String,
        parents: Vec<String>,
        message: String,
        author: (String, String, String),
    },
}

#[derive(Debug, Clone, Default)]
pub struct FakeRepo {
    pub default_branch: String,
    /// Branch → commit.
    pub refs: BTreeMap<String, String>,
}

#[derive(Debug, Clone)]
pub struct FakePull {
    pub number: u64,
    /// The repository it is opened on, `OWNER/REPO`.
    pub repo: String,
    /// `OWNER:BRANCH`.
    pub head: String,
    pub base: String,
    pub title: String,
    pub body: String,
    pub state: String,
    pub merged: bool,
    pub draft: bool,
}

/// The fake's state; tests seed and inspect it.
#[derive(Debug, Default)]
pub struct World {
    pub repos: BTreeMap<String, FakeRepo>,
    pub objects: BTreeMap<String, Object>,
    pub pulls: Vec<FakePull>,
    pub log: Vec<String>,
    /// Blobs that trees list as symbolic links (mode 120000): the blob holds where it points.
    pub link_blobs: std::collections::BTreeSet<String>,
}

/// The name of an object: a content hash, 40 hex digits as git's.
fn name_of(o: &Object) -> String {
    let text = format!("{o:?}");
    olm_release_base::digest::sha256_hex(text.as_bytes())[..40].to_string()
}

impl World {
    pub fn put(&mut self, o: Object) -> String {
        let sha = name_of(&o);
        self.objects.insert(sha.clone(), o);
        sha
    }

    /// A repository with a default branch (and nothing on it yet).
    pub fn repo(&mut self, repo: &str, default_branch: &str) {
        self.repos.insert(
            repo.to_string(),
            FakeRepo {
                default_branch: default_branch.into(),
                refs: BTreeMap::new(),
            },
        );
    }

    /// Commits `files` (path → bytes; `None` removes) on top of `branch` of `repo` (created if
    /// missing) and returns the commit.
    pub fn commit_files(
        &mut self,
        repo: &str,
        branch: &str,
        files: &[(&str, Option<&[u8]>)],
    ) -> String {
        let parent = self.repos[repo].refs.get(branch).cloned();
        let base_tree = parent.as_ref().map(|c| match &self.objects[c] {
            Object::Commit { tree, .. } => tree.clone(),
            _ => unreachable!(),
        });
        let entries: Vec<(String, Option<String>)> = files
            .iter()
            .map(|(p, b)| (p.to_string(), b.map(|b| self.put(Object::Blob(b.to_vec())))))
            .collect();
        let tree = self.tree_with(base_tree.as_deref(), &entries);
        let commit = self.put(Object::Commit {
            tree,
            parents: parent.into_iter().collect(),
            message: "seed".into(),
            author: (
                "Seeder".into(),
                "seed@example.com".into(),
                "2019-10-07T12:00:00Z".into(),
            ),
        });
        self.repos
            .get_mut(repo)
            .unwrap()
            .refs
            .insert(branch.into(), commit.clone());
        commit
    }

    /// Commits a symbolic link at `path` pointing to `to` on top of `branch` of `repo`.
    pub fn commit_link(&mut self, repo: &str, branch: &str, path: &str, to: &str) -> String {
        let blob = self.put(Object::Blob(to.as_bytes().to_vec()));
        self.link_blobs.insert(blob);
        self.commit_files(repo, branch, &[(path, Some(to.as_bytes()))])
    }

    /// A tree: `base` (or empty) with each path set to a blob or removed; empty folders go.
    pub fn tree_with(
        &mut self,
        base: Option<&str>,
        entries: &[(String, Option<String>)],
    ) -> String {
        let mut files = base.map(|b| self.flatten(b, "")).unwrap_or_default();
        for (path, sha) in entries {
            match sha {
                Some(s) => {
                    files.insert(path.clone(), s.clone());
                }
                None => {
                    files.remove(path);
                }
            }
        }
        self.build(&files)
    }

    /// Every file under the tree `sha`: path → blob.
    pub fn flatten(&self, sha: &str, prefix: &str) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        if let Some(Object::Tree(entries)) = self.objects.get(sha) {
            for (name, (_, kind, child)) in entries {
                let path = format!("{prefix}{name}");
                if kind == "tree" {
                    out.extend(self.flatten(child, &format!("{path}/")));
                } else {
                    out.insert(path, child.clone());
                }
            }
        }
        out
    }

    fn build(&mut self, files: &BTreeMap<String, String>) -> String {
        let mut here: BTreeMap<String, (String, String, String)> = BTreeMap::new();
        let mut sub: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for (path, sha) in files {
            match path.split_once('/') {
                Some((dir, rest)) => {
                    sub.entry(dir.to_string())
                        .or_default()
                        .insert(rest.to_string(), sha.clone());
                }
                None => {
                    let mode = match self.link_blobs.contains(sha) {
                        true => "120000",
                        false => "100644",
                    };
                    here.insert(path.clone(), (mode.into(), "blob".into(), sha.clone()));
                }
            }
        }
        for (dir, files) in sub {
            let sha = self.build(&files);
            here.insert(dir, ("040000".into(), "tree".into(), sha));
        }
        self.put(Object::Tree(here))
    }

    /// The files on `branch` of `repo`: path → bytes.
    pub fn files(&self, repo: &str, branch: &str) -> BTreeMap<String, Vec<u8>> {
        let Some(commit) = self.repos.get(repo).and_then(|r| r.refs.get(branch)) else {
            return BTreeMap::new();
        };
        let Object::Commit { tree, .. } = &self.objects[commit] else {
            unreachable!()
        };
        self.flatten(tree, "")
            .into_iter()
            .map(|(p, sha)| match &self.objects[&sha] {
                Object::Blob(b) => (p, b.clone()),
                _ => unreachable!(),
            })
            .collect()
    }

    /// Merges pull request `number`: its base branch takes its head's commit.
    pub fn merge(&mut self, number: u64) {
        let pr = self.pulls.iter_mut().find(|p| p.number == number).unwrap();
        pr.merged = true;
        pr.state = "closed".into();
        let (owner, branch) = pr.head.split_once(':').unwrap();
        let (repo, base) = (pr.repo.clone(), pr.base.clone());
        let fork = self
            .repos
            .keys()
            .find(|k| k.split('/').next() == Some(owner))
            .cloned()
            .unwrap();
        let head = self.repos[&fork].refs[branch].clone();
        self.repos.get_mut(&repo).unwrap().refs.insert(base, head);
    }

    /// The log lines that start with `prefix` (e.g. `POST`).
    pub fn requests(&self, prefix: &str) -> Vec<String> {
        self.log
            .iter()
            .filter(|l| l.starts_with(prefix))
            .cloned()
            .collect()
    }
}

pub(crate) struct Shared {
    pub(crate) world: Mutex<World>,
    /// The origin written into URLs (the proxy's, when behind Prism).
    pub(crate) origin: String,
}

/// A running fake.
pub struct Fake {
    shared: Arc<Shared>,
    /// The API base to put in `api_url`.
    pub api: String,
}

impl Fake {
    /// A fake on a free loopback port.
    pub async fn start() -> Fake {
        Self::start_on(0, None).await
    }

    /// A fake on `port`; `public` is the origin clients reach it through (Prism), if not direct.
    pub async fn start_on(port: u16, public: Option<String>) -> Fake {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
            .await
            .unwrap();
        let origin = public.unwrap_or_else(|| {
            format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port())
        });
        let shared = Arc::new(Shared {
            world: Mutex::new(World::default()),
            origin: origin.clone(),
        });
        let app = Router::new()
            .fallback(handler::handle)
            .with_state(shared.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Fake {
            shared,
            api: origin,
        }
    }

    pub fn world(&self) -> MutexGuard<'_, World> {
        self.shared.world.lock().unwrap()
    }

    /// How many writes (POST and PATCH requests) reached the fake.
    pub fn writes(&self) -> usize {
        let w = self.world();
        w.requests("POST").len() + w.requests("PATCH").len()
    }
}
