//! The scan on small texts whose structure is known.

use super::*;

fn depth(t: &str) -> usize {
    measure(t).depth
}

#[test]
fn depth_counts_every_kind_of_collection() {
    assert_eq!(depth("a: 1\n"), 1);
    assert_eq!(depth("a:\n  b:\n    c: 1\n"), 3);
    assert_eq!(depth("a:\n- x\n- y\nb: 2\n"), 2);
    assert_eq!(depth("- - - x\n"), 3);
    assert_eq!(depth("- a: 1\n  b: [1, {c: [2]}]\n"), 5);
    assert_eq!(depth("x: [[[[]]]]\n"), 5);
    assert_eq!(depth("[a, b]"), 1);
    assert_eq!(depth("plain text"), 0);
}

#[test]
fn brackets_inside_scalars_and_comments_do_not_count() {
    assert_eq!(depth("a: '[[[['\nb: \"{{{\\\"[[\"\n"), 1);
    assert_eq!(depth("a: x[[[[ # [[[[\n# [[[[[\n"), 1);
    assert_eq!(depth("a: |\n  [[[[[[\n  {{{{\nb: 1\n"), 1);
    assert_eq!(depth("a: plain\n  continued [[[[ line\nb: 1\n"), 1);
    assert_eq!(depth("a: >2\n   [[[[\nb: 1\n"), 1);
    // After the block scalar ends, structure counts again.
    assert_eq!(depth("a: |\n  [[\nb: [[1]]\n"), 3);
}

#[test]
fn single_pair_mappings_in_flow_sequences_nest() {
    assert_eq!(depth("[a: [b: [c]]]"), 5);
    assert_eq!(depth("[\"a\":[1]]"), 3);
    assert_eq!(depth("[a: 1, b, c: 2]"), 2);
    assert_eq!(depth("{a: [1]}"), 2);
}

#[test]
fn quotes_on_a_continued_plain_line_are_text() {
    // libyaml reads `x 'y` as one plain scalar, then a deeper list.
    assert_eq!(depth("[x\n'y, [[[[z]]]], w']"), 5);
    assert_eq!(depth("k: x\n  'y [[[[\n"), 1);
}

#[test]
fn every_libyaml_line_break_ends_a_line() {
    // The mapping stays open (libyaml then refuses the text), and the brackets count.
    for br in ["\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}"] {
        let t = format!("a: b{br}[[[[x]]]]");
        assert_eq!(depth(&t), 5, "{t:?}");
    }
    assert_eq!(depth("a: b [[[[x]]]]"), 1);
}

#[test]
fn items_are_the_top_collection_entries() {
    assert_eq!(measure("- a: 1\n  b: [2]\n- x\n- [y]\n").items, 3);
    assert_eq!(measure("[1, [2, 3], {a: b}]").items, 3);
    assert_eq!(measure("a: 1\nb:\n  c: 2\n").items, 4);
}

#[test]
fn aliases_count_as_expanded() {
    let m = measure("a: &x [1, 2, 3]\nb: *x\nc: *x\n");
    assert!(m.nodes >= 3 * 4, "{m:?}");
    let mut laughs = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 0..9u8 {
        let (p, n) = ((b'a' + i) as char, (b'a' + i + 1) as char);
        laughs.push_str(&format!(
            "{n}: &{n} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        ));
    }
    assert!(measure(&laughs).nodes > 1_000_000_000);
}

#[test]
fn the_first_offending_line_is_named() {
    let allow = Allowance {
        max_depth: 3,
        max_nodes: 100,
        max_alias_bytes: 100,
    };
    let text = "a: 1\nb:\n  c: [[[1]]]\n";
    let over = scan(text, allow).unwrap_err();
    assert!(matches!(over, Over::Depth(_)));
    assert_eq!(over.line(text), 3);
}
