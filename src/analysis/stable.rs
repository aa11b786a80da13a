//! The stable step with dashpots, from the step map itself.
//!
//! Mode by mode, symplectic Euler with the dashpot force taken at the
//! step's start velocity is stable up to `h = (2/ω)(√(1+ζ²) − ζ)`: exact
//! for one degree of freedom and for proportional damping, where the modes
//! decouple. With dashpots that are not proportional to the springs the
//! damped modes do not decouple, and that formula applied to them errs on
//! the unsafe side (a block on two contacts with c = 50 and 2000 N·s/m:
//! 2.213 ms given, 2.177 ms true). So the coupled damped step is computed
//! from the integrator's amplification matrix on the gaps and their rates,
//!
//! ```text
//! v′ = v − h A (K g + C v)        T(h) = [ I − h²AK   h(I − hAC) ]
//! g′ = g + h v′                          [ −hAK       I − hAC    ]
//! ```
//!
//! (A the Delassus matrix, K and C the contacts' springs and dashpots): the
//! largest `h` before the spectral radius of `T(h)` first exceeds 1, found
//! by a scan from 0 and a bisection, then lowered by a relative 10⁻⁶ so
//! that it is never above the true limit. Gap coordinates are enough: the
//! motions no contact sees carry no force and are stable at any step.

use nalgebra::DMatrix;

/// Most contacts for which the step map is used (its eigenvalues are
/// taken about a hundred times, each O((2c)³)); above, no damped coupled
/// step is given rather than one that could be unsafe.
pub const EXACT_LIMIT: usize = 128;

/// A radius this close to 1 counts as 1: the eigenvalues of a defective
/// map (a zero mode's `g′ = g + hv`) carry errors of order √ε.
const RADIUS_TOL: f64 = 1e-7;

/// The amplification matrix `T(h)` of symplectic Euler with explicit
/// dashpots on `(g, ġ)`, for `g̈ = −S g − C ġ` (here `S = AK`, `C = AC`;
/// the engines' semi-implicit step is the same map with their own `S`, `C`).
pub(crate) fn symplectic_euler_map(s: &DMatrix<f64>, c: &DMatrix<f64>, h: f64) -> DMatrix<f64> {
    let n = s.nrows();
    let id = DMatrix::<f64>::identity(n, n);
    // v′ = −hS g + (I − hC) v;  g′ = g + h v′.
    let vg = -s * h;
    let vv = &id - c * h;
    let gg = &id + &vg * h;
    let gv = &vv * h;
    blocks(&gg, &gv, &vg, &vv)
}

