//! The large-system path: the coupled stiffness matrix in compressed rows,
//! and the fastest modes by thick-restart Lanczos.
//!
//! Above the dense limit the c×c matrix A is not formed as a dense matrix.
//! It is sparse, though: contacts couple only through shared bodies, so
//! `S = K^½ A K^½ = (K^½ J̃)(K^½ J̃)ᵀ` (`J̃ = J L⁻ᵀ`, whitened by each mass
//! block's Cholesky factor) has about `deg(b₁) + deg(b₂) − 1` entries per
//! row. It is formed once from J̃ and its transpose and kept in compressed
//! rows (both triangles), so that a product `S x` is one pass over its
//! entries, each output row computed by one task (rayon, fixed chunks):
//! the same bits on any number of threads. That reads about half the bytes
//! of applying J̃ᵀ and then J̃ (each entry of J̃ is met twice there).
//!
//! The fastest modes come from a thick-restart (Krylov–Schur) Lanczos
//! iteration with a basis of [`basis_size`] vectors: memory O(m·c) instead
//! of one vector per step, full re-orthogonalisation (classical
//! Gram–Schmidt, repeated once when it cancelled much: "twice is enough")
//! against the small basis, restarts that keep the best Ritz vectors. A
//! Ritz value θ with Ritz vector residual `r = |β y_m|` has an eigenvalue
//! within `r` of it (symmetric matrices, Weyl); a mode is reported only
//! when `r ≤` [`LANCZOS_TOLERANCE`]`·θ_max`, so every reported ω is within
//! about half that relative error. When the fastest mode does not
//! converge within [`MAX_MATVECS`] products, ω_max falls back to the
//! Gershgorin bound `max_i Σ_j |S_ij|` (safe: never below the true value),
//! and the JSON says so. Vectors are summed with four partial sums per
//! chunk (fixed, so still the same bits everywhere) so that the sums run at
//! memory speed rather than at the latency of one addition after another.

use super::delassus::Whitener;
use super::{AnalysisError, Mode};
use crate::model::SparseRow;
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

    /// Rows `base..base + out.len()` of `self · x` into `out`.
    #[inline]
    fn rows_into(&self, base: usize, x: &[f64], out: &mut [f64]) {
        for (r, o) in out.iter_mut().enumerate() {
            let (cs, vs) = self.row(base + r);
            // Two partial sums (fixed order): independent additions.
            let (mut s0, mut s1) = (0.0, 0.0);
            let (cp, vp) = (cs.chunks_exact(2), vs.chunks_exact(2));
            let tail = cp.remainder().iter().zip(vp.remainder());
            for (c2, v2) in cp.zip(vp) {
                s0 += v2[0] * x[c2[0] as usize];
                s1 += v2[1] * x[c2[1] as usize];
            }
            for (&j, &v) in tail {
                s0 += v * x[j as usize];
            }
            *o = s0 + s1;
        }
    }
}

/// What the large path found beyond the common results.
#[derive(Clone, Debug, PartialEq)]
pub struct LargeInfo {
    /// Products with S.
    pub lanczos_steps: usize,
    /// Restarts of the Lanczos basis.
    pub restarts: usize,
    /// Basis size at the end (it starts at [`basis_size`] and doubles
    /// when convergence stalls).
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
    /// Stored entries of S (both triangles).
    pub nnz: usize,
}

/// The coupled stiffness matrix `S = K^½ J̃ J̃ᵀ K^½` of the large path
/// (A is `S_ij / √(k_i k_j)`), with `A_ii` as computed from J̃.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Coupled {
    /// S, both triangles, columns increasing within a row.
    pub s: BlockCsr,
    /// `√k_i`.
    pub sqrt_k: Vec<f64>,
    /// `A_ii = |J̃_i|²`.
    pub diag: Vec<f64>,
}

impl Coupled {
    /// Entry (i, j) of A.
    pub fn a(&self, i: usize, j: usize) -> f64 {
        if i == j {
            return self.diag[i];
        }
        let (cs, vs) = self.s.row(i);
        match cs.binary_search(&(j as u32)) {
            Ok(p) => vs[p] / (self.sqrt_k[i] * self.sqrt_k[j]),
            Err(_) => 0.0,
        }
    }

