//! The rules a physical inertia obeys, written once for every reader: a
//! case's `[[body]]` tensor and `[generalized]` mass matrix, a scene's
//! bodies (CSV, NPZ, columnar), MJCF and URDF. Round-off is measured
//! against one scale, the matrix's largest entry, so that the same tensor
//! gets the same verdict whichever file it comes in. (Positive
//! definiteness by Cholesky is `case::cholesky_failure`.)

/// Relative round-off a symmetric matrix may carry, against [`scale`].
pub const TOLERANCE: f64 = 1e-12;

/// The scale round-off is measured against: the largest entry in
/// magnitude (at least the smallest normal number).
pub fn scale<R: AsRef<[f64]>>(m: &[R]) -> f64 {
    m.iter()
        .flat_map(|r| r.as_ref().iter())
        .fold(0.0f64, |a, x| a.max(x.abs()))
        .max(f64::MIN_POSITIVE)
}

/// Every pair `(i, j)`, `i < j`, where `m[i][j]` and `m[j][i]` differ by
/// more than [`TOLERANCE`] × [`scale`]`(m)`, in row order; empty for a
/// symmetric matrix.
pub fn asymmetries<R: AsRef<[f64]>>(m: &[R]) -> Vec<(usize, usize)> {
    let tol = TOLERANCE * scale(m);
    let mut out = Vec::new();
    for i in 0..m.len() {
        for j in i + 1..m.len() {
            let (a, b) = (m[i].as_ref()[j], m[j].as_ref()[i]);
            // A NaN is not asymmetry: finiteness is checked apart.
            if (a - b).abs() > tol {
                out.push((i, j));
            }
        }
    }
    out
}

/// Whether principal moments (the eigenvalues of a symmetric tensor) are
/// finite and none is below zero by more than [`TOLERANCE`] × the largest
/// in magnitude: positive semi-definite up to round-off.
pub fn semi_definite(moments: &[f64]) -> bool {
    let scale = moments
        .iter()
        .fold(0.0f64, |a, x| a.max(x.abs()))
        .max(f64::MIN_POSITIVE);
    moments
        .iter()
        .all(|&x| x.is_finite() && x >= -TOLERANCE * scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_off_is_measured_against_the_largest_entry() {
        let sym = [[2.0, 0.1, 0.0], [0.1, 3.0, 0.0], [0.0, 0.0, 4.0]];
        assert!(asymmetries(&sym).is_empty());
        // An off-diagonal noise far below the tensor's size passes even
        // where the entry itself is tiny.
        let noise = [[1.0, 1e-14, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        assert!(asymmetries(&noise).is_empty());
        let off = [[1.0, 1e-10, 0.0], [0.0, 1.0, 2e-10], [0.0, 0.0, 1.0]];
        assert_eq!(asymmetries(&off), vec![(0, 1), (1, 2)]);
        let nan = [[1.0, f64::NAN], [f64::NAN, 1.0]];
        assert!(asymmetries(&nan).is_empty());
    }

    #[test]
    fn semi_definite_allows_round_off_only() {
        assert!(semi_definite(&[0.0, 1.0, 1.0]));
        assert!(semi_definite(&[-1e-13, 1.0, 1.0]));
        assert!(!semi_definite(&[-1e-11, 1.0, 1.0]));
        assert!(!semi_definite(&[f64::NAN, 1.0, 1.0]));
    }
}
