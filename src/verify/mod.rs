//! Verification by simulation: the analysis checked against an independent
//! time-domain simulator ([`sim`]), so that it can fail.
//!
//! Input: the case's [`Model<f64>`], its [`Analysis`] (for predictions and
//! for choosing excitations and timesteps, never inside the simulator) and
//! the `[verify]` settings. Output: a [`Verification`]:
//!
//! 1. **impulse test**: an impulse P at contact i; every contact's measured
//!    Δġ against `A[:, i] P`; then the same impulse spread over shrinking
//!    force-pulse windows, whose error goes to zero with the window;
//! 2. **free vibration**: each coupled mode excited alone (impulses
//!    `P ∝ K s` give initial gap rates along the mode shape s), its
//!    frequency measured from zero crossings of the gap (cubic Hermite
//!    interpolation between steps), at several amplitudes for the fastest;
//! 3. **timestep convergence**: the fastest mode's measured frequency for
//!    Δt₀/2^j, errors against a Richardson-extrapolated value, observed
//!    orders, for symplectic Euler, velocity Verlet and RK4;
//! 4. **stability**: when the coupled ω_max exceeds the independent
//!    estimate, a run at 0.98 × 2/max ωᵢ (diverges) and one at
//!    0.9 × 2/ω_max (stays bounded), with energy histories.

pub mod sim;

use crate::analysis::Analysis;
use crate::case::Case;
use crate::model::Model;
use serde::Serialize;
pub use sim::{Integrator, Simulator};

/// Default gap amplitude of the free-vibration runs (m).
pub const DEFAULT_COMPRESSION: f64 = 1e-6;
/// Default static preload compression as a multiple of the amplitude.
pub const PRELOAD_FACTOR: f64 = 1000.0;
/// Default number of periods simulated.
pub const DEFAULT_PERIODS: usize = 20;
/// Default number of timestep halvings in the convergence study.
pub const DEFAULT_LEVELS: usize = 6;
/// Steps per period of the free-vibration runs.
pub const STEPS_PER_PERIOD: f64 = 200.0;
/// Largest number of modes verified by free vibration.
pub const MAX_MODES: usize = 6;

/// The settings actually used (defaults filled in).
#[derive(Clone, Debug, Serialize)]
pub struct Settings {
    /// Impulse per contact for the impulse test (N s).
    pub impulse: Vec<f64>,
    /// Gap amplitude of free vibration (m).
    pub compression: f64,
    /// Static preload per contact (N).
    pub preload: Vec<f64>,
    /// Periods per run.
    pub periods: usize,
    /// Convergence levels.
    pub levels: usize,
    /// First timestep of the convergence study (s).
    pub dt0: f64,
}

/// Impulse test of one contact.
#[derive(Clone, Debug, Serialize)]
pub struct ImpulseResult {
    /// Contact hit.
    pub contact: String,
    /// Impulse (N s).
    pub impulse: f64,
    /// `A[:, i] P` (m/s), every contact.
    pub predicted_dgap_rate: Vec<f64>,
    /// Simulated Δġ after an instantaneous impulse (m/s).
    pub measured_dgap_rate: Vec<f64>,
    /// Largest error relative to the largest predicted entry.
    pub max_rel_error: f64,
    /// The same impulse as a force pulse over shrinking windows.
    pub pulse_windows: Vec<PulseWindow>,
}

/// Error of a force pulse of finite duration.
#[derive(Clone, Debug, Serialize)]
pub struct PulseWindow {
    /// Pulse duration (s).
    pub window: f64,
    /// Largest error relative to the largest predicted entry.
    pub max_rel_error: f64,
}

/// A free-vibration run.
#[derive(Clone, Debug, Serialize)]
pub struct FreeVibration {
    /// What was excited: a contact name (one contact) or `mode k`.
    pub excites: String,
    /// Mode number (1 = fastest).
    pub mode: usize,
    /// ω from the analysis (rad/s).
    pub omega_predicted: f64,
    /// ω measured in the simulation (rad/s).
    pub omega_measured: f64,
    /// Relative error.
    pub rel_error: f64,
    /// Gap amplitude (m).
    pub amplitude: f64,
}