    /// `max_i Σ_j |S_ij|`: the Gershgorin bound on λ_max(S).
    pub fn gershgorin(&self) -> f64 {
        (0..self.s.rows())
            .into_par_iter()
            .map(|i| self.s.row(i).1.iter().map(|v| v.abs()).sum::<f64>())
            .reduce(|| 0.0, f64::max)
    }
}

/// S and `A_ii` of a system without constraints, for stiffnesses `k`,
/// from its stored Jacobian rows.
pub fn coupled(system: &System<f64>, stiffness: &[f64]) -> Result<Coupled, AnalysisError> {
    coupled_with(system, stiffness, |i| system.jacobian[i].clone())
}

/// S and `A_ii` of a system without constraints (its mass blocks), for
/// stiffnesses `k`, with contact `i`'s Jacobian row given by `row(i)`.
/// Rows are whitened in parallel chunks and joined in order; the first
/// out-of-range row (in contact order) is the error.
pub fn coupled_with(
    system: &System<f64>,
    stiffness: &[f64],
    row: impl Fn(usize) -> SparseRow<f64> + Sync,
) -> Result<Coupled, AnalysisError> {
    let c = stiffness.len();
    if !system.constraints.is_empty() {
        return Err(AnalysisError::TooLarge { contacts: c });
    }
    let whitener = Whitener::new(system)?;
    type Part = (Vec<usize>, Vec<u32>, Vec<f64>, Vec<f64>);
    let parts: Vec<Result<Part, AnalysisError>> = (0..c.div_ceil(CHUNK))
        .into_par_iter()
        .map(|k| {
            let (mut lens, mut cols, mut vals, mut diag) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            let mut r = Vec::new();
            for i in k * CHUNK..((k + 1) * CHUNK).min(c) {
                r.clear();
                whitener.whiten_into(&row(i), &mut r);
                r.retain(|e| e.1 != 0.0);
                r.sort_by_key(|e| e.0);
                let d: f64 = r.iter().map(|(_, v)| v * v).sum();
                // A row's own entries and diagonal; S is checked entry by
                // entry below.
                super::check_range(i, &r, d, std::iter::empty())?;
                diag.push(d);
                lens.push(r.len());
                for &(j, v) in &r {
                    cols.push(j as u32);
                    vals.push(v);
                }
            }
            Ok((lens, cols, vals, diag))
        })
        .collect();
    drop(whitener);
    crate::timing::mark("whiten-rows");
    let mut w = Csr {
        cols: system.n_dofs(),
        start: Vec::with_capacity(c + 1),
        col: Vec::new(),
        val: Vec::new(),
    };
    w.start.push(0);
    let mut diag = Vec::with_capacity(c);
    for part in parts {
        let (lens, cols, vals, d) = part?;
        for l in lens {
            w.start.push(w.start.last().copied().unwrap_or(0) + l);
        }
        w.col.extend(cols);
        w.val.extend(vals);
        diag.extend(d);
    }
    let sqrt_k: Vec<f64> = stiffness.iter().map(|k| k.sqrt()).collect();
    let s = gram(&w, &sqrt_k);
    crate::timing::mark("gram");
    drop(w);
    for i in 0..c {
        if let Some(v) = s.row(i).1.iter().find(|v| !v.is_finite()) {
            return Err(AnalysisError::OutOfRange {
                contact: i,
                what: format!("an entry of K^½ A K^½ is {v}"),
            });
        }
    }
    Ok(Coupled { s, sqrt_k, diag })
}

