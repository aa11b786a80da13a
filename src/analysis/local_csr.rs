//! The large path's `S` in compressed rows whose columns are stored as
//! 16-bit offsets from the diagonal, each coupling between nearby rows
//! stored once.
//!
//! A Lanczos step is one product, which reads every stored entry of S
//! once. Two measures halve the bytes that takes:
//!
//! - **Offsets.** Coupled contacts share a body, and packings list a
//!   body's contacts close together, so nearly every column lies within
//!   ±32,767 of its row (99.8 % at 10⁵ bodies). An entry costs 10 bytes
//!   (a 16-bit offset and an `f64`) instead of 12, and a row start 4
//!   bytes. The few entries farther away are kept per block in a list of
//!   (row, column, value), added after the block's rows in list order.
//! - **Symmetry.** S is symmetric, so an entry (i, j) with `j > i` whose
//!   column lies in row i's block of rows ([`block_rows`]: 4,096–32,768)
//!   or the next one is stored once, in row i, and *mirrored*: the
//!   product gathers `S_ij x_j` into row i and scatters `S_ij x_i` into
//!   row j. Row j's copy is not stored; its offset, always positive and
//!   below two blocks, is a `u16`. Other entries (the diagonal, couplings
//!   farther apart) are *gathered* only, stored in both rows with `i16`
//!   offsets. On the packings measured (10⁵ and 10⁶ bodies) this stores
//!   53 % of the entries of both triangles: the diagonal and one of each
//!   pair. The product is then no longer bound by bandwidth but by the
//!   latency of its gathers and scatters: 12–20 % faster, not 47 %
//!   (benches/results/scale.md).
//!
//! The scatter into rows of the next block is what a parallel product must
//! order. Each task takes a contiguous run of blocks and keeps a window of
//! two blocks' sums: a block's rows start from what the previous block
//! scattered into them, then gather and scatter themselves, in row order.
//! A task's first block does not wait for the task before it: it
//! recomputes the previous block's scatter into its rows first (one block
//! more read per task). Every sum thus runs in the same order — the
//! previous block's rows, then earlier rows of the block, then the row's
//! own entries — whatever the number of threads: the same bits anywhere.

use super::kernels::dot4;
use rayon::prelude::*;

/// Most rows per block. Coupled contacts of a 3-d packing of 10⁶ bodies
/// listed body by body lie up to ~30,000 rows apart (a layer of bodies):
/// blocks this long mirror nearly all of them (8,192-row blocks stored
/// 76 % of both triangles there, 53 % at 10⁵).
const MAX_BLOCK: usize = 32_768;
/// Fewest rows per block (smaller matrices are one block).
const MIN_BLOCK: usize = 4_096;

// A mirrored entry lies less than two blocks right of its row: its offset
// fits a u16.
const _: () = assert!(2 * MAX_BLOCK - 1 <= u16::MAX as usize && MAX_BLOCK.is_power_of_two());

/// Rows per block for a matrix of `rows` rows: about a sixteenth of them
/// (a power of two between [`MIN_BLOCK`] and [`MAX_BLOCK`]), so that the
/// products of matrices of 10⁴ rows and more run on several threads. It
/// depends on the size only, never on the thread count: the bits do not
/// either.
pub(crate) fn block_rows(rows: usize) -> usize {
    (rows / 16).next_power_of_two().clamp(MIN_BLOCK, MAX_BLOCK)
}

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
    /// Entries of block row r: `start[r] .. start[r + 1]`, the gathered
    /// ones before `mirror[r]`, the mirrored ones from it (each sorted by
    /// column).
    start: Vec<u32>,
    mirror: Vec<u32>,
    /// Column minus row: an `i16` for gathered entries, a `u16` for
    /// mirrored ones (always right of the diagonal), stored as its bits.
    off: Vec<u16>,
    val: Vec<f64>,
    /// Gathered entries beyond the offsets' reach, by row then column.
    far: Vec<Far>,
}

