//! Kinematic trees: forward kinematics, the joint-space mass matrix by the
//! composite-rigid-body algorithm, and point Jacobians.
//!
//! Input: a [`Tree`] (what the MJCF and URDF readers in `crate::robot`
//! produce, engine-neutral) and a configuration `q`. Output: `M(q)` and the
//! rows `n · ∂v_p/∂q̇` of contact points. Knows nothing about cases, TOML or
//! XML.
//!
//! Conventions (those of MuJoCo, which the URDF reader maps onto): a body's
//! frame is its parent's frame moved by a fixed `pos`/`quat`, then by its
//! joints in order. A hinge turns about `axis` through the anchor `pos`
//! (both in the body frame) by `q − q_ref`; a slide moves along `axis` by
//! `q − q_ref`; a ball's `q` is a unit quaternion (w, x, y, z) and its three
//! velocities are angular velocities about the body's own axes; a free
//! joint's `q` is the body position and quaternion in the world, its
//! velocities the linear velocity of the body origin (in world axes, or in
//! the body's axes with `local_linear`, Pinocchio's free flyer) then the
//! angular velocity in body axes.
//!
//! The algorithm is Featherstone's CRBA written in world axes about a
//! nearby origin `O` ([`Kinematics::origin`]): every velocity column is a
//! spatial motion vector `(ω, v_O)` at `O`, every body inertia a 6×6
//! spatial inertia at `O`, composite inertias are plain sums, and
//! `M_ij = S_iᵀ I^c_{body(j)} S_j` for `i` on the path from `j` to the root.
//!
//! `O` is where the first root body's translations (its `pos`, its slides,
//! its free joint's position) take it, and positions are accumulated
//! relative to it from the start, never as world coordinates minus `O`: a
//! model 10⁹ m from the world origin gives the M and the rows it gives at
//! the origin (about the world origin, a cart-pole's tip mass of 0.330 kg
//! was 2.08 kg at s = 10⁹ m: the spatial inertias' `m|c|²` terms of 10¹⁸
//! cancelled). Only positions given in world coordinates (a `frame =
//! "world"` contact point far out) keep the world's rounding.

pub mod inertia;
pub mod shape;
mod weld;

pub use weld::Welded;

use nalgebra::{Matrix3, Quaternion, UnitQuaternion, Vector3, Vector6};

/// A joint type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JointKind {
    /// Rotation about an axis (MJCF hinge; URDF revolute, continuous).
    Hinge,
    /// Translation along an axis (MJCF slide; URDF prismatic).
    Slide,
    /// Spherical (MJCF ball).
    Ball,
    /// Six degrees of freedom (MJCF free, URDF floating).
    Free {
        /// Linear velocity in body axes (Pinocchio's free flyer) instead of
        /// world axes (MuJoCo).
        local_linear: bool,
    },
}

impl JointKind {
    /// Number of position coordinates.
    pub fn nq(self) -> usize {
        match self {
            JointKind::Hinge | JointKind::Slide => 1,
            JointKind::Ball => 4,
            JointKind::Free { .. } => 7,
        }
    }

    /// Number of velocities.
    pub fn nv(self) -> usize {
        match self {
            JointKind::Hinge | JointKind::Slide => 1,
            JointKind::Ball => 3,
            JointKind::Free { .. } => 6,
        }
    }
}

/// A joint of a body.
#[derive(Clone, Debug)]
pub struct Joint {
    /// Name (unique in the tree; generated for unnamed joints).
    pub name: String,
    /// Type.
    pub kind: JointKind,
    /// Anchor in the body frame.
    pub pos: Vector3<f64>,
    /// Unit axis in the body frame (hinge, slide).
    pub axis: Vector3<f64>,
    /// Reference value (hinge, slide): the body frame is as given at `q = q_ref`.
    pub q_ref: f64,
    /// Rotor inertia added to the diagonal of M for each velocity.
    pub armature: f64,
    /// First position coordinate.
    pub qpos_adr: usize,
    /// First velocity.
    pub dof_adr: usize,
}

