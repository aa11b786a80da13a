//! Verification by simulation: the analysis checked against an independent
//! time-domain simulator ([`sim`]), so that it can fail.
//!
//! Input: the case's [`Model<f64>`], its [`Analysis`] (for predictions and
//! for choosing excitations and timesteps, never inside the simulator) and
//! the `[verify]` settings. Output: a [`Verification`] whose [`Verdict`]
//! lists every check with its prediction, measurement, tolerance and, when a
//! check could not be made, why:
//!
//! 1. **impulse test**: an impulse P at contact i; every contact's measured
//!    Δġ against `A[:, i] P`; then the same impulse spread over shrinking
//!    force-pulse windows, whose error goes to zero with the window;
//! 2. **free vibration**: each coupled mode excited alone (impulses
//!    `P ∝ K s` give initial gap rates along the mode shape s) on the
//!    system without dashpots, its frequency measured from zero crossings
//!    of the gap, with a step chosen per mode (small against that mode's
//!    period and stable for the fastest mode); the fastest at several
//!    amplitudes. The tolerance is velocity Verlet's own phase error
//!    `(ωh)²/24` at the step used, plus a geometric (amplitude/length) term;
//! 3. **damping**: with dashpots, each mode that damping does not couple to
//!    others is run again; its damped frequency `ω√(1−ζ²)` and decay rate
//!    `ζω` (or, overdamped, the slowest decay rate) are measured and
//!    compared with the analysis' damped modes;
//! 4. **timestep convergence**: the fastest mode's frequency for Δt₀/2^j,
//!    errors against the analysis' ω, observed orders, for symplectic
//!    Euler, velocity Verlet and RK4 (RK4 is left out for jointed systems:
//!    joints held by velocity projection make any Runge–Kutta scheme second
//!    order at best);
//! 5. **stability**: when the coupled ω_max exceeds the independent
//!    estimate, a run at √(2/ω_max · 2/max ωᵢ), a step the independent
//!    estimate deems stable (it diverges), and one at
//!    0.9 × 2/ω_max (stays bounded), with energy histories;
//! 6. **damped stability** (dashpots): the step the sheet says to use,
//!    simulated with the dashpots by symplectic Euler, stays bounded at
//!    0.98 × it and, when it is the step map's exact limit, diverges at
//!    1.02 × it.
//!
//! All runs share a work budget ([`MAX_WORK`], steps × moving parts),
//! checked before each run: a run that would exceed it is skipped and the
//! skip is a check with its reason, never a silent pass.

mod convergence;
mod damped;
mod impulse;
mod measure;
mod robot;
mod rows;
pub mod sim;
mod types;

use crate::analysis::Analysis;
use crate::case::Case;
use crate::model::Model;
use convergence::convergence;
use damped::{damped_response, damped_runs, damped_stability};
pub use impulse::IMPULSE_TOLERANCE;
use impulse::impulse_tests;
use measure::{Decay, excite, measure, measure_decay, measure_recording, pivot_of, rel_error};
pub use sim::{Integrator, Simulator};
pub use types::*;

/// Default gap amplitude as a fraction of the system's smallest length
/// (radius of gyration, lever arm): small motion, whatever the scale.
pub const AMPLITUDE_FRACTION: f64 = 1e-6;
/// Gap amplitude when the system has no length to scale by (m).
pub const DEFAULT_COMPRESSION: f64 = 1e-6;
/// Default static preload compression as a multiple of the amplitude.
pub const PRELOAD_FACTOR: f64 = 1000.0;
/// Default number of periods simulated.
pub const DEFAULT_PERIODS: usize = 20;
/// Default number of timestep halvings in the convergence study.
pub const DEFAULT_LEVELS: usize = 6;
/// Steps per period of the free-vibration runs (at most: the step is also
/// kept below the fastest mode's stability limit).
pub const STEPS_PER_PERIOD: f64 = 200.0;
/// Largest number of modes verified by free vibration.
pub const MAX_MODES: usize = 6;
/// The simulations' work budget: steps × (bodies + contacts + 1), summed
/// over every run of one case: at most about 10 s of simulation on the
/// 2-core machine of benches/results/build.md (a body with `periods =
/// 1000, levels = 12` took 46 s at 4·10⁸).
pub const MAX_WORK: u64 = 60_000_000;
/// Damping ratios up to this are timed as oscillations; above it (and
/// below 1) frequency and decay are still measured, with a wider tolerance.
pub const LIGHT_DAMPING: f64 = 0.3;

