//! What a robot model adds to the analysis of its contacts: the effective
//! mass with and without the joints' rotor inertia (armature), the
//! "rule of thumb" masses beside the exact value, and the effective-mass
//! ellipsoid at each contact point (operational-space inertia of the point,
//! Khatib's Λ = (J_p M⁻¹ J_pᵀ)⁻¹, constrained by the model's equality rows).
//!
//! Input: a `[model]` case at its own parameter values. Output: a
//! [`RobotReport`] (plain numbers, serialised into the report's `robot`).

use crate::case::{Case, ContactGeometry, Form, RobotForm, Side};
use crate::kinematics::{JointKind, Kinematics};
use crate::linalg::response;
use crate::model::robot::robot_system;
use nalgebra::{DMatrix, Matrix3, SymmetricEigen, Vector3};
use serde::Serialize;

/// The robot section of a report.
#[derive(Clone, Debug, Serialize)]
pub struct RobotReport {
    /// `MJCF` or `URDF`.
    pub format: &'static str,
    /// The model file as written in the case.
    pub file: String,
    /// The model's name.
    pub name: String,
    /// Number of bodies (links).
    pub bodies: usize,
    /// The rule's M: the mass of the bodies moved by the joints, the
    /// case's payloads left out (kg).
    pub moving_mass: f64,
    /// The rule's m_L: the case's payloads on moving bodies (kg).
    pub payload_mass: f64,
    /// The rule of thumb (ISO/TS 15066) m_R = M/2 + m_L (kg).
    pub rule_mass: f64,
    /// Total mass of all bodies.
    pub total_mass: f64,
    /// Whether M includes the joints' armature.
    pub armature_included: bool,
    /// Sum of the armature over the velocities (0: the model has none).
    pub armature_total: f64,
    /// The keyframe the configuration starts from.
    pub keyframe: Option<String>,
    /// Hinge and slide joint values (rad or m).
    pub configuration: Vec<JointValue>,
    /// Number of constraint rows from the model (equality, mimic).
    pub constraint_rows: usize,
    /// What the model reader left out and why.
    pub notes: Vec<String>,
    /// Per contact.
    pub contacts: Vec<RobotContact>,
}

/// A joint's value.
#[derive(Clone, Debug, Serialize)]
pub struct JointValue {
    /// Joint name.
    pub joint: String,
    /// Value in SI (rad or m).
    pub value: f64,
    /// `rad` or `m`.
    pub unit: &'static str,
}

/// A contact on a robot body.
#[derive(Clone, Debug, Serialize)]
pub struct RobotContact {
    /// Contact name.
    pub name: String,
    /// Body (link) it is on.
    pub body: String,
    /// Contact point, world coordinates.
    pub point: [f64; 3],
    /// Normal, world coordinates.
    pub normal: [f64; 3],
    /// m_eff with the armature in M.
    pub m_eff_with_armature: Option<f64>,
    /// m_eff without it.
    pub m_eff_without_armature: Option<f64>,
    /// The rule of thumb M/2 + m_L (kg).
    pub rule_mass: f64,
    /// m_eff (as analysed) over the rule of thumb.
    pub ratio_to_rule: Option<f64>,
    /// The effective-mass ellipsoid at the contact point.
    pub ellipsoid: Ellipsoid,
}

/// m_eff for every direction at a point: `m(d) = 1 / (dᵀ Λ⁻¹ d)`.
#[derive(Clone, Debug, Serialize)]
pub struct Ellipsoid {
    /// Principal masses, largest first (`None`: the point cannot move that
    /// way, infinite mass).
    pub masses: [Option<f64>; 3],
    /// Principal directions (unit, world), in the order of `masses`.
    pub directions: [[f64; 3]; 3],
    /// `Λ⁻¹ = J_p M⁻¹ J_pᵀ` (1/kg), world axes.
    pub inverse: [[f64; 3]; 3],
    /// The plane of the polar plot: the contact normal and a unit
    /// direction orthogonal to it (the most massive principal direction's
    /// part orthogonal to the normal) — or, when one principal mass is
    /// infinite, the two finite principal directions (see `plane_kind`).
    pub plane: [[f64; 3]; 2],
    /// `normal` (the normal and the direction across it), `finite` (the
    /// two finite principal directions: one principal mass is infinite)
    /// or `none` (two or three are infinite: no plot).
    pub plane_kind: &'static str,
    /// m_eff along `cos θ · plane[0] + sin θ · plane[1]`, θ = 0°, 5°, …, 355°
    /// (`None`: infinite).
    pub polar: Vec<Option<f64>>,
}

