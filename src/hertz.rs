//! The Hertz contact law `F = K δ^{3/2}` (K = 4/3 E* √R*): its linearised
//! stiffness, its impact in closed form, and the step rules DEM codes use
//! (docs/physics.md, "Hertz contacts", with sources).
//!
//! - Linearised stiffness `k(δ) = dF/dδ = 3/2 K √δ`; under a static load W
//!   the overlap is `δ = (W/K)^{2/3}`, so `k = 3/2 K^{2/3} W^{1/3}`.
//! - Mindlin's tangential stiffness at the same overlap `k_t = 8 G* a`,
//!   `a = √(R* δ)` (Mindlin 1949; Johnson 1985 §7.2).
//! - Impact of mass m at approach speed v (Johnson 1985 §11.4): energy
//!   `½ m v² = 2/5 K δ_max^{5/2}` gives `δ_max = (5 m v²/(4K))^{2/5}`, the
//!   peak force `K δ_max^{3/2}` and the duration `t_c = 2 I δ_max / v` with
//!   `I = ∫₀¹ (1 − x^{5/2})^{−½} dx = (2/5) B(2/5, ½) = 1.4716…`
//!   (so `t_c = 2.9432 δ_max/v`, Johnson's eq. 11.24).
//! - Rayleigh time `T_R = π R √(ρ/G) / (0.1631 ν + 0.8766)` (Li, Xu &
//!   Thornton 2005), the rule EDEM and LIGGGHTS check the step against.
//! - An explicit step through the impact ([`overshoot_factor`],
//!   [`resolution_factor`]): a step near the linear limit at the peak
//!   overshoots δ_max, where the spring is stiffer still; and a step the
//!   spring survives may still gain or lose much of the rebound's energy.
//!   In units of δ_max and the peak frequency every one-row Hertz impact is
//!   the same problem, so both are fractions of `2/ω_peak` computed once.

/// `∫₀¹ (1 − x^{5/2})^{−½} dx = (2/5) Γ(2/5) Γ(1/2) / Γ(9/10)`.
pub const DURATION_INTEGRAL: f64 = 1.471_637_592_162_352_3;

/// `ω_peak · t_c` of every undamped one-row Hertz impact: ω_peak² =
/// 3/2 K √δ_max / m = 15/8 (v/δ_max)² and t_c = 2 I δ_max/v, so
/// `√(15/8) · 2I` = 4.030.
pub const PEAK_OMEGA_DURATION: f64 = 1.369_306_393_762_915_2 * 2.0 * DURATION_INTEGRAL;

/// The Hertz coefficient `K = 4/3 E* √R*` (N/m^1.5).
pub fn coefficient(modulus: f64, radius: f64) -> f64 {
    4.0 / 3.0 * modulus * radius.sqrt()
}

/// `dF/dδ` at overlap `delta`: `3/2 K √δ` (N/m).
pub fn stiffness_at_overlap(k: f64, delta: f64) -> f64 {
    1.5 * k * delta.sqrt()
}

/// The static overlap under load `w`: `(w/K)^{2/3}` (m).
pub fn overlap_under_load(k: f64, w: f64) -> f64 {
    (w / k).powf(2.0 / 3.0)
}

/// Mindlin's tangential stiffness at overlap `delta`: `8 G* √(R* δ)` (N/m).
pub fn mindlin(shear_modulus: f64, radius: f64, delta: f64) -> f64 {
    8.0 * shear_modulus * (radius * delta).sqrt()
}

/// A Hertz impact in closed form.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HertzImpact {
    /// Largest overlap (m).
    pub max_overlap: f64,
    /// Peak force (N).
    pub peak_force: f64,
    /// Contact duration (s).
    pub duration: f64,
    /// The linearised stiffness at the peak, `3/2 K √δ_max` (N/m).
    pub peak_stiffness: f64,
}

impl HertzImpact {
    /// `√(k_peak/m)`: the struck row alone at the peak stiffness, of
    /// effective mass `m` (rad/s); `2/ω` of it is the row's linear limit
    /// there, and the rebound's resolution step a fraction of that.
    pub fn omega_alone(&self, m: f64) -> f64 {
        (self.peak_stiffness / m).sqrt()
    }
}

