//! The verification's own mass matrix and contact rows for a `[model]`
//! case, from forward kinematics alone: every velocity of the tree is
//! taken in turn, the bodies' poses are moved a little each way along it,
//! and the body velocities come from the pose differences (fourth-order
//! central differences). The kinetic energy `½ Σ m v_c² + ω·I ω` then gives
//! M, and the contact points' motion gives J. Nothing here uses the
//! composite-rigid-body algorithm, the motion subspaces or the point
//! Jacobian rows the analysis uses, so the simulation built from these
//! checks them independently. (Constraint rows are the model's own.)

use crate::case::{Case, ContactGeometry, Form, Side};
use crate::kinematics::{JointKind, Kinematics, Tree};
use crate::model::robot::robot_system;
use crate::model::{Geometry, Kind, Model};
use nalgebra::{Matrix3, Quaternion, Rotation3, UnitQuaternion, Vector3};

/// Step of the central differences (positions are of order metres).
const H: f64 = 1e-3;

/// The configuration moved by `t` along velocity `d`.
fn moved(tree: &Tree, kin: &Kinematics, q: &[f64], d: usize, t: f64) -> Vec<f64> {
    let mut out = q.to_vec();
    let Some(ji) = (0..tree.joints.len()).find(|&i| {
        let j = &tree.joints[i];
        (j.dof_adr..j.dof_adr + j.kind.nv()).contains(&d)
    }) else {
        return out;
    };
    let j = &tree.joints[ji];
    let k = d - j.dof_adr;
    let a = j.qpos_adr;
    let turn = |out: &mut Vec<f64>, at: usize, axis: usize| {
        // Body-frame angular velocity: post-multiply by the local rotation.
        let cur = UnitQuaternion::from_quaternion(Quaternion::new(
            out[at],
            out[at + 1],
            out[at + 2],
            out[at + 3],
        ));
        let r = cur * UnitQuaternion::from_scaled_axis(Vector3::ith(axis, t));
        let r = r.quaternion();
        out[at..at + 4].copy_from_slice(&[r.w, r.i, r.j, r.k]);
    };
    match j.kind {
        JointKind::Hinge | JointKind::Slide => out[a] += t,
        JointKind::Ball => turn(&mut out, a, k),
        JointKind::Free { local_linear } => {
            if k < 3 {
                let e = if local_linear {
                    let body = tree
                        .bodies
                        .iter()
                        .position(|b| b.joints.contains(&ji))
                        .unwrap_or(0);
                    kin.xrot[body].column(k).into_owned()
                } else {
                    Vector3::ith(k, 1.0)
                };
                for i in 0..3 {
                    out[a + i] += t * e[i];
                }
            } else {
                turn(&mut out, a + 3, k - 3);
            }
        }
    }
    out
}

/// Fourth-order central difference of `f` along velocity `d`.
/// The step along velocity `d`: `H`, made exact against a hinge or slide
/// coordinate far from zero (a cart 10⁹ m along its rail: `q ± H` rounds
/// to 1.2·10⁻⁷ m, a 10⁻⁴ error in a quotient over `H`), so `q ± h` and
/// `q ± 2h` are the steps the quotients divide by.
fn step(tree: &Tree, q: &[f64], d: usize) -> f64 {
    let Some(j) = tree
        .joints
        .iter()
        .find(|j| (j.dof_adr..j.dof_adr + j.kind.nv()).contains(&d))
    else {
        return H;
    };
    match j.kind {
        JointKind::Hinge | JointKind::Slide => {
            let x = q[j.qpos_adr];
            let h = (x + H) - x;
            if h > 0.0 { h } else { H }
        }
        _ => H,
    }
}

fn rate<F: Fn(&Kinematics) -> Vector3<f64>>(
    tree: &Tree,
    kin: &Kinematics,
    q: &[f64],
    d: usize,
    f: F,
) -> Vector3<f64> {
    let h = step(tree, q, d);
    let at = |t: f64| f(&tree.kinematics(&moved(tree, kin, q, d, t)));
    (8.0 * (at(h) - at(-h)) - (at(2.0 * h) - at(-2.0 * h))) / (12.0 * h)
}

