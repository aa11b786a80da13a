//! Sweeps: results against one parameter (`[[sweep]]`), for plots.

use super::value_of;
use crate::case::{Case, Env, Quantity, Sweep};
use crate::model;
use serde::Serialize;

/// One plotted quantity of a sweep.
#[derive(Clone, Debug, Serialize)]
pub struct SweepSeries {
    /// The quantity as written (`m_eff(c)`).
    pub of: String,
    /// SI unit.
    pub unit: &'static str,
    /// Values at the sweep points (`null` where undefined, e.g. immobile).
    pub values: Vec<Option<f64>>,
    /// The naive estimate at the same points, for `m_eff` and `omega`.
    pub naive: Option<Vec<Option<f64>>>,
    /// With tolerances: the smallest value over the tolerance box's corners
    /// at each point (`tolerance::bands`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub band_lo: Option<Vec<Option<f64>>>,
    /// With tolerances: the largest value over the corners at each point.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub band_hi: Option<Vec<Option<f64>>>,
}

/// A computed sweep.
#[derive(Clone, Debug, Serialize)]
pub struct SweepResult {
    /// Parameter swept.
    pub parameter: String,
    /// Its SI unit.
    pub unit: String,
    /// Parameter values (SI).
    pub x: Vec<f64>,
    /// The unit the case wrote the sweep's values in, for plots and tables:
    /// `deg` for an angle typed in degrees, else the SI unit.
    pub shown_unit: String,
    /// `x` times this is in `shown_unit` (180/π for degrees, else 1).
    pub shown_scale: f64,
    /// Quantities.
    pub series: Vec<SweepSeries>,
    /// Why points are missing beyond the invalid ones: the evaluation's
    /// work allowance ([`crate::control`]) ran out.
    pub note: Option<String>,
    /// With tolerances: how the band was formed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub band_note: Option<String>,
}

/// Evaluates a sweep: the model is rebuilt and re-analysed at each point.
///
/// The thread's stop request ([`crate::control`]) is asked before each
/// point; once it is set the remaining points are left empty (the caller
/// has abandoned the evaluation).
pub fn run(case: &Case, sweep: &Sweep) -> SweepResult {
    let p = &case.parameters[sweep.parameter];
    let n = sweep.points.max(2);
    let x: Vec<f64> = (0..n).map(|i| sweep.point(i)).collect();
    // Impacts are solved at a point only when an impact quantity is
    // plotted (and identical impact inputs only once: control::cached).
    let impacts: Vec<usize> = sweep
        .plot
        .iter()
        .filter_map(|(_, q)| match q {
            Quantity::Impact(_, i, _) => Some(*i),
            _ => None,
        })
        .collect();
    // The first point the work allowance did not cover.
    let mut spent_at: Option<usize> = None;
    let analyses: Vec<Option<(super::Analysis, Vec<Option<f64>>)>> = x
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            if crate::control::cancelled() || spent_at.is_some() {
                return None;
            }
            let point = || {
                let env = Env::with_overrides(case, &[(sweep.parameter, v)]).ok()?;
                let (m, laws) = model::build_at(case, &env)?;
                let naive = (0..m.contacts.len()).map(|i| m.naive_mass(i)).collect();
                Some((super::analyze_for(case, &m, &laws, &impacts).ok()?, naive))
            };
            let out = point();
            if crate::control::spent() {
                spent_at = Some(i);
                return None;
            }
            out
        })
        .collect();
    let note = spent_at.map(|i| {
        format!(
            "{} of the {n} points (from {} {} on) are left out: the evaluation's work allowance for impacts, sweeps and claim probes was spent",
            n - i,
            crate::number::sci(x[i] , 4),
            p.value.dim
        )
    });
    let series = sweep
        .plot
        .iter()
        .map(|(text, q)| {
            let values = analyses
                .iter()
                .map(|a| a.as_ref().and_then(|(an, _)| value_of(q, an).ok()))
                .collect();
            let naive = match q {
                Quantity::MEff(i) => Some(
                    analyses
                        .iter()
                        .map(|a| a.as_ref().and_then(|(_, nv)| nv[*i]))
                        .collect(),
                ),
                Quantity::Omega(i) => Some(
                    analyses
                        .iter()
                        .map(|a| {
                            a.as_ref().and_then(|(an, nv)| {
                                nv[*i].map(|m| (an.contacts[*i].stiffness / m).sqrt())
                            })
                        })
                        .collect(),
                ),
                _ => None,
            };
            SweepSeries {
                of: text.clone(),
                unit: q.unit(),
                values,
                naive: naive.filter(|v: &Vec<Option<f64>>| v.iter().any(Option::is_some)),
                band_lo: None,
                band_hi: None,
            }
        })
        .collect();
    let unit = if p.value.dim.is_none() {
        String::new()
    } else {
        p.value.dim.to_string()
    };
    let degrees = |t: &str| t.contains("deg") || t.contains('°');
    let in_degrees = unit.is_empty()
        && (degrees(&sweep.from.text) || degrees(&sweep.to.text) || degrees(&p.value.text));
    let (shown_unit, shown_scale) = if in_degrees {
        ("deg".to_string(), 180.0 / std::f64::consts::PI)
    } else {
        (unit.clone(), 1.0)
    };
    SweepResult {
        parameter: p.name.clone(),
        unit,
        x,
        shown_unit,
        shown_scale,
        series,
        note,
        band_note: None,
    }
}
