//! Bundle validation: the consolidated checklist of the fact sheet (§5.1) and the upgrade-graph
//! checks (§6), each finding naming file, object and field, the upstream rule it mirrors and how
//! to fix it.
//!
//! One entry point per input: [`verify_path`] (a folder, a flattened `bundle.yaml` or a
//! `.tar.gz`, used by `olm-release verify`), [`verify_tarball`] (the verify stage, on the exact
//! bytes it will push) and [`validate_with`] (an in-memory bundle). All of them end in the same
//! rule modules: [`load`] (files: YAML, names, layout), [`csv`], [`present`] and [`install`]
//! (one CSV at a time), [`crd`] (CRDs and what CSVs own), [`package`] (the package file) and
//! [`graph`] (the upgrade graph). Levels per profile live in one table, [`rules`]; string checks
//! are hand-written in [`text`] (no regular expressions to compile per CSV).

pub mod crd;
pub mod csv;
pub mod graph;
pub mod install;
pub mod load;
pub mod package;
pub mod present;
pub mod rules;
pub mod text;

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Bundle, Finding, Level, Manifest};
use rules::Rule;

/// Which era's rules apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    /// OpenShift 4.1 / app registry, as operator-courier 2.1.11 and the 2019 OLM CRDs check.
    #[default]
    #[serde(rename = "appregistry-2019")]
    Appregistry2019,
    /// operator-framework/api's current rules.
    Modern,
}

impl Profile {
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Appregistry2019 => "appregistry-2019",
            Profile::Modern => "modern",
        }
    }
}

/// What to enforce.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    pub profile: Profile,
    /// OperatorHub rules as errors (what `operator-courier verify --ui_validate_io` enforces).
    pub operatorhub: bool,
}

impl Options {
    pub fn new(profile: Profile) -> Self {
        Options {
            profile,
            operatorhub: false,
        }
    }
}

/// What a verification found, and about what.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The path or name that was verified.
    pub source: String,
    pub profile: Profile,
    pub operatorhub: bool,
    /// sha256 of the uncompressed tar (the app registry's digest), for a `.tar.gz`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// sha256 of the `.tar.gz` file, for a `.tar.gz`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gz_digest: Option<String>,
    pub errors: usize,
    pub warnings: usize,
    /// Errors first, then warnings, each in file order.
    pub findings: Vec<Finding>,
}

impl Report {
    fn new(source: String, opts: &Options, mut findings: Vec<Finding>) -> Self {
        findings.sort_by(|a, b| (a.level, &a.file).cmp(&(b.level, &b.file)));
        findings.dedup();
        let errors = super::finding::errors(&findings);
        Report {
            source,
            profile: opts.profile,
            operatorhub: opts.operatorhub,
            digest: None,
            gz_digest: None,
            errors,
            warnings: findings.len() - errors,
            findings,
        }
    }

    pub fn is_valid(&self) -> bool {
        self.errors == 0
    }
}

/// Validates an in-memory bundle (as packaged: the package file is `bundle.package.file_name()`).
pub fn validate(bundle: &Bundle, profile: Profile) -> Vec<Finding> {
    validate_with(bundle, &Options::new(profile))
}

/// Validates an in-memory bundle under `opts`; findings sorted errors first.
pub fn validate_with(bundle: &Bundle, opts: &Options) -> Vec<Finding> {
    let file = bundle.package.file_name();
    let mut sink = Sink::new(opts);
    check(bundle, Some(&file), &mut sink);
    Report::new(String::new(), opts, sink.out).findings
}

/// Verifies a folder (flat or nested), a flattened `bundle.yaml`, or a `.tar.gz`. Fails only
/// when the path cannot be read; everything wrong inside is a finding.
pub fn verify_path(path: &Path, opts: &Options) -> Result<Report, String> {
    let shown = path.display().to_string();
    if path.is_dir() {
        let files = load::read_dir(path).map_err(|e| format!("{shown}: {e}"))?;
        return Ok(verify_files(shown, &files, false, opts));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{shown}: {e}"))?;
    if bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(verify_tarball(&shown, &bytes, opts));
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| shown.clone());
    Ok(verify_files(shown, &[(name, bytes)], true, opts))
}

