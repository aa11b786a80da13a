//! The verification over every contact row: with tangential springs (and
//! at the peak of a Hertz impact) the sheet's step and fastest mode are
//! over every row, normal and tangential, so they are simulated on the
//! linear system of every row, `M v̇ = −Jᵀ(K J q + C J v)` with J every
//! contact row of the model (normal and tangential) and M the assembled
//! mass matrix — built from the model, not from A or the eigensolver:
//!
//! - the fastest mode over every row, excited alone, its frequency from
//!   the zero crossings of its leading row's gap (velocity Verlet at 200
//!   steps per period; tolerance the scheme's phase error plus timing);
//! - symplectic Euler with every dashpot at 0.98 × the step to use stays
//!   bounded, and at 1.02 × it diverges (where the step is the exact
//!   limit: 2/ω_max, or the damped step map's).

use super::sim::{LinearSim, Simulator};
use super::{Check, Integrator, Run};
use crate::analysis::Governing;
use crate::model::{ContactRows, Direction, Model};
use nalgebra::DMatrix;

/// The step's margin below and above the limit.
const MARGIN: f64 = 0.02;

/// Every row of `model`: the linear simulator's parts (M, J, K, C, the
/// constraint rows); without the dashpots unless `damped`.
fn row_sim(model: &Model<f64>, damped: bool) -> Option<LinearSim> {
    let system = crate::model::assemble(model);
    let (rows, of) = ContactRows::new(model).all_rows();
    let n = system.n_dofs();
    let dense = system.dense_mass();
    let mass = DMatrix::from_fn(n, n, |i, j| dense[i][j]);
    let j = DMatrix::from_fn(rows.len(), n, |i, k| {
        rows[i]
            .iter()
            .find(|(c, _)| *c == k)
            .map_or(0.0, |(_, v)| *v)
    });
    let g: Vec<Vec<f64>> = system
        .constraints
        .iter()
        .map(|r| system.dense_row(r))
        .collect();
    let (k, c): (Vec<f64>, Vec<f64>) = of
        .iter()
        .map(|r| {
            let contact = &model.contacts[r.contact];
            match r.direction {
                Direction::Normal => (contact.stiffness, contact.damping.unwrap_or(0.0)),
                Direction::Tangent(_) => contact
                    .tangential_values()
                    .map_or((0.0, 0.0), |(k, c)| (k, c.unwrap_or(0.0))),
            }
        })
        .unzip();
    let c = if damped { c } else { vec![0.0; k.len()] };
    LinearSim::from_parts(mass, j, &g, k, c)
}

/// The model the sheet's step is over: at the peak of a Hertz impact when
/// that sets the step, else the case's.
fn stepped_model(run: &Run, model: &Model<f64>) -> Model<f64> {
    match &run.an.hertz_peak {
        Some(p) if p.governing == run.an.stable_dt.governing.map(|(h, _)| h) => {
            crate::analysis::hertz_contacts::peak_model(model, p)
        }
        _ => model.clone(),
    }
}

/// The checks over every row (nothing without tangential springs or a
/// Hertz impact: the other checks already simulate every row there is).
pub(super) fn row_checks(run: &mut Run, model: &Model<f64>) {
    if run.an.tangential.is_none() && run.an.hertz_peak.is_none() {
        return;
    }
    let Some((h_lim, how)) = run.an.stable_dt.governing else {
        return;
    };
    // At a Hertz impact's peak the sheet's step is a fraction of the
    // linear limit there (overshoot, resolution): the limit is simulated.
    // The line names that limit, not the step to use (issue 38).
    let (h_lim, limit) = match &run.an.hertz_peak {
        Some(p) if p.governing == Some(h_lim) && p.limit.is_some() => {
            (p.limit.unwrap_or(h_lim), Limit::HertzPeak)
        }
        _ => (h_lim, Limit::StepToUse),
    };
    let model = stepped_model(run, model);
    let (Some(sim), Some(undamped)) = (row_sim(&model, true), row_sim(&model, false)) else {
        return;
    };
    let Ok(an) = crate::analysis::analyze(&model) else {
        return;
    };
    let (modes, k) = match &an.tangential {
        Some(t) => (t.modes.clone(), t.rows.stiffness().to_vec()),
        None => (
            an.modes.clone(),
            an.contacts.iter().map(|c| c.stiffness).collect(),
        ),
    };
    // The state the step holds at, named on the line (issue 38).
    let at_peak = matches!(&run.an.hertz_peak, Some(p) if p.governs());
    if let Some(fastest) = modes.first() {
        fastest_mode(run, &undamped, fastest, &k, at_peak);
    }
    let exact = matches!(how, Governing::CoupledMode | Governing::DampedStepMap);
    stability(run, &sim, (h_lim, limit), exact);
}