/// Whether entry (i, j), `i < j`, is mirrored (stored once, in row i) in
/// blocks of `b` rows.
fn mirrored(i: usize, j: usize, b: usize) -> bool {
    j / b <= i / b + 1
}

/// The columns left of row i's diagonal whose entries are stored in their
/// own rows (mirrored), not in row i, in blocks of `b` rows: a builder may
/// skip computing them.
pub(crate) fn stored_in_their_rows(i: usize, b: usize) -> std::ops::Range<usize> {
    (i / b).saturating_sub(1) * b..i
}

impl Block {
    fn new(first: usize, rows: usize, entries: usize) -> Block {
        let mut start = Vec::with_capacity(rows + 1);
        start.push(0);
        Block {
            first,
            start,
            mirror: Vec::with_capacity(rows),
            off: Vec::with_capacity(entries),
            val: Vec::with_capacity(entries),
            far: Vec::new(),
        }
    }

    fn rows(&self) -> usize {
        self.start.len() - 1
    }

    /// Row r's gathered (near) and mirrored entries.
    fn spans(&self, r: usize) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        let (s0, s1, s2) = (
            self.start[r] as usize,
            self.mirror[r] as usize,
            self.start[r + 1] as usize,
        );
        (s0..s1, s1..s2)
    }

    /// Row r's near entries `span` as (column, value): gathered ones
    /// (`i16` offsets) or, when `mirrored`, mirrored ones (`u16`).
    fn entries(
        &self,
        r: usize,
        span: std::ops::Range<usize>,
        mirrored: bool,
    ) -> impl Iterator<Item = (usize, f64)> {
        let i = self.first + r;
        let (o, v) = (&self.off[span.clone()], &self.val[span]);
        o.iter().zip(v).map(move |(&o, &v)| {
            let j = if mirrored {
                i + o as usize
            } else {
                i.wrapping_add_signed(o as i16 as isize)
            };
            (j, v)
        })
    }

    /// Row r's far entries.
    fn far_of(&self, r: usize) -> &[Far] {
        let at = self.far.partition_point(|f| (f.row as usize) < r);
        let end = self.far.partition_point(|f| (f.row as usize) <= r);
        &self.far[at..end]
    }

    /// `a · map(self) · x − b p` into `out` (`p` holds the same rows as
    /// `out`), returning `Σ_r x_{first+r} out_r`. The window from `base`
    /// holds what the previous block scattered into these rows, the other
    /// half is zero; on return this half is zero and the other holds this
    /// block's scatter into the next block.
    #[inline]
    fn rows_sub_dot(
        &self,
        x: &[f64],
        (a, b): (f64, f64),
        p: &[f64],
        out: &mut [f64],
        (win, base): (&mut [f64], usize),
        map: impl Fn(f64) -> f64,
    ) -> f64 {
        // The window is two blocks long, a power of two.
        let ring = win.len() - 1;
        for (r, (o, &pr)) in out.iter_mut().zip(p).enumerate() {
            let i = self.first + r;
            let xi = x[i];
            let (gather, mirror) = self.spans(r);
            // One running sum a row: two interleaved ones measured 10 %
            // slower (the gathers of x, not the additions, set the pace).
            let mut acc = std::mem::take(&mut win[(base + r) & ring]);
            for (&off, &v) in self.off[gather.clone()].iter().zip(&self.val[gather]) {
                acc += map(v) * x[i.wrapping_add_signed(off as i16 as isize)];
            }
            for (&off, &v) in self.off[mirror.clone()].iter().zip(&self.val[mirror]) {
                let v = map(v);
                let off = off as usize;
                acc += v * x[i + off];
                win[(base + r + off) & ring] += v * xi;
            }
            *o = a * acc - b * pr;
        }
        for f in &self.far {
            out[f.row as usize] += a * (map(f.val) * x[f.col as usize]);
        }
        dot4(&x[self.first..self.first + out.len()], out)
    }

    /// This block's scatter into the rows of the next block (which starts
    /// at `next`), added into `win` (zero on entry) from its start, in the
    /// order [`rows_sub_dot`](Self::rows_sub_dot) adds it: the same bits.
    fn scatter_into_next(&self, x: &[f64], next: usize, win: &mut [f64], map: impl Fn(f64) -> f64) {
        for r in 0..self.rows() {
            let i = self.first + r;
            let xi = x[i];
            let (_, mirror) = self.spans(r);
            for (&off, &v) in self.off[mirror.clone()].iter().zip(&self.val[mirror]) {
                let j = i + off as usize;
                if j >= next {
                    win[j - next] += map(v) * xi;
                }
            }
        }
    }
}

