//! The coupled modes and the stable explicit timesteps a report states,
//! and the one rule that compares a step estimate with its limit.

use serde::Serialize;

/// A coupled mode.
#[derive(Clone, Debug, Serialize)]
pub struct ModeReport {
    /// rad/s.
    pub omega: f64,
    /// Hz.
    pub frequency: f64,
    /// Gap-space shape, largest component +1.
    pub shape: Vec<f64>,
}

/// A damped coupled mode.
#[derive(Clone, Debug, Serialize)]
pub struct DampedModeReport {
    /// rad/s.
    pub omega: f64,
    /// Damping ratio.
    pub zeta: f64,
}

/// Stable explicit timesteps (s).
#[derive(Clone, Debug, Serialize)]
pub struct StableDtReport {
    /// From the coupled modes.
    pub coupled: Option<f64>,
    /// From the independent estimate.
    pub independent: Option<f64>,
    /// `independent / coupled`: how much too large the independent estimate is.
    pub independent_over_coupled: Option<f64>,
    /// A step that is stable whatever the modes, from bounds alone:
    /// `2 / coupled_omega_upper_bound` without dashpots; with dashpots the
    /// energy bound `2/(γ̄/2 + √(γ̄²/4 + ω̄²))` (docs/physics.md).
    pub guaranteed: Option<f64>,
    /// The step to use: the exact limit of the system as given (the damped
    /// one with dashpots); the summary states it.
    pub governing: Option<f64>,
    /// What sets `governing`: `coupled_mode` (2/ω_max), `upper_bound`
    /// (2/ω̄, the fastest mode not converged), `damped_step_map` (the
    /// dashpots' step map) or `damped_energy_bound` (dashpots where the
    /// step map is not formed).
    pub governing_by: Option<&'static str>,
    /// With tolerances: the step to use at the nominal inputs (`governing`
    /// is then the smallest over the tolerance box's corners).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nominal_governing: Option<f64>,
    /// With tolerances: the guaranteed step at the nominal inputs
    /// (`guaranteed` is then the smallest over the tolerance box's points;
    /// this one follows from `coupled_omega_upper_bound`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nominal_guaranteed: Option<f64>,
    /// With tolerances: how many corners `governing` is the smallest over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub governing_corners: Option<usize>,
    /// Coupled, with explicit damping.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coupled_damped: Option<f64>,
    /// Independent, with explicit damping.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub independent_damped: Option<f64>,
}

/// How much larger than `limit` an estimate of a step is, when it is larger
/// beyond the limits' own precision: the damped step map's limit is lowered
/// by 10⁻⁶ (analysis::stable), so an estimate within 10⁻⁵ of it is the same
/// step (one contact's closed form against its own step map), not an unsafe
/// one.
pub fn step_excess(estimate: f64, limit: f64) -> Option<f64> {
    (estimate > limit * (1.0 + 1e-5)).then(|| estimate / limit)
}