/// Directions in the polar plot.
pub const POLAR_STEPS: usize = 72;

/// A·x = 0 within this fraction of the largest: an immobile direction.
const IMMOBILE: f64 = 1e-12;

/// What the analysis stage computes for a case's robot and persons.
#[derive(Clone, Debug, Default)]
pub struct CaseResults {
    /// The robot section of a `[model]` case.
    pub robot: Option<RobotReport>,
    /// The `[[person]]` results, in case order.
    pub persons: Vec<PersonReport>,
    /// A `[model]` case's numbers at its configuration (as the case asks
    /// for armature): the sketch draws its pose from them.
    pub system: Option<crate::model::robot::RobotSystem>,
}

/// The robot section, the `[[person]]` results and a `[model]` case's
/// numbers, from the case and its analysis (the robot section and the
/// persons read every contact's m_eff: small cases only; none for a case
/// without a `[model]` or persons).
pub fn case_results(case: &Case, an: &super::Analysis) -> CaseResults {
    let per_contact = matches!(case.form, Form::Robot(_)) || !case.persons.is_empty();
    let n_pc = if per_contact { an.contacts.len() } else { 0 };
    let m_effs: Vec<Option<f64>> = an.contacts[..n_pc].iter().map(|r| r.m_eff).collect();
    let naives: Vec<Option<f64>> = an.contacts[..n_pc].iter().map(|r| r.naive_mass).collect();
    let robot = analyze(case, &m_effs);
    let persons = persons(case, &m_effs, &naives, robot.as_ref());
    let system = match &case.form {
        Form::Robot(r) => Some(
            robot_system(
                case,
                r,
                &mut |v: &crate::case::Val| Ok::<f64, std::convert::Infallible>(v.si),
                r.armature,
            )
            .unwrap_or_else(|e| match e {}),
        ),
        _ => None,
    };
    CaseResults {
        robot,
        persons,
        system,
    }
}

/// The robot section of a `[model]` case's report (`None` for other cases).
pub fn analyze(case: &Case, m_eff: &[Option<f64>]) -> Option<RobotReport> {
    let Form::Robot(r) = &case.form else {
        return None;
    };
    let tree = &r.robot.tree;
    let numbers = |armature| {
        robot_system(
            case,
            r,
            &mut |v: &crate::case::Val| Ok::<f64, std::convert::Infallible>(v.si),
            armature,
        )
        .unwrap_or_else(|e| match e {})
    };
    let (sys_with, sys_without) = (numbers(true), numbers(false));
    let n = sys_with.m.len();
    let dense = |m: &Vec<Vec<f64>>| DMatrix::from_fn(n, n, |i, j| m[i][j]);
    let (with, without) = (dense(&sys_with.m), dense(&sys_without.m));
    let g = &sys_with.constraints;
    let q = &sys_with.q;
    let kin = tree.kinematics(q);
    // One rule of thumb on the sheet: the program's M/2 + m_L.
    let (moving_mass, payload_mass) = rule_masses(r);
    let rule_mass = moving_mass / 2.0 + payload_mass;
    let armature_total = armature_total(tree);
    let m_used = if r.armature { &with } else { &without };
    let contacts = case
        .contacts
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let ContactGeometry::Link { body, other, .. } = &c.geometry else {
                return None;
            };
            // The robot side of the contact.
            let b = [Some(*body), *other]
                .into_iter()
                .flatten()
                .find_map(|s| match s {
                    Side::Model(b) => Some(b),
                    Side::Case(_) => None,
                })?;
            let (p, nrm) = sys_with.points[i];
            let row = DMatrix::from_row_slice(1, n, &sys_with.rows[i]);
            // Immobile by the analysis' own test (the constrained a_i below
            // IMMOBILE_RATIO of the unconstrained one), never 1/round-off: a
            // contact on a welded body is immobile here too.
            let meff = |m: &DMatrix<f64>| {
                let free = response(m, &[], &row)?[(0, 0)];
                let a = response(m, g, &row)?[(0, 0)];
                (a > 0.0 && a > crate::linalg::IMMOBILE_RATIO * free).then(|| 1.0 / a)
            };
            let analysis_immobile = m_eff.get(i).is_some_and(Option::is_none);
            let (with_a, without_a) = (meff(&with), meff(&without));
            // Immobility is kinematic: armature does not change it.
            let (with_a, without_a) = if analysis_immobile {
                (None, None)
            } else {
                (with_a, without_a)
            };
            Some(RobotContact {
                name: c.name.clone(),
                body: tree.bodies[b].name.clone(),
                point: (p + sys_with.origin).into(),
                normal: nrm.into(),
                m_eff_with_armature: with_a,
                m_eff_without_armature: without_a,
                rule_mass,
                ratio_to_rule: m_eff
                    .get(i)
                    .copied()
                    .flatten()
                    .filter(|_| rule_mass > 0.0)
                    .map(|m| m / rule_mass),
                ellipsoid: ellipsoid(tree, &kin, m_used, g, b, &p, &nrm),
            })
        })
        .collect();
    Some(RobotReport {
        format: r.robot.format.name(),
        file: r.file.clone(),
        name: r.robot.name.clone(),
        bodies: tree.bodies.len(),
        moving_mass,
        payload_mass,
        rule_mass,
        total_mass: tree.total_mass(),
        armature_included: r.armature,
        armature_total,
        keyframe: r.keyframe.clone(),
        configuration: configuration(r, q),
        constraint_rows: g.len(),
        notes: r.robot.notes.clone(),
        contacts,
    })
}