/// Progress callback: a stage name and the fraction done.
pub type Progress<'a> = &'a dyn Fn(&str, f64);

/// The smallest length that sets how small "small motion" is: radii of
/// gyration of rigid bodies and lever arms of contacts and joints.
fn length_scale(model: &Model<f64>) -> Option<(f64, String)> {
    use crate::model::{BodyKind, Geometry, Inertia, Kind};
    let Kind::Bodies { bodies, joints } = &model.kind else {
        return None;
    };
    let mut best: Option<(f64, String)> = None;
    let mut consider = |l: f64, what: String| {
        if l.is_finite() && l > 0.0 && best.as_ref().is_none_or(|(b, _)| l < *b) {
            best = Some((l, what));
        }
    };
    for b in bodies {
        if let BodyKind::Rigid { mass, inertia } = &b.kind {
            let i_min = match inertia {
                Inertia::Scalar(i) => *i,
                Inertia::Diagonal(d) => d.iter().copied().fold(f64::INFINITY, f64::min),
                Inertia::Full(m) => (0..3).map(|k| m[k][k]).fold(f64::INFINITY, f64::min),
            };
            consider(
                (i_min / mass).sqrt(),
                format!("radius of gyration of {}", b.name),
            );
        }
    }
    let arm = |body: usize, point: &[f64]| -> f64 {
        let p = &bodies[body].position;
        point
            .iter()
            .enumerate()
            .map(|(k, x)| (x - p.get(k).copied().unwrap_or(0.0)).powi(2))
            .sum::<f64>()
            .sqrt()
    };
    for c in &model.contacts {
        if let Geometry::Point {
            body,
            other,
            point,
            image,
            ..
        } = &c.geometry
        {
            let sides = crate::model::side_points(point, image);
            for (b, point) in std::iter::once(*body).chain(*other).zip(&sides) {
                if matches!(bodies[b].kind, BodyKind::Rigid { .. }) {
                    consider(
                        arm(b, point),
                        format!("lever arm of {} on {}", c.name, bodies[b].name),
                    );
                }
            }
        }
    }
    for j in joints {
        for b in std::iter::once(j.body).chain(j.other) {
            if matches!(bodies[b].kind, BodyKind::Rigid { .. }) {
                consider(arm(b, &j.point), format!("joint arm on {}", bodies[b].name));
            }
        }
    }
    best
}

/// Chooses the settings: `[verify]` values where given, otherwise from the
/// analysis and the system's own lengths.
pub fn settings(case: &Case, model: &Model<f64>, an: &Analysis) -> Settings {
    let v = case.verify.clone().unwrap_or_default();
    let scale = length_scale(model);
    let compression = v.compression.as_ref().map_or_else(
        || {
            scale
                .as_ref()
                .map_or(DEFAULT_COMPRESSION, |(l, _)| AMPLITUDE_FRACTION * l)
        },
        |x| x.si,
    );
    let preload = an
        .contacts
        .iter()
        .map(|c| {
            v.preload
                .as_ref()
                .map_or(PRELOAD_FACTOR * compression * c.stiffness, |x| x.si)
        })
        .collect();
    let impulse = an
        .contacts
        .iter()
        .map(|c| match (&v.impulse, c.m_eff) {
            (Some(p), _) => p.si,
            // An impulse that moves the gap by about the free-vibration amplitude.
            (None, Some(m)) if c.omega > 0.0 => m * c.omega * compression,
            _ => 0.0,
        })
        .collect();
    let omega_max = an.coupled_omega_max.max(an.independent_omega_max);
    let dt0 = v.dt0.as_ref().map_or(
        if omega_max > 0.0 {
            std::f64::consts::TAU / omega_max / 10.0
        } else {
            0.0
        },
        |x| x.si,
    );
    Settings {
        impulse,
        compression,
        length_scale: if v.compression.is_some() { None } else { scale },
        preload,
        periods: v.periods.unwrap_or(DEFAULT_PERIODS),
        levels: v.levels.unwrap_or(DEFAULT_LEVELS),
        dt0,
    }
}

