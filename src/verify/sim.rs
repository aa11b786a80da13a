//! An independent time-domain simulator.
//!
//! It does **not** use the assembled M, J or G: bodies are integrated with
//! Newton–Euler equations in world axes (3-d state for every space: planar
//! bodies move in the xy-plane and turn about z, line particles move along
//! x), contact points and normals are attached to the bodies and move with
//! them, and penalty forces are computed from the current geometry.
//!
//! Each contact is *preloaded*: a constant external force `P n` pushes the
//! body into the contact at its contact point, and the spring's rest gap is
//! set to `P/k`, so the frozen configuration is an equilibrium with every
//! one-sided contact compressed; small perturbations then vibrate about it.
//! Pin/ball joints are exact at velocity level: after each velocity update
//! the velocities are projected onto the joint constraints computed from the
//! current geometry (position drift is second order and not corrected).
//!
//! `[generalized]` cases have no geometry to simulate; [`LinearSim`]
//! integrates `M v̇ = −Jᵀ(K ξ + C ξ̇)`, `ξ = J q`, at the frozen
//! configuration (it checks the linear analysis, not the model).

use crate::model::{BodyKind, Geometry, Inertia, Kind, Model};
use nalgebra::{DMatrix, DVector, Matrix3, UnitQuaternion, Vector3};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Time integrators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Integrator {
    /// Symplectic (semi-implicit) Euler: kick, then drift.
    SymplecticEuler,
    /// Velocity Verlet: half kick, drift, half kick.
    VelocityVerlet,
    /// Classical fourth-order Runge–Kutta (a high-order reference).
    Rk4,
}

impl Integrator {
    /// Name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Integrator::SymplecticEuler => "symplectic-euler",
            Integrator::VelocityVerlet => "velocity-verlet",
            Integrator::Rk4 => "rk4",
        }
    }

    /// Nominal order of accuracy.
    pub fn order(self) -> f64 {
        match self {
            Integrator::SymplecticEuler => 1.0,
            Integrator::VelocityVerlet => 2.0,
            Integrator::Rk4 => 4.0,
        }
    }
}

/// What every simulator offers the verification.
pub trait Simulator {
    /// Current gaps (minus their values at the frozen configuration).
    fn gaps(&self) -> Vec<f64>;
    /// Current gap rates.
    fn gap_rates(&self) -> Vec<f64>;
    /// An instantaneous impulse `p` along contact `i`'s normal, on both
    /// bodies (opening the gap when positive).
    fn impulse(&mut self, i: usize, p: f64);
    /// A constant extra force `f` along contact `i`'s normal (0 to remove).
    fn set_pulse(&mut self, i: usize, f: f64);
    /// Advances by `h`.
    fn step(&mut self, h: f64, integrator: Integrator);
    /// Kinetic plus spring energy of the perturbation.
    fn energy(&self) -> f64;
    /// Whether the caller has cancelled the evaluation: loops over steps
    /// end at once (nothing they measure is shown).
    fn stopped(&self) -> bool {
        false
    }
}

/// A simulator that stops stepping once `cancel` is set: the caller has
/// abandoned the evaluation (its numbers are never shown), and every loop
/// over steps then ends at once.
struct Stoppable {
    inner: Box<dyn Simulator>,
    cancel: Arc<AtomicBool>,
}

