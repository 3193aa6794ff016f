//! Credentials, read once from the environment into [`Secret`]s, and checked before use: a
//! value an HTTP header cannot carry, or the string `null` a failed login once left behind,
//! is an input problem found before anything runs.

use olm_release_appregistry::appr::Credentials;
use olm_release_base::secret::Secret;

use super::inputs::Env;

/// The variables holding the image registry's username and password (or token).
pub(crate) const OCI_USERNAME: &str = "OCI_USERNAME";
pub(crate) const OCI_PASSWORD: &str = "OCI_PASSWORD";

/// Every variable a credential is read from (the app registry's, GitHub's, git's, the image
/// registry's): what a child process that needs none of them is not given (git gets its own
/// credentials through variables of its own, see `olm_release_git`).
pub(crate) const SECRET_VARIABLES: [&str; 10] = [
    "QUAY_TOKEN",
    "QUAY_USERNAME",
    "QUAY_PASSWORD",
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "GIT_TOKEN",
    "GIT_USERNAME",
    OCI_USERNAME,
    OCI_PASSWORD,
    "OLM_RELEASE_GIT_PASSWORD",
];

/// `QUAY_TOKEN`, or `QUAY_USERNAME` with `QUAY_PASSWORD`.
pub(crate) fn registry(env: &Env) -> Option<Credentials> {
    let get = |k: &str| env.get(k).filter(|v| !v.is_empty());
    if let Some(token) = get("QUAY_TOKEN") {
        return Some(Credentials::Token(Secret::new(token.clone())));
    }
    match (get("QUAY_USERNAME"), get("QUAY_PASSWORD")) {
        (Some(u), Some(p)) => Some(Credentials::Login {
            username: u.clone(),
            password: Secret::new(p.clone()),
        }),
        _ => None,
    }
}

/// `GITHUB_TOKEN`, else `GH_TOKEN`.
pub(crate) fn github(env: &Env) -> Option<Secret> {
    ["GITHUB_TOKEN", "GH_TOKEN"]
        .iter()
        .find_map(|k| env.get(*k))
        .filter(|v| !v.is_empty())
        .map(Secret::new)
}

/// Where git's HTTPS credentials come from, for messages.
pub(crate) const GIT_CREDENTIALS: &str = "GIT_TOKEN or GITHUB_TOKEN";

/// git over HTTPS: `GIT_TOKEN`, else `GITHUB_TOKEN`, as the password of `GIT_USERNAME` (else
/// `x-access-token`, the user GitHub takes a token for). A value the credential helper cannot
/// hand over (a line break) is a problem.
pub(crate) fn git(
    env: &Env,
    problems: &mut Vec<crate::error::Problem>,
) -> Option<olm_release_git::Credentials> {
    let get = |k: &str| env.get(k).filter(|v| !v.is_empty());
    let (var, token) = ["GIT_TOKEN", "GITHUB_TOKEN"]
        .iter()
        .find_map(|k| get(k).map(|v| (*k, v)))?;
    let username = get("GIT_USERNAME")
        .cloned()
        .unwrap_or_else(|| "x-access-token".into());
    for (name, value) in [(var, token.as_str()), ("GIT_USERNAME", username.as_str())] {
        if value.contains(['\n', '\r', '\0']) {
            problems.push(crate::error::Problem::new(
                name,
                "holds a line break; git's credential helper cannot pass it on (a stray newline?)",
            ));
            return None;
        }
    }
    Some(olm_release_git::Credentials {
        username,
        password: Secret::new(token.clone()),
    })
}

/// Why registry credentials cannot be sent, if they cannot.
pub(crate) fn registry_problem(c: &Credentials) -> Option<(&'static str, String)> {
    match c {
        Credentials::Token(t) => {
            let v = t.expose().trim();
            if v.is_empty() || v == "null" {
                return Some((
                    "QUAY_TOKEN",
                    "is empty or 'null' (a failed login?); refusing to send it as credentials"
                        .into(),
                ));
            }
            header_problem(t, true).map(|m| ("QUAY_TOKEN", m))
        }
        // A password travels in the login's JSON body, never in a header.
        Credentials::Login { .. } => None,
    }
}

/// Why a GitHub token cannot be sent, if it cannot.
pub(crate) fn github_problem(token: &Secret) -> Option<String> {
    header_problem(token, false)
}

/// A value sent in an `Authorization` header: printable ASCII (spaces only where a scheme word
/// precedes the value, as in Quay's `basic …` tokens).
fn header_problem(s: &Secret, spaces: bool) -> Option<String> {
    let ok = !s.expose().is_empty()
        && s.expose()
            .bytes()
            .all(|b| b.is_ascii_graphic() || (spaces && b == b' '));
    (!ok).then(|| {
        "holds characters an HTTP header cannot carry (a stray newline or space?)".to_string()
    })
}
