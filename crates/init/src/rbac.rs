//! The repository's RBAC as `init` reads it: which (Cluster)Roles each service account is
//! bound to, which custom resources those roles let it manage, and the CSV permissions each
//! service account gets.
//!
//! Every service account keeps its own permissions: a ClusterRoleBinding's role becomes that
//! account's `clusterPermissions`, a RoleBinding's (to a Role or a ClusterRole) its namespaced
//! `permissions`, and nothing else is added — never another account's roles, never every role
//! of a file (HCO's cert-manager RBAC merged into its operator's account gave 458 rules).

use serde_yaml_ng::Value;

use super::parts::Crd;
use super::scan::{YamlFile, str_at};

/// A binding of a service account to a role.
#[derive(Debug, Clone)]
pub(crate) struct Binding {
    pub service_account: String,
    /// `ClusterRoleBinding` or `RoleBinding`.
    pub kind: String,
    /// `ClusterRole` or `Role`.
    pub role_kind: String,
    pub role: String,
}

/// A (Cluster)Role and the file holding it.
#[derive(Debug, Clone)]
pub(crate) struct Role {
    pub kind: String,
    pub name: String,
    pub file: String,
    pub rules: Vec<Value>,
}

/// The bindings and roles of a set of files.
#[derive(Debug, Clone, Default)]
pub(crate) struct Rbac {
    pub bindings: Vec<Binding>,
    pub roles: Vec<Role>,
}

/// One CSV permission entry, as the pipeline's `render.csv` writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Permissions {
    pub service_account: String,
    /// The first role bound; its rules come first.
    pub role: String,
    /// The other roles bound to the same account the same way.
    pub include: Vec<String>,
    /// `clusterPermissions` (a ClusterRoleBinding) or `permissions` (a RoleBinding).
    pub cluster: bool,
    /// The files holding those roles.
    pub files: Vec<String>,
}

