//! Results bounded over tolerances: the seed case's m_eff and ω over
//! r ± 10 % against their closed forms, first order against the exact
//! interval with the gap stated, every corner against a separate
//! evaluation of the case at that corner, the step to use stable at every
//! corner, a non-monotone dependence said, sweep bands, and the method
//! above 8 toleranced parameters.

use crate::support::{SEED_CASE, assert_close, bundled, evaluate_str};
use meff::tolerance::{Bound, End};

/// The seed case with `line` replacing the definition of its parameter.
fn seed_with(lines: &[&str]) -> String {
    let mut text = SEED_CASE.to_string();
    for line in lines {
        let name = line.split(" = ").next().unwrap();
        let old = SEED_CASE
            .lines()
            .find(|l| l.starts_with(&format!("{name} = ")))
            .unwrap();
        text = text.replace(old, line);
    }
    text
}

fn bound<'a>(ev: &'a meff::Evaluated, id: &str) -> &'a Bound {
    let t = ev.report.tolerances.as_ref().expect("tolerances");
    t.results
        .iter()
        .find(|b| b.id == id)
        .unwrap_or_else(|| panic!("no {id}"))
}

#[test]
fn seed_m_eff_over_r_is_its_closed_form_at_the_ends_and_first_order_is_second_order_off() {
    let ev = evaluate_str(&seed_with(&["r = \"0.10 m ± 10 %\""]));
    let (m, i, k, r) = (2.0, 0.020, 1e5, 0.10);
    let m_eff = |r: f64| m * i / (i + m * r * r);
    let omega = |r: f64| (k * (1.0 / m + r * r / i)).sqrt();
    let (lo, hi) = (0.9 * r, 1.1 * r);
    // m_eff falls with r (for r > 0): the interval is the closed form at
    // the two ends, in this order.
    let b = bound(&ev, "m_eff(c)");
    assert_close(b.lo, m_eff(hi), 1e-12);
    assert_close(b.hi, m_eff(lo), 1e-12);
    assert_eq!(b.lo_corner[0].end, End::Hi);
    assert_eq!(b.hi_corner[0].end, End::Lo);
    assert_eq!(b.driver.as_deref(), Some("r"));
    assert_eq!(b.closed_form.as_deref(), Some("m*I/(I + m*r^2)"));
    assert!(
        b.notes
            .iter()
            .any(|n| n.contains("closed form") && n.contains("r high")),
        "{:?}",
        b.notes
    );
    let w = bound(&ev, "omega(c)");
    assert_close(w.lo, omega(lo), 1e-12);
    assert_close(w.hi, omega(hi), 1e-12);
    // First order from the exact elasticity: dm_eff/dr = −2 m² I r/(I + m r²)².
    let d = 2.0 * m * m * i * r / (i + m * r * r).powi(2);
    assert_eq!(b.derivatives, "exact_elasticities");
    assert_close(b.first_order_lo, m_eff(r) - d * 0.1 * r, 1e-12);
    assert_close(b.first_order_hi, m_eff(r) + d * 0.1 * r, 1e-12);
    // The gap is second order: ½|m_eff''| Δr² to leading order, here
    // 0.50 % of the nominal m_eff (exact [0.90498, 1.10497] kg, first
    // order [0.9, 1.1] kg).
    let gap = b.gap().expect("a nonzero nominal value gives a scale");
    assert!((0.0049..0.0051).contains(&gap), "gap {gap}");
    let m2 = {
        let h = 1e-4;
        (m_eff(r + h) - 2.0 * m_eff(r) + m_eff(r - h)) / (h * h)
    };
    assert_close(gap, 0.5 * m2.abs() * (0.1 * r).powi(2) / m_eff(r), 0.05);
}

/// The seed case at fixed values (no tolerance).
fn seed_at(m: f64, i: f64, r: f64, k: f64) -> meff::Evaluated {
    evaluate_str(&seed_with(&[
        &format!("m = \"{m:e} kg\""),
        &format!("I = \"{i:e} kg m^2\""),
        &format!("r = \"{r:e} m\""),
        &format!("k = \"{k:e} N/m\""),
    ]))
}

