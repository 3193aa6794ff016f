//! Block context: lines, indentation, `- `, `? `, `key:`, plain scalars and their
//! continuation lines, and block scalars (`|`, `>`).

use super::{Kind, Over, Scanner, blank, brk, may_break};

impl Scanner<'_> {
    /// The block-context loop: one iteration per line.
    pub(super) fn run(&mut self) -> Result<(), Over> {
        while self.p < self.b.len() {
            self.line_start = self.p;
            let mut q = self.p;
            while q < self.b.len() && blank(self.b[q]) {
                q += 1;
            }
            if q >= self.b.len() {
                break;
            }
            if brk(self.b, q) > 0 {
                self.newline(q);
                continue;
            }
            self.p = q;
            if self.b[q] == b'#' {
                self.skip_line();
                continue;
            }
            let col = q - self.line_start;
            if col == 0 {
                let rest = &self.b[q..];
                if (rest.starts_with(b"---") || rest.starts_with(b"..."))
                    && self.blank_or_end(q + 3)
                {
                    // A document boundary: nothing stays open, anchors start over.
                    self.block.clear();
                    self.anchors.clear();
                    self.p = q + 3;
                    if rest[0] == b'.' {
                        self.skip_line();
                    } else {
                        self.tokens()?;
                    }
                    continue;
                }
                if rest[0] == b'%' {
                    self.skip_line();
                    continue;
                }
            }
            let dash = self.b[q] == b'-' && self.blank_or_end(q + 1);
            while let Some(&(c, kind)) = self.block.last() {
                if c > col || (c == col && kind == Kind::Seq && !dash) {
                    self.block.pop();
                } else {
                    break;
                }
            }
            self.tokens()?;
        }
        Ok(())
    }

    /// Opens (or continues) a block collection at column `col`.
    pub(super) fn enter(&mut self, col: usize, kind: Kind) -> Result<(), Over> {
        if self.block.last() != Some(&(col, kind)) {
            self.block.push((col, kind));
            self.check_depth()?;
            self.collection()?;
        }
        Ok(())
    }

    /// The column of the innermost open block collection, as libyaml's `indent` (-1 at the top).
    pub(super) fn parent(&self) -> isize {
        self.block.last().map_or(-1, |&(c, _)| c as isize)
    }

    /// Tokens in block context until the end of the line (or of a construct that ends one).
    pub(super) fn tokens(&mut self) -> Result<(), Over> {
        // Where the anchor or tag of the next node began: a key starts there.
        let mut props: Option<usize> = None;
        loop {
            while self.p < self.b.len() && blank(self.b[self.p]) {
                self.p += 1;
            }
            let p = self.p;
            if p >= self.b.len() {
                return Ok(());
            }
            if brk(self.b, p) > 0 {
                self.newline(p);
                return Ok(());
            }
            let here = p - self.line_start;
            if let b'&' | b'!' = self.b[p] {
                props.get_or_insert(here);
                if self.b[p] == b'&' {
                    self.anchor();
                } else {
                    self.skip_word();
                }
                continue;
            }
            let col = props.take().unwrap_or(here);
            match self.b[p] {
                b'#' => {
                    self.skip_line();
                    return Ok(());
                }
                // Entries count as values of their own (an entry may be an implicit null), but
                // not as items: their content is.
                b'-' if self.blank_or_end(p + 1) => {
                    self.enter(col, Kind::Seq)?;
                    self.count(1, 0)?;
                    self.p += 1;
                }
                b'?' if self.blank_or_end(p + 1) => {
                    self.enter(col, Kind::Map)?;
                    self.count(1, 0)?;
                    self.p += 1;
                }
                // A value with an empty key, or after a `? ` key: a mapping at this column.
                b':' if self.blank_or_end(p + 1) => {
                    self.enter(col, Kind::Map)?;
                    self.count(1, 0)?;
                    self.p += 1;
                }
                b'[' | b'{' => {
                    let inner = self.flow_collection()?;
                    if self.maybe_key(col)? {
                        // A collection as a mapping key sits inside the mapping it keys.
                        self.flow = inner;
                        self.check_depth()?;
                        self.flow = 0;
                    }
                }
                b'\'' | b'"' => {
                    self.quoted();
                    self.maybe_key(col)?;
                    self.node(1)?;
                }
                b'|' | b'>' => {
                    self.block_scalar();
                    return self.node(1);
                }
                b'*' => {
                    self.alias()?;
                    self.maybe_key(col)?;
                }
                _ => {
                    if !self.plain_block(col)? {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// After a node in block context: `:` makes it a mapping key at `col`. Returns whether it
    /// did.
    pub(super) fn maybe_key(&mut self, col: usize) -> Result<bool, Over> {
        let mut i = self.p;
        while i < self.b.len() && blank(self.b[i]) {
            i += 1;
        }
        if i < self.b.len() && self.b[i] == b':' && self.blank_or_end(i + 1) {
            self.enter(col, Kind::Map)?;
            self.p = i + 1;
            return Ok(true);
        }
        Ok(false)
    }

    /// A plain scalar in block context starting at `self.p`. Returns whether tokens continue
    /// on this line (it was a key).
    pub(super) fn plain_block(&mut self, col: usize) -> Result<bool, Over> {
        let mut i = self.p;
        while i < self.b.len() {
            let c = self.b[i];
            if c == b':' && self.blank_or_end(i + 1) {
                self.enter(col, Kind::Map)?;
                self.node(1)?;
                self.p = i + 1;
                return Ok(true);
            }
            if c == b'#' && i > self.p && blank(self.b[i - 1]) {
                self.node(1)?;
                self.p = i;
                self.skip_line();
                return Ok(false);
            }
            if may_break(c) && brk(self.b, i) > 0 {
                self.node(1)?;
                self.newline(i);
                self.plain_continuation();
                return Ok(false);
            }
            i += 1;
        }
        self.node(1)?;
        self.p = i;
        Ok(false)
    }

    /// Lines that continue a multi-line plain scalar: more indented than the parent
    /// collection, up to a comment, a `key: ` or a document marker (libyaml ends it there).
    pub(super) fn plain_continuation(&mut self) {
        let parent = self.parent();
        while self.p < self.b.len() {
            let start = self.p;
            let mut q = start;
            while q < self.b.len() && blank(self.b[q]) {
                q += 1;
            }
            if q >= self.b.len() {
                self.p = q;
                return;
            }
            if brk(self.b, q) > 0 {
                self.newline(q);
                continue;
            }
            let col = (q - start) as isize;
            let rest = &self.b[q..];
            let marker = col == 0
                && (rest.starts_with(b"---") || rest.starts_with(b"..."))
                && self.blank_or_end(q + 3);
            if col <= parent || rest[0] == b'#' || marker {
                self.p = start;
                return;
            }
            let mut i = q;
            loop {
                if i >= self.b.len() {
                    self.p = i;
                    return;
                }
                let c = self.b[i];
                if c == b':' && self.blank_or_end(i + 1) {
                    // libyaml refuses this; hand the line back as structure.
                    self.p = start;
                    return;
                }
                if c == b'#' && blank(self.b[i - 1]) {
                    self.p = i;
                    self.skip_line();
                    return;
                }
                if may_break(c) && brk(self.b, i) > 0 {
                    self.newline(i);
                    break;
                }
                i += 1;
            }
        }
    }

    /// A literal or folded block scalar: the header, then every line indented past the parent
    /// collection (or past the explicit indentation), blank lines included.
    pub(super) fn block_scalar(&mut self) {
        let parent = self.parent();
        let mut explicit = None;
        let mut i = self.p + 1;
        while i < self.b.len() && !blank(self.b[i]) && brk(self.b, i) == 0 {
            if let d @ b'1'..=b'9' = self.b[i] {
                explicit = Some((d - b'0') as isize);
            }
            i += 1;
        }
        self.p = i;
        self.skip_line();
        let mut indent: Option<isize> = explicit.map(|m| if parent >= 0 { parent + m } else { m });
        while self.p < self.b.len() {
            let start = self.p;
            let mut q = start;
            while q < self.b.len() && self.b[q] == b' ' {
                q += 1;
            }
            let col = (q - start) as isize;
            if q < self.b.len() && brk(self.b, q) == 0 {
                let content = match indent {
                    Some(m) => col >= m,
                    None if col > parent.max(0) => {
                        indent = Some(col);
                        true
                    }
                    None => false,
                };
                if !content {
                    self.p = start;
                    return;
                }
            } else if q >= self.b.len() {
                self.p = q;
                return;
            }
            self.p = q;
            self.skip_line();
        }
    }
}