/// The impact of mass `m` at approach speed `v` on a Hertz contact of
/// coefficient `k` (elastic, no damping).
pub fn impact(m: f64, k: f64, v: f64) -> HertzImpact {
    let max_overlap = (5.0 * m * v * v / (4.0 * k)).powf(0.4);
    HertzImpact {
        max_overlap,
        peak_force: k * max_overlap.powf(1.5),
        duration: 2.0 * DURATION_INTEGRAL * max_overlap / v,
        peak_stiffness: stiffness_at_overlap(k, max_overlap),
    }
}

/// The fraction of the linear limit `2/ω_peak` at an impact's peak that an
/// explicit step can take on a spring whose stiffness grows as √δ (Hertz,
/// Mindlin): on symplectic Euler's invariant the largest overlap a step of
/// `ωh` reaches is `δ_max/√(1 − (ωh/2)²)`, where ω is larger by the 1/8th
/// power of that ratio; the step that stays stable there has `ωh = 2√u`
/// with `u⁴ + u − 1 = 0`: √u = 0.8512. (Simulated, [`rebound`]: at this
/// fraction the largest `ω(δ)h` over 40 phases of first touch is 1.81; at
/// the linear limit itself it is 2.21 and the rebound gains up to 5× its
/// energy.)
pub fn overshoot_factor() -> f64 {
    // Newton on f(u) = u⁴ + u − 1 from u = 0.7 (f is convex, increasing).
    let mut u = 0.7f64;
    for _ in 0..20 {
        u -= (u.powi(4) + u - 1.0) / (4.0 * u.powi(3) + 1.0);
    }
    u.sqrt()
}

/// The rebound energies' largest relative error (|½mv_out² / ½mv_in² − 1|)
/// of a one-row Hertz impact integrated by symplectic Euler with the step
/// `θ · 2/ω_peak`, over 256 phases of first touch, and the largest `ω(δ)h`
/// the steps reach. Dimensionless (m = K = v = 1): every undamped one-row
/// Hertz impact is this one in units of δ_max and ω_peak.
pub fn rebound(theta: f64) -> (f64, f64) {
    rebound_phases(theta, 256)
}

/// [`rebound`] over `phases` phases of first touch.
fn rebound_phases(theta: f64, phases: usize) -> (f64, f64) {
    let max_overlap = impact(1.0, 1.0, 1.0).max_overlap;
    let omega = |d: f64| stiffness_at_overlap(1.0, d.max(0.0)).sqrt();
    let h = theta * 2.0 / omega(max_overlap);
    let (mut worst, mut reach) = (0.0f64, 0.0f64);
    // A contact lasts ≈ 4/ω_peak; far more steps than that means a
    // rebound that never comes (a step beyond any limit).
    let cap = (40.0 / theta) as usize + 1000;
    for k in 0..phases {
        let (mut x, mut v) = (-(k as f64 / phases as f64) * h, 1.0f64);
        let mut deepest = 0.0f64;
        for _ in 0..cap {
            v -= h * x.max(0.0).powf(1.5);
            x += h * v;
            deepest = deepest.max(x);
            if x < 0.0 && v < 0.0 {
                break;
            }
        }
        worst = worst.max((v * v - 1.0).abs());
        reach = reach.max(omega(deepest) * h);
    }
    (worst, reach)
}

/// The rebound energy error a step to use may make on a Hertz impact.
pub const REBOUND_TOLERANCE: f64 = 0.01;