/// A recorded gap signal.
#[derive(Clone, Debug, Serialize)]
pub struct GapHistory {
    /// The contact whose gap is recorded.
    pub contact: String,
    /// The mode excited.
    pub mode: usize,
    /// Times (s).
    pub t: Vec<f64>,
    /// Gap minus its equilibrium value (m).
    pub gap: Vec<f64>,
}

/// The timestep convergence study for one integrator.
#[derive(Clone, Debug, Serialize)]
pub struct Convergence {
    /// Integrator name.
    pub integrator: &'static str,
    /// Quantity measured.
    pub quantity: String,
    /// Timesteps (s).
    pub dt: Vec<f64>,
    /// Measured values (rad/s).
    pub value: Vec<f64>,
    /// Errors against the Richardson-extrapolated value (rad/s).
    pub error: Vec<f64>,
    /// Observed orders between consecutive levels (all but the finest
    /// level, which defines the reference).
    pub observed_order: Vec<f64>,
    /// Richardson-extrapolated reference (rad/s).
    pub reference: f64,
}

/// The stability demonstration.
#[derive(Clone, Debug, Serialize)]
pub struct Stability {
    /// 2/max ωᵢ (s).
    pub dt_independent: f64,
    /// 2/ω_max (s).
    pub dt_coupled: f64,
    /// Timestep of the unstable run, 0.98 × dt_independent (s).
    pub dt_run_independent: f64,
    /// Timestep of the stable run, 0.9 × dt_coupled (s).
    pub dt_run_coupled: f64,
    /// True when the run at 0.98 × dt_independent blew up.
    pub diverged_at_independent_dt: bool,
    /// True when the run at 0.9 × dt_coupled stayed bounded.
    pub bounded_at_coupled_dt: bool,
    /// Energy history of the run at 0.98 × dt_independent: (step, E/E₀)
    /// over the first 200 steps (until it blows up).
    pub energy_independent: Vec<(f64, f64)>,
    /// Energy history of the run at 0.9 × dt_coupled: (step, E/E₀) over the
    /// first 200 steps.
    pub energy_coupled: Vec<(f64, f64)>,
}

/// Everything the verification found.
#[derive(Clone, Debug, Serialize)]
pub struct Verification {
    /// How the system was simulated.
    pub simulator: &'static str,
    /// Settings used.
    pub settings: Settings,
    /// Impulse tests.
    pub impulse: Vec<ImpulseResult>,
    /// Free-vibration runs.
    pub free_vibration: Vec<FreeVibration>,
    /// The gap of the fastest mode's first free-vibration run over its
    /// first three periods (for the report's time-history plot).
    pub gap_history: Option<GapHistory>,
    /// Convergence study with velocity Verlet (SPEC §4 key).
    pub convergence: Option<Convergence>,
    /// Convergence studies for every integrator.
    pub convergence_all: Vec<Convergence>,
    /// Stability demonstration (when coupled ω_max exceeds the estimate).
    pub stability: Option<Stability>,
}

/// Progress callback: a stage name and the fraction done.
pub type Progress<'a> = &'a dyn Fn(&str, f64);

/// Chooses the settings: `[verify]` values where given, otherwise from the
/// analysis.
pub fn settings(case: &Case, an: &Analysis) -> Settings {
    let v = case.verify.clone().unwrap_or_default();
    let compression = v.compression.as_ref().map_or(DEFAULT_COMPRESSION, |x| x.si);
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
        preload,
        periods: v.periods.unwrap_or(DEFAULT_PERIODS),
        levels: v.levels.unwrap_or(DEFAULT_LEVELS),
        dt0,
    }
}

