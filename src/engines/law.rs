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
}

impl Step {
    /// Name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Step::SemiImplicit => "semi-implicit Euler",
            Step::Implicit => "implicit Euler (contact force)",
            Step::Rk4 => "RK4",
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
}

/// A mode: a pole `λ = −σ ± iω_d` of the gaps' motion, as a natural
/// frequency and damping ratio.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Pole {
    /// Natural frequency `|λ|` (rad/s).
    pub omega: f64,
    /// Damping ratio `σ/|λ|` (for an overdamped pair, of the pair).
    pub zeta: f64,
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
        poles(&self.first_order(a).complex_eigenvalues(), |l| l)
    }

    /// The step map `(g, v) → (g′, v′)` of `step` with step `h`.
    pub fn step_map(&self, a: &DMatrix<f64>, step: Step, h: f64) -> DMatrix<f64> {
        let n = self.k.len();
        let id = DMatrix::<f64>::identity(n, n);
        match step {
            Step::SemiImplicit => {
                let (s, c) = self.sc(a);
                // v′ = −hS g + (I − hC) v;  g′ = g + h v′.
                let vg = -&s * h;
                let vv = &id - &c * h;
                let gg = &id + &vg * h;
                let gv = &vv * h;
                blocks(&gg, &gv, &vg, &vv)
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

    /// The modes the step map gives, as continuous poles `ln z / h`
    /// (what a measurement of the engine's motion finds), fastest first,
    /// and the map's spectral radius (below 1: the step is stable).
    pub fn step_modes(&self, a: &DMatrix<f64>, step: Step, h: f64) -> (Vec<Pole>, f64) {
        let z = self.step_map(a, step, h).complex_eigenvalues();
        let radius = z.iter().fold(0.0f64, |r, z| r.max(z.norm()));
        (poles(&z, |z| z.ln() / h), radius)
    }
}

fn blocks(
    gg: &DMatrix<f64>,
    gv: &DMatrix<f64>,
    vg: &DMatrix<f64>,
    vv: &DMatrix<f64>,
) -> DMatrix<f64> {
    let n = gg.nrows();
    let mut t = DMatrix::zeros(2 * n, 2 * n);
    t.view_mut((0, 0), (n, n)).copy_from(gg);
    t.view_mut((0, n), (n, n)).copy_from(gv);
    t.view_mut((n, 0), (n, n)).copy_from(vg);
    t.view_mut((n, n), (n, n)).copy_from(vv);
    t
}

/// Pairs eigenvalues into modes: a complex pair is one mode; real ones
/// (overdamped) are paired smallest with largest rate, which is exact for
/// one contact. Zero eigenvalues (free motions) are left out.
fn poles(eig: &DVector<Complex<f64>>, to_rate: impl Fn(Complex<f64>) -> Complex<f64>) -> Vec<Pole> {
    let rates: Vec<Complex<f64>> = eig.iter().map(|&z| to_rate(z)).collect();
    let top = rates.iter().fold(0.0f64, |m, l| m.max(l.norm()));
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
                });
            }
        } else {
            real.push(l.re);
        }
    }
    real.sort_by(|a, b| b.total_cmp(a));
    let (mut i, mut j) = (0, real.len());
    while i + 1 < j {
        let (l1, l2) = (real[i], real[j - 1]);
        let omega = (l1 * l2).abs().sqrt();
        out.push(Pole {
            omega,
            zeta: -(l1 + l2) / (2.0 * omega),
        });
        i += 1;
        j -= 1;
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
    fn semi_implicit_euler_is_stable_below_two_over_omega() {
        let (law, a) = one(800.0, 0.0, 0.5);
        assert!(law.step_modes(&a, Step::SemiImplicit, 0.099).1 <= 1.0 + 1e-12);
        assert!(law.step_modes(&a, Step::SemiImplicit, 0.101).1 > 1.0);
        assert!(law.step_modes(&a, Step::Implicit, 10.0).1 < 1.0);
    }
}
