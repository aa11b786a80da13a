//! The search of the tolerance box, one rule for every bound the sheet
//! prints ([`explore`]): each parameter's ends one at a time (swing), a
//! scan of each (monotonicity), and the grid of levels — the two ends of
//! every parameter, and for a parameter some result is not monotone in,
//! the interior extremes of the scan refined by golden section —
//! evaluated point by point, the extremes found at interior levels
//! refined again at their corner. First-order derivatives for the
//! Tolerances table.

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

/// Steps of the golden-section refinement of an interior extreme found by
/// the scan (each one evaluation; the bracket, two scan intervals, shrinks
/// by 0.618 a step).
pub const REFINE_STEPS: usize = 20;

/// Every result at a point (`None` per result: no value there).
pub(super) type Values = Vec<Option<f64>>;

/// Evaluates every result at a point of the box, given as parameter
/// overrides (`None`: the point is not a valid case or its analysis
/// failed).
pub(super) type Eval<'a> = &'a dyn Fn(&[(usize, f64)]) -> Option<Values>;

/// What one-at-a-time evaluations tell about each toleranced parameter.
pub(super) struct Probe {
    /// Every result at the nominal point (the search's base point).
    pub(super) nominal: Values,
    /// Per parameter: the results at its low and high end alone.
    ends: Vec<[Option<Values>; 2]>,
}

impl Probe {
    /// The largest change of result k from parameter j's ends alone.
    pub(super) fn swing(&self, j: usize, k: usize) -> f64 {
        let Some(q0) = self.nominal[k] else {
            return 0.0;
        };
        self.ends[j]
            .iter()
            .filter_map(|e| e.as_ref().and_then(|v| v[k]))
            .map(|q| (q - q0).abs())
            .fold(0.0, f64::max)
    }
}

/// The result of the one search of a tolerance box: the probe, which
/// parameters' corners were searched, their levels, and the extremes.
pub(super) struct Explored {
    pub(super) probe: Probe,
    pub(super) method: Method,
    /// Indices into the searched parameters (`with`) whose levels form
    /// the grid.
    pub(super) chosen: Vec<usize>,
    /// Per chosen parameter: its levels (value, end).
    pub(super) grid: Vec<Vec<(f64, End)>>,
    pub(super) ex: Extremes,
    /// Per chosen parameter, per result: not monotone in it over its
    /// tolerance (its scan rises and falls).
    pub(super) bent: Vec<Vec<bool>>,
    /// Interior levels were left out: with them the grid would exceed
    /// its allowance.
    pub(super) interior_dropped: bool,
}

/// The search of the box of the parameters `with` around the point
/// `base` (overrides held fixed: a sweep's point; empty for the case's
/// own point), the one rule for every bound the sheet prints (the
/// headline's results, the Tolerances table, every sweep's band):
/// each parameter's two ends one at a time; the corners of every
/// parameter (or, beyond what `max_grid` allows, of those of the largest
/// one-at-a-time effect, [`Method::LargestEffect`]); for a parameter some
/// result is not monotone in, the interior extremes of a
/// [`SCAN_POINTS`]-point scan refined by golden section; every point of
/// that grid evaluated. `None`: the base point has no value, or the
/// evaluation was cancelled.
pub(super) fn explore(
    case: &Case,
    with: &[usize],
    base: &[(usize, f64)],
    eval: Eval,
    max_grid: usize,
) -> Option<Explored> {
    let at = |extra: &[(usize, f64)]| {
        let mut o = base.to_vec();
        o.extend_from_slice(extra);
        eval(&o)
    };
    let nominal = at(&[])?;
    let ends = with
        .iter()
        .map(|&p| {
            let t = case.parameters[p].tolerance.as_ref().expect("toleranced");
            [at(&[(p, t.lo)]), at(&[(p, t.hi)])]
        })
        .collect();
    let probe = Probe { nominal, ends };
    // Corners of at most this many parameters fit the allowance.
    let fit = (usize::BITS - 1 - max_grid.max(1).leading_zeros()) as usize;
    let (method, chosen) = choose(with.len(), &probe, fit.min(TOLERANCE_CORNER_PARAMETERS));
    let (mut grid, bent): (Vec<Point>, Vec<Vec<bool>>) = chosen
        .iter()
        .map(|&j| levels(case, with[j], j, &probe, &at))
        .unzip();
    let mut interior_dropped = false;
    if grid.iter().map(Vec::len).product::<usize>() > max_grid {
        grid.iter_mut().for_each(|l| l.truncate(2));
        interior_dropped = true;
    }
    let params: Vec<usize> = chosen.iter().map(|&j| with[j]).collect();
    let mut ex = search(&params, &grid, &at, probe.nominal.len())?;
    polish(case, &params, &mut ex, &at);
    Some(Explored {
        probe,
        method,
        chosen,
        grid,
        ex,
        bent,
        interior_dropped,
    })
}

