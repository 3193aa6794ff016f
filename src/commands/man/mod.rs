//! `olm-release man`: one self-contained roff page (every command and its options, the pipeline
//! file with every key, exit codes, environment variables, examples), and `man --dir DIR`: that
//! page as `olm-release.1` plus one `olm-release-<command>.1` per subcommand, so the references
//! between them resolve. The command and option parts come from the clap definition
//! ([`clap_mangen`] renders them); the pipeline keys, the environment table and the exit codes
//! come from the book's reference pages (`docs/src/reference/`), embedded at build time, so the
//! page and the book cannot drift.

mod reference;

use std::path::{Path, PathBuf};

use clap::{Command, CommandFactory};

use super::CommandError;
use crate::cli::Cli;
use crate::error::Result;

/// The clap command as the man pages see it: built, so every subcommand has its display name
/// (`olm-release-registry-list`), and without the `help` pseudo-command.
fn command() -> Command {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

fn err(e: std::io::Error) -> CommandError {
    CommandError::Man(e.to_string())
}

/// The self-contained page (`olm-release man`); with `see_also`, a SEE ALSO section naming the
/// per-command pages `--dir` writes beside it.
pub(crate) fn page(see_also: bool) -> Result<String> {
    let cmd = command();
    let man = clap_mangen::Man::new(cmd.clone());
    let mut buf = Vec::new();
    man.render_title(&mut buf).map_err(err)?;
    man.render_name_section(&mut buf).map_err(err)?;
    man.render_synopsis_section(&mut buf).map_err(err)?;
    man.render_description_section(&mut buf).map_err(err)?;
    man.render_options_section(&mut buf).map_err(err)?;
    let mut text = String::from_utf8_lossy(&buf).into_owned();
    text.push_str(".SH COMMANDS\n");
    for sub in subcommands(&cmd) {
        commands_entry(&mut text, sub);
    }
    text.push_str(&reference::sections());
    text.push_str(EXAMPLES);
    if see_also {
        text.push_str(".SH \"SEE ALSO\"\n");
        let names: Vec<String> = subcommands(&cmd)
            .iter()
            .map(|c| format!("\\fB{}\\fR(1)", display(c)))
            .collect();
        text.push_str(&names.join(", "));
        text.push('\n');
    }
    Ok(text)
}

/// `man --dir DIR`: `olm-release.1` and a page per subcommand (nested ones too); returns the
/// files written.
pub(crate) fn write_dir(dir: &Path) -> Result<Vec<PathBuf>> {
    let io = |p: &Path, e| crate::error::Error::io(olm_release_base::Class::Input, p, e);
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let cmd = command();
    let top = dir.join("olm-release.1");
    std::fs::write(&top, page(true)?).map_err(|e| io(&top, e))?;
    let mut written = vec![top];
    for sub in subcommands(&cmd) {
        let man = clap_mangen::Man::new(sub.clone());
        let mut buf = Vec::new();
        man.render(&mut buf).map_err(err)?;
        let mut text = String::from_utf8_lossy(&buf).into_owned();
        text.push_str(".SH \"SEE ALSO\"\n\\fBolm-release\\fR(1)\n");
        let path = dir.join(man.get_filename());
        std::fs::write(&path, text).map_err(|e| io(&path, e))?;
        written.push(path);
    }
    Ok(written)
}

/// Every visible subcommand, depth first (`registry`, then `registry list`, …).
fn subcommands(cmd: &Command) -> Vec<&Command> {
    let mut all = Vec::new();
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        all.push(sub);
        all.extend(subcommands(sub));
    }
    all
}

/// The command as typed: `olm-release registry show` (its display name is
/// `olm-release-registry-show`; a subcommand's own name may hold a `-`, as `next-version`).
fn words(cmd: &Command) -> String {
    cmd.get_bin_name()
        .map(str::to_string)
        .unwrap_or_else(|| display(cmd).to_string())
}

fn display(cmd: &Command) -> &str {
    cmd.get_display_name().unwrap_or_else(|| cmd.get_name())
}

/// One command in the COMMANDS section: its usage, what it does and its own options (the
/// global ones are listed once, under OPTIONS).
fn commands_entry(text: &mut String, cmd: &Command) {
    let name = words(cmd);
    text.push_str(&format!(".SS \"{}\"\n", reference::escape(&name)));
    if let Some(about) = cmd.get_long_about().or(cmd.get_about()) {
        text.push_str(&format!("{}\n", reference::escape(&about.to_string())));
    }
    for arg in cmd
        .get_arguments()
        .filter(|a| !a.is_global_set() && !a.is_hide_set())
    {
        let id = arg.get_id().as_str();
        if id == "help" || id == "version" {
            continue;
        }
        let value = arg
            .get_value_names()
            .map(|v| {
                v.iter()
                    .map(|n| format!("<{n}>"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default();
        let flag = match (arg.get_short(), arg.get_long()) {
            (_, Some(long)) if arg.get_action().takes_values() => format!("--{long} {value}"),
            (_, Some(long)) => format!("--{long}"),
            (Some(s), None) => format!("-{s}"),
            (None, None) => value,
        };
        text.push_str(&format!(
            ".TP\n\\fB{}\\fR\n",
            reference::escape(flag.trim())
        ));
        if let Some(help) = arg.get_long_help().or(arg.get_help()) {
            text.push_str(&format!("{}\n", reference::escape(&help.to_string())));
        }
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_name().to_string())
            .collect();
        if !values.is_empty() && arg.get_action().takes_values() {
            text.push_str(&format!("Values: {}.\n", values.join(", ")));
        }
    }
}

const EXAMPLES: &str = r#".SH EXAMPLES
.TP
Check a release without writing anything:
.B olm-release plan pipelines/release.yaml --var VERSION=0.2.0
.TP
Run it, with a JSON summary on stdout:
.B olm-release run pipelines/release.yaml --format json
.TP
Validate a bundle folder as operator-courier and the registry loader did:
.B olm-release verify deploy/olm-catalog/op --operatorhub
.TP
Draw a registry's default release as Mermaid:
.B olm-release graph --registry https://quay.io/cnr --namespace kubevirt --package kubevirt --format mermaid
.TP
List a package's releases:
.B olm-release registry show --registry https://quay.io/cnr --namespace kubevirt --package kubevirt
.TP
Install the man pages:
.B olm-release man --dir /usr/local/share/man/man1
"#;
