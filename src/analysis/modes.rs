//! Coupled penalty modes: eigenvalues of `S = K^½ A K^½`, and of the frozen
//! damped system `ξ̈ + A C ξ̇ + A K ξ = 0`.

use nalgebra::DMatrix;

/// Eigenvalues of S at or below this fraction of the largest are zero modes.
pub const ZERO_MODE_RATIO: f64 = 1e-12;

/// A coupled mode.
#[derive(Clone, Debug, PartialEq)]
pub struct Mode {
    /// Angular frequency (rad/s).
    pub omega: f64,
    /// Gap-space shape `K^-½ u`, largest-magnitude component +1.
    pub shape: Vec<f64>,
}

/// A damped coupled mode.
#[derive(Clone, Debug, PartialEq)]
pub struct DampedMode {
    /// Undamped-equivalent angular frequency |λ| (rad/s).
    pub omega: f64,
    /// Damping ratio −Re λ / |λ|.
    pub zeta: f64,
}

/// Nonzero modes (fastest first) and the number of zero modes.
pub fn modes(a: &DMatrix<f64>, stiffness: &[f64]) -> (Vec<Mode>, usize) {
    let c = stiffness.len();
    if c == 0 {
        return (Vec::new(), 0);
    }
    let sk: Vec<f64> = stiffness.iter().map(|k| k.sqrt()).collect();
    let s = DMatrix::from_fn(c, c, |i, j| sk[i] * a[(i, j)] * sk[j]);
    let Some(eig) = crate::linalg::eig::symmetric(s) else {
        // Not finite or not converged: no mode rather than a wrong one.
        return (Vec::new(), c);
    };
    let lmax = eig.eigenvalues.max().max(0.0);
    let mut modes = Vec::new();
    let mut zero = 0;
    for (idx, &lambda) in eig.eigenvalues.iter().enumerate() {
        if lmax <= 0.0 || lambda <= ZERO_MODE_RATIO * lmax {
            zero += 1;
            continue;
        }
        let raw: Vec<f64> = (0..c).map(|i| eig.eigenvectors[(i, idx)] / sk[i]).collect();
        modes.push(Mode {
            omega: lambda.sqrt(),
            shape: normalise_shape(&raw),
        });
    }
    modes.sort_by(|x, y| y.omega.total_cmp(&x.omega));
    (modes, zero)
}

/// Scales a shape so that its largest-magnitude component is +1 (the first
/// such component when several tie within round-off).
pub fn normalise_shape(raw: &[f64]) -> Vec<f64> {
    let big = raw.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if big == 0.0 {
        return raw.to_vec();
    }
    let pivot = raw
        .iter()
        .position(|v| v.abs() >= big * (1.0 - 1e-9))
        .unwrap_or(0);
    let scale = raw[pivot];
    raw.iter()
        .map(|v| {
            let x = v / scale;
            // Round-off residue is not information; keep output stable.
            if x.abs() < 1e-13 { 0.0 } else { x }
        })
        .collect()
}

/// Damped coupled modes from the eigenvalues of the first-order system
/// `[[0, I], [−AK, −AC]]`. Complex pairs give ω = |λ|, ζ = −Re λ/|λ|.
/// Real (overdamped) roots are paired in order of magnitude, giving
/// ω = √(λ₁λ₂), ζ = −(λ₁+λ₂)/(2ω): exact when the modes decouple
/// (proportional damping), an estimate otherwise. Zero roots (zero modes)
/// are left out.
pub fn damped_modes(
    a: &DMatrix<f64>,
    stiffness: &[f64],
    damping: &[f64],
    undamped: &[f64],
) -> Vec<DampedMode> {
    let c = stiffness.len();
    if c == 0 {
        return Vec::new();
    }
    let mut m = DMatrix::zeros(2 * c, 2 * c);
    for i in 0..c {
        m[(i, c + i)] = 1.0;
        for j in 0..c {
            m[(c + i, j)] = -a[(i, j)] * stiffness[j];
            m[(c + i, c + j)] = -a[(i, j)] * damping[j];
        }
    }
    let eig = crate::linalg::eig::complex_eigenvalues(m);
    let scale = eig.iter().map(|l| l.norm()).fold(0.0, f64::max);
    let mut out = Vec::new();
    let mut real = Vec::new();
    for l in eig.iter() {
        let r = l.norm();
        if scale == 0.0 || r <= 1e-6 * scale {
            continue;
        }
        if l.im.abs() > 1e-9 * scale {
            if l.im > 0.0 {
                out.push(DampedMode {
                    omega: r,
                    zeta: -l.re / r,
                });
            }
        } else {
            real.push(l.re);
        }
    }
    // Overdamped modes give two real roots each, whose product is the
    // mode's ω² (exactly so when damping does not couple the modes). Pair
    // them greedily: the largest remaining root with the root that makes
    // the product closest to an undamped ω² (in logarithm).
    real.sort_by(|x, y| x.abs().total_cmp(&y.abs()));
    let targets: Vec<f64> = undamped.iter().map(|w| (w * w).ln()).collect();
    while let Some(l1) = real.pop() {
        if real.is_empty() {
            out.push(DampedMode {
                omega: l1.abs(),
                zeta: 1.0,
            });
            break;
        }
        let score = |l2: f64| {
            let p = (l1 * l2).abs().ln();
            targets
                .iter()
                .map(|t| (p - t).abs())
                .fold(f64::INFINITY, f64::min)
        };
        let j = if targets.is_empty() {
            real.len() - 1
        } else {
            (0..real.len())
                .min_by(|&x, &y| score(real[x]).total_cmp(&score(real[y])))
                .unwrap_or(real.len() - 1)
        };
        let l2 = real.remove(j);
        let omega = (l1 * l2).sqrt();
        out.push(DampedMode {
            omega,
            zeta: -(l1 + l2) / (2.0 * omega),
        });
    }
    out.sort_by(|x, y| y.omega.total_cmp(&x.omega));
    out
}