/// The levels of parameter `p` and, per result, whether it is not
/// monotone in `p`: a [`SCAN_POINTS`]-point scan of `p` alone (the
/// others at the base point; its ends are the probe's) that rises and
/// falls. The levels: the two ends, and the interior extremes of the
/// results that are not monotone (at most [`MAX_INTERIOR`], the most
/// shared first), each refined by golden section between its scan
/// neighbours.
fn levels(
    case: &Case,
    p: usize,
    j: usize,
    probe: &Probe,
    at: Eval,
) -> (Vec<(f64, End)>, Vec<bool>) {
    let t = case.parameters[p].tolerance.as_ref().expect("toleranced");
    let mut out = vec![(t.lo, End::Lo), (t.hi, End::Hi)];
    let n_results = probe.nominal.len();
    let x_of = |i: usize| t.lo + (t.hi - t.lo) * i as f64 / (SCAN_POINTS - 1) as f64;
    let scan: Vec<Option<Values>> = (0..SCAN_POINTS)
        .map(|i| match i {
            0 => probe.ends[j][0].clone(),
            i if i == SCAN_POINTS - 1 => probe.ends[j][1].clone(),
            i => at(&[(p, x_of(i))]),
        })
        .collect();
    // Votes for each interior point: the extreme of a result that is not
    // monotone, with the first (result, direction, value) that voted.
    let mut votes = vec![(0usize, None); SCAN_POINTS];
    let mut bent = vec![false; n_results];
    for k in 0..n_results {
        let vals: Vec<(usize, f64)> = scan
            .iter()
            .enumerate()
            .filter_map(|(i, v)| Some((i, v.as_ref()?[k]?)))
            .collect();
        let tol = 1e-9
            * probe.nominal[k]
                .map_or(0.0, f64::abs)
                .max(f64::MIN_POSITIVE);
        let steps: Vec<f64> = vals
            .windows(2)
            .map(|w| w[1].1 - w[0].1)
            .filter(|d| d.abs() > tol)
            .collect();
        bent[k] = steps.iter().any(|&d| d > 0.0) && steps.iter().any(|&d| d < 0.0);
        if !bent[k] {
            continue;
        }
        for smallest in [true, false] {
            let best = vals.iter().copied().reduce(|a, b| {
                if (b.1 < a.1) == smallest && b.1 != a.1 {
                    b
                } else {
                    a
                }
            });
            if let Some((i, v)) = best.filter(|&(i, _)| i > 0 && i < SCAN_POINTS - 1) {
                votes[i].0 += 1;
                votes[i].1.get_or_insert((k, smallest, v));
            }
        }
    }
    let mut order: Vec<usize> = (0..SCAN_POINTS).filter(|&i| votes[i].0 > 0).collect();
    order.sort_by(|&a, &b| votes[b].0.cmp(&votes[a].0).then(a.cmp(&b)));
    order.truncate(MAX_INTERIOR);
    order.sort_unstable();
    for i in order {
        let (k, smallest, v) = votes[i].1.expect("voted");
        let one = |x: f64| at(&[(p, x)]).and_then(|vals| vals[k]);
        let (x, _) = refine(&one, (x_of(i - 1), x_of(i + 1)), (x_of(i), v), smallest);
        out.push((x, End::Inside));
    }
    (out, bent)
}

