//! Convergence studies: the observed order of each integrator.

use super::*;

/// How far an observed order may be from the nominal one.
const ORDER_TOLERANCE: f64 = 0.35;

pub(super) fn convergence(run: &mut Run, integrator: Integrator) -> Option<Convergence> {
    let (case, an) = (run.case, run.an);
    let mode = &an.modes[0];
    let pivot = pivot_of(&mode.shape);
    let total = run.settings.periods as f64 * std::f64::consts::TAU / mode.omega;
    let mut dt = Vec::new();
    let mut value = Vec::new();
    let what = format!("observed order of {}", integrator.name());
    for j in 0..=run.settings.levels {
        let h = run.settings.dt0 / 2f64.powi(j as i32);
        let steps = match run.budget.take(total / h) {
            Ok(n) => n,
            Err(why) => {
                run.skip("convergence_order", what.clone(), why);
                break;
            }
        };
        let mut sim = (run.undamped)();
        excite(sim.as_mut(), an, 0, run.settings.compression);
        if let Some(w) = measure(sim.as_mut(), pivot, h, steps, integrator) {
            dt.push(h);
            value.push(w);
        }
    }
    if value.is_empty() {
        return None;
    }
    let nominal = match integrator {
        // The frequency (phase) error of symplectic Euler on an oscillator is second order.
        Integrator::SymplecticEuler | Integrator::VelocityVerlet => 2.0,
        Integrator::Rk4 => 4.0,
    };
    let reference = mode.omega;
    let error: Vec<f64> = value.iter().map(|v| (v - reference).abs()).collect();
    let observed_order: Vec<f64> = error.windows(2).map(|w| (w[0] / w[1]).log2()).collect();
    // Pairs whose finer error is still well above what a run can resolve
    // (geometry of finite motion, timing of crossings, round-off): the
    // fixed floor, and, when the finest pair's order is off the nominal, a
    // floor read off the runs themselves: ten times the largest error of
    // the three finest levels. Round-off amplified by the input's
    // conditioning sets such a floor (a thin rod's RK4 errors jitter
    // between ±2e-7 relative below some step), and a pair measured near
    // it has no order to judge. A wrong integrator order still shows at
    // the coarse pairs; a wrong ω shows in the free-vibration checks.
    let fixed = 100.0 * reference * CONVERGENCE_FLOOR;
    let floor = match observed_order.last() {
        Some(o) if (o - nominal).abs() > ORDER_TOLERANCE => {
            let finest = error[error.len().saturating_sub(3)..]
                .iter()
                .fold(0.0f64, |m, e| m.max(*e));
            fixed.max(10.0 * finest)
        }
        _ => fixed,
    };
    let informative: Vec<f64> = error
        .windows(2)
        .zip(&observed_order)
        .filter(|(w, _)| w[1] > floor)
        .map(|(_, o)| *o)
        .collect();
    let tail = &informative[informative.len().saturating_sub(2)..];
    let (agrees, comment) = if tail.is_empty() {
        (
            None,
            format!(
                "not judged: the errors are at the resolution floor ({} rad/s) at every step",
                crate::number::sci(floor, 1)
            ),
        )
    } else if tail.iter().all(|o| (o - nominal).abs() <= ORDER_TOLERANCE) {
        (
            Some(true),
            format!(
                "observed orders approach the nominal {nominal:.0} as Δt shrinks{}",
                if informative.len() < observed_order.len() {
                    "; the finest levels reach the resolution floor and are not judged"
                } else {
                    ""
                }
            ),
        )
    } else {
        (
            Some(false),
            format!(
                "the observed orders at the finest informative steps ({}) are not the nominal {nominal:.0}",
                tail.iter()
                    .map(|o| format!("{o:.2}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    };
    run.check(Check {
        check: "convergence_order",
        what,
        predicted: Some(nominal),
        measured: tail.last().copied(),
        rel_error: None,
        tolerance: Some(ORDER_TOLERANCE),
        agrees,
        why: comment.clone(),
    });
    let quantity = if an.contacts.len() == 1 {
        format!("omega({})", case.contact_name(0))
    } else {
        "mode_omega(1)".to_string()
    };
    Some(Convergence {
        integrator: integrator.name(),
        quantity,
        dt,
        value,
        error,
        observed_order,
        reference,
        nominal_order: nominal,
        comment,
    })
}
