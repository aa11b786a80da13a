//! One quantity, one printed value: on the bundled tolerance sheet every
//! bound, step and speed limit reads the same in every place it is printed
//! (the Tolerances table, the summary, the coupled table, the person table
//! and formula, the change list; Markdown, HTML, Typst, `meff eval`'s text
//! and `meff diff`), rounded the way its kind says: a step or a permitted
//! speed down, an upper bound up, a lower bound down. The change list is
//! labelled in the sheet's words and prints each quantity as the sheet
//! does; a verdict only one revision has is added or removed, never
//! flipped.

use crate::support::{bundled, evaluate_str, meff, root};
use meff::number::{Round, at_least, at_most, sig, sig_round};
use meff::render::templates::Templates;

/// Every number as printed text (a maximal run of digits and points).
fn tokens(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map(|t| t.trim_matches('.'))
        .filter(|t| t.chars().any(|c| c.is_ascii_digit()))
        .collect()
}

/// The HTML without what is not printed text (plots' coordinates, style).
fn html_text(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(i) = rest.find("<svg") {
        out.push_str(&rest[..i]);
        rest = rest[i..].find("</svg>").map_or("", |j| &rest[i + j + 6..]);
    }
    out.push_str(rest);
    match (out.find("<style"), out.find("</style>")) {
        (Some(a), Some(b)) if b > a => format!("{}{}", &out[..a], &out[b..]),
        _ => out,
    }
}

/// A value as the sheet prints it at 4 figures: a step in ms (the sheet's
/// unit for these), anything else as is.
fn printed(x: f64, step: bool, round: Round) -> String {
    if step {
        return match round {
            Round::Down => sig(at_most(x, 4) * 1e3, 4),
            Round::Up => sig(at_least(x * 1e3, 4), 4),
            Round::Nearest => sig(x * 1e3, 4),
        };
    }
    sig_round(x, 4, round)
}

/// (what, value, step?, the rounding its kind asks for).
fn directed(r: &meff::report::Report) -> Vec<(String, f64, bool, Round)> {
    let mut out = Vec::new();
    let t = r.tolerances.as_ref().expect("the sheet has tolerances");
    for b in &t.results {
        for (end, x, round) in [
            ("nominal", b.nominal, b.round.nominal),
            ("lowest", b.lo, b.round.lo),
            ("highest", b.hi, b.round.hi),
            ("first-order low", b.first_order_lo, b.round.lo),
            ("first-order high", b.first_order_hi, b.round.hi),
        ] {
            out.push((format!("{} {end}", b.id), x, b.step, round));
        }
    }
    for p in &r.persons {
        for t in [&p.exact, &p.rule_of_thumb].into_iter().flatten() {
            if let Some(v) = t.max_speed {
                out.push((format!("speed limit {}", p.region), v, false, Round::Down));
            }
        }
    }
    let dt = &r.stable_dt;
    for (what, x) in [
        ("coupled step", dt.coupled),
        ("independent step", dt.independent),
        ("guaranteed step", dt.guaranteed),
        ("step to use", dt.governing),
        ("nominal step", dt.nominal_governing),
        ("nominal guaranteed step", dt.nominal_guaranteed),
    ] {
        if let Some(x) = x {
            out.push((what.to_string(), x, true, Round::Down));
        }
    }
    out.push((
        "upper bound on ω_max".into(),
        r.coupled_omega_upper_bound,
        false,
        Round::Up,
    ));
    out
}

