//! Hertz contacts' results with the exact effective mass: the linearised
//! stiffness, the closed-form impact at `impact_speed`, and the Hertz-time
//! rule's safety factor against the step to use (docs/physics.md).

use super::Analysis;
use crate::case::{Case, ContactLaw, HertzLaw};
use crate::model::{Model, Scaled};
use serde::Serialize;

/// One Hertz contact.
#[derive(Clone, Debug, Serialize)]
pub struct HertzResult {
    /// The contact.
    pub contact: String,
    /// `K` (N/m^1.5).
    pub coefficient: f64,
    /// The overlap the stiffness is linearised at (m).
    pub overlap: f64,
    /// `3/2 K √δ` (N/m): the stiffness the analysis uses.
    pub stiffness: f64,
    /// The exact effective mass 1/A_ii (kg); `null` when immobile.
    pub m_eff: Option<f64>,
    /// The impact at `impact_speed`, when given and the contact moves.
    pub impact: Option<HertzImpactResult>,
    /// `E*` (Pa), as given or from the materials.
    pub modulus: Option<f64>,
    /// Mindlin's `G*` (Pa), as given or from the materials.
    pub shear_modulus: Option<f64>,
    /// Whether E* and G* come from `material` and `other_material`.
    pub from_materials: bool,
    /// Mindlin's tangential stiffness at the linearised overlap (N/m).
    pub tangential_stiffness: Option<f64>,
    /// The Rayleigh-time rule, where the case gives the materials.
    pub rayleigh: RayleighRule,
}

/// The Rayleigh-time rule `Δt = f·T_R`, `T_R = π R √(ρ/G)/(0.1631 ν +
/// 0.8766)` (Li, Xu & Thornton 2005), against the step to use.
#[derive(Clone, Debug, Serialize)]
pub struct RayleighRule {
    /// `T_R` (s); `null` when the case lacks what it needs.
    pub time: Option<f64>,
    /// The step to use over `T_R`: the fraction f a rule `Δt = f·T_R` must
    /// use to give meff's step (`null` without `T_R`).
    pub factor: Option<f64>,
    /// What the case lacks for `T_R` (`null` when it is given).
    pub missing: Option<String>,
}

/// A Hertz impact in closed form with the exact m_eff.
#[derive(Clone, Debug, Serialize)]
pub struct HertzImpactResult {
    /// Approach speed (m/s).
    pub speed: f64,
    /// Largest overlap (m).
    pub max_overlap: f64,
    /// Peak force (N).
    pub peak_force: f64,
    /// Contact duration, the Hertz time t_c (s).
    pub duration: f64,
    /// The linearised stiffness at the peak (N/m).
    pub peak_stiffness: f64,
    /// `2/√(k_peak/m_eff)`: this row alone at the peak stiffness (s).
    pub dt_at_peak: f64,
    /// The step to use (`stable_dt.governing`) over t_c: the fraction of
    /// the Hertz time a "Δt = f·t_c" rule must use to give meff's step.
    pub hertz_time_factor: Option<f64>,
}

/// The Hertz contacts of `case` with the analysis' effective masses.
pub fn results(case: &Case, an: &Analysis) -> Vec<HertzResult> {
    let governing = an.stable_dt.governing.map(|(h, _)| h);
    case.contacts
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let ContactLaw::Hertz(h) = &c.law else {
                return None;
            };
            let r = an.contacts.get(i)?;
            let impact = h.impact_speed.zip(r.m_eff).map(|(v, m)| {
                let x = crate::hertz::impact(m, h.coefficient, v);
                HertzImpactResult {
                    speed: v,
                    max_overlap: x.max_overlap,
                    peak_force: x.peak_force,
                    duration: x.duration,
                    peak_stiffness: x.peak_stiffness,
                    dt_at_peak: 2.0 / x.omega_alone(m),
                    hertz_time_factor: governing.map(|g| g / x.duration),
                }
            });
            let rayleigh = match &h.materials {
                None => Err(
                    "needs the materials (material and other_material: E or G, ν, density, radius)"
                        .to_string(),
                ),
                Some(m) => m.rayleigh_time(),
            };
            Some(HertzResult {
                contact: c.name.clone(),
                coefficient: h.coefficient,
                overlap: h.overlap,
                stiffness: r.stiffness,
                m_eff: r.m_eff,
                impact,
                modulus: h.modulus,
                shear_modulus: h.shear_modulus,
                from_materials: h.materials.is_some(),
                tangential_stiffness: h.tangential_stiffness,
                rayleigh: RayleighRule {
                    time: rayleigh.as_ref().ok().copied(),
                    factor: rayleigh.as_ref().ok().zip(governing).map(|(t, g)| g / t),
                    missing: rayleigh.err(),
                },
            })
        })
        .collect()
}