/// The model with the robot's block of M and the robot's part of each
/// contact row replaced by their finite-difference counterparts (`None`
/// for other cases). The blocks of bodies written in the case are diagonal
/// masses and inertias taken as they are.
pub fn independent_model(case: &Case, model: &Model<f64>) -> Option<Model<f64>> {
    let Form::Robot(r) = &case.form else {
        return None;
    };
    let sys = robot_system(
        case,
        r,
        &mut |v: &crate::case::Val| Ok::<f64, std::convert::Infallible>(v.si),
        r.armature,
    )
    .unwrap_or_else(|e| match e {});
    let tree = &r.robot.tree;
    let q = &sys.q;
    let kin = tree.kinematics(q);
    let n = tree.nv;
    let nb = tree.bodies.len();
    // Per velocity, per body: centre-of-mass velocity and angular velocity.
    let mut v = vec![vec![Vector3::zeros(); nb]; n];
    let mut w = vec![vec![Vector3::zeros(); nb]; n];
    for d in 0..n {
        // The tree's poses a little each way along velocity d, computed
        // once for every body (per body they cost nb times as much: a
        // 450-joint chain took 90 s).
        let at = |t: f64| tree.kinematics(&moved(tree, &kin, q, d, t));
        let h = step(tree, q, d);
        let (p1, m1, p2, m2) = (at(h), at(-h), at(2.0 * h), at(-2.0 * h));
        for b in 0..nb {
            if tree.bodies[b].mass == 0.0 && tree.bodies[b].inertia == Matrix3::zeros() {
                continue;
            }
            let com = tree.bodies[b].com;
            // Relative to this configuration's origin (each pose has its own).
            let x = |k: &Kinematics| k.xpos[b] + k.xrot[b] * com + (k.origin - kin.origin);
            v[d][b] = (8.0 * (x(&p1) - x(&m1)) - (x(&p2) - x(&m2))) / (12.0 * h);
            // R(t) ≈ exp(t[ω]×) R(0): the rotation vector of R(t) R(−t)ᵀ is 2tω.
            let spin = |a: &Kinematics, z: &Kinematics, t: f64| {
                Rotation3::from_matrix_unchecked(a.xrot[b] * z.xrot[b].transpose()).scaled_axis()
                    / (2.0 * t)
            };
            w[d][b] = (4.0 * spin(&p1, &m1, h) - spin(&p2, &m2, 2.0 * h)) / 3.0;
        }
    }
    let mut m = sys.m.clone();
    for row in m.iter_mut().take(n) {
        row[..n].fill(0.0);
    }
    for (b, body) in tree.bodies.iter().enumerate() {
        let inertia = kin.xrot[b] * body.inertia * kin.xrot[b].transpose();
        for i in 0..n {
            for j in 0..n {
                m[i][j] += body.mass * v[i][b].dot(&v[j][b]) + w[i][b].dot(&(inertia * w[j][b]));
            }
        }
    }
    if r.armature {
        for jt in &tree.joints {
            for d in jt.dof_adr..jt.dof_adr + jt.kind.nv() {
                m[d][d] += jt.armature;
            }
        }
    }
    let mut out = model.clone();
    let Kind::Generalized { mass_matrix, .. } = &mut out.kind else {
        return None;
    };
    *mass_matrix = m;
    for (i, (c, mc)) in case.contacts.iter().zip(&mut out.contacts).enumerate() {
        let ContactGeometry::Link { body, other, .. } = &c.geometry else {
            return None;
        };
        let (p, nrm) = sys.points[i];
        let mut row = sys.rows[i].clone();
        row[..n].fill(0.0);
        for (side, sign) in [(Some(*body), 1.0), (*other, -1.0)] {
            let Some(Side::Model(b)) = side else { continue };
            // The point as fixed in the body, the normal fixed in space.
            let local = kin.xrot[b].transpose() * (p - kin.xpos[b]);
            for (d, x) in row.iter_mut().enumerate().take(n) {
                *x += sign
                    * nrm.dot(&rate(tree, &kin, q, d, |k| {
                        k.xpos[b] + k.xrot[b] * local + (k.origin - kin.origin)
                    }));
            }
        }
        mc.geometry = Geometry::Jacobian(row);
    }
    Some(out)
}