/// A rigid body of the tree.
#[derive(Clone, Debug)]
pub struct Body {
    /// Name (unique in the tree).
    pub name: String,
    /// Parent body; `None` is the world.
    pub parent: Option<usize>,
    /// Position of the body frame in the parent frame (before joints).
    pub pos: Vector3<f64>,
    /// Orientation of the body frame in the parent frame (before joints).
    pub quat: UnitQuaternion<f64>,
    /// Mass.
    pub mass: f64,
    /// Centre of mass in the body frame.
    pub com: Vector3<f64>,
    /// Inertia tensor about the centre of mass, body axes.
    pub inertia: Matrix3<f64>,
    /// The body's joints, in order (indices into [`Tree::joints`]).
    pub joints: Vec<usize>,
}

/// A kinematic tree. Bodies are ordered so that a parent comes before its
/// children.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    /// Bodies (not the world).
    pub bodies: Vec<Body>,
    /// Joints, in body order.
    pub joints: Vec<Joint>,
    /// Number of position coordinates.
    pub nq: usize,
    /// Number of velocities.
    pub nv: usize,
    /// The reference configuration (hinges and slides at `q_ref`, balls and
    /// free joints at the body's own pose).
    pub qpos0: Vec<f64>,
    /// Per joint, the model's range `[lower, upper]` (rad or m) where the
    /// model file limits the joint (URDF `<limit>` of revolute and
    /// prismatic joints, MJCF `range` of a limited hinge or slide);
    /// shorter than `joints`, or `None`, where it does
    /// not. Not used by the mass matrix: programs are checked against it.
    pub ranges: Vec<Option<[f64; 2]>>,
}

pub use crate::linalg::Real;

/// A vector of the tree's numbers in `T`.
fn lanes<T: Real>(v: &Vector3<f64>) -> Vector3<T> {
    v.map(T::splat)
}

/// One velocity column: the body it moves and its spatial motion vector at
/// the world origin (angular part first).
#[derive(Clone, Copy, Debug)]
pub struct DofColumn<T = f64> {
    /// Body moved by this velocity (and its subtree).
    pub body: usize,
    /// `(ω, v_O)`.
    pub s: Vector6<T>,
    /// The previous velocity on the path to the root.
    pub parent: Option<usize>,
}

/// Forward kinematics at one configuration. [`Tree::kinematics_into`]
/// refills one in place (no allocation once its buffers have grown: the
/// batch path reuses one per thread).
#[derive(Clone, Debug)]
pub struct Kinematics<T = f64> {
    /// The origin `O` every position here is relative to (world
    /// coordinates): a world point `p` is `p − origin` here.
    pub origin: Vector3<T>,
    /// Body frame origins relative to `origin` (world axes).
    pub xpos: Vec<Vector3<T>>,
    /// Body frame orientations, world.
    pub xrot: Vec<Matrix3<T>>,
    /// Velocity columns.
    pub dofs: Vec<DofColumn<T>>,
    /// Per body, the last velocity on its path to the root (inclusive);
    /// `None` for a body welded to the world.
    pub last: Vec<Option<usize>>,
    /// Body orientations as quaternions (scratch of the recursion).
    xquat: Vec<UnitQuaternion<T>>,
    /// Anchors and axes of one body's joints (scratch).
    placed: Vec<(Vector3<T>, Vector3<T>)>,
    /// A root body's translation when each joint was placed (scratch).
    shifts: Vec<Vector3<T>>,
}

impl<T: Real> Default for Kinematics<T> {
    fn default() -> Self {
        Kinematics {
            origin: Vector3::zeros(),
            xpos: Vec::new(),
            xrot: Vec::new(),
            dofs: Vec::new(),
            last: Vec::new(),
            xquat: Vec::new(),
            placed: Vec::new(),
            shifts: Vec::new(),
        }
    }
}

impl<T: Real> Kinematics<T> {
    /// A point here (relative to `origin`) in world coordinates.
    pub fn world(&self, p: &Vector3<T>) -> Vector3<T> {
        p + self.origin
    }

    /// A world point relative to `origin`, as the rows and positions here.
    pub fn local(&self, p: &Vector3<T>) -> Vector3<T> {
        p - self.origin
    }
}

