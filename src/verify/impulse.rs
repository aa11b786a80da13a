//! The impulse test: an instantaneous impulse changes velocities by
//! `A[:, i] P` exactly, so only round-off, amplified by the conditioning
//! of what the simulator solves, separates the two.

use super::*;

/// Relative error allowed in the impulse test (round-off) for a
/// well-conditioned system; an ill-conditioned one is allowed
/// [`ROUNDOFF_FACTOR`]·κ·ε ([`impulse_tolerance`]).
pub const IMPULSE_TOLERANCE: f64 = 1e-8;

/// Multiple of κ·ε allowed for round-off in a solve with condition number κ.
const ROUNDOFF_FACTOR: f64 = 4.0;

/// The impulse test's tolerance for inertias of condition number `kappa`.
pub fn impulse_tolerance(kappa: f64) -> f64 {
    (ROUNDOFF_FACTOR * kappa * f64::EPSILON).max(IMPULSE_TOLERANCE)
}

/// The largest condition number among the inertias the simulator solves
/// with: each rigid body's inertia tensor (its masses are scalars), or the
/// generalized mass matrix; ∞ when one is singular. A thin rod along a
/// turned axis (axial inertia 10¹¹ below the transverse) has κ = 10¹¹, and
/// its impulse response is only good to about κ·ε.
pub fn inertia_condition(model: &Model<f64>) -> f64 {
    use crate::model::{BodyKind, Inertia, Kind};
    let kappa = |m: nalgebra::DMatrix<f64>| -> f64 {
        if m.nrows() == 0 || m.iter().any(|x| !x.is_finite()) {
            return 1.0;
        }
        let Some(e) = crate::linalg::eig::symmetric(m) else {
            return f64::INFINITY;
        };
        let (lo, hi) = (e.eigenvalues.min(), e.eigenvalues.max());
        if lo > 0.0 { hi / lo } else { f64::INFINITY }
    };
    match &model.kind {
        Kind::Bodies { bodies, .. } => bodies
            .iter()
            .map(|b| match &b.kind {
                BodyKind::Rigid {
                    inertia: Inertia::Diagonal(d),
                    ..
                } => {
                    let (lo, hi) = (d[0].min(d[1]).min(d[2]), d[0].max(d[1]).max(d[2]));
                    if lo > 0.0 { hi / lo } else { f64::INFINITY }
                }
                BodyKind::Rigid {
                    inertia: Inertia::Full(t),
                    ..
                } => kappa(nalgebra::DMatrix::from_fn(3, 3, |i, j| t[i][j])),
                _ => 1.0,
            })
            .fold(1.0, f64::max),
        Kind::Generalized { mass_matrix, .. } => {
            let n = mass_matrix.len();
            kappa(nalgebra::DMatrix::from_fn(n, n, |i, j| mass_matrix[i][j]))
        }
    }
}

pub(super) fn impulse_tests(run: &mut Run) -> Vec<ImpulseResult> {
    let (case, an, s) = (run.case, run.an, run.settings);
    let fresh = run.damped;
    // The pulses act over a finite time, during which dashpots would act
    // too: they are run without them (the impulse response is A either way).
    let fresh_pulse = run.undamped;
    let c = an.contacts.len();
    let t_min = if an.coupled_omega_max > 0.0 {
        std::f64::consts::TAU / an.coupled_omega_max
    } else {
        0.0
    };
    let results: Vec<ImpulseResult> = (0..c)
        .filter(|&i| !an.contacts[i].immobile && s.impulse[i] > 0.0)
        .map(|i| {
            let p = s.impulse[i];
            let predicted: Vec<f64> = (0..c).map(|j| an.a(j, i) * p).collect();
            let mut sim = fresh();
            let before = sim.gap_rates();
            sim.impulse(i, p);
            let after = sim.gap_rates();
            let measured: Vec<f64> = after.iter().zip(&before).map(|(a, b)| a - b).collect();
            let pulse_windows = if t_min > 0.0 {
                [10.0, 100.0, 1000.0]
                    .iter()
                    .map(|&div| {
                        let window = t_min / div;
                        let mut sim = fresh_pulse();
                        sim.set_pulse(i, p / window);
                        let steps = 20;
                        for _ in 0..steps {
                            sim.step(window / steps as f64, Integrator::Rk4);
                        }
                        sim.set_pulse(i, 0.0);
                        PulseWindow {
                            window,
                            max_rel_error: rel_error(&predicted, &sim.gap_rates()),
                        }
                    })
                    .collect()
            } else {
                Vec::new()
            };
            ImpulseResult {
                contact: case.contact_name(i).into_owned(),
                impulse: p,
                max_rel_error: rel_error(&predicted, &measured),
                predicted_dgap_rate: predicted,
                measured_dgap_rate: measured,
                pulse_windows,
            }
        })
        .collect();
    let kappa = run.inertia_condition;
    let tolerance = impulse_tolerance(kappa);
    let roundoff = if tolerance > IMPULSE_TOLERANCE {
        format!(
            "; the inertias' condition number is κ = {}, so round-off up to {ROUNDOFF_FACTOR}κε = {} is allowed",
            crate::number::sig(kappa, 2),
            crate::number::sig(tolerance, 2)
        )
    } else {
        String::new()
    };
    for r in &results {
        run.check(Check {
            check: "impulse",
            what: format!("Δġ of every contact after an impulse at {} against A[:, i] P", r.contact),
            predicted: None,
            measured: None,
            rel_error: Some(r.max_rel_error),
            tolerance: Some(tolerance),
            agrees: Some(r.max_rel_error <= tolerance),
            why: format!("an instantaneous impulse changes velocities exactly: only round-off separates the simulation from A[:, i] P (the largest error relative to the largest entry){roundoff}"),
        });
        if let (Some(first), Some(last)) = (r.pulse_windows.first(), r.pulse_windows.last()) {
            let shrinks =
                last.max_rel_error <= first.max_rel_error / 20.0 || last.max_rel_error < 1e-6;
            run.check(Check {
                check: "pulse",
                what: format!("a force pulse at {} approaches the impulse as it shortens", r.contact),
                predicted: None,
                measured: None,
                rel_error: Some(last.max_rel_error),
                tolerance: None,
                agrees: Some(shrinks),
                why: format!(
                    "error {} at T/10, {} at T/1000 (dashpots removed): it must fall about linearly with the window (at least 20-fold over the 100-fold shorter pulse)",
                    crate::number::sci(first.max_rel_error, 2),
                    crate::number::sci(last.max_rel_error, 2)
                ),
            });
        }
    }
    results
}