/// The simulations' shared work budget.
struct Budget {
    left: u64,
    per_step: u64,
}

impl Budget {
    /// Takes the work of `steps` steps, or says why not.
    fn take(&mut self, steps: f64) -> Result<usize, String> {
        let work = steps * self.per_step as f64;
        if !steps.is_finite() || work > self.left as f64 {
            return Err(format!(
                "skipped: {} steps would exceed the simulation budget ({} steps × moving parts per case)",
                crate::number::sci(steps, 3),
                crate::number::sci(MAX_WORK as f64, 1)
            ));
        }
        self.left -= work as u64;
        Ok(steps.ceil() as usize)
    }
}

/// Shared state of one verification.
struct Run<'a> {
    case: &'a Case,
    an: &'a Analysis,
    settings: &'a Settings,
    /// The simulator with dashpots.
    damped: &'a dyn Fn() -> Box<dyn Simulator>,
    /// The simulator without dashpots (the undamped analysis).
    undamped: &'a dyn Fn() -> Box<dyn Simulator>,
    budget: Budget,
    checks: Vec<Check>,
    /// The largest stable step of velocity Verlet for the system (s).
    h_stable: f64,
    /// The condition number of what the simulator solves with
    /// ([`impulse::inertia_condition`]).
    inertia_condition: f64,
}

impl Run<'_> {
    fn check(&mut self, c: Check) {
        self.checks.push(c);
    }

    fn skip(&mut self, check: &'static str, what: String, why: String) {
        self.checks.push(Check {
            check,
            what,
            predicted: None,
            measured: None,
            rel_error: None,
            tolerance: None,
            agrees: None,
            why,
        });
    }
}

#[allow(clippy::too_many_arguments)]
fn numeric_check(
    check: &'static str,
    what: String,
    predicted: f64,
    measured: f64,
    tolerance: f64,
    why: String,
) -> Check {
    let rel = (measured - predicted).abs() / predicted.abs().max(f64::MIN_POSITIVE);
    Check {
        check,
        what,
        predicted: Some(predicted),
        measured: Some(measured),
        rel_error: Some(rel),
        tolerance: Some(tolerance),
        agrees: Some(rel <= tolerance),
        why,
    }
}

