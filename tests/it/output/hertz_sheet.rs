//! A Hertz sheet as a signer reads it (issue 38): every row of the
//! stable-step table that states a ω and a step states both at one Hertz
//! state (`hertz_states`), the verification says what its preload is not,
//! and no sheet shows TeX a browser leaves raw.

use crate::support::{bundled, bundled_case_paths, evaluate_path, evaluate_str, hertz_ball};
use meff::render::templates::Templates;

/// A printed number: `9.901 × 10⁴`, `−0.5`, `2218`.
fn num(s: &str) -> f64 {
    crate::support::printed_number(s).unwrap_or_else(|| panic!("not a number: {s}"))
}

/// A printed step (`84.68 µs`), the note after it ignored (s).
fn seconds(cell: &str) -> f64 {
    let mut words = cell.split_whitespace();
    let (value, unit) = (words.next().unwrap(), words.next().unwrap());
    let scale = match unit {
        "ns" => 1e-9,
        "µs" => 1e-6,
        "ms" => 1e-3,
        "s" => 1.0,
        u => panic!("unit {u} in {cell}"),
    };
    num(value) * scale
}

/// The stable-step table's rows (label, ω, step) of a Markdown sheet.
fn step_rows(md: &str) -> Vec<[String; 3]> {
    let mut lines = md
        .lines()
        .skip_while(|l| !(l.starts_with("| | ") && l.contains("stable Δt")));
    lines.next().expect("the stable-step table");
    lines
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            // Cells split at `|` (a `\|` inside a label is escaped).
            let mut cells = vec![String::new()];
            let mut prev = ' ';
            for c in l.trim().trim_matches('|').chars() {
                if c == '|' && prev != '\\' {
                    cells.push(String::new());
                } else {
                    cells.last_mut().unwrap().push(c);
                }
                prev = c;
            }
            let cells: Vec<String> = cells.iter().map(|c| c.trim().to_string()).collect();
            assert_eq!(cells.len(), 3, "{l}");
            [cells[0].clone(), cells[1].clone(), cells[2].clone()]
        })
        .collect()
}

/// Checks every row of the sheet's stable-step table that states a ω and
/// a step: both are the figures of the one state its label names, and a
/// step that is not 2/ω says what it is. Returns the rows checked.
fn check_step_table(ev: &meff::Evaluated) -> usize {
    let r = &ev.report;
    let st = r.hertz_states.as_ref().expect("a Hertz sheet");
    let t = Templates::load(None).unwrap();
    let md = t.report_md_files(r, 4, "x").unwrap().0;
    let mut checked = 0;
    for [label, w, cell] in step_rows(&md) {
        if w.is_empty() || cell.is_empty() {
            continue;
        }
        let peak = st.at_peak.as_ref();
        let at_peak = label.contains("at the peak of the Hertz impact");
        assert!(
            at_peak || label.contains("(static linearisation)"),
            "{}: the row names no state: {label}",
            r.title
        );
        let fig = if at_peak {
            peak.unwrap()
        } else {
            &st.linearised
        };
        let (want_w, want_h) = if label.starts_with("independent estimate") {
            (r.independent_omega_max, r.stable_dt.independent)
        } else if label.starts_with("coupled") {
            (fig.omega_max, fig.coupled)
        } else if label.starts_with("upper bound") {
            // At the peak the bound's own 2/ω̄ is printed, and the step
            // through the impact has its own row.
            let h = if label.contains("its 2/ω̄") {
                Some(2.0 / fig.omega_upper_bound)
            } else {
                fig.guaranteed
            };
            (fig.omega_upper_bound, h)
        } else {
            panic!("{}: a row this test does not know: {label}", r.title)
        };
        let (w, h) = (num(&w), seconds(&cell));
        let want_h = want_h.unwrap();
        // Four digits: ω to nearest or up, the step down.
        assert!(
            (w / want_w - 1.0).abs() <= 1e-3,
            "{}: {label}: ω {w} vs {want_w}",
            r.title
        );
        assert!(
            h <= want_h && h >= want_h * (1.0 - 1e-3),
            "{}: {label}: step {h} vs {want_h}",
            r.title
        );
        if (h * w / 2.0 - 1.0).abs() > 2e-3 {
            assert!(
                label.contains("2/ω̄") || cell.contains("2/ω̄"),
                "{}: {label}: {cell} is not 2/ω and says nothing",
                r.title
            );
        }
        checked += 1;
    }
    checked
}

