//! Rapier, run here (rapier3d-f64 as a dev-dependency): its soft contacts
//! against meff's model of its substep (soft solve, positions, relax). The
//! relax pass removes the approach velocity each substep, so a resting body
//! does not ring at the soft constraint's frequency: it settles with a
//! first-order decay, whose rate meff predicts.

use crate::support::{assert_close, evaluate_str, root};
use meff::engines::EngineReport;
use rapier3d_f64::prelude::*;

/// meff's Rapier translation of a case.
fn predicted(case: &str) -> EngineReport {
    let ev = evaluate_str(case);
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
    assert_close(-t[299], 10.0 / k, 1e-3);
    // It settles first-order, at the rate of meff's substep map.
    let step = c.at_step.unwrap();
    assert!(step.first_order, "{step:?}");
    let measured = settling_rate(&t, 1e-3);
    assert_close(measured, step.omega, 0.01);
    // Far slower than the spring's own 251 rad/s: the relax pass, not the
    // dashpot, sets how fast a contact settles.
    assert!(step.omega < 0.3 * c.exact.unwrap().omega);
}

#[test]
fn a_hinged_rod_settles_at_the_rate_meff_predicts_for_rapier() {
    // A 1 kg, 0.5 m rod on a hinge (a multibody joint), its tip resting on
    // the ground: the contact's mass is the rod's inertia about the hinge
    // over L², 1/3 kg, which Rapier's projected mass takes from the
    // multibody and meff from the model (tests/engines/hinged-rod.xml).
    let mut w = world(25.0, 0.4);
    let base =
        w.insert_body(RigidBodyBuilder::fixed().translation(Vector::new(0.0, 0.0, 0.01 - 1e-6)));
    let rod = w.insert_body(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, 0.0, 0.01 - 1e-6))
            .additional_mass_properties(MassProperties::new(
                Vector::new(0.25, 0.0, 0.0),
                1.0,
                Vector::new(1e-4, 0.5 * 0.5 / 12.0, 0.5 * 0.5 / 12.0),
            ))
            .can_sleep(false),
    );
    w.insert_collider(
        ColliderBuilder::ball(0.01)
            .translation(Vector::new(0.5, 0.0, 0.0))
            .density(0.0)
            .friction(0.0),
        Some(rod),
    );
    w.insert_multibody_joint(base, rod, RevoluteJointBuilder::new(Vector::Y))
        .expect("a chain");
    let t = trace(&mut w, 300);
    let dir = root().join("tests/engines");
    let text = "title = \"rod\"\nspace = \"3d\"\n[model]\nmjcf = \"hinged-rod.xml\"\n[[contact]]\nname = \"tip\"\nbody = \"rod\"\npoint = [\"0.5 m\", \"0 m\", \"0 m\"]\nnormal = [0, 0, 1]\nframe = \"world\"\nstiffness = \"1e4 N/m\"\n[engine.rapier]\ntimestep = \"1 ms\"\nsubsteps = 1\ncontact_natural_frequency = \"25 Hz\"\ncontact_damping_ratio = 0.4\n";
    let access = meff::case::FileAccess::new(dir.clone(), meff::case::MAX_INPUT_BYTES);
    let case =
        meff::case::parse_case_with(dir.join("rod.toml").to_str().unwrap(), text, Some(access))
            .unwrap_or_else(|e| panic!("{e}"));
    let e = meff::evaluate(case).unwrap().report.engines[0].clone();
    let c = &e.contacts[0];
    assert_close(c.m_eff, 1.0 / 3.0, 1e-9);
    // Gravity on the rod's centre of mass is carried half by the tip.
    assert_close(-t[299], 0.5 * 10.0 / c.k.unwrap(), 2e-3);
    let step = c.at_step.unwrap();
    assert!(step.first_order, "{step:?}");
    assert_close(settling_rate(&t, 1e-3), step.omega, 0.01);
}

