//! How fast may this program move near a person (issue 40): a `[model]`
//! case's `[motion]` checked at every sample and hazard point against
//! every body region, with the robot's mass at the contact taken three
//! ways side by side:
//!
//! - **exact**: the mass along the point's velocity `v = J_p q̇`,
//!   `m_u = 1/(uᵀ Λ⁻¹ u)`, `u = v/|v|`, `Λ⁻¹ = J_p M⁻¹ J_pᵀ` constrained
//!   by the model's equality rows (the `[model]` analysis' response);
//! - **worst direction**: the largest mass of the point's effective-mass
//!   ellipsoid, `1/λ_min(Λ⁻¹)`, for a contact whose direction is unknown;
//! - **rule**: `m_R = M/2 + m_L`, half the moving mass of the model
//!   (payloads left out) plus the payloads' mass.
//!
//! Each meets the region as two masses and a spring (ISO/TS 15066
//! Annex A): `μ = (1/m_R + 1/m_H)⁻¹`, peak force `v√(μ k_H)`, energy
//! `½ μ v²`, permissible speed `F_max/√(μ k_H)` by force and
//! `√(2 E_max/μ)` by energy, and — for a region with a contact area A
//! and a pressure limit — `p_max A/√(μ k_H)` by pressure (the peak
//! pressure is the peak force over A), the smallest governing. A mass that is
//! infinite (a direction the point cannot move in, or M not factorable at
//! a sample) gives `μ = m_H`, the most cautious value.
//!
//! The verdict (`factor_verdict`, `within`, the worst samples, the time
//! over) rests at each sample on the exact mass, or — where the model has no
//! armature in M, so the exact mass is only a lower bound — on the larger of
//! it and the rule's, by [`super::robot::governing`], the person verdict's
//! rule; the exact-mass figures are then the lower bound's.
//!
//! Program answers: the worst sample, the fraction of the program's time
//! over the limit, and the largest uniform speed factor keeping every
//! sample within its limit: speeds scale linearly with a uniform time
//! scaling and the direction (so every mass) does not change, so it is
//! `min v_max/v` over the samples.

use super::robot::Governing;
use crate::case::{Case, Form, Motion, Program, RobotForm, SERIES_POINTS, SeriesMode};
use nalgebra::{DMatrix, DVector, Matrix3, Vector3};
use serde::Serialize;

/// Below this fraction of the largest principal value of Λ⁻¹ a direction
/// is immobile (infinite mass), as in the `[model]` analysis.
const IMMOBILE: f64 = 1e-12;

/// A point slower than this (m/s) is at rest: no contact speed to check.
pub const AT_REST: f64 = 1e-12;

/// Rows in `worst_samples`.
pub const WORST_ROWS: usize = 10;

/// Which limit governs a permissible speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitKind {
    /// F_max/√(μ k_H).
    Force,
    /// √(2 E_max/μ).
    Energy,
    /// p_max A/√(μ k_H).
    Pressure,
}

/// One mass model's contact at one sample with one region.
#[derive(Clone, Debug, Serialize)]
pub struct Transfer {
    /// m_R (kg); `null`: infinite.
    pub robot_mass: Option<f64>,
    /// μ = (1/m_R + 1/m_H)⁻¹ (kg).
    pub reduced_mass: f64,
    /// Peak force at the program's speed, v√(μ k_H) (N).
    pub peak_force: f64,
    /// Energy transferred at the program's speed, ½ μ v² (J).
    pub energy: f64,
    /// F_max/√(μ k_H) (m/s), when the region has a force limit.
    pub max_speed_force: Option<f64>,
    /// √(2 E_max/μ) (m/s), when the region has an energy limit.
    pub max_speed_energy: Option<f64>,
    /// Peak pressure at the program's speed, v√(μ k_H)/A (Pa), when the
    /// region has a contact area.
    pub pressure: Option<f64>,
    /// p_max A/√(μ k_H) (m/s), when the region has a pressure limit.
    pub max_speed_pressure: Option<f64>,
    /// The smallest of them (m/s).
    pub max_speed: f64,
    /// Which limit gives `max_speed`.
    pub limited_by: LimitKind,
    /// max_speed − speed (m/s).
    pub margin: f64,
    /// max_speed / speed.
    pub factor: f64,
    /// speed ≤ max_speed.
    pub within: bool,
}