fn configuration(r: &RobotForm, q: &[f64]) -> Vec<JointValue> {
    r.robot
        .tree
        .joints
        .iter()
        .filter_map(|j| {
            let unit = match j.kind {
                JointKind::Hinge => "rad",
                JointKind::Slide => "m",
                _ => return None,
            };
            Some(JointValue {
                joint: j.name.clone(),
                value: q[j.qpos_adr],
                unit,
            })
        })
        .collect()
}

/// The rows of the world-axis velocities of point `p` of `body` (3×n; the
/// tree's velocities first, zero beyond them).
pub(crate) fn point_rows(
    tree: &crate::kinematics::Tree,
    kin: &Kinematics,
    body: usize,
    p: &Vector3<f64>,
    n: usize,
) -> DMatrix<f64> {
    let mut jp = DMatrix::zeros(3, n);
    for k in 0..3 {
        let row = tree.point_row(kin, body, p, &Vector3::ith(k, 1.0));
        for (j, v) in row.into_iter().enumerate() {
            jp[(k, j)] = v;
        }
    }
    jp
}

fn ellipsoid(
    tree: &crate::kinematics::Tree,
    kin: &Kinematics,
    m: &DMatrix<f64>,
    g: &[Vec<f64>],
    body: usize,
    p: &Vector3<f64>,
    normal: &Vector3<f64>,
) -> Ellipsoid {
    let jp = point_rows(tree, kin, body, p, m.nrows());
    let inv = response(m, g, &jp).unwrap_or_else(|| DMatrix::zeros(3, 3));
    let inv3 = Matrix3::from_fn(|i, j| 0.5 * (inv[(i, j)] + inv[(j, i)]));
    // Not finite (or not converged): NaN moments, no principal mass and
    // no plot, rather than numbers from a matrix that has none.
    let eig = crate::linalg::eig::symmetric(inv3).unwrap_or(SymmetricEigen {
        eigenvalues: Vector3::repeat(f64::NAN),
        eigenvectors: Matrix3::identity(),
    });
    let top = eig.eigenvalues.amax();
    // Smallest 1/m first = largest mass first.
    let mut order = [0usize, 1, 2];
    order.sort_by(|&a, &b| eig.eigenvalues[a].total_cmp(&eig.eigenvalues[b]));
    let mass = |a: f64| (a > IMMOBILE * top && a > 0.0).then(|| 1.0 / a);
    let masses = order.map(|k| mass(eig.eigenvalues[k]));
    let directions = order.map(|k| {
        let d = eig.eigenvectors.column(k).into_owned();
        // A sign convention for determinism: the largest component positive.
        let big = d.iamax();
        let d = if d[big] < 0.0 { -d } else { d };
        [d.x, d.y, d.z]
    });
    let nrm = normal.normalize();
    // m(d) around the circle spanned by two unit vectors.
    let polar_in = |e0: Vector3<f64>, e1: Vector3<f64>| -> Vec<Option<f64>> {
        (0..POLAR_STEPS)
            .map(|s| {
                let th = (s as f64) * std::f64::consts::TAU / POLAR_STEPS as f64;
                let d = e0 * th.cos() + e1 * th.sin();
                mass(d.dot(&(inv3 * d)))
            })
            .collect()
    };
    let finite: Vec<usize> = (0..3).filter(|&k| masses[k].is_some()).collect();
    let (plane, plane_kind, polar) = match finite.len() {
        // One principal mass infinite: the plane of the two finite ones.
        2 => {
            let plane = [directions[finite[0]], directions[finite[1]]];
            let polar = polar_in(Vector3::from(plane[0]), Vector3::from(plane[1]));
            (plane, "finite", polar)
        }
        3 => {
            // The normal and the most massive direction across it.
            let mut u = Vector3::zeros();
            for dir in directions.iter() {
                let d = Vector3::from(*dir);
                let perp = d - nrm * nrm.dot(&d);
                if perp.norm() > 1e-6 {
                    u = perp.normalize();
                    break;
                }
            }
            if u.norm() == 0.0 {
                u = nrm.cross(&Vector3::x());
                if u.norm() < 1e-6 {
                    u = nrm.cross(&Vector3::y());
                }
                u = u.normalize();
            }
            let plane = [[nrm.x, nrm.y, nrm.z], [u.x, u.y, u.z]];
            (plane, "normal", polar_in(nrm, u))
        }
        _ => ([[nrm.x, nrm.y, nrm.z], [0.0; 3]], "none", Vec::new()),
    };
    Ellipsoid {
        masses,
        directions,
        inverse: [
            [inv3[(0, 0)], inv3[(0, 1)], inv3[(0, 2)]],
            [inv3[(1, 0)], inv3[(1, 1)], inv3[(1, 2)]],
            [inv3[(2, 0)], inv3[(2, 1)], inv3[(2, 2)]],
        ],
        plane,
        plane_kind,
        polar,
    }
}

