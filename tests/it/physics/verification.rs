//! Verification by simulation: the acceptance points, a wrong analysis that
//! the simulation must catch, ill-conditioned inertias verified within their
//! round-off, convergence orders judged above the runs' floor, and
//! non-proportional damping verified by its response.

use crate::support::{
    assert_close, bundled_case_paths, dashpot_block, root, verified, verified_str,
};

#[test]
fn seed_frequencies_are_measured() {
    for (name, omega) in [("offcentre.toml", 316.2278), ("centre.toml", 223.6068)] {
        let ev = verified(name);
        let v = ev.verification.as_ref().unwrap();
        let fv = v
            .free_vibration
            .iter()
            .find(|f| f.amplitude == v.settings.compression)
            .unwrap();
        assert!(
            (fv.omega_measured - omega).abs() / omega < 1e-3,
            "{name}: {fv:?}"
        );
        // Small motion: 10⁻⁶ of the system's smallest length.
        let (l, _) = v.settings.length_scale.as_ref().unwrap();
        assert_eq!(v.settings.compression, 1e-6 * l);
        assert!(v.verdict.agrees);
    }
}

#[test]
fn two_corner_modes_and_stability_demonstration() {
    let ev = verified("two-corners.toml");
    let v = ev.verification.as_ref().unwrap();
    for (mode, omega) in [(1, 316.2278), (2, 158.1139)] {
        let fv = v.free_vibration.iter().find(|f| f.mode == mode).unwrap();
        assert!((fv.omega_measured - omega).abs() / omega < 5e-3, "{fv:?}");
    }
    let st = v.stability.as_ref().unwrap();
    assert!((st.dt_independent - 8.00e-3).abs() < 1e-5);
    assert!((st.dt_coupled - 6.3246e-3).abs() < 1e-6);
    // Between the two limits: stable by the independent estimate, not by the coupled one.
    assert!((st.dt_run_independent - (8.00e-3f64 * 6.3246e-3).sqrt()).abs() < 1e-7);
    assert!(
        st.diverged_at_independent_dt,
        "a step the independent estimate deems stable must blow up"
    );
    assert!(
        st.bounded_at_coupled_dt,
        "0.9 × the coupled limit must stay bounded"
    );
    assert_eq!(st.energy_independent[0].1, 1.0);
    assert!(
        st.energy_independent.last().unwrap().1 > 100.0,
        "energy grows when unstable"
    );
    assert!(
        st.energy_coupled.iter().all(|(_, e)| *e < 10.0),
        "energy stays bounded when stable"
    );
}

#[test]
fn observed_orders_match_verlet_and_rk4() {
    let ev = verified("offcentre.toml");
    let v = ev.verification.as_ref().unwrap();
    for (integrator, nominal) in [("velocity-verlet", 2.0), ("rk4", 4.0)] {
        let c = v
            .convergence_all
            .iter()
            .find(|c| c.integrator == integrator)
            .unwrap();
        // The asymptotic levels above the resolution floor.
        for order in &c.observed_order[1..4] {
            assert!(
                (order - nominal).abs() < 0.2,
                "{integrator}: {:?}",
                c.observed_order
            );
        }
        assert!(c.observed_order.len() >= 4);
    }
    assert_eq!(
        v.convergence.as_ref().unwrap().integrator,
        "velocity-verlet"
    );
    // The reference is the analysis' prediction.
    assert!((v.convergence.as_ref().unwrap().reference - 316.2278).abs() < 1e-3);
    let orders: Vec<_> = v
        .verdict
        .checks
        .iter()
        .filter(|c| c.check == "convergence_order")
        .collect();
    assert_eq!(orders.len(), 3);
    assert!(orders.iter().all(|c| c.agrees == Some(true)), "{orders:?}");
}

#[test]
fn impulse_test_on_the_3d_box() {
    let ev = verified("box-3d.toml");
    let v = ev.verification.as_ref().unwrap();
    assert_eq!(v.impulse.len(), 4);
    for i in &v.impulse {
        assert!(i.max_rel_error < 1e-6, "{i:?}");
        let errors: Vec<f64> = i.pulse_windows.iter().map(|w| w.max_rel_error).collect();
        // Shrinking the pulse window takes the error to zero (linearly).
        assert!(errors.windows(2).all(|w| w[1] < w[0] / 5.0), "{errors:?}");
        assert!(*errors.last().unwrap() < 1e-4, "{errors:?}");
    }
}

