//! The robot program and workspace map as a signer reads them: every
//! permissible speed and speed factor printed rounded down (never the
//! nearest: 1.3369 is 1.33, not 1.34), a map that reads one value says
//! why, the headline says which direction its factor is for and gives
//! the worst direction's beside it, and each table's times share one
//! format.

use crate::support::bundled;

fn number(s: &str) -> f64 {
    s.replace('−', "-")
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {s:?}"))
}

/// The numbers `m/s` follows in a sentence, in order.
fn speeds(text: &str) -> Vec<f64> {
    text.split(" m/s")
        .filter_map(|before| {
            before
                .rsplit(' ')
                .next()
                .and_then(|w| w.replace('−', "-").parse().ok())
        })
        .collect()
}

/// A printed limit is at most the value and within one unit of its last
/// digit below it.
fn rounded_down(printed: f64, value: f64, digits: i32) {
    let ulp = 10f64.powi(value.abs().log10().floor() as i32 + 1 - digits);
    assert!(
        printed <= value && value - printed < ulp * (1.0 + 1e-9),
        "printed {printed} for {value}"
    );
}

#[test]
fn map_speeds_are_rounded_down_in_cells_notes_and_heat_maps() {
    let ev = bundled("ur5-program.toml");
    let m = ev.report.map.as_ref().unwrap();
    let view = meff::render::workspace::view(&ev.report, 4).unwrap();
    let mut nearest_would_differ = 0;
    for (g, v) in m.grids.iter().zip(&view.grids) {
        for (row, cells) in g.max_speed.iter().zip(&v.rows) {
            for (&x, cell) in row.iter().zip(&cells[1..]) {
                rounded_down(number(cell), x, 3);
                nearest_would_differ += usize::from(meff::number::sig(x, 3) != *cell);
            }
        }
        let s = speeds(&v.note);
        rounded_down(s[0], g.min_speed, 4);
        rounded_down(s[1], g.max_speed_largest, 4);
        rounded_down(s[2], g.rule_speed, 4);
    }
    // The bundled map has cells where the nearest rounding reads high
    // (1.3369 → 1.34, 0.72697 → 0.727).
    assert!(nearest_would_differ > 10, "{nearest_would_differ}");
    // The rule's limit reads the same in the map and the program section.
    let hand = &m.grids[0];
    let rule = meff::number::sig_round(hand.rule_speed, 4, meff::number::Round::Down);
    assert_eq!(rule, "1.317");
    let program = meff::render::program::view(&ev.report, 4).unwrap();
    assert!(program.rows.iter().any(|r| r.contains(&rule)));
    // The heat maps' scale ends and cell titles: rounded down too.
    for (svg, g) in meff::render::workspace::plots(&ev.report)
        .iter()
        .zip(&m.grids)
    {
        let lo = meff::number::sig_round(g.min_speed, 3, meff::number::Round::Down);
        assert!(svg.contains(&format!(">{lo}</text>")), "{lo}");
    }
}

#[test]
fn a_map_that_reads_one_value_says_why() {
    let ev = bundled("ur5-program.toml");
    let view = meff::render::workspace::view(&ev.report, 4).unwrap();
    let m = ev.report.map.as_ref().unwrap();
    for (g, v) in m.grids.iter().zip(&view.grids) {
        let infinite = g.mass.iter().flatten().all(Option::is_none);
        assert_eq!(
            v.note.contains("the map is constant"),
            infinite,
            "{}",
            v.note
        );
        if infinite {
            // The elbow moves in a plane: its worst-direction mass is ∞.
            assert!(v.note.contains("m_R = ∞, μ = m_H"), "{}", v.note);
        }
    }
    assert!(
        view.grids
            .iter()
            .any(|v| v.note.contains("the map is constant"))
    );
}

#[test]
fn the_program_headline_says_its_factor_is_along_the_velocity() {
    let ev = bundled("ur5-program.toml");
    let p = ev.report.program.as_ref().unwrap();
    let worst = p
        .pairs
        .iter()
        .filter_map(|q| q.factor_worst_direction)
        .fold(f64::INFINITY, f64::min);
    let line: String = meff::render::headline::lines(&ev.report, 4)
        .iter()
        .map(|l| l.iter().map(|s| s.text.as_str()).collect::<String>())
        .find(|l| l.starts_with("Program"))
        .unwrap();
    // Without armature the verdict is the rule mass's (prog49); the exact
    // mass along the velocity is printed as the lower bound's factor.
    let along = meff::number::sig_round(p.factor.unwrap(), 3, meff::number::Round::Down);
    assert!(
        line.contains(&format!("exact mass alone gives factor {along}")),
        "{line}"
    );
    let verdict = meff::number::sig_round(p.factor_verdict.unwrap(), 3, meff::number::Round::Down);
    assert!(
        line.contains(&format!("run it at ≤ {verdict} of its speed")),
        "{line}"
    );
    let shown = meff::number::sig_round(worst, 3, meff::number::Round::Down);
    assert!(
        line.contains(&format!("worst direction (the largest mass of the point's ellipsoid) the factor is {shown} — over the limit")),
        "{line}"
    );
}

#[test]
fn each_program_table_prints_its_times_one_way() {
    let ev = bundled("ur5-program.toml");
    let v = meff::render::program::view(&ev.report, 4).unwrap();
    let decimals = |s: &str| s.split('.').nth(1).map_or(0, str::len);
    let rows: Vec<usize> = v.rows.iter().map(|r| decimals(&r[0])).collect();
    assert!(rows.windows(2).all(|w| w[0] == w[1]), "{:?}", v.rows);
    assert!(v.rows.iter().any(|r| r[0] == "0.500"), "{:?}", v.rows);
    let pairs: Vec<usize> = v.pairs.iter().map(|r| decimals(&r[8])).collect();
    assert!(pairs.windows(2).all(|w| w[0] == w[1]), "{:?}", v.pairs);
}