/// Runs the whole verification.
pub fn verify(case: &Case, model: &Model<f64>, an: &Analysis, progress: Progress) -> Verification {
    let settings = settings(case, an);
    let fresh = || sim::simulator(model, &settings.preload);
    let simulator = if case.is_generalized() {
        "linear (generalized form at the frozen configuration)"
    } else {
        "rigid bodies (Newton–Euler)"
    };
    progress("impulse test", 0.0);
    let impulse = impulse_tests(case, an, &settings, &fresh);
    progress("free vibration", 0.25);
    let mut gap_history = None;
    let free_vibration = free_vibrations(case, an, &settings, &fresh, &mut gap_history);
    progress("timestep convergence", 0.5);
    let convergence_all: Vec<Convergence> = if an.modes.is_empty() || settings.dt0 <= 0.0 {
        Vec::new()
    } else {
        [
            Integrator::SymplecticEuler,
            Integrator::VelocityVerlet,
            Integrator::Rk4,
        ]
        .into_iter()
        .map(|i| convergence(case, an, &settings, &fresh, i))
        .collect()
    };
    progress("stability", 0.85);
    let stability = stability(an, &settings, &fresh);
    progress("done", 1.0);
    Verification {
        simulator,
        convergence: convergence_all
            .iter()
            .find(|c| c.integrator == "velocity-verlet")
            .cloned(),
        settings,
        impulse,
        free_vibration,
        gap_history,
        convergence_all,
        stability,
    }
}

fn rel_error(predicted: &[f64], measured: &[f64]) -> f64 {
    let scale = predicted.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if scale == 0.0 {
        return 0.0;
    }
    predicted
        .iter()
        .zip(measured)
        .map(|(p, m)| (p - m).abs())
        .fold(0.0, f64::max)
        / scale
}

fn impulse_tests(
    case: &Case,
    an: &Analysis,
    s: &Settings,
    fresh: &dyn Fn() -> Box<dyn Simulator>,
) -> Vec<ImpulseResult> {
    let c = an.contacts.len();
    let t_min = if an.coupled_omega_max > 0.0 {
        std::f64::consts::TAU / an.coupled_omega_max
    } else {
        0.0
    };
    (0..c)
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
                        let mut sim = fresh();
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
                contact: case.contacts[i].name.clone(),
                impulse: p,
                max_rel_error: rel_error(&predicted, &measured),
                predicted_dgap_rate: predicted,
                measured_dgap_rate: measured,
                pulse_windows,
            }
        })
        .collect()
}

/// Excites mode `k` alone with gap amplitude `amplitude`: impulses
/// `P = α K s` make the initial gap rates `α ω² s`.
fn excite(sim: &mut dyn Simulator, an: &Analysis, k: usize, amplitude: f64) {
    let mode = &an.modes[k];
    let alpha = amplitude / mode.omega;
    for (i, s) in mode.shape.iter().enumerate() {
        if *s != 0.0 {
            sim.impulse(i, -alpha * an.contacts[i].stiffness * s);
        }
    }
}

/// Runs `steps` steps and measures the angular frequency of gap `pivot`
/// from its zero crossings (cubic Hermite interpolation between steps).
fn measure(
    sim: &mut dyn Simulator,
    pivot: usize,
    h: f64,
    steps: usize,
    integrator: Integrator,
) -> Option<f64> {
    measure_recording(sim, pivot, h, steps, integrator, None)
}