/// A sample, a hazard point and a region, with the three masses.
#[derive(Clone, Debug, Serialize)]
pub struct SampleRow {
    /// Sample index (from 0).
    pub sample: usize,
    /// Its time (s).
    pub time: f64,
    /// Hazard point.
    pub hazard: String,
    /// Body region.
    pub region: String,
    /// |v| (m/s).
    pub speed: f64,
    /// v/|v|, world axes.
    pub direction: [f64; 3],
    /// With the exact mass along v.
    pub exact: Transfer,
    /// With the worst-direction mass.
    pub worst_direction: Transfer,
    /// With the rule M/2 + m_L.
    pub rule: Transfer,
    /// Which of `exact` and `rule` the verdict rests on here.
    pub governing: Governing,
}

/// A hazard point along the program.
#[derive(Clone, Debug, Serialize)]
pub struct HazardReport {
    /// Name.
    pub name: String,
    /// The link it is on.
    pub body: String,
    /// The point in the link's frame (m).
    pub point: [f64; 3],
    /// |v| at every series point (m/s; an envelope's largest in its bin).
    pub speed: Vec<f64>,
    /// The exact mass along v at every series point (kg; an envelope's
    /// largest); `null` at rest or infinite.
    pub mass_exact: Vec<Option<f64>>,
    /// The worst-direction mass at every series point (kg; an envelope's
    /// largest); `null`: infinite.
    pub mass_worst_direction: Vec<Option<f64>>,
    /// The largest speed along the program (m/s).
    pub peak_speed: f64,
}

/// A body region as the case gives it (serialized as it is read).
pub type RegionReport = crate::case::Region;

/// A hazard point against a region over the program.
#[derive(Clone, Debug, Serialize)]
pub struct PairReport {
    /// Hazard point.
    pub hazard: String,
    /// Body region.
    pub region: String,
    /// The sample with the smallest verdict factor.
    pub worst: Option<SampleRow>,
    /// min v_max/v with the mass the verdict rests on at each sample.
    pub factor_verdict: Option<f64>,
    /// min v_max/v with the exact mass.
    pub factor_exact: Option<f64>,
    /// min v_max/v with the worst-direction mass.
    pub factor_worst_direction: Option<f64>,
    /// min v_max/v with the rule.
    pub factor_rule: Option<f64>,
    /// Fraction of the program's time over the limit, exact mass.
    pub fraction_over: f64,
    /// The same with the rule.
    pub fraction_over_rule: f64,
    /// v_max at every series point, exact mass (m/s; an envelope's
    /// smallest); `null` at rest.
    pub max_speed_exact: Vec<Option<f64>>,
    /// v_max at every series point, worst-direction mass (m/s).
    pub max_speed_worst_direction: Vec<f64>,
    /// v_max at every series point, rule (m/s).
    pub max_speed_rule: Vec<f64>,
}

