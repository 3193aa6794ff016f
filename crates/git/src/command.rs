//! Running the `git` binary: one place builds every command's environment (the C locale, no
//! terminal prompt, the credential helper), runs it, and turns a failure into a [`GitError`]
//! whose text holds no secret.
//!
//! The credential helper is given as configuration in the environment, not on the command
//! line: `GIT_CONFIG_COUNT=2`, `credential.helper` set to the empty string first (which resets
//! the helpers of the user's and the system's configuration, gitcredentials(7)), then to a
//! shell snippet that answers `get` with `username=` and `password=` read from two variables
//! of git's own environment. So the token reaches git through its environment only, as
//! `GIT_ASKPASS` programs do, and never appears in a URL, an argument list or a message. The
//! caller's other secrets are withheld from every command ([`Git::withholding`]): git, its
//! remote helpers and the credential helper see the git credentials and nothing else secret.
//!
//! A command that talks to a remote (`ls-remote`, `fetch`, `push`) runs within the caller's
//! budget ([`Git::within`]): curl's low-speed limit (`GIT_HTTP_LOW_SPEED_LIMIT` and
//! `GIT_HTTP_LOW_SPEED_TIME`, git-config(1) `http.lowSpeedLimit`) ends an HTTP transfer that
//! stalls, and a wall clock kills the command when the budget is spent whatever the transport
//! (a server that accepts and never answers, an SSH remote that hangs), with an error naming the
//! command and the remote, credentials removed from both ([`GitError::TimedOut`]).

use std::ffi::OsStr;
use std::io::Read as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use olm_release_base::secret::{Secret, redact};

use super::GitError;

/// The helper: answers `get` from the environment, ignores `store` and `erase`.
const HELPER: &str = "!f() { test \"$1\" = get || exit 0; echo \"username=${OLM_RELEASE_GIT_USERNAME}\"; echo \"password=${OLM_RELEASE_GIT_PASSWORD}\"; }; f";

/// Credentials for HTTPS remotes.
#[derive(Debug, Clone)]
pub struct Credentials {
    /// The user name (`x-access-token` for a GitHub token).
    pub username: String,
    /// The password or token.
    pub password: Secret,
}

/// The `git` binary, with the credentials every command may offer.
#[derive(Debug, Clone)]
pub struct Git {
    program: std::path::PathBuf,
    credentials: Option<Credentials>,
    /// How long one command that talks to a remote may take (`None`: unbounded).
    budget: Option<Duration>,
    /// Variables of this process no git command inherits (other clients' secrets).
    withheld: Vec<String>,
}

/// The variables the helper answers from: set from [`Credentials`], else removed, so a value
/// of the caller's environment never reaches a remote.
const HELPER_VARIABLES: [&str; 2] = ["OLM_RELEASE_GIT_USERNAME", "OLM_RELEASE_GIT_PASSWORD"];

/// The transfer rate below which an HTTP transfer counts as stalled (bytes per second).
const LOW_SPEED_BYTES: u32 = 1000;
/// How long a transfer may stall before curl ends it, at most (less when the budget is less).
const LOW_SPEED_SECONDS: u64 = 30;

impl Git {
    /// `git` from `PATH`, offering `credentials` to HTTPS remotes that ask.
    pub fn new(credentials: Option<Credentials>) -> Self {
        Git {
            program: "git".into(),
            credentials,
            budget: None,
            withheld: Vec::new(),
        }
    }

    /// The same client, with the variables `names` removed from every command's environment:
    /// the caller's other secrets (a registry's password, an API token), which git, its
    /// transports and the credential helper have no use for. The helper's own variables are
    /// always set from the credentials or removed.
    pub fn withholding<S: AsRef<str>>(mut self, names: &[S]) -> Self {
        self.withheld
            .extend(names.iter().map(|n| n.as_ref().to_string()));
        self
    }

