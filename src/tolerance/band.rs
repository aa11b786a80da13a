//! Sweeps with a band: at each sweep point, the smallest and largest value
//! of each plotted quantity over the corners of the other toleranced
//! parameters (the swept one takes the sweep's value).

use super::sweep_value;
use crate::analysis::{self, sweep::SweepResult};
use crate::case::{Case, Env, Quantity};
use crate::model;

/// Most model evaluations one sweep's band may take (points × corners);
/// above, the corners are those of the first toleranced parameters (in
/// case order) that fit, and the sweep's note says so.
pub const BAND_EVALUATIONS: usize = 2048;

/// Fills `band_lo`/`band_hi` of every series of every sweep of a case with
/// tolerances, and each sweep's `band_note`.
pub fn bands(case: &Case, sweeps: &mut [SweepResult]) {
    let all = case.toleranced();
    if all.is_empty() {
        return;
    }
    for (sweep, result) in case.sweeps.iter().zip(sweeps.iter_mut()) {
        let mut with: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&p| p != sweep.parameter)
            .collect();
        if with.is_empty() {
            continue;
        }
        let points = result.x.len().max(1);
        let mut k = with.len();
        while k > 0 && points << k > BAND_EVALUATIONS {
            k -= 1;
        }
        let left: Vec<String> = with[k..]
            .iter()
            .map(|&p| case.parameters[p].name.clone())
            .collect();
        with.truncate(k);
        let impacts: Vec<usize> = sweep
            .plot
            .iter()
            .filter_map(|(_, q)| match q {
                Quantity::Impact(_, i, _) => Some(*i),
                _ => None,
            })
            .collect();
        let n_series = result.series.len();
        let mut lo: Vec<Vec<Option<f64>>> = vec![vec![None; points]; n_series];
        let mut hi: Vec<Vec<Option<f64>>> = vec![vec![None; points]; n_series];
        for (i, &x) in result.x.iter().enumerate() {
            for b in 0..1usize << with.len() {
                if crate::control::cancelled() || crate::control::spent() {
                    break;
                }
                let mut overrides = crate::case::corner(case, &with, b);
                overrides.push((sweep.parameter, x));
                let Ok(env) = Env::with_overrides(case, &overrides) else {
                    continue;
                };
                if case.violation(&env).is_some() {
                    continue;
                }
                let Ok(m) = model::build(case, &mut |v| env.si(v)) else {
                    continue;
                };
                let Ok(an) = analysis::analyze_for(case, &m, &impacts) else {
                    continue;
                };
                for (s, (_, q)) in sweep.plot.iter().enumerate() {
                    let Some(v) = sweep_value(q, &an).filter(|v| v.is_finite()) else {
                        continue;
                    };
                    if lo[s][i].is_none_or(|l| v < l) {
                        lo[s][i] = Some(v);
                    }
                    if hi[s][i].is_none_or(|h| v > h) {
                        hi[s][i] = Some(v);
                    }
                }
            }
        }
        for (s, series) in result.series.iter_mut().enumerate() {
            series.band_lo = Some(std::mem::take(&mut lo[s]));
            series.band_hi = Some(std::mem::take(&mut hi[s]));
        }
        let names: Vec<&str> = with
            .iter()
            .map(|&p| case.parameters[p].name.as_str())
            .collect();
        let mut note = format!(
            "The band: the smallest and largest value over the {} corners of the tolerances of {} at each point.",
            1usize << with.len(),
            names.join(", ")
        );
        if !left.is_empty() {
            note.push_str(&format!(
                " {} held at nominal: {points} points × more corners would exceed {BAND_EVALUATIONS} evaluations.",
                left.join(", ")
            ));
        }
        if crate::control::spent() {
            note.push_str(" The work allowance ran out: later points have no band.");
        }
        result.band_note = Some(note);
    }
}
