//! The fake's answers, with every field GitHub's OpenAPI description requires of them
//! (`repository`, `simple-user`, `git-ref`, `git-commit`, `git-tree`, `blob`, `pull-request`,
//! `pull-request-simple`), written in their shapes with this fake's values.

use base64::Engine as _;
use serde_json::{Value, json};

use super::{FakePull, Object, World};

const TIME: &str = "2019-10-07T12:00:00Z";

pub(crate) fn user_json(o: &str, login: &str) -> Value {
    let u = format!("{o}/users/{login}");
    json!({
        "login": login, "id": 1, "node_id": "MDQ6VXNlcjE=",
        "avatar_url": format!("{o}/avatars/{login}"), "gravatar_id": "",
        "url": u, "html_url": format!("{o}/{login}"),
        "followers_url": format!("{u}/followers"), "following_url": format!("{u}/following{{/other_user}}"),
        "gists_url": format!("{u}/gists{{/gist_id}}"), "starred_url": format!("{u}/starred{{/owner}}{{/repo}}"),
        "subscriptions_url": format!("{u}/subscriptions"), "organizations_url": format!("{u}/orgs"),
        "repos_url": format!("{u}/repos"), "events_url": format!("{u}/events{{/privacy}}"),
        "received_events_url": format!("{u}/received_events"), "type": "User", "site_admin": false,
    })
}

pub(crate) fn repo_json(o: &str, repo: &str, default_branch: &str) -> Value {
    let (owner, name) = repo.split_once('/').unwrap();
    let a = format!("{o}/repos/{repo}");
    let mut v = json!({
        "id": 1, "node_id": "R_1", "name": name, "full_name": repo, "private": false,
        "owner": user_json(o, owner), "html_url": format!("{o}/{repo}"), "description": null,
        "fork": false, "url": a, "homepage": null, "language": null, "mirror_url": null,
        "license": null, "pushed_at": TIME, "created_at": TIME, "updated_at": TIME,
        "clone_url": format!("{o}/{repo}.git"), "git_url": format!("git://example/{repo}.git"),
        "ssh_url": format!("git@example:{repo}.git"), "svn_url": format!("{o}/{repo}"),
        "default_branch": default_branch, "forks": 0, "forks_count": 0, "open_issues": 0,
        "open_issues_count": 0, "size": 0, "stargazers_count": 0, "watchers": 0,
        "watchers_count": 0, "has_downloads": true, "has_issues": true, "has_projects": false,
        "has_wiki": false, "has_pages": false, "archived": false, "disabled": false,
        "has_discussions": false, "network_count": 0, "subscribers_count": 0,
    });
    for key in [
        "archive",
        "assignees",
        "blobs",
        "branches",
        "collaborators",
        "comments",
        "commits",
        "compare",
        "contents",
        "contributors",
        "deployments",
        "downloads",
        "events",
        "forks",
        "git_commits",
        "git_refs",
        "git_tags",
        "hooks",
        "issue_comment",
        "issue_events",
        "issues",
        "keys",
        "labels",
        "languages",
        "merges",
        "milestones",
        "notifications",
        "pulls",
        "releases",
        "stargazers",
        "statuses",
        "subscribers",
        "subscription",
        "tags",
        "teams",
        "trees",
    ] {
        v[format!("{key}_url")] = Value::from(format!("{a}/{key}"));
    }
    v
}

pub(crate) fn ref_json(o: &str, repo: &str, branch: &str, sha: &str) -> Value {
    json!({
        "ref": format!("refs/heads/{branch}"), "node_id": "REF_1",
        "url": format!("{o}/repos/{repo}/git/refs/heads/{branch}"),
        "object": { "type": "commit", "sha": sha, "url": format!("{o}/repos/{repo}/git/commits/{sha}") },
    })
}

pub(crate) fn commit_json(o: &str, repo: &str, sha: &str, c: &Object) -> Value {
    let Object::Commit {
        tree,
        parents,
        message,
        author,
    } = c
    else {
        unreachable!()
    };
    let who = json!({ "name": author.0, "email": author.1, "date": author.2 });
    json!({
        "sha": sha, "node_id": "C_1", "url": format!("{o}/repos/{repo}/git/commits/{sha}"),
        "html_url": format!("{o}/{repo}/commit/{sha}"), "author": who, "committer": who,
        "tree": { "sha": tree, "url": format!("{o}/repos/{repo}/git/trees/{tree}") },
        "message": message,
        "parents": parents.iter().map(|p| json!({
            "sha": p, "url": format!("{o}/repos/{repo}/git/commits/{p}"),
            "html_url": format!("{o}/{repo}/commit/{p}"),
        })).collect::<Vec<_>>(),
        "verification": { "verified": false, "reason": "unsigned", "signature": null, "payload": null, "verified_at": null },
    })
}

pub(crate) fn tree_json(w: &World, o: &str, repo: &str, sha: &str, recursive: bool) -> Value {
    let mut items = Vec::new();
    collect(w, o, repo, sha, "", recursive, &mut items);
    json!({ "sha": sha, "url": format!("{o}/repos/{repo}/git/trees/{sha}"), "tree": items, "truncated": false })
}

