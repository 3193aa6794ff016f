//! The man page's sections taken from the book's reference pages (`docs/src/reference/`: the
//! source of truth for the pipeline file's keys, the exit codes and the environment variables),
//! turned from Markdown into roff. The pages are embedded at build time, so the man page and the
//! book cannot drift.

/// `docs/src/reference/pipeline.md`: every key of the pipeline file.
const PIPELINE: &str = include_str!("../../../docs/src/reference/pipeline.md");
/// `docs/src/reference/commands.md`: its "Exit codes:" paragraph.
const COMMANDS: &str = include_str!("../../../docs/src/reference/commands.md");
/// `docs/src/reference/environment.md`: the table of environment variables.
const ENVIRONMENT: &str = include_str!("../../../docs/src/reference/environment.md");

/// The PIPELINE FILE, EXIT STATUS and ENVIRONMENT sections.
pub(super) fn sections() -> String {
    let mut out = String::from(".SH \"PIPELINE FILE\"\n");
    out.push_str(&blocks(body(PIPELINE)));
    out.push_str(".SH \"EXIT STATUS\"\n");
    let exit = body(COMMANDS)
        .split("\n\n")
        .find(|p| p.starts_with("Exit codes:"))
        .unwrap_or_default();
    out.push_str(&format!("{}\n", escape(&inline(&exit.replace('\n', " ")))));
    out.push_str(".SH ENVIRONMENT\n");
    for row in body(ENVIRONMENT)
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---") && !l.starts_with("| variable"))
    {
        let cells: Vec<&str> = row.trim_matches('|').split(" | ").map(str::trim).collect();
        if let [name, what] = cells.as_slice() {
            out.push_str(&format!(
                ".TP\n\\fB{}\\fR\n{}\n",
                escape(&inline(name)),
                escape(&inline(what))
            ));
        }
    }
    out
}

/// A page without its title (the `# …` line the page opens with).
fn body(page: &str) -> &str {
    match page.strip_prefix("# ") {
        Some(rest) => rest.split_once('\n').map_or("", |(_, body)| body),
        None => page,
    }
}

/// Markdown paragraphs, `## ` headings and fenced code blocks as roff: headings as `.SS`, code
/// blocks verbatim (`.nf`), paragraphs filled.
fn blocks(md: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    let mut para = String::new();
    for line in md.lines() {
        if !in_code && let Some(heading) = line.strip_prefix("## ") {
            flush(&mut out, &mut para);
            out.push_str(&format!(".SS \"{}\"\n", escape(&inline(heading))));
        } else if line.starts_with("```") {
            flush(&mut out, &mut para);
            out.push_str(if in_code {
                ".fi\n.RE\n"
            } else {
                ".RS 2\n.nf\n"
            });
            in_code = !in_code;
        } else if in_code {
            out.push_str(&format!("{}\n", escape(line)));
        } else if line.trim().is_empty() {
            flush(&mut out, &mut para);
        } else {
            para.push_str(line);
            para.push(' ');
        }
    }
    flush(&mut out, &mut para);
    out
}

fn flush(out: &mut String, para: &mut String) {
    if !para.trim().is_empty() {
        out.push_str(&format!(".PP\n{}\n", escape(inline(para.trim()).trim())));
    }
    para.clear();
}

/// Inline Markdown as plain text: code spans, emphasis and links lose their marks (a link keeps
/// its text).
fn inline(md: &str) -> String {
    let mut s = md.replace("**", "").replace('`', "").replace("\\|", "|");
    while let Some(open) = s.find("](") {
        let Some(close) = s[open..].find(')') else {
            break;
        };
        let Some(start) = s[..open].rfind('[') else {
            break;
        };
        let text = s[start + 1..open].to_string();
        s.replace_range(start..open + close + 1, &text);
    }
    s
}

/// Text made safe for roff: backslashes escaped, and a line starting with `.` or `'` kept from
/// being read as a request.
pub(super) fn escape(text: &str) -> String {
    text.replace('\\', "\\e")
        .replace('-', "\\-")
        .replace('—', "\\(em")
        .replace('→', "\\(->")
        .replace('…', "...")
        .lines()
        .map(|l| {
            if l.starts_with('.') || l.starts_with('\'') {
                format!("\\&{l}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_come_from_the_reference_pages() {
        let s = sections();
        assert!(
            s.starts_with(".SH \"PIPELINE FILE\"\n.RS 2\n.nf\nname:"),
            "{s}"
        );
        assert!(s.contains(".SS \"Before anything runs\"\n"), "{s}");
        assert!(!s.contains("# Pipeline files") && !s.contains("## "), "{s}");
        assert!(s.contains("concurrent_wait_seconds"), "{s}");
        assert!(s.contains("\\fBOLM_RELEASE_MAX_BUNDLE_BYTES\\fR"), "{s}");
        assert!(s.contains("130"), "{s}");
        assert_eq!(inline("see [Limits](#limits) and `x`"), "see Limits and x");
        assert_eq!(escape(".hidden\\"), "\\&.hidden\\e");
        assert_eq!(escape("a — b → c"), "a \\(em b \\(-> c");
    }
}
