//! The linear contact law an engine applies about equilibrium, and what it
//! does with the exact Delassus matrix: continuous modes and the modes of
//! the engine's step map.
//!
//! In contact coordinates (gap deviations `g`, positive opening), every
//! engine meff translates applies, while the contacts stay closed,
//! `f = −P (K′ g + B′ ġ)` with `K′`, `B′` diagonal and `P` either the
//! identity (a spring and dashpot per contact) or a matrix (MuJoCo's
//! `(A + R)⁻¹`). The gaps then obey `g̈ = A f = −S g − C ġ` with
//! `S = A P K′`, `C = A P B′`.

use crate::analysis::stable::blocks;
use nalgebra::{Complex, DMatrix, DVector};

/// How an engine advances the contacts over one step `h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Semi-implicit Euler: forces from the state at the start of the
    /// step, velocity first, then position with the new velocity
    /// (MuJoCo's `Euler`, and its implicit integrators for contact forces).
    SemiImplicit,
    /// Implicit Euler in the contact force: the force uses the end-of-step
    /// gap `g + h v′` and velocity `v′` (ODE/Bullet ERP–CFM, Box2D and
    /// Rapier soft steps, Drake's discrete contact).
    Implicit,
    /// Classical fourth-order Runge–Kutta (MuJoCo's `RK4`).
    Rk4,
    /// Box2D's and Rapier's substep: warm start, one soft solve
    /// (`λ′ = cf (λ − m̂ (u + β g))`), positions, then a relax solve without
    /// softness or bias (`λ″ = λ′ − m̂ u`); needs [`Law::soft`].
    SoftRelax,
}

impl Step {
    /// Name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Step::SemiImplicit => "semi-implicit Euler",
            Step::Implicit => "implicit Euler (contact force)",
            Step::Rk4 => "RK4",
            Step::SoftRelax => "soft solve, then relax (per substep)",
        }
    }
}

/// A contact law in contact coordinates.
#[derive(Clone, Debug)]
pub struct Law {
    /// `P` (c×c): the identity for per-contact springs.
    pub p: DMatrix<f64>,
    /// Diagonal of `K′`.
    pub k: Vec<f64>,
    /// Diagonal of `B′`.
    pub b: Vec<f64>,
    /// The soft-step coefficients, for [`Step::SoftRelax`].
    pub soft: Option<Soft>,
}

/// Per contact: the point's own mass `m̂`, the softness `cf` (Box2D's
/// `massScale`, Rapier's `cfm_factor`) and the bias rate `β` (1/s).
#[derive(Clone, Debug)]
pub struct Soft {
    /// `m̂` (kg).
    pub mass: Vec<f64>,
    /// `cf`.
    pub cf: Vec<f64>,
    /// `β` (1/s).
    pub bias: Vec<f64>,
}

/// A mode: a pole `λ = −σ ± iω_d` of the gaps' motion, as a natural
/// frequency and damping ratio.
///
/// Serialised with what a measurement shows besides: the damped frequency
/// `omega_d` (rad/s, the zero crossings' rate), the decay rate `decay`
/// (1/s, of the envelope; the slowest for an overdamped pair) and, for an
/// overdamped pair, both rates `decay_rates` (1/s).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pole {
    /// Natural frequency `|λ|` (rad/s); for a first-order mode its decay
    /// rate (1/s).
    pub omega: f64,
    /// Damping ratio `σ/|λ|` (for an overdamped pair, of the pair; 1 for a
    /// first-order mode).
    pub zeta: f64,
    /// A single real decay `e^{−ωt}` rather than an oscillator: what a
    /// step that relaxes velocities leaves of a contact.
    pub first_order: bool,
}

impl Pole {
    /// The damped frequency `ω√(1−ζ²)` (rad/s); `None` for a mode that
    /// does not oscillate (overdamped or first order).
    pub fn omega_d(&self) -> Option<f64> {
        (!self.first_order && self.zeta < 1.0)
            .then(|| self.omega * (1.0 - self.zeta * self.zeta).max(0.0).sqrt())
    }

    /// The decay rates (1/s): `ζω` for an oscillation; both rates
    /// `ω(ζ ∓ √(ζ²−1))`, slowest first, for an overdamped pair; the rate
    /// itself for a first-order mode.
    pub fn decay_rates(&self) -> Vec<f64> {
        if self.first_order {
            vec![self.omega]
        } else if self.zeta < 1.0 {
            vec![self.zeta * self.omega]
        } else {
            let r = (self.zeta * self.zeta - 1.0).sqrt();
            vec![self.omega * (self.zeta - r), self.omega * (self.zeta + r)]
        }
    }
}