fn collect(
    w: &World,
    o: &str,
    repo: &str,
    sha: &str,
    prefix: &str,
    recursive: bool,
    out: &mut Vec<Value>,
) {
    let Some(Object::Tree(entries)) = w.objects.get(sha) else {
        return;
    };
    for (name, (mode, kind, child)) in entries {
        let path = format!("{prefix}{name}");
        let mut e = json!({
            "path": path, "mode": mode, "type": kind, "sha": child,
            "url": format!("{o}/repos/{repo}/git/{kind}s/{child}"),
        });
        if let Some(Object::Blob(b)) = w.objects.get(child) {
            e["size"] = Value::from(b.len());
        }
        out.push(e);
        if recursive && kind == "tree" {
            collect(w, o, repo, child, &format!("{path}/"), true, out);
        }
    }
}

pub(crate) fn blob_json(o: &str, repo: &str, sha: &str, bytes: &[u8]) -> Value {
    // GitHub wraps base64 content at 60 columns.
    let b64 = base64::engine::general_purpose::STANDARD.encode(bytes);
    let wrapped: Vec<String> = b64
        .as_bytes()
        .chunks(60)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect();
    json!({
        "sha": sha, "node_id": "B_1", "url": format!("{o}/repos/{repo}/git/blobs/{sha}"),
        "size": bytes.len(), "content": wrapped.join("\n") + "\n", "encoding": "base64",
    })
}

/// A pull request: the full `pull-request` shape, or `pull-request-simple` for lists.
pub(crate) fn pull_json(w: &World, o: &str, p: &FakePull, full: bool) -> Value {
    let (head_owner, head_branch) = p.head.split_once(':').unwrap();
    let fork = w
        .repos
        .keys()
        .find(|k| k.split('/').next() == Some(head_owner))
        .cloned()
        .unwrap_or_else(|| p.repo.clone());
    let head_sha = w
        .repos
        .get(&fork)
        .and_then(|r| r.refs.get(head_branch))
        .cloned()
        .unwrap_or_default();
    let base_sha = w.repos[&p.repo]
        .refs
        .get(&p.base)
        .cloned()
        .unwrap_or_default();
    let a = format!("{o}/repos/{}/pulls/{}", p.repo, p.number);
    let html = format!("{o}/{}/pull/{}", p.repo, p.number);
    let issue = format!("{o}/repos/{}/issues/{}", p.repo, p.number);
    let link = |h: &str| json!({ "href": h });
    let side = |label: &str, branch: &str, sha: &str, repo: &str| {
        json!({
            "label": label, "ref": branch, "sha": sha,
            "user": user_json(o, repo.split('/').next().unwrap()),
            "repo": repo_json(o, repo, &w.repos[repo].default_branch),
        })
    };
    let mut v = json!({
        "url": a, "id": p.number, "node_id": format!("PR_{}", p.number), "html_url": html,
        "diff_url": format!("{html}.diff"), "patch_url": format!("{html}.patch"), "issue_url": issue,
        "commits_url": format!("{a}/commits"), "review_comments_url": format!("{a}/comments"),
        "review_comment_url": format!("{o}/repos/{}/pulls/comments{{/number}}", p.repo),
        "comments_url": format!("{issue}/comments"), "statuses_url": format!("{o}/repos/{}/statuses/{head_sha}", p.repo),
        "number": p.number, "state": p.state, "locked": false, "title": p.title, "body": p.body,
        "user": user_json(o, head_owner), "labels": [], "milestone": null, "assignee": null,
        "created_at": TIME, "updated_at": TIME,
        "closed_at": if p.state == "closed" { Value::from(TIME) } else { Value::Null },
        "merged_at": if p.merged { Value::from(TIME) } else { Value::Null },
        "merge_commit_sha": null, "draft": p.draft,
        "head": side(&p.head, head_branch, &head_sha, &fork),
        "base": side(&format!("{}:{}", p.repo.split('/').next().unwrap(), p.base), &p.base, &base_sha, &p.repo),
        "_links": {
            "self": link(&a), "html": link(&html), "issue": link(&issue), "comments": link(&format!("{issue}/comments")),
            "review_comments": link(&format!("{a}/comments")), "review_comment": link(&format!("{o}/repos/{}/pulls/comments{{/number}}", p.repo)),
            "commits": link(&format!("{a}/commits")), "statuses": link(&format!("{o}/repos/{}/statuses/{head_sha}", p.repo)),
        },
        "author_association": "CONTRIBUTOR", "auto_merge": null,
    });
    if full {
        for (k, val) in [
            ("merged", Value::from(p.merged)),
            ("mergeable", Value::Null),
            ("mergeable_state", Value::from("unknown")),
            ("merged_by", Value::Null),
            ("comments", Value::from(0)),
            ("review_comments", Value::from(0)),
            ("maintainer_can_modify", Value::from(true)),
            ("commits", Value::from(1)),
            ("additions", Value::from(0)),
            ("deletions", Value::from(0)),
            ("changed_files", Value::from(0)),
        ] {
            v[k] = val;
        }
    }
    v
}
