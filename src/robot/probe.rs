//! A compiled robot evaluated at many configurations: the effective mass
//! of a point along one or several directions, and the inverse inertia a
//! point sees (the Python package's `Robot`, and any batch caller).
//!
//! Compiled once: the tree with its jointless bodies welded into their
//! parents ([`Tree::welded`]). Per configuration, with no allocation once a
//! [`Workspace`] has grown: forward kinematics, the mass matrix by CRBA, a
//! Cholesky factor `M = L Lᵀ`, and for each direction the row `j` and
//! `a = j M⁻¹ jᵀ = |L⁻¹ j|²` (one triangular solve). Configurations go
//! four at a time through the same kinematics code on four-lane numbers
//! ([`Real`]); a lone configuration fills the four lanes with copies of
//! itself, so a configuration's numbers never depend on its neighbours in
//! a batch. A model with equality constraints (evaluated `constrained`)
//! takes the general route instead: the full tree, the constraint rows `G`
//! and the analysis' own constrained response
//! ([`crate::linalg::response()`], as for a `[model]` case), one
//! configuration at a time.

use super::Robot;
use crate::kinematics::{BodyInertia, Kinematics, Real, Tree, Welded};
use crate::linalg::response;
use crate::linalg::{cholesky, forward};
use nalgebra::{DMatrix, Isometry3, Matrix3, Point3, Vector3};
use rayon::prelude::*;
use simba::simd::{SimdValue, WideF64x4};

/// Four configurations per operation.
type Lanes = WideF64x4;

/// Configurations per lane group.
pub const LANES: usize = 4;

/// A robot compiled for evaluation at many configurations.
#[derive(Clone, Debug)]
pub struct Compiled {
    robot: Robot,
    welded: Welded,
}

/// What to evaluate: a point of a body and directions.
#[derive(Clone, Debug)]
pub struct Target {
    /// Body index in the robot's tree.
    pub body: usize,
    /// The point: in the body's frame when `local`, else in the world.
    pub point: Vector3<f64>,
    /// Unit directions, in the same frame as the point.
    pub normals: Vec<Vector3<f64>>,
    /// Point and directions in the body's frame.
    pub local: bool,
    /// The joints' armature in M.
    pub armature: bool,
    /// The model's equality constraints included.
    pub constrained: bool,
}

/// Buffers for one thread's evaluations.
#[derive(Debug, Default)]
pub struct Workspace {
    kin: Kinematics<Lanes>,
    composite: Vec<BodyInertia<Lanes>>,
    q: Vec<Lanes>,
    m: Vec<Lanes>,
    row: Vec<Lanes>,
    general: Kinematics,
}

thread_local! {
    /// The calling thread's workspace for small evaluations.
    static WORKSPACE: std::cell::RefCell<Workspace> = std::cell::RefCell::new(Workspace::default());
}

impl Compiled {
    /// Compiles a robot (welds its jointless bodies).
    pub fn new(robot: Robot) -> Self {
        let welded = robot.tree.welded();
        Compiled { robot, welded }
    }

    /// The robot as read.
    pub fn robot(&self) -> &Robot {
        &self.robot
    }

    /// Whether `target` takes the general route (constraint rows).
    fn general(&self, target: &Target) -> bool {
        target.constrained && !self.robot.constraints.is_empty()
    }

    /// `a = j M⁻¹ jᵀ` (1/kg) for each of `target`'s directions at up to
    /// [`LANES`] configurations `qs` (`nq` numbers each), into `out`
    /// (the directions of one configuration, then the next); NaN where
    /// `M(q)` is not positive definite.
    pub fn inverse_masses(&self, ws: &mut Workspace, qs: &[f64], target: &Target, out: &mut [f64]) {
        let (nq, k) = (self.robot.tree.nq, target.normals.len());
        if nq == 0 {
            // Nothing moves.
            out.fill(0.0);
            return;
        }
        let count = qs.len() / nq;
        assert!((1..=LANES).contains(&count), "one to four configurations");
        assert_eq!(
            out.len(),
            count * k,
            "one number per configuration and direction"
        );
        if self.general(target) {
            for c in 0..count {
                let q = &qs[c * nq..(c + 1) * nq];
                self.general_inverse_masses(
                    &mut ws.general,
                    q,
                    target,
                    &mut out[c * k..(c + 1) * k],
                );
            }
            return;
        }
        let tree = &self.welded.tree;
        let n = tree.nv;
        // Lane l holds configuration min(l, count − 1).
        ws.q.clear();
        ws.q.extend((0..nq).map(|i| {
            let lane = |l: usize| qs[l.min(count - 1) * nq + i];
            Lanes::from([lane(0), lane(1), lane(2), lane(3)])
        }));
        tree.kinematics_into(&ws.q, &mut ws.kin);
        ws.m.resize(n * n, Lanes::splat(0.0));
        ws.row.resize(n, Lanes::splat(0.0));
        tree.mass_matrix_into(&ws.kin, target.armature, &mut ws.composite, &mut ws.m);
        cholesky(&mut ws.m, n);
        let (host, frame) = self.welded.map[target.body];
        let (pw, rot) = place(&ws.kin, host, &frame, target);
        for (d, normal) in target.normals.iter().enumerate() {
            let nw = rot * normal.map(Lanes::splat);
            Tree::point_row_into(&ws.kin, host, &pw, &nw, &mut ws.row);
            forward(&ws.m, n, &mut ws.row);
            let a = ws.row.iter().fold(Lanes::splat(0.0), |s, x| s + *x * *x);
            for c in 0..count {
                out[c * k + d] = a.extract(c);
            }
        }
    }

