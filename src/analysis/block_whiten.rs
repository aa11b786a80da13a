//! Whitening of the large path's contact rows by the mass blocks, without
//! a stored copy of their Cholesky factors.
//!
//! `J̃ = J L⁻ᵀ` needs, per body, the factor `L` of its mass block. Storing
//! them (36 numbers a rigid body, plus a `usize` block index per velocity)
//! cost 344 bytes a body, 320 MB at 10⁶ bodies, for blocks that are in a
//! packing nearly always of two compact forms (issue 41):
//!
//! - **diagonal** (`m, m, m, I₁, I₂, I₃` of a sphere, any particle or
//!   planar body with a scalar inertia): `L = diag(√M_kk)`;
//! - **3+3** (a rigid body in 3-d with a full inertia tensor in world
//!   axes): `√m` three times, then the Cholesky factor of the 3×3
//!   rotational block.
//!
//! Both are recomputed where a row needs them (a square root or a 3×3
//! factor: nanoseconds), from the system's own mass blocks; only a form
//! tag (one byte) is kept per block. Other blocks are factored whole, the
//! same way. The arithmetic is that of factoring the whole block with
//! [`cholesky_in_place`] and forward substitution: the factor's entries
//! off the compact forms are exact zeros, which the recurrence subtracts
//! or adds without changing any other value, so the whitened rows have
//! the same bits (tested against the whole-block factor).

use super::AnalysisError;
use crate::linalg::cholesky_in_place;
use crate::model::{MassBlock, SparseRow, System};
use rayon::prelude::*;

/// The form of a mass block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// Off-diagonal entries all exactly zero.
    Diagonal,
    /// Six velocities: the first three a diagonal block uncoupled from the
    /// last three (a rigid body in 3-d with a full inertia tensor).
    ThreePlusThree,
    /// Anything else: factored whole.
    Full,
}

fn form_of(b: &MassBlock<f64>) -> Form {
    let (n, m) = (b.size, &b.matrix);
    let off_zero = |i: usize, j: usize| m[i * n + j] == 0.0 && m[j * n + i] == 0.0;
    let zero_where = |keep: &dyn Fn(usize, usize) -> bool| {
        (0..n).all(|i| (0..i).all(|j| keep(i, j) || off_zero(i, j)))
    };
    if zero_where(&|_, _| false) {
        Form::Diagonal
    } else if n == 6 && zero_where(&|i, j| i >= 3 && j >= 3) {
        Form::ThreePlusThree
    } else {
        Form::Full
    }
}

/// The mass blocks of a system, ready to whiten rows with (see the module
/// notes): a form per block and the block of each velocity (u32).
pub struct BlockWhitener<'a> {
    system: &'a System<f64>,
    form: Vec<Form>,
    block_of: Vec<u32>,
}

/// Blocks per parallel work item when checking the factors.
const BLOCKS: usize = 4096;

