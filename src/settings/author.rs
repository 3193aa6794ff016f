//! Who commits a release's change and when: a catalog branch's commit (`catalog.author`) and
//! the commit of a pull request to a community catalog (`operatorhub.author`). Both are
//! `Name <email>` with the commit date (`SOURCE_DATE_EPOCH`, else the source's commit time),
//! checked once here; the git store signs its commits with it, and GitHub's git data API takes
//! it as the commit's `Author`.

use serde::Serialize;

/// A commit's author and committer, and its date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct CommitAuthor {
    /// `Name <email>`.
    pub(crate) author: String,
    #[serde(skip)]
    pub(crate) name: String,
    #[serde(skip)]
    pub(crate) email: String,
    /// The commit date (`SOURCE_DATE_EPOCH`, else the source's commit time).
    pub(crate) date: u64,
}

impl CommitAuthor {
    /// `(name, email)` as [`author`] read them, committing at `date`.
    pub(crate) fn new((name, email): (String, String), date: u64) -> Self {
        CommitAuthor {
            author: format!("{name} <{email}>"),
            name,
            email,
            date,
        }
    }

    /// As GitHub's git data API takes a commit's author.
    pub(crate) fn github(&self) -> olm_release_github::Author {
        olm_release_github::Author {
            name: self.name.clone(),
            email: self.email.clone(),
            epoch: self.date,
        }
    }
}

/// `Name <email>`, as `(name, email)`.
pub(crate) fn author(text: &str) -> Result<(String, String), String> {
    let parsed = text
        .trim()
        .strip_suffix('>')
        .and_then(|t| t.rsplit_once('<'))
        .map(|(n, e)| (n.trim(), e.trim()));
    match parsed {
        Some((n, e))
            if !n.is_empty()
                && e.contains('@')
                && !e.contains(['<', '>', '\n'])
                && !n.contains(['<', '>', '\n']) =>
        {
            Ok((n.to_string(), e.to_string()))
        }
        _ => Err(format!("'{text}' is not `Name <email>`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_author_for_git_and_github() {
        let a = CommitAuthor::new(author(" A B <a@b.c> ").unwrap(), 1570449600);
        assert_eq!(a.author, "A B <a@b.c>");
        assert_eq!(
            (a.name.as_str(), a.email.as_str(), a.date),
            ("A B", "a@b.c", 1570449600)
        );
        let g = a.github();
        assert_eq!(
            (g.name.as_str(), g.email.as_str(), g.epoch),
            ("A B", "a@b.c", 1570449600)
        );
        assert!(author("A <a@b.c> <x@y.z>").is_err());
        assert!(author("<a@b.c>").is_err());
    }
}
