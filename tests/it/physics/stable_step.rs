//! The stable step: the damped limit a sheet tells the user to use
//! (`stable_dt.governing`) is the true limit for any dashpots — a simulation
//! at that step stays bounded while one 1 % above it grows — and the
//! guaranteed step is never above it, on the dense path and on the large one.

use crate::support::{
    bundled_case_paths, dashpot_block, evaluate_path, evaluate_str, root, verified_str,
};
use nalgebra::{DMatrix, DVector};

/// Symplectic Euler on the gaps, `v′ = v − hA(Kg + Cv)`, `g′ = g + hv′`,
/// from a kick: whether the gaps grow a hundredfold within `steps`.
fn grows(a: &DMatrix<f64>, k: &[f64], c: &[f64], h: f64, steps: usize) -> bool {
    let n = k.len();
    let mut g = DVector::<f64>::zeros(n);
    let mut v = DVector::from_fn(n, |i, _| 1.0 + 0.3 * i as f64);
    let scale = v.norm() * h;
    for _ in 0..steps {
        let f = DVector::from_fn(n, |i, _| k[i] * g[i] + c[i] * v[i]);
        v -= a * f * h;
        g += &v * h;
        let size = g.norm();
        if size.is_nan() || size >= 100.0 * scale * steps as f64 {
            return true;
        }
    }
    // Still growing at the end: compare the last stretch's size.
    g.norm() > 50.0 * scale * (steps as f64).sqrt()
}

#[test]
fn with_dashpots_every_bundled_sheet_states_the_damped_step() {
    for path in bundled_case_paths() {
        let ev = evaluate_path(&path);
        let dt = &ev.report.stable_dt;
        let damped = ev.model.contacts.iter().any(|c| c.damping.is_some());
        let Some(h) = dt.governing else { continue };
        // With tolerances the step to use is the smallest over the box;
        // the nominal one is what the system as given sets.
        assert!(
            dt.nominal_governing.is_none_or(|n| h <= n),
            "{}",
            path.display()
        );
        assert!(dt.guaranteed.unwrap() <= h, "{}", path.display());
        let h = dt.nominal_governing.unwrap_or(h);
        // With tangential springs the step to use is over every row, and
        // with a Hertz impact at the impact's peak.
        let coupled = match (&ev.report.hertz_peak, &ev.report.tangential) {
            (Some(p), _) => p.governing,
            (None, Some(t)) => t.dt_undamped,
            (None, None) => dt.coupled,
        };
        if damped {
            assert!(
                dt.governing_by.unwrap().starts_with("damped"),
                "{}: {:?}",
                path.display(),
                dt.governing_by
            );
            assert!(h < coupled.unwrap(), "{}", path.display());
        } else {
            assert_eq!(Some(h), coupled, "{}", path.display());
        }
    }
}

#[test]
fn the_damped_step_is_stable_and_one_percent_more_is_not() {
    let path = root().join("cases/damped-corners.toml");
    let ev = evaluate_path(&path);
    let a = &ev.analysis.delassus;
    let k: Vec<f64> = ev.model.contacts.iter().map(|c| c.stiffness).collect();
    let c: Vec<f64> = ev
        .model
        .contacts
        .iter()
        .map(|c| c.damping.unwrap_or(0.0))
        .collect();
    let h = ev.report.stable_dt.governing.unwrap();
    // The undamped step the sheet used to state diverges with dashpots.
    let undamped = ev.report.stable_dt.coupled.unwrap();
    assert!(grows(a, &k, &c, undamped * 0.999, 20_000), "{undamped}");
    assert!(!grows(a, &k, &c, h, 20_000), "{h}");
    assert!(grows(a, &k, &c, h * 1.01, 20_000), "{h}");
}