/// `D W Wᵀ D` (D = diag(d)) in compressed rows. Row i sums, over its
/// entries (v, a) and the rows j that share column v with entry b, the
/// products `a b` in a fixed order (columns of row i increasing, then rows
/// j increasing), so the result does not depend on threads.
fn gram(w: &Csr, d: &[f64]) -> BlockCsr {
    let t = w.transpose();
    crate::timing::mark("transpose");
    let c = w.rows();
    type Part = (Vec<usize>, Vec<u32>, Vec<f64>);
    // Gustavson's row-by-row product with a dense accumulator per task:
    // the same additions in the same order as merging the products by
    // column (columns of row i increasing, then rows j increasing), so the
    // bits do not depend on threads; only the distinct columns are sorted.
    let parts: Vec<Part> = (0..c.div_ceil(CHUNK))
        .into_par_iter()
        .map_init(
            || (vec![0.0f64; c], vec![0u32; c]),
            |(acc, seen), k| {
                let mut lens = Vec::with_capacity(CHUNK);
                let mut cols = Vec::new();
                let mut vals = Vec::new();
                let mut touched: Vec<u32> = Vec::new();
                for i in k * CHUNK..((k + 1) * CHUNK).min(c) {
                    // `seen[j] == i + 1` marks j as touched by row i.
                    let mark = i as u32 + 1;
                    touched.clear();
                    let (cs, vs) = w.row(i);
                    for (&v, &a) in cs.iter().zip(vs) {
                        let (js, bs) = t.row(v as usize);
                        for (&j, &b) in js.iter().zip(bs) {
                            let ju = j as usize;
                            if seen[ju] == mark {
                                acc[ju] += a * b;
                            } else {
                                seen[ju] = mark;
                                acc[ju] = a * b;
                                touched.push(j);
                            }
                        }
                    }
                    touched.sort_unstable();
                    for &j in &touched {
                        cols.push(j);
                        vals.push(d[i] * acc[j as usize] * d[j as usize]);
                    }
                    lens.push(touched.len());
                }
                (lens, cols, vals)
            },
        )
        .collect();
    let blocks = parts
        .into_iter()
        .map(|(lens, mut col, mut val)| {
            col.shrink_to_fit();
            val.shrink_to_fit();
            let mut start = Vec::with_capacity(lens.len() + 1);
            start.push(0);
            let mut at = 0;
            for l in lens {
                at += l;
                start.push(at);
            }
            Csr {
                cols: c,
                start,
                col,
                val,
            }
        })
        .collect();
    BlockCsr { rows: c, blocks }
}

/// A square sparse matrix in compressed rows, kept as the blocks of
/// [`CHUNK`] rows each task built (no copy into one array: at 10⁶ contacts
/// that copy was 0.5 GB of peak memory).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockCsr {
    /// Number of rows (and columns).
    pub rows: usize,
    /// Rows `k·CHUNK ..` of block k, with block-local row starts.
    pub blocks: Vec<Csr>,
}

impl BlockCsr {
    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The entries of row `i`.
    pub fn row(&self, i: usize) -> (&[u32], &[f64]) {
        self.blocks[i / CHUNK].row(i % CHUNK)
    }

    /// Stored entries.
    pub fn nnz(&self) -> usize {
        self.blocks.iter().map(Csr::nnz).sum()
    }

    /// `y = self · x`, returning `xᵀ y` from the same pass (per-block sums
    /// added in block order).
    pub fn mul_dot(&self, x: &[f64], y: &mut [f64]) -> f64 {
        y.par_chunks_mut(CHUNK)
            .zip(self.blocks.par_iter())
            .enumerate()
            .map(|(k, (out, b))| {
                b.rows_into(0, x, out);
                let base = k * CHUNK;
                dot4(&x[base..base + out.len()], out)
            })
            .collect::<Vec<f64>>()
            .iter()
            .sum()
    }
}

/// A sum of products in four interleaved partial sums (a fixed order, so
/// the same bits everywhere; independent additions, so it vectorises).
#[inline]
fn dot4(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..4 {
            acc[k] += x[k] * y[k];
        }
    }
    let mut tail = 0.0;
    for (x, y) in ra.iter().zip(rb) {
        tail += x * y;
    }
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}

/// A dot product summed in fixed chunks (same bits on any thread count).
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.par_chunks(CHUNK)
        .zip(b.par_chunks(CHUNK))
        .map(|(x, y)| dot4(x, y))
        .collect::<Vec<f64>>()
        .iter()
        .sum()
}