/// `[[gg, gv], [vg, vv]]` as one 2n×2n matrix.
pub(crate) fn blocks(
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

fn radius(t: DMatrix<f64>) -> f64 {
    super::eig::complex_eigenvalues(t)
        .iter()
        .fold(0.0f64, |r, z| {
            if z.re.is_nan() {
                f64::NAN
            } else {
                r.max(z.norm())
            }
        })
}

/// The largest stable step of symplectic Euler with explicit dashpots for
/// Delassus matrix `a`, springs `k` and dashpots `c` (per contact), or
/// `None` above [`EXACT_LIMIT`] contacts, when nothing moves, or when the
/// map's eigenvalues cannot be computed. `h_undamped` is `2/ω_max`.
pub fn symplectic_euler_damped(
    a: &DMatrix<f64>,
    k: &[f64],
    c: &[f64],
    h_undamped: f64,
) -> Option<f64> {
    let n = a.nrows();
    if n == 0 || n > EXACT_LIMIT || !(h_undamped.is_finite() && h_undamped > 0.0) {
        return None;
    }
    let ak = DMatrix::from_fn(n, n, |i, j| a[(i, j)] * k[j]);
    let ac = DMatrix::from_fn(n, n, |i, j| a[(i, j)] * c[j]);
    let stable = |h: f64| -> Option<bool> {
        let r = radius(symplectic_euler_map(&ak, &ac, h));
        (!r.is_nan()).then_some(r <= 1.0 + RADIUS_TOL)
    };
    // The first unstable step: scanned from 0 (a stable interval further
    // out would not make the smaller steps safe), beyond the undamped
    // limit only if the dashpots somehow widen it.
    const SCAN: usize = 32;
    let mut hi = h_undamped;
    let mut lo = 0.0;
    let mut found = false;
    for _ in 0..8 {
        for s in 1..=SCAN {
            let h = lo + (hi - lo) * s as f64 / SCAN as f64;
            if !stable(h)? {
                hi = h;
                found = true;
                break;
            }
            lo = h;
        }
        if found {
            break;
        }
        hi *= 2.0;
    }
    if !found {
        return None;
    }
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if stable(mid)? {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-12 * hi {
            break;
        }
    }
    Some(lo * (1.0 - 1e-6))
}

/// The spectral radius of symplectic Euler's step map with explicit
/// dashpots at step `h` (the factor by which the fastest-growing motion
/// grows per step; ≤ 1 when stable), or `None` when it cannot be computed.
/// The verification uses it to size its run above the damped limit.
pub fn step_map_radius(a: &DMatrix<f64>, k: &[f64], c: &[f64], h: f64) -> Option<f64> {
    let n = a.nrows();
    let ak = DMatrix::from_fn(n, n, |i, j| a[(i, j)] * k[j]);
    let ac = DMatrix::from_fn(n, n, |i, j| a[(i, j)] * c[j]);
    let r = radius(symplectic_euler_map(&ak, &ac, h));
    r.is_finite().then_some(r)
}

/// A step at which symplectic Euler with explicit dashpots is stable for
/// any system whose stiffness rate `λ_max(S)` is at most `omega²` and whose
/// dashpot rate `λ_max(C^½ A C^½)` is at most `gamma`:
///
/// ```text
/// h = 2 / (γ/2 + √(γ²/4 + ω²))      (= (2/ω)(√(1+ζ²) − ζ) for γ = 2ζω)
/// ```
///
/// Why it is safe (docs/physics.md, "The step with dashpots"): in mass-whitened
/// coordinates, with `Ŝ` and `Ĉ` the stiffness and dashpot matrices,
/// `E = |x̃ − (h/2)Ŝ^½v|² + vᵀ(I − hĈ/2 − h²Ŝ/4)v` (x̃ = Ŝ^½x) never grows
/// from one step to the next (its change is `−(h/2)|Ĉ^½(v′ + v)|²`), and is
/// a norm of the state when `I − hĈ/2 − h²Ŝ/4` is positive definite, which
/// `h²ω²/4 + hγ/2 ≤ 1` ensures. Written without the cancelling
/// `√(1+ζ²) − ζ`.
pub fn energy_bound(omega: f64, gamma: f64) -> Option<f64> {
    let g = 0.5 * gamma.max(0.0);
    let h = 2.0 / (g + g.hypot(omega));
    (omega.is_finite() && gamma.is_finite() && h.is_finite() && h > 0.0).then_some(h)
}

/// The step stable whatever the modes: `2/ω̄` without dashpots, the
/// [`energy_bound`] at `ω̄` and the dashpot-rate bound `γ̄` with them;
/// never above `governing` (where the bounds are exact, as for dashpots
/// proportional to the springs, the bound can land a rounding above the
/// step map's limit, which is lowered by 10⁻⁶).
pub fn guaranteed(
    omega_bound: f64,
    gamma_bound: Option<f64>,
    governing: Option<(f64, super::Governing)>,
) -> Option<f64> {
    if !(omega_bound.is_finite() && omega_bound > 0.0) {
        return None;
    }
    let h = match gamma_bound {
        None => Some(2.0 / omega_bound),
        Some(g) => energy_bound(omega_bound, g),
    }?;
    Some(governing.map_or(h, |(g, _)| h.min(g)))
}

/// The step a sheet tells the user to use, and what set it: the exact
/// coupled limit (`2/ω_max`, or the damped step map's limit), or where the
/// exact value is not available the bound that replaces it (`fallback`:
/// ω_max is the Gershgorin bound; dashpots without a step map: the energy
/// bound at ω_max).
pub fn governing(
    omega_max: f64,
    fallback: bool,
    damped_step_map: Option<f64>,
    gamma_bound: Option<f64>,
) -> Option<(f64, super::Governing)> {
    use super::Governing as G;
    if !(omega_max.is_finite() && omega_max > 0.0) {
        return None;
    }
    match (gamma_bound, damped_step_map) {
        (None, _) if fallback => Some((2.0 / omega_max, G::UpperBound)),
        (None, _) => Some((2.0 / omega_max, G::CoupledMode)),
        (Some(_), Some(h)) => Some((h, G::DampedStepMap)),
        (Some(g), None) => energy_bound(omega_max, g).map(|h| (h, G::DampedEnergyBound)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One contact: the closed form `(2/ω)(√(1+ζ²) − ζ)` is exact.
    #[test]
    fn one_contact_gives_the_closed_form() {
        let cases: [(f64, f64, f64); 4] = [
            (1.0, 1e4, 0.0),
            (2.0, 1e5, 50.0),
            (0.5, 3e3, 40.0),
            (1.0, 1.0, 10.0),
        ];
        for (m, k, c) in cases {
            let a = DMatrix::from_element(1, 1, 1.0 / m);
            let w: f64 = (k / m).sqrt();
            let z = c / (2.0 * (k * m).sqrt());
            let want = 2.0 / w * ((1.0 + z * z).sqrt() - z);
            let got = symplectic_euler_damped(&a, &[k], &[c], 2.0 / w).unwrap();
            assert!(got <= want && got >= want * (1.0 - 1e-5), "{got} vs {want}");
        }
    }

    /// A block on two contacts with unequal dashpots: the step found is
    /// stable, and a step 0.1 % longer is not (a direct simulation of the
    /// gaps grows).
    #[test]
    fn non_proportional_damping_gives_the_true_limit() {
        // Planar block, mass 2, inertia 0.02, contacts at x = ±0.07
        // (coupled: 1/m − r²/I ≠ 0).
        let (m, i, r) = (2.0, 0.02, 0.07);
        let a = DMatrix::from_row_slice(
            2,
            2,
            &[
                1.0 / m + r * r / i,
                1.0 / m - r * r / i,
                1.0 / m - r * r / i,
                1.0 / m + r * r / i,
            ],
        );
        let (k, c): ([f64; 2], [f64; 2]) = ([1e5, 1e5], [50.0, 2000.0]);
        let s = DMatrix::from_fn(2, 2, |p, q| k[p].sqrt() * a[(p, q)] * k[q].sqrt());
        let w_max = crate::analysis::eig::symmetric_eigenvalues(s).amax().sqrt();
        let h = symplectic_euler_damped(&a, &k, &c, 2.0 / w_max).unwrap();
        let grows = |h: f64| {
            let (mut g, mut v) = (
                nalgebra::Vector2::new(1e-3, -0.5e-3),
                nalgebra::Vector2::zeros(),
            );
            let kk = nalgebra::Matrix2::from_diagonal(&nalgebra::Vector2::from(k));
            let cc = nalgebra::Matrix2::from_diagonal(&nalgebra::Vector2::from(c));
            let a2 = nalgebra::Matrix2::from_fn(|p, q| a[(p, q)]);
            for _ in 0..200_000 {
                v -= a2 * (kk * g + cc * v) * h;
                g += v * h;
                if g.norm() > 1e-2 || g.norm().is_nan() {
                    return true;
                }
            }
            false
        };
        assert!(!grows(h), "{h}");
        assert!(grows(h * 1.001), "{h}");
        // Mode by mode would have said more: the old estimate was unsafe.
        assert!(h < 2.0 / w_max);
    }

    /// The energy bound is never above the step map's limit (random
    /// systems, dashpots not proportional to the springs), and equals the
    /// closed form for one contact.
    #[test]
    fn energy_bound_is_safe() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for trial in 0..200 {
            let n = 1 + trial % 5;
            let b = DMatrix::from_fn(n, n + 2, |_, _| rng.random_range(-1.0..1.0));
            let a = &b * b.transpose();
            let k: Vec<f64> = (0..n)
                .map(|_| 10f64.powf(rng.random_range(2.0..5.0)))
                .collect();
            let c: Vec<f64> = (0..n)
                .map(|_| 10f64.powf(rng.random_range(-1.0..3.0)))
                .collect();
            let s = DMatrix::from_fn(n, n, |p, q| k[p].sqrt() * a[(p, q)] * k[q].sqrt());
            let cc = DMatrix::from_fn(n, n, |p, q| c[p].sqrt() * a[(p, q)] * c[q].sqrt());
            let top = |m: DMatrix<f64>| {
                crate::analysis::eig::complex_eigenvalues(m)
                    .iter()
                    .fold(0.0f64, |x, z| x.max(z.re))
            };
            let w = top(s).sqrt();
            let g = top(cc);
            let exact = symplectic_euler_damped(&a, &k, &c, 2.0 / w).unwrap();
            let bound = energy_bound(w, g).unwrap();
            assert!(bound <= exact * (1.0 + 1e-5), "{trial}: {bound} > {exact}");
        }
        let (w, z) = (300.0f64, 0.4f64);
        let closed = 2.0 / w * ((1.0 + z * z).sqrt() - z);
        assert!((energy_bound(w, 2.0 * z * w).unwrap() / closed - 1.0).abs() < 1e-14);
        // No cancellation when the dashpot dominates: h → 2/γ.
        let h = energy_bound(1.0, 1e12).unwrap();
        assert!((h * 1e12 / 2.0 - 1.0).abs() < 1e-12, "{h}");
    }
}
