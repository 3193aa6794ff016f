//! A line diff in unified format, for showing maintainers what changes between the previously
//! published CSV of the channel and the new one before anything is published.
//!
//! Longest-common-subsequence over lines, which is plenty for manifests of a few thousand lines;
//! inputs larger than [`MAX_CELLS`] fall back to "whole file changed" rather than use much memory.

/// Largest `old × new` line product diffed exactly.
pub(crate) const MAX_CELLS: usize = 16_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Same,
    Del,
    Add,
}

/// The unified diff of `old` and `new` (empty when equal), with `context` lines around changes.
pub(crate) fn unified(
    old_name: &str,
    new_name: &str,
    old: &str,
    new: &str,
    context: usize,
) -> String {
    if old == new {
        return String::new();
    }
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let ops = script(&a, &b);
    let mut out = format!("--- {old_name}\n+++ {new_name}\n");
    // Walk the script, emitting hunks of changes with their context.
    let (mut i, mut j, mut k) = (0usize, 0usize, 0usize);
    while k < ops.len() {
        if ops[k] == Op::Same {
            i += 1;
            j += 1;
            k += 1;
            continue;
        }
        // A hunk starts `context` lines before this change.
        let back = context
            .min(
                k - ops[..k]
                    .iter()
                    .rposition(|o| *o != Op::Same)
                    .map_or(0, |p| p + 1),
            )
            .min(i)
            .min(j);
        let (start_i, start_j, start_k) = (i - back, j - back, k - back);
        // It ends where more than 2×context unchanged lines follow a change.
        let mut end = k;
        let mut same_run = 0;
        let mut e = k;
        while e < ops.len() {
            if ops[e] == Op::Same {
                same_run += 1;
                if same_run > 2 * context {
                    break;
                }
            } else {
                same_run = 0;
                end = e + 1;
            }
            e += 1;
        }
        let stop = (end + context).min(ops.len());
        let (mut ci, mut cj) = (start_i, start_j);
        let mut body = String::new();
        for op in &ops[start_k..stop] {
            match op {
                Op::Same => {
                    body.push_str(&format!(" {}\n", a[ci]));
                    ci += 1;
                    cj += 1;
                }
                Op::Del => {
                    body.push_str(&format!("-{}\n", a[ci]));
                    ci += 1;
                }
                Op::Add => {
                    body.push_str(&format!("+{}\n", b[cj]));
                    cj += 1;
                }
            }
        }
        out.push_str(&format!(
            "@@ -{},{} +{},{} @@\n",
            start_i + 1,
            ci - start_i,
            start_j + 1,
            cj - start_j
        ));
        out.push_str(&body);
        i = ci;
        j = cj;
        k = stop;
    }
    out
}

fn script(a: &[&str], b: &[&str]) -> Vec<Op> {
    let (n, m) = (a.len(), b.len());
    if n.saturating_mul(m) > MAX_CELLS {
        return std::iter::repeat_n(Op::Del, n)
            .chain(std::iter::repeat_n(Op::Add, m))
            .collect();
    }
    // lcs[i][j] = LCS length of a[i..] and b[j..], row-major in one vector.
    let w = m + 1;
    let mut lcs = vec![0u32; (n + 1) * w];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i * w + j] = if a[i] == b[j] {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut ops = Vec::with_capacity(n + m);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            ops.push(Op::Same);
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
            ops.push(Op::Del);
            i += 1;
        } else {
            ops.push(Op::Add);
            j += 1;
        }
    }
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_inputs_have_no_diff() {
        assert_eq!(unified("a", "b", "x\ny\n", "x\ny\n", 3), "");
    }

    #[test]
    fn shows_changes_with_context_and_line_numbers() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let new = "a\nb\nc\nD\ne\nf\ng\nh\ni\n";
        let d = unified("old.yaml", "new.yaml", old, new, 1);
        assert_eq!(
            d,
            "--- old.yaml\n+++ new.yaml\n@@ -3,3 +3,3 @@\n c\n-d\n+D\n e\n@@ -8,1 +8,2 @@\n h\n+i\n"
        );
    }

    #[test]
    fn close_changes_share_one_hunk() {
        let d = unified("o", "n", "1\n2\n3\n4\n", "1\nX\n3\nY\n", 1);
        assert_eq!(d, "--- o\n+++ n\n@@ -1,4 +1,4 @@\n 1\n-2\n+X\n 3\n-4\n+Y\n");
    }
}