/// A body's inertia at the world origin in the compact form the
/// composite-rigid-body recursion sums: mass `m`, first moment `h = m c`
/// and the rotational inertia `i` about the origin (`I_c + m(|c|²1 − c cᵀ)`),
/// ten numbers for the 6 × 6 spatial inertia `[[i, ĥ], [−ĥ, m 1]]`.
#[derive(Clone, Copy, Debug)]
pub struct BodyInertia<T = f64> {
    m: T,
    h: Vector3<T>,
    i: Matrix3<T>,
}

impl<T: Real> BodyInertia<T> {
    fn zero() -> Self {
        BodyInertia {
            m: T::zero(),
            h: Vector3::zeros(),
            i: Matrix3::zeros(),
        }
    }

    /// The spatial force `I s` of a motion `s = (ω, v_O)`.
    fn apply(&self, s: &Vector6<T>) -> Vector6<T> {
        let w = Vector3::new(s[0], s[1], s[2]);
        let v = Vector3::new(s[3], s[4], s[5]);
        motion(self.i * w + self.h.cross(&v), v * self.m - self.h.cross(&w))
    }

    fn add(&mut self, o: &BodyInertia<T>) {
        self.m += o.m;
        self.h += o.h;
        self.i += o.i;
    }
}

/// A configuration's quaternion normalised as MuJoCo does
/// (`mju_normalize4`, engine_util_blas.c): one whose norm is below 10⁻¹⁵
/// (zero, or so small its square underflows) is the identity.
///
/// A quaternion so large that its squares overflow (a norm of 1.3e154 or
/// more) is scaled by its largest component first, so it is normalised,
/// not turned to zero.
fn unit_quaternion<T: Real>(w: T, x: T, y: T, z: T) -> UnitQuaternion<T> {
    let q = Quaternion::new(w, x, y, z);
    let (one, zero) = (T::one(), T::zero());
    let direct = q.norm();
    let top = w
        .simd_abs()
        .simd_max(x.simd_abs())
        .simd_max(y.simd_abs().simd_max(z.simd_abs()));
    let overflow = direct.simd_gt(T::splat(f64::MAX));
    let top = one.select(!overflow, top);
    let (w, x, y, z) = (w / top, x / top, y / top, z / top);
    let norm = Quaternion::new(w, x, y, z).norm();
    let norm = direct.select(!overflow, norm);
    let small = norm.simd_lt(T::splat(1e-15));
    let d = one.select(small, norm);
    UnitQuaternion::new_unchecked(Quaternion::new(
        one.select(small, w / d),
        zero.select(small, x / d),
        zero.select(small, y / d),
        zero.select(small, z / d),
    ))
}

fn motion<T: Real>(ang: Vector3<T>, lin: Vector3<T>) -> Vector6<T> {
    Vector6::new(ang.x, ang.y, ang.z, lin.x, lin.y, lin.z)
}

impl Tree {
    /// Appends a body and its joints (kinds, anchors, axes, references,
    /// armatures), assigning coordinate and velocity addresses. The parent
    /// must already be in the tree.
    pub fn push_body(&mut self, mut body: Body, joints: Vec<Joint>) -> usize {
        debug_assert!(body.parent.is_none_or(|p| p < self.bodies.len()));
        let index = self.bodies.len();
        body.joints.clear();
        for mut j in joints {
            j.qpos_adr = self.nq;
            j.dof_adr = self.nv;
            self.nq += j.kind.nq();
            self.nv += j.kind.nv();
            match j.kind {
                JointKind::Hinge | JointKind::Slide => self.qpos0.push(j.q_ref),
                JointKind::Ball => self.qpos0.extend([1.0, 0.0, 0.0, 0.0]),
                JointKind::Free { .. } => {
                    // The body's own pose in its parent (the world).
                    let q = body.quat.quaternion();
                    self.qpos0
                        .extend([body.pos.x, body.pos.y, body.pos.z, q.w, q.i, q.j, q.k]);
                }
            }
            body.joints.push(self.joints.len());
            self.joints.push(j);
        }
        self.bodies.push(body);
        index
    }

