//! The large-system path: sparse Delassus matrix and matrix-free modes.
//!
//! Above [`DENSE_CONTACT_LIMIT`](super::DENSE_CONTACT_LIMIT) contacts the
//! c×c matrix and its full spectrum are neither computable nor readable.
//! Here A is assembled sparse — `A_ij` is nonzero only when contacts i and j
//! share a body, so it is built body by body from the whitened Jacobian
//! rows — and only the fastest few modes of `S = K^½ A K^½` are found, by
//! Lanczos with full reorthogonalisation started from a fixed vector.
//!
//! Lanczos approaches the largest eigenvalue from below, so an unconverged
//! estimate would give an unsafe timestep: a Ritz value is accepted only
//! when its residual bound `|β_m y_m|` is below [`LANCZOS_TOLERANCE`] of
//! the largest Ritz value. The Gershgorin bound `max_i Σ_j |S_ij|` (O(nnz))
//! is always reported; when the fastest mode has not converged, it sets
//! ω_max and the stable timestep instead, which is safe.

use super::delassus::whitened_rows;
use super::{AnalysisError, Mode};
use crate::model::System;
use nalgebra::{DMatrix, DVector};

/// Relative residual below which a Ritz value counts as converged.
pub const LANCZOS_TOLERANCE: f64 = 1e-9;
/// Most Lanczos steps.
pub const LANCZOS_MAX_STEPS: usize = 300;

/// A symmetric sparse matrix by rows (columns increasing, diagonal included).
#[derive(Clone, Debug, Default)]
pub struct SparseSym {
    /// Rows.
    pub rows: Vec<Vec<(usize, f64)>>,
}

impl SparseSym {
    /// Entry (i, j).
    pub fn get(&self, i: usize, j: usize) -> f64 {
        let row = &self.rows[i];
        row.binary_search_by_key(&j, |e| e.0)
            .map_or(0.0, |k| row[k].1)
    }

    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.rows.iter().map(Vec::len).sum()
    }
}

/// What the large path found beyond the common results.
#[derive(Clone, Debug, PartialEq)]
pub struct LargeInfo {
    /// Lanczos steps taken.
    pub lanczos_steps: usize,
    /// Modes asked for.
    pub modes_requested: usize,
    /// How many of the fastest modes converged (in order from the fastest).
    pub modes_converged: usize,
    /// `sqrt(max_i Σ_j |S_ij|)`, a safe upper bound on ω_max.
    pub gershgorin_omega: f64,
    /// Stored entries of A.
    pub nnz: usize,
}

/// A built from the whitened rows, body by body.
pub fn sparse_delassus(system: &System<f64>) -> Result<(SparseSym, Vec<f64>), AnalysisError> {
    if !system.constraints.is_empty() {
        return Err(AnalysisError::TooLarge {
            contacts: system.jacobian.len(),
        });
    }
    let jt = whitened_rows(system)?;
    let c = jt.len();
    // Contacts touching each dof.
    let mut by_dof: Vec<Vec<usize>> = vec![Vec::new(); system.n_dofs()];
    for (i, row) in jt.iter().enumerate() {
        let mut last = usize::MAX;
        for (j, _) in row {
            if *j != last {
                by_dof[*j].push(i);
                last = *j;
            }
        }
    }
    let mut entries: Vec<(usize, usize, f64)> = Vec::new();
    for (d, contacts) in by_dof.iter().enumerate() {
        for &p in contacts {
            let vp = jt[p].iter().find(|e| e.0 == d).map_or(0.0, |e| e.1);
            for &q in contacts {
                if q < p {
                    continue;
                }
                let vq = jt[q].iter().find(|e| e.0 == d).map_or(0.0, |e| e.1);
                entries.push((p, q, vp * vq));
            }
        }
    }
    entries.sort_by_key(|e| (e.0, e.1));
    let mut rows: Vec<Vec<(usize, f64)>> = vec![Vec::new(); c];
    let mut k = 0;
    while k < entries.len() {
        let (p, q) = (entries[k].0, entries[k].1);
        let mut v = 0.0;
        while k < entries.len() && entries[k].0 == p && entries[k].1 == q {
            v += entries[k].2;
            k += 1;
        }
        rows[p].push((q, v));
        if p != q {
            rows[q].push((p, v));
        }
    }
    for r in &mut rows {
        r.sort_by_key(|e| e.0);
    }
    let diag: Vec<f64> = (0..c)
        .map(|i| rows[i].iter().find(|e| e.0 == i).map_or(0.0, |e| e.1))
        .collect();
    for i in 0..c {
        super::check_range(i, &jt[i], diag[i], rows[i].iter().map(|e| e.1))?;
    }
    Ok((SparseSym { rows }, diag))
}