    /// The same client, each command that talks to a remote stopped after `budget`.
    pub fn within(mut self, budget: Duration) -> Self {
        self.budget = Some(budget.max(Duration::from_secs(1)));
        self
    }

    /// `text` without the credentials, nor the user information of any URL in it.
    pub(crate) fn scrub(&self, text: &str) -> String {
        let text = match &self.credentials {
            Some(c) => redact(text, &[c.password.expose()]),
            None => text.to_string(),
        };
        without_userinfo(&text)
    }

    /// A command in `dir` (or none), with the environment every command gets.
    pub(crate) fn command(&self, dir: Option<&Path>) -> Command {
        let mut cmd = Command::new(&self.program);
        if let Some(d) = dir {
            cmd.arg("-C").arg(d);
        }
        cmd.env("LC_ALL", "C")
            .env("GIT_TERMINAL_PROMPT", "0")
            // No editor, pager or advice: nothing waits on a terminal.
            .env("GIT_EDITOR", "true")
            .env("GIT_PAGER", "cat")
            .stdin(Stdio::null());
        for name in self
            .withheld
            .iter()
            .map(String::as_str)
            .chain(HELPER_VARIABLES)
        {
            cmd.env_remove(name);
        }
        if let Some(c) = &self.credentials {
            cmd.env("GIT_CONFIG_COUNT", "2")
                .env("GIT_CONFIG_KEY_0", "credential.helper")
                .env("GIT_CONFIG_VALUE_0", "")
                .env("GIT_CONFIG_KEY_1", "credential.helper")
                .env("GIT_CONFIG_VALUE_1", HELPER)
                .env("OLM_RELEASE_GIT_USERNAME", &c.username)
                .env("OLM_RELEASE_GIT_PASSWORD", c.password.expose());
        }
        cmd
    }

    /// Runs `git [-C dir] args…`; its output when it exits 0 (or with a status in `ok`).
    pub(crate) fn run<I, S>(
        &self,
        dir: Option<&Path>,
        args: I,
        ok: &[i32],
    ) -> Result<Output, GitError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let args: Vec<std::ffi::OsString> = args
            .into_iter()
            .map(|a| a.as_ref().to_os_string())
            .collect();
        let mut cmd = self.command(dir);
        cmd.args(&args);
        let out = cmd
            .output()
            .map_err(|source| GitError::Missing { source })?;
        let code = out.status.code();
        if out.status.success() || code.is_some_and(|c| ok.contains(&c)) {
            return Ok(out);
        }
        Err(self.failed(&args, &out))
    }

    /// [`Git::run`] for a command that talks to `remote`: within the budget, if any (see the
    /// module doc).
    pub(crate) fn run_remote<I, S>(
        &self,
        dir: Option<&Path>,
        args: I,
        ok: &[i32],
        remote: &str,
    ) -> Result<Output, GitError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let Some(budget) = self.budget else {
            return self.run(dir, args, ok);
        };
        let args: Vec<std::ffi::OsString> = args
            .into_iter()
            .map(|a| a.as_ref().to_os_string())
            .collect();
        let mut cmd = self.command(dir);
        let stall = budget.as_secs().clamp(1, LOW_SPEED_SECONDS);
        cmd.args(&args)
            .env("GIT_HTTP_LOW_SPEED_LIMIT", LOW_SPEED_BYTES.to_string())
            .env("GIT_HTTP_LOW_SPEED_TIME", stall.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().map_err(|source| GitError::Missing { source })?;
        // Read both pipes on their own threads, so a chatty command never blocks on a full
        // pipe; a helper git started may hold them open after git is killed, so they are
        // joined only when git exited by itself.
        let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
            std::thread::spawn(move || {
                let mut out = Vec::new();
                if let Some(mut p) = pipe {
                    let _ = p.read_to_end(&mut out);
                }
                out
            })
        };
        let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
        let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
        let started = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if started.elapsed() >= budget => {
                    let _ = child.kill();
                    let _ = child.wait();
                    let shown: Vec<String> = args
                        .iter()
                        .map(|a| a.to_string_lossy().into_owned())
                        .collect();
                    return Err(GitError::TimedOut {
                        command: self.scrub(&format!("git {}", shown.join(" "))),
                        remote: self.scrub(remote),
                        seconds: budget.as_secs(),
                    });
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(20)),
                Err(source) => return Err(GitError::Missing { source }),
            }
        };
        let out = Output {
            status,
            stdout: stdout.join().unwrap_or_default(),
            stderr: stderr.join().unwrap_or_default(),
        };
        if out.status.success() || out.status.code().is_some_and(|c| ok.contains(&c)) {
            return Ok(out);
        }
        Err(self.failed(&args, &out))
    }

    /// The error for a command that failed.
    pub(crate) fn failed(&self, args: &[std::ffi::OsString], out: &Output) -> GitError {
        let shown: Vec<String> = args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        GitError::Failed {
            command: self.scrub(&format!("git {}", shown.join(" "))),
            status: out
                .status
                .code()
                .map_or_else(|| "signal".to_string(), |c| c.to_string()),
            stderr: self.scrub(&shorten(&String::from_utf8_lossy(&out.stderr))),
        }
    }
}