#[test]
fn generalized_and_pinned_chains_verify_alike() {
    let a = verified("double-pendulum-generalized.toml");
    let b = verified("double-pendulum-pins.toml");
    let (va, vb) = (a.verification.unwrap(), b.verification.unwrap());
    assert!(va.simulator.starts_with("linear"));
    assert!(vb.simulator.starts_with("rigid"));
    for (fa, fb) in va.free_vibration.iter().zip(&vb.free_vibration) {
        assert!(fa.rel_error < 1e-3 && fb.rel_error < 1e-3, "{fa:?} {fb:?}");
    }
    for i in &vb.impulse {
        assert!(i.max_rel_error < 1e-9, "{i:?}");
    }
}

/// An analysis that forgets the block's rotation (A = 1/m instead of
/// 1/m + r²/I) is caught by the simulation, which never sees A.
#[test]
fn a_wrong_analysis_is_caught() {
    let case = meff::case::load(&root().join("cases/offcentre.toml")).unwrap();
    let model = meff::model::numeric(&case);
    let mut system = meff::model::assemble(&model);
    let theta = system
        .dofs
        .iter()
        .position(|d| d.name().ends_with(".θ"))
        .unwrap();
    for row in &mut system.jacobian {
        row.retain(|(j, _)| *j != theta);
    }
    let wrong =
        meff::analysis::analyze_model(&model, &system, meff::analysis::LargeModes::default())
            .unwrap();
    assert!(
        (wrong.contacts[0].a - 0.5).abs() < 1e-12,
        "the doctored analysis says a = 1/m"
    );
    let v = meff::verify::verify(&case, &model, &wrong, &|_, _| {});
    assert!(v.impulse[0].max_rel_error > 0.5, "{:?}", v.impulse[0]);
    assert!(
        v.free_vibration[0].rel_error > 0.3,
        "{:?}",
        v.free_vibration[0]
    );
    // The verdict says so, and names the checks.
    assert!(!v.verdict.agrees);
    assert!(v.verdict.disagreements().any(|c| c.check == "impulse"));
    assert!(
        v.verdict
            .disagreements()
            .any(|c| c.check == "free_vibration")
    );

    let right = meff::analysis::analyze(&model).unwrap();
    let v = meff::verify::verify(&case, &model, &right, &|_, _| {});
    assert!(v.impulse[0].max_rel_error < 1e-12);
    assert!(v.free_vibration[0].rel_error < 1e-3);
    assert!(v.verdict.agrees);
}

#[test]
fn verification_json_has_the_spec_keys() {
    let ev = verified("two-corners.toml");
    let v: serde_json::Value = serde_json::from_str(&meff::render::json(&ev.report)).unwrap();
    let ver = &v["verification"];
    for key in [
        "contact",
        "impulse",
        "predicted_dgap_rate",
        "measured_dgap_rate",
        "max_rel_error",
    ] {
        assert!(ver["impulse"][0].get(key).is_some(), "impulse misses {key}");
    }
    for key in [
        "excites",
        "omega_predicted",
        "omega_measured",
        "rel_error",
        "amplitude",
    ] {
        assert!(
            ver["free_vibration"][0].get(key).is_some(),
            "free_vibration misses {key}"
        );
    }
    for key in [
        "integrator",
        "quantity",
        "dt",
        "value",
        "error",
        "observed_order",
    ] {
        assert!(
            ver["convergence"].get(key).is_some(),
            "convergence misses {key}"
        );
    }
    for key in [
        "dt_independent",
        "dt_coupled",
        "diverged_at_independent_dt",
        "bounded_at_coupled_dt",
    ] {
        assert!(
            ver["stability"].get(key).is_some(),
            "stability misses {key}"
        );
    }
    // Same case, same bytes.
    let again = verified("two-corners.toml");
    assert_eq!(
        meff::render::json(&again.report),
        meff::render::json(&ev.report)
    );
}

#[test]
fn every_bundled_case_verifies() {
    for path in bundled_case_paths() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let ev = verified(&name);
        let v = ev.verification.as_ref().unwrap();
        let bad: Vec<_> = v.verdict.disagreements().collect();
        assert!(v.verdict.agrees, "{name}: {bad:#?}");
    }
}