/// Sums per-chunk vectors in chunk order.
fn sum_parts(parts: Vec<(Vec<f64>, f64)>, j: usize) -> (Vec<f64>, f64) {
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

/// `h = Vᵀ w` and `wᵀ w` in one pass over the rows.
fn project(basis: &[Vec<f64>], w: &[f64]) -> (Vec<f64>, f64) {
    let parts: Vec<(Vec<f64>, f64)> = w
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(k, ws)| {
            let r = k * CHUNK..k * CHUNK + ws.len();
            let h = basis.iter().map(|v| dot4(&v[r.clone()], ws)).collect();
            (h, dot4(ws, ws))
        })
        .collect();
    sum_parts(parts, basis.len())
}

/// `ws -= Σ_b h_b V_b[r]`, two basis vectors per sweep over `ws`.
#[inline]
fn axpy_all(basis: &[Vec<f64>], h: &[f64], r: std::ops::Range<usize>, ws: &mut [f64]) {
    let mut b = 0;
    while b + 1 < basis.len() {
        let (v1, v2) = (&basis[b][r.clone()], &basis[b + 1][r.clone()]);
        let (c1, c2) = (h[b], h[b + 1]);
        for ((o, x), y) in ws.iter_mut().zip(v1).zip(v2) {
            *o -= c1 * x + c2 * y;
        }
        b += 2;
    }
    if b < basis.len() {
        let c1 = h[b];
        for (o, x) in ws.iter_mut().zip(&basis[b][r]) {
            *o -= c1 * x;
        }
    }
}

/// `w -= V h`, returning `wᵀ w` of the result.
fn subtract(basis: &[Vec<f64>], h: &[f64], w: &mut [f64]) -> f64 {
    w.par_chunks_mut(CHUNK)
        .enumerate()
        .map(|(k, ws)| {
            axpy_all(basis, h, k * CHUNK..k * CHUNK + ws.len(), ws);
            dot4(ws, ws)
        })
        .collect::<Vec<f64>>()
        .iter()
        .sum()
}

/// `w -= Σ c V_i` over the `(i, c)` given, returning `Vᵀ w` and `wᵀ w`
/// of the result in the same pass.
fn subtract_some_project(
    basis: &[Vec<f64>],
    known: &[(usize, f64)],
    w: &mut [f64],
) -> (Vec<f64>, f64) {
    let parts: Vec<(Vec<f64>, f64)> = w
        .par_chunks_mut(CHUNK)
        .enumerate()
        .map(|(k, ws)| {
            let r = k * CHUNK..k * CHUNK + ws.len();
            for &(i, c) in known {
                for (o, x) in ws.iter_mut().zip(&basis[i][r.clone()]) {
                    *o -= c * x;
                }
            }
            let dots = basis.iter().map(|v| dot4(&v[r.clone()], ws)).collect();
            (dots, dot4(ws, ws))
        })
        .collect();
    sum_parts(parts, basis.len())
}

/// Removes from `w = S v_j` its components along the basis. In exact
/// arithmetic they are known: column j of T (`α_j`, `β_{j−1}`, or the
/// couplings of the kept Ritz vectors right after a restart), so the first
/// pass subtracts those few and measures what is left along every basis
/// vector; the second removes that remainder (full re-orthogonalisation,
/// classical Gram–Schmidt) and measures the norm. When that cancels more
/// than half of |w|² a third pass repeats it (Daniel–Gragg–Kaufman–
/// Stewart). The basis is read twice per step, rarely three times.
/// Returns the coefficients (column j of T) and |w|² of the result.
fn orthogonalise(basis: &[Vec<f64>], known: &[(usize, f64)], w: &mut [f64]) -> (Vec<f64>, f64) {
    let (h2, before2) = subtract_some_project(basis, known, w);
    let mut h = vec![0.0; basis.len()];
    for &(i, c) in known {
        h[i] += c;
    }
    let mut norm2 = subtract(basis, &h2, w);
    for (a, b) in h.iter_mut().zip(&h2) {
        *a += b;
    }
    if norm2 < 0.5 * before2 {
        let (h3, _) = project(basis, w);
        norm2 = subtract(basis, &h3, w);
        for (a, b) in h.iter_mut().zip(h3) {
            *a += b;
        }
    }
    (h, norm2)
}