/// Golden-section search for the smallest (or largest) of `f` in
/// `bracket`, from the best point known, `start`: the best point found
/// and its value (never worse than `start`).
fn refine(
    f: &dyn Fn(f64) -> Option<f64>,
    bracket: (f64, f64),
    start: (f64, f64),
    smallest: bool,
) -> (f64, f64) {
    let sign = if smallest { 1.0 } else { -1.0 };
    let g = |x: f64| f(x).map_or(f64::INFINITY, |v| sign * v);
    let r = 0.5 * (5f64.sqrt() - 1.0);
    let (mut a, mut b) = bracket;
    let (mut c, mut d) = (b - r * (b - a), a + r * (b - a));
    let (mut gc, mut gd) = (g(c), g(d));
    let mut best = (start.0, sign * start.1);
    for _ in 0..REFINE_STEPS {
        for (x, y) in [(c, gc), (d, gd)] {
            if y < best.1 {
                best = (x, y);
            }
        }
        if gc < gd {
            b = d;
            (d, gd) = (c, gc);
            c = b - r * (b - a);
            gc = g(c);
        } else {
            a = c;
            (c, gc) = (d, gd);
            d = a + r * (b - a);
            gd = g(d);
        }
    }
    for (x, y) in [(c, gc), (d, gd)] {
        if y < best.1 {
            best = (x, y);
        }
    }
    (best.0, sign * best.1)
}

/// Refines every extreme found at an interior level: along each such
/// parameter, the others held at the extreme's levels, golden section
/// within one scan interval either side (the interior level was found
/// with the others at their nominal values; where the extreme moves with
/// them, the grid point is near it, not at it).
fn polish(case: &Case, params: &[usize], ex: &mut Extremes, at: Eval) {
    for k in 0..ex.lo.len() {
        for smallest in [true, false] {
            let slot = if smallest {
                &mut ex.lo[k]
            } else {
                &mut ex.hi[k]
            };
            let Some((mut v, mut point)) = slot.clone() else {
                continue;
            };
            for i in 0..point.len() {
                if point[i].1 != End::Inside {
                    continue;
                }
                let t = case.parameters[params[i]]
                    .tolerance
                    .as_ref()
                    .expect("toleranced");
                let w = (t.hi - t.lo) / (SCAN_POINTS - 1) as f64;
                let x0 = point[i].0;
                let one = |x: f64| {
                    let o: Vec<(usize, f64)> = params
                        .iter()
                        .zip(&point)
                        .enumerate()
                        .map(|(j, (&p, c))| (p, if j == i { x } else { c.0 }))
                        .collect();
                    at(&o).and_then(|vals| vals[k])
                };
                let (x, y) = refine(
                    &one,
                    ((x0 - w).max(t.lo), (x0 + w).min(t.hi)),
                    (x0, v),
                    smallest,
                );
                point[i].0 = x;
                v = y;
            }
            *slot = Some((v, point));
        }
    }
}

/// A point of the box: per searched parameter, its value and end.
pub(super) type Point = Vec<(f64, End)>;

/// The extremes over a grid: per result, (value, point) of the smallest
/// and largest; the points evaluated and those that failed.
pub(super) struct Extremes {
    pub(super) lo: Vec<Option<(f64, Point)>>,
    pub(super) hi: Vec<Option<(f64, Point)>>,
    pub(super) points: usize,
    pub(super) failed: usize,
}

fn search(
    params: &[usize],
    grid: &[Vec<(f64, End)>],
    at: Eval,
    n_results: usize,
) -> Option<Extremes> {
    let points: usize = grid.iter().map(Vec::len).product();
    let mut ex = Extremes {
        lo: vec![None; n_results],
        hi: vec![None; n_results],
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
        let Some(vals) = at(&overrides) else {
            ex.failed += 1;
            continue;
        };
        let point = || -> Point { idx.iter().zip(grid).map(|(&i, l)| l[i]).collect() };
        for (k, v) in vals.iter().enumerate() {
            let Some(v) = *v else { continue };
            if ex.lo[k].as_ref().is_none_or(|(x, _)| v < *x) {
                ex.lo[k] = Some((v, point()));
            }
            if ex.hi[k].as_ref().is_none_or(|(x, _)| v > *x) {
                ex.hi[k] = Some((v, point()));
            }
        }
    }
    Some(ex)
}