#[test]
fn every_row_of_a_hertz_sheets_step_table_states_one_state() {
    let law = "modulus = \"115 GPa\"\nload = \"0.3208 N\"\nimpact_speed = \"1 m/s\"";
    let cases = [
        (bundled("hertz-sphere-impact.toml"), 5),
        // A heavy load and a slow impact: the static state governs.
        (
            evaluate_str(&hertz_ball(
                "",
                "modulus = \"115 GPa\"\nload = \"50 N\"\nimpact_speed = \"1e-5 m/s\"",
            )),
            3,
        ),
        // Dashpots and Mindlin's spring: the static bound is the energy bound.
        (
            evaluate_str(&hertz_ball(
                "",
                &format!("{law}\ndamping = \"2 N s/m\"\nshear_modulus = \"23.76 GPa\""),
            )),
            5,
        ),
        // A tolerance: the box's smallest guaranteed step is not the
        // nominal peak's, and the row's ω̄ is the nominal peak's.
        (
            evaluate_str(&hertz_ball(
                "E = \"115 GPa ± 10 %\"",
                &law.replace("\"115 GPa\"", "\"E\""),
            )),
            5,
        ),
    ];
    for (ev, rows) in &cases {
        assert_eq!(check_step_table(ev), *rows, "{}", ev.report.title);
    }
    let (tol, _) = &cases[3];
    let peak = tol
        .report
        .hertz_states
        .as_ref()
        .unwrap()
        .at_peak
        .as_ref()
        .unwrap();
    assert!(tol.report.stable_dt.guaranteed.unwrap() < peak.guaranteed.unwrap() * (1.0 - 1e-3));
}

#[test]
fn a_hertz_sheet_says_its_preload_is_no_load_on_the_hertz_law() {
    let ev = crate::support::verified("hertz-sphere-impact.toml");
    let r = &ev.report;
    let k = meff::number::sig(r.hertz[0].stiffness, 4);
    let preload = meff::number::sig(r.verification.as_ref().unwrap().settings.preload[0], 3);
    let t = Templates::load(None).unwrap();
    let text = meff::render::text::sections_text(&r.title, &meff::render::text::sections(r, 4));
    for doc in [
        t.report_html(r, 4).unwrap(),
        t.report_md_files(r, 4, "x").unwrap().0,
        t.report_typ(r, 4).unwrap().0,
        text,
    ] {
        let at = doc
            .find("not a load on the Hertz law")
            .expect("the preload's note");
        let around = &doc[at.saturating_sub(400)..(at + 800).min(doc.len())];
        assert!(around.contains(&format!("{preload} N")), "{around}");
        assert!(around.contains("static linearisation"), "{around}");
        assert!(
            around.contains("except the row checks, at the Hertz impact's peak"),
            "{around}"
        );
        let k_shown = k.split('e').next().unwrap();
        assert!(around.contains(k_shown), "{k_shown} in {around}");
    }
    // The row checks name the limit they simulate at the peak, not the
    // step to use (a fraction of it there).
    let v = r.verification.as_ref().unwrap();
    for c in v
        .verdict
        .checks
        .iter()
        .filter(|c| c.check == "row_stability")
    {
        assert!(!c.what.contains("the step to use,"), "{}", c.what);
    }
    // Without Hertz contacts the sentence stays as it was.
    let ev = crate::support::verified("offcentre.toml");
    let md = t.report_md_files(&ev.report, 4, "x").unwrap().0;
    assert!(md.contains("so that it stays compressed while it vibrates."));
    assert!(!md.contains("Hertz law"));
}

/// The text a browser shows: tags, MathML, SVG, scripts and styles out.
fn visible(html: &str) -> String {
    let mut s = html.to_string();
    for (open, close) in [
        ("<math", "</math>"),
        ("<svg", "</svg>"),
        ("<script", "</script>"),
        ("<style", "</style>"),
    ] {
        while let Some(a) = s.find(open) {
            let b = s[a..].find(close).map_or(s.len(), |b| a + b + close.len());
            s.replace_range(a..b, " ");
        }
    }
    let mut out = String::new();
    let mut tag = false;
    for c in s.chars() {
        match c {
            '<' => tag = true,
            '>' => tag = false,
            c if !tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&#x2F;", "/")
        .replace("&amp;", "&")
        .replace("&#36;", "$")
}

#[test]
fn no_bundled_sheet_shows_raw_tex_in_a_browser() {
    let t = Templates::load(None).unwrap();
    let mut read = 0;
    for path in bundled_case_paths() {
        let ev = evaluate_path(&path);
        let text = visible(&t.report_html(&ev.report, 4).unwrap());
        for raw in ["^{", "_{", "\\frac", "\\mathrm", "\\left", "$"] {
            if let Some(at) = text.find(raw) {
                let from = text[..at]
                    .char_indices()
                    .rev()
                    .nth(60)
                    .map_or(0, |(i, _)| i);
                panic!(
                    "{}: raw `{raw}` shows: …{}…",
                    path.display(),
                    &text[from..(at + 20).min(text.len())]
                );
            }
        }
        read += 1;
    }
    assert!(read >= 20, "{read} bundled cases");
}