/// Runs the whole verification.
///
/// The thread's stop request ([`crate::control`]): once set, the
/// simulations stop stepping and the verification ends within moments (its
/// numbers are then meaningless: the caller has abandoned the evaluation).
pub fn verify(case: &Case, model: &Model<f64>, an: &Analysis, progress: Progress) -> Verification {
    let cancel = crate::control::stop_flag();
    let cancel = cancel.as_ref();
    // A robot's M and J for the simulator come from its poses alone.
    let independent = robot::independent_model(case, model);
    let model = independent.as_ref().unwrap_or(model);
    let settings = settings(case, model, an);
    let fresh = || sim::stoppable(sim::simulator(model, &settings.preload), cancel);
    let mut undamped_model = model.clone();
    for c in &mut undamped_model.contacts {
        c.damping = None;
    }
    let fresh_undamped =
        || sim::stoppable(sim::simulator(&undamped_model, &settings.preload), cancel);
    let simulator = if matches!(case.form, crate::case::Form::Robot(_)) {
        "linear, at the frozen configuration, with M from the kinetic energy of the bodies' poses and J from the contact points' motion (finite differences of forward kinematics)"
    } else if case.is_generalized() {
        "linear (generalized form at the frozen configuration)"
    } else {
        "rigid bodies (Newton–Euler)"
    };
    // A step's cost in moving parts: a body's step is a few 6-vectors; a
    // generalized step multiplies dense nv×nv matrices (a 150-joint chain
    // spent 90% of its time there), so it counts as nv²/4 parts.
    let parts = match &model.kind {
        crate::model::Kind::Bodies { bodies, .. } => bodies.len(),
        crate::model::Kind::Generalized { mass_matrix, .. } => {
            (mass_matrix.len() * mass_matrix.len() / 4).max(1)
        }
    };
    let omega_top = an.coupled_omega_max.max(an.independent_omega_max);
    let inertia_condition = impulse::inertia_condition(model);
    let mut run = Run {
        inertia_condition,
        case,
        an,
        settings: &settings,
        damped: &fresh,
        undamped: &fresh_undamped,
        budget: Budget {
            left: MAX_WORK,
            per_step: (parts + an.contacts.len() + 1) as u64,
        },
        checks: Vec::new(),
        h_stable: if omega_top > 0.0 {
            2.0 / omega_top
        } else {
            f64::INFINITY
        },
    };
    progress("impulse test", 0.0);
    let impulse = impulse_tests(&mut run);
    progress("free vibration", 0.2);
    let mut gap_history = None;
    let free_vibration = free_vibrations(&mut run, &mut gap_history);
    progress("damping", 0.4);
    let damped = damped_runs(&mut run);
    damped_response(&mut run);
    progress("timestep convergence", 0.55);
    let jointed = an.constraint_rows > 0;
    let mut convergence_all = Vec::new();
    if !an.modes.is_empty() && settings.dt0 > 0.0 {
        for integrator in [
            Integrator::SymplecticEuler,
            Integrator::VelocityVerlet,
            Integrator::Rk4,
        ] {
            if integrator == Integrator::Rk4 && jointed {
                run.skip(
                    "convergence_order",
                    "order of RK4".into(),
                    "left out: the joints are held by projecting velocities after each step, which makes a Runge–Kutta scheme second order at best (its orders would mislead)".into(),
                );
                continue;
            }
            if let Some(c) = convergence(&mut run, integrator) {
                convergence_all.push(c);
            }
        }
    }
    progress("stability", 0.85);
    let stability = stability(&mut run);
    damped_stability(&mut run);
    rows::row_checks(&mut run, model);
    progress("done", 1.0);
    let checks = run.checks;
    let agrees =
        checks.iter().any(|c| c.agrees.is_some()) && checks.iter().all(|c| c.agrees != Some(false));
    Verification {
        simulator,
        verdict: Verdict { agrees, checks },
        convergence: convergence_all
            .iter()
            .find(|c| c.integrator == "velocity-verlet")
            .cloned(),
        settings,
        inertia_condition,
        impulse,
        free_vibration,
        damped,
        gap_history,
        convergence_all,
        stability,
    }
}

/// The free-vibration step for a mode of frequency `omega`: a fraction of
/// its period, and never above half of the stable step of the fastest mode
/// (a slow mode's run must not be wrecked by a fast one going unstable).
fn step_for(run: &Run, omega: f64) -> f64 {
    (std::f64::consts::TAU / omega / STEPS_PER_PERIOD).min(0.5 * run.h_stable)
}

/// Velocity Verlet's relative phase (frequency) error at step `h`.
fn verlet_phase_error(omega: f64, h: f64) -> f64 {
    (omega * h).powi(2) / 24.0
}

/// Relative frequency error that measuring a run cannot avoid: cubic
/// interpolation of crossings and round-off of the gaps.
const MEASUREMENT_FLOOR: f64 = 1e-6;

/// Damped runs are fitted while the gap is above this fraction of the
/// amplitude (four decades of decay).
const DECAY_FLOOR: f64 = 1e-4;

/// Relative frequency error below which a convergence study's errors are
/// not judged (round-off in the gaps and crossing times).
const CONVERGENCE_FLOOR: f64 = 1e-10;

