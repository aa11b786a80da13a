//! Eigenvalues of general real matrices that always return.
//!
//! nalgebra's `complex_eigenvalues()` iterates its Schur decomposition
//! until it converges, without a bound: a matrix with a non-finite entry,
//! or entries 10³⁰⁰ apart, can keep it busy forever. Here the iteration is
//! bounded (the QR algorithm needs a few iterations per eigenvalue; 200
//! per row is far beyond that) and a non-finite matrix is not iterated at
//! all; either failure gives NaN eigenvalues, which every caller treats as
//! "no mode" and which the inputs' own range checks (engine settings,
//! masses, stiffnesses) are there to keep from happening.

use nalgebra::{Complex, DMatrix, DVector};

/// The eigenvalues of `m` (NaN when they cannot be computed: see the
/// module documentation).
pub fn complex_eigenvalues(m: DMatrix<f64>) -> DVector<Complex<f64>> {
    let n = m.nrows();
    let nan = || DVector::from_element(n, Complex::new(f64::NAN, f64::NAN));
    if m.iter().any(|x| !x.is_finite()) {
        return nan();
    }
    match nalgebra::Schur::try_new(m, f64::EPSILON, 200 * n.max(1)) {
        Some(s) => s.complex_eigenvalues(),
        None => nan(),
    }
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
}
