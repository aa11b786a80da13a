//! Hertz contacts' results with the exact effective mass: the linearised
//! stiffness, the closed-form impact at `impact_speed`, and the Hertz-time
//! rule's safety factor against the step to use (docs/physics.md).

use super::Analysis;
use crate::case::{Case, ContactLaw};
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
                    dt_at_peak: 2.0 / (x.peak_stiffness / m).sqrt(),
                    hertz_time_factor: governing.map(|g| g / x.duration),
                }
            });
            Some(HertzResult {
                contact: c.name.clone(),
                coefficient: h.coefficient,
                overlap: h.overlap,
                stiffness: r.stiffness,
                m_eff: r.m_eff,
                impact,
            })
        })
        .collect()
}