/// Cases the analysis gets right that a naive verification judged wrong:
/// stiffness contrast 10³–10⁹, non-proportional damping in imperial units,
/// a 1 µm rod, a five-link pinned chain, ball joints. Each verifies, or
/// says why a check was not made; none disagrees.
#[test]
fn hard_cases_verify_or_say_why() {
    for name in [
        "contrast",
        "imperial",
        "rod",
        "chain5",
        "ball",
        "heavy-damping",
        "overdamped",
    ] {
        let path = root().join(format!("tests/cases/verify/{name}.toml"));
        let case = meff::case::load(&path).unwrap();
        let ev = meff::evaluate_with(
            case,
            meff::Options {
                verify: true,
                progress: None,
                ..Default::default()
            },
        )
        .unwrap();
        let v = ev.verification.as_ref().unwrap();
        let bad: Vec<_> = v.verdict.disagreements().collect();
        assert!(v.verdict.agrees, "{name}: {bad:#?}");
        for c in v.verdict.skipped() {
            assert!(!c.why.is_empty(), "{name}: a skip without a reason");
        }
        // Every mode up to six is timed, each with its own step.
        let modes = ev.analysis.modes.len().min(6);
        for k in 1..=modes {
            let f = v.free_vibration.iter().find(|f| f.mode == k).unwrap();
            assert!(f.rel_error <= f.tolerance, "{name} mode {k}: {f:?}");
        }
    }
    // The jointed ones leave RK4 out, with the reason.
    let case = meff::case::load(&root().join("tests/cases/verify/chain5.toml")).unwrap();
    let ev = meff::evaluate_with(
        case,
        meff::Options {
            verify: true,
            progress: None,
            ..Default::default()
        },
    )
    .unwrap();
    let v = ev.verification.unwrap();
    assert!(v.convergence_all.iter().all(|c| c.integrator != "rk4"));
    assert!(
        v.verdict
            .skipped()
            .any(|c| c.what.contains("RK4") && c.why.contains("projecting"))
    );
}

#[test]
fn damped_modes_are_compared_with_damped_predictions() {
    let ev = verified("damped-corners.toml");
    let v = ev.verification.as_ref().unwrap();
    assert!(v.verdict.agrees);
    assert_eq!(v.damped.len(), 2);
    for r in &v.damped {
        let (p, m) = (r.omega_d_predicted.unwrap(), r.omega_d_measured.unwrap());
        assert!((p - m).abs() / p < 2e-3, "{r:?}");
        let (p, m) = (r.decay_predicted, r.decay_measured.unwrap());
        assert!((p - m).abs() / p < 2e-2, "{r:?}");
    }
    // The undamped frequency is checked on the system without dashpots.
    let fv = &v.free_vibration[0];
    assert!(fv.rel_error < fv.tolerance);
}

#[test]
fn overdamped_roots_are_paired_by_mode() {
    // Equal dashpots on both corners do not couple the modes: each keeps
    // its undamped ω and ζ = c a/(2√(k a)) for its eigenvalue a of A.
    let case = meff::case::load(&root().join("tests/cases/verify/overdamped.toml")).unwrap();
    let ev = meff::evaluate(case).unwrap();
    let mut damped = ev.analysis.damped_modes.clone().unwrap();
    damped.sort_by(|x, y| y.omega.total_cmp(&x.omega));
    let (k, c): (f64, f64) = (1e5, 1500.0);
    for (dm, a) in damped.iter().zip([1.0, 0.25]) {
        assert_close(dm.omega, (k * a).sqrt(), 1e-9);
        assert_close(dm.zeta, c * a / (2.0 * (k * a).sqrt()), 1e-9);
    }
}

/// `Options::cancel` stops an evaluation: set before, it returns
/// `Cancelled` at the first stage; set by another thread during the
/// verification, the simulations stop stepping and the evaluation returns
/// `Cancelled`, never a report of the half-run simulations. The same
/// case evaluates whole afterwards.
#[test]
fn a_cancelled_evaluation_says_so() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let case = meff::case::load(&root().join("cases").join("double-pendulum-pins.toml")).unwrap();
    let run = |cancel: Arc<AtomicBool>| {
        meff::evaluate_with(
            case.clone(),
            meff::Options {
                verify: true,
                cancel: Some(cancel),
                ..Default::default()
            },
        )
    };
    let set = Arc::new(AtomicBool::new(true));
    assert!(matches!(run(set), Err(meff::Error::Cancelled)));
    // Set from the progress of the verification itself: its first stage.
    let flag = Arc::new(AtomicBool::new(false));
    let seen = flag.clone();
    let progress = move |stage: &str, _: f64| {
        if stage == "free vibration" {
            seen.store(true, Ordering::Relaxed);
        }
    };
    let out = meff::evaluate_with(
        case.clone(),
        meff::Options {
            verify: true,
            progress: Some(&progress),
            cancel: Some(flag.clone()),
            ..Default::default()
        },
    );
    assert!(
        flag.load(Ordering::Relaxed),
        "the verification reached its second stage"
    );
    assert!(matches!(out, Err(meff::Error::Cancelled)));
    let whole = run(Arc::new(AtomicBool::new(false))).unwrap();
    assert!(whole.verification.is_some_and(|v| v.verdict.agrees));
}

