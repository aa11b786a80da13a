//! The constrained response of a dense mass matrix at a set of rows: what
//! a `[model]` case's contacts see (`analysis::robot`), what the robot
//! probes compute per configuration and what the engines are handed.

use nalgebra::DMatrix;

/// A contact is immobile when its constrained `a_i` is below this fraction
/// of its unconstrained value (docs/physics.md: round-off leaves ~1e-16, not 0).
pub const IMMOBILE_RATIO: f64 = 1e-12;

/// `R P Rᵀ` with `P = M⁻¹` projected onto the motions the constraint rows
/// `g` allow (`M⁻¹ − M⁻¹Gᵀ(GM⁻¹Gᵀ)⁺GM⁻¹`), for the rows of `r`.
pub fn response(m: &DMatrix<f64>, g: &[Vec<f64>], r: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    let n = m.nrows();
    let l = m.clone().cholesky()?.l();
    let whiten = |rows: &DMatrix<f64>| -> DMatrix<f64> {
        // L⁻¹ Rᵀ: columns are whitened rows.
        l.solve_lower_triangular(&rows.transpose())
            .expect("a Cholesky factor is invertible")
    };
    let mut w = whiten(r);
    if !g.is_empty() {
        let gm = DMatrix::from_fn(g.len(), n, |i, j| g[i][j]);
        let gw = whiten(&gm).transpose();
        let basis = super::row_space_basis(&gw);
        let proj = &basis * &w;
        w -= basis.transpose() * proj;
    }
    Some(w.transpose() * w)
}
