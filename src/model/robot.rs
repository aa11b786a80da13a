//! The numbers of a `[model]` case at one configuration: M (the model's
//! joint-space mass matrix by CRBA, then the blocks of the bodies written
//! in the case), the contact rows and the constraint rows, with the names
//! of the velocities, in `f64` only (the kinematics and the CRBA run on
//! numbers: the symbolic engine does not run on models). `build` turns them
//! into the case's scalar type; the robot analysis evaluates them with and
//! without armature.

use crate::case::{BodyKind, Case, ContactGeometry, InertiaVal, RobotForm, Side, Val};
use nalgebra::Vector3;

/// A `[model]` case's system in numbers.
#[derive(Clone, Debug)]
pub struct RobotSystem {
    /// Velocity names and units (the model's, then the case's bodies').
    pub names: Vec<(String, &'static str)>,
    /// Dense M.
    pub m: Vec<Vec<f64>>,
    /// One row per contact.
    pub rows: Vec<Vec<f64>>,
    /// The model's constraint rows (zero on the case's bodies).
    pub constraints: Vec<Vec<f64>>,
    /// Per contact: the point (world axes, relative to `origin`) and the
    /// normal.
    pub points: Vec<(Vector3<f64>, Vector3<f64>)>,
    /// Per contact: the rows of its point's relative velocity along the
    /// world axes x, y, z (what an engine that solves a contact's three
    /// rows, normal and tangents, sees; `engines`).
    pub axis_rows: Vec<[Vec<f64>; 3]>,
    /// The kinematics' origin (world coordinates): a point above is
    /// `origin + p` in the world.
    pub origin: Vector3<f64>,
    /// The configuration.
    pub q: Vec<f64>,
    /// First velocity of each case body (`None` for a fixed one).
    pub offsets: Vec<Option<usize>>,
}

/// Entries below 1e-13 of the largest are rounding (world-frame CRBA sums
/// terms of the size of the largest): exact zeros read better in reports
/// and keep rows sparse.
pub fn chop(mut v: Vec<f64>) -> Vec<f64> {
    let top = v.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    for x in &mut v {
        if x.abs() < 1e-13 * top {
            *x = 0.0;
        }
    }
    v
}

/// Round-off zeros of a mass matrix: an off-diagonal entry below 10⁻¹³ of
/// √(M_ii M_jj), the scale its terms have (|M_ij| ≤ √(M_ii M_jj) for a
/// positive definite M). Never against the largest entry: a rotor's
/// armature of 10¹⁵ kg m² would zero a 0.04 kg m² joint's own diagonal.
pub fn chop_mass(mut m: Vec<f64>, n: usize) -> Vec<f64> {
    let diag: Vec<f64> = (0..n).map(|i| m[i * n + i].abs()).collect();
    for i in 0..n {
        for j in 0..n {
            if i != j && m[i * n + j].abs() < 1e-13 * (diag[i] * diag[j]).sqrt() {
                m[i * n + j] = 0.0;
            }
        }
    }
    m
}

const AXES: [&str; 6] = ["x", "y", "z", "θx", "θy", "θz"];

/// Evaluates a `[model]` case's system, values through `si`.
pub fn robot_system<E>(
    case: &Case,
    r: &RobotForm,
    si: &mut impl FnMut(&Val) -> Result<f64, E>,
    armature: bool,
) -> Result<RobotSystem, E> {
    let mut joint_values = Vec::with_capacity(r.configuration.len());
    for (_, v) in &r.configuration {
        joint_values.push(si(v)?);
    }
    let mut values = joint_values.into_iter();
    let q = r.configuration_with(|_| values.next().unwrap_or(0.0));
    let tree = &r.robot.tree;
    let kin = tree.kinematics(&q);
    let nv = tree.nv;
    let mut names = tree.dof_names();
    // The case's bodies: positions, mass blocks, offsets.
    let mut offsets = Vec::with_capacity(r.bodies.len());
    let mut positions = Vec::with_capacity(r.bodies.len());
    let mut blocks: Vec<(usize, Vec<Vec<f64>>)> = Vec::new();
    let mut n = nv;
    for b in &r.bodies {
        let x = Vector3::new(
            si(&b.position[0])?,
            si(&b.position[1])?,
            si(&b.position[2])?,
        );
        positions.push(x);
        let block = case_body_block(&b.kind, si)?;
        match block {
            Some(blk) => {
                offsets.push(Some(n));
                let units: &[&'static str] = &["m", "m", "m", "rad", "rad", "rad"];
                for k in 0..blk.len() {
                    names.push((format!("{}.{}", b.name, AXES[k]), units[k]));
                }
                let size = blk.len();
                blocks.push((n, blk));
                n += size;
            }
            None => offsets.push(None),
        }
    }
    let mut m = vec![vec![0.0; n]; n];
    let mt = chop_mass(tree.mass_matrix(&kin, armature), tree.nv);
    for i in 0..nv {
        m[i][..nv].copy_from_slice(&mt[i * nv..(i + 1) * nv]);
    }
    for (at, blk) in &blocks {
        for (i, row) in blk.iter().enumerate() {
            m[at + i][*at..at + row.len()].copy_from_slice(row);
        }
    }
    let mut rows = Vec::with_capacity(case.contacts.len());
    let mut points = Vec::with_capacity(case.contacts.len());
    let mut axis_rows = Vec::with_capacity(case.contacts.len());
    for c in &case.contacts {
        let ContactGeometry::Link {
            body,
            other,
            world,
            normal_world,
            point,
            normal,
        } = &c.geometry
        else {
            unreachable!("a model case's contacts are Link contacts")
        };
        let p = Vector3::new(si(&point[0])?, si(&point[1])?, si(&point[2])?);
        let nl = Vector3::new(si(&normal[0])?, si(&normal[1])?, si(&normal[2])?);
        let placed = Placed {
            r,
            tree,
            kin: &kin,
            offsets: &offsets,
            positions: &positions,
            n,
        };
        let (row, p_world, nrm) = placed.contact_row(body, *other, *world, *normal_world, p, nl);
        axis_rows.push(std::array::from_fn(|k| {
            placed
                .contact_row(body, *other, *world, true, p, Vector3::ith(k, 1.0))
                .0
        }));
        let p = p_world;
        rows.push(row);
        points.push((p, nrm));
    }
    let constraints = r
        .robot
        .constraint_rows(&kin, &q)
        .into_iter()
        .map(|g| {
            let mut g = chop(g);
            g.resize(n, 0.0);
            g
        })
        .collect();
    Ok(RobotSystem {
        names,
        m,
        rows,
        constraints,
        points,
        axis_rows,
        origin: kin.origin,
        q,
        offsets,
    })
}

/// The mass block of a body the case adds beside the model: none for a
/// fixed body, m·I₃ for a particle, diag(m, m, m) and the inertia for a
/// rigid body.
fn case_body_block<E>(
    kind: &BodyKind,
    si: &mut impl FnMut(&Val) -> Result<f64, E>,
) -> Result<Option<Vec<Vec<f64>>>, E> {
    Ok(match kind {
        BodyKind::Fixed => None,
        BodyKind::Particle { mass } => {
            let m = si(mass)?;
            Some(
                (0..3)
                    .map(|i| (0..3).map(|j| if i == j { m } else { 0.0 }).collect())
                    .collect::<Vec<Vec<f64>>>(),
            )
        }
        BodyKind::Rigid { mass, inertia } => {
            let m = si(mass)?;
            let mut blk = vec![vec![0.0; 6]; 6];
            for (i, row) in blk.iter_mut().enumerate().take(3) {
                row[i] = m;
            }
            match inertia {
                InertiaVal::Diagonal(d) => {
                    for k in 0..3 {
                        blk[3 + k][3 + k] = si(&d[k])?;
                    }
                }
                InertiaVal::Full(rows) => {
                    for i in 0..3 {
                        for j in 0..3 {
                            blk[3 + i][3 + j] = si(&rows[i][j])?;
                        }
                    }
                }
                InertiaVal::Scalar(_) => unreachable!("a [model] case is 3-d"),
            }
            Some(blk)
        }
    })
}

/// The relative precision of a model's geometry: lever arms below this
/// fraction of its reach are zero.
pub const GEOMETRY_PRECISION: f64 = 1e-9;

/// The model at its configuration with the case's bodies placed: what a
/// contact's row is computed from.
struct Placed<'a> {
    r: &'a RobotForm,
    tree: &'a crate::kinematics::Tree,
    kin: &'a crate::kinematics::Kinematics,
    offsets: &'a [Option<usize>],
    positions: &'a [Vector3<f64>],
    n: usize,
}

impl Placed<'_> {
    /// A contact's row of J (length `n`), and its point (relative to the
    /// kinematics' origin) and normal in world axes.
    fn contact_row(
        &self,
        body: &Side,
        other: Option<Side>,
        world: bool,
        normal_world: bool,
        p: Vector3<f64>,
        nl: Vector3<f64>,
    ) -> (Vec<f64>, Vector3<f64>, Vector3<f64>) {
        let (r, tree, kin, offsets, positions, n) = (
            self.r,
            self.tree,
            self.kin,
            self.offsets,
            self.positions,
            self.n,
        );
        // The point relative to the kinematics' origin (near the model:
        // spatial quantities about the world origin lose digits far out).
        let p = match (body, world) {
            (Side::Model(b), false) => tree.place(kin, *b, &p),
            _ => kin.local(&p),
        };
        let nrm = match (body, normal_world) {
            (Side::Model(b), false) => kin.xrot[*b] * nl,
            _ => nl,
        };
        let mut row = vec![0.0; n];
        for (side, sign) in [(Some(*body), 1.0), (other, -1.0)] {
            match side {
                None => {}
                Some(Side::Model(b)) => {
                    for (x, v) in row.iter_mut().zip(chop(tree.point_row(kin, b, &p, &nrm))) {
                        *x += sign * v;
                    }
                }
                Some(Side::Case(i)) => {
                    let Some(at) = offsets[i] else { continue };
                    for k in 0..3 {
                        row[at + k] += sign * nrm[k];
                    }
                    if matches!(r.bodies[i].kind, BodyKind::Rigid { .. }) {
                        let rxn = (p - kin.local(&positions[i])).cross(&nrm);
                        for k in 0..3 {
                            row[at + 3 + k] += sign * rxn[k];
                        }
                    }
                }
            }
        }
        // A rate below 10⁻⁹ of the model's reach (m per rad/s, or m/s per
        // m/s) is not geometry but its round-off: a point 10⁻¹² m off a
        // joint's axis in a 1 m arm is on it (else m_eff reads 10²⁴ kg).
        let reach = kin.xpos.iter().map(|x| x.norm()).fold(p.norm(), f64::max);
        for x in &mut row {
            if x.abs() < GEOMETRY_PRECISION * reach {
                *x = 0.0;
            }
        }
        (row, p, nrm)
    }
}