/// The program section of a report.
#[derive(Clone, Debug, Serialize)]
pub struct ProgramReport {
    /// `trajectory` or `waypoints`.
    pub program: &'static str,
    /// The trajectory file as named in the case.
    pub file: Option<String>,
    /// `linear` or `cubic` (waypoints).
    pub interpolation: Option<&'static str>,
    /// Waypoints' sampling step (s).
    pub step: Option<f64>,
    /// Number of waypoints.
    pub waypoints: Option<usize>,
    /// `central_difference`, `columns` or `interpolation`.
    pub velocities: &'static str,
    /// The joints the program moves.
    pub joints: Vec<String>,
    /// Number of samples in the program.
    pub samples: usize,
    /// How the per-sample series below were kept (every sample, or a
    /// bounded envelope).
    pub series: SeriesInfo,
    /// The series' times (s): each sample's, or each bin's first sample's.
    pub time: Vec<f64>,
    /// Program duration (s).
    pub duration: f64,
    /// Mass of the bodies the joints move, payloads left out (kg).
    pub moving_mass: f64,
    /// Mass of the payloads the joints move (kg).
    pub payload_mass: f64,
    /// The rule's m_R = moving_mass/2 + payload_mass (kg).
    pub rule_mass: f64,
    /// Hazard points.
    pub hazards: Vec<HazardReport>,
    /// Body regions.
    pub regions: Vec<RegionReport>,
    /// Every hazard point against each of its regions.
    pub pairs: Vec<PairReport>,
    /// The exact mass is a lower bound on the real machine's: M has no
    /// joint armature (as the person verdict's `exact_is_lower_bound`).
    pub exact_is_lower_bound: bool,
    /// The mass the verdict rests on at its worst sample: `exact`, or
    /// `rule_of_thumb` where the exact mass is a lower bound and the rule's
    /// is larger.
    pub governing: Governing,
    /// The largest uniform speed factor keeping every sample within its
    /// limit, with the mass the verdict rests on at each sample (`null`:
    /// the hazard points never move).
    pub factor_verdict: Option<f64>,
    /// Every sample within its limit (the verdict's masses).
    pub within: bool,
    /// The same with the exact mass alone (a lower bound on the real
    /// machine's mass when `exact_is_lower_bound`, so an upper bound).
    pub factor: Option<f64>,
    /// The same with the worst-direction mass.
    pub factor_worst_direction: Option<f64>,
    /// The same with the rule.
    pub factor_rule: Option<f64>,
    /// Fraction of the program's time with some pair over its limit (the
    /// verdict's masses).
    pub fraction_over: f64,
    /// The first time a sample is over its limit (s; the verdict's masses).
    pub first_over: Option<f64>,
    /// The sample with the smallest verdict factor.
    pub worst: Option<SampleRow>,
    /// The worst moments (local minima of the verdict factor), smallest first.
    pub worst_samples: Vec<SampleRow>,
    /// Smallest and largest exact mass over the rule's, over the moving samples.
    pub mass_ratio: Option<[f64; 2]>,
    /// Joint values beyond the model's range, with their places.
    pub warnings: Vec<String>,
}

/// The transient contact of mass `m` (`None`: infinite) with region `r`
/// at `speed`.
pub fn transfer(m: Option<f64>, r: &crate::case::Region, speed: f64) -> Transfer {
    let mu = match m {
        Some(m) => 1.0 / (1.0 / m + 1.0 / r.mass),
        None => r.mass,
    };
    let root = (mu * r.stiffness).sqrt();
    let by_force = r.force_limit.map(|f| f / root);
    let by_energy = r.energy_limit.map(|e| (2.0 * e / mu).sqrt());
    let by_pressure = r.pressure_limit.zip(r.area).map(|(p, a)| p * a / root);
    // The smallest; on a tie the first in the order force, energy, pressure.
    let (max_speed, limited_by) = [
        (by_force, LimitKind::Force),
        (by_energy, LimitKind::Energy),
        (by_pressure, LimitKind::Pressure),
    ]
    .into_iter()
    .filter_map(|(v, k)| v.map(|v| (v, k)))
    .reduce(|a, b| if b.0 < a.0 { b } else { a })
    .expect("a region has a limit (the reader checks)");
    Transfer {
        robot_mass: m,
        reduced_mass: mu,
        peak_force: speed * root,
        energy: 0.5 * mu * speed * speed,
        max_speed_force: by_force,
        max_speed_energy: by_energy,
        pressure: r.area.map(|a| speed * root / a),
        max_speed_pressure: by_pressure,
        max_speed,
        limited_by,
        margin: max_speed - speed,
        factor: max_speed / speed,
        within: speed <= max_speed,
    }
}

/// The exact and worst-direction masses of each hazard point at one
/// sample, and its velocity.
struct Point {
    v: Vector3<f64>,
    exact: Option<f64>,
    worst: Option<f64>,
}

/// Points' velocity rows (3 per point, world axes) at `q`, and
/// `Λ⁻¹ = J M⁻¹ Jᵀ` over them, constrained by the model's equality rows
/// (`None` where M cannot be factored). `points`: body and point in its
/// frame.
pub fn point_responses(
    robot: &crate::robot::Robot,
    armature: bool,
    q: &[f64],
    points: &[(usize, [f64; 3])],
) -> (DMatrix<f64>, Option<DMatrix<f64>>) {
    let tree = &robot.tree;
    let nv = tree.nv;
    let kin = tree.kinematics(q);
    let mt = crate::model::robot::chop_mass(tree.mass_matrix(&kin, armature), nv);
    let m = DMatrix::from_row_slice(nv, nv, &mt);
    let g: Vec<Vec<f64>> = robot.constraint_rows(&kin, q);
    let mut rows = DMatrix::zeros(3 * points.len(), nv);
    for (k, (body, point)) in points.iter().enumerate() {
        let p = tree.place(&kin, *body, &Vector3::from(*point));
        let jp = super::robot::point_rows(tree, &kin, *body, &p, nv);
        rows.view_mut((3 * k, 0), (3, nv)).copy_from(&jp);
    }
    let inv = crate::linalg::response(&m, &g, &rows);
    (rows, inv)
}

