//! The search of the tolerance box: each parameter's ends one at a time
//! (swing, monotonicity), first-order derivatives, and the grid of levels
//! — the two ends of every parameter, and for a parameter some result is
//! not monotone in, the interior extremes of a scan — evaluated point by
//! point.

use super::{
    Bound, CornerEnd, End, InputBound, Method, Tolerances, Tracked, derivatives, tracked, values_at,
};
use crate::analysis::Analysis;
use crate::case::Case;
use crate::limits::TOLERANCE_CORNER_PARAMETERS;
use crate::symbolic::Sensitivity;

/// Points of the scan of a parameter some result is not monotone in
/// (its ends included).
pub const SCAN_POINTS: usize = 9;

/// Most interior levels a non-monotone parameter adds to the grid.
pub const MAX_INTERIOR: usize = 2;

/// Most grid points evaluated; above, the interior levels are dropped
/// (the corners alone, 2^8 at most, stay).
pub const MAX_GRID: usize = 1024;

type Values = Vec<Option<f64>>;

/// What one-at-a-time evaluations tell about each toleranced parameter.
struct Probe {
    tracked: Vec<Tracked>,
    nominal: Values,
    /// Per parameter: ∂q/∂p per result, and whether it is exact.
    deriv: Vec<Vec<(Option<f64>, bool)>>,
    /// Per parameter: the results at its low and high end alone.
    ends: Vec<[Option<Values>; 2]>,
}

impl Probe {
    /// The largest change of result k from parameter j's ends alone.
    fn swing(&self, j: usize, k: usize) -> f64 {
        let Some(q0) = self.nominal[k] else {
            return 0.0;
        };
        self.ends[j]
            .iter()
            .filter_map(|e| e.as_ref().and_then(|v| v[k]))
            .map(|q| (q - q0).abs())
            .fold(0.0, f64::max)
    }

    /// True when both ends of parameter j move result k the same way.
    fn non_monotone(&self, j: usize, k: usize) -> bool {
        let Some(q0) = self.nominal[k] else {
            return false;
        };
        let at = |e: usize| self.ends[j][e].as_ref().and_then(|v| v[k]);
        let (Some(a), Some(b)) = (at(0), at(1)) else {
            return false;
        };
        let tol = 1e-9 * q0.abs().max(f64::MIN_POSITIVE);
        (a - q0) * (b - q0) > 0.0 && (a - q0).abs() > tol && (b - q0).abs() > tol
    }
}

/// The levels of parameter `p`: its two ends, and for a result that is not
/// monotone in it, the interior extremes of a scan (at most
/// [`MAX_INTERIOR`], the most shared first).
fn levels(case: &Case, p: usize, j: usize, probe: &Probe) -> Vec<(f64, End)> {
    let t = case.parameters[p].tolerance.as_ref().expect("toleranced");
    let mut out = vec![(t.lo, End::Lo), (t.hi, End::Hi)];
    let bent: Vec<usize> = (0..probe.tracked.len())
        .filter(|&k| probe.non_monotone(j, k))
        .collect();
    if bent.is_empty() {
        return out;
    }
    let xs: Vec<f64> = (1..SCAN_POINTS - 1)
        .map(|i| t.lo + (t.hi - t.lo) * i as f64 / (SCAN_POINTS - 1) as f64)
        .collect();
    let scan: Vec<Option<Values>> = xs
        .iter()
        .map(|&x| values_at(case, &[(p, x)], &probe.tracked))
        .collect();
    // Votes for each interior point: the extreme of a bent result.
    let mut votes = vec![0usize; xs.len()];
    for &k in &bent {
        let vals: Vec<(usize, f64)> = scan
            .iter()
            .enumerate()
            .filter_map(|(i, v)| Some((i, v.as_ref()?[k]?)))
            .collect();
        let pick = |better: &dyn Fn(f64, f64) -> bool| {
            vals.iter()
                .copied()
                .reduce(|a, b| if better(b.1, a.1) { b } else { a })
                .map(|(i, _)| i)
        };
        for i in [pick(&|a, b| a > b), pick(&|a, b| a < b)]
            .into_iter()
            .flatten()
        {
            votes[i] += 1;
        }
    }
    let mut order: Vec<usize> = (0..xs.len()).filter(|&i| votes[i] > 0).collect();
    order.sort_by(|&a, &b| votes[b].cmp(&votes[a]).then(a.cmp(&b)));
    order.truncate(MAX_INTERIOR);
    order.sort_unstable();
    out.extend(order.into_iter().map(|i| (xs[i], End::Inside)));
    out
}

