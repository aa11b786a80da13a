//! The Delassus matrix `A = J M⁻¹ Jᵀ`, with the constrained response when
//! there are constraint rows.

use super::AnalysisError;
use crate::model::{SparseRow, System};
use nalgebra::{DMatrix, DVector};

use crate::limits::DENSE_CONTACT_LIMIT;
use crate::linalg::{IMMOBILE_RATIO, row_space_basis};

/// The Delassus matrix and what was learnt computing it.
#[derive(Clone, Debug)]
pub struct Delassus {
    /// A (c×c), exactly symmetric; rows and columns of immobile contacts
    /// are zero.
    pub matrix: DMatrix<f64>,
    /// `J_i M⁻¹ J_iᵀ` without constraints.
    pub unconstrained: Vec<f64>,
    /// Immobile contacts.
    pub immobile: Vec<bool>,
    /// Rank of the whitened constraint rows.
    pub constraint_rank: usize,
}

/// The whitened Jacobian rows `J L⁻ᵀ` (L the Cholesky factor of each mass
/// block), sparse: `J̃ J̃ᵀ = J M⁻¹ Jᵀ`.
pub fn whitened_rows(system: &System<f64>) -> Result<Vec<SparseRow<f64>>, AnalysisError> {
    let (factors, block_of) = factor_blocks(system)?;
    Ok(system
        .jacobian
        .iter()
        .map(|r| whiten(system, &factors, &block_of, r))
        .collect())
}

type Factors = (Vec<DMatrix<f64>>, Vec<usize>);

/// Cholesky factor of each block, and the block of each dof.
fn factor_blocks(system: &System<f64>) -> Result<Factors, AnalysisError> {
    let n = system.n_dofs();
    let mut factors = Vec::with_capacity(system.mass.len());
    let mut block_of = vec![usize::MAX; n];
    for (bi, b) in system.mass.iter().enumerate() {
        let m = DMatrix::from_row_slice(b.size, b.size, &b.matrix);
        let chol =
            nalgebra::Cholesky::new(m).ok_or_else(|| AnalysisError::NotPositiveDefinite {
                dofs: system.dofs[b.offset..b.offset + b.size]
                    .iter()
                    .map(|d| d.name())
                    .collect(),
            })?;
        factors.push(chol.l());
        for slot in &mut block_of[b.offset..b.offset + b.size] {
            *slot = bi;
        }
    }
    Ok((factors, block_of))
}

/// Whitening: row ↦ L⁻¹ rowᵀ per block, so that (J L⁻ᵀ)(J L⁻ᵀ)ᵀ = J M⁻¹ Jᵀ.
fn whiten(
    system: &System<f64>,
    factors: &[DMatrix<f64>],
    block_of: &[usize],
    row: &SparseRow<f64>,
) -> SparseRow<f64> {
    let mut out = Vec::with_capacity(row.len());
    let mut i = 0;
    while i < row.len() {
        let bi = block_of[row[i].0];
        let b = &system.mass[bi];
        let mut x = DVector::zeros(b.size);
        while i < row.len() && block_of[row[i].0] == bi {
            x[row[i].0 - b.offset] += row[i].1;
            i += 1;
        }
        let y = factors[bi]
            .solve_lower_triangular(&x)
            .expect("Cholesky factor has a positive diagonal");
        out.extend(
            y.iter()
                .enumerate()
                .filter(|(_, v)| **v != 0.0)
                .map(|(k, v)| (b.offset + k, *v)),
        );
    }
    out
}

/// Computes A for an assembled system.
pub fn delassus(system: &System<f64>) -> Result<Delassus, AnalysisError> {
    let c = system.jacobian.len();
    if c > DENSE_CONTACT_LIMIT {
        return Err(AnalysisError::TooLarge {
            contacts: c,
            constrained: !system.constraints.is_empty(),
        });
    }
    let n = system.n_dofs();
    let (factors, block_of) = factor_blocks(system)?;
    let whiten = |row: &SparseRow<f64>| whiten(system, &factors, &block_of, row);
    let jt: Vec<SparseRow<f64>> = system.jacobian.iter().map(whiten).collect();
    let unconstrained: Vec<f64> = jt
        .iter()
        .map(|r| r.iter().map(|(_, v)| v * v).sum())
        .collect();

    let (mut matrix, constraint_rank) = if system.constraints.is_empty() {
        (gram(&jt), 0)
    } else {
        let gt: Vec<SparseRow<f64>> = system.constraints.iter().map(whiten).collect();
        let q = row_space_basis(&dense(&gt, n));
        let j = dense(&jt, n);
        let projected = &j - (&j * q.transpose()) * &q;
        (&projected * projected.transpose(), q.nrows())
    };
    for (i, row) in jt.iter().enumerate() {
        super::check_range(i, row, unconstrained[i], matrix.row(i).iter().copied())?;
    }
    // Exact symmetry, and immobile contacts as exact zeros.
    for i in 0..c {
        for j in i + 1..c {
            let v = 0.5 * (matrix[(i, j)] + matrix[(j, i)]);
            matrix[(i, j)] = v;
            matrix[(j, i)] = v;
        }
    }
    let immobile: Vec<bool> = (0..c)
        .map(|i| unconstrained[i] == 0.0 || matrix[(i, i)] <= IMMOBILE_RATIO * unconstrained[i])
        .collect();
    for i in (0..c).filter(|&i| immobile[i]) {
        matrix.row_mut(i).fill(0.0);
        matrix.column_mut(i).fill(0.0);
    }
    Ok(Delassus {
        matrix,
        unconstrained,
        immobile,
        constraint_rank,
    })
}