/// The hazard points as (body, point).
pub(super) fn hazard_points(hazards: &[crate::case::Hazard]) -> Vec<(usize, [f64; 3])> {
    hazards.iter().map(|h| (h.body, h.point)).collect()
}

/// One point at one configuration: its velocity `J q̇` (world axes), the
/// mass along it (`None` at rest or infinite) and the worst-direction
/// mass (`None`: infinite). What `meff.Robot.contact_speeds` computes per
/// configuration, and the program per sample and hazard point.
pub fn point_masses(
    robot: &crate::robot::Robot,
    armature: bool,
    q: &[f64],
    qd: &[f64],
    point: (usize, [f64; 3]),
) -> ([f64; 3], Option<f64>, Option<f64>) {
    let (rows, inv) = point_responses(robot, armature, q, &[point]);
    let qd = DVector::from_column_slice(qd);
    let vd = &rows * &qd;
    let v = Vector3::new(vd[0], vd[1], vd[2]);
    let Some(inv) = inv else {
        return ([v.x, v.y, v.z], None, None);
    };
    let a = block(&inv, 0);
    let speed = v.norm();
    let exact = (speed > AT_REST)
        .then(|| v / speed)
        .and_then(|u| mass_along(&a, &u));
    ([v.x, v.y, v.z], exact, worst_mass(&a))
}

/// The mass of the bodies a joint moves (the rule's M, payloads included
/// when they are bodies of the tree).
pub fn moving_mass(tree: &crate::kinematics::Tree) -> f64 {
    let kin = tree.kinematics(&tree.qpos0);
    (0..tree.bodies.len())
        .filter(|&b| tree.last_dof(&kin, b).is_some())
        .map(|b| tree.bodies[b].mass)
        .sum()
}

/// Point `k`'s 3×3 block of Λ⁻¹, symmetrised.
pub(super) fn block(inv: &DMatrix<f64>, k: usize) -> Matrix3<f64> {
    Matrix3::from_fn(|i, j| 0.5 * (inv[(3 * k + i, 3 * k + j)] + inv[(3 * k + j, 3 * k + i)]))
}

/// The mass along the unit direction `u`, 1/(uᵀ Λ⁻¹ u); `None`: infinite.
pub(super) fn mass_along(a: &Matrix3<f64>, u: &Vector3<f64>) -> Option<f64> {
    let x = u.dot(&(a * u));
    (x > IMMOBILE * a.abs().max()).then(|| 1.0 / x)
}

/// The worst-direction mass, 1/λ_min(Λ⁻¹); `None`: infinite.
pub(super) fn worst_mass(a: &Matrix3<f64>) -> Option<f64> {
    crate::linalg::eig::symmetric(*a).and_then(|e| {
        let (lo, hi) = (e.eigenvalues.min(), e.eigenvalues.amax());
        (lo > IMMOBILE * hi && lo > 0.0).then(|| 1.0 / lo)
    })
}

/// The hazard points at sample `s`.
fn points_at(r: &RobotForm, motion: &Motion, s: usize) -> Vec<Point> {
    let tree = &r.robot.tree;
    let (nq, nv) = (tree.nq, tree.nv);
    let q = &motion.q[s * nq..(s + 1) * nq];
    let qd = DVector::from_column_slice(&motion.qd[s * nv..(s + 1) * nv]);
    let (rows, inv) = point_responses(&r.robot, r.armature, q, &hazard_points(&motion.hazards));
    (0..motion.hazards.len())
        .map(|k| {
            let vd = rows.rows(3 * k, 3) * &qd;
            let v = Vector3::new(vd[0], vd[1], vd[2]);
            let Some(inv) = &inv else {
                return Point {
                    v,
                    exact: None,
                    worst: None,
                };
            };
            let a = block(inv, k);
            let speed = v.norm();
            let exact = (speed > AT_REST)
                .then(|| v / speed)
                .and_then(|u| mass_along(&a, &u));
            Point {
                v,
                exact,
                worst: worst_mass(&a),
            }
        })
        .collect()
}