/// A square symmetric sparse matrix in blocks of [`block_rows`] rows, columns
/// as offsets from the diagonal, nearby couplings stored once (see the
/// module notes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LocalCsr {
    rows: usize,
    /// Rows per block.
    block: usize,
    blocks: Vec<Block>,
}

/// Builds one block of a [`LocalCsr`], row by row.
pub struct BlockBuilder {
    block: Block,
    /// Rows per block of the matrix (this one may be shorter: the last).
    size: usize,
    mirror: Vec<(u16, f64)>,
}

impl BlockBuilder {
    /// Block `k` of blocks of `size` rows ([`block_rows`]; rows
    /// `k·size ..`), room for `entries` entries.
    pub fn new(k: usize, size: usize, rows: usize, entries: usize) -> BlockBuilder {
        BlockBuilder {
            block: Block::new(k * size, rows, entries),
            size,
            mirror: Vec::new(),
        }
    }

    /// Appends the next row's entries, columns increasing. The matrix must
    /// be symmetric (bit for bit): of a mirrored pair only the entry right
    /// of the diagonal is kept, so the columns in
    /// [`stored_in_their_rows`] may be given or left out.
    pub fn push_row(&mut self, entries: impl IntoIterator<Item = (usize, f64)>) {
        let b = &mut self.block;
        let i = b.first + b.rows();
        let row = b.rows() as u32;
        self.mirror.clear();
        for (j, v) in entries {
            if j > i && mirrored(i, j, self.size) {
                // Less than two blocks: fits (checked at compile time).
                self.mirror.push(((j - i) as u16, v));
                continue;
            }
            if j < i && mirrored(j, i, self.size) {
                continue; // stored in row j
            }
            match i16::try_from(j as isize - i as isize) {
                Ok(o) => {
                    b.off.push(o as u16);
                    b.val.push(v);
                }
                Err(_) => b.far.push(Far {
                    row,
                    col: j as u32,
                    val: v,
                }),
            }
        }
        b.mirror.push(b.off.len() as u32);
        for &(o, v) in &self.mirror {
            b.off.push(o);
            b.val.push(v);
        }
        b.start.push(b.off.len() as u32);
    }
}

impl LocalCsr {
    /// The matrix of `rows` rows from its blocks in order (block k built by
    /// `BlockBuilder::new(k, …)`, full blocks but the last).
    pub fn from_blocks(rows: usize, blocks: Vec<BlockBuilder>) -> LocalCsr {
        let block = blocks.first().map_or(MIN_BLOCK, |b| b.size);
        debug_assert!(blocks.iter().all(|b| b.size == block));
        let blocks: Vec<Block> = blocks
            .into_iter()
            .map(|b| {
                let mut b = b.block;
                b.far.shrink_to_fit();
                b
            })
            .collect();
        debug_assert_eq!(blocks.iter().map(Block::rows).sum::<usize>(), rows);
        LocalCsr {
            rows,
            block,
            blocks,
        }
    }

