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
//! `√(2 E_max/μ)` by energy, the smaller governing. A mass that is
//! infinite (a direction the point cannot move in, or M not factorable at
//! a sample) gives `μ = m_H`, the most cautious value.
//!
//! Program answers: the worst sample, the fraction of the program's time
//! over the limit, and the largest uniform speed factor keeping every
//! sample within its limit: speeds scale linearly with a uniform time
//! scaling and the direction (so every mass) does not change, so it is
//! `min v_max/v` over the samples.

use crate::case::{Case, Form, Motion, Program, RobotForm};
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
    /// The smaller of the two (m/s).
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
    /// |v| at every sample (m/s).
    pub speed: Vec<f64>,
    /// The exact mass along v at every sample (kg); `null` at rest or infinite.
    pub mass_exact: Vec<Option<f64>>,
    /// The worst-direction mass at every sample (kg); `null`: infinite.
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
    /// The sample with the smallest exact factor.
    pub worst: Option<SampleRow>,
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
    /// v_max at every sample, exact mass (m/s); `null` at rest.
    pub max_speed_exact: Vec<Option<f64>>,
    /// v_max at every sample, worst-direction mass (m/s).
    pub max_speed_worst_direction: Vec<f64>,
    /// v_max at every sample, rule (m/s).
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
    /// Sample times (s).
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
    /// Every sample within its limit (exact mass).
    pub within: bool,
    /// The largest uniform speed factor keeping every sample within its
    /// limit, exact mass (`null`: the hazard points never move).
    pub factor: Option<f64>,
    /// The same with the worst-direction mass.
    pub factor_worst_direction: Option<f64>,
    /// The same with the rule.
    pub factor_rule: Option<f64>,
    /// Fraction of the program's time with some pair over its limit.
    pub fraction_over: f64,
    /// The first time a sample is over its limit (s).
    pub first_over: Option<f64>,
    /// The sample with the smallest exact factor.
    pub worst: Option<SampleRow>,
    /// The worst moments (local minima of the exact factor), smallest first.
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
    let (max_speed, limited_by) = match (by_force, by_energy) {
        (Some(f), Some(e)) if e < f => (e, LimitKind::Energy),
        (Some(f), _) => (f, LimitKind::Force),
        (None, Some(e)) => (e, LimitKind::Energy),
        (None, None) => unreachable!("a region has a limit (the reader checks)"),
    };
    Transfer {
        robot_mass: m,
        reduced_mass: mu,
        peak_force: speed * root,
        energy: 0.5 * mu * speed * speed,
        max_speed_force: by_force,
        max_speed_energy: by_energy,
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

/// The hazard points at sample `s`.
fn points_at(r: &RobotForm, motion: &Motion, s: usize) -> Vec<Point> {
    let tree = &r.robot.tree;
    let (nq, nv) = (tree.nq, tree.nv);
    let q = &motion.q[s * nq..(s + 1) * nq];
    let qd = DVector::from_column_slice(&motion.qd[s * nv..(s + 1) * nv]);
    let kin = tree.kinematics(q);
    let mt = crate::model::robot::chop_mass(tree.mass_matrix(&kin, r.armature), nv);
    let m = DMatrix::from_row_slice(nv, nv, &mt);
    let g: Vec<Vec<f64>> = r.robot.constraint_rows(&kin, q);
    let h = motion.hazards.len();
    let mut rows = DMatrix::zeros(3 * h, nv);
    for (k, hz) in motion.hazards.iter().enumerate() {
        let p = tree.place(&kin, hz.body, &Vector3::from(hz.point));
        let jp = super::robot::point_rows(tree, &kin, hz.body, &p, nv);
        rows.view_mut((3 * k, 0), (3, nv)).copy_from(&jp);
    }
    let inv = crate::linalg::response(&m, &g, &rows);
    (0..h)
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
            let a = Matrix3::from_fn(|i, j| {
                0.5 * (inv[(3 * k + i, 3 * k + j)] + inv[(3 * k + j, 3 * k + i)])
            });
            let speed = v.norm();
            let exact = (speed > AT_REST).then(|| v / speed).and_then(|u| {
                let x = u.dot(&(a * u));
                (x > IMMOBILE * a.abs().max()).then(|| 1.0 / x)
            });
            let worst = crate::linalg::eig::symmetric(a).and_then(|e| {
                let (lo, hi) = (e.eigenvalues.min(), e.eigenvalues.amax());
                (lo > IMMOBILE * hi && lo > 0.0).then(|| 1.0 / lo)
            });
            Point { v, exact, worst }
        })
        .collect()
}

