//! The large path's `S` in compressed rows whose columns are stored as
//! 16-bit offsets from the diagonal.
//!
//! Lanczos is bound by memory bandwidth: a product reads every stored
//! entry of S once. Coupled contacts share a body, and packings list a
//! body's contacts close together, so nearly every column lies within
//! ±32,767 of its row (99.8 % at 10⁵ bodies). An entry then costs 10 bytes
//! (an `i16` offset and an `f64`) instead of 12, and a row start 4 bytes
//! instead of 8: 16 % fewer bytes per product (benches/results/scale.md).
//! The few entries farther away are kept per block in a list of
//! (row, column, value) and added after the block's rows, in list order,
//! so a product's bits do not depend on the thread count.

use super::large::{CHUNK, dot4};
use rayon::prelude::*;

/// An entry too far from its row for an `i16` offset.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Far {
    /// Row within the block.
    row: u32,
    col: u32,
    val: f64,
}

/// Rows `first .. first + rows` of the matrix.
#[derive(Clone, Debug, Default, PartialEq)]
struct Block {
    first: usize,
    /// Near entries of block row r: `start[r] .. start[r + 1]`.
    start: Vec<u32>,
    /// Column minus row.
    off: Vec<i16>,
    val: Vec<f64>,
    /// Entries beyond the offsets' reach, by row then column.
    far: Vec<Far>,
}

impl Block {
    fn new(first: usize, rows: usize, entries: usize) -> Block {
        let mut start = Vec::with_capacity(rows + 1);
        start.push(0);
        Block {
            first,
            start,
            off: Vec::with_capacity(entries),
            val: Vec::with_capacity(entries),
            far: Vec::new(),
        }
    }

    fn rows(&self) -> usize {
        self.start.len() - 1
    }

    /// `a · self · x − b p` into `out` (`p` holds the same rows as `out`),
    /// returning `Σ_r x_{first+r} out_r`.
    #[inline]
    fn rows_sub_dot(&self, x: &[f64], a: f64, b: f64, p: &[f64], out: &mut [f64]) -> f64 {
        // One running sum a row: two interleaved ones measured 10 % slower
        // (the gathers of x, not the additions, set the pace).
        for (r, (o, &pr)) in out.iter_mut().zip(p).enumerate() {
            let i = self.first + r;
            let span = self.start[r] as usize..self.start[r + 1] as usize;
            let mut acc = 0.0;
            for (&off, &v) in self.off[span.clone()].iter().zip(&self.val[span]) {
                acc += v * x[i.wrapping_add_signed(off as isize)];
            }
            *o = a * acc - b * pr;
        }
        for f in &self.far {
            out[f.row as usize] += a * (f.val * x[f.col as usize]);
        }
        dot4(&x[self.first..self.first + out.len()], out)
    }
}

/// A square sparse matrix in blocks of [`CHUNK`] rows, columns as offsets
/// from the diagonal (see the module notes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LocalCsr {
    rows: usize,
    blocks: Vec<Block>,
}

/// Builds one block of a [`LocalCsr`], row by row.
pub struct BlockBuilder {
    block: Block,
}

impl BlockBuilder {
    /// Block `k` (rows `k·CHUNK ..`), room for `entries` entries.
    pub fn new(k: usize, rows: usize, entries: usize) -> BlockBuilder {
        BlockBuilder {
            block: Block::new(k * CHUNK, rows, entries),
        }
    }

    /// Appends the next row's entries, columns increasing.
    pub fn push_row(&mut self, entries: impl IntoIterator<Item = (usize, f64)>) {
        let b = &mut self.block;
        let i = b.first + b.rows();
        let row = b.rows() as u32;
        for (j, v) in entries {
            match i16::try_from(j as isize - i as isize) {
                Ok(o) => {
                    b.off.push(o);
                    b.val.push(v);
                }
                Err(_) => b.far.push(Far {
                    row,
                    col: j as u32,
                    val: v,
                }),
            }
        }
        b.start.push(b.off.len() as u32);
    }
}

impl LocalCsr {
    /// The matrix of `rows` rows from its blocks in order (block k built by
    /// `BlockBuilder::new(k, …)`, full blocks but the last).
    pub fn from_blocks(rows: usize, blocks: Vec<BlockBuilder>) -> LocalCsr {
        let blocks: Vec<Block> = blocks
            .into_iter()
            .map(|b| {
                let mut b = b.block;
                b.far.shrink_to_fit();
                b
            })
            .collect();
        debug_assert_eq!(blocks.iter().map(Block::rows).sum::<usize>(), rows);
        LocalCsr { rows, blocks }
    }

    /// The matrix whose row `i` is `row(i)` (columns increasing).
    pub fn from_rows<I: IntoIterator<Item = (usize, f64)>>(
        rows: usize,
        row: impl Fn(usize) -> I + Sync,
    ) -> LocalCsr {
        let blocks = (0..rows.div_ceil(CHUNK))
            .into_par_iter()
            .map(|k| {
                let range = k * CHUNK..((k + 1) * CHUNK).min(rows);
                let mut b = BlockBuilder::new(k, range.len(), 0);
                for i in range {
                    b.push_row(row(i));
                }
                b
            })
            .collect();
        LocalCsr::from_blocks(rows, blocks)
    }

    /// Number of rows (and columns).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Stored entries.
    pub fn nnz(&self) -> usize {
        self.blocks.iter().map(|b| b.val.len() + b.far.len()).sum()
    }

    /// Entries stored as far ones (beyond an `i16` offset).
    pub fn far_entries(&self) -> usize {
        self.blocks.iter().map(|b| b.far.len()).sum()
    }