    /// Index of a body by name.
    pub fn body_index(&self, name: &str) -> Option<usize> {
        self.bodies.iter().position(|b| b.name == name)
    }

    /// Names of the velocities (`joint`, or `joint.x` … for multi-velocity joints).
    pub fn dof_names(&self) -> Vec<(String, &'static str)> {
        let mut out = Vec::with_capacity(self.nv);
        for j in &self.joints {
            match j.kind {
                JointKind::Hinge => out.push((j.name.clone(), "rad")),
                JointKind::Slide => out.push((j.name.clone(), "m")),
                JointKind::Ball => {
                    for a in ["ωx", "ωy", "ωz"] {
                        out.push((format!("{}.{a}", j.name), "rad"));
                    }
                }
                JointKind::Free { .. } => {
                    for a in ["x", "y", "z"] {
                        out.push((format!("{}.{a}", j.name), "m"));
                    }
                    for a in ["ωx", "ωy", "ωz"] {
                        out.push((format!("{}.{a}", j.name), "rad"));
                    }
                }
            }
        }
        out
    }

    /// Total mass of the bodies.
    pub fn total_mass(&self) -> f64 {
        self.bodies.iter().map(|b| b.mass).sum()
    }

    /// Forward kinematics at `q` (length [`Tree::nq`]).
    pub fn kinematics(&self, q: &[f64]) -> Kinematics {
        let mut kin = Kinematics::default();
        self.kinematics_into(q, &mut kin);
        kin
    }

    /// Forward kinematics at `q` into `kin`, reusing its buffers; `T`
    /// lanes evaluate several configurations at once.
    pub fn kinematics_into<T: Real>(&self, q: &[T], kin: &mut Kinematics<T>) {
        assert_eq!(q.len(), self.nq, "configuration length");
        let Kinematics {
            origin,
            xpos,
            xrot,
            dofs,
            last,
            xquat,
            placed,
            shifts,
        } = kin;
        *origin = Vector3::zeros();
        let mut origin_set = false;
        xpos.clear();
        xrot.clear();
        dofs.clear();
        last.clear();
        xquat.clear();
        for (i, b) in self.bodies.iter().enumerate() {
            let bquat: UnitQuaternion<T> =
                UnitQuaternion::new_unchecked(Quaternion::from(b.quat.coords.map(T::splat)));
            // A root body's translations go to `shift` (world), the rest to
            // `pos` (relative to the shift); a child's `pos` is relative to
            // the origin already.
            let root = b.parent.is_none();
            let (mut shift, mut pos, mut quat) = match b.parent {
                Some(p) => (
                    Vector3::zeros(),
                    xpos[p] + xquat[p] * lanes(&b.pos),
                    xquat[p] * bquat,
                ),
                None => (lanes(&b.pos), Vector3::zeros(), bquat),
            };
            let mut prev = b.parent.and_then(|p| last[p]);
            // Anchors and axes in the world, per joint, before the next joint moves the body.
            placed.clear();
            shifts.clear();
            for &ji in &b.joints {
                let j = &self.joints[ji];
                let qa = j.qpos_adr;
                let (jaxis, jpos) = (lanes::<T>(&j.axis), lanes::<T>(&j.pos));
                let axis = quat * jaxis;
                // A joint at the body's origin (every URDF joint) moves
                // it without the anchor's two rotations (the same numbers:
                // adding a zero vector is exact).
                let at_origin = j.pos == Vector3::zeros();
                let anchor = if at_origin { pos } else { pos + quat * jpos };
                match j.kind {
                    JointKind::Slide if root => shift += axis * (q[qa] - T::splat(j.q_ref)),
                    JointKind::Slide => pos += axis * (q[qa] - T::splat(j.q_ref)),
                    JointKind::Hinge | JointKind::Ball => {
                        let local = if j.kind == JointKind::Hinge {
                            UnitQuaternion::from_axis_angle(
                                &nalgebra::Unit::new_unchecked(jaxis),
                                q[qa] - T::splat(j.q_ref),
                            )
                        } else {
                            unit_quaternion(q[qa], q[qa + 1], q[qa + 2], q[qa + 3])
                        };
                        quat *= local;
                        if !at_origin {
                            pos = anchor - quat * jpos;
                        }
                    }
                    JointKind::Free { .. } if root => {
                        shift = Vector3::new(q[qa], q[qa + 1], q[qa + 2]);
                        pos = Vector3::zeros();
                        quat = unit_quaternion(q[qa + 3], q[qa + 4], q[qa + 5], q[qa + 6]);
                    }
                    JointKind::Free { .. } => {
                        pos = Vector3::new(q[qa], q[qa + 1], q[qa + 2]) - *origin;
                        quat = unit_quaternion(q[qa + 3], q[qa + 4], q[qa + 5], q[qa + 6]);
                    }
                }
                let anchor = if matches!(j.kind, JointKind::Free { .. }) {
                    pos
                } else {
                    anchor
                };
                placed.push((anchor, axis));
                shifts.push(shift);
            }
            if root {
                // The first root body's translation is the origin; another
                // root body's is taken relative to it.
                if !origin_set {
                    *origin = shift;
                    origin_set = true;
                }
                let d = shift - *origin;
                pos += d;
                for (a, s) in placed.iter_mut().zip(shifts.iter()) {
                    a.0 += *s - *origin;
                }
            }
            let rot = quat.to_rotation_matrix().into_inner();
            for (&ji, &(anchor, axis)) in b.joints.iter().zip(placed.iter()) {
                let j = &self.joints[ji];
                let mut push = |s: Vector6<T>| {
                    dofs.push(DofColumn {
                        body: i,
                        s,
                        parent: prev,
                    });
                    prev = Some(dofs.len() - 1);
                };
                match j.kind {
                    JointKind::Hinge => push(motion(axis, anchor.cross(&axis))),
                    JointKind::Slide => push(motion(Vector3::zeros(), axis)),
                    JointKind::Ball | JointKind::Free { .. } => {
                        if let JointKind::Free { local_linear } = j.kind {
                            for k in 0..3 {
                                let e = if local_linear {
                                    rot.column(k).into_owned()
                                } else {
                                    Vector3::ith(k, T::one())
                                };
                                push(motion(Vector3::zeros(), e));
                            }
                        }
                        // Angular velocity about the body's axes (MuJoCo
                        // takes the body's final orientation).
                        for k in 0..3 {
                            let e = rot.column(k).into_owned();
                            push(motion(e, anchor.cross(&e)));
                        }
                    }
                }
            }
            last.push(prev);
            xpos.push(pos);
            xquat.push(quat);
            xrot.push(rot);
        }
    }

