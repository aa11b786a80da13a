//! On a sheet with Hertz contacts, the state each fastest mode and step
//! holds at: the static linearisation (the stiffness at the overlap the
//! case gives, or under its load), or the peak of a Hertz impact, where the
//! stiffnesses are largest and the step to use holds (issue 38). The
//! templates and the text output name the state on every line that states
//! a fastest mode or a step; JSON `hertz_states`.

use crate::analysis::Analysis;
use crate::analysis::hertz_contacts::static_omega_max;
use serde::Serialize;

/// The state a figure holds at (a closed set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// The Hertz contacts at their linearised overlap.
    Static,
    /// Every Hertz contact with an impact speed at its largest overlap.
    AtPeak,
}

/// The fastest mode and steps in one state (over every row).
#[derive(Clone, Debug, Serialize)]
pub struct Figures {
    /// The fastest coupled mode ω_max (rad/s).
    pub omega_max: f64,
    /// An upper bound ω̄ ≥ ω_max (rad/s).
    pub omega_upper_bound: f64,
    /// `2/ω_max` (s).
    pub coupled: Option<f64>,
    /// The guaranteed step from bounds (s).
    pub guaranteed: Option<f64>,
    /// The step to use in this state (s).
    pub governing: Option<f64>,
}

/// Both states of a Hertz sheet, and which one governs.
#[derive(Clone, Debug, Serialize)]
pub struct HertzStates {
    /// The state of the step to use (`stable_dt.governing`) and of the
    /// fastest mode it comes from: `at_peak` where a Hertz impact's peak
    /// sets it, else `static`.
    pub governing: State,
    /// The static linearisation (`coupled_omega_max`, the modes and the
    /// step table's static rows are these).
    #[serde(rename = "static")]
    pub linearised: Figures,
    /// At the peak of the Hertz impacts (`null` without an impact speed).
    pub at_peak: Option<Figures>,
}

/// The states of a sheet whose case has Hertz contacts (`hertz`: it has).
pub fn states(an: &Analysis, hertz: bool) -> Option<HertzStates> {
    if !hertz {
        return None;
    }
    let (bound, dt) = match &an.tangential {
        Some(t) => (t.omega_upper_bound, &t.stable_dt),
        None => (an.coupled_omega_upper_bound, &an.stable_dt),
    };
    let peak = an.hertz_peak.as_ref();
    Some(HertzStates {
        governing: match peak {
            Some(p) if p.governs() => State::AtPeak,
            _ => State::Static,
        },
        linearised: Figures {
            omega_max: static_omega_max(an),
            omega_upper_bound: bound,
            coupled: dt.coupled,
            guaranteed: peak.map_or(an.stable_dt.guaranteed, |p| p.static_guaranteed),
            governing: peak.map_or(an.stable_dt.governing.map(|(h, _)| h), |p| {
                p.static_governing
            }),
        },
        at_peak: peak.map(|p| Figures {
            omega_max: p.omega_max,
            omega_upper_bound: p.omega_upper_bound,
            coupled: p.coupled,
            guaranteed: p.guaranteed,
            governing: p.governing,
        }),
    })
}

impl HertzStates {
    /// The figures of the state that governs.
    pub fn governing_figures(&self) -> &Figures {
        match (self.governing, &self.at_peak) {
            (State::AtPeak, Some(p)) => p,
            _ => &self.linearised,
        }
    }
}

impl super::Report {
    /// The fastest coupled mode the step to use comes from (rad/s): at the
    /// peak of a Hertz impact where that governs, else `coupled_omega_max`.
    pub fn governing_omega_max(&self) -> f64 {
        self.hertz_states
            .as_ref()
            .map_or(self.coupled_omega_max, |s| s.governing_figures().omega_max)
    }
}