/// The first-order width the parameters left out of the corners add to
/// both ends of result k (`contrib[j]`: |∂q/∂p_j| Δp_j).
pub(super) fn left_out_width(contrib: &[f64], chosen: &[usize]) -> f64 {
    (0..contrib.len())
        .filter(|j| !chosen.contains(j))
        .map(|j| contrib[j])
        .sum()
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
    let eval = |o: &[(usize, f64)]| values_at(case, o, &tracked);
    let e = explore(case, &with, &[], &eval, MAX_GRID)?;
    let deriv: Vec<_> = with
        .iter()
        .map(|&p| derivatives(case, p, &tracked, &e.probe.nominal, exact))
        .collect();
    let n = with.len();
    let params: Vec<usize> = e.chosen.iter().map(|&j| with[j]).collect();
    let mut notes = Vec::new();
    if e.interior_dropped {
        notes.push(format!(
            "Interior levels for results that are not monotone are left out: with them the grid would exceed {MAX_GRID} points."
        ));
    }
    let results = (0..tracked.len())
        .filter_map(|k| result(case, &with, &e, &deriv, &tracked, k))
        .collect();
    notes.insert(0, method_note(case, &params, &e.grid, e.ex.points));
    if e.method == Method::LargestEffect {
        notes.push(format!(
            "{n} parameters carry a tolerance, more than the {TOLERANCE_CORNER_PARAMETERS} searched corner by corner: the corners are those of the {TOLERANCE_CORNER_PARAMETERS} with the largest one-at-a-time effect, the others held at their nominal values and their first-order effect added to both ends. These intervals are estimates, not guaranteed bounds."
        ));
    }
    let idle: Vec<&str> = (0..n)
        .filter(|&j| (0..tracked.len()).all(|k| e.probe.swing(j, k) == 0.0))
        .map(|j| case.parameters[with[j]].name.as_str())
        .collect();
    if !idle.is_empty() {
        notes.push(format!(
            "{} moves none of the bounded results over its tolerance: nothing the bounded results depend on uses it.",
            idle.join(", ")
        ));
    }
    if e.ex.failed > 0 {
        notes.push(format!(
            "{} of the {} points could not be evaluated (the evaluation's work allowance was spent, or the point is not a valid case) and are left out.",
            e.ex.failed, e.ex.points
        ));
    }
    Some(Tolerances {
        inputs: with.iter().map(|&p| input(case, p)).collect(),
        method: e.method,
        corner_parameters: params
            .iter()
            .map(|&p| case.parameters[p].name.clone())
            .collect(),
        corners: e.ex.points,
        failed: e.ex.failed,
        definitions: super::TABLE_NOTES.to_vec(),
        results,
        notes,
    })
}

/// All `n` parameters, or the `fit` of the largest relative
/// one-at-a-time effect.
fn choose(n: usize, probe: &Probe, fit: usize) -> (Method, Vec<usize>) {
    if n <= fit {
        return (Method::AllCorners, (0..n).collect());
    }
    let effect = |j: usize| {
        (0..probe.nominal.len())
            .map(|k| {
                probe.swing(j, k) / probe.nominal[k].map_or(1.0, |q| q.abs().max(f64::MIN_POSITIVE))
            })
            .fold(0.0, f64::max)
    };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| effect(b).total_cmp(&effect(a)).then(a.cmp(&b)));
    order.truncate(fit);
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
            ", and for {} (a result is not monotone in it: its {SCAN_POINTS}-point scan rises and falls) the interior extremes of the scan, refined by golden section",
            inside.join(", ")
        ));
    }
    s.push_str(". First order: the nominal value ± Σ|∂q/∂p|Δp (linear, worst case, GUM-style; not a statistical uncertainty), ∂q/∂p from the exact elasticities for m_eff and ω where the closed forms exist, else a central difference.");
    s
}

