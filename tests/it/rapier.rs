//! Rapier, run here (rapier3d-f64 as a dev-dependency): its soft contacts
//! against meff's model of its substep (soft solve, positions, relax). The
//! relax pass removes the approach velocity each substep, so a resting body
//! does not ring at the soft constraint's frequency: it settles with a
//! first-order decay, whose rate meff predicts.

use meff::engines::EngineReport;
use rapier3d_f64::prelude::*;

/// meff's Rapier translation of a case.
fn predicted(case: &str) -> EngineReport {
    let ev = crate::evaluate_str(case);
    ev.report.engines[0].clone()
}

/// The decay rate of the slowest mode a trace of gap values settles with:
/// successive differences shrink by `z` each step, `σ = −ln z / h`.
fn settling_rate(trace: &[f64], h: f64) -> f64 {
    let mut ratios: Vec<f64> = (60..160)
        .map(|n| (trace[n + 1] - trace[n]) / (trace[n] - trace[n - 1]))
        .collect();
    ratios.sort_by(f64::total_cmp);
    -ratios[ratios.len() / 2].ln() / h
}

/// A world with Rapier's defaults but for the step, one substep, the
/// softness given, and clustering and recycling off (they change which
/// points are solved, not how).
fn world(hz: f64, zeta: f64) -> PhysicsWorld {
    let mut w = PhysicsWorld {
        gravity: Vector::new(0.0, 0.0, -10.0),
        ..Default::default()
    };
    let p = &mut w.integration_parameters;
    p.dt = 1e-3;
    p.num_solver_iterations = 1;
    p.contact_softness = SpringCoefficients::new(hz, zeta);
    p.static_contact_softness = SpringCoefficients::new(2.0 * hz, zeta);
    p.contact_clustering = false;
    p.contact_recycling = false;
    let ground = w.insert_body(RigidBodyBuilder::fixed().translation(Vector::new(0.0, 0.0, -0.1)));
    w.insert_collider(
        ColliderBuilder::cuboid(2.0, 2.0, 0.1).friction(0.0),
        Some(ground),
    );
    w
}

/// Steps `w` and records the deepest penetration (negative distance).
fn trace(w: &mut PhysicsWorld, steps: usize) -> Vec<f64> {
    (0..steps)
        .map(|_| {
            w.step();
            w.contact_pairs()
                .flat_map(|p| p.manifolds().iter().flat_map(|m| m.points.iter()))
                .map(|q| q.dist)
                .fold(0.0, f64::min)
        })
        .collect()
}

#[test]
fn a_ball_settles_at_the_rate_meff_predicts_for_rapier() {
    let mut w = world(20.0, 0.3);
    let body = w.insert_body(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, 0.0, 0.1 - 1e-6))
            .additional_mass_properties(MassProperties::new(
                Vector::ZERO,
                1.0,
                Vector::new(0.004, 0.004, 0.004),
            ))
            .can_sleep(false),
    );
    w.insert_collider(
        ColliderBuilder::ball(0.1).density(0.0).friction(0.0),
        Some(body),
    );
    let t = trace(&mut w, 300);
    let e = predicted(
        r#"space = "3d"
[[body]]
name = "ball"
type = "particle"
mass = "1 kg"
position = ["0 m", "0 m", "0.1 m"]
[[contact]]
name = "floor"
body = "ball"
point = ["0 m", "0 m", "0 m"]
normal = [0, 0, 1]
stiffness = "1e4 N/m"
[engine.rapier]
timestep = "1 ms"
substeps = 1
contact_natural_frequency = "20 Hz"
contact_damping_ratio = 0.3
"#,
    );
    let c = &e.contacts[0];
    // At rest the soft constraint is the spring m̂ω² (40 Hz against the world).
    let k = c.k.unwrap();
    crate::assert_close(-t[299], 10.0 / k, 1e-3);
    // It settles first-order, at the rate of meff's substep map.
    let step = c.at_step.unwrap();
    assert!(step.first_order, "{step:?}");
    let measured = settling_rate(&t, 1e-3);
    crate::assert_close(measured, step.omega, 0.01);
    // Far slower than the spring's own 251 rad/s: the relax pass, not the
    // dashpot, sets how fast a contact settles.
    assert!(step.omega < 0.3 * c.exact.unwrap().omega);
}
