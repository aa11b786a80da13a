//! Drake SAP's own estimate of a contact's inverse mass, the `w_i` of its
//! near-rigid regime (docs/engines.md).
//!
//! Drake (`SapModel::CalcDelassusDiagonalApproximation`,
//! multibody/contact_solvers/sap/sap_model.cc) forms, for each contact
//! constraint, the block `W_ii = Σ_c J_ic diag(A_c)⁻¹ J_icᵀ` over the
//! contact's three rows (normal and two tangents), with only the
//! *diagonal* of each clique's linear dynamics matrix `A_c` (the mass
//! matrix, without joint damping or stiffness here), and takes
//! `‖W_ii‖_F / 3` (the Frobenius norm over the number of rows) for every
//! row of the contact; `SapFrictionConeConstraint::DoMakeData` uses it as
//! `w_n` in `R_n = max(β² w_n/(4π²), 1/(h k (h + τ)))`. The norm does not
//! depend on which two tangents span the contact plane, so the block is
//! the point's relative velocity rows along any orthonormal axes.

/// A contact's block `W_ii` in its own axes (normal, t1, t2), 1/kg.
#[derive(Clone, Debug, PartialEq)]
pub struct SapBlock {
    /// The entries; rows the case does not have (a planar or a line case,
    /// a contact given by its normal row alone) are zero.
    pub w: [[f64; 3]; 3],
    /// Whether the tangent rows are known (a point on bodies or a model
    /// link): `false` for a contact given as a Jacobian row, whose block
    /// is its normal entry alone (`‖W_ii‖_F ≥ W_nn`: a lower bound).
    pub tangents: bool,
}

impl SapBlock {
    /// `‖W_ii‖_F`.
    pub fn norm(&self) -> f64 {
        self.w.iter().flatten().map(|x| x * x).sum::<f64>().sqrt()
    }

    /// Drake's `w_i = ‖W_ii‖_F / 3` (a contact constraint has three
    /// equations whatever the case's dimension).
    pub fn estimate(&self) -> f64 {
        self.norm() / 3.0
    }

    /// The six distinct entries: `W_nn, W_t1t1, W_t2t2, W_nt1, W_nt2,
    /// W_t1t2`.
    pub fn entries(&self) -> [f64; 6] {
        let w = &self.w;
        [w[0][0], w[1][1], w[2][2], w[0][1], w[0][2], w[1][2]]
    }
}

/// The block of a contact from its point's velocity rows along the world
/// axes (`rows[k]`: length n, one per world axis), its unit axes in world
/// coordinates (`axes[0]` the normal, then the tangents) and the mass
/// matrix's diagonal `m_diag`.
pub fn block(rows: &[Vec<f64>], axes: &[Vec<f64>], m_diag: &[f64], tangents: bool) -> SapBlock {
    let n = m_diag.len();
    // The rows along the contact's axes.
    let along: Vec<Vec<f64>> = axes
        .iter()
        .take(3)
        .map(|u| {
            (0..n)
                .map(|j| {
                    rows.iter()
                        .zip(u)
                        .map(|(r, uk)| uk * r.get(j).copied().unwrap_or(0.0))
                        .sum()
                })
                .collect()
        })
        .collect();
    let mut w = [[0.0; 3]; 3];
    for (a, ra) in along.iter().enumerate() {
        for (b, rb) in along.iter().enumerate() {
            // A velocity the row does not touch adds nothing (even when
            // its mass entry is zero).
            w[a][b] = (0..n)
                .filter(|&j| ra[j] != 0.0 && rb[j] != 0.0)
                .map(|j| ra[j] * rb[j] / m_diag[j])
                .sum();
        }
    }
    SapBlock { w, tangents }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A point mass m: W = I/m, ‖W‖_F = √3/m, w = 1/(√3 m) — not Drake's
    /// A_ii = 1/m.
    #[test]
    fn a_point_mass_gives_one_over_root_three_m() {
        let m = 2.0;
        let rows = [
            vec![1.0, 0.0, 0.0],
            vec![0.0, 1.0, 0.0],
            vec![0.0, 0.0, 1.0],
        ];
        let axes = [
            vec![0.0, 0.0, 1.0],
            vec![1.0, 0.0, 0.0],
            vec![0.0, 1.0, 0.0],
        ];
        let b = block(&rows, &axes, &[m, m, m], true);
        let want = 1.0 / (3f64.sqrt() * m);
        assert!(
            (b.estimate() - want).abs() < 1e-15 * want,
            "{}",
            b.estimate()
        );
    }

    /// The norm is the same for any tangents spanning the contact plane.
    #[test]
    fn the_estimate_does_not_depend_on_the_tangents() {
        // A rigid body's point velocity rows (v, ω) at a lever arm.
        let (m, i) = (0.05, [5e-6, 5e-6, 1e-5]);
        let rho = [0.02, 0.0, -0.005];
        let rows: Vec<Vec<f64>> = (0..3)
            .map(|k| {
                let mut e = [0.0; 3];
                e[k] = 1.0;
                // e · (v + ω × ρ) = e·v + ω·(ρ × e)
                let c = [
                    rho[1] * e[2] - rho[2] * e[1],
                    rho[2] * e[0] - rho[0] * e[2],
                    rho[0] * e[1] - rho[1] * e[0],
                ];
                vec![e[0], e[1], e[2], c[0], c[1], c[2]]
            })
            .collect();
        let d = [m, m, m, i[0], i[1], i[2]];
        let n = vec![0.0, 0.0, 1.0];
        let a = block(
            &rows,
            &[n.clone(), vec![1.0, 0.0, 0.0], vec![0.0, 1.0, 0.0]],
            &d,
            true,
        );
        let (s, c) = (0.3f64.sin(), 0.3f64.cos());
        let b = block(&rows, &[n, vec![c, s, 0.0], vec![-s, c, 0.0]], &d, true);
        assert!((a.norm() - b.norm()).abs() < 1e-12 * a.norm());
        // The case engine-drake-near-rigid's p1: W_nn = 100, W_tt = 25 and
        // 65, W_nt = 20: ‖W‖ = √15650, w = 41.70 /kg (A_ii = 100 /kg).
        assert!((a.w[0][0] - 100.0).abs() < 1e-9);
        assert!((a.estimate() - 15650f64.sqrt() / 3.0).abs() < 1e-9);
    }

    /// Only M's diagonal enters: an off-diagonal mass coupling changes
    /// A_ii but not Drake's estimate.
    #[test]
    fn only_the_diagonal_of_m_enters() {
        let b = block(&[vec![1.0, 1.0]], &[vec![1.0]], &[2.0, 4.0], false);
        assert!((b.w[0][0] - 0.75).abs() < 1e-15);
        assert!((b.estimate() - 0.25).abs() < 1e-15);
    }
}