    /// The symmetric matrix whose row `i` is `row(i)` (columns increasing).
    /// Panics when the rows are not symmetric, bit for bit, where a
    /// coupling is stored once.
    pub fn from_rows<I: IntoIterator<Item = (usize, f64)>>(
        rows: usize,
        row: impl Fn(usize) -> I + Sync,
    ) -> LocalCsr {
        let size = block_rows(rows);
        let blocks = (0..rows.div_ceil(size))
            .into_par_iter()
            .map(|k| {
                let range = k * size..((k + 1) * size).min(rows);
                let mut b = BlockBuilder::new(k, size, range.len(), 0);
                for i in range {
                    b.push_row(row(i));
                }
                b
            })
            .collect();
        let s = LocalCsr::from_blocks(rows, blocks);
        // A mirrored entry serves both triangles: the entries left of the
        // diagonal that were not stored must be its bits, and none missing.
        let (mut left, mut right) = (0usize, 0usize);
        for i in 0..rows {
            for (j, v) in row(i) {
                if j < i && mirrored(j, i, size) {
                    left += 1;
                    assert!(
                        s.get(i, j).to_bits() == v.to_bits(),
                        "LocalCsr::from_rows: entry ({i}, {j}) is not that of ({j}, {i})"
                    );
                }
            }
            let b = &s.blocks[i / size];
            right += b.spans(i - b.first).1.len();
        }
        assert_eq!(
            left, right,
            "LocalCsr::from_rows: the pattern is not symmetric"
        );
        s
    }

    /// Number of rows (and columns).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Nonzero entries of the matrix, both triangles.
    pub fn nnz(&self) -> usize {
        self.blocks
            .iter()
            .map(|b| {
                let mirrored: usize = (0..b.rows()).map(|r| b.spans(r).1.len()).sum();
                b.val.len() + mirrored + b.far.len()
            })
            .sum()
    }

    /// Entries actually stored (a mirrored pair once).
    pub fn stored(&self) -> usize {
        self.blocks.iter().map(|b| b.val.len() + b.far.len()).sum()
    }

    /// Entries stored as far ones (beyond an `i16` offset).
    pub fn far_entries(&self) -> usize {
        self.blocks.iter().map(|b| b.far.len()).sum()
    }

    /// The entries of row `i`, columns increasing. Slow (it scans up to two
    /// blocks for the mirrored entries left of the diagonal): for tests and
    /// inspection, not for loops over rows.
    pub fn row(&self, i: usize) -> Vec<(usize, f64)> {
        let k = i / self.block;
        let b = &self.blocks[k];
        let r = i - b.first;
        let (gather, mirror) = b.spans(r);
        let mut out: Vec<(usize, f64)> = b.entries(r, gather, false).collect();
        out.extend(b.entries(r, mirror, true));
        out.extend(b.far_of(r).iter().map(|f| (f.col as usize, f.val)));
        for bl in &self.blocks[k.saturating_sub(1)..=k] {
            for rr in 0..bl.rows().min(i.saturating_sub(bl.first)) {
                let ii = bl.first + rr;
                out.extend(
                    bl.entries(rr, bl.spans(rr).1, true)
                        .filter(|&(j, _)| j == i)
                        .map(|(_, v)| (ii, v)),
                );
            }
        }
        out.sort_by_key(|e| e.0);
        out
    }

    /// Entry (i, j), zero when not stored.
    pub fn get(&self, i: usize, j: usize) -> f64 {
        let (lo, hi) = (i.min(j), i.max(j));
        let found = if lo != hi && mirrored(lo, hi, self.block) {
            let b = &self.blocks[lo / self.block];
            let span = b.spans(lo - b.first).1;
            // Offsets increase along a row: binary search.
            let at = b.off[span.clone()].binary_search(&((hi - lo) as u16));
            at.ok().map(|p| b.val[span.start + p])
        } else {
            let b = &self.blocks[i / self.block];
            let r = i - b.first;
            let span = b.spans(r).0;
            let gathered = i16::try_from(j as isize - i as isize).ok().and_then(|o| {
                let offs = &b.off[span.clone()];
                let p = offs.partition_point(|&x| (x as i16) < o);
                (p < offs.len() && offs[p] as i16 == o).then(|| b.val[span.start + p])
            });
            gathered.or_else(|| {
                let far = b.far_of(r);
                far.binary_search_by_key(&j, |f| f.col as usize)
                    .ok()
                    .map(|p| far[p].val)
            })
        };
        found.unwrap_or(0.0)
    }

