//! Small dense linear algebra on numbers or lanes of numbers, where
//! nalgebra's decompositions (which need scalars, and allocate per call on
//! dynamic sizes) do not fit: the Cholesky recurrence shared by the
//! large-system path's 6 × 6 blocks (10⁵–10⁶ of them, `f64`) and the robot
//! batch path (four configurations per lane group).

use nalgebra::SimdRealField;

/// The number types: `f64`, or lanes of `f64` evaluated together
/// (`simba`'s `WideF64x4`: four configurations per operation, the batch
/// path of [`crate::robot::probe`]). Code written for it branches on its
/// inputs' structure, never on the numbers, so every lane follows the same
/// path.
pub trait Real: SimdRealField<Element = f64> + Copy {}

impl<T: SimdRealField<Element = f64> + Copy> Real for T {}

/// The lower Cholesky factor `L` of the symmetric `n × n` row-major `m`,
/// in place in its lower triangle (the upper one is left as it was); a
/// lane whose matrix is not positive definite (a pivot ≤ 0 or not finite)
/// turns NaN from that pivot on.
pub fn cholesky<T: Real>(m: &mut [T], n: usize) {
    for j in 0..n {
        let mut d = m[j * n + j];
        for k in 0..j {
            d -= m[j * n + k] * m[j * n + k];
        }
        let bad = d.simd_le(T::zero()) | d.simd_gt(T::splat(f64::MAX));
        let d = T::splat(f64::NAN).select(bad, d).simd_sqrt();
        m[j * n + j] = d;
        for i in j + 1..n {
            let mut x = m[i * n + j];
            for k in 0..j {
                x -= m[i * n + k] * m[j * n + k];
            }
            m[i * n + j] = x / d;
        }
    }
}

/// `x ← L⁻¹ x` for the factor [`cholesky`] left in `l`.
pub fn forward<T: Real>(l: &[T], n: usize, x: &mut [T]) {
    for i in 0..n {
        let mut v = x[i];
        for k in 0..i {
            v -= l[i * n + k] * x[k];
        }
        x[i] = v / l[i * n + i];
    }
}