fn geometric_term(run: &Run, amplitude: f64) -> f64 {
    run.settings
        .length_scale
        .as_ref()
        .map_or(0.0, |(l, _)| 10.0 * amplitude / l)
}

fn free_vibrations(run: &mut Run, gap_history: &mut Option<GapHistory>) -> Vec<FreeVibration> {
    let mut out = Vec::new();
    let (case, an) = (run.case, run.an);
    for (k, mode) in an.modes.iter().enumerate().take(MAX_MODES) {
        let pivot = pivot_of(&mode.shape);
        let h = step_for(run, mode.omega);
        let steps = run.settings.periods as f64 * std::f64::consts::TAU / mode.omega / h;
        let amplitudes: &[f64] = if k == 0 { &[1.0, 10.0, 100.0] } else { &[1.0] };
        let excites = if an.contacts.len() == 1 {
            case.contact_name(0).into_owned()
        } else {
            format!("mode {}", k + 1)
        };
        for &factor in amplitudes {
            let amplitude = run.settings.compression * factor;
            let what = format!(
                "ω of {excites}, gap amplitude {} m",
                crate::number::pretty(&crate::number::sig(amplitude, 3))
            );
            let steps = match run.budget.take(steps) {
                Ok(n) => n,
                Err(why) => {
                    run.skip("free_vibration", what, why);
                    continue;
                }
            };
            let mut sim = (run.undamped)();
            excite(sim.as_mut(), an, k, amplitude);
            let mut history = Vec::new();
            let record = (k == 0 && factor == 1.0)
                .then_some((&mut history, (3.0 * STEPS_PER_PERIOD) as usize));
            let measured = measure_recording(
                sim.as_mut(),
                pivot,
                h,
                steps,
                Integrator::VelocityVerlet,
                record,
            );
            let Some(measured) = measured else {
                run.skip(
                    "free_vibration",
                    what,
                    "no three zero crossings of the gap were seen: the mode could not be timed"
                        .into(),
                );
                continue;
            };
            if !history.is_empty() {
                *gap_history = Some(GapHistory {
                    contact: case.contact_name(pivot).into_owned(),
                    mode: k + 1,
                    t: history.iter().map(|p| p.0).collect(),
                    gap: history.iter().map(|p| p.1).collect(),
                });
            }
            let phase = verlet_phase_error(mode.omega, h);
            let tolerance = 2.0 * phase + MEASUREMENT_FLOOR + geometric_term(run, amplitude);
            run.check(numeric_check(
                if factor == 1.0 { "free_vibration" } else { "amplitude" },
                what,
                mode.omega,
                measured,
                tolerance,
                format!(
                    "velocity Verlet at Δt = {} ({:.0} steps per period) shifts ω by (ωΔt)²/24 = {}; twice that, plus {} for timing the crossings{}",
                    crate::number::time(h, crate::number::DEFAULT_DIGITS),
                    std::f64::consts::TAU / mode.omega / h,
                    crate::number::sci(phase, 1),
                    crate::number::sci(MEASUREMENT_FLOOR, 0),
                    if geometric_term(run, amplitude) > 0.0 {
                        ", plus 10 × amplitude/length for the geometry of finite motion"
                    } else {
                        ""
                    }
                ),
            ));
            out.push(FreeVibration {
                excites: excites.clone(),
                mode: k + 1,
                omega_predicted: mode.omega,
                omega_measured: measured,
                rel_error: (measured - mode.omega).abs() / mode.omega,
                amplitude,
                dt: h,
                tolerance,
            });
        }
    }
    out
}