/// Each sample's share of the program's time: half of each interval it
/// bounds.
fn weights(t: &[f64]) -> Vec<f64> {
    let n = t.len();
    (0..n)
        .map(|i| 0.5 * (t[(i + 1).min(n - 1)] - t[i.saturating_sub(1)]))
        .collect()
}

/// How the per-sample series were kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SeriesKind {
    /// One point per sample.
    Full,
    /// One point per bin of `bin` consecutive samples, holding the bin's
    /// worst value of each series (largest speed and mass, smallest v_max).
    Envelope,
}

/// The series' sampling: which samples each point stands for.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct SeriesInfo {
    /// `full` or `envelope`.
    pub kind: SeriesKind,
    /// Samples per point: point i stands for samples i·bin … (i+1)·bin − 1.
    pub bin: usize,
    /// Points in each series.
    pub points: usize,
}

impl SeriesInfo {
    fn new(n: usize, mode: SeriesMode) -> Self {
        let bin = match mode {
            SeriesMode::Full => 1,
            SeriesMode::Bounded => n.div_ceil(SERIES_POINTS).max(1),
        };
        SeriesInfo {
            kind: if bin == 1 {
                SeriesKind::Full
            } else {
                SeriesKind::Envelope
            },
            bin,
            points: n.div_ceil(bin),
        }
    }

    /// `f` over the samples, each bin reduced by `pick` (the worse of two).
    fn reduce<T>(&self, n: usize, f: impl Fn(usize) -> T, pick: impl Fn(T, T) -> T) -> Vec<T> {
        (0..n)
            .step_by(self.bin)
            .map(|a| {
                let mut it = (a..(a + self.bin).min(n)).map(&f);
                let first = it.next().expect("a bin has a sample");
                it.fold(first, &pick)
            })
            .collect()
    }
}

fn larger(a: f64, b: f64) -> f64 {
    a.max(b)
}

fn smaller(a: f64, b: f64) -> f64 {
    a.min(b)
}

/// The larger of two values where `None` is absent (at rest).
fn larger_present(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, None) | (None, x) => x,
    }
}

/// The smaller of two values where `None` is absent (at rest).
fn smaller_present(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) | (None, x) => x,
    }
}

/// The larger of two masses where `None` is infinite.
fn larger_mass(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    a.zip(b).map(|(x, y)| x.max(y))
}

/// Every sample's hazard points, samples evaluated in parallel (each is
/// independent; the order is the samples').
fn all_points(r: &RobotForm, motion: &Motion) -> Vec<Vec<Point>> {
    use rayon::prelude::*;
    (0..motion.time.len())
        .into_par_iter()
        .with_min_len(64)
        .map(|s| points_at(r, motion, s))
        .collect()
}

