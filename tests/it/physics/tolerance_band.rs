//! One search for every bound: a sweep's band and the Tolerances table's
//! results against a brute-force grid of the closed form over the box, on
//! a case whose extreme lies inside the box, off the scan's points, and
//! moves with the swept parameter (a plate whose contact sits at (r, h),
//! on a floor tilted by t: m_eff = 1/(1/m + (r cos t − h sin t)²/I) is
//! smallest at t* = −atan(h/r)).

use crate::support::{assert_close, evaluate_str, root};

const H: f64 = 0.005;

fn case() -> String {
    let text = std::fs::read_to_string(root().join("cases/offcentre-tolerance.toml")).unwrap();
    let text = text
        .replace("point = [\"r\", \"0 m\"]", "point = [\"r\", \"h\"]")
        .replace(
            "[parameters]\n",
            "[parameters]\nh = { value = \"0.005 m\", description = \"height of the contact\" }\n",
        );
    // No previous revision for this variant.
    let cut = text.find("[revision]").unwrap();
    text[..cut].to_string()
}

fn m_eff(m: f64, i: f64, r: f64, t: f64) -> f64 {
    let arm = r * t.cos() - H * t.sin();
    1.0 / (1.0 / m + arm * arm / i)
}

/// Smallest and largest of the closed form over a grid of the box
/// (m ± 5 %, I ± 10 %, tilt ± 8°; `r` fixed, or over ± 10 %).
fn brute(r: Option<f64>) -> (f64, f64) {
    let lin = |lo: f64, hi: f64, n: usize| -> Vec<f64> {
        (0..n)
            .map(|i| lo + (hi - lo) * i as f64 / (n - 1) as f64)
            .collect()
    };
    let rs = r.map_or_else(|| lin(0.09, 0.11, 5), |r| vec![r]);
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    let t8 = 8f64.to_radians();
    for &m in &lin(1.9, 2.1, 5) {
        for &i in &lin(0.018, 0.022, 5) {
            for &r in &rs {
                for &t in &lin(-t8, t8, 4001) {
                    let v = m_eff(m, i, r, t);
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
            }
        }
    }
    (lo, hi)
}

#[test]
fn a_sweeps_band_finds_the_interior_extreme_a_brute_force_grid_finds() {
    let ev = evaluate_str(&case());
    let s = &ev.report.sweeps[0];
    let series = &s.series[0];
    let (lo, hi) = (
        series.band_lo.as_ref().unwrap(),
        series.band_hi.as_ref().unwrap(),
    );
    for (j, &r) in s.x.iter().enumerate() {
        let (b_lo, b_hi) = brute(Some(r));
        let (lo, hi) = (lo[j].unwrap(), hi[j].unwrap());
        // The exact extreme: t* = −atan(h/r) is inside ±8° at every r of
        // the sweep (|t*| ≤ 5.7°), off the scan's 2° grid.
        let exact = 1.0 / (1.0 / 1.9 + (r * r + H * H) / 0.018);
        assert!(lo >= exact * (1.0 - 1e-12), "r = {r}: {lo} below {exact}");
        assert!(lo <= b_lo * (1.0 + 1e-9), "r = {r}: band {lo}, grid {b_lo}");
        assert_close(lo, exact, 1e-8);
        // The largest is at a corner (both tilt ends move m_eff up).
        assert_close(hi, b_hi, 1e-9);
    }
    let note = s.band_note.as_deref().unwrap();
    assert!(
        note.contains("searched as the Tolerances section's results are")
            && note.contains("for tilt"),
        "{note}"
    );
}

#[test]
fn the_tolerance_tables_bounds_are_the_brute_force_grids() {
    let ev = evaluate_str(&case());
    let t = ev.report.tolerances.as_ref().unwrap();
    let b = t
        .results
        .iter()
        .find(|b| b.id == "m_eff(offcentre)")
        .unwrap();
    let (b_lo, b_hi) = brute(None);
    assert!(b.lo <= b_lo * (1.0 + 1e-9), "{} vs grid {b_lo}", b.lo);
    assert_close(
        b.lo,
        1.0 / (1.0 / 1.9 + (0.11f64.powi(2) + H * H) / 0.018),
        1e-8,
    );
    assert_close(b.hi, b_hi, 1e-9);
    // The tilt of the smallest value is t* = −atan(h/r) at r high.
    let tilt = b.lo_corner.iter().find(|c| c.parameter == "tilt").unwrap();
    assert_close(tilt.value, -(H / 0.11f64).atan(), 1e-3);
}

#[test]
fn with_tolerances_the_headline_states_the_bounds_that_decide_and_the_table_its_units() {
    let ev = crate::support::bundled("offcentre-tolerance.toml");
    let t = ev.report.tolerances.as_ref().unwrap();
    let by = |id: &str| t.results.iter().find(|b| b.id == id).unwrap();
    let (force, speed) = (by("peak_force(drop)"), by("max_speed(offcentre, hand)"));
    let lines = meff::render::headline::lines(&ev.report, 4);
    let bold: Vec<String> = lines
        .iter()
        .flatten()
        .filter(|s| s.strong)
        .map(|s| s.text.clone())
        .collect();
    let shown = |x: f64, unit: &str| format!("{} {unit}", meff::number::sig(x, 4));
    // The largest force and the smallest speed, in bold; the nominal beside.
    assert!(force.hi > force.nominal && speed.lo < speed.nominal);
    // Rounded the safe way: the largest force up, the smallest limit down.
    let safe = |x: f64, unit: &str, r: meff::number::Round| {
        format!("{} {unit}", meff::number::sig_round(x, 4, r))
    };
    assert!(
        bold.contains(&safe(force.hi, "N", meff::number::Round::Up)),
        "{bold:?}"
    );
    assert!(
        bold.contains(&safe(speed.lo, "m/s", meff::number::Round::Down)),
        "{bold:?}"
    );
    assert!(!bold.contains(&shown(force.nominal, "N")), "{bold:?}");
    assert!(!bold.contains(&shown(speed.nominal, "m/s")), "{bold:?}");
    let text: String = lines.iter().flatten().map(|s| s.text.as_str()).collect();
    assert!(
        text.contains(&format!("nominal {}", shown(force.nominal, "N"))),
        "{text}"
    );
    // The tables: the tilt in degrees, the steps rounded down in ms, no
    // elasticity at a nominal of 0.
    let sheet = meff::render::text::sections_text(
        &ev.report.title,
        &meff::render::text::sections(&ev.report, 4),
    );
    let row = |start: &str| {
        sheet
            .lines()
            // The Tolerances table's row, not the change list's.
            .find(|l| l.trim_start().starts_with(start) && !l.contains("over the tolerances"))
            .unwrap_or_else(|| panic!("no {start} row in\n{sheet}"))
            .to_string()
    };
    assert!(row("tilt ").contains(" deg "), "{}", row("tilt "));
    assert!(row("tilt ").contains("8.000"), "{}", row("tilt "));
    let step = by("dt_to_use");
    let lo_ms = meff::number::at_most(step.lo * 1e3, 4);
    assert!(lo_ms <= step.lo * 1e3);
    assert!(
        row("step to use").contains(&format!("{} ms", meff::number::sig(lo_ms, 4))),
        "{}",
        row("step to use")
    );
    let s = ev
        .report
        .symbolic
        .sensitivities
        .iter()
        .find(|s| s.parameter == "tilt")
        .unwrap();
    assert!(s.m_eff.is_none() && s.omega.is_none());
    assert!(
        row("offcentre  tilt").contains('—'),
        "{}",
        row("offcentre  tilt")
    );
    assert!(ev.report.symbolic.sensitivities_note.is_some());
}