    /// `max_i Σ_j |S_ij|`.
    pub fn max_abs_row_sum(&self) -> f64 {
        let ones = vec![1.0; self.rows];
        let mut sums = vec![0.0; self.rows];
        self.product(&ones, (1.0, 0.0), &ones, &mut sums, f64::abs);
        sums.into_iter().fold(0.0, f64::max)
    }

    /// `max_i d_i Σ_j |S_ij| d_j`: the Gershgorin bound on λ_max(D S D),
    /// `D = diag(d)` (rows in stored order).
    pub fn max_weighted_abs_row_sum(&self, d: &[f64]) -> f64 {
        let mut sums = vec![0.0; self.rows];
        self.product(d, (1.0, 0.0), d, &mut sums, f64::abs);
        sums.iter().zip(d).map(|(s, w)| s * w).fold(0.0, f64::max)
    }

    /// The first stored entry (row order) that is not finite, as (row, value).
    pub fn first_non_finite(&self) -> Option<(usize, f64)> {
        self.blocks.iter().find_map(|b| {
            (0..b.rows()).find_map(|r| {
                let (gather, mirror) = b.spans(r);
                b.val[gather.start..mirror.end]
                    .iter()
                    .chain(b.far_of(r).iter().map(|f| &f.val))
                    .find(|v| !v.is_finite())
                    .map(|&v| (b.first + r, v))
            })
        })
    }

    /// `y = a · self · x − b p`, returning `xᵀ y · a` from the same pass
    /// (per-block sums added in block order, so the same bits on any thread
    /// count). With `a = 1/|x|` this is the product with the unit vector
    /// `x/|x|` and that vector's dot product, without scaling x first.
    pub fn mul_sub_dot(&self, x: &[f64], a: f64, p: &[f64], b: f64, y: &mut [f64]) -> f64 {
        self.product(x, (a, b), p, y, |v| v) * a
    }