/// Verifies a bundle `.tar.gz` exactly as the registry's consumers would read it: one regular
/// file is a flattened `bundle.yaml`, several are a manifest tree.
pub fn verify_tarball(shown: &str, gz: &[u8], opts: &Options) -> Report {
    let mut report = match super::archive::unpack(gz, Default::default()) {
        Ok((files, digest)) => {
            let files = load::strip_top_folder(files);
            let mut r = verify_files(shown.to_string(), &files, files.len() == 1, opts);
            r.digest = Some(digest);
            r
        }
        Err(e) => {
            let mut sink = Sink::new(opts);
            sink.add(&rules::BUNDLE_FORMAT, &At::new(shown, "bundle"), "", e);
            Report::new(shown.to_string(), opts, sink.out)
        }
    };
    report.gz_digest = Some(super::archive::sha256_hex(gz));
    report
}

/// Verifies a bundle this process has just packed: the in-memory bundle is validated, and the
/// tarball is checked to be exactly its packing (its tar's sha256 is the digest recorded when it
/// was packed from that bundle). Because packing is a pure function of the bundle, the bytes
/// that will be sent are the validated bundle; this skips parsing megabytes of YAML a second
/// time. (That the writer's YAML reads back as the same values is property-tested.)
pub fn verify_packed(
    shown: &str,
    bundle: &Bundle,
    packed: &super::archive::Packed,
    opts: &Options,
) -> Report {
    let file = bundle.package.file_name();
    let mut sink = Sink::new(opts);
    check(bundle, Some(&file), &mut sink);
    packed_report(shown, packed, sink)
}

/// [`verify_packed`] for a bundle read one CSV at a time: each CSV was checked with
/// [`check_csv`] when it was read (its findings are `per_csv`) and reduced to its
/// [`skeleton`]; here the checks across the bundle run on the skeletons.
pub fn verify_packed_streamed(
    shown: &str,
    skeletons: &Bundle,
    per_csv: Vec<Finding>,
    packed: &super::archive::Packed,
    opts: &Options,
) -> Report {
    let file = skeletons.package.file_name();
    let mut sink = Sink::new(opts);
    sink.out = per_csv;
    check_across(skeletons, Some(&file), &mut sink);
    packed_report(shown, packed, sink)
}

/// Adds the check that the tarball is the packing, and makes the report.
fn packed_report(shown: &str, packed: &super::archive::Packed, mut sink: Sink) -> Report {
    let opts = sink.opts;
    match super::archive::tar_digest(&packed.gz, Default::default()) {
        Ok(digest) if digest == packed.digest => {}
        Ok(digest) => sink.add(
            &rules::BUNDLE_FORMAT,
            &At::new(shown, "bundle"),
            "",
            format!(
                "the tarball holds sha256:{digest}, not the packed bundle's sha256:{}",
                packed.digest
            ),
        ),
        Err(e) => sink.add(&rules::BUNDLE_FORMAT, &At::new(shown, "bundle"), "", e),
    }
    let mut report = Report::new(shown.to_string(), opts, sink.out);
    report.digest = Some(packed.digest.clone());
    report.gz_digest = Some(packed.gz_digest.clone());
    report
}

fn verify_files(source: String, files: &[(String, Vec<u8>)], flat: bool, opts: &Options) -> Report {
    let mut sink = Sink::new(opts);
    let loaded = if flat {
        files
            .first()
            .map(|(name, bytes)| load::flattened(name, bytes, &mut sink))
            .unwrap_or_default()
    } else {
        load::tree(files, &mut sink)
    };
    if let Some(bundle) = &loaded.bundle {
        check(bundle, loaded.package_file.as_deref(), &mut sink);
    }
    Report::new(source, opts, sink.out)
}

/// Every bundle-level rule. `package_file` is `None` when the bundle had no package file
/// (already reported), which turns off the package and channel checks.
fn check(bundle: &Bundle, package_file: Option<&str>, sink: &mut Sink) {
    for csv in &bundle.csvs {
        check_csv(csv, sink);
    }
    check_across(bundle, package_file, sink);
    if sink.opts.profile == Profile::Modern {
        package::check_size(bundle, sink);
    }
}