/// The largest fraction θ of `2/ω_peak` below which every one-row impact
/// keeps the rebound energy within `tol` ([`rebound`]); ≈ 0.25 for 1 %
/// (8 steps a contact). The error is not monotone in θ (a step can land
/// luckily on the rebound: 0.38 errs by 0.98 % where 0.30 errs by 1.7 %),
/// so θ is scanned upward in steps of 0.005 to the first that errs, and
/// the last good one refined by bisection against that one: any smaller
/// step a user takes is within `tol` too.
pub fn resolution_factor(tol: f64) -> f64 {
    let top = overshoot_factor();
    let mut good = 0.0;
    let mut theta = 0.005;
    while theta <= top {
        if rebound(theta).0 > tol {
            break;
        }
        good = theta;
        theta += 0.005;
    }
    if theta > top {
        return top;
    }
    let (mut lo, mut hi) = (good, theta);
    for _ in 0..20 {
        let mid = 0.5 * (lo + hi);
        if rebound(mid).0 <= tol {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    // The phases are samples: a phase between two of them can err a little
    // more (a signer's finer scan found 1.0014 % at the factor the 40-phase
    // scan gave); 0.2 % below the sampled limit covers it.
    lo * (1.0 - PHASE_MARGIN)
}

/// How far below the sampled limit [`resolution_factor`] stays.
pub const PHASE_MARGIN: f64 = 2e-3;

/// [`resolution_factor`] at [`REBOUND_TOLERANCE`], computed once.
pub fn resolution_factor_default() -> f64 {
    static F: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *F.get_or_init(|| resolution_factor(REBOUND_TOLERANCE))
}

/// The effective modulus of two bodies in contact,
/// `E* = [(1 − ν₁²)/E₁ + (1 − ν₂²)/E₂]⁻¹` (Johnson 1985 eq. 4.22);
/// `other = None`: a rigid counterpart (its term is 0).
pub fn effective_modulus(e: f64, nu: f64, other: Option<(f64, f64)>) -> f64 {
    let t = |e: f64, nu: f64| (1.0 - nu * nu) / e;
    1.0 / (t(e, nu) + other.map_or(0.0, |(e, nu)| t(e, nu)))
}

/// Mindlin's effective shear modulus,
/// `G* = [(2 − ν₁)/G₁ + (2 − ν₂)/G₂]⁻¹` (Mindlin 1949; Johnson 1985
/// §7.2, eq. 7.40 for the compliance; the LIGGGHTS `hertz/history`
/// tangential model, written there as `1/G* = 2(2−ν₁)(1+ν₁)/E₁ + …`, the
/// same since `G = E/(2(1+ν))`); `other = None`: a rigid counterpart. For
/// two bodies of one material `G* = G/(2(2 − ν))`.
pub fn effective_shear_modulus(g: f64, nu: f64, other: Option<(f64, f64)>) -> f64 {
    let t = |g: f64, nu: f64| (2.0 - nu) / g;
    1.0 / (t(g, nu) + other.map_or(0.0, |(g, nu)| t(g, nu)))
}

/// The Rayleigh time of a sphere of radius `r`, density `rho`, shear
/// modulus `g` and Poisson ratio `nu` (s).
pub fn rayleigh_time(r: f64, rho: f64, g: f64, nu: f64) -> f64 {
    std::f64::consts::PI * r * (rho / g).sqrt() / (0.1631 * nu + 0.8766)
}

/// The impact by integration of `m δ̈ = −K δ^{3/2}` (classical RK4 at
/// `steps` steps per closed-form duration; the peak and the crossing of
/// δ = 0 are located by cubic Hermite interpolation). An independent check
/// of [`impact`]; the error is O(h⁴).
pub fn integrate(m: f64, k: f64, v: f64, steps: usize) -> HertzImpact {
    let guess = impact(m, k, v).duration;
    let h = guess / steps as f64;
    let f = |d: f64, u: f64| (u, if d > 0.0 { -k * d.powf(1.5) / m } else { 0.0 });
    let (mut d, mut u, mut t) = (0.0f64, v, 0.0f64);
    let mut max_overlap = 0.0f64;
    loop {
        let (k1d, k1u) = f(d, u);
        let (k2d, k2u) = f(d + 0.5 * h * k1d, u + 0.5 * h * k1u);
        let (k3d, k3u) = f(d + 0.5 * h * k2d, u + 0.5 * h * k2u);
        let (k4d, k4u) = f(d + h * k3d, u + h * k3u);
        let nd = d + h / 6.0 * (k1d + 2.0 * k2d + 2.0 * k3d + k4d);
        let nu = u + h / 6.0 * (k1u + 2.0 * k2u + 2.0 * k3u + k4u);
        // Hermite cubic on [t, t+h] with values d, nd and slopes u, nu.
        let hermite = |s: f64| {
            let (s2, s3) = (s * s, s * s * s);
            (2.0 * s3 - 3.0 * s2 + 1.0) * d
                + (s3 - 2.0 * s2 + s) * h * u
                + (-2.0 * s3 + 3.0 * s2) * nd
                + (s3 - s2) * h * nu
        };
        if u > 0.0 && nu <= 0.0 {
            // The peak: the root of the interpolated velocity (bisection).
            let (mut lo, mut hi) = (0.0f64, 1.0f64);
            let slope = |s: f64| {
                let s2 = s * s;
                (6.0 * s2 - 6.0 * s) * d / h
                    + (3.0 * s2 - 4.0 * s + 1.0) * u
                    + (-6.0 * s2 + 6.0 * s) * nd / h
                    + (3.0 * s2 - 2.0 * s) * nu
            };
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                if slope(mid) > 0.0 { lo = mid } else { hi = mid }
            }
            max_overlap = max_overlap.max(hermite(0.5 * (lo + hi)));
        }
        if nd <= 0.0 && t > 0.0 {
            let (mut lo, mut hi) = (0.0f64, 1.0f64);
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                if hermite(mid) > 0.0 {
                    lo = mid
                } else {
                    hi = mid
                }
            }
            let duration = t + h * 0.5 * (lo + hi);
            return HertzImpact {
                max_overlap,
                peak_force: k * max_overlap.powf(1.5),
                duration,
                peak_stiffness: stiffness_at_overlap(k, max_overlap),
            };
        }
        (d, u, t) = (nd, nu, t + h);
        if t > 4.0 * guess {
            return HertzImpact {
                max_overlap,
                peak_force: f64::NAN,
                duration: f64::NAN,
                peak_stiffness: f64::NAN,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_peak_frequency_times_the_duration_is_one_number() {
        assert!((1.369_306_393_762_915_2f64 - (15.0f64 / 8.0).sqrt()).abs() < 1e-15);
        for (m, k, v) in [(1.0, 1.0, 1.0), (0.0327, 1.538e10, 1.0), (3.0, 2e8, 0.2)] {
            let x = impact(m, k, v);
            let w = (x.peak_stiffness / m).sqrt();
            assert!((w * x.duration - PEAK_OMEGA_DURATION).abs() < 1e-12);
        }
    }

    #[test]
    fn the_overshoot_factor_solves_its_equation_and_keeps_the_peak_stable() {
        let f = overshoot_factor();
        let u = f * f;
        assert!((u.powi(4) + u - 1.0).abs() < 1e-14);
        assert!((f - 0.8512).abs() < 1e-4, "{f}");
        // Simulated: stable through the overshoot at f, not at the limit.
        let (_, reach) = rebound(f);
        assert!(reach < 1.9, "{reach}");
        let (gain, reach) = rebound(1.0);
        assert!(reach > 2.0 && gain > 1.0, "{reach} {gain}");
    }

    #[test]
    fn the_resolution_factor_bounds_the_rebound_energy() {
        let f = resolution_factor(0.01);
        let (err, _) = rebound(f);
        assert!(err <= 0.01, "{err}");
        // Between the sampled phases too (a scan 16 times finer).
        let (fine, _) = rebound_phases(f, 4096);
        assert!(fine <= 0.01, "{fine}");
        // Every smaller step is within it too; a little more errs.
        for k in 1..=40 {
            let t = f * k as f64 / 40.0;
            assert!(rebound(t).0 <= 0.01, "{t}");
        }
        assert!(rebound(1.05 * f).0 > 0.01);
        // Second order: halving the step quarters the error (roughly).
        let ratio = rebound(f).0 / rebound(0.5 * f).0;
        assert!((2.5..8.0).contains(&ratio), "{ratio}");
        assert!((0.15..0.4).contains(&f), "{f}");
    }

    /// The duration integral by Simpson's rule after the substitution
    /// x = 1 − s² (which removes the end singularity).
    #[test]
    fn the_duration_integral_is_the_beta_function_value() {
        // x = 1 − s²: dx = −2s ds, 1 − x^{5/2} ~ (5/2)s² near s = 0.
        let g = |s: f64| {
            let x: f64 = 1.0 - s * s;
            let den = (1.0 - x.powf(2.5)).sqrt();
            if s == 0.0 {
                2.0 / 2.5f64.sqrt()
            } else {
                2.0 * s / den
            }
        };
        let n = 20_000;
        let h = 1.0 / n as f64;
        let mut sum = g(0.0) + g(1.0);
        for i in 1..n {
            sum += g(i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
        }
        let simpson = sum * h / 3.0;
        assert!((simpson - DURATION_INTEGRAL).abs() < 1e-9, "{simpson}");
    }

    /// The closed forms against RK4 of the nonlinear law: relative errors
    /// below 10⁻⁶ at 2000 steps per contact (O(h⁴); measured ~10⁻¹⁰), for
    /// masses, coefficients and speeds over several decades.
    #[test]
    fn the_closed_form_impact_matches_an_integration() {
        for (m, k, v) in [
            (0.2, 1e8, 1.0),
            (3.0, 5e9, 0.05),
            (1e-4, 2e6, 12.0),
            (50.0, 1e10, 3.0),
        ] {
            let c = impact(m, k, v);
            let n = integrate(m, k, v, 2000);
            for (a, b, what) in [
                (c.max_overlap, n.max_overlap, "overlap"),
                (c.peak_force, n.peak_force, "force"),
                (c.duration, n.duration, "duration"),
            ] {
                assert!(
                    ((a - b) / a).abs() < 1e-6,
                    "{what}: {a} vs {b} at m={m} K={k} v={v}"
                );
            }
            // Energy: ½ m v² = 2/5 K δ_max^{5/2}.
            let e = 0.4 * k * c.max_overlap.powf(2.5);
            assert!((e / (0.5 * m * v * v) - 1.0).abs() < 1e-12);
        }
    }

    /// Steel on steel (E = 210 GPa, ν = 0.3): E* = E/(2(1 − ν²)) and
    /// G* = G/(2(2 − ν)) with G = E/(2(1 + ν)), by hand; on a rigid flat
    /// twice each. Mindlin's k_t at δ = 10 µm, R* = 10 mm: 8 G* √(R* δ).
    #[test]
    fn effective_moduli_of_steel_match_the_hand_values() {
        let (e, nu): (f64, f64) = (210e9, 0.3);
        let g = e / (2.0 * (1.0 + nu));
        assert!((g - 80.769_230_769e9).abs() < 1e3);
        let es = effective_modulus(e, nu, Some((e, nu)));
        assert!((es / (210e9 / 1.82) - 1.0).abs() < 1e-14, "{es}");
        let gs = effective_shear_modulus(g, nu, Some((g, nu)));
        // 80.769 GPa / 3.4 = 23.756 GPa.
        assert!((gs / 23.755_656_108_6e9 - 1.0).abs() < 1e-11, "{gs}");
        assert!((effective_shear_modulus(g, nu, None) / (2.0 * gs) - 1.0).abs() < 1e-14);
        assert!((effective_modulus(e, nu, None) / (2.0 * es) - 1.0).abs() < 1e-14);
        // k_t = 8 × 23.7557 GPa × √(1e-2 × 1e-5 m²) = 8 × 23.7557e9 × 3.16228e-4.
        let kt = mindlin(gs, 0.01, 1e-5);
        assert!((kt / 6.009_758_449e7 - 1.0).abs() < 1e-9, "{kt}");
    }

    #[test]
    fn linearised_stiffness_and_static_overlap_agree() {
        let (e, r) = (70e9 / (2.0 * (1.0 - 0.33f64.powi(2))), 0.005);
        let k = coefficient(e, r);
        let w = 10.0;
        let d = overlap_under_load(k, w);
        assert!((k * d.powf(1.5) - w).abs() < 1e-9 * w);
        // dF/dδ by a central difference.
        let fd = (k * (d * 1.001).powf(1.5) - k * (d * 0.999).powf(1.5)) / (0.002 * d);
        assert!((fd / stiffness_at_overlap(k, d) - 1.0).abs() < 1e-6);
    }
}