    /// One configuration by the general route: the full tree, its
    /// constraint rows and the analysis' constrained response.
    fn general_inverse_masses(
        &self,
        kin: &mut Kinematics,
        q: &[f64],
        target: &Target,
        out: &mut [f64],
    ) {
        let tree = &self.robot.tree;
        tree.kinematics_into(q, kin);
        let m = DMatrix::from_vec(tree.nv, tree.nv, tree.mass_matrix(kin, target.armature));
        let g = self.robot.constraint_rows(kin, q);
        let b = target.body;
        let (pw, rot) = if target.local {
            (tree.place(kin, b, &target.point), kin.xrot[b])
        } else {
            (kin.local(&target.point), Matrix3::identity())
        };
        let n = tree.nv;
        let mut rows = DMatrix::zeros(target.normals.len(), n);
        for (i, normal) in target.normals.iter().enumerate() {
            let row = tree.point_row(kin, b, &pw, &(rot * normal));
            rows.row_mut(i).copy_from_slice(&row);
        }
        match (response(&m, &g, &rows), response(&m, &[], &rows)) {
            (Some(a), Some(free)) => {
                for (r, o) in out.iter_mut().enumerate() {
                    // Immobile by the analysis' own test: what the
                    // constraints leave is round-off of the free response.
                    let (a, free) = (a[(r, r)], free[(r, r)]);
                    *o = if a <= crate::linalg::IMMOBILE_RATIO * free {
                        0.0
                    } else {
                        a
                    };
                }
            }
            _ => out.fill(f64::NAN),
        }
    }

    /// Effective masses `1/a` for configurations `qs` (`nq` numbers each,
    /// one after another) into `out` (`qs.len()/nq × normals` numbers,
    /// row-major): `inf` where the point cannot move along a direction, NaN
    /// where `M(q)` is not positive definite. In parallel on rayon's pool;
    /// each configuration is evaluated alone, so the numbers do not depend
    /// on the thread count.
    pub fn effective_masses(&self, qs: &[f64], target: &Target, out: &mut [f64]) {
        let (nq, k) = (self.robot.tree.nq, target.normals.len());
        if nq == 0 {
            // A model without joints: nothing moves, every mass is infinite.
            out.fill(f64::INFINITY);
            return;
        }
        assert_eq!(qs.len() % nq, 0, "whole configurations");
        assert_eq!(
            out.len(),
            qs.len() / nq * k,
            "one number per configuration and direction"
        );
        let group = |ws: &mut Workspace, q: &[f64], o: &mut [f64]| {
            self.inverse_masses(ws, q, target, o);
            for x in o.iter_mut() {
                *x = if x.is_nan() {
                    f64::NAN
                } else if *x > 0.0 {
                    1.0 / *x
                } else {
                    f64::INFINITY
                };
            }
        };
        // Chunks of configurations per task: enough work to amortise the
        // task (a configuration is a fraction of a microsecond); a whole
        // number of lane groups, so that the groups do not depend on the
        // chunking.
        const CHUNK: usize = 16 * LANES;
        let (gq, go) = (LANES * nq, LANES * k);
        if out.len() <= CHUNK * k {
            // A few configurations (a Python loop's single calls): this
            // thread's workspace, kept between calls.
            WORKSPACE.with_borrow_mut(|ws| {
                for (q, o) in qs.chunks(gq).zip(out.chunks_mut(go)) {
                    group(ws, q, o);
                }
            });
            return;
        }
        out.par_chunks_mut(CHUNK * k)
            .zip(qs.par_chunks(CHUNK * nq))
            .for_each_init(Workspace::default, |ws, (o, q)| {
                for (q, o) in q.chunks(gq).zip(o.chunks_mut(go)) {
                    group(ws, q, o);
                }
            });
    }

    /// `Λ⁻¹ = J_p M⁻¹ J_pᵀ` (3 × 3, world axes, 1/kg) of `target`'s point
    /// (its directions are not used) at `q`; `None` when `M(q)` is not
    /// positive definite.
    pub fn point_inverse_inertia(&self, q: &[f64], target: &Target) -> Option<Matrix3<f64>> {
        let tree = &self.robot.tree;
        let kin = tree.kinematics(q);
        let b = target.body;
        let pw = if target.local {
            tree.place(&kin, b, &target.point)
        } else {
            kin.local(&target.point)
        };
        let m = DMatrix::from_vec(tree.nv, tree.nv, tree.mass_matrix(&kin, target.armature));
        let g = if self.general(target) {
            self.robot.constraint_rows(&kin, q)
        } else {
            Vec::new()
        };
        let mut rows = DMatrix::zeros(3, tree.nv);
        for k in 0..3 {
            let row = tree.point_row(&kin, b, &pw, &Vector3::ith(k, 1.0));
            rows.row_mut(k).copy_from_slice(&row);
        }
        let a = response(&m, &g, &rows)?;
        Some(Matrix3::from_fn(|r, c| a[(r, c)]))
    }
}

/// The target point in the world and the rotation taking its directions
/// to the world, from the welded tree's kinematics.
fn place<T: Real>(
    kin: &Kinematics<T>,
    host: Option<usize>,
    frame: &Isometry3<f64>,
    target: &Target,
) -> (Vector3<T>, Matrix3<T>) {
    if !target.local {
        return (kin.local(&target.point.map(T::splat)), Matrix3::identity());
    }
    let local = (frame * Point3::from(target.point)).coords.map(T::splat);
    let r = frame
        .rotation
        .to_rotation_matrix()
        .into_inner()
        .map(T::splat);
    match host {
        Some(h) => (kin.xpos[h] + kin.xrot[h] * local, kin.xrot[h] * r),
        None => (kin.local(&local), r),
    }
}
