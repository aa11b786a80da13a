//! The one Cholesky recurrence (column by column, `L Lᵀ = M`), on numbers
//! or lanes of numbers, and the two scalar forms built on it: a factor in
//! place ([`cholesky_in_place`]) and the positive-definiteness check of the
//! readers ([`cholesky_failure`]).

use super::Real;

/// The lower Cholesky factor `L` of the symmetric `n × n` row-major `m`,
/// in place in its lower triangle (the upper one is left as it was); a
/// lane whose matrix is not positive definite (a pivot ≤ 0 or not finite)
/// turns NaN from that pivot on.
pub fn cholesky<T: Real>(m: &mut [T], n: usize) {
    cholesky_above(m, n, 0.0);
}

/// [`cholesky`], refusing a pivot when what is left of its diagonal is at
/// most `floor` times the diagonal itself (`floor` 0: not positive).
fn cholesky_above<T: Real>(m: &mut [T], n: usize, floor: f64) {
    for j in 0..n {
        let limit = if floor == 0.0 {
            T::zero()
        } else {
            T::splat(floor) * m[j * n + j].simd_abs()
        };
        let mut d = m[j * n + j];
        for k in 0..j {
            d -= m[j * n + k] * m[j * n + k];
        }
        let bad = d.simd_le(limit) | d.simd_gt(T::splat(f64::MAX));
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

/// The lower Cholesky factor of the symmetric `n×n` row-major `a`, in
/// place (upper triangle zeroed); false when `a` is not positive definite.
/// [`cholesky`] (written out because the large path factors 10⁵–10⁶
/// blocks of six: a dynamically sized nalgebra factorisation allocates
/// three matrices per block and took 0.07 s at 10⁵ bodies, this takes a
/// few ms). The dense path keeps nalgebra's (`analysis::delassus`); both
/// are the textbook column-by-column recurrence, checked against each
/// other in the tests.
pub fn cholesky_in_place(a: &mut [f64], n: usize) -> bool {
    cholesky(a, n);
    if (0..n).any(|j| !(a[j * n + j] > 0.0 && a[j * n + j].is_finite())) {
        return false;
    }
    for j in 0..n {
        for c in j + 1..n {
            a[j * n + c] = 0.0;
        }
    }
    true
}

/// Index of the first pivot at which a Cholesky factorisation fails, if any:
/// the leading (k+1)×(k+1) block is then not positive definite. A pivot
/// fails when what is left of its own diagonal is at most 10⁻¹⁴ of it
/// (round-off): a velocity with no inertia of its own. It is measured
/// against its own diagonal, not the largest: a rotor's armature 10¹⁵
/// kg m² on one joint does not make a 0.04 kg m² joint beside it
/// singular. Rows of up to six entries are factored on the stack (a scene
/// checks 10⁵–10⁶ inertia tensors). The one check of every reader.
pub fn cholesky_failure<R: AsRef<[f64]>>(m: &[R]) -> Option<usize> {
    let n = m.len();
    let (mut small, mut big) = ([0.0f64; 36], Vec::new());
    let l: &mut [f64] = if n <= 6 {
        &mut small[..n * n]
    } else {
        big.resize(n * n, 0.0);
        &mut big
    };
    for (i, row) in m.iter().enumerate() {
        l[i * n..(i + 1) * n].copy_from_slice(&row.as_ref()[..n]);
    }
    cholesky_above(l, n, 1e-14);
    // A refused pivot turns NaN, and every one after it.
    (0..n).find(|&j| l[j * n + j].is_nan())
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::DMatrix;

    #[test]
    fn the_small_cholesky_agrees_with_nalgebra_and_refuses_what_it_should() {
        let mut state = 7u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        for n in 1..=8 {
            let b = DMatrix::from_fn(n, n, |_, _| next());
            let m = &b * b.transpose() + DMatrix::identity(n, n) * 0.1;
            let mut flat: Vec<f64> = (0..n * n).map(|k| m[(k / n, k % n)]).collect();
            assert!(cholesky_in_place(&mut flat, n));
            let l = nalgebra::Cholesky::new(m.clone()).unwrap().l();
            for r in 0..n {
                for c in 0..n {
                    assert!(
                        (flat[r * n + c] - l[(r, c)]).abs() <= 1e-13 * l[(r, r)].abs().max(1.0)
                    );
                }
            }
        }
        // Semidefinite, indefinite and non-finite blocks are refused.
        for bad in [
            [1.0, 1.0, 1.0, 1.0],
            [1.0, 2.0, 2.0, 1.0],
            [f64::NAN, 0.0, 0.0, 1.0],
        ] {
            assert!(!cholesky_in_place(&mut bad.clone(), 2));
        }
    }

    #[test]
    fn the_first_failing_pivot_is_named() {
        assert_eq!(cholesky_failure(&[[2.0, 0.0], [0.0, 3.0]]), None);
        assert_eq!(cholesky_failure(&[[1.0, 1.0], [1.0, 1.0]]), Some(1));
        assert_eq!(cholesky_failure(&[[0.0, 0.0], [0.0, 1.0]]), Some(0));
        assert_eq!(cholesky_failure(&[[-1.0]]), Some(0));
        // Measured against its own diagonal: a huge neighbour is no fault.
        assert_eq!(cholesky_failure(&[[1e15, 0.0], [0.0, 0.04]]), None);
        // Round-off of a singular block is.
        assert_eq!(
            cholesky_failure(&[[1.0, 1.0 + 1e-16], [1.0 + 1e-16, 1.0]]),
            Some(1)
        );
        let n = 8;
        let big: Vec<Vec<f64>> = (0..n)
            .map(|i| (0..n).map(|j| if i == j { 2.0 } else { 0.1 }).collect())
            .collect();
        assert_eq!(cholesky_failure(&big), None);
    }
}