fn input(case: &Case, p: usize) -> InputBound {
    let par = &case.parameters[p];
    let t = par.tolerance.as_ref().expect("toleranced");
    let unit = if par.value.dim.is_none() {
        String::new()
    } else {
        par.value.dim.to_string()
    };
    // An angle is a number without a unit in SI: shown as typed.
    let written = &t.written;
    let (shown_unit, shown_scale) = if !unit.is_empty() {
        (unit.clone(), 1.0)
    } else if written.contains("deg") || written.contains('°') {
        ("deg".to_string(), 180.0 / std::f64::consts::PI)
    } else if written.contains("rad") {
        ("rad".to_string(), 1.0)
    } else {
        ("dimensionless".to_string(), 1.0)
    };
    InputBound {
        parameter: par.name.clone(),
        written: t.written.trim().to_string(),
        kind: t.kind,
        nominal: par.value.si,
        lo: t.lo,
        hi: t.hi,
        unit: unit.clone(),
        shown_unit,
        shown_scale,
    }
}

/// Result k's bound, or `None` when it has no value at the nominal point
/// or at any grid point.
fn result(
    case: &Case,
    with: &[usize],
    e: &Explored,
    deriv: &[Vec<(Option<f64>, bool)>],
    tracked: &[Tracked],
    k: usize,
) -> Option<Bound> {
    let (probe, chosen, grid, ex) = (&e.probe, &e.chosen, &e.grid, &e.ex);
    let q0 = probe.nominal[k]?;
    let (l, lpoint) = ex.lo[k].clone()?;
    let (h, hpoint) = ex.hi[k].clone()?;
    let n = with.len();
    let name = |j: usize| case.parameters[with[j]].name.clone();
    let half = |j: usize| {
        case.parameters[with[j]]
            .tolerance
            .as_ref()
            .map_or(0.0, |t| t.half_width())
    };
    let contrib: Vec<f64> = (0..n)
        .map(|j| deriv[j][k].0.map_or(0.0, |d| d.abs() * half(j)))
        .collect();
    let width: f64 = contrib.iter().sum();
    // Parameters left at nominal: their first-order effect on both ends.
    let rest = left_out_width(&contrib, chosen);
    let corner_of = |point: &Point| -> Vec<CornerEnd> {
        chosen
            .iter()
            .enumerate()
            .filter(|&(_, &j)| probe.swing(j, k) > 0.0)
            .map(|(i, &j)| CornerEnd {
                parameter: name(j),
                end: point[i].1,
                value: point[i].0,
            })
            .collect()
    };
    let mut notes = Vec::new();
    // The first-order worst corners against the exact ones.
    for (which, point, sign) in [("largest", &hpoint, 1.0), ("smallest", &lpoint, -1.0)] {
        let differs: Vec<String> = chosen
            .iter()
            .enumerate()
            .filter(|&(_, &j)| contrib[j] > 1e-9 * q0.abs().max(f64::MIN_POSITIVE))
            .filter(|&(i, &j)| {
                let predicted = if deriv[j][k].0.unwrap_or(0.0) * sign > 0.0 {
                    End::Hi
                } else {
                    End::Lo
                };
                point[i].1 != predicted
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
        if e.bent[i][k] {
            let scanned = if grid[i].len() > 2 {
                "the search includes the interior extremes of the scan, refined by golden section"
                    .to_string()
            } else {
                "only its ends are searched, so the extreme may lie inside the box".to_string()
            };
            notes.push(format!(
                "not monotone in {} over its tolerance (a {SCAN_POINTS}-point scan of it rises and falls); {scanned}",
                name(j)
            ));
        }
    }
    let derivatives_exact = (0..n).all(|j| deriv[j][k].1);
    let driver = (0..n)
        .map(|j| (j, probe.swing(j, k)))
        .filter(|&(_, s)| s > 0.0)
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(j, _)| name(j));
    let tr = tracked[k];
    let mut b = Bound {
        id: tr.id(case),
        quantity: tr.label(case),
        unit: tr.unit(),
        step: tr.is_step(),
        kind: tr.kind(),
        round: tr.kind().into(),
        nominal: q0,
        lo: l.min(q0) - rest,
        hi: h.max(q0) + rest,
        first_order_lo: q0 - width,
        first_order_hi: q0 + width,
        first_order_gap: None,
        derivatives: if derivatives_exact {
            "exact_elasticities"
        } else {
            "central_differences"
        },
        driver,
        lo_corner: corner_of(&lpoint),
        hi_corner: corner_of(&hpoint),
        notes,
        closed_form: None,
    };
    b.first_order_gap = b.gap();
    Some(b)
}
