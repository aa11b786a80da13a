//! Seeded property tests of the Delassus computation.

use crate::support::assert_close;
use meff::analysis::{delassus, modes};
use meff::model::{Dof, MassBlock, SparseRow, System};
use nalgebra::DMatrix;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn random_matrix(rng: &mut StdRng, rows: usize, cols: usize) -> DMatrix<f64> {
    DMatrix::from_fn(rows, cols, |_, _| rng.random_range(-1.0..1.0))
}

/// A symmetric positive-definite matrix with a moderate condition number.
fn random_spd(rng: &mut StdRng, n: usize) -> DMatrix<f64> {
    let b = random_matrix(rng, n, n);
    let scale = rng.random_range(0.1..10.0);
    (b.transpose() * &b + DMatrix::identity(n, n) * (0.5 * n as f64)) * scale
}

fn rows(m: &DMatrix<f64>) -> Vec<SparseRow<f64>> {
    (0..m.nrows())
        .map(|i| {
            (0..m.ncols())
                .map(|j| (j, m[(i, j)]))
                .filter(|(_, v)| *v != 0.0)
                .collect()
        })
        .collect()
}

fn system(m: &DMatrix<f64>, j: &DMatrix<f64>, g: Option<&DMatrix<f64>>) -> System<f64> {
    let n = m.nrows();
    System {
        dofs: (0..n).map(|i| Dof::new(&format!("q{i}"), "m")).collect(),
        mass: vec![MassBlock {
            offset: 0,
            size: n,
            matrix: m.transpose().iter().copied().collect(),
        }],
        jacobian: rows(j),
        constraints: g.map(rows).unwrap_or_default(),
    }
}

fn max_abs(m: &DMatrix<f64>) -> f64 {
    m.iter().fold(0.0f64, |a, v| a.max(v.abs()))
}

#[track_caller]
fn assert_matrix_close(a: &DMatrix<f64>, b: &DMatrix<f64>, rel: f64) {
    let scale = max_abs(a).max(max_abs(b)).max(1e-300);
    let diff = max_abs(&(a - b));
    assert!(
        diff <= rel * scale,
        "matrices differ by {diff} (scale {scale})\n{a}\n{b}"
    );
}

#[test]
fn delassus_is_symmetric_psd_and_equals_j_minv_jt() {
    let mut rng = StdRng::seed_from_u64(1);
    for _ in 0..200 {
        let n = rng.random_range(1..9);
        let c = rng.random_range(1..6);
        let m = random_spd(&mut rng, n);
        let j = random_matrix(&mut rng, c, n);
        let d = delassus(&system(&m, &j, None)).unwrap();
        let direct = &j * m.clone().try_inverse().unwrap() * j.transpose();
        assert_matrix_close(&d.matrix, &direct, 1e-10);
        assert_eq!(d.matrix, d.matrix.transpose());
        let eig = nalgebra::SymmetricEigen::new(d.matrix.clone());
        assert!(eig.eigenvalues.min() >= -1e-12 * max_abs(&d.matrix));
    }
}

#[test]
fn delassus_is_invariant_under_coordinate_changes() {
    let mut rng = StdRng::seed_from_u64(2);
    for _ in 0..200 {
        let n = rng.random_range(1..9);
        let c = rng.random_range(1..6);
        let m = random_spd(&mut rng, n);
        let j = random_matrix(&mut rng, c, n);
        // v = T w with T well conditioned: M' = TᵀMT, J' = JT.
        let t = DMatrix::identity(n, n) + random_matrix(&mut rng, n, n) * 0.3;
        if t.clone().try_inverse().is_none() {
            continue;
        }
        let m2 = t.transpose() * &m * &t;
        let j2 = &j * &t;
        let a1 = delassus(&system(&m, &j, None)).unwrap().matrix;
        let a2 = delassus(&system(&m2, &j2, None)).unwrap().matrix;
        assert_matrix_close(&a1, &a2, 1e-9);
    }
}

