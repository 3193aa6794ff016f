//! The git client's integration-test binary: the `git` binary against hostile remotes and
//! checkouts (`hostile_remotes`).

mod hostile_remotes;