#[test]
fn every_bound_on_the_tolerance_sheet_prints_one_value_in_every_format() {
    let ev = bundled("offcentre-tolerance.toml");
    let r = &ev.report;
    let t = Templates::load(None).unwrap();
    let md = t.report_md(r, 4).unwrap();
    let html = html_text(&t.report_html(r, 4).unwrap());
    let (typ, _) = t.report_typ(r, 4).unwrap();
    let text = format!(
        "{}\n{}",
        meff::render::text::summary(r, 4),
        meff::render::text::sections_text(&r.title, &meff::render::text::sections(r, 4))
    );
    // `meff diff` of the previous revision against this sheet's JSON.
    let old: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("cases/revisions/offcentre-tolerance-r1.json"))
            .unwrap(),
    )
    .unwrap();
    let new = serde_json::to_value(r).unwrap();
    let d = meff::revision::diff(&old, &new, 1e-9).unwrap();
    let diff = meff::revision::text(&d, 4, &meff::revision::Units::of(&new));
    let formats = [
        ("md", &md),
        ("html", &html),
        ("typ", &typ),
        ("text", &text),
        ("diff", &diff),
    ];
    let quantities = directed(r);
    // The value each quantity must print as; a wrong rounding of one is
    // only a finding where no quantity prints that text.
    let right: Vec<String> = quantities
        .iter()
        .map(|(_, x, step, round)| printed(*x, *step, *round))
        .collect();
    let mut ambiguous = 0;
    for ((what, x, step, round), want) in quantities.iter().zip(&right) {
        let wrong: Vec<String> = [Round::Nearest, Round::Down, Round::Up]
            .into_iter()
            .map(|o| printed(*x, *step, o))
            .filter(|s| s != want && !right.contains(s))
            .collect();
        if wrong.is_empty() {
            continue;
        }
        ambiguous += 1;
        let mut seen = 0;
        for (name, f) in formats {
            let tk = tokens(f);
            for w in &wrong {
                assert!(
                    !tk.contains(&w.as_str()),
                    "{what} = {x} ({round:?}) must print as {want}; {name} also prints {w}"
                );
            }
            seen += tk.iter().filter(|t| **t == want.as_str()).count();
        }
        assert!(seen > 0, "{what}: {want} printed nowhere");
    }
    // The quantities the signer named are among those checked: the upper
    // peak force, the hand's speed limit, the box's steps.
    assert!(ambiguous >= 10, "{ambiguous}");
    for must in ["375.0", "0.8347", "5.273"] {
        assert!(right.iter().any(|r| r == must), "{must}: {right:?}");
    }
}

#[test]
fn the_change_list_names_quantities_in_words_and_prints_them_as_the_sheet() {
    let ev = bundled("offcentre-tolerance.toml");
    let r = &ev.report;
    let ch = r
        .changes
        .as_ref()
        .expect("the case names its previous revision");
    let t = Templates::load(None).unwrap();
    let md = t.report_md(r, 4).unwrap();
    let html = t
        .report_html(r, 4)
        .unwrap()
        .replace("&#x2F;", "/")
        .replace("&amp;", "&");
    let (typ, _) = t.report_typ(r, 4).unwrap();
    let rows = meff::revision::rows(&ch.diff, 4, &meff::revision::Units::from(&r.display));
    assert!(!rows.is_empty());
    for (c, row) in ch.diff.changes.iter().zip(&rows) {
        // A label in words beside the identifier, which stays.
        assert_ne!(row.label, row.quantity);
        for key in ["stable_dt", "dt_", "omega_max", "peak_force", "max_speed"] {
            assert!(!row.label.contains(key), "{row:?}");
        }
        // A step through the step rule: in ms here, rounded down.
        if c.kind == meff::revision::Kind::Step {
            for (item, shown) in [(&c.old, &row.old), (&c.new, &row.new)] {
                if let Some(meff::revision::Item::Number { value, .. }) = item {
                    assert_eq!(*shown, format!("{} ms", sig(at_most(*value, 4) * 1e3, 4)));
                }
            }
        }
        for (name, f) in [("md", &md), ("html", &html)] {
            assert!(f.contains(&row.new), "{name}: {row:?}");
        }
        // Typst text escapes its markup characters.
        assert!(
            typ.contains(&meff::render::typ::text(&row.new)),
            "typ: {row:?}"
        );
    }
    // Every step and step bound that changed is listed as a step.
    for id in [
        "stable_dt",
        "stable_dt.guaranteed",
        "dt_guaranteed lowest over the tolerances",
        "dt_to_use highest over the tolerances",
    ] {
        let c = ch.diff.changes.iter().find(|c| c.quantity == id).unwrap();
        assert_eq!(c.kind, meff::revision::Kind::Step, "{id}");
    }
    // No time is printed in seconds (0.005274 s) any more: ms here.
    let section = &md[md.find("## Changes since").unwrap()..md.find("## Inputs").unwrap()];
    assert!(!section.contains(" s |"), "{section}");
    assert!(
        section.contains("| guaranteed step (from bounds"),
        "{section}"
    );
}

const ONE: &str = r#"
title = "one contact"
[parameters]
m = "2 kg"
k = "1e5 N/m"
[[body]]
name = "block"
type = "rigid"
mass = "m"
inertia = "0.02 kg m^2"
[[contact]]
name = "tip"
body = "block"
point = ["0.1 m", "0 m"]
normal = [0, 1]
stiffness = "k"
[display]
time = "us"
"#;