/// Transient contact with a body region: the region's mass and spring in
/// series with the robot's mass at the contact.
#[derive(Clone, Debug, Serialize)]
pub struct Transient {
    /// The robot's mass at the contact, m_R.
    pub robot_mass: f64,
    /// Reduced mass μ = (1/m_R + 1/m_H)⁻¹.
    pub reduced_mass: f64,
    /// ω = √(k_H/μ).
    pub omega: f64,
    /// Duration of the contact, half a period: π/ω.
    pub duration: f64,
    /// Peak force at the given speed, v·√(μ k_H).
    pub peak_force: Option<f64>,
    /// The speed at which the peak force reaches the force limit.
    pub max_speed: Option<f64>,
}

/// A `[[person]]` entry's results.
#[derive(Clone, Debug, Serialize)]
pub struct PersonReport {
    /// Contact name.
    pub contact: String,
    /// Body region label.
    pub region: String,
    /// m_H as given (kg).
    pub mass: f64,
    /// k_H as given (N/m).
    pub stiffness: f64,
    /// F_max as given (N).
    pub force_limit: Option<f64>,
    /// Speed as given (m/s).
    pub speed: Option<f64>,
    /// With the exact m_eff.
    pub exact: Option<Transient>,
    /// What the rule of thumb takes as m_R: half the moving mass for a
    /// model, the naive mass for bodies; `None` in generalized form.
    pub rule_of_thumb: Option<Transient>,
    /// Which rule of thumb.
    pub rule_of_thumb_name: Option<&'static str>,
    /// The exact m_eff is a lower bound on the real machine's: a `[model]`
    /// whose mass matrix has no joint armature (rotor and gearbox inertia,
    /// N² I_rotor) behind its joints. Its peak force is then a lower bound
    /// and its permitted speed an upper bound, not a limit.
    pub exact_is_lower_bound: bool,
    /// Which m_R the verdict is on: `exact`, or `rule_of_thumb` where the
    /// exact m_eff is a lower bound (the larger force and smaller speed of
    /// the two; docs/physics.md).
    pub governing: Governing,
}

/// Which robot mass a person verdict rests on (closed set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Governing {
    /// The exact m_eff.
    Exact,
    /// The rule of thumb (ISO/TS 15066 m_mov/2 + m_L; the naive mass for
    /// bodies), where the exact m_eff is only a lower bound.
    RuleOfThumb,
}