    /// The inertia of body `b` at the world origin.
    fn body_inertia<T: Real>(&self, kin: &Kinematics<T>, b: usize) -> BodyInertia<T> {
        let body = &self.bodies[b];
        // Frames without mass (a tool flange, a sensor mount) add nothing.
        if body.mass == 0.0 && body.inertia == Matrix3::zeros() {
            return BodyInertia::zero();
        }
        let r = &kin.xrot[b];
        let c = kin.xpos[b] + r * lanes(&body.com);
        let m = T::splat(body.mass);
        let parallel = Matrix3::identity() * c.norm_squared() - c * c.transpose();
        BodyInertia {
            m,
            h: c * m,
            i: r * body.inertia.map(T::splat) * r.transpose() + parallel * m,
        }
    }

    /// The joint-space mass matrix `M(q)` (row-major, `nv × nv`), with the
    /// joints' armature on the diagonal when `armature`.
    pub fn mass_matrix(&self, kin: &Kinematics, armature: bool) -> Vec<f64> {
        let mut m = vec![0.0; self.nv * self.nv];
        self.mass_matrix_into(kin, armature, &mut Vec::new(), &mut m);
        m
    }

    /// [`Tree::mass_matrix`] into `m` (`nv × nv`, symmetric, so row- and
    /// column-major alike), with `composite` as the recursion's buffer.
    pub fn mass_matrix_into<T: Real>(
        &self,
        kin: &Kinematics<T>,
        armature: bool,
        composite: &mut Vec<BodyInertia<T>>,
        m: &mut [T],
    ) {
        let nb = self.bodies.len();
        composite.clear();
        composite.extend((0..nb).map(|b| self.body_inertia(kin, b)));
        for b in (0..nb).rev() {
            if let Some(p) = self.bodies[b].parent {
                let (head, tail) = composite.split_at_mut(b);
                head[p].add(&tail[0]);
            }
        }
        let n = self.nv;
        assert_eq!(m.len(), n * n, "mass matrix size");
        m.fill(T::zero());
        for (j, dof) in kin.dofs.iter().enumerate() {
            let f = composite[dof.body].apply(&dof.s);
            let mut i = Some(j);
            while let Some(k) = i {
                let v = kin.dofs[k].s.dot(&f);
                m[k * n + j] = v;
                m[j * n + k] = v;
                i = kin.dofs[k].parent;
            }
        }
        if armature {
            for jt in &self.joints {
                for d in jt.dof_adr..jt.dof_adr + jt.kind.nv() {
                    m[d * n + d] += T::splat(jt.armature);
                }
            }
        }
    }