fn dense(rows: &[SparseRow<f64>], n: usize) -> DMatrix<f64> {
    let mut m = DMatrix::zeros(rows.len(), n);
    for (i, row) in rows.iter().enumerate() {
        for (j, v) in row {
            m[(i, *j)] += v;
        }
    }
    m
}

/// `R Rᵀ` for sparse rows with increasing columns.
fn gram(rows: &[SparseRow<f64>]) -> DMatrix<f64> {
    let c = rows.len();
    let mut a = DMatrix::zeros(c, c);
    for i in 0..c {
        for j in i..c {
            let v = sparse_dot(&rows[i], &rows[j]);
            a[(i, j)] = v;
            a[(j, i)] = v;
        }
    }
    a
}

fn sparse_dot(x: &SparseRow<f64>, y: &SparseRow<f64>) -> f64 {
    let (mut i, mut j, mut sum) = (0, 0, 0.0);
    while i < x.len() && j < y.len() {
        match x[i].0.cmp(&y[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                sum += x[i].1 * y[j].1;
                i += 1;
                j += 1;
            }
        }
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Dof, MassBlock};

    /// An SPD block `B Bᵀ + n I` from a fixed pattern.
    fn spd(n: usize, seed: usize) -> Vec<f64> {
        let b: Vec<f64> = (0..n * n)
            .map(|k| (((k + seed) * 37 % 23) as f64 - 11.0) / 7.0)
            .collect();
        let mut m = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                m[i * n + j] = (0..n).map(|k| b[i * n + k] * b[j * n + k]).sum::<f64>()
                    + if i == j { n as f64 } else { 0.0 };
            }
        }
        m
    }

    #[test]
    fn the_flat_whitener_agrees_with_the_general_one() {
        // Blocks of 1, 6 and 10 velocities: the stack buffer and the heap
        // fallback, in one row that spans all three.
        let sizes = [1usize, 6, 10];
        let mut mass = Vec::new();
        let mut offset = 0;
        for (s, &n) in sizes.iter().enumerate() {
            mass.push(MassBlock {
                offset,
                size: n,
                matrix: spd(n, s),
            });
            offset += n;
        }
        let system = System {
            dofs: (0..offset)
                .map(|i| Dof::new(&format!("q{i}"), "m"))
                .collect(),
            mass,
            jacobian: vec![
                (0..offset).map(|j| (j, 1.0 + j as f64 * 0.25)).collect(),
                vec![(3, 2.0), (9, -1.0), (12, 0.5)],
            ],
            constraints: Vec::new(),
        };
        let general = whitened_rows(&system).unwrap();
        let w = crate::analysis::block_whiten::BlockWhitener::new(&system).unwrap();
        for (row, expected) in system.jacobian.iter().zip(&general) {
            let mut got = Vec::new();
            w.whiten_into(row, &mut got);
            assert_eq!(got.len(), expected.len());
            for (g, e) in got.iter().zip(expected) {
                assert_eq!(g.0, e.0);
                assert!(
                    (g.1 - e.1).abs() <= 1e-14 * e.1.abs().max(1.0),
                    "{g:?} vs {e:?}"
                );
            }
        }
        // A block that is not positive definite names its velocities.
        let mut bad = system.clone();
        bad.mass[1].matrix[0] = -1.0;
        match crate::analysis::block_whiten::BlockWhitener::new(&bad) {
            Err(AnalysisError::NotPositiveDefinite { dofs }) => assert_eq!(dofs[0], "q1"),
            _ => panic!("expected NotPositiveDefinite"),
        }
    }
}