#[test]
fn every_corner_is_a_separate_evaluation_and_the_step_is_stable_at_each() {
    let ev = evaluate_str(&seed_with(&[
        "m = \"2 kg ± 5 %\"",
        "I = \"0.020 kg m^2 +- 0.004 kg m^2\"",
        "r = \"[0.08 m, 0.12 m]\"",
        "k = \"1e5 N/m +/- 3e4 N/m\"",
    ]));
    let t = ev.report.tolerances.as_ref().unwrap();
    assert_eq!(t.corners, 16);
    let step = ev.report.stable_dt.governing.unwrap();
    let mut m_effs = Vec::new();
    let mut steps = Vec::new();
    for b in 0..16 {
        let end = |j: usize, lo: f64, hi: f64| if b >> j & 1 == 1 { hi } else { lo };
        let at = seed_at(
            end(0, 1.9, 2.1),
            end(1, 0.016, 0.024),
            end(2, 0.08, 0.12),
            end(3, 7e4, 1.3e5),
        );
        let c = &at.analysis.contacts[0];
        m_effs.push(c.m_eff.unwrap());
        let own = at.report.stable_dt.governing.unwrap();
        // Stable at this corner: at most 2/ω_max there.
        assert!(step <= own * (1.0 + 1e-12), "corner {b}: {step} > {own}");
        steps.push(own);
    }
    let fold = |v: &[f64], f: fn(f64, f64) -> f64| v.iter().copied().reduce(f).unwrap();
    let b = bound(&ev, "m_eff(c)");
    assert_close(b.lo, fold(&m_effs, f64::min), 1e-12);
    assert_close(b.hi, fold(&m_effs, f64::max), 1e-12);
    // The step to use is the smallest corner's, and the nominal one stays.
    assert_close(step, fold(&steps, f64::min), 1e-12);
    assert_close(
        ev.report.stable_dt.nominal_governing.unwrap(),
        2.0 / 316.227_766_016_837_9,
        1e-9,
    );
    // The corner it names gives it.
    let s = bound(&ev, "dt_to_use");
    let pick = |p: &str, lo: f64, hi: f64| {
        s.lo_corner
            .iter()
            .find(|c| c.parameter == p)
            .map_or((lo + hi) / 2.0, |c| c.value)
    };
    let at = seed_at(
        pick("m", 1.9, 2.1),
        pick("I", 0.016, 0.024),
        pick("r", 0.08, 0.12),
        pick("k", 7e4, 1.3e5),
    );
    assert_close(at.report.stable_dt.governing.unwrap(), step, 1e-12);
}

#[test]
fn a_dependence_first_order_cannot_see_is_said_and_searched_inside() {
    let ev = bundled("offcentre-tolerance.toml");
    let b = bound(&ev, "m_eff(offcentre)");
    let said = |s: &str| b.notes.iter().any(|n| n.contains(s));
    assert!(said("not monotone in tilt"), "{:?}", b.notes);
    assert!(
        said("first-order estimate sees no effect of tilt"),
        "{:?}",
        b.notes
    );
    // The plate's m_eff = 1/(1/m + r² cos²(tilt)/I) is smallest on a level
    // floor (tilt = 0, inside the box) with m, I low and r high.
    let (m, i, r) = (1.9, 0.018, 0.11);
    assert_close(b.lo, 1.0 / (1.0 / m + r * r / i), 1e-12);
    let tilt = b.lo_corner.iter().find(|c| c.parameter == "tilt").unwrap();
    assert_eq!((tilt.end, tilt.value), (End::Inside, 0.0));
    // The largest at either tilted end.
    let c = (8f64).to_radians().cos();
    assert_close(b.hi, 1.0 / (1.0 / 2.1 + 0.09 * 0.09 * c * c / 0.022), 1e-12);
    // The step to use is the level floor's (ω largest there).
    let w = bound(&ev, "omega_max");
    assert_close(ev.report.stable_dt.governing.unwrap(), 2.0 / w.hi, 1e-12);
    assert_close(w.hi, (1.2e5 * (1.0 / m + r * r / i)).sqrt(), 1e-12);
    // The sheet says it in every format.
    let t = meff::render::text::sections_text(
        &ev.report.title,
        &meff::render::text::sections(&ev.report, 4),
    );
    assert!(t.contains("not monotone in tilt"), "{t}");
}

#[test]
fn a_sweep_carries_the_band_of_the_other_tolerances() {
    let ev = evaluate_str(&format!(
        "{}[[sweep]]\nparameter = \"r\"\nfrom = \"0.05 m\"\nto = \"0.15 m\"\npoints = 5\nplot = [\"m_eff(c)\"]\n",
        seed_with(&["m = \"2 kg ± 10 %\"", "r = \"0.10 m ± 10 %\""])
    ));
    let s = &ev.report.sweeps[0];
    let series = &s.series[0];
    let (lo, hi) = (
        series.band_lo.as_ref().unwrap(),
        series.band_hi.as_ref().unwrap(),
    );
    for (j, &x) in s.x.iter().enumerate() {
        // Only m varies at a sweep point: m_eff rises with m.
        let m_eff = |m: f64| m * 0.02 / (0.02 + m * x * x);
        assert_close(lo[j].unwrap(), m_eff(1.8), 1e-12);
        assert_close(hi[j].unwrap(), m_eff(2.2), 1e-12);
        assert!(lo[j].unwrap() <= series.values[j].unwrap());
    }
    assert!(
        s.band_note
            .as_ref()
            .unwrap()
            .contains("over the tolerances of m, searched as")
    );
}

