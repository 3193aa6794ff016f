//! Where findings go: [`At`] names the file and object a finding is about, and [`Sink`]
//! collects findings at the level each rule has under the options, attributing each to the
//! tools that enforce it (see [`super::rules`]).

use super::model::Options;
use super::rules::{Rule, Tool};
use crate::{Finding, Level, Manifest};

/// Where a finding is: the file and the object.
#[derive(Debug, Clone, Copy)]
pub struct At<'a> {
    pub(crate) file: &'a str,
    pub(crate) object: &'a str,
}

impl<'a> At<'a> {
    pub(crate) fn new(file: &'a str, object: &'a str) -> Self {
        At { file, object }
    }

    /// A manifest, named by `metadata.name`.
    pub(crate) fn of(m: &'a Manifest) -> Self {
        At {
            file: &m.file,
            object: m.name().unwrap_or("(unnamed)"),
        }
    }
}

/// Collects findings at the level each rule has under the options.
pub struct Sink<'o> {
    pub(crate) opts: &'o Options,
    /// The findings added so far, in the order added.
    pub out: Vec<Finding>,
    /// The input is a tree of version folders (courier's nested mode), not one flat bundle.
    pub(crate) nested: bool,
}

impl<'o> Sink<'o> {
    /// An empty sink for a flat bundle, rating rules as `opts` say.
    pub fn new(opts: &'o Options) -> Self {
        Sink {
            opts,
            out: Vec::new(),
            nested: false,
        }
    }

    /// Reports `rule` with its generic fix (nothing when the rule is off in this profile).
    pub fn add(&mut self, rule: &Rule, at: &At, field: &str, message: impl Into<String>) {
        self.report(rule, &[], at, field, message.into(), rule.fix);
    }

    /// Reports `rule` with a specific fix.
    pub(crate) fn add_fix(
        &mut self,
        rule: &Rule,
        at: &At,
        field: &str,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) {
        self.report(rule, &[], at, field, message.into(), &fix.into());
    }

    /// Reports `rule` for a case that the tools in `except` accept (they are left out of the
    /// level and the attribution).
    pub(crate) fn add_except(
        &mut self,
        rule: &Rule,
        except: &[Tool],
        at: &At,
        field: &str,
        message: impl Into<String>,
    ) {
        self.report(rule, except, at, field, message.into(), rule.fix);
    }

    /// [`Sink::add_except`] with a specific fix.
    pub(crate) fn add_except_fix(
        &mut self,
        rule: &Rule,
        except: &[Tool],
        at: &At,
        field: &str,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) {
        self.report(rule, except, at, field, message.into(), &fix.into());
    }

    fn report(
        &mut self,
        rule: &Rule,
        except: &[Tool],
        at: &At,
        field: &str,
        message: String,
        fix: &str,
    ) {
        let Some((mut level, by)) = rule.judge(self.opts, except) else {
            return;
        };
        // An error only olm-release gives can be accepted: then it is a warning with the
        // pipeline's reason, else its fix says how to accept it.
        let acceptable = level == Level::Error
            && by == "olm-release"
            && super::accept::acceptable(rule, self.opts.profile);
        let accepted = acceptable
            .then(|| {
                self.opts
                    .accepted
                    .iter()
                    .find(|a| a.covers(rule.id, at.object))
            })
            .flatten()
            .map(|a| a.because.clone());
        let mut fix = fix.to_string();
        if accepted.is_some() {
            level = Level::Warning;
        } else if acceptable {
            fix.push_str(&format!(
                "; or, if the project ships it knowingly, accept it with the reason: verify.accept in the pipeline with rule: {}, object: {}, because: WHY (verify --accept {}:{}=WHY)",
                rule.id, at.object, rule.id, at.object
            ));
        }
        self.out.push(Finding {
            level,
            rule: rule.id.to_string(),
            mirrors: by,
            file: at.file.to_string(),
            object: at.object.to_string(),
            field: field.to_string(),
            message,
            fix,
            accepted,
        });
    }

    /// Whether `rule` reports anything under these options (to skip costly checks).
    pub(crate) fn on(&self, rule: &Rule) -> bool {
        rule.level(self.opts).is_some()
    }
}

/// Errors first, then warnings, each in file order; repeats dropped.
pub(crate) fn sorted(mut findings: Vec<Finding>) -> Vec<Finding> {
    findings.sort_by(|a, b| (a.level, &a.file).cmp(&(b.level, &b.file)));
    findings.dedup();
    findings
}