    /// `y = a · map(self) · x − b p` (map applied to each entry), returning
    /// `xᵀ y`: the parallel driver of the module notes.
    fn product(
        &self,
        x: &[f64],
        (a, b): (f64, f64),
        p: &[f64],
        y: &mut [f64],
        map: impl Fn(f64) -> f64 + Sync,
    ) -> f64 {
        let nb = self.blocks.len();
        let tasks = rayon::current_num_threads().clamp(1, nb.max(1));
        // Each task's blocks and their rows of y.
        let mut parts = Vec::with_capacity(tasks);
        let mut rest = y;
        for t in 0..tasks {
            let (k0, k1) = (nb * t / tasks, nb * (t + 1) / tasks);
            let bs = self.block;
            let rows = (k1 * bs).min(self.rows) - (k0 * bs).min(self.rows);
            let (mine, tail) = rest.split_at_mut(rows);
            parts.push((k0..k1, mine));
            rest = tail;
        }
        let map = &map;
        let dots: Vec<Vec<f64>> = parts
            .into_par_iter()
            .map(|(ks, ys)| {
                // A task's running sums for two blocks, used as a ring: a
                // block's rows start at `base`, the next block's one block
                // on (mod the length), so moving on neither copies nor
                // clears.
                let mut win = vec![0.0f64; 2 * self.block];
                let mut base = 0;
                if ks.start > 0 && ks.start < nb {
                    let next = self.blocks[ks.start].first;
                    self.blocks[ks.start - 1].scatter_into_next(x, next, &mut win, map);
                }
                ks.zip(ys.chunks_mut(self.block))
                    .map(|(k, out)| {
                        let blk = &self.blocks[k];
                        let rows = blk.first..blk.first + out.len();
                        let d = blk.rows_sub_dot(x, (a, b), &p[rows], out, (&mut win, base), map);
                        base = (base + self.block) % (2 * self.block);
                        d
                    })
                    .collect()
            })
            .collect();
        dots.iter().flatten().sum::<f64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A symmetric matrix with entries at every distance — within a block,
    /// into the next, several blocks away, beyond an `i16` offset — its
    /// rows read back in column order and its product against a plain sum,
    /// with the same bits on one thread and on four.
    #[test]
    fn mirrored_gathered_and_far_entries_read_back_and_multiply() {
        let n = 5 * 8192 + 77;
        let bs = block_rows(n);
        assert_eq!(bs, 4096);
        let val = |i: usize, j: usize| 1.0 + ((i.min(j) * 7 + i.max(j) * 3) % 11) as f64;
        let near = |i: usize| -> Vec<usize> {
            [
                0,
                i / 3,
                i,
                i + 1,
                i + bs + 3,
                i + 3 * bs,
                i + 40_000,
                n - 1,
            ]
            .into_iter()
            .filter(|&j| j < n)
            .collect()
        };
        // Columns of row i: its own pattern and every row whose pattern
        // holds i (symmetric by construction).
        let mut pattern: Vec<Vec<usize>> = (0..n).map(near).collect();
        for i in 0..n {
            for j in near(i) {
                pattern[j].push(i);
            }
        }
        for p in &mut pattern {
            p.sort_unstable();
            p.dedup();
        }
        let cols = |i: usize| -> Vec<(usize, f64)> {
            pattern[i].iter().map(|&j| (j, val(i, j))).collect()
        };
        let s = LocalCsr::from_rows(n, cols);
        let both: usize = (0..n).map(|i| pattern[i].len()).sum();
        assert_eq!(s.nnz(), both);
        assert!(s.stored() < both && s.far_entries() > 0);
        for i in [0, 1, 77, bs - 1, bs, 2 * bs + 5, 3 * bs - 2, n - 1] {
            assert_eq!(s.row(i), cols(i), "row {i}");
            for &(j, v) in &cols(i) {
                assert_eq!(s.get(i, j), v, "({i}, {j})");
            }
        }
        assert_eq!(s.get(5, 9), 0.0);
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
        // The same bits on other thread counts (task boundaries elsewhere).
        for threads in [1, 3, 4] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut z = vec![0.0; n];
            let d = pool.install(|| s.mul_sub_dot(&x, 1.0, &p, 0.5, &mut z));
            assert_eq!(d.to_bits(), dot.to_bits(), "{threads} threads");
            assert!(z.iter().zip(&y).all(|(a, b)| a.to_bits() == b.to_bits()));
        }
        // The scaled form is the product with x/2.
        let mut z = vec![0.0; n];
        s.mul_sub_dot(&x, 0.5, &p, 0.5, &mut z);
        let half: Vec<f64> = x.iter().map(|v| v / 2.0).collect();
        s.mul_sub_dot(&half, 1.0, &p, 0.5, &mut y);
        for i in 0..n {
            assert!((z[i] - y[i]).abs() <= 1e-12 * y[i].abs().max(1.0));
        }
        let want_max = (0..n)
            .map(|i| cols(i).iter().map(|e| e.1.abs()).sum::<f64>())
            .fold(0.0, f64::max);
        assert!((s.max_abs_row_sum() - want_max).abs() <= 1e-12 * want_max);
    }

    #[test]
    #[should_panic(expected = "is not that of")]
    fn from_rows_refuses_rows_that_are_not_symmetric() {
        // (1, 0) differs from (0, 1): one stored copy could not serve both.
        LocalCsr::from_rows(3, |i: usize| match i {
            0 => vec![(0, 2.0), (1, 1.0)],
            1 => vec![(0, 1.5), (1, 2.0)],
            _ => vec![(2, 2.0)],
        });
    }
}
