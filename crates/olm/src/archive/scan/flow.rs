//! Flow context (`[…]`, `{…}`) and the tokens both contexts share: quoted scalars, tags,
//! anchors and aliases.

use super::{Over, Scanner, blank, brk, flow_indicator, may_break, name_char};

impl<'a> Scanner<'a> {
    /// A single- or double-quoted scalar starting at `self.p` (it may span lines).
    pub(super) fn quoted(&mut self) {
        let quote = self.b[self.p];
        let from = self.p;
        let mut i = self.p + 1;
        while i < self.b.len() {
            let c = self.b[i];
            if quote == b'"' && c == b'\\' {
                i += 2;
                continue;
            }
            if c == quote {
                if quote == b'\'' && self.b.get(i + 1) == Some(&b'\'') {
                    i += 2;
                    continue;
                }
                i += 1;
                break;
            }
            i += 1;
        }
        let end = i.min(self.b.len());
        self.track_lines(from, end);
        self.p = end;
    }

    /// Skips a tag (`!x`, `!!str`, `!<…>`) or any other word up to a blank or line break.
    pub(super) fn skip_word(&mut self) {
        let mut i = self.p;
        while i < self.b.len() && !blank(self.b[i]) && brk(self.b, i) == 0 {
            if self.flow > 0 && flow_indicator(self.b[i]) && i > self.p {
                break;
            }
            i += 1;
        }
        self.p = i;
    }

    pub(super) fn name(&mut self) -> &'a [u8] {
        let b: &'a [u8] = self.b;
        let from = self.p + 1;
        let mut i = from;
        while i < b.len() && name_char(b[i]) {
            i += 1;
        }
        self.p = i;
        &b[from..i]
    }

    /// `&name`: remembers how much was counted before the anchored node.
    pub(super) fn anchor(&mut self) {
        let at = (self.p as u64).saturating_add(self.m.alias_bytes);
        let name = self.name();
        self.anchors.insert(name, (self.m.nodes, at));
    }

    /// `*name`: counts the anchored node again, at most everything since its anchor.
    pub(super) fn alias(&mut self) -> Result<(), Over> {
        let at = self.p;
        let name = self.name();
        let (nodes, bytes) = match self.anchors.get(name) {
            Some(&(n0, b0)) => (
                self.m.nodes.saturating_sub(n0).max(1),
                (at as u64)
                    .saturating_add(self.m.alias_bytes)
                    .saturating_sub(b0),
            ),
            None => (1, 0),
        };
        self.node(nodes)?;
        self.m.alias_bytes = self.m.alias_bytes.saturating_add(bytes);
        if self.m.alias_bytes > self.allow.max_alias_bytes {
            return Err(Over::AliasBytes(at));
        }
        Ok(())
    }

    /// A flow collection starting at `self.p` (`[` or `{`), through its closing bracket; line
    /// breaks inside it are whitespace. A `key: value` pair directly inside a `[` is a mapping
    /// of its own (one level deeper), as the parser builds it. Returns the deepest flow
    /// nesting it reached.
    pub(super) fn flow_collection(&mut self) -> Result<usize, Over> {
        // Open levels: whether each is a sequence and holds an implicit single-pair mapping.
        let mut open: Vec<(bool, bool)> = Vec::new();
        let mut deepest = 0;
        loop {
            deepest = deepest.max(self.flow);
            // Whitespace, line breaks and comments between tokens.
            loop {
                if self.p >= self.b.len() {
                    self.flow = 0;
                    return Ok(deepest);
                }
                let c = self.b[self.p];
                if blank(c) {
                    self.p += 1;
                } else if brk(self.b, self.p) > 0 {
                    self.newline(self.p);
                } else if c == b'#' {
                    self.skip_line();
                } else {
                    break;
                }
            }
            match self.b[self.p] {
                c @ (b'[' | b'{') => {
                    open.push((c == b'[', false));
                    self.flow += 1;
                    self.check_depth()?;
                    self.collection()?;
                    self.p += 1;
                }
                b']' | b'}' => {
                    self.p += 1;
                    if let Some((_, pair)) = open.pop() {
                        self.flow -= 1 + usize::from(pair);
                    }
                    if open.is_empty() {
                        return Ok(deepest);
                    }
                }
                b',' => {
                    self.p += 1;
                    if let Some((_, pair @ true)) = open.last_mut() {
                        *pair = false;
                        self.flow -= 1;
                    }
                }
                // In flow context `?` and `:` are always indicators (libyaml).
                b'?' | b':' => {
                    self.p += 1;
                    if let Some((true, pair @ false)) = open.last_mut() {
                        *pair = true;
                        self.flow += 1;
                        self.check_depth()?;
                        self.collection()?;
                    }
                }
                b'\'' | b'"' => {
                    self.quoted();
                    self.node(1)?;
                }
                b'&' => self.anchor(),
                b'!' => self.skip_word(),
                b'*' => self.alias()?,
                _ => {
                    self.node(1)?;
                    self.plain_flow();
                }
            }
        }
    }

    /// A plain scalar in flow context: up to a flow indicator, `: `, ` #` or a document
    /// marker, across line breaks (a quote on a later line is text, as libyaml reads it).
    pub(super) fn plain_flow(&mut self) {
        let mut i = self.p + 1;
        while i < self.b.len() {
            let c = self.b[i];
            if flow_indicator(c) || c == b':' && self.blank_or_end(i + 1) {
                break;
            }
            if c == b'#' && blank(self.b[i - 1]) {
                break;
            }
            if may_break(c) && brk(self.b, i) > 0 {
                self.newline(i);
                let mut q = self.p;
                while q < self.b.len() && (blank(self.b[q]) || brk(self.b, q) > 0) {
                    if brk(self.b, q) > 0 {
                        self.newline(q);
                        q = self.p;
                    } else {
                        q += 1;
                    }
                }
                let rest = &self.b[q.min(self.b.len())..];
                let marker = q == self.line_start
                    && (rest.starts_with(b"---") || rest.starts_with(b"..."))
                    && self.blank_or_end(q + 3);
                if q >= self.b.len() || self.b[q] == b'#' || marker {
                    self.p = q;
                    return;
                }
                i = q;
                continue;
            }
            i += 1;
        }
        self.p = i;
    }
}
