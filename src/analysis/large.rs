//! The large-system path: whitened Jacobian in compressed rows, and the
//! fastest modes by thick-restart Lanczos.
//!
//! Above the dense limit the c×c matrix A is neither computable nor
//! readable. Here A is never formed: `S = K^½ A K^½ = (K^½ J̃)(K^½ J̃)ᵀ`
//! with `J̃ = J L⁻ᵀ` (whitened by each mass block's Cholesky factor) is
//! applied as two sparse products, `t = J̃ᵀ (K^½ x)` over the velocities
//! and `y = K^½ (J̃ t)` over the contacts, each parallel over its output
//! rows (rayon), so every number is summed in the same order on any number
//! of threads: results are bit-identical run to run.
//!
//! The fastest modes come from a thick-restart (Krylov–Schur) Lanczos
//! iteration with a basis of [`basis_size`] vectors: memory O(m·c) instead
//! of one vector per step, full re-orthogonalisation (classical
//! Gram–Schmidt, repeated once: "twice is enough") against the small
//! basis, restarts that keep the best Ritz vectors. A Ritz value θ with
//! Ritz vector residual `r = |β y_m|` has an eigenvalue within `r` of it
//! (symmetric matrices, Weyl); a mode is reported only when
//! `r ≤` [`LANCZOS_TOLERANCE`]`·θ_max`, so every reported ω is within
//! about half that relative error. When the fastest mode does not converge
//! within [`MAX_MATVECS`] products, ω_max falls back to the Gershgorin
//! bound `max_i Σ_j |S_ij|` (safe: never below the true value), and the
//! JSON says so.

use super::delassus::whitened_rows;
use super::{AnalysisError, Mode};
use crate::model::System;
use nalgebra::DMatrix;
use rayon::prelude::*;

/// Relative residual below which a Ritz value counts as converged.
pub const LANCZOS_TOLERANCE: f64 = 1e-10;
/// Most products with S before giving up on convergence.
pub const MAX_MATVECS: usize = 6000;
/// Rows per parallel work item (fixed, so sums do not depend on threads).
const CHUNK: usize = 8192;

/// A sparse matrix in compressed rows (32-bit column indices).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Csr {
    /// Number of columns.
    pub cols: usize,
    /// Start of each row in `col`/`val`, one more than rows.
    pub start: Vec<usize>,
    /// Column of each entry (increasing within a row).
    pub col: Vec<u32>,
    /// Value of each entry.
    pub val: Vec<f64>,
}

impl Csr {
    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.start.len().saturating_sub(1)
    }

    /// The entries of row `i`.
    pub fn row(&self, i: usize) -> (&[u32], &[f64]) {
        let r = self.start[i]..self.start[i + 1];
        (&self.col[r.clone()], &self.val[r])
    }

    /// Stored entries.
    pub fn nnz(&self) -> usize {
        self.val.len()
    }

    /// The transpose.
    pub fn transpose(&self) -> Csr {
        let mut count = vec![0usize; self.cols + 1];
        for &j in &self.col {
            count[j as usize + 1] += 1;
        }
        for j in 0..self.cols {
            count[j + 1] += count[j];
        }
        let start = count.clone();
        let mut next = count;
        let mut col = vec![0u32; self.nnz()];
        let mut val = vec![0.0; self.nnz()];
        for i in 0..self.rows() {
            let (cs, vs) = self.row(i);
            for (&j, &v) in cs.iter().zip(vs) {
                let at = next[j as usize];
                col[at] = i as u32;
                val[at] = v;
                next[j as usize] += 1;
            }
        }
        Csr {
            cols: self.rows(),
            start,
            col,
            val,
        }
    }

    /// `y = self · x`, parallel over rows.
    pub fn mul_into(&self, x: &[f64], y: &mut [f64]) {
        y.par_chunks_mut(CHUNK).enumerate().for_each(|(k, out)| {
            let base = k * CHUNK;
            for (r, o) in out.iter_mut().enumerate() {
                let (cs, vs) = self.row(base + r);
                let mut s = 0.0;
                for (&j, &v) in cs.iter().zip(vs) {
                    s += v * x[j as usize];
                }
                *o = s;
            }
        });
    }

    /// Dot product of rows `i` and `j`.
    pub fn row_dot(&self, i: usize, j: usize) -> f64 {
        let (ci, vi) = self.row(i);
        let (cj, vj) = self.row(j);
        let (mut a, mut b, mut s) = (0, 0, 0.0);
        while a < ci.len() && b < cj.len() {
            match ci[a].cmp(&cj[b]) {
                std::cmp::Ordering::Less => a += 1,
                std::cmp::Ordering::Greater => b += 1,
                std::cmp::Ordering::Equal => {
                    s += vi[a] * vj[b];
                    a += 1;
                    b += 1;
                }
            }
        }
        s
    }
}

