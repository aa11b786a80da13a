//! The large-system path: the coupled stiffness matrix in compressed rows,
//! and its products.
//!
//! Above the dense limit the c×c matrix A is not formed as a dense matrix.
//! It is sparse, though: contacts couple only through shared bodies, so
//! `S = K^½ A K^½ = (K^½ J̃)(K^½ J̃)ᵀ` (`J̃ = J L⁻ᵀ`, whitened by each mass
//! block's Cholesky factor) has about `deg(b₁) + deg(b₂) − 1` entries per
//! row. It is formed once from J̃ and kept in compressed rows, a coupling
//! between nearby rows stored once ([`LocalCsr`]), so that a product `S x`
//! is one pass over about half its entries, in a fixed order on any number
//! of threads (the same bits). Applying J̃ᵀ and then J̃ instead would read
//! each entry of J̃ twice: about twice the bytes of S's full rows.
//!
//! The fastest modes come from [`lanczos`](super::lanczos) (the plain
//! recurrence, O(c) memory); when the fastest mode does not converge,
//! ω_max falls back to the Gershgorin bound `max_i Σ_j |S_ij|` (safe:
//! never below the true value), and the JSON says so. Vectors are summed
//! with four partial sums per chunk (fixed, so still the same bits
//! everywhere) so that the sums run at memory speed rather than at the
//! latency of one addition after another.

use super::AnalysisError;
use super::block_whiten::BlockWhitener;
use crate::model::SparseRow;
use crate::model::System;
use rayon::prelude::*;

pub use super::coupled::{Coupled, LargeInfo};
use super::kernels::CHUNK;
pub use super::lanczos::{
    Start, TOLERANCE as LANCZOS_TOLERANCE, fastest_modes, fastest_modes_from,
};
pub use super::local_csr::LocalCsr;
use super::local_csr::{BlockBuilder, block_rows};
pub use super::order::RowOrder;
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
}

/// S and `A_ii` of a system without constraints, for stiffnesses `k`,
/// from its stored Jacobian rows.
pub fn coupled(system: &System<f64>, stiffness: &[f64]) -> Result<Coupled, AnalysisError> {
    coupled_with(
        system,
        stiffness,
        |i, out| {
            out.clear();
            out.extend_from_slice(&system.jacobian[i]);
        },
        None,
    )
}

/// S and `A_ii` of a system without constraints (its mass blocks), for
/// stiffnesses `k`, with contact `i`'s Jacobian row written by
/// `row(i, buffer)` (one buffer per task: no allocation per contact).
/// Rows are whitened in parallel chunks and joined in order; the first
/// out-of-range row (in contact order) is the error. Row r of S is contact
/// `order[r]` when an order is given (see `order.rs`).
pub fn coupled_with(
    system: &System<f64>,
    stiffness: &[f64],
    row: impl Fn(usize, &mut SparseRow<f64>) + Sync,
    order: Option<RowOrder>,
) -> Result<Coupled, AnalysisError> {
    match coupled_in(system, stiffness, &row, order.as_ref()) {
        Ok(cp) => Ok(Coupled { order, ..cp }),
        // The first failing contact in contact order, whatever the order
        // of the rows: failures are rare, so look again in contact order.
        Err(_) if order.is_some() => coupled_in(system, stiffness, &row, None),
        Err(e) => Err(e),
    }
}