/// The extremes over a grid: per result, (value, level index per
/// parameter) of the smallest and largest; the points evaluated and
/// those that failed.
struct Extremes {
    lo: Vec<Option<(f64, Vec<usize>)>>,
    hi: Vec<Option<(f64, Vec<usize>)>>,
    points: usize,
    failed: usize,
}

fn search(
    case: &Case,
    params: &[usize],
    grid: &[Vec<(f64, End)>],
    tracked: &[Tracked],
) -> Option<Extremes> {
    let points: usize = grid.iter().map(Vec::len).product();
    let mut ex = Extremes {
        lo: vec![None; tracked.len()],
        hi: vec![None; tracked.len()],
        points,
        failed: 0,
    };
    for flat in 0..points {
        if crate::control::cancelled() {
            return None;
        }
        let mut rest = flat;
        let idx: Vec<usize> = grid
            .iter()
            .map(|l| {
                let i = rest % l.len();
                rest /= l.len();
                i
            })
            .collect();
        let overrides: Vec<(usize, f64)> = params
            .iter()
            .zip(&idx)
            .zip(grid)
            .map(|((&p, &i), l)| (p, l[i].0))
            .collect();
        let Some(vals) = values_at(case, &overrides, tracked) else {
            ex.failed += 1;
            continue;
        };
        for (k, v) in vals.iter().enumerate() {
            let Some(v) = *v else { continue };
            if ex.lo[k].as_ref().is_none_or(|(x, _)| v < *x) {
                ex.lo[k] = Some((v, idx.clone()));
            }
            if ex.hi[k].as_ref().is_none_or(|(x, _)| v > *x) {
                ex.hi[k] = Some((v, idx.clone()));
            }
        }
    }
    Some(ex)
}

/// Bounds every tracked result over the case's tolerances (`None`: no
/// tolerance). `exact`: the elasticities, when the symbolic derivation
/// gave them.
pub fn bound(case: &Case, an: &Analysis, exact: Option<&[Sensitivity]>) -> Option<Tolerances> {
    let with = case.toleranced();
    if with.is_empty() {
        return None;
    }
    let tracked = tracked(case, an);
    let nominal = values_at(case, &[], &tracked)?;
    let deriv = with
        .iter()
        .map(|&p| derivatives(case, p, &tracked, &nominal, exact))
        .collect();
    let ends = with
        .iter()
        .map(|&p| {
            let t = case.parameters[p].tolerance.as_ref().expect("toleranced");
            [
                values_at(case, &[(p, t.lo)], &tracked),
                values_at(case, &[(p, t.hi)], &tracked),
            ]
        })
        .collect();
    let probe = Probe {
        tracked,
        nominal,
        deriv,
        ends,
    };
    let n = with.len();
    let (method, chosen) = choose(case, n, &probe);
    let params: Vec<usize> = chosen.iter().map(|&j| with[j]).collect();
    let mut grid: Vec<Vec<(f64, End)>> = chosen
        .iter()
        .map(|&j| levels(case, with[j], j, &probe))
        .collect();
    let mut notes = Vec::new();
    if grid.iter().map(Vec::len).product::<usize>() > MAX_GRID {
        grid.iter_mut().for_each(|l| l.truncate(2));
        notes.push(format!(
            "Interior levels for results that are not monotone are left out: with them the grid would exceed {MAX_GRID} points."
        ));
    }
    let ex = search(case, &params, &grid, &probe.tracked)?;
    let results = (0..probe.tracked.len())
        .filter_map(|k| result(case, &with, &chosen, &grid, &probe, &ex, k))
        .collect();
    notes.insert(0, method_note(case, &params, &grid, ex.points));
    if method == Method::LargestEffect {
        notes.push(format!(
            "{n} parameters carry a tolerance, more than the {TOLERANCE_CORNER_PARAMETERS} searched corner by corner: the corners are those of the {TOLERANCE_CORNER_PARAMETERS} with the largest one-at-a-time effect, the others held at their nominal values and their first-order effect added to both ends. These intervals are estimates, not guaranteed bounds."
        ));
    }
    if ex.failed > 0 {
        notes.push(format!(
            "{} of the {} points could not be evaluated (the evaluation's work allowance was spent, or the point is not a valid case) and are left out.",
            ex.failed, ex.points
        ));
    }
    Some(Tolerances {
        inputs: with.iter().map(|&p| input(case, p)).collect(),
        method,
        corner_parameters: params
            .iter()
            .map(|&p| case.parameters[p].name.clone())
            .collect(),
        corners: ex.points,
        failed: ex.failed,
        results,
        notes,
    })
}