fn matvec(s: &SparseSym, scale: &[f64], x: &DVector<f64>) -> DVector<f64> {
    DVector::from_fn(x.len(), |i, _| {
        scale[i]
            * s.rows[i]
                .iter()
                .map(|(j, v)| v * scale[*j] * x[*j])
                .sum::<f64>()
    })
}

/// The fastest `want` modes of `S = K^½ A K^½` by Lanczos, and facts about
/// the run. Only converged modes are returned.
pub fn fastest_modes(a: &SparseSym, stiffness: &[f64], want: usize) -> (Vec<Mode>, LargeInfo) {
    let c = stiffness.len();
    let sk: Vec<f64> = stiffness.iter().map(|k| k.sqrt()).collect();
    let gershgorin = (0..c)
        .map(|i| {
            a.rows[i]
                .iter()
                .map(|(j, v)| (sk[i] * v * sk[*j]).abs())
                .sum::<f64>()
        })
        .fold(0.0, f64::max);
    let mut info = LargeInfo {
        lanczos_steps: 0,
        modes_requested: want,
        modes_converged: 0,
        gershgorin_omega: gershgorin.sqrt(),
        nnz: a.nnz(),
    };
    if c == 0 || gershgorin == 0.0 {
        return (Vec::new(), info);
    }
    // Deterministic start vector with every component nonzero.
    let mut q = DVector::from_fn(c, |i, _| {
        1.0 + 0.5 * ((i as f64) * 0.618_033_988_749_894_9).fract()
    });
    q /= q.norm();
    let mut basis: Vec<DVector<f64>> = vec![q];
    let (mut alphas, mut betas): (Vec<f64>, Vec<f64>) = (Vec::new(), Vec::new());
    let max_steps = LANCZOS_MAX_STEPS.min(c);
    let mut result: (Vec<Mode>, usize) = (Vec::new(), 0);
    for step in 0..max_steps {
        let v = &basis[step];
        let mut w = matvec(a, &sk, v);
        let alpha = w.dot(v);
        alphas.push(alpha);
        // The three-term recurrence first, so that reorthogonalisation only
        // removes round-off.
        w.axpy(-alpha, v, 1.0);
        if step > 0 {
            w.axpy(-betas[step - 1], &basis[step - 1], 1.0);
        }
        // Full reorthogonalisation against the whole basis, repeated only
        // when cancellation was severe ("twice is enough", Kahan–Parlett):
        // the basis is the memory traffic of this loop.
        let mut before = w.norm();
        for _ in 0..2 {
            for b in &basis {
                let d = w.dot(b);
                w.axpy(-d, b, 1.0);
            }
            let after = w.norm();
            if after > 0.7 * before {
                break;
            }
            before = after;
        }
        let beta = w.norm();
        info.lanczos_steps = step + 1;
        let m = alphas.len();
        let check =
            m >= want.min(c) && (m % 10 == 0 || m == max_steps || beta <= 1e-14 * gershgorin);
        if check {
            let t = DMatrix::from_fn(m, m, |i, j| {
                if i == j {
                    alphas[i]
                } else if i + 1 == j || j + 1 == i {
                    betas[i.min(j)]
                } else {
                    0.0
                }
            });
            let eig = nalgebra::SymmetricEigen::new(t);
            let mut order: Vec<usize> = (0..m).collect();
            order.sort_by(|&x, &y| eig.eigenvalues[y].total_cmp(&eig.eigenvalues[x]));
            let top = eig.eigenvalues[order[0]].max(0.0);
            let mut modes = Vec::new();
            for &k in order.iter().take(want) {
                let theta = eig.eigenvalues[k];
                let residual = (beta * eig.eigenvectors[(m - 1, k)]).abs();
                if theta <= 0.0 || residual > LANCZOS_TOLERANCE * top {
                    break;
                }
                let u = basis
                    .iter()
                    .enumerate()
                    .fold(DVector::zeros(c), |acc, (b, vec)| {
                        acc + vec * eig.eigenvectors[(b, k)]
                    });
                let raw: Vec<f64> = (0..c).map(|i| u[i] / sk[i]).collect();
                modes.push(Mode {
                    omega: theta.sqrt(),
                    shape: super::modes::normalise_shape(&raw),
                });
            }
            let converged = modes.len();
            result = (modes, converged);
            if converged >= want.min(c) || beta <= 1e-14 * gershgorin {
                break;
            }
        }
        if beta <= 1e-14 * gershgorin {
            break;
        }
        betas.push(beta);
        basis.push(w / beta);
    }
    info.modes_converged = result.1;
    (result.0, info)
}
