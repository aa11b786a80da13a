//! Sweeps: results against one parameter (`[[sweep]]`), for plots.

use super::claims::value_of;
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
    /// Quantities.
    pub series: Vec<SweepSeries>,
}

/// Evaluates a sweep: the model is rebuilt and re-analysed at each point.
pub fn run(case: &Case, sweep: &Sweep) -> SweepResult {
    let p = &case.parameters[sweep.parameter];
    let n = sweep.points.max(2);
    let x: Vec<f64> = (0..n)
        .map(|i| sweep.from.si + (sweep.to.si - sweep.from.si) * i as f64 / (n - 1) as f64)
        .collect();
    let analyses: Vec<Option<(super::Analysis, Vec<Option<f64>>)>> = x
        .iter()
        .map(|&v| {
            let env = Env::with_overrides(case, &[(sweep.parameter, v)]).ok()?;
            let m = model::build(case, &mut |val| env.si(val)).ok()?;
            let naive = (0..m.contacts.len()).map(|i| m.naive_mass(i)).collect();
            Some((super::analyze_for(case, &m).ok()?, naive))
        })
        .collect();
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
            }
        })
        .collect();
    SweepResult {
        parameter: p.name.clone(),
        unit: if p.value.dim.is_none() {
            String::new()
        } else {
            p.value.dim.to_string()
        },
        x,
        series,
    }
}