    /// The entries of row `i`, columns increasing.
    pub fn row(&self, i: usize) -> Vec<(usize, f64)> {
        let b = &self.blocks[i / CHUNK];
        let r = i - b.first;
        let at = b.far.partition_point(|f| (f.row as usize) < r);
        let end = b.far.partition_point(|f| (f.row as usize) <= r);
        let far = &b.far[at..end];
        let split = far.partition_point(|f| (f.col as usize) < i);
        let span = b.start[r] as usize..b.start[r + 1] as usize;
        let near = b.off[span.clone()]
            .iter()
            .zip(&b.val[span])
            .map(|(&o, &v)| (i.wrapping_add_signed(o as isize), v));
        let below = far[..split].iter().map(|f| (f.col as usize, f.val));
        let above = far[split..].iter().map(|f| (f.col as usize, f.val));
        below.chain(near).chain(above).collect()
    }

    /// Entry (i, j), zero when not stored.
    pub fn get(&self, i: usize, j: usize) -> f64 {
        self.row(i)
            .into_iter()
            .find(|&(c, _)| c == j)
            .map_or(0.0, |(_, v)| v)
    }

    /// `max_i Σ_j |S_ij|`.
    pub fn max_abs_row_sum(&self) -> f64 {
        self.blocks
            .par_iter()
            .map(|b| {
                let mut sums: Vec<f64> = (0..b.rows())
                    .map(|r| {
                        let span = b.start[r] as usize..b.start[r + 1] as usize;
                        b.val[span].iter().map(|v| v.abs()).sum::<f64>()
                    })
                    .collect();
                for f in &b.far {
                    sums[f.row as usize] += f.val.abs();
                }
                sums.into_iter().fold(0.0, f64::max)
            })
            .reduce(|| 0.0, f64::max)
    }

    /// The first stored entry (row order) that is not finite, as (row, value).
    pub fn first_non_finite(&self) -> Option<(usize, f64)> {
        self.blocks.iter().find_map(|b| {
            let near = (0..b.rows()).find_map(|r| {
                let span = b.start[r] as usize..b.start[r + 1] as usize;
                b.val[span]
                    .iter()
                    .find(|v| !v.is_finite())
                    .map(|&v| (b.first + r, v))
            });
            let far = b
                .far
                .iter()
                .find(|f| !f.val.is_finite())
                .map(|f| (b.first + f.row as usize, f.val));
            match (near, far) {
                (Some(n), Some(f)) => Some(if f.0 < n.0 { f } else { n }),
                (n, f) => n.or(f),
            }
        })
    }

    /// `y = a · self · x − b p`, returning `xᵀ y · a` from the same pass
    /// (per-block sums added in block order, so the same bits on any thread
    /// count). With `a = 1/|x|` this is the product with the unit vector
    /// `x/|x|` and that vector's dot product, without scaling x first.
    pub fn mul_sub_dot(&self, x: &[f64], a: f64, p: &[f64], b: f64, y: &mut [f64]) -> f64 {
        y.par_chunks_mut(CHUNK)
            .zip(self.blocks.par_iter())
            .map(|(out, blk)| {
                let rows = blk.first..blk.first + out.len();
                blk.rows_sub_dot(x, a, b, &p[rows], out)
            })
            .collect::<Vec<f64>>()
            .iter()
            .sum::<f64>()
            * a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A matrix with entries at every distance, near and far, its rows
    /// read back in column order and its product against a plain sum.
    #[test]
    fn far_and_near_entries_read_back_and_multiply() {
        let n = 5 * CHUNK + 77;
        let cols = |i: usize| -> Vec<(usize, f64)> {
            let mut js: Vec<usize> = [0, i / 3, i, i + 1, i + 40_000, n - 1]
                .into_iter()
                .filter(|&j| j < n)
                .collect();
            js.sort_unstable();
            js.dedup();
            js.into_iter()
                .map(|j| (j, 1.0 + (i * 7 + j * 3) as f64 % 11.0))
                .collect()
        };
        let s = LocalCsr::from_rows(n, cols);
        assert!(s.far_entries() > 0 && s.far_entries() < s.nnz());
        for i in [0, 1, CHUNK - 1, CHUNK, 2 * CHUNK + 5, n - 1] {
            assert_eq!(s.row(i), cols(i), "row {i}");
        }
        let x: Vec<f64> = (0..n).map(|i| ((i % 13) as f64) - 6.0).collect();
        let p: Vec<f64> = (0..n).map(|i| (i % 5) as f64).collect();
        let mut y = vec![0.0; n];
        let dot = s.mul_sub_dot(&x, 1.0, &p, 0.5, &mut y);
        let mut want_dot = 0.0;
        for i in 0..n {
            let want: f64 = cols(i).iter().map(|&(j, v)| v * x[j]).sum::<f64>() - 0.5 * p[i];
            assert!(
                (y[i] - want).abs() <= 1e-12 * want.abs().max(1.0),
                "row {i}"
            );
            want_dot += x[i] * want;
        }
        assert!((dot - want_dot).abs() <= 1e-12 * want_dot.abs());
        // The scaled form is the product with x/2.
        let mut z = vec![0.0; n];
        s.mul_sub_dot(&x, 0.5, &p, 0.5, &mut z);
        let half: Vec<f64> = x.iter().map(|v| v / 2.0).collect();
        s.mul_sub_dot(&half, 1.0, &p, 0.5, &mut y);
        for i in 0..n {
            assert!((z[i] - y[i]).abs() <= 1e-12 * y[i].abs().max(1.0));
        }
        assert_eq!(s.get(5, 5), cols(5).iter().find(|e| e.0 == 5).unwrap().1);
        assert_eq!(s.get(5, 6), cols(5).iter().find(|e| e.0 == 6).unwrap().1);
        assert_eq!(s.get(5, 9), 0.0);
    }
}