impl Simulator for Stoppable {
    fn gaps(&self) -> Vec<f64> {
        self.inner.gaps()
    }
    fn gap_rates(&self) -> Vec<f64> {
        self.inner.gap_rates()
    }
    fn impulse(&mut self, i: usize, p: f64) {
        self.inner.impulse(i, p);
    }
    fn set_pulse(&mut self, i: usize, f: f64) {
        self.inner.set_pulse(i, f);
    }
    fn step(&mut self, h: f64, integrator: Integrator) {
        if !self.stopped() {
            self.inner.step(h, integrator);
        }
    }
    fn energy(&self) -> f64 {
        self.inner.energy()
    }
    fn stopped(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// `sim` stopped by `cancel` (when there is one).
pub fn stoppable(sim: Box<dyn Simulator>, cancel: Option<&Arc<AtomicBool>>) -> Box<dyn Simulator> {
    match cancel {
        Some(c) => Box::new(Stoppable {
            inner: sim,
            cancel: c.clone(),
        }),
        None => sim,
    }
}

#[derive(Clone, Debug)]
struct Body {
    mass: f64,
    /// Inertia in body axes (the world axes at the frozen configuration).
    inertia_body: Matrix3<f64>,
    rotates: bool,
    x: Vector3<f64>,
    q: UnitQuaternion<f64>,
    v: Vector3<f64>,
    w: Vector3<f64>,
}

#[derive(Clone, Debug)]
struct ContactSim {
    body: usize,
    other: Option<usize>,
    /// Contact point in the body's frame, and in the other's (or world).
    r_body: Vector3<f64>,
    r_other: Vector3<f64>,
    /// Normal: in the body frame when the other is a body (attached to
    /// `body`), else fixed in the world.
    normal: Vector3<f64>,
    normal_attached: bool,
    /// The other side's periodic image shift: the gap is taken to the
    /// other point moved by it (zero but across a periodic boundary).
    image: Vector3<f64>,
    k: f64,
    c: f64,
    preload: f64,
    pulse: f64,
}

#[derive(Clone, Debug)]
struct JointSim {
    body: usize,
    other: Option<usize>,
    r_body: Vector3<f64>,
    r_other: Vector3<f64>,
}

/// The rigid-body simulator.
#[derive(Clone, Debug)]
pub struct BodySim {
    bodies: Vec<Body>,
    /// Index into `bodies` per model body (`None` for fixed bodies).
    contacts: Vec<ContactSim>,
    joints: Vec<JointSim>,
    axes: usize,
}

fn v3(p: &[f64]) -> Vector3<f64> {
    Vector3::new(
        p.first().copied().unwrap_or(0.0),
        p.get(1).copied().unwrap_or(0.0),
        p.get(2).copied().unwrap_or(0.0),
    )
}

type Derivs = Vec<(Vector3<f64>, Vector3<f64>)>;

impl BodySim {
    /// Builds the simulator from a body-form model (`None` for generalized
    /// form) with one preload force per contact.
    pub fn new(model: &Model<f64>, preload: &[f64]) -> Option<BodySim> {
        let Kind::Bodies { bodies, joints } = &model.kind else {
            return None;
        };
        let mut index = Vec::with_capacity(bodies.len());
        let mut sims = Vec::new();
        for b in bodies {
            let (mass, inertia, rotates) = match &b.kind {
                BodyKind::Fixed => {
                    index.push(None);
                    continue;
                }
                BodyKind::Particle { mass } => (*mass, Matrix3::identity() * *mass, false),
                BodyKind::Rigid { mass, inertia } => {
                    let i = match inertia {
                        // Planar: only rotation about z occurs.
                        Inertia::Scalar(i) => Matrix3::identity() * *i,
                        Inertia::Diagonal(d) => {
                            Matrix3::from_diagonal(&Vector3::new(d[0], d[1], d[2]))
                        }
                        Inertia::Full(m) => Matrix3::from_fn(|r, c| m[r][c]),
                    };
                    (*mass, i, true)
                }
            };
            index.push(Some(sims.len()));
            sims.push(Body {
                mass,
                inertia_body: inertia,
                rotates,
                x: v3(&b.position),
                q: UnitQuaternion::identity(),
                v: Vector3::zeros(),
                w: Vector3::zeros(),
            });
        }
        let point_in = |i: Option<usize>, p: Vector3<f64>| match i {
            Some(b) => p - sims[b].x,
            None => p,
        };
        let contacts = model
            .contacts
            .iter()
            .zip(preload)
            .map(|(c, &pre)| {
                let Geometry::Point {
                    body,
                    other,
                    point,
                    normal,
                    image,
                } = &c.geometry
                else {
                    unreachable!("body-form contacts have points")
                };
                let p = v3(point);
                // `other` seen at its periodic image: the point less the shift.
                let shift = image.as_ref().map_or(Vector3::zeros(), |s| v3(s));
                let q = p - shift;
                let (b, o) = (index[*body], other.and_then(|o| index[o]));
                // A fixed `body` against a movable `other`: swap roles, flip the normal.
                let (b, o, n, pb, po, shift) = match b {
                    Some(b) => (b, o, v3(normal), p, q, shift),
                    None => (
                        o.expect("validated: one side moves"),
                        None,
                        -v3(normal),
                        q,
                        p,
                        -shift,
                    ),
                };
                ContactSim {
                    body: b,
                    other: o,
                    r_body: point_in(Some(b), pb),
                    r_other: point_in(o, po),
                    normal: n,
                    normal_attached: o.is_some(),
                    image: shift,
                    k: c.stiffness,
                    c: c.damping.unwrap_or(0.0),
                    preload: pre,
                    pulse: 0.0,
                }
            })
            .collect();
        let joints = joints
            .iter()
            .filter_map(|j| {
                let p = v3(&j.point);
                let (b, o) = (index[j.body], j.other.and_then(|o| index[o]));
                let (b, o) = match b {
                    Some(b) => (b, o),
                    None => (o?, None),
                };
                Some(JointSim {
                    body: b,
                    other: o,
                    r_body: point_in(Some(b), p),
                    r_other: point_in(o, p),
                })
            })
            .collect();
        Some(BodySim {
            bodies: sims,
            contacts,
            joints,
            axes: model.space.dim(),
        })
    }

    fn world_point(&self, b: Option<usize>, r: &Vector3<f64>) -> Vector3<f64> {
        match b {
            Some(b) => self.bodies[b].x + self.bodies[b].q * r,
            None => *r,
        }
    }

    fn point_velocity(&self, b: Option<usize>, r: &Vector3<f64>) -> Vector3<f64> {
        match b {
            Some(b) => {
                let body = &self.bodies[b];
                body.v + body.w.cross(&(body.q * r))
            }
            None => Vector3::zeros(),
        }
    }

    fn normal(&self, c: &ContactSim) -> Vector3<f64> {
        if c.normal_attached {
            self.bodies[c.body].q * c.normal
        } else {
            c.normal
        }
    }

    fn gap_and_rate(&self, c: &ContactSim) -> (f64, f64) {
        let n = self.normal(c);
        let d = self.world_point(Some(c.body), &c.r_body)
            - self.world_point(c.other, &c.r_other)
            - c.image;
        let dv =
            self.point_velocity(Some(c.body), &c.r_body) - self.point_velocity(c.other, &c.r_other);
        let mut rate = n.dot(&dv);
        if c.normal_attached {
            // The normal turns with `body`: d/dt n = ω × n.
            rate += self.bodies[c.body].w.cross(&n).dot(&d);
        }
        (n.dot(&d), rate)
    }

    fn inverse_inertia_world(&self, b: usize) -> Matrix3<f64> {
        let body = &self.bodies[b];
        let r = body.q.to_rotation_matrix();
        let i = r.matrix() * body.inertia_body * r.matrix().transpose();
        i.try_inverse().unwrap_or_else(Matrix3::zeros)
    }

    /// Forces and torques on every body at the current state.
    fn wrenches(&self) -> Derivs {
        let mut out: Derivs = vec![(Vector3::zeros(), Vector3::zeros()); self.bodies.len()];
        for c in &self.contacts {
            let (g, gd) = self.gap_and_rate(c);
            // Spring with rest gap preload/k, one-sided; damping acts while in contact.
            let compression = c.preload / c.k - g;
            let spring = if compression > 0.0 {
                c.k * compression - c.c * gd
            } else {
                0.0
            };
            // The preload pushes the body into the contact; a pulse adds to it.
            let f = spring - c.preload + c.pulse;
            let n = self.normal(c);
            let pb = self.bodies[c.body].q * c.r_body;
            out[c.body].0 += f * n;
            out[c.body].1 += pb.cross(&(f * n));
            if let Some(o) = c.other {
                let po = self.world_point(c.other, &c.r_other) - self.bodies[o].x;
                out[o].0 -= f * n;
                out[o].1 -= po.cross(&(f * n));
            }
        }
        out
    }

    /// Accelerations (linear, angular) at the current state.
    fn accelerations(&self) -> Derivs {
        self.wrenches()
            .into_iter()
            .enumerate()
            .map(|(b, (f, t))| {
                let body = &self.bodies[b];
                let a = f / body.mass;
                let alpha = if body.rotates {
                    let iw = {
                        let r = body.q.to_rotation_matrix();
                        r.matrix() * body.inertia_body * r.matrix().transpose()
                    };
                    self.inverse_inertia_world(b) * (t - body.w.cross(&(iw * body.w)))
                } else {
                    Vector3::zeros()
                };
                (a, alpha)
            })
            .collect()
    }

    fn kick(&mut self, acc: &Derivs, h: f64) {
        for (body, (a, alpha)) in self.bodies.iter_mut().zip(acc) {
            body.v += a * h;
            body.w += alpha * h;
        }
        self.project();
    }

    fn drift(&mut self, h: f64) {
        for body in &mut self.bodies {
            body.x += body.v * h;
            if body.rotates {
                body.q = UnitQuaternion::from_scaled_axis(body.w * h) * body.q;
            }
        }
    }

    /// Projects the velocities onto the joint constraints (M-orthogonally).
    fn project(&mut self) {
        if self.joints.is_empty() {
            return;
        }
        let nb = self.bodies.len();
        let n = 6 * nb;
        let mut rows = Vec::new();
        for j in &self.joints {
            let rb = self.bodies[j.body].q * j.r_body;
            let ro = j
                .other
                .map(|o| self.world_point(Some(o), &j.r_other) - self.bodies[o].x);
            for axis in 0..self.axes {
                let e = Vector3::ith(axis, 1.0);
                let mut row = vec![0.0; n];
                let mut add = |b: usize, r: &Vector3<f64>, sign: f64| {
                    for k in 0..3 {
                        row[6 * b + k] += sign * e[k];
                    }
                    let rxe = r.cross(&e);
                    for k in 0..3 {
                        row[6 * b + 3 + k] += sign * rxe[k];
                    }
                };
                add(j.body, &rb, 1.0);
                if let (Some(o), Some(ro)) = (j.other, ro) {
                    add(o, &ro, -1.0);
                }
                rows.push(row);
            }
        }
        let g = DMatrix::from_fn(rows.len(), n, |i, k| rows[i][k]);
        let mut minv = DMatrix::zeros(n, n);
        let mut v = DVector::zeros(n);
        for (b, body) in self.bodies.iter().enumerate() {
            for k in 0..3 {
                minv[(6 * b + k, 6 * b + k)] = 1.0 / body.mass;
                v[6 * b + k] = body.v[k];
                v[6 * b + 3 + k] = body.w[k];
            }
            if body.rotates {
                let ii = self.inverse_inertia_world(b);
                for r in 0..3 {
                    for c in 0..3 {
                        minv[(6 * b + 3 + r, 6 * b + 3 + c)] = ii[(r, c)];
                    }
                }
            } else {
                for k in 0..3 {
                    minv[(6 * b + 3 + k, 6 * b + 3 + k)] = 0.0;
                }
            }
        }
        let s = &g * &minv * g.transpose();
        // Pseudo-inverse through the symmetric eigendecomposition: redundant
        // joint rows give zero eigenvalues.
        let Some(eig) = crate::linalg::eig::symmetric(s) else {
            // No decomposition (not finite, or not converged): the state
            // becomes NaN, which the verification reports, rather than an
            // unprojected (wrong) velocity.
            for body in &mut self.bodies {
                body.v.fill(f64::NAN);
                body.w.fill(f64::NAN);
            }
            return;
        };
        let lmax = eig.eigenvalues.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let gv = &g * &v;
        let ut = eig.eigenvectors.transpose();
        let mut y = &ut * gv;
        for (i, l) in eig.eigenvalues.iter().enumerate() {
            y[i] = if *l > 1e-12 * lmax { y[i] / l } else { 0.0 };
        }
        let lambda = &eig.eigenvectors * y;
        let dv = &minv * g.transpose() * lambda;
        for (b, body) in self.bodies.iter_mut().enumerate() {
            for k in 0..3 {
                body.v[k] -= dv[6 * b + k];
                body.w[k] -= dv[6 * b + 3 + k];
            }
        }
    }

    fn rk4(&mut self, h: f64) {
        let start = self.clone();
        let eval = |s: &BodySim| -> (Derivs, Derivs) {
            (
                s.bodies.iter().map(|b| (b.v, b.w)).collect(),
                s.accelerations(),
            )
        };
        let advance = |base: &BodySim,
                       vel: &[(Vector3<f64>, Vector3<f64>)],
                       acc: &Derivs,
                       dt: f64|
         -> BodySim {
            let mut s = base.clone();
            for (b, body) in s.bodies.iter_mut().enumerate() {
                body.x += vel[b].0 * dt;
                if body.rotates {
                    body.q = UnitQuaternion::from_scaled_axis(vel[b].1 * dt) * body.q;
                }
                body.v += acc[b].0 * dt;
                body.w += acc[b].1 * dt;
            }
            s
        };
        let (v1, a1) = eval(&start);
        let s2 = advance(&start, &v1, &a1, h / 2.0);
        let (v2, a2) = eval(&s2);
        let s3 = advance(&start, &v2, &a2, h / 2.0);
        let (v3_, a3) = eval(&s3);
        let s4 = advance(&start, &v3_, &a3, h);
        let (v4, a4) = eval(&s4);
        let nb = self.bodies.len();
        let mix = |k: usize, f: &dyn Fn(usize, usize) -> Vector3<f64>| {
            (f(0, k) + 2.0 * f(1, k) + 2.0 * f(2, k) + f(3, k)) / 6.0
        };
        let vels = [&v1, &v2, &v3_, &v4];
        let accs = [&a1, &a2, &a3, &a4];
        for b in 0..nb {
            let dx = mix(b, &|s, k| vels[s][k].0);
            let dth = mix(b, &|s, k| vels[s][k].1);
            let dv = mix(b, &|s, k| accs[s][k].0);
            let dw = mix(b, &|s, k| accs[s][k].1);
            let body = &mut self.bodies[b];
            body.x = start.bodies[b].x + dx * h;
            if body.rotates {
                body.q = UnitQuaternion::from_scaled_axis(dth * h) * start.bodies[b].q;
            }
            body.v = start.bodies[b].v + dv * h;
            body.w = start.bodies[b].w + dw * h;
        }
        self.project();
    }
}

impl Simulator for BodySim {
    fn gaps(&self) -> Vec<f64> {
        self.contacts
            .iter()
            .map(|c| self.gap_and_rate(c).0)
            .collect()
    }

    fn gap_rates(&self) -> Vec<f64> {
        self.contacts
            .iter()
            .map(|c| self.gap_and_rate(c).1)
            .collect()
    }

    fn impulse(&mut self, i: usize, p: f64) {
        let c = self.contacts[i].clone();
        let n = self.normal(&c);
        let rb = self.bodies[c.body].q * c.r_body;
        let mut hits = vec![(c.body, rb, 1.0)];
        if let Some(o) = c.other {
            let ro = self.world_point(Some(o), &c.r_other) - self.bodies[o].x;
            hits.push((o, ro, -1.0));
        }
        for (b, r, sign) in hits {
            let ii = self.inverse_inertia_world(b);
            let body = &mut self.bodies[b];
            body.v += sign * p * n / body.mass;
            if body.rotates {
                body.w += ii * r.cross(&(sign * p * n));
            }
        }
        self.project();
    }

    fn set_pulse(&mut self, i: usize, f: f64) {
        self.contacts[i].pulse = f;
    }

    fn step(&mut self, h: f64, integrator: Integrator) {
        match integrator {
            Integrator::SymplecticEuler => {
                let acc = self.accelerations();
                self.kick(&acc, h);
                self.drift(h);
            }
            Integrator::VelocityVerlet => {
                let acc = self.accelerations();
                self.kick(&acc, h / 2.0);
                self.drift(h);
                let acc = self.accelerations();
                self.kick(&acc, h / 2.0);
            }
            Integrator::Rk4 => self.rk4(h),
        }
    }

    fn energy(&self) -> f64 {
        let kinetic: f64 = self
            .bodies
            .iter()
            .enumerate()
            .map(|(b, body)| {
                let rot = if body.rotates {
                    let r = body.q.to_rotation_matrix();
                    let iw = r.matrix() * body.inertia_body * r.matrix().transpose();
                    body.w.dot(&(iw * body.w))
                } else {
                    0.0
                };
                let _ = b;
                0.5 * (body.mass * body.v.norm_squared() + rot)
            })
            .sum();
        let springs: f64 = self
            .contacts
            .iter()
            .map(|c| 0.5 * c.k * self.gap_and_rate(c).0.powi(2))
            .sum();
        kinetic + springs
    }
}

/// The linear simulator of a generalized case: `M v̇ = −Jᵀ(K ξ + C ξ̇) + Jᵀ pulse`,
/// `ξ = J q`, with constraint rows projected out of the velocities.
#[derive(Clone, Debug)]
pub struct LinearSim {
    m_inv: DMatrix<f64>,
    mass: DMatrix<f64>,
    j: DMatrix<f64>,
    projector: DMatrix<f64>,
    k: Vec<f64>,
    c: Vec<f64>,
    q: DVector<f64>,
    v: DVector<f64>,
    pulse: Vec<f64>,
}

impl LinearSim {
    /// Builds the linear simulator from a generalized-form model.
    pub fn new(model: &Model<f64>) -> Option<LinearSim> {
        let Kind::Generalized {
            mass_matrix,
            constraints,
            ..
        } = &model.kind
        else {
            return None;
        };
        let n = mass_matrix.len();
        let mass = DMatrix::from_fn(n, n, |i, j| mass_matrix[i][j]);
        let j = DMatrix::from_fn(model.contacts.len(), n, |i, k| {
            match &model.contacts[i].geometry {
                Geometry::Jacobian(row) => row[k],
                Geometry::Point { .. } => 0.0,
            }
        });
        LinearSim::from_parts(
            mass,
            j,
            constraints,
            model.contacts.iter().map(|c| c.stiffness).collect(),
            model
                .contacts
                .iter()
                .map(|c| c.damping.unwrap_or(0.0))
                .collect(),
        )
    }

    /// The linear simulator of mass matrix `mass`, rows `j` with springs
    /// `k` and dashpots `c`, and constraint rows `constraints` (dense).
    pub fn from_parts(
        mass: DMatrix<f64>,
        j: DMatrix<f64>,
        constraints: &[Vec<f64>],
        k: Vec<f64>,
        c: Vec<f64>,
    ) -> Option<LinearSim> {
        let n = mass.nrows();
        let m_inv = mass.clone().try_inverse()?;
        let projector = if constraints.is_empty() {
            DMatrix::identity(n, n)
        } else {
            let g = DMatrix::from_fn(constraints.len(), n, |i, k| constraints[i][k]);
            let s = &g * &m_inv * g.transpose();
            let pinv = crate::linalg::eig::pseudo_inverse(s, 1e-12)?;
            DMatrix::identity(n, n) - &m_inv * g.transpose() * pinv * &g
        };
        let rows = j.nrows();
        Some(LinearSim {
            m_inv,
            mass,
            j,
            projector,
            k,
            c,
            q: DVector::zeros(n),
            v: DVector::zeros(n),
            pulse: vec![0.0; rows],
        })
    }

    /// An impulse on every row with unequal weights (1 + 0.37 i), so that
    /// no motion is left out by a symmetry of the kick.
    pub fn kick_every_row(&mut self) {
        for i in 0..self.k.len() {
            self.impulse(i, 1.0 + 0.37 * i as f64);
        }
    }

    /// `max |J q| + max |J v|`: unbounded exactly when the motion is.
    pub fn state_norm(&self) -> f64 {
        (&self.j * &self.q).amax() + (&self.j * &self.v).amax()
    }

    fn acceleration(&self, q: &DVector<f64>, v: &DVector<f64>) -> DVector<f64> {
        let xi = &self.j * q;
        let xid = &self.j * v;
        let f = DVector::from_fn(self.k.len(), |i, _| {
            -self.k[i] * xi[i] - self.c[i] * xid[i] + self.pulse[i]
        });
        &self.projector * (&self.m_inv * (self.j.transpose() * f))
    }
}

impl Simulator for LinearSim {
    fn gaps(&self) -> Vec<f64> {
        (&self.j * &self.q).iter().copied().collect()
    }

    fn gap_rates(&self) -> Vec<f64> {
        (&self.j * &self.v).iter().copied().collect()
    }

    fn impulse(&mut self, i: usize, p: f64) {
        let row = self.j.row(i).transpose() * p;
        self.v += &self.projector * (&self.m_inv * row);
    }

    fn set_pulse(&mut self, i: usize, f: f64) {
        self.pulse[i] = f;
    }

    fn step(&mut self, h: f64, integrator: Integrator) {
        match integrator {
            Integrator::SymplecticEuler => {
                self.v += self.acceleration(&self.q, &self.v) * h;
                self.q += &self.v * h;
            }
            Integrator::VelocityVerlet => {
                self.v += self.acceleration(&self.q, &self.v) * (h / 2.0);
                self.q += &self.v * h;
                self.v += self.acceleration(&self.q, &self.v) * (h / 2.0);
            }
            Integrator::Rk4 => {
                let (q0, v0) = (self.q.clone(), self.v.clone());
                let k1 = (v0.clone(), self.acceleration(&q0, &v0));
                let (q2, v2) = (&q0 + &k1.0 * (h / 2.0), &v0 + &k1.1 * (h / 2.0));
                let k2 = (v2.clone(), self.acceleration(&q2, &v2));
                let (q3, v3_) = (&q0 + &k2.0 * (h / 2.0), &v0 + &k2.1 * (h / 2.0));
                let k3 = (v3_.clone(), self.acceleration(&q3, &v3_));
                let (q4, v4) = (&q0 + &k3.0 * h, &v0 + &k3.1 * h);
                let k4 = (v4.clone(), self.acceleration(&q4, &v4));
                self.q = q0 + (k1.0 + k2.0 * 2.0 + k3.0 * 2.0 + k4.0) * (h / 6.0);
                self.v = v0 + (k1.1 + k2.1 * 2.0 + k3.1 * 2.0 + k4.1) * (h / 6.0);
            }
        }
    }

    fn energy(&self) -> f64 {
        let xi = &self.j * &self.q;
        0.5 * self.v.dot(&(&self.mass * &self.v))
            + (0..self.k.len())
                .map(|i| 0.5 * self.k[i] * xi[i] * xi[i])
                .sum::<f64>()
    }
}

/// The simulator for a model: rigid bodies, or the linear one for the
/// generalized form.
pub fn simulator(model: &Model<f64>, preload: &[f64]) -> Box<dyn Simulator> {
    match BodySim::new(model, preload) {
        Some(s) => Box::new(s),
        None => Box::new(
            LinearSim::new(model).expect("a validated generalized case has a positive-definite M"),
        ),
    }
}
