//! A tree with its jointless bodies welded into their parents.
//!
//! A body without joints moves rigidly with its parent (MJCF and URDF mean
//! the same: a URDF `fixed` joint, an MJCF body with no `<joint>`). Its
//! mass, centre of mass and inertia can be merged into the parent once,
//! when the model is compiled, and every configuration then walks fewer
//! bodies: a UR5 read from URDF has 11 bodies and 6 joints, its welded tree
//! 6 bodies. Pinocchio does the same with URDF fixed joints (they become
//! frames of the moving body). The welded tree has the same coordinates and
//! velocities, in the same order, so `M(q)` and every point row are the
//! same quantities (to rounding: the merged inertia is summed once, in the
//! parent's frame).

use super::{Body, Tree};
use nalgebra::{Isometry3, Matrix3, Point3, Translation3, Vector3};

/// A [`Tree`] with jointless bodies merged into their parents.
#[derive(Clone, Debug)]
pub struct Welded {
    /// The tree of the bodies that have joints (same `nq`, `nv`, joint
    /// order and addresses as the original).
    pub tree: Tree,
    /// Per body of the original tree: the welded body it moves with
    /// (`None`: the world) and its frame in that body's frame.
    pub map: Vec<(Option<usize>, Isometry3<f64>)>,
}

/// Mass, centre of mass and inertia about it, merged with another body's
/// (both in the same frame): the parallel-axis theorem.
fn merge(
    (m1, c1, i1): (f64, Vector3<f64>, Matrix3<f64>),
    (m2, c2, i2): (f64, Vector3<f64>, Matrix3<f64>),
) -> (f64, Vector3<f64>, Matrix3<f64>) {
    let m = m1 + m2;
    if m == 0.0 {
        return (0.0, Vector3::zeros(), i1 + i2);
    }
    let c = (c1 * m1 + c2 * m2) / m;
    let shift = |mk: f64, d: Vector3<f64>| {
        (Matrix3::identity() * d.norm_squared() - d * d.transpose()) * mk
    };
    (m, c, i1 + i2 + shift(m1, c1 - c) + shift(m2, c2 - c))
}

impl Tree {
    /// The tree with every jointless body welded into its parent (bodies
    /// welded to the world are dropped: they move no mass).
    pub fn welded(&self) -> Welded {
        let mut tree = Tree::default();
        let mut map: Vec<(Option<usize>, Isometry3<f64>)> = Vec::with_capacity(self.bodies.len());
        for b in &self.bodies {
            let (host, base) = match b.parent {
                Some(p) => map[p],
                None => (None, Isometry3::identity()),
            };
            let frame = base * Isometry3::from_parts(Translation3::from(b.pos), b.quat);
            if b.joints.is_empty() {
                map.push((host, frame));
                if let Some(h) = host {
                    let r = frame.rotation.to_rotation_matrix().into_inner();
                    let hb = &mut tree.bodies[h];
                    let (m, c, i) = merge(
                        (hb.mass, hb.com, hb.inertia),
                        (
                            b.mass,
                            (frame * Point3::from(b.com)).coords,
                            r * b.inertia * r.transpose(),
                        ),
                    );
                    (hb.mass, hb.com, hb.inertia) = (m, c, i);
                }
                continue;
            }
            let joints = b.joints.iter().map(|&j| self.joints[j].clone()).collect();
            let index = tree.push_body(
                Body {
                    name: b.name.clone(),
                    parent: host,
                    pos: frame.translation.vector,
                    quat: frame.rotation,
                    mass: b.mass,
                    com: b.com,
                    inertia: b.inertia,
                    joints: Vec::new(),
                },
                joints,
            );
            map.push((Some(index), Isometry3::identity()));
        }
        debug_assert_eq!((tree.nq, tree.nv), (self.nq, self.nv));
        // The reference configuration is the original's (a free joint's
        // body pose is read from it, not from the welded placement).
        tree.qpos0 = self.qpos0.clone();
        Welded { tree, map }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{random_configuration, random_tree};
    use rand::{SeedableRng, rngs::StdRng};

    #[test]
    fn welding_keeps_the_mass_matrix_and_point_rows() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut welded_some = 0;
        for _ in 0..60 {
            let tree = random_tree(&mut rng);
            let w = tree.welded();
            welded_some += usize::from(w.tree.bodies.len() < tree.bodies.len());
            let q = random_configuration(&tree, &mut rng);
            let (ka, kb) = (tree.kinematics(&q), w.tree.kinematics(&q));
            let a = tree.mass_matrix(&ka, true);
            let b = w.tree.mass_matrix(&kb, true);
            let scale = a.iter().fold(1e-300f64, |m, x| m.max(x.abs()));
            for (x, y) in a.iter().zip(&b) {
                assert!((x - y).abs() <= 1e-12 * scale, "{x} vs {y}");
            }
            let local = nalgebra::Vector3::new(0.2, -0.1, 0.3);
            let n = nalgebra::Vector3::new(0.3, 0.5, -0.8).normalize();
            for (body, &(host, frame)) in w.map.iter().enumerate() {
                let p = tree.to_world(&ka, body, &local);
                let ra = tree.point_row(&ka, body, &ka.local(&p), &n);
                let mut rb = vec![0.0; tree.nv];
                let pw = host.map_or(frame * nalgebra::Point3::from(local), |h| {
                    nalgebra::Point3::from(w.tree.to_world(
                        &kb,
                        h,
                        &(frame * nalgebra::Point3::from(local)).coords,
                    ))
                });
                assert!((pw.coords - p).norm() < 1e-12);
                super::Tree::point_row_into(&kb, host, &kb.local(&p), &n, &mut rb);
                for (x, y) in ra.iter().zip(&rb) {
                    assert!((x - y).abs() <= 1e-12, "{x} vs {y}");
                }
            }
        }
        assert!(welded_some > 10, "the random trees weld bodies");
    }
}