    /// The row `n · ∂v_p/∂q̇`: rate of the point `p` of body `b` (world
    /// axes, relative to [`Kinematics::origin`]) along `n`, per velocity.
    pub fn point_row(
        &self,
        kin: &Kinematics,
        b: usize,
        p: &Vector3<f64>,
        n: &Vector3<f64>,
    ) -> Vec<f64> {
        let mut row = vec![0.0; self.nv];
        Self::point_row_into(kin, Some(b), p, n, &mut row);
        row
    }

    /// [`Tree::point_row`] into `row` (length `nv`); `b = None` is the
    /// world (a zero row).
    pub fn point_row_into<T: Real>(
        kin: &Kinematics<T>,
        b: Option<usize>,
        p: &Vector3<T>,
        n: &Vector3<T>,
        row: &mut [T],
    ) {
        row.fill(T::zero());
        let l1 = |v: &Vector3<T>| v.x.simd_abs() + v.y.simd_abs() + v.z.simd_abs();
        let (np, pp) = (l1(n), l1(p));
        let mut k = b.and_then(|b| kin.last[b]);
        while let Some(d) = k {
            let s = &kin.dofs[d].s;
            let w = Vector3::new(s[0], s[1], s[2]);
            let lin = Vector3::new(s[3], s[4], s[5]);
            let rate = n.dot(&(lin + w.cross(p)));
            // A rate that cancels (a direction the velocity cannot have)
            // is exactly zero, not round-off: below 10⁻¹⁴ of the size of
            // the terms it sums (their round-off is a few 10⁻¹⁶ of it).
            let scale = np * (l1(&lin) + l1(&w) * pp);
            row[d] = T::zero().select(rate.simd_abs().simd_le(T::splat(1e-14) * scale), rate);
            k = kin.dofs[d].parent;
        }
    }

    /// A body point given in the body frame, in world axes relative to
    /// [`Kinematics::origin`]: what [`Tree::point_row`] takes.
    pub fn place(&self, kin: &Kinematics, b: usize, local: &Vector3<f64>) -> Vector3<f64> {
        kin.xpos[b] + kin.xrot[b] * local
    }

    /// A body point given in the body frame, in world coordinates.
    pub fn to_world(&self, kin: &Kinematics, b: usize, local: &Vector3<f64>) -> Vector3<f64> {
        kin.world(&self.place(kin, b, local))
    }
}

impl Tree {
    /// The row of the angular velocity of body `b` about world axis `axis`.
    pub fn angular_row(&self, kin: &Kinematics, b: usize, axis: usize) -> Vec<f64> {
        let mut row = vec![0.0; self.nv];
        let mut k = self.last_dof(kin, b);
        while let Some(d) = k {
            row[d] = kin.dofs[d].s[axis];
            k = kin.dofs[d].parent;
        }
        row
    }

    /// The last velocity on the path from body `b` to the root.
    pub fn last_dof(&self, kin: &Kinematics, b: usize) -> Option<usize> {
        kin.last[b]
    }
}

#[cfg(test)]
mod tests;