/// `text` with the user information of every URL in it (`https://user:token@host`) shown as
/// `***@`.
pub(crate) fn without_userinfo(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("://") {
        let (head, tail) = rest.split_at(i + 3);
        out.push_str(head);
        let end = tail
            .find(|c: char| c == '/' || c.is_whitespace() || c == '\'' || c == '"')
            .unwrap_or(tail.len());
        match tail[..end].rfind('@') {
            Some(at) => {
                out.push_str("***");
                out.push_str(&tail[at..end]);
            }
            None => out.push_str(&tail[..end]),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// git's stderr as one short line: the lines that say what failed (hints and progress left
/// out), at most 500 characters.
pub(crate) fn shorten(stderr: &str) -> String {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("hint:"))
        .collect();
    let text = lines.join("; ");
    match text.char_indices().nth(500) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None if text.is_empty() => "(nothing on stderr)".into(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The environment `cmd` changes: set values, and `None` for removed ones.
    fn envs(cmd: &Command) -> Vec<(String, Option<String>)> {
        cmd.get_envs()
            .map(|(k, v)| {
                (
                    k.to_string_lossy().into_owned(),
                    v.map(|v| v.to_string_lossy().into_owned()),
                )
            })
            .collect()
    }

    #[test]
    fn other_secrets_are_withheld_and_the_helper_variables_are_only_the_credentials() {
        let bare = Git::new(None).withholding(&["OCI_PASSWORD", "QUAY_TOKEN"]);
        let env = envs(&bare.command(None));
        for name in [
            "OCI_PASSWORD",
            "QUAY_TOKEN",
            "OLM_RELEASE_GIT_PASSWORD",
            "OLM_RELEASE_GIT_USERNAME",
        ] {
            assert!(
                env.contains(&(name.to_string(), None)),
                "{name} inherited: {env:?}"
            );
        }
        let with = Git::new(Some(Credentials {
            username: "bot".into(),
            password: Secret::new("tok"),
        }))
        .withholding(&["GIT_TOKEN"]);
        let env = envs(&with.command(None));
        assert!(env.contains(&("GIT_TOKEN".to_string(), None)), "{env:?}");
        assert!(
            env.contains(&(
                "OLM_RELEASE_GIT_PASSWORD".to_string(),
                Some("tok".to_string())
            )),
            "{env:?}"
        );
    }

    #[test]
    fn user_information_in_urls_is_hidden() {
        assert_eq!(
            without_userinfo("fatal: unable to access 'https://bot:tok@example.com/r.git/': x"),
            "fatal: unable to access 'https://***@example.com/r.git/': x"
        );
        assert_eq!(
            without_userinfo("http://example.com/a b://c"),
            "http://example.com/a b://c"
        );
    }
}
