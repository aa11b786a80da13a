//! Every eigen- and singular-value decomposition of the project, bounded.
//!
//! nalgebra's `SymmetricEigen::new`, `complex_eigenvalues()`, `schur()`,
//! `svd()` and `pseudo_inverse` iterate until they converge, without a
//! bound: a matrix with a non-finite entry, entries 10³⁰⁰ apart, or an
//! unlucky exactly-defective one (a block pinched between two equal
//! contacts: a Jordan block at zero in the impact's first-order matrix)
//! can keep them busy forever. Here the iteration is bounded (the QR
//! algorithm needs a few iterations per eigenvalue; [`ITERATIONS_PER_ROW`]
//! per row is far beyond that) and a non-finite matrix is not iterated at
//! all. Failure is visible to the caller: `None`, or NaN eigenvalues,
//! which every caller treats as "no mode" or falls back from (the impact
//! step to a norm bound); never a wrong number.
//!
//! `tests/it/input/bounded_work.rs` scans `src/` and `python/src/` for the
//! unbounded calls: this module is the one place they may appear.

use nalgebra::allocator::Allocator;
use nalgebra::{Complex, DMatrix, DVector, DefaultAllocator, Dim, DimDiff, DimSub, OMatrix, U1};

/// Iterations allowed per row of the matrix.
pub const ITERATIONS_PER_ROW: usize = 200;

fn max_iterations(n: usize) -> usize {
    ITERATIONS_PER_ROW * n.max(1)
}

/// The eigenvalues of `m` (NaN when they cannot be computed: see the
/// module documentation).
pub fn complex_eigenvalues(m: DMatrix<f64>) -> DVector<Complex<f64>> {
    let n = m.nrows();
    let nan = || DVector::from_element(n, Complex::new(f64::NAN, f64::NAN));
    if m.iter().any(|x| !x.is_finite()) {
        return nan();
    }
    match nalgebra::Schur::try_new(m, f64::EPSILON, max_iterations(n)) {
        Some(s) => s.complex_eigenvalues(),
        None => nan(),
    }
}

/// The eigen-decomposition of the symmetric `m` (its lower triangle read),
/// of any dimension; `None` for a non-finite matrix or one that did not
/// converge within the bound.
pub fn symmetric<D>(m: OMatrix<f64, D, D>) -> Option<nalgebra::SymmetricEigen<f64, D>>
where
    D: Dim + DimSub<U1>,
    DefaultAllocator: Allocator<D, D> + Allocator<D> + Allocator<DimDiff<D, U1>>,
{
    let n = m.nrows();
    if n == 0 || m.iter().any(|x| !x.is_finite()) {
        return None;
    }
    nalgebra::SymmetricEigen::try_new(m, f64::EPSILON, max_iterations(n))
}

/// The eigenvalues of the symmetric `m`, NaN when they cannot be computed.
pub fn symmetric_eigenvalues(m: DMatrix<f64>) -> DVector<f64> {
    let n = m.nrows();
    symmetric(m).map_or_else(|| DVector::from_element(n, f64::NAN), |e| e.eigenvalues)
}

/// The pseudo-inverse of `m` through a bounded SVD (singular values at or
/// below `eps` dropped); `None` for a non-finite matrix or one whose SVD
/// did not converge within the bound.
pub fn pseudo_inverse(m: DMatrix<f64>, eps: f64) -> Option<DMatrix<f64>> {
    let n = m.nrows().max(m.ncols());
    if m.is_empty() || m.iter().any(|x| !x.is_finite()) {
        return None;
    }
    nalgebra::SVD::try_new(m, true, true, f64::EPSILON, max_iterations(n))?
        .pseudo_inverse(eps)
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_and_right() {
        let m = DMatrix::from_row_slice(2, 2, &[0.0, 1.0, -4.0, 0.0]);
        let z = complex_eigenvalues(m);
        let mut im: Vec<f64> = z.iter().map(|z| z.im).collect();
        im.sort_by(f64::total_cmp);
        assert!(
            (im[0] + 2.0).abs() < 1e-12 && (im[1] - 2.0).abs() < 1e-12,
            "{z}"
        );
        let bad = DMatrix::from_row_slice(2, 2, &[f64::INFINITY, 1.0, 1.0, 0.0]);
        assert!(complex_eigenvalues(bad).iter().all(|z| z.re.is_nan()));
    }

    #[test]
    fn symmetric_right_and_refuses_non_finite() {
        let m = DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]);
        let mut e: Vec<f64> = symmetric_eigenvalues(m).iter().copied().collect();
        e.sort_by(f64::total_cmp);
        assert!((e[0] - 1.0).abs() < 1e-14 && (e[1] - 3.0).abs() < 1e-14);
        let m3 = nalgebra::Matrix3::new(4.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 9.0);
        let e3 = symmetric(m3).unwrap().eigenvalues;
        assert_eq!(e3.max(), 9.0);
        let bad = DMatrix::from_row_slice(2, 2, &[f64::NAN, 0.0, 0.0, 1.0]);
        assert!(symmetric_eigenvalues(bad).iter().all(|x| x.is_nan()));
        assert!(symmetric(DMatrix::<f64>::zeros(0, 0)).is_none());
    }

    #[test]
    fn pseudo_inverse_of_a_singular_matrix() {
        let m = DMatrix::from_row_slice(2, 2, &[1.0, 1.0, 1.0, 1.0]);
        let p = pseudo_inverse(m.clone(), 1e-12).unwrap();
        // The Moore–Penrose inverse of the all-ones 2×2 is it over 4.
        assert!((&p - &m / 4.0).amax() < 1e-14, "{p}");
        let bad = DMatrix::from_row_slice(1, 1, &[f64::INFINITY]);
        assert!(pseudo_inverse(bad, 1e-12).is_none());
    }
}