/// The program section of a `[model]` case with a `[motion]`.
pub fn analyze(case: &Case) -> Option<ProgramReport> {
    let (Form::Robot(r), Some(motion)) = (&case.form, &case.motion) else {
        return None;
    };
    let tree = &r.robot.tree;
    let n = motion.time.len();
    let per_sample = all_points(r, motion);
    let (moving_mass, payload_mass) = super::robot::rule_masses(r);
    let rule_mass = moving_mass / 2.0 + payload_mass;
    let lower = super::robot::exact_is_lower_bound(r.armature, super::robot::armature_total(tree));
    let rules = Rules {
        mass: rule_mass,
        lower,
    };
    let series = SeriesInfo::new(n, motion.series);
    let hazards: Vec<HazardReport> = motion
        .hazards
        .iter()
        .enumerate()
        .map(|(k, h)| HazardReport {
            name: h.name.clone(),
            body: tree.bodies[h.body].name.clone(),
            point: h.point,
            peak_speed: per_sample
                .iter()
                .fold(0.0, |a: f64, p| a.max(p[k].v.norm())),
            speed: series.reduce(n, |s| per_sample[s][k].v.norm(), larger),
            mass_exact: series.reduce(n, |s| per_sample[s][k].exact, larger_present),
            mass_worst_direction: series.reduce(n, |s| per_sample[s][k].worst, larger_mass),
        })
        .collect();
    let w = weights(&motion.time);
    let duration = motion.time[n - 1] - motion.time[0];
    let mut pairs = Vec::new();
    let mut over_any = vec![false; n];
    let mut minima: Vec<(f64, usize, usize, usize)> = Vec::new();
    for (k, h) in motion.hazards.iter().enumerate() {
        for &ri in &h.regions {
            let at = Pair {
                motion,
                per_sample: &per_sample,
                k,
                ri,
                rules,
                series,
            };
            pairs.push(at.report(&w, duration, &mut over_any, &mut minima));
        }
    }
    minima.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let worst_samples: Vec<SampleRow> = minima
        .iter()
        .take(WORST_ROWS)
        .map(|&(_, s, k, ri)| sample_row(motion, &per_sample, k, ri, s, rules))
        .collect();
    let smallest = |f: fn(&PairReport) -> Option<f64>| {
        pairs
            .iter()
            .filter_map(f)
            .fold(None, |a: Option<f64>, x| Some(a.map_or(x, |a| a.min(x))))
    };
    let factor_verdict = smallest(|p| p.factor_verdict);
    let worst = pairs
        .iter()
        .filter(|p| p.factor_verdict.is_some())
        .min_by(|a, b| {
            a.factor_verdict
                .unwrap_or(f64::INFINITY)
                .total_cmp(&b.factor_verdict.unwrap_or(f64::INFINITY))
        })
        .and_then(|p| p.worst.clone());
    let ratios = per_sample
        .iter()
        .flat_map(|p| {
            p.iter()
                .filter(|x| x.v.norm() > AT_REST)
                .filter_map(|x| x.exact)
        })
        .map(|m| m / rule_mass);
    let mass_ratio = ratios.fold(None, |a: Option<[f64; 2]>, x| {
        Some(a.map_or([x, x], |[lo, hi]| [lo.min(x), hi.max(x)]))
    });
    let fraction_over = if duration > 0.0 {
        (0..n).filter(|&s| over_any[s]).map(|s| w[s]).sum::<f64>() / duration + 0.0
    } else {
        0.0
    };
    let (file, interpolation, step, waypoints) = match &motion.program {
        Program::Trajectory(f) => (Some(f.clone()), None, None, None),
        Program::Waypoints {
            interpolation,
            step,
            count,
        } => (None, Some(interpolation.name()), Some(*step), Some(*count)),
    };
    Some(ProgramReport {
        program: match motion.program {
            Program::Trajectory(_) => "trajectory",
            Program::Waypoints { .. } => "waypoints",
        },
        file,
        interpolation,
        step,
        waypoints,
        velocities: motion.velocities.name(),
        joints: motion
            .joints
            .iter()
            .map(|&j| tree.joints[j].name.clone())
            .collect(),
        samples: n,
        series,
        time: series.reduce(n, |s| motion.time[s], smaller),
        duration,
        moving_mass,
        payload_mass,
        rule_mass,
        hazards,
        regions: motion.regions.clone(),
        exact_is_lower_bound: lower,
        governing: worst.as_ref().map_or(Governing::Exact, |w| w.governing),
        within: factor_verdict.is_none_or(|f| f >= 1.0),
        factor_verdict,
        factor: smallest(|p| p.factor_exact),
        factor_worst_direction: smallest(|p| p.factor_worst_direction),
        factor_rule: smallest(|p| p.factor_rule),
        fraction_over,
        first_over: (0..n).find(|&s| over_any[s]).map(|s| motion.time[s]),
        worst,
        worst_samples,
        mass_ratio,
        warnings: motion.warnings.iter().map(ToString::to_string).collect(),
        pairs,
    })
}

/// One hazard point against one region along the program.
struct Pair<'a> {
    motion: &'a Motion,
    per_sample: &'a [Vec<Point>],
    k: usize,
    ri: usize,
    rules: Rules,
    series: SeriesInfo,
}

/// The rule's mass and whether the exact mass is only a lower bound.
#[derive(Clone, Copy)]
struct Rules {
    mass: f64,
    lower: bool,
}

impl Rules {
    /// Which mass the verdict rests on for a point of exact mass `exact`.
    fn governing(self, exact: Option<f64>) -> Governing {
        super::robot::governing(exact, Some(self.mass), self.lower)
    }