impl serde::Serialize for Pole {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let rates = self.decay_rates();
        let mut st = s.serialize_struct("Pole", 6)?;
        st.serialize_field("omega", &self.omega)?;
        st.serialize_field("zeta", &self.zeta)?;
        st.serialize_field("first_order", &self.first_order)?;
        st.serialize_field("omega_d", &self.omega_d())?;
        st.serialize_field("decay", &rates[0])?;
        st.serialize_field(
            "decay_rates",
            &(!self.first_order && self.zeta >= 1.0).then_some(&rates),
        )?;
        st.end()
    }
}

impl Law {
    /// `S` and `C` with the Delassus matrix `a`.
    fn sc(&self, a: &DMatrix<f64>) -> (DMatrix<f64>, DMatrix<f64>) {
        let ap = a * &self.p;
        let n = self.k.len();
        let s = DMatrix::from_fn(n, n, |i, j| ap[(i, j)] * self.k[j]);
        let c = DMatrix::from_fn(n, n, |i, j| ap[(i, j)] * self.b[j]);
        (s, c)
    }

    /// First-order matrix `F = [[0, I], [−S, −C]]` on `(g, ġ)`.
    fn first_order(&self, a: &DMatrix<f64>) -> DMatrix<f64> {
        let (s, c) = self.sc(a);
        let n = s.nrows();
        let mut f = DMatrix::zeros(2 * n, 2 * n);
        for i in 0..n {
            f[(i, n + i)] = 1.0;
            for j in 0..n {
                f[(n + i, j)] = -s[(i, j)];
                f[(n + i, n + j)] = -c[(i, j)];
            }
        }
        f
    }

    /// The continuous modes with Delassus matrix `a`, fastest first.
    pub fn modes(&self, a: &DMatrix<f64>) -> Vec<Pole> {
        poles(
            &crate::linalg::eig::complex_eigenvalues(self.first_order(a)),
            |l| l,
            true,
        )
    }

    /// The step map `(g, v) → (g′, v′)` of `step` with step `h`.
    pub fn step_map(&self, a: &DMatrix<f64>, step: Step, h: f64) -> DMatrix<f64> {
        let n = self.k.len();
        let id = DMatrix::<f64>::identity(n, n);
        match step {
            Step::SemiImplicit => {
                let (s, c) = self.sc(a);
                crate::analysis::stable::symplectic_euler_map(&s, &c, h)
            }
            Step::Implicit => {
                let (s, c) = self.sc(a);
                // (I + h²S + hC) v′ = v − hS g;  g′ = g + h v′.
                let lhs = &id + &s * (h * h) + &c * h;
                let inv = lhs
                    .try_inverse()
                    .unwrap_or_else(|| DMatrix::from_element(n, n, f64::NAN));
                let vg = -(&inv * &s) * h;
                let vv = inv;
                let gg = &id + &vg * h;
                let gv = &vv * h;
                blocks(&gg, &gv, &vg, &vv)
            }
            Step::SoftRelax => self.soft_relax_map(a, h),
            Step::Rk4 => {
                let f = self.first_order(a) * h;
                let mut term = DMatrix::<f64>::identity(2 * n, 2 * n);
                let mut sum = term.clone();
                for k in 1..=4 {
                    term = &term * &f / k as f64;
                    sum += &term;
                }
                sum
            }
        }
    }

    /// The substep map on `(g, u, λ)` (gap, gap rate, warm-start impulse),
    /// built by applying one substep to each unit state: warm start
    /// `u += Aλ`; the soft solve point by point in case order (Gauss–Seidel,
    /// as the engines' sequential impulses), `λᵢ′ = cfᵢ(λᵢ − m̂ᵢ(uᵢ + βᵢgᵢ))`,
    /// each change applied at once through A; `g += h u`; the relax solve
    /// point by point, `λᵢ″ = λᵢ′ − m̂ᵢuᵢ`. Exact while every contact stays
    /// closed.
    fn soft_relax_map(&self, a: &DMatrix<f64>, h: f64) -> DMatrix<f64> {
        let n = self.k.len();
        let Some(soft) = &self.soft else {
            return DMatrix::from_element(3 * n, 3 * n, f64::NAN);
        };
        let substep = |x: &[f64]| -> Vec<f64> {
            let (mut g, mut u, mut l) =
                (x[..n].to_vec(), x[n..2 * n].to_vec(), x[2 * n..].to_vec());
            let kick = |u: &mut Vec<f64>, i: usize, d: f64| {
                for (r, ur) in u.iter_mut().enumerate() {
                    *ur += a[(r, i)] * d;
                }
            };
            for i in 0..n {
                let li = l[i];
                kick(&mut u, i, li);
            }
            for i in 0..n {
                let new = soft.cf[i] * (l[i] - soft.mass[i] * (u[i] + soft.bias[i] * g[i]));
                kick(&mut u, i, new - l[i]);
                l[i] = new;
            }
            for i in 0..n {
                g[i] += h * u[i];
            }
            for i in 0..n {
                let new = l[i] - soft.mass[i] * u[i];
                kick(&mut u, i, new - l[i]);
                l[i] = new;
            }
            [g, u, l].concat()
        };
        let mut t = DMatrix::zeros(3 * n, 3 * n);
        let mut e = vec![0.0; 3 * n];
        for k in 0..3 * n {
            e[k] = 1.0;
            let col = substep(&e);
            e[k] = 0.0;
            for (r, v) in col.into_iter().enumerate() {
                t[(r, k)] = v;
            }
        }
        t
    }