/// A Hertz contact at the peak of its impact: the linearised stiffnesses
/// the case reaches there.
#[derive(Clone, Debug, Serialize)]
pub struct PeakContact {
    /// Contact index.
    #[serde(skip)]
    pub index: usize,
    /// The contact.
    pub contact: String,
    /// The overlap at the peak δ_max (m).
    pub max_overlap: f64,
    /// The normal stiffness there, `3/2 K √δ_max` (N/m).
    pub stiffness: f64,
    /// Mindlin's tangential stiffness there, `8 G* √(R* δ_max)` (N/m),
    /// when the contact has it.
    pub tangential_stiffness: Option<f64>,
    /// The struck row alone at its peak, `√(k_peak/m_eff)` (rad/s):
    /// [`crate::hertz::HertzImpact::omega_alone`].
    #[serde(skip)]
    pub omega_alone: f64,
}

/// The step at the peak of the case's Hertz impacts: every Hertz contact
/// with an `impact_speed` at its largest overlap at once (the largest
/// linearised stiffnesses the case reaches), every other contact as
/// linearised; over every row.
#[derive(Clone, Debug, Serialize)]
pub struct PeakStep {
    /// The contacts at their peak.
    pub contacts: Vec<PeakContact>,
    /// ω_max at the peak, over every row (rad/s).
    pub omega_max: f64,
    /// The step to use at the peak (s): the smaller of [`Self::stable`] and
    /// [`Self::resolution`].
    pub governing: Option<f64>,
    /// What sets the linear limit at the peak (as `stable_dt.governing_by`).
    pub governing_by: Option<&'static str>,
    /// The linear system's limit at the peak, 2/ω_max there (or the step
    /// map's with dashpots) (s): what the verification simulates.
    pub limit: Option<f64>,
    /// [`crate::hertz::overshoot_factor`].
    pub overshoot_factor: f64,
    /// `limit × overshoot_factor`: stable through the overlap an explicit
    /// step overshoots to (s).
    pub stable: Option<f64>,
    /// The largest step that keeps each Hertz impact's rebound energy
    /// within [`Self::rebound_tolerance`], one row at a time:
    /// `resolution_factor × 2/ω_peak` of the fastest contact's row (s).
    pub resolution: Option<f64>,
    /// [`crate::hertz::resolution_factor_default`].
    pub resolution_factor: f64,
    /// [`crate::hertz::REBOUND_TOLERANCE`].
    pub rebound_tolerance: f64,
    /// `"impact_resolution"` or `"overshoot"`: which of the two sets
    /// [`Self::governing`].
    pub set_by: &'static str,
    /// The guaranteed step at the peak (s), times the overshoot factor.
    pub guaranteed: Option<f64>,
    /// The step to use from the static linearisation only (s): not stable
    /// at the peak when larger than `governing`.
    pub static_governing: Option<f64>,
    /// An upper bound ω̄ ≥ ω_max at the peak, over every row (rad/s).
    pub omega_upper_bound: f64,
    /// `2/ω_max` at the peak (s).
    pub coupled: Option<f64>,
    /// The guaranteed step from the static linearisation only (s).
    pub static_guaranteed: Option<f64>,
}

impl PeakStep {
    /// True when the step to use is the peak's (not larger than the
    /// static one): the state the sheet's step and fastest mode hold at.
    pub fn governs(&self) -> bool {
        self.governing
            .is_some_and(|g| self.static_governing.is_none_or(|s| g <= s))
    }
}

/// The fastest coupled mode over every row at the linearised (static)
/// stiffnesses (rad/s).
pub fn static_omega_max(an: &Analysis) -> f64 {
    an.tangential
        .as_ref()
        .map_or(an.coupled_omega_max, |t| t.omega_max)
}

/// The fastest coupled mode of the state the step to use holds at (rad/s):
/// at the peak of a Hertz impact where that governs, else
/// [`static_omega_max`].
pub fn governing_omega_max(an: &Analysis) -> f64 {
    match &an.hertz_peak {
        Some(p) if p.governs() => p.omega_max,
        _ => static_omega_max(an),
    }
}

/// The model at the peak of the impacts of `step`.
pub fn peak_model(model: &Model<f64>, step: &PeakStep) -> Model<f64> {
    at_peak(model, &step.contacts)
}