/// [`measure`], also recording (t, gap) for the first `record.1` steps.
fn measure_recording(
    sim: &mut dyn Simulator,
    pivot: usize,
    h: f64,
    steps: usize,
    integrator: Integrator,
    mut record: Option<(&mut Vec<(f64, f64)>, usize)>,
) -> Option<f64> {
    let mut t = 0.0;
    let (mut y0, mut d0) = (sim.gaps()[pivot], sim.gap_rates()[pivot]);
    let mut crossings: Vec<f64> = Vec::new();
    for _ in 0..steps {
        sim.step(h, integrator);
        let (y1, d1) = (sim.gaps()[pivot], sim.gap_rates()[pivot]);
        if (y0 < 0.0 && y1 >= 0.0) || (y0 > 0.0 && y1 <= 0.0) {
            crossings.push(t + h * hermite_root(y0, d0 * h, y1, d1 * h));
        }
        if let Some((history, n)) = record.as_mut()
            && history.len() < *n
        {
            history.push((t + h, y1));
        }
        t += h;
        (y0, d0) = (y1, d1);
    }
    // Skip the start (the excitation begins at a zero of the gap).
    let cs: Vec<f64> = crossings.into_iter().filter(|&c| c > h * 0.5).collect();
    if cs.len() < 3 {
        return None;
    }
    let span = cs[cs.len() - 1] - cs[0];
    Some(std::f64::consts::PI * (cs.len() - 1) as f64 / span)
}

/// Root in [0, 1] of the cubic Hermite interpolant with values y0, y1 and
/// scaled slopes m0, m1 (Newton from the linear guess).
fn hermite_root(y0: f64, m0: f64, y1: f64, m1: f64) -> f64 {
    let f = |s: f64| {
        let (s2, s3) = (s * s, s * s * s);
        (2.0 * s3 - 3.0 * s2 + 1.0) * y0
            + (s3 - 2.0 * s2 + s) * m0
            + (-2.0 * s3 + 3.0 * s2) * y1
            + (s3 - s2) * m1
    };
    let df = |s: f64| {
        let s2 = s * s;
        (6.0 * s2 - 6.0 * s) * y0
            + (3.0 * s2 - 4.0 * s + 1.0) * m0
            + (-6.0 * s2 + 6.0 * s) * y1
            + (3.0 * s2 - 2.0 * s) * m1
    };
    let mut s = if y0 != y1 { y0 / (y0 - y1) } else { 0.5 };
    for _ in 0..20 {
        let d = df(s);
        if d == 0.0 {
            break;
        }
        let next = (s - f(s) / d).clamp(0.0, 1.0);
        if (next - s).abs() < 1e-15 {
            s = next;
            break;
        }
        s = next;
    }
    s
}

fn pivot_of(shape: &[f64]) -> usize {
    shape.iter().position(|&x| x == 1.0).unwrap_or(0)
}

fn free_vibrations(
    case: &Case,
    an: &Analysis,
    s: &Settings,
    fresh: &dyn Fn() -> Box<dyn Simulator>,
    gap_history: &mut Option<GapHistory>,
) -> Vec<FreeVibration> {
    let mut out = Vec::new();
    for (k, mode) in an.modes.iter().enumerate().take(MAX_MODES) {
        let pivot = pivot_of(&mode.shape);
        let h = std::f64::consts::TAU / mode.omega / STEPS_PER_PERIOD;
        let steps = (s.periods as f64 * STEPS_PER_PERIOD) as usize;
        let amplitudes: &[f64] = if k == 0 { &[1.0, 10.0, 100.0] } else { &[1.0] };
        for &factor in amplitudes {
            let amplitude = s.compression * factor;
            let mut sim = fresh();
            excite(sim.as_mut(), an, k, amplitude);
            let mut history = Vec::new();
            let record =
                (k == 0 && factor == 1.0).then_some((&mut history, 3 * STEPS_PER_PERIOD as usize));
            let Some(measured) = measure_recording(
                sim.as_mut(),
                pivot,
                h,
                steps,
                Integrator::VelocityVerlet,
                record,
            ) else {
                continue;
            };
            if !history.is_empty() {
                *gap_history = Some(GapHistory {
                    contact: case.contacts[pivot].name.clone(),
                    mode: k + 1,
                    t: history.iter().map(|p| p.0).collect(),
                    gap: history.iter().map(|p| p.1).collect(),
                });
            }
            let excites = if an.contacts.len() == 1 {
                case.contacts[0].name.clone()
            } else {
                format!("mode {}", k + 1)
            };
            out.push(FreeVibration {
                excites,
                mode: k + 1,
                omega_predicted: mode.omega,
                omega_measured: measured,
                rel_error: (measured - mode.omega).abs() / mode.omega,
                amplitude,
            });
        }
    }
    out
}