/// The moving mass of the model without payloads, and the payloads' mass.
fn rule_masses(r: &RobotForm) -> (f64, f64) {
    let tree = &r.robot.tree;
    let kin = tree.kinematics(&tree.qpos0);
    let moving = |b: usize| tree.last_dof(&kin, b).is_some();
    let payload = |b: usize| r.payloads.iter().any(|p| p.body == b);
    let model: f64 = (0..tree.bodies.len())
        .filter(|&b| moving(b) && !payload(b))
        .map(|b| tree.bodies[b].mass)
        .sum();
    let load: f64 = r
        .payloads
        .iter()
        .filter(|p| moving(p.body))
        .map(|p| p.mass)
        .sum();
    (model, load)
}

/// Each sample's share of the program's time: half of each interval it
/// bounds.
fn weights(t: &[f64]) -> Vec<f64> {
    let n = t.len();
    (0..n)
        .map(|i| 0.5 * (t[(i + 1).min(n - 1)] - t[i.saturating_sub(1)]))
        .collect()
}

/// The program section of a `[model]` case with a `[motion]`.
pub fn analyze(case: &Case) -> Option<ProgramReport> {
    let (Form::Robot(r), Some(motion)) = (&case.form, &case.motion) else {
        return None;
    };
    let tree = &r.robot.tree;
    let n = motion.time.len();
    let per_sample: Vec<Vec<Point>> = (0..n).map(|s| points_at(r, motion, s)).collect();
    let (moving_mass, payload_mass) = rule_masses(r);
    let rule_mass = moving_mass / 2.0 + payload_mass;
    let hazards: Vec<HazardReport> = motion
        .hazards
        .iter()
        .enumerate()
        .map(|(k, h)| {
            let speed: Vec<f64> = per_sample.iter().map(|p| p[k].v.norm()).collect();
            HazardReport {
                name: h.name.clone(),
                body: tree.bodies[h.body].name.clone(),
                point: h.point,
                peak_speed: speed.iter().fold(0.0, |a: f64, &b| a.max(b)),
                speed,
                mass_exact: per_sample.iter().map(|p| p[k].exact).collect(),
                mass_worst_direction: per_sample.iter().map(|p| p[k].worst).collect(),
            }
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
                rule_mass,
            };
            pairs.push(at.report(&w, duration, &mut over_any, &mut minima));
        }
    }
    minima.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let worst_samples: Vec<SampleRow> = minima
        .iter()
        .take(WORST_ROWS)
        .map(|&(_, s, k, ri)| sample_row(motion, &per_sample, k, ri, s, rule_mass))
        .collect();
    let smallest = |f: fn(&PairReport) -> Option<f64>| {
        pairs
            .iter()
            .filter_map(f)
            .fold(None, |a: Option<f64>, x| Some(a.map_or(x, |a| a.min(x))))
    };
    let factor = smallest(|p| p.factor_exact);
    let worst = pairs
        .iter()
        .filter(|p| p.factor_exact.is_some())
        .min_by(|a, b| {
            a.factor_exact
                .unwrap_or(f64::INFINITY)
                .total_cmp(&b.factor_exact.unwrap_or(f64::INFINITY))
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
        time: motion.time.clone(),
        duration,
        moving_mass,
        payload_mass,
        rule_mass,
        hazards,
        regions: motion.regions.clone(),
        within: factor.is_none_or(|f| f >= 1.0),
        factor,
        factor_worst_direction: smallest(|p| p.factor_worst_direction),
        factor_rule: smallest(|p| p.factor_rule),
        fraction_over,
        first_over: (0..n).find(|&s| over_any[s]).map(|s| motion.time[s]),
        worst,
        worst_samples,
        mass_ratio,
        warnings: motion.warnings.clone(),
        pairs,
    })
}

