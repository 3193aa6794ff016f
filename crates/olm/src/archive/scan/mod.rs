//! A linear pre-scan of YAML text that measures what parsing it would build — nesting depth,
//! number of values, bytes added by aliases — and stops at the first budget it passes, before
//! the YAML parser runs.
//!
//! Why a scan before the parser: libyaml (under `serde_yaml_ng`) re-checks every open flow
//! level for each token, so `[[[…]]]` 100,000 levels deep took 36 s before the parser's own
//! recursion limit fired (quadratic: 261 s at 200,000); and the parser builds its event list and
//! value tree before anything can count them, so a 2.5 MB `.tar.gz` of tiny list items reached
//! GiBs. This scan reads each byte a bounded number of times and holds nothing but the stack
//! of open block collections, so a refusal costs milliseconds and no memory.
//!
//! It tokenises as libyaml does where structure is decided — line breaks (`\r`, `\n`, NEL, LS,
//! PS), comments at a token start, quoted scalars, block scalars and their indentation, plain
//! scalars and their continuation lines, flow collections, `- `, `? `, `key:`, anchors, tags
//! and aliases — and errs on the side of counting more: a document it over-counts is valid YAML
//! that is deeper or larger than the budget anyway, and on input libyaml rejects it only has
//! to stay linear. That it never counts less depth or fewer values than the parser builds is
//! property-tested (tests/it/fuzz.rs).
//!
//! Aliases are counted as expanded: `*a` adds every value and byte from `&a` to `*a`, an upper
//! bound of the anchored node's expanded size, so "billion laughs" and its quadratic cousins
//! (one big anchor, many aliases) pass the budget within a few aliases.

use std::collections::HashMap;

mod block;
mod flow;
#[cfg(test)]
mod tests;

/// What a scan may use: depth, values and alias-expanded bytes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Allowance {
    pub(crate) max_depth: usize,
    pub(crate) max_nodes: u64,
    pub(crate) max_alias_bytes: u64,
}

/// What a scanned text would build.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Measure {
    /// Values (scalars, collections, alias expansions).
    pub nodes: u64,
    /// Deepest nesting of collections.
    pub depth: usize,
    /// Values directly inside the top collection (a list's items; a mapping's keys and values).
    pub(crate) items: u64,
    /// Bytes aliases add when expanded.
    pub(crate) alias_bytes: u64,
}

/// Which allowance a text passed, and at which byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Over {
    Depth(usize),
    Nodes(usize),
    AliasBytes(usize),
}

impl Over {
    /// The 1-based line of the offending byte.
    pub(crate) fn line(self, text: &str) -> usize {
        let (Over::Depth(at) | Over::Nodes(at) | Over::AliasBytes(at)) = self;
        let b = &text.as_bytes()[..at.min(text.len())];
        let mut line = 1;
        let mut i = 0;
        while i < b.len() {
            match brk(b, i) {
                0 => i += 1,
                n => {
                    line += 1;
                    i += n;
                }
            }
        }
        line
    }
}

/// Scans `text` within `allow`.
pub(crate) fn scan(text: &str, allow: Allowance) -> Result<Measure, Over> {
    let mut s = Scanner {
        b: text.as_bytes(),
        p: 0,
        line_start: 0,
        block: Vec::new(),
        flow: 0,
        m: Measure::default(),
        anchors: HashMap::new(),
        allow,
    };
    if s.b.starts_with("\u{feff}".as_bytes()) {
        s.p = 3;
    }
    s.run()?;
    Ok(s.m)
}

/// Measures `text` without limits (for tests and figures).
pub fn measure(text: &str) -> Measure {
    let all = Allowance {
        max_depth: usize::MAX,
        max_nodes: u64::MAX,
        max_alias_bytes: u64::MAX,
    };
    scan(text, all).unwrap_or_default()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Seq,
    Map,
}

struct Scanner<'a> {
    b: &'a [u8],
    p: usize,
    line_start: usize,
    /// Open block collections: column and kind.
    block: Vec<(usize, Kind)>,
    flow: usize,
    m: Measure,
    /// Anchor name → (values, expanded bytes) counted before it.
    anchors: HashMap<&'a [u8], (u64, u64)>,
    allow: Allowance,
}

/// Length of the line break at `i` (libyaml's breaks: LF, CR, CRLF, NEL, LS, PS), or 0.
fn brk(b: &[u8], i: usize) -> usize {
    match b.get(i) {
        Some(b'\n') => 1,
        Some(b'\r') => 1 + usize::from(b.get(i + 1) == Some(&b'\n')),
        Some(0xc2) if b.get(i + 1) == Some(&0x85) => 2,
        Some(0xe2) if b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0xa8 | 0xa9)) => 3,
        _ => 0,
    }
}

/// Whether byte `c` may start a line break (a fast pre-check for [`brk`]).
fn may_break(c: u8) -> bool {
    matches!(c, b'\n' | b'\r' | 0xc2 | 0xe2)
}

fn blank(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

fn flow_indicator(c: u8) -> bool {
    matches!(c, b',' | b'[' | b']' | b'{' | b'}')
}

/// libyaml's anchor and alias name characters.
fn name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

impl<'a> Scanner<'a> {
    /// Blank, line break or end of text at `i`.
    fn blank_or_end(&self, i: usize) -> bool {
        i >= self.b.len() || blank(self.b[i]) || brk(self.b, i) > 0
    }

    fn depth(&self) -> usize {
        self.block.len() + self.flow
    }

    fn check_depth(&mut self) -> Result<(), Over> {
        let d = self.depth();
        self.m.depth = self.m.depth.max(d);
        if d > self.allow.max_depth {
            return Err(Over::Depth(self.p));
        }
        Ok(())
    }

    /// Counts a value (`weight` values for an alias) inside the current collection.
    fn node(&mut self, weight: u64) -> Result<(), Over> {
        self.count(weight, self.depth())
    }

    /// Counts the collection just opened (inside its parent).
    fn collection(&mut self) -> Result<(), Over> {
        self.count(1, self.depth() - 1)
    }

    fn count(&mut self, weight: u64, parent_depth: usize) -> Result<(), Over> {
        self.m.nodes = self.m.nodes.saturating_add(weight);
        if parent_depth == 1 {
            self.m.items += 1;
        }
        if self.m.nodes > self.allow.max_nodes {
            return Err(Over::Nodes(self.p));
        }
        Ok(())
    }

    /// Moves past the line break at `i` (which must be one) and starts a line.
    fn newline(&mut self, i: usize) {
        self.p = i + brk(self.b, i);
        self.line_start = self.p;
    }

    /// Moves to the start of the next line (or the end).
    fn skip_line(&mut self) {
        let mut i = self.p;
        while i < self.b.len() {
            if may_break(self.b[i]) && brk(self.b, i) > 0 {
                self.newline(i);
                return;
            }
            i += 1;
        }
        self.p = i;
    }

    /// Notes the last line break in `b[from..to]` as the current line's start.
    fn track_lines(&mut self, from: usize, to: usize) {
        let mut i = from;
        while i < to {
            match brk(self.b, i) {
                0 => i += 1,
                n => {
                    i += n;
                    self.line_start = i;
                }
            }
        }
    }
}