/// The whitened Jacobian `J̃ = J L⁻ᵀ` of the large path, with its
/// transpose, so that `A = J̃ J̃ᵀ` is applied without being formed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Whitened {
    /// `J̃`, one row per contact.
    pub rows: Csr,
    /// `J̃ᵀ`, one row per velocity.
    pub cols: Csr,
}

impl Whitened {
    /// Entry (i, j) of A.
    pub fn a(&self, i: usize, j: usize) -> f64 {
        self.rows.row_dot(i, j)
    }

    /// `A_ii` for every contact.
    pub fn diagonal(&self) -> Vec<f64> {
        (0..self.rows.rows())
            .map(|i| self.rows.row(i).1.iter().map(|v| v * v).sum())
            .collect()
    }
}

/// What the large path found beyond the common results.
#[derive(Clone, Debug, PartialEq)]
pub struct LargeInfo {
    /// Products with S.
    pub lanczos_steps: usize,
    /// Restarts of the Lanczos basis.
    pub restarts: usize,
    /// Basis size.
    pub basis: usize,
    /// Modes asked for.
    pub modes_requested: usize,
    /// How many of the fastest modes converged (in order from the fastest).
    pub modes_converged: usize,
    /// `sqrt(max_i Σ_j |S_ij|)`, a safe upper bound on ω_max.
    pub gershgorin_omega: f64,
    /// Largest relative residual of a reported mode (bounds the relative
    /// error of its λ = ω²).
    pub max_residual: f64,
    /// Stored entries of the whitened Jacobian.
    pub nnz: usize,
}

/// The whitened Jacobian of a system without constraints, and `A_ii`.
pub fn whitened(system: &System<f64>) -> Result<(Whitened, Vec<f64>), AnalysisError> {
    if !system.constraints.is_empty() {
        return Err(AnalysisError::TooLarge {
            contacts: system.jacobian.len(),
        });
    }
    let jt = whitened_rows(system)?;
    let n = system.n_dofs();
    let mut rows = Csr {
        cols: n,
        start: Vec::with_capacity(jt.len() + 1),
        col: Vec::new(),
        val: Vec::new(),
    };
    rows.start.push(0);
    for r in &jt {
        let mut entries: Vec<(usize, f64)> = r.iter().filter(|e| e.1 != 0.0).copied().collect();
        entries.sort_by_key(|e| e.0);
        for (j, v) in entries {
            rows.col.push(j as u32);
            rows.val.push(v);
        }
        rows.start.push(rows.col.len());
    }
    drop(jt);
    let w = Whitened {
        cols: rows.transpose(),
        rows,
    };
    let diag = w.diagonal();
    // A contact's row of A, for the range checks: only its diagonal and
    // the entries shared through its bodies can overflow.
    for i in 0..diag.len() {
        let (cs, vs) = w.rows.row(i);
        let row: Vec<(usize, f64)> = cs
            .iter()
            .map(|&j| j as usize)
            .zip(vs.iter().copied())
            .collect();
        super::check_range(i, &row, diag[i], std::iter::empty())?;
    }
    Ok((w, diag))
}

/// `S = K^½ J̃ J̃ᵀ K^½` applied to vectors.
struct Operator<'a> {
    w: &'a Whitened,
    sk: Vec<f64>,
    scratch_in: Vec<f64>,
    t: Vec<f64>,
    products: usize,
}

