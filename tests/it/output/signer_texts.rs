//! Texts a signer recomputes: "N-fold in k steps" is the whole number of
//! steps it takes (⌈ln N / ln g⌉, never the nearest), a list of values
//! carries its unit on each, a claim's tolerance is half its last digit
//! and printed beside it, and a case with tangential springs lists the
//! modes over every row beside the normal rows' own.

use crate::support::{bundled, verified};

/// Every "grows by g per step: 100-fold in k steps" and "spectral radius
/// is g: … 100-fold in k steps" of a verification, as (g, k).
fn growth_claims(ev: &meff::Evaluated) -> Vec<(f64, f64)> {
    let v = ev.report.verification.as_ref().unwrap();
    v.verdict
        .checks
        .iter()
        .filter(|c| c.why.contains("100-fold in "))
        .map(|c| {
            let after = |key: &str| -> Option<f64> {
                let rest = c.why.split(key).nth(1)?;
                rest.split([' ', ':']).next()?.parse().ok()
            };
            let g = after("grows by ")
                .or_else(|| after("spectral radius is "))
                .unwrap_or_else(|| panic!("no growth in {}", c.why));
            let k: f64 = c
                .why
                .split("100-fold in ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            (g, k)
        })
        .collect()
}

#[test]
fn n_fold_growth_takes_the_whole_number_of_steps() {
    let mut seen = 0;
    for name in [
        "particles-and-wall.toml",
        "engine-drake-near-rigid.toml",
        "damped-corners.toml",
    ] {
        let ev = verified(name);
        for (g, k) in growth_claims(&ev) {
            // The growth is printed to 4 or 5 decimals: the steps follow
            // from any value it stands for.
            let need = |g: f64| (100f64.ln() / g.ln()).ceil();
            assert!(
                k == need(g) || k == need(g + 5e-5) || k == need(g - 5e-5),
                "{name}: growth {g} per step needs {} steps, the text says {k}",
                need(g)
            );
            assert!(g.powf(k) >= 100.0 * (1.0 - 1e-3), "{name}: {g}^{k} < 100");
            seen += 1;
        }
    }
    assert!(seen >= 3, "{seen}");
    // The signer's case: 2.1004 per step is 100-fold in 7 steps, not 6.
    let ev = verified("particles-and-wall.toml");
    assert!(
        growth_claims(&ev)
            .iter()
            .any(|&(g, k)| (g - 2.1004).abs() < 1e-3 && k == 7.0),
        "{:?}",
        growth_claims(&ev)
    );
}

#[test]
fn preloads_carry_their_unit_and_claims_their_tolerance() {
    let ev = verified("particles-and-wall.toml");
    let t = meff::render::templates::Templates::load(None).unwrap();
    let sheets = [
        t.report_html(&ev.report, 4).unwrap(),
        t.report_md_files(&ev.report, 4, "x").unwrap().0,
        t.report_typ(&ev.report, 4).unwrap().0,
    ];
    for s in &sheets {
        assert!(
            s.contains("preloaded along its normal by 100 N and 100 N (in contact order)"),
            "{s}"
        );
        assert!(!s.contains("100, 100 N"));
    }
    // "1.000 kg" is claimed to ± half its last digit, printed beside it.
    for c in ev.report.claims.iter().filter(|c| c.how == "quantity") {
        assert_eq!(c.tolerance, Some(5e-4), "{c:?}");
        assert_eq!(c.passed, Some(true));
    }
    assert!(sheets[1].contains("± 5.0 × 10⁻⁴ kg"), "{}", sheets[1]);
}

#[test]
fn modes_are_listed_over_every_row_where_the_step_comes_from_them() {
    let ev = bundled("sphere-friction.toml");
    let tg = ev.report.tangential.as_ref().unwrap();
    // The fastest mode over every row (the tangent rows, 1183 rad/s) is the
    // one the step comes from; the normal rows alone give 707.1 rad/s.
    assert!((tg.modes[0].omega - ev.report.coupled_omega_max).abs() < 1e-9 * tg.modes[0].omega);
    let damped = tg.damped_modes.as_ref().unwrap();
    assert_eq!(damped.len(), 3);
    assert!((damped[0].omega - tg.modes[0].omega).abs() < 1e-6 * tg.modes[0].omega);
    let t = meff::render::templates::Templates::load(None).unwrap();
    let md = t.report_md_files(&ev.report, 4, "x").unwrap().0;
    assert!(
        md.contains("Penalty modes of the normal rows alone"),
        "{md}"
    );
    assert!(md.contains("Penalty modes over every contact row, normal and tangential"));
    assert!(md.contains("Damped modes of the normal rows alone"));
    assert!(md.contains("Damped modes over every contact row, normal and tangential"));
    let every_row = md
        .split("Damped modes over every contact row")
        .nth(1)
        .unwrap();
    assert!(every_row.contains("| 1 | 1183 |"), "{every_row}");
}