/// The checks that look at one CSV alone. Together with [`check_across`] on the CSVs'
/// [`skeleton`]s they find exactly what the whole-bundle check finds (except the modern
/// profile's bundle-size rule, which needs every document whole), so a large bundle can be
/// validated one CSV at a time.
pub fn check_csv(csv: &Manifest, sink: &mut Sink) {
    csv::check(csv, sink);
    install::check(csv, sink);
}

/// What the checks across a bundle read of a CSV: its identity, version and upgrade edges
/// (`replaces`, `skips`, `olm.skipRange`), its owned and required APIs and its examples. The
/// rest (install strategy, permissions, icon, description) is only read by [`check_csv`].
pub fn skeleton(csv: &Manifest) -> Manifest {
    use serde_yaml_ng::{Mapping, Value};
    let mut top = Mapping::new();
    for key in ["apiVersion", "kind", "metadata"] {
        if let Some(v) = csv.doc.get(key) {
            top.insert(key.into(), v.clone());
        }
    }
    if let Some(spec) = csv.doc.get("spec").and_then(Value::as_mapping) {
        let mut kept = Mapping::new();
        for key in ["version", "replaces", "skips", "customresourcedefinitions"] {
            if let Some(v) = spec.get(key) {
                kept.insert(key.into(), v.clone());
            }
        }
        top.insert("spec".into(), Value::Mapping(kept));
    } else if let Some(spec) = csv.doc.get("spec") {
        top.insert("spec".into(), spec.clone());
    }
    Manifest::new(csv.file.clone(), Value::Mapping(top))
}

/// The checks across the bundle: owned CRDs against the CRD files, versions, the package file
/// and the upgrade graph.
fn check_across(bundle: &Bundle, package_file: Option<&str>, sink: &mut Sink) {
    crd::check(bundle, sink);
    graph::check_versions(bundle, sink);
    if let Some(file) = package_file {
        package::check(bundle, file, sink);
        graph::check(bundle, sink);
    }
}

/// Where a finding is: the file and the object.
#[derive(Debug, Clone, Copy)]
pub struct At<'a> {
    pub file: &'a str,
    pub object: &'a str,
}

impl<'a> At<'a> {
    pub fn new(file: &'a str, object: &'a str) -> Self {
        At { file, object }
    }

    /// A manifest, named by `metadata.name`.
    pub fn of(m: &'a Manifest) -> Self {
        At {
            file: &m.file,
            object: m.name().unwrap_or("(unnamed)"),
        }
    }
}

/// Collects findings at the level each rule has under the options.
pub struct Sink<'o> {
    pub opts: &'o Options,
    pub out: Vec<Finding>,
}

impl<'o> Sink<'o> {
    pub fn new(opts: &'o Options) -> Self {
        Sink {
            opts,
            out: Vec::new(),
        }
    }

    /// Reports `rule` with its generic fix (nothing when the rule is off in this profile).
    pub fn add(&mut self, rule: &Rule, at: &At, field: &str, message: impl Into<String>) {
        self.add_fix(rule, at, field, message, rule.fix);
    }

    /// Reports `rule` with a specific fix.
    pub fn add_fix(
        &mut self,
        rule: &Rule,
        at: &At,
        field: &str,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) {
        let Some(level) = rule.level(self.opts) else {
            return;
        };
        self.out.push(Finding {
            level,
            rule: rule.id.to_string(),
            mirrors: rule.mirrors.to_string(),
            file: at.file.to_string(),
            object: at.object.to_string(),
            field: field.to_string(),
            message: message.into(),
            fix: fix.into(),
        });
    }

    /// Whether `rule` reports anything under these options (to skip costly checks).
    pub fn on(&self, rule: &Rule) -> bool {
        rule.level(self.opts).is_some()
    }

    pub fn level(&self, rule: &Rule) -> Option<Level> {
        rule.level(self.opts)
    }
}