impl Operator<'_> {
    fn apply(&mut self, x: &[f64], y: &mut [f64]) {
        self.products += 1;
        let sk = &self.sk;
        self.scratch_in
            .par_chunks_mut(CHUNK)
            .zip(x.par_chunks(CHUNK))
            .enumerate()
            .for_each(|(k, (o, xs))| {
                for (r, (o, xv)) in o.iter_mut().zip(xs).enumerate() {
                    *o = sk[k * CHUNK + r] * xv;
                }
            });
        self.w.cols.mul_into(&self.scratch_in, &mut self.t);
        self.w.rows.mul_into(&self.t, y);
        y.par_chunks_mut(CHUNK).enumerate().for_each(|(k, o)| {
            for (r, v) in o.iter_mut().enumerate() {
                *v *= sk[k * CHUNK + r];
            }
        });
    }
}

/// A dot product summed in fixed chunks (same bits on any thread count).
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.par_chunks(CHUNK)
        .zip(b.par_chunks(CHUNK))
        .map(|(x, y)| x.iter().zip(y).map(|(p, q)| p * q).sum::<f64>())
        .collect::<Vec<f64>>()
        .iter()
        .sum()
}

/// `h = Vᵀ w` for the first `j` basis vectors in one pass over the rows.
fn project(basis: &[Vec<f64>], w: &[f64]) -> Vec<f64> {
    let j = basis.len();
    let parts: Vec<Vec<f64>> = (0..w.len().div_ceil(CHUNK))
        .into_par_iter()
        .map(|k| {
            let r = k * CHUNK..((k + 1) * CHUNK).min(w.len());
            let ws = &w[r.clone()];
            basis
                .iter()
                .map(|v| v[r.clone()].iter().zip(ws).map(|(p, q)| p * q).sum())
                .collect()
        })
        .collect();
    let mut h = vec![0.0; j];
    for p in parts {
        for (a, b) in h.iter_mut().zip(p) {
            *a += b;
        }
    }
    h
}

/// Removes from `w` its components along the basis (classical Gram–Schmidt
/// with one repetition when the first pass cancelled more than 1/√2 of
/// the norm, Daniel–Gragg–Kaufman–Stewart), and returns the coefficients.
/// The second projection is fused with the first subtraction, so the basis
/// is read two or three times, not four.
fn orthogonalise(basis: &[Vec<f64>], w: &mut [f64]) -> Vec<f64> {
    let before = dot(w, w).sqrt();
    let mut h = project(basis, w);
    let (h2, after2) = subtract_project(basis, &h, w);
    if after2.sqrt() < std::f64::consts::FRAC_1_SQRT_2 * before {
        subtract(basis, &h2, w);
        for (a, b) in h.iter_mut().zip(h2) {
            *a += b;
        }
    }
    h
}

/// `w -= V h`, returning `Vᵀ w` and `wᵀ w` of the result in the same pass.
fn subtract_project(basis: &[Vec<f64>], h: &[f64], w: &mut [f64]) -> (Vec<f64>, f64) {
    let j = basis.len();
    let parts: Vec<(Vec<f64>, f64)> = w
        .par_chunks_mut(CHUNK)
        .enumerate()
        .map(|(k, ws)| {
            let base = k * CHUNK;
            for (v, &c) in basis.iter().zip(h) {
                let vs = &v[base..base + ws.len()];
                for (o, x) in ws.iter_mut().zip(vs) {
                    *o -= c * x;
                }
            }
            let dots: Vec<f64> = basis
                .iter()
                .map(|v| {
                    v[base..base + ws.len()]
                        .iter()
                        .zip(ws.iter())
                        .map(|(p, q)| p * q)
                        .sum()
                })
                .collect();
            (dots, ws.iter().map(|x| x * x).sum())
        })
        .collect();
    let mut out = vec![0.0; j];
    let mut norm2 = 0.0;
    for (p, n) in parts {
        for (a, b) in out.iter_mut().zip(p) {
            *a += b;
        }
        norm2 += n;
    }
    (out, norm2)
}