/// A chain of particles with dashpots not proportional to the springs,
/// taken by the large-system path (no step map there): the energy bound
/// stands in, and it is below the dense path's exact limit.
#[test]
fn the_large_path_states_a_safe_damped_step() {
    let n = 30;
    let mut s = String::from("title = \"chain\"\nspace = \"line\"\n");
    for i in 0..n {
        s.push_str(&format!(
            "[[body]]\nname = \"p{i}\"\ntype = \"particle\"\nmass = \"{} kg\"\nposition = [\"{i} m\"]\n",
            1.0 + (i % 3) as f64
        ));
    }
    for i in 0..n {
        let other = if i == 0 {
            String::new()
        } else {
            format!("other = \"p{}\"\n", i - 1)
        };
        s.push_str(&format!(
            "[[contact]]\nname = \"c{i}\"\nbody = \"p{i}\"\n{other}point = [\"{i} m\"]\nnormal = [1]\n\
             stiffness = \"{} N/m\"\ndamping = \"{} N s/m\"\n",
            1e4 * (1.0 + (i % 4) as f64),
            5.0 + 40.0 * (i % 5) as f64
        ));
    }
    let dense = evaluate_str(&format!("{s}[analysis]\npath = \"dense\"\n"));
    let large = evaluate_str(&format!("{s}[analysis]\npath = \"large\"\n"));
    let exact = dense.report.stable_dt.governing.unwrap();
    assert_eq!(dense.report.stable_dt.governing_by, Some("damped_step_map"));
    assert_eq!(
        large.report.stable_dt.governing_by,
        Some("damped_energy_bound")
    );
    let bound = large.report.stable_dt.governing.unwrap();
    assert!(bound <= exact, "{bound} > {exact}");
    // Not needlessly small: within a factor of two here.
    assert!(bound > 0.5 * exact, "{bound} vs {exact}");
    assert!(large.report.stable_dt.guaranteed.unwrap() <= bound);
    assert!(dense.report.stable_dt.guaranteed.unwrap() <= exact);
}

#[test]
fn damped_stable_step_is_the_true_limit_for_any_dashpots() {
    for (c1, c2, r) in [
        (50.0, 2000.0, 0.1),
        (0.0, 800.0, 0.07),
        (300.0, 30.0, 0.12),
        (1500.0, 1500.0, 0.1),
    ] {
        let ev = verified_str(&dashpot_block(c1, c2, r));
        let an = &ev.analysis;
        let a = [[an.a(0, 0), an.a(0, 1)], [an.a(1, 0), an.a(1, 1)]];
        let h = an.stable_dt.coupled_damped.expect("damped step");
        // Never above the true limit, and within 1 % below it.
        assert!(
            !two_contacts_grow(a, [1e5; 2], [c1, c2], h),
            "{c1} {c2}: {h}"
        );
        assert!(
            two_contacts_grow(a, [1e5; 2], [c1, c2], h * 1.01),
            "{c1} {c2}: {h} is more than 1 % below the limit"
        );
        assert!(h <= an.stable_dt.coupled.unwrap());
    }
}

/// Symplectic Euler with the dashpot force at the step's start velocity,
/// on the gaps: true when a small start grows over many steps.
fn two_contacts_grow(a: [[f64; 2]; 2], k: [f64; 2], c: [f64; 2], h: f64) -> bool {
    let (mut g, mut v) = ([1e-3, -0.7e-3], [0.0, 0.0]);
    for _ in 0..100_000 {
        let f = [k[0] * g[0] + c[0] * v[0], k[1] * g[1] + c[1] * v[1]];
        for i in 0..2 {
            v[i] -= h * (a[i][0] * f[0] + a[i][1] * f[1]);
        }
        for i in 0..2 {
            g[i] += h * v[i];
        }
        if g[0].hypot(g[1]) > 1e-2 || g[0].hypot(g[1]).is_nan() {
            return true;
        }
    }
    false
}

/// The verification simulates the step the sheet says to use, with the
/// dashpots: bounded just below it, diverging just above the step map's
/// limit; and a step set 10 % too high (a doctored analysis) is caught.
#[test]
fn the_verification_simulates_the_damped_step_and_catches_a_wrong_one() {
    let case = meff::case::load(&root().join("cases/damped-corners.toml")).unwrap();
    let model = meff::model::numeric(&case);
    let right = meff::analysis::analyze(&model).unwrap();
    let checks = |an: &meff::analysis::Analysis| {
        let v = meff::verify::verify(&case, &model, an, &|_, _| {});
        v.verdict
            .checks
            .iter()
            .filter(|c| c.check == "damped_stability")
            .map(|c| c.agrees)
            .collect::<Vec<_>>()
    };
    assert_eq!(checks(&right), [Some(true), Some(true)]);
    let mut wrong = right.clone();
    let (h, how) = wrong.stable_dt.governing.unwrap();
    wrong.stable_dt.governing = Some((1.1 * h, how));
    // 0.98 × 1.1 is above the limit: the "bounded" run grows.
    assert_eq!(checks(&wrong)[0], Some(false));
}
