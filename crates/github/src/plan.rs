//! The asset plan: what to do with each local asset given what the release already holds.
//!
//! Pure data, decided before any write, so a dry-run prints exactly what a real run does:
//! * same name, state `uploaded`, same size and `sha256:` digest → keep;
//! * same name but different content → replace without a window where neither exists: upload
//!   under a temporary name, delete the old asset, rename the new one;
//! * a temporary copy left by an interrupted replace that already holds the right bytes → finish
//!   that replace (delete the old, rename) instead of uploading again;
//! * any of our names (or temporary names) in another state (`starter` after a 502, `open`) or a
//!   temporary copy with other bytes → a stray, deleted before the uploads.
//!
//! So a re-run after a failure at any point converges to the same release.

use crate::Asset;

/// An asset as GitHub lists it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub(crate) struct Remote {
    pub(crate) id: u64,
    pub(crate) name: String,
    pub(crate) state: String,
    pub(crate) size: u64,
    /// `sha256:<hex>`, or null for assets uploaded before GitHub computed digests.
    pub(crate) digest: Option<String>,
}

impl Remote {
    /// Whether this asset is fully uploaded and holds exactly `asset`'s bytes.
    pub(crate) fn holds(&self, asset: &Asset) -> bool {
        self.state == "uploaded"
            && self.size == asset.bytes.len() as u64
            && self.digest.as_deref() == Some(&format!("sha256:{}", asset.sha256))
    }
}

/// What to do with one local asset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Action {
    /// Already there with the same bytes.
    Keep,
    /// Not there: upload under its name.
    Upload,
    /// There with other bytes: upload as `temp`, delete `old`, rename.
    Replace { old: u64 },
    /// A temporary copy with the right bytes is there: delete `old` (if any), rename `temp`.
    Finish { temp: u64, old: Option<u64> },
}

/// The plan for a release's assets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Plan {
    /// Leftovers to delete before anything is uploaded.
    pub(crate) strays: Vec<Remote>,
    /// One action per local asset, in the same order.
    pub(crate) actions: Vec<Action>,
}

/// The temporary name an asset is uploaded under while it replaces an older one. Plain
/// characters only, so GitHub does not rename it.
pub(crate) fn temp_name(name: &str) -> String {
    format!("{name}.olm-release-new")
}

/// Decides the plan.
pub(crate) fn plan(local: &[Asset], remote: &[Remote]) -> Plan {
    let mut p = Plan::default();
    for asset in local {
        let temp = temp_name(&asset.name);
        let mut current = None;
        let mut reusable = None;
        for r in remote {
            if r.name == asset.name {
                if r.state == "uploaded" {
                    current = Some(r);
                } else {
                    p.strays.push(r.clone());
                }
            } else if r.name == temp {
                if r.holds(asset) && reusable.is_none() {
                    reusable = Some(r);
                } else {
                    p.strays.push(r.clone());
                }
            }
        }
        let action = match (current, reusable) {
            (Some(c), temp) if c.holds(asset) => {
                p.strays.extend(temp.cloned());
                Action::Keep
            }
            (c, Some(t)) => Action::Finish {
                temp: t.id,
                old: c.map(|c| c.id),
            },
            (Some(c), None) => Action::Replace { old: c.id },
            (None, None) => Action::Upload,
        };
        p.actions.push(action);
    }
    p
}

/// The published assets `plan` would replace with other content: `NAME (published sha256:A,
/// local sha256:B)` for each.
pub(crate) fn changed(local: &[Asset], remote: &[Remote], plan: &Plan) -> Vec<String> {
    local
        .iter()
        .zip(&plan.actions)
        .filter_map(|(asset, action)| {
            let old = match action {
                Action::Replace { old } | Action::Finish { old: Some(old), .. } => *old,
                _ => return None,
            };
            let r = remote.iter().find(|r| r.id == old)?;
            Some(format!(
                "{} (published {}, local sha256:{})",
                asset.name,
                r.digest.as_deref().unwrap_or("without a digest"),
                asset.sha256
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn remote(id: u64, name: &str, state: &str, a: Option<&Asset>) -> Remote {
        Remote {
            id,
            name: name.into(),
            state: state.into(),
            size: a.map(|a| a.bytes.len() as u64).unwrap_or(0),
            digest: a.map(|a| format!("sha256:{}", a.sha256)),
        }
    }

    #[test]
    fn keeps_replaces_uploads_and_cleans() {
        let a = Asset::new("a.yaml", b"a".to_vec());
        let b = Asset::new("b.yaml", b"b".to_vec());
        let c = Asset::new("c.yaml", b"c".to_vec());
        let old_b = Asset::new("b.yaml", b"old".to_vec());
        let remotes = vec![
            remote(1, "a.yaml", "uploaded", Some(&a)),
            remote(2, "b.yaml", "uploaded", Some(&old_b)),
            remote(3, "c.yaml", "starter", None),
            remote(4, "unrelated.txt", "starter", None),
        ];
        let p = plan(&[a.clone(), b.clone(), c.clone()], &remotes);
        assert_eq!(
            p.actions,
            vec![Action::Keep, Action::Replace { old: 2 }, Action::Upload]
        );
        assert_eq!(p.strays.iter().map(|r| r.id).collect::<Vec<_>>(), vec![3]);
        let changed = changed(&[a, b, c], &remotes, &p);
        assert_eq!(changed.len(), 1);
        assert!(
            changed[0].starts_with("b.yaml (published sha256:"),
            "{changed:?}"
        );
    }

    #[test]
    fn finishes_an_interrupted_replace_and_drops_a_bad_temp_copy() {
        let a = Asset::new("a.yaml", b"new".to_vec());
        let old = Asset::new("a.yaml", b"old".to_vec());
        let t = temp_name("a.yaml");
        // Interrupted after the temp upload: both there.
        let p = plan(
            std::slice::from_ref(&a),
            &[
                remote(1, "a.yaml", "uploaded", Some(&old)),
                remote(2, &t, "uploaded", Some(&a)),
            ],
        );
        assert_eq!(
            p.actions,
            vec![Action::Finish {
                temp: 2,
                old: Some(1)
            }]
        );
        // Interrupted after the delete: only the temp copy.
        let p = plan(
            std::slice::from_ref(&a),
            &[remote(2, &t, "uploaded", Some(&a))],
        );
        assert_eq!(p.actions, vec![Action::Finish { temp: 2, old: None }]);
        // A temp copy with other bytes is a stray; the old one is replaced afresh.
        let p = plan(
            std::slice::from_ref(&a),
            &[
                remote(1, "a.yaml", "uploaded", Some(&old)),
                remote(2, &t, "uploaded", Some(&old)),
            ],
        );
        assert_eq!(p.actions, vec![Action::Replace { old: 1 }]);
        assert_eq!(p.strays.len(), 1);
    }

    #[test]
    fn a_missing_digest_is_not_trusted() {
        let a = Asset::new("a.yaml", b"a".to_vec());
        let mut r = remote(1, "a.yaml", "uploaded", Some(&a));
        r.digest = None;
        assert_eq!(plan(&[a], &[r]).actions, vec![Action::Replace { old: 1 }]);
    }
}