/// One hazard point against one region along the program.
struct Pair<'a> {
    motion: &'a Motion,
    per_sample: &'a [Vec<Point>],
    k: usize,
    ri: usize,
    rule_mass: f64,
}

impl Pair<'_> {
    /// The pair's report; marks the samples over the limit in `over_any`
    /// and adds the local minima of the exact factor to `minima`.
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
            rule_mass,
        } = *self;
        let n = motion.time.len();
        let region = &motion.regions[ri];
        let row = |s: usize| sample_row(motion, per_sample, k, ri, s, rule_mass);
        let at = |s: usize| -> Option<[Transfer; 3]> {
            let p = &per_sample[s][k];
            let v = p.v.norm();
            (v > AT_REST)
                .then(|| [p.exact, p.worst, Some(rule_mass)].map(|m| transfer(m, region, v)))
        };
        let all: Vec<Option<[Transfer; 3]>> = (0..n).map(at).collect();
        let min_of = |i: usize| {
            all.iter()
                .flatten()
                .map(|t| t[i].factor)
                .fold(None, |a: Option<f64>, f| Some(a.map_or(f, |a| a.min(f))))
        };
        let over = |i: usize| -> f64 {
            let sum: f64 = (0..n)
                .filter(|&s| all[s].as_ref().is_some_and(|t| !t[i].within))
                .map(|s| w[s])
                .sum();
            if duration > 0.0 {
                sum / duration + 0.0
            } else {
                0.0
            }
        };
        let factor = |s: usize| all[s].as_ref().map_or(f64::INFINITY, |t| t[0].factor);
        for s in 0..n {
            if all[s].as_ref().is_some_and(|t| !t[0].within) {
                over_any[s] = true;
            }
            let f = factor(s);
            let left = if s > 0 { factor(s - 1) } else { f64::INFINITY };
            let right = if s + 1 < n {
                factor(s + 1)
            } else {
                f64::INFINITY
            };
            if f.is_finite() && f <= left && f < right {
                minima.push((f, s, k, ri));
            }
        }
        let worst = (0..n)
            .filter(|&s| all[s].is_some())
            .min_by(|&a, &b| factor(a).total_cmp(&factor(b)))
            .map(row);
        let speed = |s: usize, i: usize| {
            let p = &per_sample[s][k];
            let m = [p.exact, p.worst, Some(rule_mass)][i];
            transfer(m, region, p.v.norm()).max_speed
        };
        PairReport {
            hazard: motion.hazards[k].name.clone(),
            region: region.name.clone(),
            worst,
            factor_exact: min_of(0),
            factor_worst_direction: min_of(1),
            factor_rule: min_of(2),
            fraction_over: over(0),
            fraction_over_rule: over(2),
            max_speed_exact: (0..n)
                .map(|s| all[s].as_ref().map(|t| t[0].max_speed))
                .collect(),
            max_speed_worst_direction: (0..n).map(|s| speed(s, 1)).collect(),
            max_speed_rule: (0..n).map(|s| speed(s, 2)).collect(),
        }
    }
}

fn sample_row(
    motion: &Motion,
    per_sample: &[Vec<Point>],
    k: usize,
    ri: usize,
    s: usize,
    rule_mass: f64,
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
        rule: transfer(Some(rule_mass), region, speed),
    }
}
