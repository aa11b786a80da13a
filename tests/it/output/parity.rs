//! One document in every format: for every bundled case, the
//! numbers the HTML, Markdown and Typst (PDF) sheets print in each section
//! are the same multiset. Markup is stripped (tags, table syntax, escapes,
//! Typst code such as sizes and colours); formulas are left out (they are
//! compared by `typeset`), and so are the plots (drawn once by `plot`).
//! Numbers are normalised: true minus, thin spaces, `× 10ⁿ`.

use crate::support::{bundled_case_paths, evaluate_path, verified};
use std::collections::BTreeMap;

/// What one format cannot carry, by section: (section, why). Each entry
/// is an exception to the equality below, kept as short as it can be.
const EXCEPTIONS: &[(&str, &str)] = &[];

type Counts = BTreeMap<String, i64>;

/// The sections of a document (the heading, and the text up to the next),
/// the part before the first heading as "(title block)".
fn sections(doc: &str, kind: &str) -> Vec<(String, String)> {
    let mut out = vec![("(title block)".to_string(), String::new())];
    for line in doc.lines() {
        let heading = match kind {
            "html" => line
                .strip_prefix("<h2>")
                .and_then(|l| l.strip_suffix("</h2>")),
            "md" => line.strip_prefix("## "),
            _ => line.strip_prefix("= "),
        };
        match heading {
            Some(h) => out.push((h.to_string(), String::new())),
            None => {
                let body = &mut out.last_mut().unwrap().1;
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    out
}

/// Removes every `open … close` span (not nested).
fn drop_spans(s: &str, open: &str, close: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find(open) {
        out.push_str(&rest[..i]);
        let from = i + open.len();
        match rest[from..].find(close) {
            Some(j) => rest = &rest[from + j + close.len()..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

fn entities(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&#x2F;", "/")
        .replace("&amp;", "&")
}

fn html_text(s: &str) -> String {
    let s = drop_spans(s, "<head>", "</head>");
    let s = drop_spans(&s, "<footer>", "</footer>");
    let s = drop_spans(&s, "<svg", "</svg>");
    let s = drop_spans(&s, "<math", "</math>");
    let mut out = String::new();
    let mut rest = s.as_str();
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        let end = rest[i..].find('>').map_or(rest.len(), |j| i + j + 1);
        let tag = &rest[i..end];
        let inline = [
            "<sup", "</sup", "<sub", "</sub", "<strong", "</strong", "<em", "</em",
        ]
        .iter()
        .any(|t| tag.starts_with(t));
        out.push_str(if inline { "" } else { " " });
        rest = &rest[end..];
    }
    out.push_str(rest);
    entities(&out)
}

fn md_text(s: &str) -> String {
    let s = match s.find("\n---\nmeff ") {
        Some(i) => &s[..i],
        None => s,
    };
    let s = drop_spans(s, "$$", "$$");
    let mut out = String::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    let mut line_start = true;
    while i < chars.len() {
        let c = chars[i];
        // An ordered list's number is markup.
        if line_start && c.is_ascii_digit() {
            let mut j = i;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            if chars.get(j) == Some(&'.') && chars.get(j + 1) == Some(&' ') {
                i = j + 2;
                line_start = false;
                continue;
            }
        }
        line_start = c == '\n';
        match c {
            '\\' if i + 1 < chars.len() => {
                out.push(chars[i + 1]);
                i += 2;
                continue;
            }
            '$' => {
                // Inline math: to the next unescaped `$`.
                let mut j = i + 1;
                while j < chars.len() && chars[j] != '$' {
                    j += if chars[j] == '\\' { 2 } else { 1 };
                }
                i = j + 1;
                continue;
            }
            '!' if chars.get(i + 1) == Some(&'[') => {
                // An image: alt text and link dropped.
                let mut j = i;
                while j < chars.len() && chars[j] != ')' {
                    j += 1;
                }
                i = j + 1;
                continue;
            }
            '|' | '*' | '`' => out.push(' '),
            _ => out.push(c),
        }
        i += 1;
    }
    entities(&out)
}

/// Typst markup to text: code (`#set`, `#table(columns: 6, …)`, sizes,
/// colours, strings) dropped, content blocks kept, `#raw("…")` kept.
fn typ_text(s: &str) -> String {
    // The running header and footer (page furniture).
    let s = match (s.find("#set page("), s.find("#set text(font")) {
        (Some(a), Some(b)) if a < b => format!("{}{}", &s[..a], &s[b..]),
        _ => s.to_string(),
    };
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    typ_markup(&chars, &mut i, &mut out, false);
    out
}

fn typ_markup(c: &[char], i: &mut usize, out: &mut String, nested: bool) {
    let mut depth = 0;
    let mut line_start = true;
    while *i < c.len() {
        let ch = c[*i];
        if line_start && ch == '+' && c.get(*i + 1) == Some(&' ') {
            *i += 2;
            continue;
        }
        line_start = ch == '\n';
        match ch {
            '\\' if *i + 1 < c.len() => {
                out.push(c[*i + 1]);
                *i += 2;
                continue;
            }
            '$' => {
                *i += 1;
                while *i < c.len() && c[*i] != '$' {
                    *i += if c[*i] == '\\' { 2 } else { 1 };
                }
            }
            '[' => depth += 1,
            ']' => {
                if depth == 0 && nested {
                    *i += 1;
                    return;
                }
                depth -= 1;
            }
            '#' => {
                *i += 1;
                typ_code(c, i, out);
                continue;
            }
            '*' | '_' | '`' => out.push(' '),
            _ => out.push(ch),
        }
        *i += 1;
    }
}

/// A code expression after `#`: an identifier path, call arguments and
/// content blocks; only the content blocks and `raw` strings are text.
fn typ_code(c: &[char], i: &mut usize, out: &mut String) {
    let word = |i: &mut usize| {
        let start = *i;
        while *i < c.len() && (c[*i].is_alphanumeric() || matches!(c[*i], '_' | '.' | '-')) {
            *i += 1;
        }
        c[start..*i].iter().collect::<String>()
    };
    let mut name = word(i);
    if name == "show" {
        while *i < c.len() && c[*i] != '\n' {
            *i += 1;
        }
        return;
    }
    if name == "set" {
        *i += 1;
        name = word(i);
    }
    loop {
        match c.get(*i) {
            Some('(') => {
                *i += 1;
                typ_args(c, i, out, name == "raw");
            }
            Some('[') => {
                *i += 1;
                typ_markup(c, i, out, true);
                out.push(' ');
            }
            _ => return,
        }
    }
}

fn typ_args(c: &[char], i: &mut usize, out: &mut String, raw: bool) {
    let mut depth = 1;
    while *i < c.len() {
        match c[*i] {
            '"' => {
                *i += 1;
                while *i < c.len() && c[*i] != '"' {
                    if c[*i] == '\\' {
                        *i += 1;
                    }
                    if raw {
                        out.push(c[*i]);
                    }
                    *i += 1;
                }
                out.push(' ');
            }
            '[' => {
                *i += 1;
                typ_markup(c, i, out, true);
                out.push(' ');
                continue;
            }
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    *i += 1;
                    return;
                }
            }
            _ => {}
        }
        *i += 1;
    }
}

fn superscript_digit(c: char) -> Option<char> {
    Some(match c {
        '⁰' => '0',
        '¹' => '1',
        '²' => '2',
        '³' => '3',
        '⁴' => '4',
        '⁵' => '5',
        '⁶' => '6',
        '⁷' => '7',
        '⁸' => '8',
        '⁹' => '9',
        '⁻' => '-',
        _ => return None,
    })
}

/// The numbers of a text, normalised: `−2.22 × 10⁻¹⁶` is `-2.22e-16`.
fn numbers(text: &str) -> Counts {
    let text: String = text
        .chars()
        .map(|c| match c {
            '−' => '-',
            '\u{2009}' | '\u{202F}' | '\u{a0}' | '\u{200B}' | '\u{2060}' => ' ',
            c => c,
        })
        .collect();
    let c: Vec<char> = text.chars().collect();
    let mut out = Counts::new();
    let mut i = 0;
    let word = |ch: char| ch.is_alphanumeric() || ch == '_' || ch == '.';
    while i < c.len() {
        if !c[i].is_ascii_digit() || (i > 0 && word(c[i - 1])) {
            i += 1;
            continue;
        }
        let negative = i > 0 && c[i - 1] == '-' && !(i > 1 && word(c[i - 2]));
        let start = i;
        while i < c.len() && c[i].is_ascii_digit() {
            i += 1;
        }
        if i + 1 < c.len() && c[i] == '.' && c[i + 1].is_ascii_digit() {
            i += 1;
            while i < c.len() && c[i].is_ascii_digit() {
                i += 1;
            }
        }
        let mut n: String = c[start..i].iter().collect();
        // `× 10ⁿ`, or `10ⁿ` alone.
        let mut j = i;
        while j < c.len() && c[j] == ' ' {
            j += 1;
        }
        let mut exp = String::new();
        if c.get(j) == Some(&'×') {
            let mut k = j + 1;
            while k < c.len() && c[k] == ' ' {
                k += 1;
            }
            if c.get(k) == Some(&'1') && c.get(k + 1) == Some(&'0') {
                k += 2;
                while let Some(d) = c.get(k).and_then(|&x| superscript_digit(x)) {
                    exp.push(d);
                    k += 1;
                }
                if !exp.is_empty() {
                    i = k;
                }
            }
        } else if n == "10" {
            while let Some(d) = c.get(i).and_then(|&x| superscript_digit(x)) {
                exp.push(d);
                i += 1;
            }
            if !exp.is_empty() {
                n = "1".into();
            }
        }
        if !exp.is_empty() {
            n = format!("{n}e{exp}");
        }
        if negative {
            n = format!("-{n}");
        }
        *out.entry(n).or_default() += 1;
    }
    out
}

fn per_section(doc: &str, kind: &str) -> Vec<(String, Counts)> {
    sections(doc, kind)
        .into_iter()
        .map(|(h, body)| {
            let text = match kind {
                "html" => html_text(&body),
                "md" => md_text(&body),
                _ => typ_text(&body),
            };
            (h, numbers(&text))
        })
        .collect()
}

/// What `a` has that `b` has not, and the other way round.
fn difference(a: &Counts, b: &Counts) -> (Vec<String>, Vec<String>) {
    let side = |x: &Counts, y: &Counts| {
        x.iter()
            .filter_map(|(k, n)| {
                let m = y.get(k).copied().unwrap_or(0);
                (*n > m).then(|| format!("{k}×{}", n - m))
            })
            .collect::<Vec<_>>()
    };
    (side(a, b), side(b, a))
}

/// The differences between the formats of one report, one line each.
fn parity(report: &meff::report::Report) -> Vec<String> {
    let t = meff::render::templates::Templates::load(None).unwrap();
    let html = per_section(&t.report_html(report, 4).unwrap(), "html");
    let md = per_section(&t.report_md_files(report, 4, "x").unwrap().0, "md");
    let typ = per_section(&t.report_typ(report, 4).unwrap().0, "typ");
    let mut out = Vec::new();
    for (other, name) in [(&md, "Markdown"), (&typ, "Typst")] {
        let heads = |v: &Vec<(String, Counts)>| v.iter().map(|s| s.0.clone()).collect::<Vec<_>>();
        if heads(&html) != heads(other) {
            out.push(format!("{}: sections differ in {name}", report.title));
            continue;
        }
        for ((h, a), (_, b)) in html.iter().zip(other.iter()) {
            if EXCEPTIONS.iter().any(|e| e.0 == h) {
                continue;
            }
            let (only_html, only_other) = difference(a, b);
            if !only_html.is_empty() || !only_other.is_empty() {
                out.push(format!(
                    "{} · {h}: only in HTML {only_html:?}; only in {name} {only_other:?}",
                    report.title
                ));
            }
        }
    }
    out
}

#[test]
fn every_format_prints_the_same_numbers_section_by_section() {
    let mut all = Vec::new();
    for path in bundled_case_paths() {
        all.extend(parity(&evaluate_path(&path).report));
    }
    // With the verification by simulation, and its runs' details.
    all.extend(parity(&verified("offcentre.toml").report));
    assert!(all.is_empty(), "{}", all.join("\n"));
}

/// Round-off printed as a number (`2.22 × 10⁻¹⁶` in a direction that is
/// (0, 1, 0)): no sheet prints a nonzero magnitude below 10⁻¹² in the
/// sections that print vectors and matrices (elsewhere a small number
/// can be a result: a relative difference of 10⁻¹³).
#[test]
fn no_sheet_prints_round_off() {
    let t = meff::render::templates::Templates::load(None).unwrap();
    for path in bundled_case_paths() {
        let r = evaluate_path(&path).report;
        for (kind, doc) in [
            ("html", t.report_html(&r, 4).unwrap()),
            ("md", t.report_md_files(&r, 4, "x").unwrap().0),
            ("typ", t.report_typ(&r, 4).unwrap().0),
        ] {
            for (h, counts) in per_section(&doc, kind) {
                let vectors = [
                    "Model definition",
                    "Model",
                    "Robot model",
                    "Coupled contacts",
                ];
                if !vectors.contains(&h.as_str()) {
                    continue;
                }
                for n in counts.keys() {
                    let x: f64 = n.parse().unwrap();
                    assert!(
                        x == 0.0 || x.abs() >= 1e-12,
                        "{} ({kind}) · {h}: {n}",
                        r.title
                    );
                }
            }
        }
    }
}

#[test]
fn the_number_reader_normalises_what_the_formats_print() {
    let n = numbers("−2.22 × 10⁻¹⁶ and 1.5e3, 10⁻⁸, joint2, 3 m²");
    let keys: Vec<&str> = n.keys().map(String::as_str).collect();
    assert_eq!(keys, ["-2.22e-16", "1.5", "1e-8", "3"], "{n:?}");
    assert_eq!(
        numbers(&typ_text(
            "#table(columns: 3, inset: 8pt, [1.25], [#raw(\"0.1 m\")])"
        ))
        .keys()
        .collect::<Vec<_>>(),
        ["0.1", "1.25"]
    );
    assert_eq!(
        numbers(&md_text("1. see $x^2$ | 4.5 | \\-3"))
            .keys()
            .collect::<Vec<_>>(),
        ["-3", "4.5"]
    );
    assert_eq!(
        numbers(&html_text("<td>1.0 × 10⁻⁸</td><svg><text>9</text></svg>"))
            .keys()
            .collect::<Vec<_>>(),
        ["1.0e-8"]
    );
    assert!(EXCEPTIONS.iter().all(|e| !e.1.is_empty()));
}

/// `MEFF_PARITY_DUMP=dir`: writes each case's extracted text per format.
#[test]
fn dump_extracted_text_when_asked() {
    let Ok(dir) = std::env::var("MEFF_PARITY_DUMP") else {
        return;
    };
    let t = meff::render::templates::Templates::load(None).unwrap();
    for path in bundled_case_paths() {
        let r = evaluate_path(&path).report;
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        for (kind, doc) in [
            ("html", t.report_html(&r, 4).unwrap()),
            ("md", t.report_md_files(&r, 4, "x").unwrap().0),
            ("typ", t.report_typ(&r, 4).unwrap().0),
        ] {
            let text: String = sections(&doc, kind)
                .into_iter()
                .map(|(h, b)| {
                    let body = match kind {
                        "html" => html_text(&b),
                        "md" => md_text(&b),
                        _ => typ_text(&b),
                    };
                    format!("=== {h}\n{body}\n")
                })
                .collect();
            std::fs::write(format!("{dir}/{stem}.{kind}.txt"), text).unwrap();
        }
    }
}