    /// The verdict's mass for a point of exact mass `exact`.
    fn verdict(self, exact: Option<f64>) -> Option<f64> {
        match self.governing(exact) {
            Governing::Exact => exact,
            Governing::RuleOfThumb => Some(self.mass),
        }
    }
}

/// `masses`' index of the verdict's mass.
const VERDICT: usize = 3;

impl Pair<'_> {
    /// The pair's report; marks the samples over the limit in `over_any`
    /// and adds the local minima of the verdict factor to `minima`.
    fn report(
        &self,
        w: &[f64],
        duration: f64,
        over_any: &mut [bool],
        minima: &mut Vec<(f64, usize, usize, usize)>,
    ) -> PairReport {
        let Pair {
            motion,
            per_sample,
            k,
            ri,
            rules,
            series,
        } = *self;
        let n = motion.time.len();
        let region = &motion.regions[ri];
        let masses = |s: usize| {
            let p = &per_sample[s][k];
            [p.exact, p.worst, Some(rules.mass), rules.verdict(p.exact)]
        };
        // v_max/v per sample and mass model (∞ at rest): v_max depends on
        // the mass alone, so one transfer per sample and model.
        let mut min_factor = [None::<f64>; 4];
        let mut over_time = [0.0; 4];
        let mut verdict_factor = vec![f64::INFINITY; n];
        for s in 0..n {
            let v = per_sample[s][k].v.norm();
            if v <= AT_REST {
                continue;
            }
            for (i, m) in masses(s).into_iter().enumerate() {
                let t = transfer(m, region, v);
                min_factor[i] = Some(min_factor[i].map_or(t.factor, |a| a.min(t.factor)));
                if !t.within {
                    over_time[i] += w[s];
                    if i == VERDICT {
                        over_any[s] = true;
                    }
                }
                if i == VERDICT {
                    verdict_factor[s] = t.factor;
                }
            }
        }
        let fraction = |x: f64| {
            if duration > 0.0 {
                x / duration + 0.0
            } else {
                0.0
            }
        };
        for s in 0..n {
            let f = verdict_factor[s];
            let left = if s > 0 {
                verdict_factor[s - 1]
            } else {
                f64::INFINITY
            };
            let right = verdict_factor.get(s + 1).copied().unwrap_or(f64::INFINITY);
            if f.is_finite() && f <= left && f < right {
                minima.push((f, s, k, ri));
            }
        }
        let worst = (0..n)
            .filter(|&s| verdict_factor[s].is_finite())
            .min_by(|&a, &b| verdict_factor[a].total_cmp(&verdict_factor[b]))
            .map(|s| sample_row(motion, per_sample, k, ri, s, rules));
        let v_max = |s: usize, i: usize| transfer(masses(s)[i], region, 1.0).max_speed;
        let moving = |s: usize| per_sample[s][k].v.norm() > AT_REST;
        PairReport {
            hazard: motion.hazards[k].name.clone(),
            region: region.name.clone(),
            worst,
            factor_verdict: min_factor[VERDICT],
            factor_exact: min_factor[0],
            factor_worst_direction: min_factor[1],
            factor_rule: min_factor[2],
            fraction_over: fraction(over_time[0]),
            fraction_over_rule: fraction(over_time[2]),
            max_speed_exact: series.reduce(n, |s| moving(s).then(|| v_max(s, 0)), smaller_present),
            max_speed_worst_direction: series.reduce(n, |s| v_max(s, 1), smaller),
            max_speed_rule: series.reduce(n, |s| v_max(s, 2), smaller),
        }
    }
}

fn sample_row(
    motion: &Motion,
    per_sample: &[Vec<Point>],
    k: usize,
    ri: usize,
    s: usize,
    rules: Rules,
) -> SampleRow {
    let p = &per_sample[s][k];
    let region = &motion.regions[ri];
    let speed = p.v.norm();
    let u = if speed > 0.0 { p.v / speed } else { p.v };
    SampleRow {
        sample: s,
        time: motion.time[s],
        hazard: motion.hazards[k].name.clone(),
        region: region.name.clone(),
        speed,
        direction: [u.x, u.y, u.z],
        exact: transfer(p.exact, region, speed),
        worst_direction: transfer(p.worst, region, speed),
        rule: transfer(Some(rules.mass), region, speed),
        governing: rules.governing(p.exact),
    }
}
