//! The large-system path: the coupled stiffness matrix in compressed rows,
//! and its products.
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
//! The fastest modes come from [`lanczos`](super::lanczos) (the plain
//! recurrence, O(c) memory); when the fastest mode does not converge,
//! ω_max falls back to the Gershgorin bound `max_i Σ_j |S_ij|` (safe:
//! never below the true value), and the JSON says so. Vectors are summed
//! with four partial sums per chunk (fixed, so still the same bits
//! everywhere) so that the sums run at memory speed rather than at the
//! latency of one addition after another.

use super::AnalysisError;
use super::delassus::Whitener;
use crate::model::SparseRow;
use crate::model::System;
use rayon::prelude::*;

pub use super::lanczos::{TOLERANCE as LANCZOS_TOLERANCE, fastest_modes};
/// Rows per parallel work item (fixed, so sums do not depend on threads).
pub(crate) const CHUNK: usize = 8192;

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

    /// The transpose. Column ranges of about equal entry counts go to
    /// parallel tasks; each scans every row and fills its own columns
    /// (disjoint parts of the output, rows in order within a column), so
    /// the result is the same however the columns are split.
    pub fn transpose(&self) -> Csr {
        let (rows, cols, nnz) = (self.rows(), self.cols, self.nnz());
        let mut start = vec![0usize; cols + 1];
        for &j in &self.col {
            start[j as usize + 1] += 1;
        }
        for j in 0..cols {
            start[j + 1] += start[j];
        }
        let mut col = vec![0u32; nnz];
        let mut val = vec![0.0; nnz];
        let parts = rayon::current_num_threads().clamp(1, 16);
        let mut bounds = vec![0usize];
        for p in 1..parts {
            let target = nnz * p / parts;
            let c = start.partition_point(|&s| s < target).min(cols);
            bounds.push(c.max(bounds[bounds.len() - 1]));
        }
        bounds.push(cols);
        let mut tasks = Vec::with_capacity(parts);
        let (mut col_rest, mut val_rest) = (&mut col[..], &mut val[..]);
        for w in bounds.windows(2) {
            let len = start[w[1]] - start[w[0]];
            let (c1, c2) = std::mem::take(&mut col_rest).split_at_mut(len);
            let (v1, v2) = std::mem::take(&mut val_rest).split_at_mut(len);
            tasks.push((w[0]..w[1], c1, v1));
            (col_rest, val_rest) = (c2, v2);
        }
        tasks.into_par_iter().for_each(|(range, cs, vs)| {
            let base = start[range.start];
            let mut next: Vec<usize> = start[range.clone()].iter().map(|s| s - base).collect();
            for i in 0..rows {
                let (rc, rv) = self.row(i);
                for (&j, &v) in rc.iter().zip(rv) {
                    let j = j as usize;
                    if range.contains(&j) {
                        let at = &mut next[j - range.start];
                        cs[*at] = i as u32;
                        vs[*at] = v;
                        *at += 1;
                    }
                }
            }
        });
        Csr {
            cols: rows,
            start,
            col,
            val,
        }
    }

    /// `self · x − b p` into `out` (`p` holds the same rows as `out`).
    #[inline]
    fn rows_sub_into(&self, x: &[f64], b: f64, p: &[f64], out: &mut [f64]) {
        for ((r, o), &pr) in out.iter_mut().enumerate().zip(p) {
            let (cs, vs) = self.row(r);
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
            *o = (s0 + s1) - b * pr;
        }
    }
}

/// What the large path found beyond the common results.
#[derive(Clone, Debug, PartialEq)]
pub struct LargeInfo {
    /// Steps of the Lanczos recurrence (the Krylov dimension).
    pub lanczos_steps: usize,
    /// Products with S in all (the replay for mode shapes and the residual
    /// checks included).
    pub products: usize,
    /// Modes asked for.
    pub modes_requested: usize,
    /// How many of the fastest modes converged (in order from the fastest).
    pub modes_converged: usize,
    /// `sqrt(max_i Σ_j |S_ij|)`, a safe upper bound on ω_max.
    pub gershgorin_omega: f64,
    /// Largest relative residual of a reported mode, `/ θ_max`: the true
    /// `|S y − θ y|` when mode shapes were formed, else the Ritz estimate.
    pub max_residual: f64,
    /// `"true"` or `"estimate"`: which residual `max_residual` is.
    pub residual_kind: &'static str,
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

    /// `y = self · x − b p`, returning `xᵀ y` from the same pass (per-block
    /// sums added in block order, so the same bits on any thread count).
    pub fn mul_sub_dot(&self, x: &[f64], p: &[f64], b: f64, y: &mut [f64]) -> f64 {
        y.par_chunks_mut(CHUNK)
            .zip(self.blocks.par_iter())
            .enumerate()
            .map(|(k, (out, blk))| {
                let base = k * CHUNK;
                let rows = base..base + out.len();
                blk.rows_sub_into(x, b, &p[rows.clone()], out);
                dot4(&x[rows], out)
            })
            .collect::<Vec<f64>>()
            .iter()
            .sum()
    }
}

/// A sum of products in four interleaved partial sums (a fixed order, so
/// the same bits everywhere; independent additions, so it vectorises).
#[inline]
pub(crate) fn dot4(a: &[f64], b: &[f64]) -> f64 {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose_moves_every_entry_and_twice_is_the_identity() {
        // A ragged pseudo-random pattern, more columns than rows and empty
        // rows and columns among them.
        let (rows, cols) = (37, 101);
        let mut m = Csr {
            cols,
            start: vec![0],
            col: Vec::new(),
            val: Vec::new(),
        };
        let mut state = 12345u64;
        for i in 0..rows {
            let mut row: Vec<u32> = (0..(i * 7) % 9)
                .map(|_| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                    ((state >> 33) % cols as u64) as u32
                })
                .collect();
            row.sort_unstable();
            row.dedup();
            for &j in &row {
                m.col.push(j);
                m.val.push(i as f64 + j as f64 / 1000.0);
            }
            m.start.push(m.col.len());
        }
        let t = m.transpose();
        assert_eq!((t.rows(), t.cols, t.nnz()), (cols, rows, m.nnz()));
        for j in 0..cols {
            let (rs, vs) = t.row(j);
            assert!(
                rs.windows(2).all(|w| w[0] < w[1]),
                "rows increase in column {j}"
            );
            for (&i, &v) in rs.iter().zip(vs) {
                assert_eq!(v, i as f64 + j as f64 / 1000.0);
            }
        }
        assert_eq!(t.transpose(), m);
    }
}
