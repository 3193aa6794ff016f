//! A line diff in unified format, for showing maintainers what changes between the previously
//! published CSV of the channel and the new one before anything is published.
//!
//! Longest-common-subsequence over lines, which is plenty for manifests of a few thousand lines.
//! Larger inputs (a catalog of hundreds of bundles) drop their common first and last lines and
//! use Myers' O((N+M)·D) algorithm ("An O(ND) Difference Algorithm and Its Variations", 1986),
//! fast when few lines change; only when the changes are too many for [`MAX_CELLS`] of work
//! does it fall back to "whole file changed" rather than use much memory.

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
    if a.len().saturating_mul(b.len()) <= MAX_CELLS {
        return lcs_script(a, b);
    }
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a_rest, b_rest) = (&a[prefix..], &b[prefix..]);
    let suffix = a_rest
        .iter()
        .rev()
        .zip(b_rest.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a_mid, b_mid) = (
        &a_rest[..a_rest.len() - suffix],
        &b_rest[..b_rest.len() - suffix],
    );
    let middle = if a_mid.len().saturating_mul(b_mid.len()) <= MAX_CELLS {
        lcs_script(a_mid, b_mid)
    } else {
        let work = (a_mid.len() + b_mid.len()).max(1);
        myers_script(a_mid, b_mid, (MAX_CELLS / work).min(4096)).unwrap_or_else(|| {
            std::iter::repeat_n(Op::Del, a_mid.len())
                .chain(std::iter::repeat_n(Op::Add, b_mid.len()))
                .collect()
        })
    };
    let mut ops = vec![Op::Same; prefix];
    ops.extend(middle);
    ops.extend(std::iter::repeat_n(Op::Same, suffix));
    ops
}

/// Myers' greedy shortest edit script, or `None` when it needs more than `max_d` edits. Keeps
/// the furthest-reaching x of each diagonal per step (2d+1 values at step d) to walk back.
fn myers_script(a: &[&str], b: &[&str], max_d: usize) -> Option<Vec<Op>> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let offset = n + m + 1;
    let mut v = vec![0isize; 2 * offset as usize + 1];
    let at = |k: isize| (k + offset) as usize;
    let mut trace: Vec<Vec<isize>> = Vec::new();
    let mut end = None;
    'steps: for d in 0..=(n + m).min(max_d as isize) {
        trace.push(v[at(-d)..=at(d)].to_vec());
        for k in (-d..=d).step_by(2) {
            let mut x = if k == -d || (k != d && v[at(k - 1)] < v[at(k + 1)]) {
                v[at(k + 1)]
            } else {
                v[at(k - 1)] + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[at(k)] = x;
            if x >= n && y >= m {
                end = Some(d);
                break 'steps;
            }
        }
    }
    let d_end = end?;
    let mut ops = Vec::with_capacity((n + m) as usize);
    let (mut x, mut y) = (n, m);
    for d in (1..=d_end).rev() {
        let snap = &trace[d as usize];
        let get = |k: isize| snap[(k + d) as usize];
        let k = x - y;
        let prev_k = if k == -d || (k != d && get(k - 1) < get(k + 1)) {
            k + 1
        } else {
            k - 1
        };
        let prev_x = get(prev_k);
        let prev_y = prev_x - prev_k;
        let (start_x, start_y) = if prev_k == k + 1 {
            (prev_x, prev_y + 1)
        } else {
            (prev_x + 1, prev_y)
        };
        while x > start_x && y > start_y {
            ops.push(Op::Same);
            x -= 1;
            y -= 1;
        }
        ops.push(if prev_k == k + 1 { Op::Add } else { Op::Del });
        (x, y) = (prev_x, prev_y);
    }
    ops.extend(std::iter::repeat_n(Op::Same, x as usize));
    ops.reverse();
    Some(ops)
}

fn lcs_script(a: &[&str], b: &[&str]) -> Vec<Op> {
    let (n, m) = (a.len(), b.len());
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
    fn large_inputs_with_few_changes_get_small_hunks() {
        // 9,000 lines (over MAX_CELLS as a product) with a change near each end.
        let old: Vec<String> = (0..9000).map(|i| format!("line {i}")).collect();
        let mut new = old.clone();
        new[10] = "changed".into();
        new.insert(4000, "inserted".into());
        new.remove(8000);
        new.push("appended".into());
        let join = |v: &[String]| v.join("\n") + "\n";
        let d = unified("o", "n", &join(&old), &join(&new), 1);
        assert_eq!(
            d,
            "--- o\n+++ n\n@@ -10,3 +10,3 @@\n line 9\n-line 10\n+changed\n line 11\n@@ -4000,2 +4000,3 @@\n line 3999\n+inserted\n line 4000\n@@ -7999,3 +8000,2 @@\n line 7998\n-line 7999\n line 8000\n@@ -9000,1 +9000,2 @@\n line 8999\n+appended\n"
        );
        // Myers agrees with the LCS on small inputs: same number of unchanged lines.
        let (a, b) = (
            ["a", "b", "c", "a", "b", "b", "a"],
            ["c", "b", "a", "b", "a", "c"],
        );
        let same = |ops: &[Op]| ops.iter().filter(|o| **o == Op::Same).count();
        let myers = myers_script(&a, &b, 100).unwrap();
        assert_eq!(same(&myers), same(&lcs_script(&a, &b)));
        assert_eq!(myers_script(&a, &b, 2), None, "over the bound");
    }

    #[test]
    fn close_changes_share_one_hunk() {
        let d = unified("o", "n", "1\n2\n3\n4\n", "1\nX\n3\nY\n", 1);
        assert_eq!(d, "--- o\n+++ n\n@@ -1,4 +1,4 @@\n 1\n-2\n+X\n 3\n-4\n+Y\n");
    }
}
