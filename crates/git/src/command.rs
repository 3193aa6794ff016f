//! Running the `git` binary: one place builds every command's environment (the C locale, no
//! terminal prompt, the credential helper), runs it, and turns a failure into a [`GitError`]
//! whose text holds no secret.
//!
//! The credential helper is given as configuration in the environment, not on the command
//! line: `GIT_CONFIG_COUNT=2`, `credential.helper` set to the empty string first (which resets
//! the helpers of the user's and the system's configuration, gitcredentials(7)), then to a
//! shell snippet that answers `get` with `username=` and `password=` read from two variables
//! of git's own environment. So the token reaches git through its environment only, as
//! `GIT_ASKPASS` programs do, and never appears in a URL, an argument list or a message.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output, Stdio};

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
}

impl Git {
    /// `git` from `PATH`, offering `credentials` to HTTPS remotes that ask.
    pub fn new(credentials: Option<Credentials>) -> Self {
        Git {
            program: "git".into(),
            credentials,
        }
    }

    /// `text` without the credentials.
    pub(crate) fn scrub(&self, text: &str) -> String {
        match &self.credentials {
            Some(c) => redact(text, &[c.password.expose()]),
            None => text.to_string(),
        }
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
