//! Sweeps with a band: at each sweep point, the smallest and largest value
//! of each plotted quantity over the box of the other toleranced
//! parameters (the swept one takes the sweep's value), found by the same
//! search as the Tolerances section's results ([`super::search::explore`]):
//! every corner, and inside the box where a value is not monotone.

use super::End;
use super::search::{Eval, MAX_GRID, Values, explore, left_out_width};
use super::sweep_value;
use crate::analysis::{self, sweep::SweepResult};
use crate::case::{Case, Env, Quantity, Sweep};
use crate::model;

/// Most grid points one sweep's band may evaluate (points × grid); the
/// grid at a point is at most this over the points (and at most
/// [`MAX_GRID`]): beyond, the interior levels are dropped, then the
/// corners are those of the parameters of largest effect, the others'
/// first-order effect added (the sweep's note says so).
pub const BAND_EVALUATIONS: usize = 16384;

/// The plotted values of a sweep at a point of the box.
fn plotted(case: &Case, sweep: &Sweep, impacts: &[usize], o: &[(usize, f64)]) -> Option<Values> {
    let env = Env::with_overrides(case, o).ok()?;
    if case.violation(&env).is_some() {
        return None;
    }
    let (m, laws) = model::build_at(case, &env)?;
    let an = analysis::analyze_for(case, &m, &laws, impacts).ok()?;
    Some(
        sweep
            .plot
            .iter()
            .map(|(_, q)| sweep_value(q, &an).filter(|v| v.is_finite()))
            .collect(),
    )
}

/// What the searches of one sweep did, for its note.
#[derive(Default)]
struct Done {
    inside: Vec<usize>,
    largest_effect: bool,
    interior_dropped: bool,
    failed: usize,
}

/// Fills `band_lo`/`band_hi` of every series of every sweep of a case with
/// tolerances, and each sweep's `band_note`.
pub fn bands(case: &Case, sweeps: &mut [SweepResult]) {
    let all = case.toleranced();
    if all.is_empty() {
        return;
    }
    for (sweep, result) in case.sweeps.iter().zip(sweeps.iter_mut()) {
        let with: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&p| p != sweep.parameter)
            .collect();
        if with.is_empty() {
            continue;
        }
        let points = result.x.len().max(1);
        let max_grid = (BAND_EVALUATIONS / points).clamp(1, MAX_GRID);
        let impacts: Vec<usize> = sweep
            .plot
            .iter()
            .filter_map(|(_, q)| match q {
                Quantity::Impact(_, i, _) => Some(*i),
                _ => None,
            })
            .collect();
        let eval = |o: &[(usize, f64)]| plotted(case, sweep, &impacts, o);
        let n_series = result.series.len();
        let mut lo: Vec<Vec<Option<f64>>> = vec![vec![None; points]; n_series];
        let mut hi: Vec<Vec<Option<f64>>> = vec![vec![None; points]; n_series];
        let mut done = Done::default();
        for (i, &x) in result.x.iter().enumerate() {
            if crate::control::cancelled() || crate::control::spent() {
                break;
            }
            let base = [(sweep.parameter, x)];
            let Some(e) = explore(case, &with, &base, &eval, max_grid) else {
                continue;
            };
            done.largest_effect |= e.method == super::Method::LargestEffect;
            done.interior_dropped |= e.interior_dropped;
            done.failed += e.ex.failed;
            for (c, levels) in e.chosen.iter().zip(&e.grid) {
                if levels.iter().any(|l| l.1 == End::Inside) && !done.inside.contains(&with[*c]) {
                    done.inside.push(with[*c]);
                }
            }
            let rest = left_out(case, &with, &base, &eval, &e.chosen, n_series);
            for s in 0..n_series {
                let Some(q0) = e.probe.nominal[s] else {
                    continue;
                };
                lo[s][i] = e.ex.lo[s].as_ref().map(|(v, _)| v.min(q0) - rest[s]);
                hi[s][i] = e.ex.hi[s].as_ref().map(|(v, _)| v.max(q0) + rest[s]);
            }
        }
        for (s, series) in result.series.iter_mut().enumerate() {
            series.band_lo = Some(std::mem::take(&mut lo[s]));
            series.band_hi = Some(std::mem::take(&mut hi[s]));
        }
        result.band_note = Some(note(case, &with, &done, points, max_grid));
    }
}

/// Per series: the first-order width of the parameters left out of the
/// corners (central differences at ±10⁻³ of their half-widths).
fn left_out(
    case: &Case,
    with: &[usize],
    base: &[(usize, f64)],
    eval: Eval,
    chosen: &[usize],
    n_series: usize,
) -> Vec<f64> {
    if chosen.len() == with.len() {
        return vec![0.0; n_series];
    }
    let contrib: Vec<Vec<f64>> = with
        .iter()
        .enumerate()
        .map(|(j, &p)| {
            if chosen.contains(&j) {
                return vec![0.0; n_series];
            }
            let par = &case.parameters[p];
            let half = par.tolerance.as_ref().map_or(0.0, |t| t.half_width());
            let h = 1e-3 * half;
            let at = |x: f64| {
                let mut o = base.to_vec();
                o.push((p, x));
                eval(&o)
            };
            let (up, down) = (at(par.value.si + h), at(par.value.si - h));
            (0..n_series)
                .map(|s| {
                    let u = up.as_ref().and_then(|v| v[s]);
                    let d = down.as_ref().and_then(|v| v[s]);
                    match (u, d) {
                        (Some(u), Some(d)) => ((u - d) / (2.0 * h)).abs() * half,
                        _ => 0.0,
                    }
                })
                .collect()
        })
        .collect();
    (0..n_series)
        .map(|s| {
            let per: Vec<f64> = contrib.iter().map(|c| c[s]).collect();
            left_out_width(&per, chosen)
        })
        .collect()
}

fn note(case: &Case, with: &[usize], done: &Done, points: usize, max_grid: usize) -> String {
    let name = |p: &usize| case.parameters[*p].name.as_str();
    let names: Vec<&str> = with.iter().map(name).collect();
    let mut note = format!(
        "The band: at each point, the smallest and largest value over the tolerances of {}, searched as the Tolerances section's results are: every corner",
        names.join(", ")
    );
    if !done.inside.is_empty() {
        let inside: Vec<&str> = done.inside.iter().map(name).collect();
        note.push_str(&format!(
            ", and for {} (a value is not monotone in it) the interior extremes of a {}-point scan, refined",
            inside.join(", "),
            super::search::SCAN_POINTS
        ));
    }
    note.push('.');
    if done.interior_dropped {
        note.push_str(&format!(
            " At some points the interior levels are left out: {points} points × the grid would exceed {BAND_EVALUATIONS} evaluations."
        ));
    }
    if done.largest_effect {
        note.push_str(&format!(
            " {points} points × every corner would exceed {BAND_EVALUATIONS} evaluations: the corners are those of the parameters of largest effect ({max_grid} points at most), the others' first-order effect added to both ends; an estimate, not a guaranteed bound."
        ));
    }
    if done.failed > 0 {
        note.push_str(&format!(
            " {} points of the box could not be evaluated and are left out.",
            done.failed
        ));
    }
    if crate::control::spent() {
        note.push_str(" The work allowance ran out: later points have no band.");
    }
    note
}
