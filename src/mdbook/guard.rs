//! The last step of a chapter: no mdBook directive may form from text
//! meff wrote into it.
//!
//! mdBook's `links` preprocessor runs after `meff mdbook` and reads a file
//! for `{{#include …}}`, `{{#rustdoc_include …}}` and `{{#playground …}}`
//! (and sets the page title for `{{#title …}}`). Its pattern, in mdBook 0.5
//! (`crates/mdbook-driver/src/builtin_preprocessors/links.rs`,
//! `find_links`; the same in 0.4's `src/preprocess/links.rs`):
//!
//! ```text
//! \\\{\{\#.*\}\}                                  (an escaped link)
//! | \{\{\s*\#([a-zA-Z0-9_]+)\s+([^}]+)\}\}         (a link)
//! ```
//!
//! `\s` is Unicode white space there (the `regex` crate's default), so a
//! no-break space or a line break between `{{` and `#` still opens a
//! directive, and the target (`[^}]+`) runs over line breaks. Breaking is
//! therefore done here, on the chapter text exactly as it goes back to
//! mdBook — after the LaTeX → MathML conversion and every other step, never
//! on an intermediate text — and more widely than that pattern: every
//! `{{`, white space, `#` (any name, as third-party preprocessors such as
//! mdbook-template read `{{#template …}}` too) whose span up to its `}}`
//! holds a character meff wrote, is broken by a word joiner (U+2060, which
//! is not white space) between its braces. A chapter author's own
//! directives (text meff did not write) are left alone.

use std::ops::Range;

/// A chapter being written: its text and the byte ranges meff wrote.
#[derive(Default)]
pub(super) struct Chapter {
    text: String,
    ours: Vec<Range<usize>>,
}

impl Chapter {
    /// Text the chapter's author wrote, copied.
    pub fn author(&mut self, s: &str) {
        self.text.push_str(s);
    }

    /// Text meff wrote.
    pub fn meff(&mut self, s: &str) {
        let start = self.text.len();
        self.text.push_str(s);
        self.ours.push(start..self.text.len());
    }

    /// The chapter with every directive that holds meff's text broken.
    /// Linear but for two binary searches per `{{`: a chapter of a
    /// million `{{#` and ten thousand directives stays fast.
    pub fn finish(self) -> String {
        if self.ours.is_empty() {
            return self.text;
        }
        let t = &self.text;
        // Where each `}}` starts (overlapping: `}}}` has two).
        let closes: Vec<usize> = t
            .as_bytes()
            .windows(2)
            .enumerate()
            .filter(|(_, w)| w == b"}}")
            .map(|(i, _)| i)
            .collect();
        // meff's ranges are in order and disjoint.
        let ours = |r: Range<usize>| {
            let k = self.ours.partition_point(|o| o.end <= r.start);
            self.ours.get(k).is_some_and(|o| o.start < r.end)
        };
        let mut out = String::with_capacity(t.len() + 16);
        let mut from = 0;
        let mut search = 0;
        while let Some(k) = t[search..].find("{{") {
            let at = search + k;
            search = at + 1;
            let after = t[at + 2..].trim_start();
            if !after.starts_with('#') {
                continue;
            }
            // The directive's span: to its `}}`, or to the end.
            let open_end = t.len() - after.len() + 1;
            let end = closes
                .get(closes.partition_point(|&c| c < open_end))
                .map_or(t.len(), |&c| c + 2);
            if ours(at..end) {
                out.push_str(&t[from..=at]);
                out.push('\u{2060}');
                from = at + 1;
            }
        }
        out.push_str(&t[from..]);
        out
    }
}

/// Whether `s` holds anything mdBook's `links` preprocessor (or another
/// `{{#…}}` reader) would take for a directive: `{{`, white space, `#`.
pub fn has_directive(s: &str) -> bool {
    let mut rest = s;
    while let Some(at) = rest.find("{{") {
        if rest[at + 2..].trim_start().starts_with('#') {
            return true;
        }
        rest = &rest[at + 1..];
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meff_only(s: &str) -> String {
        let mut c = Chapter::default();
        c.meff(s);
        c.finish()
    }

    #[test]
    fn directives_meff_wrote_are_broken_in_every_form() {
        for s in [
            "{{#include /etc/passwd}}",
            "<mtext>{{\u{a0}#include /etc/passwd}}</mtext>",
            "{{ \n\t#rustdoc_include x.rs:2}}",
            "{{#playground a.rs}}",
            "{{#title pwned}}",
            "{{#template ../../x.md}}",
            "{{{#include y}}",
            "{{\u{2003}#include z", // no end: a span to the end
        ] {
            let out = meff_only(s);
            assert!(!has_directive(&out), "{s:?} -> {out:?}");
        }
        assert!(has_directive("{{\u{a0}#include x}}"));
        assert!(!has_directive("{\u{2060}{#include x}}"));
    }

    #[test]
    fn a_directive_across_the_seam_is_broken_and_the_authors_own_kept() {
        let mut c = Chapter::default();
        c.author("{{#include own.md}} and {");
        c.meff("{#include /etc/passwd}}");
        c.author(" {{#include ../");
        c.meff("x");
        c.author("}}");
        let out = c.finish();
        assert!(out.starts_with("{{#include own.md}}"), "{out:?}");
        assert_eq!(out.matches("{{#").count(), 1, "{out:?}");
    }

    /// 100,000 random chapters: text meff writes (any of the tokens a
    /// directive is made of) between author's text that holds no `{` or
    /// `#` — so every directive in them would hold meff's text: none is
    /// left.
    #[test]
    fn random_chapters_keep_no_directive_meff_wrote() {
        const MEFF: &[&str] = &[
            "{",
            "}",
            "{{",
            "}}",
            "#",
            "#include",
            " ",
            "\u{a0}",
            "\u{2003}",
            "\n",
            "\t",
            "x",
            "/etc/passwd",
            "\\",
            "{{#",
            "{{ #",
            "<mi>",
            "</mi>",
        ];
        const AUTHOR: &[&str] = &["x", " ", "\n", "}", "}}", "include", "\u{a0}"];
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..100_000 {
            let mut c = Chapter::default();
            let mut all = String::new();
            for _ in 0..(1 + next() % 12) {
                let n = 1 + next() % 4;
                let ours = next() % 2 == 0;
                let set = if ours { MEFF } else { AUTHOR };
                let piece: String = (0..n)
                    .map(|_| set[(next() % set.len() as u64) as usize])
                    .collect();
                all.push_str(&piece);
                if ours {
                    c.meff(&piece);
                } else {
                    c.author(&piece);
                }
            }
            let out = c.finish();
            assert!(!has_directive(&out), "{all:?} -> {out:?}");
            assert_eq!(out.replace('\u{2060}', ""), all);
        }
    }
}
