//! What adding a bundle did, as data for the report: the bundle document, each channel's entry
//! and the default channel, each either unchanged or changed and how; and one line per
//! decision for people.

/// What happened to the `olm.bundle` document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BundleChange {
    /// The bundle was not in the catalog; its document was added.
    Added,
    /// Already there with this image.
    Unchanged,
    /// Forced: the image (and properties) were replaced.
    Replaced {
        /// The image the catalog listed before.
        old_image: String,
    },
}

/// What happened in one channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryChange {
    /// The channel did not exist; it now holds this entry.
    ChannelCreated {
        /// What the entry replaces: `None` in a new channel unless the request named it.
        replaces: Option<String>,
    },
    /// The channel gained the entry, its new head.
    Added {
        /// What the entry replaces: the channel's previous head, or what the request named; `None`
        /// in an empty channel.
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
    /// The package's `defaultChannel` stays as it was.
    Unchanged,
    /// Set or changed, and why.
    Set {
        /// The previous `defaultChannel`; `None` when the package had none (or no `olm.package`
        /// document).
        from: Option<String>,
        /// The new `defaultChannel`.
        to: String,
        /// Why it was set (`named by the release`, `the package's first channel`, …).
        why: &'static str,
    },
}

/// The outcome of [`add`](super::add), for the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddOutcome {
    pub(crate) package: String,
    pub(crate) bundle: String,
    pub(crate) image: String,
    /// What happened to the `olm.bundle` document.
    pub change: BundleChange,
    /// Each channel the bundle joins, in the request's order, with what happened to its entry.
    pub channels: Vec<(String, EntryChange)>,
    /// What happened to the package's `defaultChannel`.
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