#[test]
fn fastest_mode_lies_between_rayleigh_and_trace_bounds() {
    let mut rng = StdRng::seed_from_u64(3);
    for _ in 0..200 {
        let n = rng.random_range(1..9);
        let c = rng.random_range(1..7);
        let m = random_spd(&mut rng, n);
        let j = random_matrix(&mut rng, c, n);
        let k: Vec<f64> = (0..c)
            .map(|_| 10f64.powf(rng.random_range(2.0..7.0)))
            .collect();
        let a = delassus(&system(&m, &j, None)).unwrap().matrix;
        let (ms, zero) = modes(&a, &k);
        assert_eq!(ms.len() + zero, c);
        assert_eq!(zero, c.saturating_sub(n), "rank of a random J is min(c, n)");
        let independent = (0..c)
            .map(|i| (k[i] * a[(i, i)]).sqrt())
            .fold(0.0, f64::max);
        let trace = (0..c).map(|i| k[i] * a[(i, i)]).sum::<f64>().sqrt();
        let fastest = ms[0].omega;
        assert!(
            fastest >= independent * (1.0 - 1e-12),
            "{fastest} < {independent}"
        );
        assert!(fastest <= trace * (1.0 + 1e-12), "{fastest} > {trace}");
        for mode in &ms {
            let big = mode.shape.iter().fold(0.0f64, |x, v| x.max(v.abs()));
            assert_close(big, 1.0, 1e-12);
            assert!(mode.shape.contains(&1.0));
        }
    }
}

/// Constraints written as rows of G give the same A as eliminating them
/// by hand into independent coordinates v = N w (N spans the null space of G).
#[test]
fn constraints_two_ways_agree() {
    let mut rng = StdRng::seed_from_u64(4);
    for _ in 0..200 {
        let n = rng.random_range(2..9);
        let g_rows = rng.random_range(1..n);
        let c = rng.random_range(1..5);
        let m = random_spd(&mut rng, n);
        let j = random_matrix(&mut rng, c, n);
        let g = random_matrix(&mut rng, g_rows, n);
        let constrained = delassus(&system(&m, &j, Some(&g))).unwrap();
        assert_eq!(constrained.constraint_rank, g_rows);

        let full = nalgebra::SVD::new(
            DMatrix::<f64>::from_fn(n, n, |r, col| if r < g_rows { g[(r, col)] } else { 0.0 }),
            false,
            true,
        );
        // Null-space basis: right singular vectors with zero singular value.
        let vt = full.v_t.unwrap();
        let sv = full.singular_values;
        let null: Vec<usize> = (0..n).filter(|&i| sv[i] < 1e-10).collect();
        let nmat = DMatrix::from_fn(n, null.len(), |r, col| vt[(null[col], r)]);
        let m_r = nmat.transpose() * &m * &nmat;
        let j_r = &j * &nmat;
        let reduced = &j_r * m_r.try_inverse().unwrap() * j_r.transpose();
        let mut expect = reduced.clone();
        for i in 0..c {
            if constrained.immobile[i] {
                expect.row_mut(i).fill(0.0);
                expect.column_mut(i).fill(0.0);
            }
        }
        assert_matrix_close(&constrained.matrix, &expect, 1e-8);

        // The same constraints written twice: rank unchanged, A unchanged.
        let doubled = DMatrix::from_fn(2 * g_rows, n, |r, col| {
            g[(r % g_rows, col)] * if r >= g_rows { 2.0 } else { 1.0 }
        });
        let again = delassus(&system(&m, &j, Some(&doubled))).unwrap();
        assert_eq!(again.constraint_rank, g_rows);
        assert_matrix_close(&again.matrix, &constrained.matrix, 1e-9);
    }
}

#[test]
fn cholesky_failure_finds_the_first_failing_pivot_for_any_size() {
    // Positive definite (a Gram matrix plus the identity) at sizes on
    // both sides of the stack path (six rows), then one leading block
    // made singular: the failure is at that pivot.
    for n in [1usize, 3, 6, 7, 12] {
        let a: Vec<Vec<f64>> = (0..n)
            .map(|i| (0..n).map(|j| ((i * 7 + j * 3) % 5) as f64 - 2.0).collect())
            .collect();
        let m: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| (0..n).map(|k| a[i][k] * a[j][k]).sum::<f64>() + (i == j) as u8 as f64)
                    .collect()
            })
            .collect();
        assert_eq!(meff::case::cholesky_failure(&m), None, "n = {n}");
        for bad in 0..n {
            let mut s = m.clone();
            // Row and column `bad` a copy of row and column 0 (or zero):
            // the leading (bad+1)×(bad+1) block is singular.
            for k in 0..n {
                let v = if bad == 0 { 0.0 } else { m[0][k] };
                s[bad][k] = v;
                s[k][bad] = v;
            }
            s[bad][bad] = if bad == 0 { 0.0 } else { m[0][0] };
            assert_eq!(
                meff::case::cholesky_failure(&s),
                Some(bad),
                "n = {n}, bad = {bad}"
            );
        }
    }
    // Fixed-size rows (the scene reader's 3×3 tensors) take the same path.
    let t = [[2.0, 0.5, 0.0], [0.5, 1.0, 0.0], [0.0, 0.0, -1.0]];
    assert_eq!(meff::case::cholesky_failure(&t), Some(2));
}
