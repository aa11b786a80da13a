//! A case's report cut into its sections for a book, by markers meff's
//! own template writes — never by reading `## ` lines out of text a case
//! author could have written into (a description's fenced block starting
//! `## Summary` once forged a boundary and left its code as live HTML).

use super::SECTIONS;
use crate::render::templates::Templates;
use crate::report::Report;

/// A report as chapter Markdown: the title block (title, document table,
/// description) and each section the case has, in the sheet's order,
/// headings one level down and (for the HTML renderer) math as MathML.
pub(super) struct Rendered {
    pub title: String,
    pub sections: Vec<(&'static str, String)>,
}

impl Rendered {
    /// The chosen sections (all when none is chosen), after the title
    /// unless `no_title`.
    pub fn select(&self, sections: &[String], no_title: bool) -> String {
        let mut out = String::new();
        if !no_title {
            out.push_str(&self.title);
        }
        for (id, text) in &self.sections {
            if sections.is_empty() || sections.iter().any(|s| s == id) {
                out.push_str(text);
            }
        }
        out
    }
}

/// Renders `report` and cuts it at the template's section markers.
///
/// The marker is `meff-section-` and 32 hex digits of the SHA-256 of the
/// report rendered without markers: text a case author wrote is part of
/// that rendering, so it cannot contain the marker (that would take a
/// text holding its own hash); a rendering that does anyway is refused,
/// and the marked rendering less its marker lines must be the unmarked one.
pub(super) fn render(
    templates: &Templates,
    report: &Report,
    html: bool,
) -> Result<Rendered, String> {
    use sha2::{Digest, Sha256};
    let plain = templates
        .report_md(report, crate::number::DEFAULT_DIGITS)
        .map_err(|e| e.to_string())?;
    let digest = Sha256::digest(plain.as_bytes());
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    let mark = format!("meff-section-{hex}");
    if plain.contains(&mark) {
        return Err("the report holds its own section marker; it is not quoted".into());
    }
    let marked = templates
        .report_md_marked(report, 4, &mark)
        .map_err(|e| e.to_string())?;
    let mut title = String::new();
    let mut sections: Vec<(&'static str, String)> = Vec::new();
    let mut rebuilt = String::with_capacity(plain.len());
    for line in marked.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix(mark.as_str()) {
            let id = rest.trim();
            let Some((id, _)) = SECTIONS.iter().find(|(k, _)| *k == id) else {
                return Err(format!("the template marks an unknown section `{id}`"));
            };
            sections.push((id, String::new()));
            continue;
        }
        rebuilt.push_str(line);
        match sections.last_mut() {
            Some((_, s)) => s.push_str(line),
            None => title.push_str(line),
        }
    }
    if rebuilt != plain {
        return Err("the report's section markers did not come out whole".into());
    }
    let finish = |md: &str| {
        let md = demote(md);
        if html { mathml(&md) } else { md }
    };
    Ok(Rendered {
        title: finish(&title),
        sections: sections
            .into_iter()
            .map(|(id, s)| (id, finish(&s)))
            .collect(),
    })
}

/// Headings one level down (the report sits inside a chapter): the
/// headings a Markdown parser finds (pulldown-cmark, as mdBook's), so a
/// `#` inside a code block or a description is never taken for one.
pub(super) fn demote(md: &str) -> String {
    use pulldown_cmark::{Event, Options, Parser, Tag};
    let mut at_hashes = Vec::new();
    for (event, range) in Parser::new_ext(md, Options::all()).into_offset_iter() {
        if let Event::Start(Tag::Heading { .. }) = event {
            // An ATX heading: up to three spaces, then its `#`s.
            let line = &md[range.start..];
            let lead = line.len() - line.trim_start_matches(' ').len();
            if line[lead..].starts_with('#') {
                at_hashes.push(range.start + lead);
            }
        }
    }
    let mut out = String::with_capacity(md.len() + at_hashes.len());
    let mut from = 0;
    for at in at_hashes {
        out.push_str(&md[from..at]);
        out.push('#');
        from = at;
    }
    out.push_str(&md[from..]);
    out
}

/// `$…$` and `$$…$$` replaced by MathML, found by the same Markdown parser
/// (pulldown-cmark with math) that reads the report's own Markdown.
fn mathml(md: &str) -> String {
    use pulldown_cmark::{Event, Options, Parser};
    let mut out = String::with_capacity(md.len());
    let mut at = 0;
    for (event, range) in
        Parser::new_ext(md, Options::ENABLE_MATH | Options::ENABLE_TABLES).into_offset_iter()
    {
        let (latex, block) = match event {
            Event::InlineMath(m) => (m, false),
            Event::DisplayMath(m) => (m, true),
            _ => continue,
        };
        if range.start < at {
            continue;
        }
        out.push_str(&md[at..range.start]);
        let latex = if block {
            crate::render::layout::display(&latex)
        } else {
            latex.to_string()
        };
        // `\vert`, `\lt`, `\gt` stand for characters a table would break on.
        out.push_str(&crate::render::templates::math(&latex, block));
        at = range.end;
    }
    out.push_str(&md[at..]);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn headings_are_demoted_where_a_parser_finds_them() {
        assert_eq!(
            super::demote("# A\n```\n# not\n```\n## B\n  ### C\n"),
            "## A\n```\n# not\n```\n### B\n  #### C\n"
        );
        // A fence the old line scan miscounted (a longer fence holding ```).
        assert_eq!(
            super::demote("````\n```\n# not\n````\n# yes\n"),
            "````\n```\n# not\n````\n## yes\n"
        );
    }
}