/// All parameters, or those of the largest relative one-at-a-time effect.
fn choose(case: &Case, n: usize, probe: &Probe) -> (Method, Vec<usize>) {
    let _ = case;
    if n <= TOLERANCE_CORNER_PARAMETERS {
        return (Method::AllCorners, (0..n).collect());
    }
    let effect = |j: usize| {
        (0..probe.tracked.len())
            .map(|k| {
                probe.swing(j, k) / probe.nominal[k].map_or(1.0, |q| q.abs().max(f64::MIN_POSITIVE))
            })
            .fold(0.0, f64::max)
    };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| effect(b).total_cmp(&effect(a)).then(a.cmp(&b)));
    order.truncate(TOLERANCE_CORNER_PARAMETERS);
    order.sort_unstable();
    (Method::LargestEffect, order)
}

fn method_note(case: &Case, params: &[usize], grid: &[Vec<(f64, End)>], points: usize) -> String {
    let inside: Vec<&str> = params
        .iter()
        .zip(grid)
        .filter(|(_, l)| l.len() > 2)
        .map(|(&p, _)| case.parameters[p].name.as_str())
        .collect();
    let mut s = format!(
        "Exact bounds: {points} points of the box over {} evaluated (the model rebuilt and analysed at each): every corner",
        params
            .iter()
            .map(|&p| case.parameters[p].name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    if !inside.is_empty() {
        s.push_str(&format!(
            ", and for {} (a result is not monotone in it: both ends move it the same way) the interior extremes of a {SCAN_POINTS}-point scan",
            inside.join(", ")
        ));
    }
    s.push_str(". First order: the nominal value ± Σ|∂q/∂p|Δp (linear, worst case, GUM-style; not a statistical uncertainty), ∂q/∂p from the exact elasticities for m_eff and ω where the closed forms exist, else a central difference.");
    s
}

fn input(case: &Case, p: usize) -> InputBound {
    let par = &case.parameters[p];
    let t = par.tolerance.as_ref().expect("toleranced");
    InputBound {
        parameter: par.name.clone(),
        written: t.written.trim().to_string(),
        kind: t.kind,
        nominal: par.value.si,
        lo: t.lo,
        hi: t.hi,
        unit: if par.value.dim.is_none() {
            String::new()
        } else {
            par.value.dim.to_string()
        },
    }
}

/// Result k's bound, or `None` when it has no value at the nominal point
/// or at any grid point.
fn result(
    case: &Case,
    with: &[usize],
    chosen: &[usize],
    grid: &[Vec<(f64, End)>],
    probe: &Probe,
    ex: &Extremes,
    k: usize,
) -> Option<Bound> {
    let q0 = probe.nominal[k]?;
    let (l, lidx) = ex.lo[k].clone()?;
    let (h, hidx) = ex.hi[k].clone()?;
    let n = with.len();
    let name = |j: usize| case.parameters[with[j]].name.clone();
    let half = |j: usize| {
        case.parameters[with[j]]
            .tolerance
            .as_ref()
            .map_or(0.0, |t| t.half_width())
    };
    let contrib: Vec<f64> = (0..n)
        .map(|j| probe.deriv[j][k].0.map_or(0.0, |d| d.abs() * half(j)))
        .collect();
    let width: f64 = contrib.iter().sum();
    // Parameters left at nominal: their first-order effect on both ends.
    let rest: f64 = (0..n)
        .filter(|j| !chosen.contains(j))
        .map(|j| contrib[j])
        .sum();
    let corner_of = |idx: &[usize]| -> Vec<CornerEnd> {
        chosen
            .iter()
            .enumerate()
            .filter(|&(_, &j)| probe.swing(j, k) > 0.0)
            .map(|(i, &j)| CornerEnd {
                parameter: name(j),
                end: grid[i][idx[i]].1,
                value: grid[i][idx[i]].0,
            })
            .collect()
    };
    let mut notes = Vec::new();
    // The first-order worst corners against the exact ones.
    for (which, idx, sign) in [("largest", &hidx, 1.0), ("smallest", &lidx, -1.0)] {
        let differs: Vec<String> = chosen
            .iter()
            .enumerate()
            .filter(|&(_, &j)| contrib[j] > 1e-9 * q0.abs().max(f64::MIN_POSITIVE))
            .filter(|&(i, &j)| {
                let predicted = if probe.deriv[j][k].0.unwrap_or(0.0) * sign > 0.0 {
                    End::Hi
                } else {
                    End::Lo
                };
                grid[i][idx[i]].1 != predicted
            })
            .map(|(_, &j)| name(j))
            .collect();
        if !differs.is_empty() {
            notes.push(format!(
                "the {which} value is not where the first-order estimate puts it: {} not at the end the sign of ∂q/∂p names",
                differs.join(", ")
            ));
        }
    }
    let blind: Vec<String> = (0..n)
        .filter(|&j| {
            let tol = 1e-6 * q0.abs().max(f64::MIN_POSITIVE);
            contrib[j] <= 1e-3 * probe.swing(j, k) && probe.swing(j, k) > tol
        })
        .map(name)
        .collect();
    if !blind.is_empty() {
        notes.push(format!(
            "the first-order estimate sees no effect of {} (∂q/∂p = 0 at the nominal value) where the exact search does: the worst case is not where first order puts it",
            blind.join(", ")
        ));
    }
    for (i, &j) in chosen.iter().enumerate() {
        if probe.non_monotone(j, k) {
            let scanned = if grid[i].len() > 2 {
                format!(
                    "the search includes the interior extremes of a {SCAN_POINTS}-point scan of it"
                )
            } else {
                "only its ends are searched, so the extreme may lie inside the box".to_string()
            };
            notes.push(format!(
                "not monotone in {}: both ends of its tolerance move it the same way; {scanned}",
                name(j)
            ));
        }
    }
    let derivatives_exact = (0..n).all(|j| probe.deriv[j][k].1);
    let driver = (0..n)
        .map(|j| (j, probe.swing(j, k)))
        .filter(|&(_, s)| s > 0.0)
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(j, _)| name(j));
    let tr = probe.tracked[k];
    let mut b = Bound {
        id: tr.id(case),
        quantity: tr.label(case),
        unit: tr.unit(),
        nominal: q0,
        lo: l.min(q0) - rest,
        hi: h.max(q0) + rest,
        first_order_lo: q0 - width,
        first_order_hi: q0 + width,
        first_order_gap: 0.0,
        derivatives: if derivatives_exact {
            "exact_elasticities"
        } else {
            "central_differences"
        },
        driver,
        lo_corner: corner_of(&lidx),
        hi_corner: corner_of(&hidx),
        notes,
        closed_form: None,
    };
    b.first_order_gap = b.gap();
    Some(b)
}