#[test]
fn two_stacked_balls_settle_at_the_rate_meff_predicts_for_rapier() {
    // A 0.5 kg ball on a 2 kg ball on the ground: two coupled contacts.
    // Rapier solves them one after the other; meff takes the case's order,
    // here the stacking contact first, which is the order Rapier's solver
    // visits them in this scene (the other order gives 14.46 /s, 1 % off).
    let mut w = world(20.0, 0.3);
    for (z, m) in [(0.1, 2.0), (0.3, 0.5)] {
        let b = w.insert_body(
            RigidBodyBuilder::dynamic()
                .translation(Vector::new(0.0, 0.0, z - 1e-6))
                .additional_mass_properties(MassProperties::new(
                    Vector::ZERO,
                    m,
                    Vector::new(0.01, 0.01, 0.01),
                ))
                .can_sleep(false),
        );
        w.insert_collider(
            ColliderBuilder::ball(0.1).density(0.0).friction(0.0),
            Some(b),
        );
    }
    let t = trace(&mut w, 300);
    let e = predicted(
        r#"space = "3d"
[[body]]
name = "low"
type = "particle"
mass = "2 kg"
position = ["0 m", "0 m", "0.1 m"]
[[body]]
name = "high"
type = "particle"
mass = "0.5 kg"
position = ["0 m", "0 m", "0.3 m"]
[[contact]]
name = "stack"
body = "high"
other = "low"
point = ["0 m", "0 m", "0.2 m"]
normal = [0, 0, 1]
stiffness = "1e4 N/m"
[[contact]]
name = "ground"
body = "low"
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
    // The slowest of the step's modes is how the stack settles.
    let slowest = e
        .step_modes
        .iter()
        .filter(|p| p.first_order)
        .map(|p| p.omega)
        .fold(f64::INFINITY, f64::min);
    assert_close(settling_rate(&t, 1e-3), slowest, 5e-3);
}

#[test]
fn a_box_on_four_feet_settles_within_the_range_meff_gives_over_visiting_orders() {
    // Four contacts on one body: the rate depends on the order Rapier's
    // sequential solver visits them, which a case does not say; meff gives
    // the case order's rate and the range over all 24 orders.
    let mut w = world(15.0, 0.5);
    let (m, ixx, iyy, izz) = (4.0, 0.02, 0.06, 0.07);
    let body = w.insert_body(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, 0.0, 0.06 - 1e-6))
            .additional_mass_properties(MassProperties::new(
                Vector::ZERO,
                m,
                Vector::new(ixx, iyy, izz),
            ))
            .can_sleep(false),
    );
    let feet = [(0.2, 0.1), (-0.2, 0.1), (-0.2, -0.1), (0.2, -0.1)];
    for (x, y) in feet {
        w.insert_collider(
            ColliderBuilder::ball(0.01)
                .translation(Vector::new(x, y, -0.05))
                .density(0.0)
                .friction(0.0),
            Some(body),
        );
    }
    let t = trace(&mut w, 300);
    let mut case = format!(
        "space = \"3d\"\n[[body]]\nname = \"box\"\ntype = \"rigid\"\nmass = \"{m} kg\"\nposition = [\"0 m\", \"0 m\", \"0.06 m\"]\ninertia = [\"{ixx} kg m^2\", \"{iyy} kg m^2\", \"{izz} kg m^2\"]\n"
    );
    for (i, (x, y)) in feet.iter().enumerate() {
        case.push_str(&format!(
            "[[contact]]\nname = \"f{i}\"\nbody = \"box\"\npoint = [\"{x} m\", \"{y} m\", \"0 m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e4 N/m\"\n"
        ));
    }
    case.push_str("[engine.rapier]\ntimestep = \"1 ms\"\nsubsteps = 1\ncontact_natural_frequency = \"15 Hz\"\ncontact_damping_ratio = 0.5\n");
    let s = predicted(&case).settling.unwrap();
    let measured = settling_rate(&t, 1e-3);
    let (lo, hi) = (s.min.unwrap(), s.max.unwrap());
    assert!(
        lo * 0.995 <= measured && measured <= hi * 1.005,
        "measured {measured} /s outside meff's {lo}–{hi} /s (case order {})",
        s.case_order
    );
}