/// The model with the Hertz contacts of `peaks` at their peak stiffness.
fn at_peak(model: &Model<f64>, peaks: &[PeakContact]) -> Model<f64> {
    let mut m = model.clone();
    for p in peaks {
        let c = &mut m.contacts[p.index];
        c.stiffness = p.stiffness;
        if let (Some(t), Some(kt)) = (c.tangential.as_mut(), p.tangential_stiffness) {
            t.stiffness = Scaled::Absolute(kt);
        }
    }
    m
}

/// The Hertz contacts with an `impact_speed`, at their peak (`laws`: each
/// Hertz contact's law at the point analysed).
fn peaks(model: &Model<f64>, laws: &[(usize, HertzLaw)], an: &Analysis) -> Vec<PeakContact> {
    laws.iter()
        .filter_map(|(i, h)| {
            let m = an.contacts.get(*i)?.m_eff?;
            let x = crate::hertz::impact(m, h.coefficient, h.impact_speed?);
            Some(PeakContact {
                index: *i,
                contact: model.contacts.get(*i)?.name.clone(),
                max_overlap: x.max_overlap,
                stiffness: x.peak_stiffness,
                tangential_stiffness: h
                    .shear_modulus
                    .zip(h.radius)
                    .map(|(g, r)| crate::hertz::mindlin(g, r, x.max_overlap)),
                omega_alone: x.omega_alone(m),
            })
        })
        .collect()
}

/// Where a Hertz contact has an impact, the step to use must hold at its
/// peak: the analysis is run again with the peak stiffnesses, and the
/// step to use and the guaranteed one become the smaller of the two (the
/// static ones stay in [`PeakStep::static_governing`]). Without a Hertz
/// impact, `an` unchanged. `laws`: the Hertz laws at the point `model` is
/// built at ([`Case::hertz_laws`] for the case's own values,
/// `model::build_at` elsewhere).
pub fn with_impact_peaks(
    laws: &[(usize, HertzLaw)],
    model: &Model<f64>,
    mut an: Analysis,
) -> Result<Analysis, super::AnalysisError> {
    let peaks = peaks(model, laws, &an);
    if peaks.is_empty() || an.large.is_some() {
        return Ok(an);
    }
    let peak = super::analyze(&at_peak(model, &peaks))?;
    let omega_max = static_omega_max(&peak);
    let omega_upper_bound = peak
        .tangential
        .as_ref()
        .map_or(peak.coupled_omega_upper_bound, |t| t.omega_upper_bound);
    let static_governing = an.stable_dt.governing;
    let static_guaranteed = an.stable_dt.guaranteed;
    let min = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let overshoot = crate::hertz::overshoot_factor();
    let resolution_factor = crate::hertz::resolution_factor_default();
    let limit = peak.stable_dt.governing;
    let stable = limit.map(|(h, _)| h * overshoot);
    // Each struck row alone at its peak: 2/√(k_peak/m_eff).
    let resolution = peaks
        .iter()
        .map(|p| resolution_factor * 2.0 / p.omega_alone)
        .reduce(f64::min);
    let step = min(stable, resolution);
    let set_by = if resolution.zip(stable).is_some_and(|(r, s)| r < s) {
        "impact_resolution"
    } else {
        "overshoot"
    };
    if let (Some(h), Some((_, by))) = (step, limit)
        && static_governing.is_none_or(|(s, _)| h <= s)
    {
        an.stable_dt.governing = Some((h, by));
    }
    let guaranteed_peak = min(peak.stable_dt.guaranteed.map(|g| g * overshoot), resolution);
    an.stable_dt.guaranteed = min(an.stable_dt.guaranteed, guaranteed_peak)
        .map(|g| an.stable_dt.governing.map_or(g, |(h, _)| g.min(h)));
    an.hertz_peak = Some(PeakStep {
        contacts: peaks,
        omega_max,
        governing: step,
        governing_by: limit.map(|(_, g)| g.key()),
        limit: limit.map(|(h, _)| h),
        overshoot_factor: overshoot,
        stable,
        resolution,
        resolution_factor,
        rebound_tolerance: crate::hertz::REBOUND_TOLERANCE,
        set_by,
        guaranteed: guaranteed_peak,
        static_governing: static_governing.map(|(h, _)| h),
        omega_upper_bound,
        coupled: super::dt_undamped(omega_max),
        static_guaranteed,
    });
    Ok(an)
}