#[test]
fn above_eight_tolerances_the_largest_effects_are_searched_and_it_is_said() {
    let mut text = seed_with(&[
        "m = \"2 kg ± 5 %\"",
        "I = \"0.020 kg m^2 ± 5 %\"",
        "r = \"0.10 m ± 5 %\"",
        "k = \"1e5 N/m ± 5 %\"",
    ]);
    // Five more that move nothing but count.
    for j in 0..5 {
        text = text.replace(
            "[parameters]\n",
            &format!("[parameters]\nz{j} = \"1 m ± 1 %\"\n"),
        );
    }
    let ev = evaluate_str(&text);
    let t = ev.report.tolerances.as_ref().unwrap();
    assert_eq!(t.method, meff::tolerance::Method::LargestEffect);
    for p in ["m", "I", "r", "k"] {
        assert!(
            t.corner_parameters.iter().any(|c| c == p),
            "{:?}",
            t.corner_parameters
        );
    }
    assert!(
        t.notes
            .iter()
            .any(|n| n.contains("estimates, not guaranteed bounds"))
    );
    // The four that matter are searched exactly: the same interval as
    // with them alone.
    let alone = evaluate_str(&seed_with(&[
        "m = \"2 kg ± 5 %\"",
        "I = \"0.020 kg m^2 ± 5 %\"",
        "r = \"0.10 m ± 5 %\"",
        "k = \"1e5 N/m ± 5 %\"",
    ]));
    assert_close(
        bound(&ev, "m_eff(c)").lo,
        bound(&alone, "m_eff(c)").lo,
        1e-12,
    );
    assert_close(
        bound(&ev, "omega_max").hi,
        bound(&alone, "omega_max").hi,
        1e-12,
    );
}

#[test]
fn a_report_lists_the_changes_since_its_previous_revision_as_meff_diff_does() {
    // The bundled case's previous revision had k = 8e4 N/m ± 20 %.
    let ev = bundled("offcentre-tolerance.toml");
    let ch = ev.report.changes.as_ref().expect("changes");
    assert_eq!(ch.previous, "revisions/offcentre-tolerance-r1.json");
    assert_eq!(ch.previous_revision.as_deref(), Some("A"));
    let names: Vec<&str> = ch
        .diff
        .changes
        .iter()
        .map(|c| c.quantity.as_str())
        .collect();
    // k moved by +25 %: ω by √1.25 − 1, the step by 1/√1.25 − 1; m_eff and
    // the person's speed limit (k_H is the person's) do not move.
    let rel = |q: &str| {
        ch.diff
            .changes
            .iter()
            .find(|c| c.quantity == q)
            .unwrap_or_else(|| panic!("{q} not in {names:?}"))
            .relative_change
            .unwrap()
    };
    assert_close(rel("k (SI)"), 0.25, 1e-12);
    assert_close(rel("omega(offcentre)"), 1.25f64.sqrt() - 1.0, 1e-9);
    assert_close(
        rel("dt_to_use lowest over the tolerances"),
        1.0 / 1.25f64.sqrt() - 1.0,
        1e-9,
    );
    for q in names.iter() {
        assert!(
            !q.starts_with("m_eff") && !q.starts_with("max_speed"),
            "{q} moved: {names:?}"
        );
    }
    assert_eq!(ch.diff.flips().count(), 0);
    // One implementation: the section is what `meff::revision::diff`
    // finds between the two documents.
    let old: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            crate::support::root().join("cases/revisions/offcentre-tolerance-r1.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let mut now = serde_json::to_value(&ev.report).unwrap();
    now.as_object_mut().unwrap().remove("changes");
    let d = meff::revision::diff(&old, &now, meff::revision::DEFAULT_TOLERANCE).unwrap();
    let again: Vec<&str> = d.changes.iter().map(|c| c.quantity.as_str()).collect();
    assert_eq!(names, again);
}

#[test]
fn a_previous_revision_outside_the_tree_or_not_a_report_is_refused_at_its_name() {
    let dir = crate::support::scratch("tolerance-previous");
    let case = |previous: &str| format!("{SEED_CASE}\n[revision]\nprevious = \"{previous}\"\n");
    std::fs::write(dir.join("notes.json"), "{\"a\": 1}").unwrap();
    std::fs::write(dir.join("broken.json"), "{\"title\": ").unwrap();
    // A real report outside the confined tree.
    let outside = crate::support::scratch("tolerance-previous-outside");
    std::fs::copy(
        crate::support::root().join("cases/revisions/offcentre-tolerance-r1.json"),
        outside.join("r1.json"),
    )
    .unwrap();
    let escape = format!(
        "../{}/r1.json",
        outside.file_name().unwrap().to_str().unwrap()
    );
    for (previous, said) in [
        ("notes.json", "is not a meff report's JSON"),
        ("broken.json", "is not a JSON document"),
        ("missing.json", "cannot read `missing.json`"),
        (escape.as_str(), "outside"),
    ] {
        let path = dir.join("case.toml");
        std::fs::write(&path, case(previous)).unwrap();
        let out = crate::support::cli(["eval", "--no-verify", "--confine"])
            .arg(&dir)
            .arg(&path)
            .output();
        let err = crate::support::refused(&out, said);
        assert!(err.contains("case.toml:20:12"), "{err}");
    }
}