fn stability(run: &mut Run) -> Option<Stability> {
    let (an, s) = (run.an, run.settings);
    let fresh = run.undamped;
    let (dt_ind, dt_c) = (an.stable_dt.independent?, an.stable_dt.coupled?);
    if an.coupled_omega_max <= an.independent_omega_max * (1.0 + 1e-6) || an.modes.is_empty() {
        return None;
    }
    let pivot = pivot_of(&an.modes[0].shape);
    // Energy sampled at about HISTORY points over the run (step number, E/E₀).
    const HISTORY: usize = 200;
    let simulate = |h: f64, steps: usize| -> (bool, Vec<(f64, f64)>) {
        let mut sim = fresh();
        excite(sim.as_mut(), an, 0, s.compression);
        let e0 = sim.energy();
        let every = steps.div_ceil(HISTORY).max(1);
        let mut history = vec![(0.0, 1.0)];
        let mut blew_up = false;
        for n in 1..=steps {
            if sim.stopped() {
                break;
            }
            sim.step(h, Integrator::VelocityVerlet);
            let g = sim.gaps()[pivot].abs();
            if n % every == 0 || g > 100.0 * s.compression {
                history.push((n as f64, sim.energy() / e0));
            }
            if g > 100.0 * s.compression {
                blew_up = true;
                break;
            }
        }
        (blew_up, history)
    };
    // A step the independent estimate deems stable but the coupled one does
    // not: the geometric mean of 2/ω_max and 2/max ωᵢ. There the fastest
    // mode grows by |λ| per step, λ + 1/λ = 2 − (ω_max h)²; run until it
    // has grown 100-fold three times over.
    let (h_ind, h_c) = ((dt_ind * dt_c).sqrt(), 0.9 * dt_c);
    let x = an.coupled_omega_max * h_ind;
    let b = x * x - 2.0;
    let growth = (b + (b * b - 4.0).max(0.0).sqrt()) / 2.0;
    let hundredfold = steps_to_grow(growth, 100.0);
    let grow_steps = 3.0 * hundredfold;
    let unstable_steps = grow_steps.max(2000.0);
    if let Err(why) = run.budget.take(unstable_steps + 2000.0) {
        run.skip("stability", "the stable timestep".into(), why);
        return None;
    }
    let (diverged, energy_independent) = simulate(h_ind, unstable_steps as usize);
    let (blew_up, energy_coupled) = simulate(h_c, 2000);
    run.check(Check {
        check: "stability",
        what: format!(
            "velocity Verlet at Δt = {}, stable by the independent estimate 2/max ωᵢ but above 2/ω_max, diverges",
            crate::number::time(h_ind, crate::number::DEFAULT_DIGITS)
        ),
        predicted: None,
        measured: None,
        rel_error: None,
        tolerance: None,
        agrees: Some(diverged),
        why: format!(
            "above 2/ω_max the fastest coupled mode grows by {growth:.4} per step: 100-fold in {hundredfold:.0} steps; {unstable_steps:.0} steps were run"
        ),
    });
    run.check(Check {
        check: "stability",
        what: format!(
            "velocity Verlet at 0.9 × 2/ω_max = {} (the coupled estimate) stays bounded",
            crate::number::time(h_c, crate::number::DEFAULT_DIGITS)
        ),
        predicted: None,
        measured: None,
        rel_error: None,
        tolerance: None,
        agrees: Some(!blew_up),
        why: "below 2/ω_max every mode stays bounded".into(),
    });
    Some(Stability {
        dt_independent: dt_ind,
        dt_coupled: dt_c,
        dt_run_independent: h_ind,
        dt_run_coupled: h_c,
        diverged_at_independent_dt: diverged,
        bounded_at_coupled_dt: !blew_up,
        energy_independent,
        energy_coupled,
    })
}

/// The whole number of steps a motion growing by `growth` per step takes
/// to grow `factor`-fold: ⌈ln factor / ln growth⌉ (the text "N-fold in k
/// steps" never claims fewer steps than it takes); infinite when it does
/// not grow.
pub(crate) fn steps_to_grow(growth: f64, factor: f64) -> f64 {
    if growth > 1.0 {
        // A hair below an integer is that integer (round-off in the logs).
        let k = factor.ln() / growth.ln();
        (k - 1e-9 * k.max(1.0)).ceil()
    } else {
        f64::INFINITY
    }
}
