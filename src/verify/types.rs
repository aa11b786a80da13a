//! What the verification reports: its settings, checks and runs (the
//! `verification` object of the JSON, docs/json.md).

use serde::Serialize;

/// The settings actually used (defaults filled in).
#[derive(Clone, Debug, Serialize)]
pub struct Settings {
    /// Impulse per contact for the impulse test (N s).
    pub impulse: Vec<f64>,
    /// Gap amplitude of free vibration (m).
    pub compression: f64,
    /// The length the default amplitude is scaled from (m), and what it is.
    pub length_scale: Option<(f64, String)>,
    /// Static preload per contact (N).
    pub preload: Vec<f64>,
    /// Periods per run.
    pub periods: usize,
    /// Convergence levels.
    pub levels: usize,
    /// First timestep of the convergence study (s).
    pub dt0: f64,
}

/// One check of the analysis against the simulation.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    /// Kind: `impulse`, `pulse`, `free_vibration`, `amplitude`,
    /// `damped_frequency`, `decay_rate`, `damped_response`, `convergence_order`, `stability`.
    pub check: &'static str,
    /// What was checked, in words.
    pub what: String,
    /// The analysis' prediction, when the check is a number.
    pub predicted: Option<f64>,
    /// What the simulation showed.
    pub measured: Option<f64>,
    /// Relative difference.
    pub rel_error: Option<f64>,
    /// The tolerance from the method's error model.
    pub tolerance: Option<f64>,
    /// `true` agrees, `false` disagrees, `null` not checked (see `why`).
    pub agrees: Option<bool>,
    /// Where the tolerance comes from, or why the check was skipped.
    pub why: String,
}

/// The verdict: every check, and whether all that were made agree.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    /// True when at least one check was made and none disagrees.
    pub agrees: bool,
    /// Every check, in the order run.
    pub checks: Vec<Check>,
}

impl Verdict {
    /// The checks that disagree.
    pub fn disagreements(&self) -> impl Iterator<Item = &Check> {
        self.checks.iter().filter(|c| c.agrees == Some(false))
    }

    /// The checks that were skipped.
    pub fn skipped(&self) -> impl Iterator<Item = &Check> {
        self.checks.iter().filter(|c| c.agrees.is_none())
    }
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

/// A free-vibration run (dashpots removed: the undamped frequency).
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
    /// Timestep of the run (s).
    pub dt: f64,
    /// Tolerance of the check (velocity Verlet's phase error at this step
    /// plus the geometric term of the amplitude).
    pub tolerance: f64,
}

/// A damped free-vibration run of one mode.
#[derive(Clone, Debug, Serialize)]
pub struct DampedRun {
    /// Mode number (1 = fastest undamped mode).
    pub mode: usize,
    /// Damping ratio from the analysis' damped modes.
    pub zeta: f64,
    /// Predicted damped frequency ω√(1−ζ²) (rad/s); `null` when overdamped.
    pub omega_d_predicted: Option<f64>,
    /// Measured damped frequency (rad/s).
    pub omega_d_measured: Option<f64>,
    /// Predicted decay rate (1/s): ζω, or the slowest rate when overdamped.
    pub decay_predicted: f64,
    /// Measured decay rate (1/s).
    pub decay_measured: Option<f64>,
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
    /// Errors against the reference (rad/s).
    pub error: Vec<f64>,
    /// Observed orders between consecutive levels.
    pub observed_order: Vec<f64>,
    /// The reference: the analysis' prediction (rad/s).
    pub reference: f64,
    /// The integrator's nominal order for this quantity.
    pub nominal_order: f64,
    /// What the orders show, in words.
    pub comment: String,
}

/// The stability demonstration.
#[derive(Clone, Debug, Serialize)]
pub struct Stability {
    /// 2/max ωᵢ (s).
    pub dt_independent: f64,
    /// 2/ω_max (s).
    pub dt_coupled: f64,
    /// Timestep of the unstable run, √(dt_independent · dt_coupled): stable
    /// by the independent estimate, above the coupled limit (s).
    pub dt_run_independent: f64,
    /// Timestep of the stable run, 0.9 × dt_coupled (s).
    pub dt_run_coupled: f64,
    /// True when the run at `dt_run_independent` blew up.
    pub diverged_at_independent_dt: bool,
    /// True when the run at 0.9 × dt_coupled stayed bounded.
    pub bounded_at_coupled_dt: bool,
    /// Energy history of the run at `dt_run_independent`: (step, E/E₀)
    /// at about 200 points until it blows up.
    pub energy_independent: Vec<(f64, f64)>,
    /// Energy history of the run at 0.9 × dt_coupled: (step, E/E₀) at about
    /// 200 points.
    pub energy_coupled: Vec<(f64, f64)>,
}

/// Everything the verification found.
#[derive(Clone, Debug, Serialize)]
pub struct Verification {
    /// How the system was simulated.
    pub simulator: &'static str,
    /// The verdict: every check with its tolerance or why it was skipped.
    pub verdict: Verdict,
    /// Settings used.
    pub settings: Settings,
    /// The largest condition number (largest over smallest eigenvalue)
    /// among the inertias the simulator solves with: each rigid body's
    /// inertia tensor, or the generalized mass matrix. Round-off in the
    /// impulse test grows with it.
    pub inertia_condition: f64,
    /// Impulse tests.
    pub impulse: Vec<ImpulseResult>,
    /// Free-vibration runs.
    pub free_vibration: Vec<FreeVibration>,
    /// Damped runs (cases with dashpots).
    pub damped: Vec<DampedRun>,
    /// The gap of the fastest mode's first free-vibration run over its
    /// first three periods (for the report's time-history plot).
    pub gap_history: Option<GapHistory>,
    /// Convergence study with velocity Verlet.
    pub convergence: Option<Convergence>,
    /// Convergence studies for every integrator run.
    pub convergence_all: Vec<Convergence>,
    /// Stability demonstration (when coupled ω_max exceeds the estimate).
    pub stability: Option<Stability>,
}
