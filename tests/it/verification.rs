//! Verification by simulation: the acceptance points of the verification
//! issue, and a wrong analysis that the simulation must catch.

use crate::{root, verified};

#[test]
fn seed_frequencies_are_measured() {
    for (name, omega) in [("offcentre.toml", 316.2278), ("centre.toml", 223.6068)] {
        let ev = verified(name);
        let v = ev.verification.as_ref().unwrap();
        let fv = v
            .free_vibration
            .iter()
            .find(|f| f.amplitude == 1e-6)
            .unwrap();
        assert!(
            (fv.omega_measured - omega).abs() / omega < 1e-3,
            "{name}: {fv:?}"
        );
        assert_eq!(v.settings.compression, 1e-6);
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
    assert!((st.dt_run_independent - 0.98 * 8.00e-3).abs() < 1e-9);
    assert!(
        st.diverged_at_independent_dt,
        "0.98 × the independent estimate must blow up"
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
        // The asymptotic levels: all but the coarsest pair.
        for order in &c.observed_order[1..] {
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
    assert!((v.convergence.as_ref().unwrap().reference - 316.2278).abs() < 1e-3);
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
        .position(|d| d.name.ends_with(".θ"))
        .unwrap();
    for row in &mut system.jacobian {
        row.retain(|(j, _)| *j != theta);
    }
    let wrong = meff::analysis::analyze_system(&model, &system).unwrap();
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

    let right = meff::analysis::analyze(&model).unwrap();
    let v = meff::verify::verify(&case, &model, &right, &|_, _| {});
    assert!(v.impulse[0].max_rel_error < 1e-12);
    assert!(v.free_vibration[0].rel_error < 1e-3);
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