fn convergence(
    case: &Case,
    an: &Analysis,
    s: &Settings,
    fresh: &dyn Fn() -> Box<dyn Simulator>,
    integrator: Integrator,
) -> Convergence {
    let mode = &an.modes[0];
    let pivot = pivot_of(&mode.shape);
    let total = s.periods as f64 * std::f64::consts::TAU / mode.omega;
    let mut dt = Vec::new();
    let mut value = Vec::new();
    for j in 0..=s.levels {
        let h = s.dt0 / 2f64.powi(j as i32);
        let steps = (total / h).round() as usize;
        let mut sim = fresh();
        excite(sim.as_mut(), an, 0, s.compression);
        if let Some(w) = measure(sim.as_mut(), pivot, h, steps, integrator) {
            dt.push(h);
            value.push(w);
        }
    }
    let p = match integrator {
        // The frequency (phase) error of symplectic Euler on an oscillator is second order.
        Integrator::SymplecticEuler | Integrator::VelocityVerlet => 2.0,
        Integrator::Rk4 => 4.0,
    };
    let n = value.len();
    let reference = if n >= 2 {
        value[n - 1] + (value[n - 1] - value[n - 2]) / (2f64.powf(p) - 1.0)
    } else {
        value.last().copied().unwrap_or(0.0)
    };
    let error: Vec<f64> = value.iter().map(|v| (v - reference).abs()).collect();
    // The finest level defines the reference, so its pair always shows the
    // nominal order exactly: leave it out.
    let informative = &error[..error.len().saturating_sub(1)];
    let observed_order = informative
        .windows(2)
        .map(|w| {
            if w[0] > 0.0 && w[1] > 0.0 {
                (w[0] / w[1]).log2()
            } else {
                f64::NAN
            }
        })
        .filter(|x| x.is_finite())
        .collect();
    let quantity = if an.contacts.len() == 1 {
        format!("omega({})", case.contacts[0].name)
    } else {
        "mode_omega(1)".to_string()
    };
    Convergence {
        integrator: integrator.name(),
        quantity,
        dt,
        value,
        error,
        observed_order,
        reference,
    }
}

fn stability(
    an: &Analysis,
    s: &Settings,
    fresh: &dyn Fn() -> Box<dyn Simulator>,
) -> Option<Stability> {
    let (dt_ind, dt_c) = (an.stable_dt.independent?, an.stable_dt.coupled?);
    if an.coupled_omega_max <= an.independent_omega_max * (1.0 + 1e-6) || an.modes.is_empty() {
        return None;
    }
    let pivot = pivot_of(&an.modes[0].shape);
    // Energy over the first HISTORY steps (step number, E/E₀), which is where
    // the unstable run blows up; the bounded run continues to `steps`.
    const HISTORY: usize = 200;
    let run = |h: f64, steps: usize| -> (bool, Vec<(f64, f64)>) {
        let mut sim = fresh();
        excite(sim.as_mut(), an, 0, s.compression);
        let e0 = sim.energy();
        let mut history = vec![(0.0, 1.0)];
        let mut blew_up = false;
        for n in 1..=steps {
            sim.step(h, Integrator::VelocityVerlet);
            let g = sim.gaps()[pivot].abs();
            if n <= HISTORY {
                history.push((n as f64, sim.energy() / e0));
            }
            if g > 100.0 * s.compression {
                blew_up = true;
                break;
            }
        }
        (blew_up, history)
    };
    let (h_ind, h_c) = (0.98 * dt_ind, 0.9 * dt_c);
    let (diverged, energy_independent) = run(h_ind, 2000);
    let (blew_up, energy_coupled) = run(h_c, 2000);
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