/// The fastest mode over every row, excited alone (impulses `P = K s`).
fn fastest_mode(
    run: &mut Run,
    sim: &LinearSim,
    mode: &crate::analysis::Mode,
    k: &[f64],
    at_peak: bool,
) {
    let what = format!(
        "ω_max over every row, normal and tangential{}: the fastest mode excited alone on the undamped system of every row",
        if at_peak {
            " at the Hertz impact's peak"
        } else {
            ""
        }
    );
    let period = std::f64::consts::TAU / mode.omega;
    let h = period / 200.0;
    const PERIODS: f64 = 20.0;
    if let Err(why) = run.budget.take(PERIODS * 200.0) {
        run.skip("row_mode", what, why);
        return;
    }
    let mut s = sim.clone();
    let lead = (0..mode.shape.len())
        .max_by(|&a, &b| {
            (mode.shape[a].abs() * k[a].sqrt()).total_cmp(&(mode.shape[b].abs() * k[b].sqrt()))
        })
        .unwrap_or(0);
    for (i, x) in mode.shape.iter().enumerate() {
        s.impulse(i, k[i] * x);
    }
    // Zero crossings of the leading row's gap, located linearly.
    let mut crossings = Vec::new();
    let mut prev = s.gaps()[lead];
    let steps = (PERIODS * 200.0) as usize;
    for step in 1..=steps {
        s.step(h, Integrator::VelocityVerlet);
        let g = s.gaps()[lead];
        if prev != 0.0 && g.signum() != prev.signum() {
            crossings.push(h * (step as f64 - 1.0 + prev / (prev - g)));
        }
        prev = g;
    }
    let measured = (crossings.len() >= 3).then(|| {
        let span = crossings[crossings.len() - 1] - crossings[0];
        std::f64::consts::PI * (crossings.len() - 1) as f64 / span
    });
    let phase = (mode.omega * h).powi(2) / 24.0;
    // Linear interpolation of the crossings errs by O((ωh)²) per crossing.
    let tolerance = 4.0 * phase + 1e-6 + (mode.omega * h).powi(2) / 8.0 / PERIODS;
    let rel = measured.map(|m| (m - mode.omega).abs() / mode.omega);
    run.check(Check {
        check: "row_mode",
        what,
        predicted: Some(mode.omega),
        measured,
        rel_error: rel,
        tolerance: Some(tolerance),
        agrees: Some(rel.is_some_and(|r| r <= tolerance)),
        why: format!(
            "velocity Verlet at {} (200 steps per period) shifts ω by (ωΔt)²/24 = {}; four times that, plus the crossings' interpolation and 1 × 10⁻⁶",
            crate::number::pretty(&crate::number::time(h, 4)),
            crate::number::pretty(&crate::number::sig(phase, 2))
        ),
    });
}

/// The limit the stability checks simulate (a closed set).
#[derive(Clone, Copy)]
enum Limit {
    /// The sheet's step to use.
    StepToUse,
    /// The linear limit at a Hertz impact's peak, 2/ω_max there: the step
    /// to use through the impact is a fraction of it.
    HertzPeak,
}

impl Limit {
    /// The limit's name on the check's line.
    fn name(self) -> &'static str {
        match self {
            Limit::StepToUse => "the step to use",
            Limit::HertzPeak => {
                "the linear limit at the Hertz impact's peak (2/ω_max there; the step to use through the impact is below it)"
            }
        }
    }
}

/// Symplectic Euler with every dashpot, every motion excited: bounded at
/// 0.98 × the limit, diverging at 1.02 × it when it is exact.
fn stability(run: &mut Run, sim: &LinearSim, (h_lim, limit): (f64, Limit), exact: bool) {
    let below = (1.0 - MARGIN) * h_lim;
    let above = (1.0 + MARGIN) * h_lim;
    const STEPS: usize = 4000;
    let what = format!(
        "symplectic Euler over every row (normal and tangential, with the dashpots) at 0.98 × {}, Δt = {}, stays bounded",
        limit.name(),
        crate::number::time(below, 4)
    );
    if let Err(why) = run.budget.take(2.0 * STEPS as f64) {
        run.skip("row_stability", what, why);
        return;
    }
    let grows = |h: f64| -> bool {
        let mut s = sim.clone();
        s.kick_every_row();
        let start = s.state_norm();
        for _ in 0..STEPS {
            s.step(h, Integrator::SymplecticEuler);
            let x = s.state_norm();
            if !x.is_finite() || x > 1e6 * start {
                return true;
            }
        }
        false
    };
    run.check(Check {
        check: "row_stability",
        what,
        predicted: None,
        measured: None,
        rel_error: None,
        tolerance: None,
        agrees: Some(!grows(below)),
        why: "below the limit over every row every motion of the system of every row stays bounded"
            .into(),
    });
    if exact {
        run.check(Check {
            check: "row_stability",
            what: format!(
                "symplectic Euler over every row at 1.02 × {}, Δt = {}, diverges",
                match limit {
                    Limit::StepToUse => "the step to use",
                    Limit::HertzPeak => "that limit",
                },
                crate::number::time(above, 4)
            ),
            predicted: None,
            measured: None,
            rel_error: None,
            tolerance: None,
            agrees: Some(grows(above)),
            why: match limit {
                Limit::StepToUse => "the step to use is the exact limit over every row: just above it the fastest motion grows",
                Limit::HertzPeak => "2/ω_max at the peak is the exact limit of the linear system over every row there: just above it the fastest motion grows",
            }
            .into(),
        });
    }
}