/// `w -= V h`.
fn subtract(basis: &[Vec<f64>], h: &[f64], w: &mut [f64]) {
    w.par_chunks_mut(CHUNK).enumerate().for_each(|(k, ws)| {
        let base = k * CHUNK;
        for (v, &c) in basis.iter().zip(h) {
            let vs = &v[base..base + ws.len()];
            for (o, x) in ws.iter_mut().zip(vs) {
                *o -= c * x;
            }
        }
    });
}

/// `V Y[:, cols]`: new vectors as combinations of the basis.
fn combine(basis: &[Vec<f64>], y: &DMatrix<f64>, cols: &[usize]) -> Vec<Vec<f64>> {
    let c = basis[0].len();
    let mut out: Vec<Vec<f64>> = cols.iter().map(|_| vec![0.0; c]).collect();
    let m = basis.len().min(y.nrows());
    // Row chunks in parallel; each output chunk is written by one task.
    let chunks: Vec<Vec<Vec<f64>>> = (0..c.div_ceil(CHUNK))
        .into_par_iter()
        .map(|k| {
            let r = k * CHUNK..((k + 1) * CHUNK).min(c);
            cols.iter()
                .map(|&col| {
                    let mut acc = vec![0.0; r.len()];
                    for b in 0..m {
                        let coef = y[(b, col)];
                        for (a, x) in acc.iter_mut().zip(&basis[b][r.clone()]) {
                            *a += coef * x;
                        }
                    }
                    acc
                })
                .collect()
        })
        .collect();
    for (k, part) in chunks.into_iter().enumerate() {
        for (o, p) in out.iter_mut().zip(part) {
            o[k * CHUNK..k * CHUNK + p.len()].copy_from_slice(&p);
        }
    }
    out
}

/// Basis size of the thick-restart Lanczos for `want` modes.
pub fn basis_size(want: usize) -> usize {
    (2 * want + 8).max(20)
}