impl Rbac {
    /// Reads every binding and role of `files`.
    pub fn read<'a>(files: impl Iterator<Item = &'a YamlFile>) -> Rbac {
        let mut out = Rbac::default();
        for f in files {
            for d in &f.docs {
                let kind = str_at(d, &["kind"]).unwrap_or_default();
                let name = str_at(d, &["metadata", "name"]).unwrap_or_default();
                match kind {
                    "ClusterRole" | "Role" if !name.is_empty() => out.roles.push(Role {
                        kind: kind.into(),
                        name: name.into(),
                        file: f.rel.clone(),
                        rules: d
                            .get("rules")
                            .and_then(Value::as_sequence)
                            .cloned()
                            .unwrap_or_default(),
                    }),
                    "ClusterRoleBinding" | "RoleBinding" => {
                        let role_kind = str_at(d, &["roleRef", "kind"]).unwrap_or_default();
                        let role = str_at(d, &["roleRef", "name"]).unwrap_or_default();
                        let subjects = d.get("subjects").and_then(Value::as_sequence);
                        for s in subjects.into_iter().flatten() {
                            if str_at(s, &["kind"]) == Some("ServiceAccount")
                                && let Some(sa) = str_at(s, &["name"])
                            {
                                out.bindings.push(Binding {
                                    service_account: sa.into(),
                                    kind: kind.into(),
                                    role_kind: role_kind.into(),
                                    role: role.into(),
                                });
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// The roles bound to `sa`, each once, in file order; of roles of one name in several
    /// files (copies), the one of the bound kind in `near` (the Deployment's folder), else the
    /// shallowest.
    fn roles_of(&self, sa: &str, near: &str) -> Vec<(&Binding, &Role)> {
        let mut out: Vec<(&Binding, &Role)> = Vec::new();
        for b in self.bindings.iter().filter(|b| b.service_account == sa) {
            let role = self
                .roles
                .iter()
                .filter(|r| r.name == b.role)
                .min_by_key(|r| {
                    (
                        r.kind != b.role_kind,
                        r.file.rsplit_once('/').map_or("", |(d, _)| d) != near,
                        r.file.matches('/').count(),
                        r.file.clone(),
                    )
                });
            if let Some(r) = role
                && !out
                    .iter()
                    .any(|(ob, or)| or.name == r.name && ob.kind == b.kind)
            {
                out.push((b, r));
            }
        }
        out
    }

    /// The CRDs among `crds` that `sa`'s roles name (any verb on their group and resource; a
    /// `*` group or resource names nothing: a cert-manager's wildcard role manages no CRD of
    /// the operator in particular).
    pub fn manages<'c>(&self, sa: &str, crds: &'c [Crd]) -> Vec<&'c Crd> {
        let roles = self.roles_of(sa, "");
        crds.iter()
            .filter(|crd| {
                roles
                    .iter()
                    .any(|(_, r)| r.rules.iter().any(|rule| names(rule, crd)))
            })
            .collect()
    }

    /// The CSV permissions of `sa`: one clusterPermissions entry for its ClusterRoleBindings,
    /// one permissions entry for its RoleBindings; roles read from `near` where it holds them.
    pub fn permissions(&self, sa: &str, near: &str) -> Vec<Permissions> {
        let roles = self.roles_of(sa, near);
        let mut out = Vec::new();
        for cluster in [true, false] {
            let mine: Vec<&Role> = roles
                .iter()
                .filter(|(b, _)| (b.kind == "ClusterRoleBinding") == cluster)
                .map(|(_, r)| *r)
                .collect();
            let Some(first) = mine.first() else { continue };
            let mut files: Vec<String> = mine.iter().map(|r| r.file.clone()).collect();
            files.sort();
            files.dedup();
            out.push(Permissions {
                service_account: sa.to_string(),
                role: first.name.clone(),
                include: mine[1..].iter().map(|r| r.name.clone()).collect(),
                cluster,
                files,
            });
        }
        out
    }
}

/// Whether `rule` names `crd`'s group and resource with some verb.
fn names(rule: &Value, crd: &Crd) -> bool {
    let list = |key: &str| -> Vec<&str> {
        rule.get(key)
            .and_then(Value::as_sequence)
            .map(|s| s.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    };
    let groups = list("apiGroups");
    let resources = list("resources");
    groups.contains(&crd.group.as_str())
        && resources
            .iter()
            .any(|r| r.split('/').next() == Some(crd.plural.as_str()))
        && !list("verbs").is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::parse;

    fn file(rel: &str, text: &str) -> YamlFile {
        YamlFile {
            rel: rel.into(),
            text: text.into(),
            docs: parse(text),
            patch: false,
            generated: false,
        }
    }

    #[test]
    fn each_account_keeps_its_own_roles() {
        let rbac = file(
            "deploy/rbac.yaml",
            "kind: ClusterRole\nmetadata: {name: op}\nrules: [{apiGroups: [ex.com], resources: [widgets, widgets/status], verbs: ['*']}]\n---\n\
             kind: ClusterRole\nmetadata: {name: delegate}\nrules: [{apiGroups: [''], resources: [pods], verbs: [get]}]\n---\n\
             kind: ClusterRole\nmetadata: {name: cert-manager}\nrules: [{apiGroups: ['*'], resources: ['*'], verbs: ['*']}]\n---\n\
             kind: Role\nmetadata: {name: leader}\nrules: [{apiGroups: [''], resources: [configmaps], verbs: [get]}]\n---\n\
             kind: ClusterRoleBinding\nroleRef: {kind: ClusterRole, name: op}\nsubjects: [{kind: ServiceAccount, name: op}]\n---\n\
             kind: ClusterRoleBinding\nroleRef: {kind: ClusterRole, name: delegate}\nsubjects: [{kind: ServiceAccount, name: op}]\n---\n\
             kind: RoleBinding\nroleRef: {kind: Role, name: leader}\nsubjects: [{kind: ServiceAccount, name: op}]\n---\n\
             kind: ClusterRoleBinding\nroleRef: {kind: ClusterRole, name: cert-manager}\nsubjects: [{kind: ServiceAccount, name: cert-manager}]\n",
        );
        let r = Rbac::read([&rbac].into_iter());
        let p = r.permissions("op", "deploy");
        assert_eq!(p.len(), 2);
        assert_eq!(
            (p[0].role.as_str(), p[0].include.clone(), p[0].cluster),
            ("op", vec!["delegate".to_string()], true)
        );
        assert_eq!((p[1].role.as_str(), p[1].cluster), ("leader", false));
        let crd = |group: &str, plural: &str| Crd {
            file: "c.yaml".into(),
            name: format!("{plural}.{group}"),
            group: group.into(),
            version: "v1".into(),
            kind: "K".into(),
            plural: plural.into(),
            copies: Vec::new(),
        };
        let crds = [crd("ex.com", "widgets"), crd("other.io", "gadgets")];
        assert_eq!(r.manages("op", &crds).len(), 1);
        assert!(
            r.manages("cert-manager", &crds).is_empty(),
            "a wildcard names no CRD"
        );
        assert!(r.manages("nobody", &crds).is_empty());
    }
}