impl<'a> BlockWhitener<'a> {
    /// The forms of `system`'s mass blocks, each block's factor checked
    /// (in parallel; the first failure in block order is the one reported).
    pub fn new(system: &'a System<f64>) -> Result<BlockWhitener<'a>, AnalysisError> {
        let mass = &system.mass;
        let checked: Vec<(Vec<Form>, Option<usize>)> = mass
            .par_chunks(BLOCKS)
            .enumerate()
            .map(|(k, blocks)| {
                let mut forms = Vec::with_capacity(blocks.len());
                let mut buf = Vec::new();
                for (i, b) in blocks.iter().enumerate() {
                    buf.clear();
                    buf.extend_from_slice(&b.matrix);
                    if !cholesky_in_place(&mut buf, b.size) {
                        return (forms, Some(k * BLOCKS + i));
                    }
                    forms.push(form_of(b));
                }
                (forms, None)
            })
            .collect();
        let mut form = Vec::with_capacity(mass.len());
        for (forms, failed) in checked {
            if let Some(bi) = failed {
                let b = &mass[bi];
                return Err(AnalysisError::NotPositiveDefinite {
                    dofs: system.dofs[b.offset..b.offset + b.size]
                        .iter()
                        .map(|d| d.name())
                        .collect(),
                });
            }
            form.extend(forms);
        }
        let mut block_of = vec![u32::MAX; system.n_dofs()];
        for (bi, b) in mass.iter().enumerate() {
            block_of[b.offset..b.offset + b.size].fill(bi as u32);
        }
        Ok(BlockWhitener {
            system,
            form,
            block_of,
        })
    }

    /// The mass block of each velocity (what the Gram product of the large
    /// path groups entries by).
    pub fn into_block_of(self) -> Vec<u32> {
        self.block_of
    }

    /// `L⁻¹ rowᵀ` per block, appending the nonzero entries to `out`
    /// (columns increasing when the row's are); no allocation for blocks
    /// of up to eight velocities (every rigid body and particle).
    pub fn whiten_into(&self, row: &SparseRow<f64>, out: &mut Vec<(usize, f64)>) {
        let (mut small, mut big) = ([0.0f64; 8], Vec::new());
        let (mut lsmall, mut lbig) = ([0.0f64; 64], Vec::new());
        let mut i = 0;
        while i < row.len() {
            let bi = self.block_of[row[i].0] as usize;
            let b = &self.system.mass[bi];
            let n = b.size;
            let x: &mut [f64] = if n <= 8 {
                small[..n].fill(0.0);
                &mut small[..n]
            } else {
                big.clear();
                big.resize(n, 0.0);
                &mut big
            };
            while i < row.len() && self.block_of[row[i].0] as usize == bi {
                x[row[i].0 - b.offset] += row[i].1;
                i += 1;
            }
            let m = &b.matrix;
            match self.form[bi] {
                Form::Diagonal => {
                    for (k, v) in x.iter_mut().enumerate() {
                        *v /= m[k * n + k].sqrt();
                    }
                }
                Form::ThreePlusThree => {
                    for (k, v) in x[..3].iter_mut().enumerate() {
                        *v /= m[k * n + k].sqrt();
                    }
                    let mut l = [0.0f64; 9];
                    for r in 0..3 {
                        l[r * 3..r * 3 + 3].copy_from_slice(&m[(r + 3) * n + 3..(r + 3) * n + 6]);
                    }
                    cholesky_in_place(&mut l, 3);
                    substitute(&l, 3, &mut x[3..]);
                }
                Form::Full => {
                    let l: &mut [f64] = if n <= 8 {
                        &mut lsmall[..n * n]
                    } else {
                        lbig.clear();
                        lbig.resize(n * n, 0.0);
                        &mut lbig
                    };
                    l.copy_from_slice(m);
                    cholesky_in_place(l, n);
                    substitute(l, n, x);
                }
            }
            out.extend(
                x.iter()
                    .enumerate()
                    .filter(|(_, v)| **v != 0.0)
                    .map(|(k, v)| (b.offset + k, *v)),
            );
        }
    }
}

/// `x ← L⁻¹ x` column by column (`y_k = x_k / L_kk`, then `x_j −= L_jk y_k`
/// for j > k): the order of nalgebra's `solve_lower_triangular`, which the
/// dense path uses.
pub(crate) fn substitute(l: &[f64], n: usize, x: &mut [f64]) {
    for k in 0..n {
        let y = x[k] / l[k * n + k];
        x[k] = y;
        for j in k + 1..n {
            x[j] += -y * l[j * n + k];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Dof;

    /// The whitened row through the whole block's stored factor (what the
    /// large path did before: `cholesky_in_place` on the block, then
    /// [`substitute`]).
    fn whole(system: &System<f64>, row: &SparseRow<f64>) -> Vec<(usize, f64)> {
        let mut out = Vec::new();
        for b in &system.mass {
            let mut x = vec![0.0; b.size];
            for &(j, v) in row {
                if (b.offset..b.offset + b.size).contains(&j) {
                    x[j - b.offset] += v;
                }
            }
            if x.iter().all(|v| *v == 0.0) {
                continue;
            }
            let mut l = b.matrix.clone();
            assert!(cholesky_in_place(&mut l, b.size));
            substitute(&l, b.size, &mut x);
            out.extend(
                x.iter()
                    .enumerate()
                    .filter(|(_, v)| **v != 0.0)
                    .map(|(k, v)| (b.offset + k, *v)),
            );
        }
        out
    }

    fn system(blocks: Vec<Vec<f64>>) -> System<f64> {
        let mut offset = 0;
        let mut mass = Vec::new();
        for m in blocks {
            let size = (m.len() as f64).sqrt() as usize;
            mass.push(MassBlock {
                offset,
                size,
                matrix: m,
            });
            offset += size;
        }
        System {
            dofs: (0..offset)
                .map(|k| Dof::new(&format!("q{k}"), "m"))
                .collect(),
            mass,
            jacobian: Vec::new(),
            constraints: Vec::new(),
        }
    }

    fn block(diag: &[f64], extra: &[(usize, usize, f64)]) -> Vec<f64> {
        let n = diag.len();
        let mut m = vec![0.0; n * n];
        for (k, d) in diag.iter().enumerate() {
            m[k * n + k] = *d;
        }
        for &(i, j, v) in extra {
            m[i * n + j] = v;
            m[j * n + i] = v;
        }
        m
    }

    /// Every compact form whitens rows to the bits of the whole-block
    /// factor, so the A-products (`J̃ J̃ᵀ`) are the same numbers.
    #[test]
    fn compact_forms_whiten_to_the_bits_of_the_whole_factor() {
        let sphere = block(&[2.1, 2.1, 2.1, 0.37, 0.37, 0.37], &[]);
        let tensor = block(
            &[3.3, 3.3, 3.3, 0.9, 1.4, 0.6],
            &[(3, 4, 0.11), (3, 5, -0.07), (4, 5, 0.05)],
        );
        let planar = block(&[1.5, 1.5, 0.02], &[]);
        // Coupled translation and rotation (an offset centre): factored whole.
        let coupled = block(
            &[2.0, 2.0, 2.0, 0.5, 0.6, 0.7],
            &[(0, 4, 0.1), (1, 3, -0.1)],
        );
        let sys = system(vec![sphere, tensor, planar, coupled]);
        let w = BlockWhitener::new(&sys).unwrap();
        assert_eq!(
            w.form,
            [
                Form::Diagonal,
                Form::ThreePlusThree,
                Form::Diagonal,
                Form::Full
            ]
        );
        let rows: Vec<SparseRow<f64>> = vec![
            vec![
                (0, 0.6),
                (1, -0.8),
                (4, 0.013),
                (6, -0.6),
                (7, 0.8),
                (11, 0.002),
            ],
            vec![(2, 1.0), (5, 0.3), (12, -1.0), (14, 0.004)],
            vec![
                (9, 0.25),
                (10, -0.4),
                (11, 0.7),
                (15, 1.0),
                (16, -0.2),
                (19, 0.3),
            ],
            vec![(3, 1.0), (13, 0.5), (17, 0.1), (18, -0.9), (20, 0.01)],
        ];
        let mut out = Vec::new();
        let mut got = Vec::new();
        for r in &rows {
            out.clear();
            w.whiten_into(r, &mut out);
            let want = whole(&sys, r);
            assert_eq!(out.len(), want.len());
            for (a, b) in out.iter().zip(&want) {
                assert_eq!(a.0, b.0);
                assert_eq!(a.1.to_bits(), b.1.to_bits(), "{r:?}");
            }
            got.push(out.clone());
        }
        // A = J M⁻¹ Jᵀ from the whitened rows against a dense solve.
        let n = sys.n_dofs();
        let mut minv = nalgebra::DMatrix::<f64>::zeros(n, n);
        for b in &sys.mass {
            let m = nalgebra::DMatrix::from_row_slice(b.size, b.size, &b.matrix);
            let inv = m.try_inverse().unwrap();
            minv.view_mut((b.offset, b.offset), (b.size, b.size))
                .copy_from(&inv);
        }
        let dense = |r: &SparseRow<f64>| {
            let mut v = nalgebra::DVector::<f64>::zeros(n);
            for &(j, x) in r {
                v[j] += x;
            }
            v
        };
        for (i, ri) in rows.iter().enumerate() {
            for (j, rj) in rows.iter().enumerate() {
                let want = dense(ri).dot(&(&minv * dense(rj)));
                let mut have = 0.0;
                for &(a, x) in &got[i] {
                    for &(b, y) in &got[j] {
                        if a == b {
                            have += x * y;
                        }
                    }
                }
                assert!(
                    (have - want).abs() <= 1e-12 * want.abs().max(1.0),
                    "A[{i}][{j}] {have} vs {want}"
                );
            }
        }
    }

    #[test]
    fn a_block_that_is_not_positive_definite_is_named() {
        let bad = block(&[1.0, 1.0, -1.0], &[]);
        let sys = system(vec![block(&[1.0, 1.0, 1.0], &[]), bad]);
        match BlockWhitener::new(&sys) {
            Err(AnalysisError::NotPositiveDefinite { dofs }) => {
                assert_eq!(dofs, ["q3", "q4", "q5"]);
            }
            other => panic!("{:?}", other.err()),
        }
    }
}