/// Replaces the first `cols.len()` basis vectors by `V Y[:, cols]`, in
/// place: each chunk of rows is combined into a small buffer and written
/// back, so no second set of vectors is needed. Chunks small enough that a
/// chunk of every basis vector stays in cache; each element is the same
/// sum in the same order whatever the chunking.
fn combine_in_place(basis: &mut [Vec<f64>], y: &DMatrix<f64>, cols: &[usize]) {
    const CHUNK: usize = 1024;
    let m = basis.len().min(y.nrows());
    let coef: Vec<Vec<f64>> = cols
        .iter()
        .map(|&col| (0..m).map(|b| y[(b, col)]).collect())
        .collect();
    let c = basis[0].len();
    // Chunk k of every vector, gathered per chunk (disjoint borrows).
    let mut chunked: Vec<Vec<&mut [f64]>> = (0..c.div_ceil(CHUNK)).map(|_| Vec::new()).collect();
    for v in basis[..m].iter_mut() {
        for (k, part) in v.chunks_mut(CHUNK).enumerate() {
            chunked[k].push(part);
        }
    }
    chunked.into_par_iter().for_each(|mut parts| {
        let n = parts[0].len();
        let mut buf = vec![0.0; coef.len() * n];
        for (o, cf) in buf.chunks_mut(n).zip(&coef) {
            for (b, &a) in cf.iter().enumerate() {
                for (x, v) in o.iter_mut().zip(parts[b].iter()) {
                    *x += a * v;
                }
            }
        }
        for (o, part) in buf.chunks(n).zip(parts.iter_mut()) {
            part.copy_from_slice(o);
        }
    });
}

/// Basis size of the thick-restart Lanczos for `want` modes (to start).
pub fn basis_size(want: usize) -> usize {
    (2 * want + 8).max(20)
}

/// Restarts without a newly converged mode before the basis doubles.
const STALL_RESTARTS: usize = 8;
/// The basis grows up to this many vectors…
const MAX_BASIS: usize = 160;
/// …or this many bytes of vectors, whichever is smaller.
const MAX_BASIS_BYTES: usize = 1 << 29;

/// Largest basis for `c` contacts.
fn max_basis(c: usize, start: usize) -> usize {
    (MAX_BASIS_BYTES / (8 * c.max(1)))
        .min(MAX_BASIS)
        .max(start)
        .min(c.saturating_sub(1).max(1))
}