    /// The modes the step map gives, as continuous poles `ln z / h`
    /// (what a measurement of the engine's motion finds), fastest first,
    /// and the map's spectral radius (below 1: the step is stable).
    pub fn step_modes(&self, a: &DMatrix<f64>, step: Step, h: f64) -> (Vec<Pole>, f64) {
        let map = self.step_map(a, step, h);
        // An eigenvalue at round-off of the map is zero: a zero eigenvalue
        // of a defective block (a soft step that sets a velocity outright)
        // splits by the square root of the round-off, |z| ≈ 10⁻⁹, which
        // `ln z / h` would list as a mode decaying at thousands per second.
        // It is no motion: gone in one step (Box2D's 4893 rad/s, ζ 0.988).
        let floor = ROUNDOFF_EIGENVALUE * map.norm().max(1.0);
        let z = crate::linalg::eig::complex_eigenvalues(map).map(|z| {
            if z.norm() <= floor {
                Complex::new(0.0, 0.0)
            } else {
                z
            }
        });
        // The radius over the contact modes: a free motion (a combination
        // of gaps no force moves, more contacts than motions) stays at
        // z = 1 whatever the step, and would hide the modes' margin.
        let rate = |z: &Complex<f64>| (z.ln() / h).norm();
        let top = z
            .iter()
            .map(rate)
            .filter(|r| r.is_finite())
            .fold(0.0f64, f64::max);
        let radius = z
            .iter()
            .filter(|z| rate(z) > 1e-7 * top || rate(z).is_nan())
            .fold(0.0f64, |r, z| r.max(z.norm()));
        // A relaxing step has first-order modes of its own: real rates are
        // not paired into oscillators there.
        (poles(&z, |z| z.ln() / h, step != Step::SoftRelax), radius)
    }
}

/// |z| of a step map's eigenvalue below this fraction of the map's norm is
/// round-off of a zero eigenvalue (a defective block of size k splits by
/// ε^(1/k): 1.5 × 10⁻⁸ for k = 2, 6 × 10⁻⁶ for k = 3); a mode that keeps less
/// than this of itself after one step is gone within the step either way.
pub const ROUNDOFF_EIGENVALUE: f64 = 1e-5;

