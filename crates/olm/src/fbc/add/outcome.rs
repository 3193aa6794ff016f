//! What adding a bundle did, as data for the report: the bundle document, each channel's entry
//! and the default channel, each either unchanged or changed and how; and one line per
//! decision for people.

/// What happened to the `olm.bundle` document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BundleChange {
    Added,
    /// Already there with this image.
    Unchanged,
    /// Forced: the image (and properties) were replaced.
    Replaced {
        old_image: String,
    },
}

/// What happened in one channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryChange {
    /// The channel did not exist; it now holds this entry.
    ChannelCreated {
        replaces: Option<String>,
    },
    Added {
        replaces: Option<String>,
    },
    /// The entry was there already, as requested.
    Unchanged,
    /// Forced: the entry was rewritten.
    Rewritten,
}

/// What happened to `defaultChannel`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DefaultChange {
    Unchanged,
    /// Set or changed, and why.
    Set {
        from: Option<String>,
        to: String,
        why: &'static str,
    },
}

/// The outcome of [`add`](super::add), for the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddOutcome {
    pub(crate) package: String,
    pub(crate) bundle: String,
    pub(crate) image: String,
    pub change: BundleChange,
    pub channels: Vec<(String, EntryChange)>,
    pub default_channel: DefaultChange,
}

impl AddOutcome {
    /// Nothing changed: a rerun.
    pub fn is_noop(&self) -> bool {
        self.change == BundleChange::Unchanged
            && self
                .channels
                .iter()
                .all(|(_, c)| *c == EntryChange::Unchanged)
            && self.default_channel == DefaultChange::Unchanged
    }

    /// One line per decision, for people.
    pub fn lines(&self) -> Vec<String> {
        let (pkg, b) = (&self.package, &self.bundle);
        let mut out = vec![match &self.change {
            BundleChange::Added => format!("catalog: {pkg} gains bundle {b} ({})", self.image),
            BundleChange::Unchanged => {
                format!("catalog: {pkg} already lists {b} with {}", self.image)
            }
            BundleChange::Replaced { old_image } => format!(
                "catalog: {b} of {pkg}: image {old_image} replaced by {} (forced)",
                self.image
            ),
        }];
        let replaces = |r: &Option<String>| match r {
            Some(r) => format!("replaces {r}"),
            None => "replaces nothing".into(),
        };
        for (ch, c) in &self.channels {
            out.push(match c {
                EntryChange::ChannelCreated { replaces: r } => {
                    format!("catalog: new channel {ch}: {b} {}", replaces(r))
                }
                EntryChange::Added { replaces: r } => {
                    format!("catalog: channel {ch}: {b} {}, the new head", replaces(r))
                }
                EntryChange::Unchanged => format!("catalog: channel {ch} already holds {b}"),
                EntryChange::Rewritten => {
                    format!("catalog: channel {ch}: entry {b} rewritten (forced)")
                }
            });
        }
        if let DefaultChange::Set { from, to, why } = &self.default_channel {
            out.push(match from {
                Some(f) => format!("catalog: defaultChannel {f} → {to} ({why})"),
                None => format!("catalog: defaultChannel is {to} ({why})"),
            });
        }
        out
    }
}