impl PersonReport {
    /// The results the verdict rests on (see [`PersonReport::governing`]).
    pub fn governing_results(&self) -> Option<&Transient> {
        match self.governing {
            Governing::Exact => self.exact.as_ref(),
            Governing::RuleOfThumb => self.rule_of_thumb.as_ref().or(self.exact.as_ref()),
        }
    }
}

/// The joints' armature in M (kg m² or kg, summed over velocities).
pub fn armature_total(tree: &crate::kinematics::Tree) -> f64 {
    tree.joints
        .iter()
        .map(|j| j.armature * j.kind.nv() as f64)
        .sum()
}

/// Whether a `[model]`'s exact m_eff is only a lower bound on the real
/// machine's: its M has no joint armature (rotor and gearbox inertia),
/// left out (`armature = false`) or absent from the model.
pub fn exact_is_lower_bound(armature_included: bool, armature_total: f64) -> bool {
    !(armature_included && armature_total > 0.0)
}

/// Which robot mass a verdict rests on — the person verdict and the
/// program's speed factors alike (docs/physics.md): the exact m_eff, or,
/// where it is a lower bound (`lower`), the rule mass when that is larger
/// (the larger μ: the larger force, the smaller permitted speed). `exact`
/// `None` is no finite mass (an immobile direction, the most cautious): the
/// exact one governs.
pub fn governing(exact: Option<f64>, rule: Option<f64>, lower: bool) -> Governing {
    match (exact, rule) {
        (Some(e), Some(r)) if lower && r > e => Governing::RuleOfThumb,
        _ => Governing::Exact,
    }
}

pub(crate) fn transient(
    m_r: f64,
    m_h: f64,
    k_h: f64,
    v: Option<f64>,
    f_max: Option<f64>,
) -> Transient {
    // Robot and body region meet as two masses and one undamped spring:
    // an impact of the reduced mass (the same closed forms as
    // `[[impact]]`; at unit speed the peak force is √(μ k_H)).
    let mu = 1.0 / (1.0 / m_r + 1.0 / m_h);
    let unit = super::impact::single(mu, k_h, 0.0, 1.0);
    Transient {
        robot_mass: m_r,
        reduced_mass: mu,
        omega: unit.omega,
        duration: unit.duration,
        peak_force: v.map(|v| super::impact::single(mu, k_h, 0.0, v).peak_force),
        max_speed: f_max.map(|f| f / unit.peak_force),
    }
}

/// Results of the case's `[[person]]` entries. `m_eff` and `naive` per
/// contact (as analysed); `robot` when the case is a model.
pub fn persons(
    case: &Case,
    m_eff: &[Option<f64>],
    naive: &[Option<f64>],
    robot: Option<&RobotReport>,
) -> Vec<PersonReport> {
    case.persons
        .iter()
        .map(|p| {
            let (m_h, k_h) = (p.mass.si, p.stiffness.si);
            let v = p.speed.as_ref().map(|v| v.si);
            let f = p.force_limit.as_ref().map(|v| v.si);
            let (rule, name) = match robot {
                Some(r) => (Some(r.rule_mass), Some("m_mov/2 + m_L")),
                None => (
                    naive.get(p.contact).copied().flatten(),
                    Some("the naive mass"),
                ),
            };
            let rule = rule.filter(|m| *m > 0.0);
            // A model without armature in M: m_eff is a lower bound.
            let lower =
                robot.is_some_and(|r| exact_is_lower_bound(r.armature_included, r.armature_total));
            let exact = m_eff
                .get(p.contact)
                .copied()
                .flatten()
                .map(|m| transient(m, m_h, k_h, v, f));
            let rule_of_thumb = rule.map(|m| transient(m, m_h, k_h, v, f));
            // The verdict on the larger of the two masses where the exact
            // one is a lower bound (the larger μ: the larger force, the
            // smaller permitted speed).
            let governing = governing(exact.as_ref().map(|e| e.robot_mass), rule, lower);
            PersonReport {
                contact: case.contact_name(p.contact).into_owned(),
                region: p.region.clone(),
                mass: m_h,
                stiffness: k_h,
                force_limit: f,
                speed: v,
                exact,
                rule_of_thumb,
                rule_of_thumb_name: rule.and(name),
                exact_is_lower_bound: lower,
                governing,
            }
        })
        .collect()
}

/// The moving mass of the model without payloads, and the payloads' mass.
pub fn rule_masses(r: &RobotForm) -> (f64, f64) {
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