/// A thin rod (radius ρ, 1 m, 1 kg) along a turned axis in the plane: its
/// inertia tensor's condition number is about (1/12)/(ρ²/2).
fn rod(angle_deg: f64, radius: f64) -> String {
    let t = 1.0 / 12.0;
    let axial = 0.5 * radius * radius;
    let (s, c) = angle_deg.to_radians().sin_cos();
    let ixx = t * (1.0 - c * c) + axial * c * c;
    let iyy = t * (1.0 - s * s) + axial * s * s;
    let ixy = (axial - t) * c * s;
    format!(
        r#"title = "Thin rod on a turned axis"
space = "3d"
[[body]]
name = "rod"
type = "rigid"
mass = "1 kg"
inertia = [["{ixx:?} kg m^2", "{ixy:?} kg m^2", "0 kg m^2"], ["{ixy:?} kg m^2", "{iyy:?} kg m^2", "0 kg m^2"], ["0 kg m^2", "0 kg m^2", "{t:?} kg m^2"]]
position = ["0 m", "0 m", "0 m"]
[[contact]]
name = "tip"
body = "rod"
point = ["{:?} m", "{:?} m", "0 m"]
normal = [0, 0, 1]
stiffness = "1e5 N/m"
"#,
        0.5 * c,
        0.5 * s
    )
}

#[test]
fn an_ill_conditioned_inertia_verifies_within_its_round_off() {
    for (angle, radius) in [(30.0, 1e-6), (-55.0, 2e-6), (12.0, 5e-7)] {
        let ev = verified_str(&rod(angle, radius));
        let v = ev.report.verification.as_ref().expect("verified");
        let kappa = v.inertia_condition;
        let expected = (1.0 / 12.0) / (0.5 * radius * radius);
        assert!(
            (kappa / expected - 1.0).abs() < 1e-3,
            "{kappa} vs {expected}"
        );
        let failed: Vec<_> = v
            .verdict
            .checks
            .iter()
            .filter(|c| c.agrees == Some(false))
            .collect();
        assert!(v.verdict.agrees, "{angle}° {radius}: {failed:#?}");
        let impulse = v
            .verdict
            .checks
            .iter()
            .find(|c| c.check == "impulse")
            .unwrap();
        let tol = impulse.tolerance.unwrap();
        assert!(tol > meff::verify::IMPULSE_TOLERANCE && tol < 1e-2, "{tol}");
        assert!(impulse.why.contains("condition number"), "{}", impulse.why);
    }
    // A well-conditioned body keeps the tight tolerance.
    let ev = verified_str(&rod(30.0, 0.2));
    let v = ev.report.verification.as_ref().unwrap();
    let impulse = v
        .verdict
        .checks
        .iter()
        .find(|c| c.check == "impulse")
        .unwrap();
    assert_eq!(impulse.tolerance, Some(meff::verify::IMPULSE_TOLERANCE));
}

#[test]
fn convergence_orders_are_judged_above_the_runs_floor() {
    // The thin rod's RK4 error levels off near 1e-8 relative: orders below
    // that are not judged, those above are still 4.
    let ev = verified_str(&rod(30.0, 1e-6));
    let v = ev.report.verification.as_ref().unwrap();
    let rk4 = v
        .convergence_all
        .iter()
        .find(|c| c.integrator == "rk4")
        .expect("RK4 study");
    let check = v
        .verdict
        .checks
        .iter()
        .find(|c| c.what.contains("RK4") || c.what.contains("rk4"))
        .expect("RK4 order check");
    assert_eq!(check.agrees, Some(true), "{rk4:#?}");
    let judged = check.measured.unwrap();
    assert!((judged - 4.0).abs() < 0.35, "{judged}");
}

#[test]
fn non_proportional_damping_is_verified_by_its_response() {
    for (c1, c2, r) in [(50.0, 2000.0, 0.07), (300.0, 30.0, 0.12)] {
        let case = meff::case::parse_case("trust.toml", &dashpot_block(c1, c2, r)).unwrap();
        let model = meff::model::numeric(&case);
        let right = meff::analysis::analyze(&model).unwrap();
        let v = meff::verify::verify(&case, &model, &right, &|_, _| {});
        let check = v
            .verdict
            .checks
            .iter()
            .find(|c| c.check == "damped_response")
            .expect("a damped response check");
        assert_eq!(check.agrees, Some(true), "{check:?}");
        assert!(check.why.contains("not proportional"), "{}", check.why);
        assert!(v.verdict.agrees);
        // An analysis whose dashpot is 10 % off: the response says so.
        let mut wrong = right.clone();
        let d = wrong.contacts[1].damping.unwrap();
        wrong.contacts[1].damping = Some(1.1 * d);
        let v = meff::verify::verify(&case, &model, &wrong, &|_, _| {});
        assert!(
            v.verdict
                .disagreements()
                .any(|c| c.check == "damped_response"),
            "{:#?}",
            v.verdict.checks
        );
    }
}