/// Pairs eigenvalues into modes: a complex pair is one mode; real ones
/// (overdamped) are paired smallest with largest rate, which is exact for
/// one contact. Zero eigenvalues (free motions) are left out.
fn poles(
    eig: &DVector<Complex<f64>>,
    to_rate: impl Fn(Complex<f64>) -> Complex<f64>,
    pair_real: bool,
) -> Vec<Pole> {
    let rates: Vec<Complex<f64>> = eig.iter().map(|&z| to_rate(z)).collect();
    // (A zero eigenvalue of a step map is an infinitely fast decay: left out.)
    let top = rates
        .iter()
        .filter(|l| l.norm().is_finite())
        .fold(0.0f64, |m, l| m.max(l.norm()));
    // Free motions (more contacts than independent motions) give zero
    // eigenvalues up to round-off of the largest.
    let tiny = 1e-7 * top;
    let mut out = Vec::new();
    let mut real = Vec::new();
    for l in &rates {
        if l.norm() <= tiny || !l.norm().is_finite() {
            continue;
        }
        if l.im.abs() > 1e-12 * l.norm() {
            if l.im > 0.0 {
                out.push(Pole {
                    omega: l.norm(),
                    zeta: -l.re / l.norm(),
                    first_order: false,
                });
            }
        } else {
            real.push(l.re);
        }
    }
    real.sort_by(|a, b| b.total_cmp(a));
    let (mut i, mut j) = (0, real.len());
    if !pair_real {
        for &l in &real {
            out.push(Pole {
                omega: -l,
                zeta: 1.0,
                first_order: true,
            });
        }
        i = j;
    }
    while i + 1 < j {
        let (l1, l2) = (real[i], real[j - 1]);
        let omega = (l1 * l2).abs().sqrt();
        out.push(Pole {
            omega,
            zeta: -(l1 + l2) / (2.0 * omega),
            first_order: false,
        });
        i += 1;
        j -= 1;
    }
    if i + 1 == j {
        out.push(Pole {
            omega: -real[i],
            zeta: 1.0,
            first_order: true,
        });
    }
    out.sort_by(|a, b| b.omega.total_cmp(&a.omega).then(a.zeta.total_cmp(&b.zeta)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(k: f64, c: f64, a: f64) -> (Law, DMatrix<f64>) {
        (
            Law {
                p: DMatrix::identity(1, 1),
                k: vec![k],
                b: vec![c],
                soft: None,
            },
            DMatrix::from_element(1, 1, a),
        )
    }

    #[test]
    fn a_single_contact_rings_at_its_closed_form() {
        // m = 2 kg, k = 800 N/m, c = 8 N s/m: ω = 20, ζ = 0.1.
        let (law, a) = one(800.0, 8.0, 0.5);
        let m = law.modes(&a);
        assert_eq!(m.len(), 1);
        assert!(
            (m[0].omega - 20.0).abs() < 1e-12 && (m[0].zeta - 0.1).abs() < 1e-12,
            "{m:?}"
        );
        // Overdamped: ζ = 2.
        let (law, a) = one(800.0, 160.0, 0.5);
        let m = law.modes(&a);
        assert!(
            (m[0].omega - 20.0).abs() < 1e-9 && (m[0].zeta - 2.0).abs() < 1e-9,
            "{m:?}"
        );
    }

    #[test]
    fn step_maps_converge_to_the_continuous_modes_at_their_orders() {
        let (law, a) = one(800.0, 8.0, 0.5);
        for (step, order) in [
            (Step::SemiImplicit, 1.0),
            (Step::Implicit, 1.0),
            (Step::Rk4, 4.0),
        ] {
            let err = |h: f64| {
                let (m, _) = law.step_modes(&a, step, h);
                ((m[0].omega - 20.0).powi(2) + (20.0 * (m[0].zeta - 0.1)).powi(2)).sqrt()
            };
            let (e1, e2) = (err(2e-3), err(1e-3));
            let p = (e1 / e2).log2();
            assert!((p - order).abs() < 0.15, "{step:?}: order {p}");
        }
    }

    #[test]
    fn a_relaxing_substep_settles_one_contact_first_order() {
        // m = 1 kg on the ground, 40 Hz, ζ = 0.3, h = 1 ms: the substep
        // map has the eigenvalues {0, 0, z}; z = 0.94797 (a rate of
        // 53.435 /s, hand-iterated in tests/engines notes), not the spring's
        // 251 rad/s.
        let (w, z, h) = (2.0 * std::f64::consts::PI * 40.0, 0.3, 1e-3);
        let a2 = h * w * (2.0 * z + h * w);
        let law = Law {
            p: DMatrix::identity(1, 1),
            k: vec![w * w],
            b: vec![2.0 * z * w],
            soft: Some(Soft {
                mass: vec![1.0],
                cf: vec![a2 / (1.0 + a2)],
                bias: vec![w / (2.0 * z + h * w)],
            }),
        };
        let (m, radius) = law.step_modes(&DMatrix::from_element(1, 1, 1.0), Step::SoftRelax, h);
        assert_eq!(m.len(), 1, "{m:?}");
        assert!(m[0].first_order);
        assert!((m[0].omega - 53.435055).abs() < 1e-5, "{m:?}");
        assert!((radius - (-53.435055f64 * h).exp()).abs() < 1e-8);
    }

    #[test]
    fn semi_implicit_euler_is_stable_below_two_over_omega() {
        let (law, a) = one(800.0, 0.0, 0.5);
        assert!(law.step_modes(&a, Step::SemiImplicit, 0.099).1 <= 1.0 + 1e-12);
        assert!(law.step_modes(&a, Step::SemiImplicit, 0.101).1 > 1.0);
        assert!(law.step_modes(&a, Step::Implicit, 10.0).1 < 1.0);
    }
}