/// The fastest `want` modes of `S = K^½ A K^½` (only converged ones), and
/// facts about the run.
pub fn fastest_modes(w: &Whitened, stiffness: &[f64], want: usize) -> (Vec<Mode>, LargeInfo) {
    let c = stiffness.len();
    let sk: Vec<f64> = stiffness.iter().map(|k| k.sqrt()).collect();
    let gershgorin = gershgorin(w, &sk);
    crate::timing::mark("gershgorin");
    let (mut t_op, mut t_orth) = (std::time::Duration::ZERO, std::time::Duration::ZERO);
    let m = basis_size(want).min(c.saturating_sub(1)).max(1);
    let mut info = LargeInfo {
        lanczos_steps: 0,
        restarts: 0,
        basis: m,
        modes_requested: want,
        modes_converged: 0,
        gershgorin_omega: gershgorin.sqrt(),
        max_residual: 0.0,
        nnz: w.rows.nnz(),
    };
    let want = want.min(m.saturating_sub(1)).max(1);
    if c < 2 || gershgorin == 0.0 {
        return (Vec::new(), info);
    }
    let mut op = Operator {
        w,
        sk: sk.clone(),
        scratch_in: vec![0.0; c],
        t: vec![0.0; w.cols.rows()],
        products: 0,
    };
    // Deterministic start vector with every component nonzero.
    let mut v0: Vec<f64> = (0..c)
        .map(|i| 1.0 + 0.5 * ((i as f64) * 0.618_033_988_749_894_9).fract())
        .collect();
    let n0 = dot(&v0, &v0).sqrt();
    v0.iter_mut().for_each(|x| *x /= n0);
    let mut basis: Vec<Vec<f64>> = vec![v0];
    let mut t = DMatrix::<f64>::zeros(m, m);
    let mut kept = 0usize;
    let mut w_vec = vec![0.0; c];
    loop {
        // Extend the basis from `kept` to `m` vectors.
        let mut beta = 0.0;
        let mut size = m;
        for j in kept..m {
            let t0 = std::time::Instant::now();
            op.apply(&basis[j], &mut w_vec);
            t_op += t0.elapsed();
            let t0 = std::time::Instant::now();
            let h = orthogonalise(&basis, &mut w_vec);
            for (i, &hi) in h.iter().enumerate() {
                t[(i, j)] = hi;
                t[(j, i)] = hi;
            }
            beta = dot(&w_vec, &w_vec).sqrt();
            t_orth += t0.elapsed();
            if beta <= 1e-14 * gershgorin {
                // An invariant subspace: the Ritz values are exact.
                size = j + 1;
                beta = 0.0;
                break;
            }
            let next: Vec<f64> = w_vec.iter().map(|x| x / beta).collect();
            if j + 1 < m {
                t[(j + 1, j)] = beta;
                t[(j, j + 1)] = beta;
            }
            basis.push(next);
        }
        info.lanczos_steps = op.products;
        let ts = t.view((0, 0), (size, size)).into_owned();
        let eig = nalgebra::SymmetricEigen::new(ts);
        let mut order: Vec<usize> = (0..size).collect();
        order.sort_by(|&x, &y| eig.eigenvalues[y].total_cmp(&eig.eigenvalues[x]));
        let top = eig.eigenvalues[order[0]].max(0.0);
        let residual = |k: usize| (beta * eig.eigenvectors[(size - 1, k)]).abs();
        let converged = order
            .iter()
            .take(want)
            .take_while(|&&k| eig.eigenvalues[k] > 0.0 && residual(k) <= LANCZOS_TOLERANCE * top)
            .count();
        let done = converged >= want || beta == 0.0 || op.products >= MAX_MATVECS;
        if done {
            crate::timing::detail(&format!(
                "products {:.3} s, orthogonalisation {:.3} s",
                t_op.as_secs_f64(),
                t_orth.as_secs_f64()
            ));
            let cols: Vec<usize> = order.iter().take(converged).copied().collect();
            let vectors = if cols.is_empty() {
                Vec::new()
            } else {
                combine(&basis[..size], &eig.eigenvectors, &cols)
            };
            let modes = cols
                .iter()
                .zip(vectors)
                .map(|(&k, u)| {
                    let raw: Vec<f64> = u.iter().zip(&sk).map(|(x, s)| x / s).collect();
                    Mode {
                        omega: eig.eigenvalues[k].sqrt(),
                        shape: super::modes::normalise_shape(&raw),
                    }
                })
                .collect::<Vec<_>>();
            info.modes_converged = modes.len();
            info.max_residual = cols.iter().map(|&k| residual(k) / top).fold(0.0, f64::max);
            return (modes, info);
        }
        // Thick restart: keep the best Ritz vectors and the residual
        // direction; T becomes diag(θ) bordered by the couplings β y_m.
        info.restarts += 1;
        kept = (want + (m - want) / 2).min(m - 1);
        let cols: Vec<usize> = order.iter().take(kept).copied().collect();
        let mut new_basis = combine(&basis[..size], &eig.eigenvectors, &cols);
        new_basis.push(basis.pop().expect("the residual direction"));
        basis = new_basis;
        t.fill(0.0);
        for (i, &k) in cols.iter().enumerate() {
            t[(i, i)] = eig.eigenvalues[k];
            let s = beta * eig.eigenvectors[(size - 1, k)];
            t[(i, kept)] = s;
            t[(kept, i)] = s;
        }
    }
}

/// `max_i (|S̃| 1)_i` with `|S̃| = |K^½ J̃| |K^½ J̃|ᵀ` (entrywise absolute
/// values): each row sum is at least the Gershgorin row sum `Σ_j |S_ij|`
/// (triangle inequality), so this bounds λ_max from above, computed with
/// two sparse products in O(nnz).
fn gershgorin(w: &Whitened, sk: &[f64]) -> f64 {
    let abs = |m: &Csr| Csr {
        cols: m.cols,
        start: m.start.clone(),
        col: m.col.clone(),
        val: m.val.iter().map(|v| v.abs()).collect(),
    };
    let (rows, cols) = (abs(&w.rows), abs(&w.cols));
    let mut t = vec![0.0; cols.rows()];
    cols.mul_into(sk, &mut t);
    let mut y = vec![0.0; rows.rows()];
    rows.mul_into(&t, &mut y);
    y.iter().zip(sk).map(|(v, s)| v * s).fold(0.0, f64::max)
}
