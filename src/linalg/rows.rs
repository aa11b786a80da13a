//! An orthonormal basis of the span of a set of rows: the constraint rows
//! of the analysis, the robot probes and the symbolic derivation's choice
//! of independent rows.

use nalgebra::{DMatrix, DVector};

/// Relative singular-value threshold below which a whitened constraint
/// direction counts as redundant.
pub const CONSTRAINT_RANK_TOLERANCE: f64 = 1e-10;

/// An orthonormal basis (as rows) of the span of the rows of `g`, by
/// Gram–Schmidt with pivoting on the largest remaining norm and a second
/// orthogonalisation pass (Businger–Golub). A row whose remaining norm is
/// below [`CONSTRAINT_RANK_TOLERANCE`] times the largest row norm is
/// redundant. (nalgebra 0.34's SVD was tried first: on rank-deficient input
/// its singular vectors did not always span the rows, which the property
/// test `constraints_two_ways_agree` caught.)
pub fn row_space_basis(g: &DMatrix<f64>) -> DMatrix<f64> {
    let n = g.ncols();
    let mut rest: Vec<DVector<f64>> = g.row_iter().map(|r| r.transpose()).collect();
    let scale = rest.iter().map(|r| r.norm()).fold(0.0, f64::max);
    let mut basis: Vec<DVector<f64>> = Vec::new();
    while !rest.is_empty() && basis.len() < n {
        let (pick, norm) =
            rest.iter()
                .enumerate()
                .map(|(i, r)| (i, r.norm()))
                .fold(
                    (0, -1.0),
                    |best, cur| if cur.1 > best.1 { cur } else { best },
                );
        if scale == 0.0 || norm <= CONSTRAINT_RANK_TOLERANCE * scale {
            break;
        }
        let q = rest.swap_remove(pick) / norm;
        for r in &mut rest {
            for _ in 0..2 {
                let d = q.dot(r);
                r.axpy(-d, &q, 1.0);
            }
        }
        basis.push(q);
    }
    DMatrix::from_fn(basis.len(), n, |i, j| basis[i][j])
}