fn coupled_in(
    system: &System<f64>,
    stiffness: &[f64],
    row: &(impl Fn(usize, &mut SparseRow<f64>) + Sync),
    order: Option<&RowOrder>,
) -> Result<Coupled, AnalysisError> {
    let c = stiffness.len();
    let contact = |r: usize| order.map_or(r, |o| o.contact(r));
    if !system.constraints.is_empty() {
        return Err(AnalysisError::TooLarge {
            contacts: c,
            constrained: true,
        });
    }
    let whitener = BlockWhitener::new(system)?;
    crate::timing::mark("mass-factors");
    type Part = (Vec<usize>, Vec<u32>, Vec<f64>, Vec<f64>);
    let parts: Vec<Result<Part, AnalysisError>> = (0..c.div_ceil(CHUNK))
        .into_par_iter()
        .map(|k| {
            let rows = CHUNK.min(c - k * CHUNK);
            // Two rigid bodies of six velocities: twelve entries a row.
            let (mut lens, mut cols, mut vals, mut diag) = (
                Vec::with_capacity(rows),
                Vec::with_capacity(12 * rows),
                Vec::with_capacity(12 * rows),
                Vec::with_capacity(rows),
            );
            let (mut r, mut unwhitened) = (Vec::new(), Vec::new());
            for i in (k * CHUNK..((k + 1) * CHUNK).min(c)).map(contact) {
                r.clear();
                row(i, &mut unwhitened);
                whitener.whiten_into(&unwhitened, &mut r);
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
    let block_of = whitener.into_block_of();
    crate::timing::mark("whiten-rows");
    // The first error in row order; W stays in the tasks' blocks of rows
    // (joining them was a 43 MB copy at 10⁵ contacts).
    let parts: Vec<Part> = parts.into_iter().collect::<Result<_, _>>()?;
    let mut diag = Vec::with_capacity(c);
    let mut w = BlockCsr {
        rows: c,
        blocks: Vec::with_capacity(parts.len()),
    };
    for (lens, col, val, d) in parts {
        let mut start = Vec::with_capacity(lens.len() + 1);
        start.push(0);
        for l in lens {
            start.push(start[start.len() - 1] + l);
        }
        w.blocks.push(Csr {
            cols: system.n_dofs(),
            start,
            col,
            val,
        });
        diag.extend(d);
    }
    let sqrt_k: Vec<f64> = stiffness.iter().map(|k| k.sqrt()).collect();
    let s = match order {
        None => gram(w, &sqrt_k, &block_of, &system.mass),
        Some(o) => gram(w, &o.to_rows(&sqrt_k), &block_of, &system.mass),
    };
    crate::timing::mark("gram");
    drop(block_of);
    if let Some((r, v)) = s.first_non_finite() {
        return Err(AnalysisError::OutOfRange {
            contact: contact(r),
            what: format!("an entry of K^½ A K^½ is {v}"),
        });
    }
    // A_ii back in contact order.
    if let Some(o) = order {
        diag = o.to_contacts(&diag);
    }
    Ok(Coupled {
        s,
        sqrt_k,
        diag,
        order: None,
    })
}

/// `D W Wᵀ D` (D = diag(d)) in compressed rows, by mass blocks. L⁻ᵀ is
/// block diagonal, so a whitened row is nonzero only in the mass blocks
/// its contact touches (two bodies at most), and
/// `(W Wᵀ)_ij = Σ_B w_iB · w_jB` over the blocks B that rows i and j
/// share. W is first copied block by block: each block keeps its rows'
/// segments as dense vectors side by side (a body's contacts, six or so
/// in a packing), so row i's entries of S are a few dot products over one
/// contiguous piece of memory per block, and W is freed before them (each
/// row keeps only the list of its blocks). The entry-by-entry product with
/// Wᵀ it replaces gathered every neighbour's row once per entry of row i
/// and needed the transpose (430 MB at 10⁶ contacts). The sums run in a
/// fixed order — blocks of row i in column order, the rows of a block in
/// increasing order, a block's dofs in order — so the bits do not depend
/// on threads, and entries (i, j) and (j, i) are the same sums in the same
/// order: S is exactly symmetric.
fn gram(
    w: BlockCsr,
    d: &[f64],
    block_of: &[u32],
    mass: &[crate::model::MassBlock<f64>],
) -> LocalCsr {
    let mut w = w;
    let c = w.rows();
    let wr = &w;
    // The runs of row i: (block, its columns, its values).
    let runs = |i: usize| {
        let (cs, vs) = wr.row(i);
        runs_in(cs, vs, block_of)
    };
    // The blocks of each row (all the products need of W), and from them
    // the segments of block b: `bstart[b]..bstart[b + 1]`, rows increasing;
    // segment s's values at `voff[b] + (s − bstart[b]) · size_b`.
    let nb = mass.len();
    let mut row_start = Vec::with_capacity(c + 1);
    row_start.push(0usize);
    let mut row_block: Vec<u32> = Vec::new();
    let mut bstart = vec![0usize; nb + 1];
    for i in 0..c {
        for (b, _, _) in runs(i) {
            row_block.push(b as u32);
            bstart[b + 1] += 1;
        }
        row_start.push(row_block.len());
    }
    for b in 0..nb {
        bstart[b + 1] += bstart[b];
    }
    // A block's segments keep only the velocities some row of it touches
    // (a sphere's contacts do not turn it: three of six), columns in
    // order: the dot products skip only terms 0·0, so their bits are
    // those of the whole block's (halves the copy at 10⁶ bodies).
    let mut used = vec![Used::default(); nb];
    for i in 0..c {
        for (b, cs, _) in runs(i) {
            used[b].mark(cs, mass[b].offset, mass[b].size);
        }
    }
    let width = |b: usize| used[b].width(mass[b].size);
    let mut voff = Vec::with_capacity(nb + 1);
    voff.push(0usize);
    for b in 0..nb {
        voff.push(voff[b] + (bstart[b + 1] - bstart[b]) * width(b));
    }
    let mut seg_row = vec![0u32; bstart[nb]];
    let mut vals = vec![0.0f64; voff[nb]];
    let mut next = bstart.clone();
    // W's chunks are freed as their rows are copied: the copy and W are
    // not both whole at once.
    for k in 0..w.blocks.len() {
        let chunk = std::mem::take(&mut w.blocks[k]);
        for r in 0..chunk.rows() {
            let i = k * CHUNK + r;
            let (cs, vs) = chunk.row(r);
            for (b, cs, vs) in runs_in(cs, vs, block_of) {
                let s = next[b];
                next[b] += 1;
                seg_row[s] = i as u32;
                let (off, size) = (mass[b].offset, width(b));
                let at = voff[b] + (s - bstart[b]) * size;
                let dense = &mut vals[at..at + size];
                for (&col, &v) in cs.iter().zip(vs) {
                    dense[used[b].slot(col as usize - off, mass[b].size)] = v;
                }
            }
        }
    }
    let size_of: Vec<u32> = (0..nb).map(|b| width(b) as u32).collect();
    drop(used);
    drop(next);
    drop(w);
    crate::timing::mark("block-lists");
    Segments {
        row_start,
        row_block,
        bstart,
        voff,
        seg_row,
        vals,
        size_of,
    }
    .gram(d)
}

/// J̃ by mass blocks (see [`gram`]): row i's blocks are
/// `row_block[row_start[i]..row_start[i + 1]]` (increasing); block b's
/// segments `bstart[b]..bstart[b + 1]` belong to rows `seg_row[..]`
/// (increasing), segment s's `size_of[b]` values at
/// `voff[b] + (s − bstart[b]) · size_of[b]`.
pub(crate) struct Segments {
    pub(crate) row_start: Vec<usize>,
    pub(crate) row_block: Vec<u32>,
    pub(crate) bstart: Vec<usize>,
    pub(crate) voff: Vec<usize>,
    pub(crate) seg_row: Vec<u32>,
    pub(crate) vals: Vec<f64>,
    pub(crate) size_of: Vec<u32>,
}

impl Segments {
    /// `D W Wᵀ D` from W's segments (see [`gram`]).
    pub(crate) fn gram(self, d: &[f64]) -> LocalCsr {
        let Segments {
            row_start,
            row_block,
            bstart,
            voff,
            seg_row,
            vals,
            size_of,
        } = self;
        let c = row_start.len() - 1;
        // One task per thread, each over a contiguous range of blocks of S with one
        // set of buffers (`map_init` would make them per rayon job: dozens of
        // c-long zeroed arrays, whose page faults cost more than the products).
        let bs = block_rows(c);
        let chunks = c.div_ceil(bs);
        let tasks = rayon::current_num_threads().clamp(1, chunks.max(1));
        // Entries a row: the rows of each of its blocks, summed (an upper
        // bound; rows sharing two blocks are counted twice).
        let room = |i: usize| -> usize {
            row_block[row_start[i]..row_start[i + 1]]
                .iter()
                .map(|&b| bstart[b as usize + 1] - bstart[b as usize])
                .sum()
        };
        let parts: Vec<BlockBuilder> = (0..tasks)
            .into_par_iter()
            .flat_map_iter(|t| {
                let (mut acc, mut seen) = (vec![0.0f64; c], vec![0u32; c]);
                let mut touched: Vec<u32> = Vec::new();
                let (bstart, voff, seg_row, vals, size_of) =
                    (&bstart, &voff, &seg_row, &vals, &size_of);
                let (row_start, row_block, room) = (&row_start, &row_block, &room);
                (chunks * t / tasks..chunks * (t + 1) / tasks)
                    .map(move |k| {
                        let rows = k * bs..((k + 1) * bs).min(c);
                        let entries = rows.clone().map(room).sum();
                        let mut out = BlockBuilder::new(k, bs, rows.len(), entries);
                        for i in rows {
                            // `seen[j] == i + 1` marks j as touched by row i.
                            let mark = i as u32 + 1;
                            let skip = super::local_csr::stored_in_their_rows(i, bs);
                            touched.clear();
                            for &b in &row_block[row_start[i]..row_start[i + 1]] {
                                let b = b as usize;
                                let size = size_of[b] as usize;
                                let rows = &seg_row[bstart[b]..bstart[b + 1]];
                                let block = &vals[voff[b]..voff[b + 1]];
                                // Row i's own segment (rows increase in a block).
                                let p = rows.partition_point(|&r| (r as usize) < i);
                                let own = &block[p * size..(p + 1) * size];
                                // Rows before i that store their entry with i
                                // themselves are skipped.
                                let q = rows.partition_point(|&r| (r as usize) < skip.start);
                                let others = rows[..q].iter().zip(block.chunks_exact(size)).chain(
                                    rows[p..].iter().zip(block[p * size..].chunks_exact(size)),
                                );
                                for (&j, other) in others {
                                    let dot: f64 = own.iter().zip(other).map(|(x, y)| x * y).sum();
                                    let ju = j as usize;
                                    if seen[ju] == mark {
                                        acc[ju] += dot;
                                    } else {
                                        seen[ju] = mark;
                                        acc[ju] = dot;
                                        touched.push(j);
                                    }
                                }
                            }
                            touched.sort_unstable();
                            // (d_i d_j)·acc: the same bits as entry (j, i), so S is
                            // exactly symmetric.
                            out.push_row(touched.iter().map(|&j| {
                                let j = j as usize;
                                (j, (d[i] * d[j]) * acc[j])
                            }));
                        }
                        out
                    })
                    .collect::<Vec<BlockBuilder>>()
            })
            .collect();
        LocalCsr::from_blocks(c, parts)
    }
}

/// The runs of a whitened row (columns `cs`, values `vs`) by mass block:
/// (block, its columns, its values).
fn runs_in<'a>(
    cs: &'a [u32],
    vs: &'a [f64],
    block_of: &'a [u32],
) -> impl Iterator<Item = (usize, &'a [u32], &'a [f64])> + 'a {
    let mut at = 0;
    std::iter::from_fn(move || {
        (at < cs.len()).then(|| {
            let b = block_of[cs[at] as usize] as usize;
            let first = at;
            while at < cs.len() && block_of[cs[at] as usize] as usize == b {
                at += 1;
            }
            (b, &cs[first..at], &vs[first..at])
        })
    })
}

/// The velocities of a mass block that some whitened row touches, a bit
/// each (blocks wider than 64 velocities keep them all).
#[derive(Clone, Copy, Debug, Default)]
struct Used(u64);

impl Used {
    fn mark(&mut self, cols: &[u32], offset: usize, size: usize) {
        if size <= 64 {
            for &col in cols {
                self.0 |= 1 << (col as usize - offset);
            }
        }
    }

    /// Kept velocities.
    fn width(&self, size: usize) -> usize {
        if size <= 64 {
            self.0.count_ones() as usize
        } else {
            size
        }
    }

    /// Where velocity `k` of the block (one that is kept) sits.
    fn slot(&self, k: usize, size: usize) -> usize {
        if size <= 64 {
            (self.0 & ((1u64 << k) - 1)).count_ones() as usize
        } else {
            k
        }
    }
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
}
