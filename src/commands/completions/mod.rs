//! `olm-release completions SHELL`: shell completion scripts generated from the CLI definition,
//! so they can never list a command or an option the binary does not have.
//!
//! Bash comes from our own generator ([`bash`]): the bash script of clap_complete 4.6 spells
//! the state of a nested subcommand one way where it walks the words and another way where it
//! matches them when the binary's name holds a hyphen (clap-rs/clap#6421), so for
//! `olm-release` it completes nothing past the first subcommand. zsh, fish, elvish and
//! PowerShell come from clap_complete, whose scripts for them keep the binary's name verbatim.

pub(crate) mod bash;

use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;

/// The binary's name, as the shells see it.
const BIN: &str = "olm-release";

/// The completion script for `shell`.
pub(crate) fn script(shell: Shell) -> String {
    let mut cmd = Cli::command();
    match shell {
        Shell::Bash => bash::generate(&mut cmd, BIN),
        other => {
            let mut out = Vec::new();
            clap_complete::generate(other, &mut cmd, BIN, &mut out);
            String::from_utf8(out).expect("clap_complete writes UTF-8")
        }
    }
}
