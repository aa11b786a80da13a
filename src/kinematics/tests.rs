//! Tests of the kinematics: random trees against finite differences and
//! the sum over body Jacobians.

use super::*;
use rand::{Rng, SeedableRng, rngs::StdRng};

/// `Σ_b m_b J_vᵀJ_v + J_ωᵀ I_b J_ω` with each body's centre-of-mass
/// Jacobians taken column by column: a second, independent way to the
/// mass matrix.
fn mass_matrix_by_jacobians(tree: &Tree, kin: &Kinematics) -> Vec<f64> {
    let n = tree.nv;
    let mut m = vec![0.0; n * n];
    for (b, body) in tree.bodies.iter().enumerate() {
        let r = kin.xrot[b];
        let c = kin.xpos[b] + r * body.com;
        let inertia = r * body.inertia * r.transpose();
        let rows_v: Vec<Vec<f64>> = (0..3)
            .map(|k| tree.point_row(kin, b, &c, &Vector3::ith(k, 1.0)))
            .collect();
        let rows_w: Vec<Vec<f64>> = (0..3).map(|k| tree.angular_row(kin, b, k)).collect();
        for i in 0..n {
            for j in 0..n {
                let mut v = 0.0;
                for k in 0..3 {
                    v += body.mass * rows_v[k][i] * rows_v[k][j];
                    for l in 0..3 {
                        v += rows_w[k][i] * inertia[(k, l)] * rows_w[l][j];
                    }
                }
                m[i * n + j] += v;
            }
        }
    }
    m
}

pub(super) fn random_tree(rng: &mut StdRng) -> Tree {
    let mut tree = Tree::default();
    let kinds = [
        JointKind::Hinge,
        JointKind::Slide,
        JointKind::Ball,
        JointKind::Free {
            local_linear: false,
        },
        JointKind::Free { local_linear: true },
    ];
    for b in 0..7 {
        let parent = if b == 0 {
            None
        } else {
            Some(rng.random_range(0..b))
        };
        fn v(rng: &mut StdRng) -> Vector3<f64> {
            Vector3::from_fn(|_, _| rng.random_range(-1.0..1.0))
        }
        let (pos, com, axis, anchor) = (v(rng), v(rng), v(rng).normalize(), v(rng));
        let a = Matrix3::from_fn(|_, _| rng.random_range(-1.0..1.0));
        let inertia = a * a.transpose() + Matrix3::identity() * 0.1;
        let njoints = rng.random_range(0..3);
        let mut joints = Vec::new();
        for k in 0..njoints {
            let kind = if parent.is_none() && k == 0 && njoints == 1 {
                kinds[3 + rng.random_range(0..2)]
            } else {
                kinds[rng.random_range(0..3)]
            };
            joints.push(Joint {
                name: format!("j{b}_{k}"),
                kind,
                pos: if matches!(kind, JointKind::Free { .. }) {
                    Vector3::zeros()
                } else {
                    anchor
                },
                axis,
                q_ref: 0.3,
                armature: 0.0,
                qpos_adr: 0,
                dof_adr: 0,
            });
        }
        tree.push_body(
            Body {
                name: format!("b{b}"),
                parent,
                pos,
                quat: UnitQuaternion::from_scaled_axis(v(rng)),
                mass: rng.random_range(0.1..3.0),
                com,
                inertia,
                joints: Vec::new(),
            },
            joints,
        );
    }
    tree
}

/// A random configuration of `tree` (quaternions not normalised).
pub(super) fn random_configuration(tree: &Tree, rng: &mut StdRng) -> Vec<f64> {
    let mut q = tree.qpos0.clone();
    for j in &tree.joints {
        match j.kind {
            JointKind::Hinge | JointKind::Slide => q[j.qpos_adr] += rng.random_range(-2.0..2.0),
            JointKind::Ball => {
                for k in 0..4 {
                    q[j.qpos_adr + k] = rng.random_range(-1.0..1.0);
                }
            }
            JointKind::Free { .. } => {
                for k in 0..7 {
                    q[j.qpos_adr + k] = rng.random_range(-1.0..1.0);
                }
            }
        }
    }
    q
}

/// A quaternion whose squares overflow is normalised (scaled by its
/// largest component first), not turned into zero or the identity.
#[test]
fn an_overflowing_quaternion_is_normalised() {
    let mut rng = StdRng::seed_from_u64(4);
    let tree = loop {
        let t = random_tree(&mut rng);
        if t.joints
            .iter()
            .any(|j| matches!(j.kind, JointKind::Ball | JointKind::Free { .. }))
        {
            break t;
        }
    };
    let q = random_configuration(&tree, &mut rng);
    let mut big = q.clone();
    for j in &tree.joints {
        let at = match j.kind {
            JointKind::Ball => j.qpos_adr,
            JointKind::Free { .. } => j.qpos_adr + 3,
            _ => continue,
        };
        for x in &mut big[at..at + 4] {
            *x *= 1e200;
        }
    }
    let (a, b) = (tree.kinematics(&q), tree.kinematics(&big));
    for (ra, rb) in a.xrot.iter().zip(&b.xrot) {
        assert!((ra - rb).amax() < 1e-12, "{ra} vs {rb}");
    }
}

#[test]
fn crba_equals_the_sum_over_body_jacobians() {
    let mut rng = StdRng::seed_from_u64(12);
    for _ in 0..40 {
        let tree = random_tree(&mut rng);
        let q = random_configuration(&tree, &mut rng);
        let kin = tree.kinematics(&q);
        let a = tree.mass_matrix(&kin, false);
        let b = mass_matrix_by_jacobians(&tree, &kin);
        let scale = b.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        for (x, y) in a.iter().zip(&b) {
            assert!((x - y).abs() <= 1e-12 * scale, "{x} vs {y}");
        }
    }
}

#[test]
fn point_rows_are_derivatives_of_point_positions() {
    // d/dt of a body point along n equals the row times q̇, checked by
    // finite differences on hinge and slide trees.
    let mut rng = StdRng::seed_from_u64(3);
    for _ in 0..20 {
        let mut tree = random_tree(&mut rng);
        for j in &mut tree.joints {
            if !matches!(j.kind, JointKind::Hinge | JointKind::Slide) {
                j.kind = JointKind::Hinge;
            }
        }
        // Rebuild addresses for the changed kinds.
        let bodies = std::mem::take(&mut tree.bodies);
        let joints = std::mem::take(&mut tree.joints);
        let mut t2 = Tree::default();
        for b in bodies {
            let js = b.joints.iter().map(|&i| joints[i].clone()).collect();
            t2.push_body(b, js);
        }
        let tree = t2;
        let q: Vec<f64> = tree
            .qpos0
            .iter()
            .map(|x| x + rng.random_range(-1.0..1.0))
            .collect();
        let b = tree.bodies.len() - 1;
        let local = Vector3::new(0.2, -0.1, 0.3);
        let n = Vector3::new(0.3, 0.5, -0.8).normalize();
        let kin = tree.kinematics(&q);
        let p = tree.place(&kin, b, &local);
        let row = tree.point_row(&kin, b, &p, &n);
        for (d, r) in row.iter().enumerate() {
            let h = 1e-6;
            let mut qp = q.clone();
            let mut qm = q.clone();
            qp[d] += h;
            qm[d] -= h;
            let fp = n.dot(&tree.to_world(&tree.kinematics(&qp), b, &local));
            let fm = n.dot(&tree.to_world(&tree.kinematics(&qm), b, &local));
            let fd = (fp - fm) / (2.0 * h);
            assert!((fd - r).abs() < 1e-7, "velocity {d}: {fd} vs {r}");
        }
    }
}