/// The fastest `want` modes of `S = K^½ A K^½` (only converged ones), and
/// facts about the run.
pub fn fastest_modes(cp: &Coupled, want: usize) -> (Vec<Mode>, LargeInfo) {
    let s = &cp.s;
    let c = s.rows();
    let gershgorin = cp.gershgorin();
    crate::timing::mark("gershgorin");
    let (mut t_op, mut t_orth, mut t_restart) = (
        std::time::Duration::ZERO,
        std::time::Duration::ZERO,
        std::time::Duration::ZERO,
    );
    let mut m = basis_size(want).min(c.saturating_sub(1)).max(1);
    let m_max = max_basis(c, m);
    let mut info = LargeInfo {
        lanczos_steps: 0,
        restarts: 0,
        basis: m,
        modes_requested: want,
        modes_converged: 0,
        gershgorin_omega: gershgorin.sqrt(),
        max_residual: 0.0,
        nnz: s.nnz(),
    };
    let want = want.min(m.saturating_sub(1)).max(1);
    if c < 2 || gershgorin == 0.0 {
        return (Vec::new(), info);
    }
    // Deterministic start vector with every component nonzero.
    let mut v0: Vec<f64> = (0..c)
        .map(|i| 1.0 + 0.5 * ((i as f64) * 0.618_033_988_749_894_9).fract())
        .collect();
    let n0 = dot(&v0, &v0).sqrt();
    v0.iter_mut().for_each(|x| *x /= n0);
    let mut basis: Vec<Vec<f64>> = Vec::with_capacity(m + 1);
    basis.push(v0);
    // Vectors are recycled: no page faults or zeroing after the first pass.
    let mut pool: Vec<Vec<f64>> = Vec::new();
    let mut t = DMatrix::<f64>::zeros(m, m);
    let mut kept = 0usize;
    let mut products = 0usize;
    // Clustered fastest modes converge slowly with a small basis: after
    // STALL_RESTARTS restarts without progress the basis doubles.
    let (mut best, mut stall) = (0usize, 0usize);
    let mut basis_sum = 0usize;
    loop {
        // Extend the basis from `kept` to `m` vectors.
        let mut beta = 0.0;
        let mut size = m;
        for j in kept..m {
            let t0 = std::time::Instant::now();
            let mut w = pool.pop().unwrap_or_else(|| vec![0.0; c]);
            t[(j, j)] = s.mul_dot(&basis[j], &mut w);
            products += 1;
            t_op += t0.elapsed();
            let t0 = std::time::Instant::now();
            let known: Vec<(usize, f64)> = (0..=j)
                .map(|i| (i, t[(i, j)]))
                .filter(|&(_, v)| v != 0.0)
                .collect();
            let (h, norm2) = orthogonalise(&basis, &known, &mut w);
            basis_sum += basis.len();
            for (i, &hi) in h.iter().enumerate() {
                t[(i, j)] = hi;
                t[(j, i)] = hi;
            }
            beta = norm2.sqrt();
            if beta <= 1e-14 * gershgorin {
                // An invariant subspace: the Ritz values are exact.
                size = j + 1;
                beta = 0.0;
                pool.push(w);
                t_orth += t0.elapsed();
                break;
            }
            let inv = 1.0 / beta;
            w.par_chunks_mut(CHUNK)
                .for_each(|o| o.iter_mut().for_each(|x| *x *= inv));
            if j + 1 < m {
                t[(j + 1, j)] = beta;
                t[(j, j + 1)] = beta;
            }
            basis.push(w);
            t_orth += t0.elapsed();
        }
        let t0 = std::time::Instant::now();
        info.lanczos_steps = products;
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
        let done = converged >= want || beta == 0.0 || products >= MAX_MATVECS;
        if done {
            let cols: Vec<usize> = order.iter().take(converged).copied().collect();
            if !cols.is_empty() {
                combine_in_place(&mut basis[..size], &eig.eigenvectors, &cols);
            }
            let modes = cols
                .iter()
                .zip(basis)
                .map(|(&k, u)| {
                    let raw: Vec<f64> = u.iter().zip(&cp.sqrt_k).map(|(x, s)| x / s).collect();
                    Mode {
                        omega: eig.eigenvalues[k].sqrt(),
                        shape: super::modes::normalise_shape(&raw),
                    }
                })
                .collect::<Vec<_>>();
            info.modes_converged = modes.len();
            info.max_residual = cols.iter().map(|&k| residual(k) / top).fold(0.0, f64::max);
            t_restart += t0.elapsed();
            crate::timing::detail(&format!(
                "lanczos products={products} restarts={} product_s={:.4} orth_s={:.4} restart_s={:.4} mean_basis={:.2}",
                info.restarts,
                t_op.as_secs_f64(),
                t_orth.as_secs_f64(),
                t_restart.as_secs_f64(),
                basis_sum as f64 / products.max(1) as f64
            ));
            return (modes, info);
        }
        // Thick restart: keep the best Ritz vectors and the residual
        // direction; T becomes diag(θ) bordered by the couplings β y_m.
        info.restarts += 1;
        kept = (want + (m - want) / 2).min(m - 1);
        if converged > best {
            (best, stall) = (converged, 0);
        } else {
            stall += 1;
        }
        if stall >= STALL_RESTARTS && m < m_max {
            m = (2 * m).min(m_max);
            t = DMatrix::zeros(m, m);
            stall = 0;
        }
        info.basis = m;
        let cols: Vec<usize> = order.iter().take(kept).copied().collect();
        let residual_dir = basis.pop().expect("the residual direction");
        combine_in_place(&mut basis[..size], &eig.eigenvectors, &cols);
        pool.extend(basis.drain(kept..));
        basis.push(residual_dir);
        t.fill(0.0);
        for (i, &k) in cols.iter().enumerate() {
            t[(i, i)] = eig.eigenvalues[k];
            let s = beta * eig.eigenvectors[(size - 1, k)];
            t[(i, kept)] = s;
            t[(kept, i)] = s;
        }
        t_restart += t0.elapsed();
    }
}