#[test]
fn a_verdict_only_one_revision_has_is_added_or_removed_not_flipped() {
    let passes = "\n[[claim]]\nof = \"m_eff(tip)\"\nequals = \"1.000 kg\"\n";
    let fails = "\n[[claim]]\nof = \"m_eff(tip)\"\nequals = \"1.200 kg\"\n";
    let json = |s: &str| serde_json::to_value(&evaluate_str(s).report).unwrap();
    let (bare, with) = (json(ONE), json(&format!("{ONE}{passes}")));
    // Added: one verdict more, none flipped.
    let d = meff::revision::diff(&bare, &with, 1e-9).unwrap();
    assert_eq!((d.flipped, d.verdicts_added, d.verdicts_removed), (0, 1, 0));
    assert_eq!(d.flips().count(), 0);
    let text = meff::revision::text(&d, 4, &meff::revision::Units::of(&with));
    assert!(
        !text.contains("FLIPPED") && !text.contains("flipped;"),
        "{text}"
    );
    assert!(text.contains("1 verdict added"), "{text}");
    // Removed, the other way.
    let d = meff::revision::diff(&with, &bare, 1e-9).unwrap();
    assert_eq!((d.flipped, d.verdicts_added, d.verdicts_removed), (0, 0, 1));
    // Flipped: the same claim text, passed → failed, needs both verdicts.
    let a = json(&format!("{ONE}{passes}"));
    let b = json(&format!("{ONE}{passes}").replace("m = \"2 kg\"", "m = \"3 kg\""));
    let d = meff::revision::diff(&a, &b, 1e-9).unwrap();
    assert_eq!((d.flipped, d.verdicts_added, d.verdicts_removed), (1, 0, 0));
    let text = meff::revision::text(&d, 4, &meff::revision::Units::of(&b));
    assert!(
        text.contains("1 verdict flipped") && text.contains("FLIPPED"),
        "{text}"
    );
    // Different claim texts are two verdicts: one removed, one added.
    let c = json(&format!("{ONE}{fails}"));
    let d = meff::revision::diff(&a, &c, 1e-9).unwrap();
    assert_eq!((d.flipped, d.verdicts_added, d.verdicts_removed), (0, 1, 1));
}

#[test]
fn meff_diff_prints_steps_in_the_sheets_unit_rounded_down_with_labels() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("a.toml"), dir.path().join("b.toml"));
    std::fs::write(&old, ONE).unwrap();
    std::fs::write(&new, ONE.replace("1e5 N/m", "1.3e5 N/m")).unwrap();
    let out = meff(["diff", old.to_str().unwrap(), new.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    // 2/ω with ω = √(k/m_eff), m_eff = 1 kg: 2/√(1.3e5) s in µs, down.
    let dt = 2.0 / 1.3e5f64.sqrt();
    let want = format!("{} µs", sig(at_most(dt * 1e6, 4), 4));
    let line = text
        .lines()
        .find(|l| l.contains("stable_dt.coupled"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.starts_with("stable step 2/ω_max (coupled)"), "{line}");
    assert!(line.contains(&want), "{want}: {line}");
    let line = text
        .lines()
        .find(|l| l.contains("omega_max_upper_bound"))
        .unwrap();
    assert!(
        line.contains(&format!(
            "{} rad/s",
            sig_round(1.3e5f64.sqrt(), 4, Round::Up)
        )),
        "{line}"
    );
}

/// A step as printed, in s: `6.324 ms`, `84.52 µs` (with any words after).
fn parse_step(s: &str) -> Option<f64> {
    let mut it = s.split_whitespace();
    let x: f64 = it.next()?.parse().ok()?;
    let f = match it.next()? {
        "s" => 1.0,
        "ms" => 1e-3,
        "µs" => 1e-6,
        _ => return None,
    };
    Some(x * f)
}

#[test]
fn every_row_stating_an_omega_and_a_step_states_the_step_of_that_omega() {
    // The coupled table of every bundled sheet (ω in rad/s): a row with
    // an ω and a step has step = 2/ω to the digits printed, unless the
    // row says the step is another rule (the dashpots' energy bound).
    let t = Templates::load(None).unwrap();
    let mut checked = 0;
    for path in crate::support::bundled_case_paths() {
        let ev = crate::support::evaluate_path(&path);
        if ev.report.display.omega.unit != "rad/s" {
            continue;
        }
        let md = t.report_md(&ev.report, 4).unwrap();
        let Some(at) = md.find("| | ω (rad/s) | stable Δt") else {
            continue;
        };
        for line in md[at..].lines().skip(2).take_while(|l| l.starts_with('|')) {
            let cells: Vec<&str> = line.split(" | ").collect();
            let (Some(w), Some(h)) = (
                cells.get(1).and_then(|c| crate::support::printed_number(c)),
                cells.get(2).and_then(|c| parse_step(c)),
            ) else {
                continue;
            };
            if line.contains("not 2/ω̄") {
                continue;
            }
            // Both printed to 4 figures, each rounded its own way.
            let rel = (h * w / 2.0 - 1.0).abs();
            assert!(rel < 2.5e-3, "{}: 2/{w} ≠ {h}: {line}", path.display());
            checked += 1;
        }
    }
    assert!(checked > 40, "{checked}");
}
