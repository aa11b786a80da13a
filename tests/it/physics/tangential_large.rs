//! Tangential rows on the large (matrix-free) path against the dense path:
//! random clumps and packings small enough for both, every row's A_ii, each
//! contact's block of A, the fastest mode over every row (1e-10), which
//! rows set the step, and the steps with and without the tangential
//! springs; the sphere's tangential mass 2/7 m on the large path.

use crate::support::{assert_close, evaluate_str};

/// A small deterministic generator (xorshift64*), uniform in [0, 1).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }

    fn unit(&mut self) -> [f64; 3] {
        loop {
            let v = [
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            ];
            let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            if n > 0.2 && n < 1.0 {
                return [v[0] / n, v[1] / n, v[2] / n];
            }
        }
    }
}

fn vec3(v: [f64; 3], unit: &str) -> String {
    let q = |x: f64| {
        if unit.is_empty() {
            format!("{x:?}")
        } else {
            format!("\"{x:.6} {unit}\"")
        }
    };
    format!("[{}, {}, {}]", q(v[0]), q(v[1]), q(v[2]))
}

/// A random scene: `bodies` rigid bodies with unequal inertias, pairs of
/// them in contact and some on the floor, every contact (or every other,
/// when `mixed`) with a tangential spring — absolute or a ratio, with or
/// without a given tangent and dashpots.
fn random_case(seed: u64, bodies: usize, contacts: usize, mixed: bool, damped: bool) -> String {
    let mut g = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut s = String::from("space = \"3d\"\n");
    let mut pos = Vec::new();
    for b in 0..bodies {
        let p = [g.range(-1.0, 1.0), g.range(-1.0, 1.0), g.range(0.2, 1.5)];
        pos.push(p);
        let i = [g.range(0.01, 0.1), g.range(0.01, 0.1), g.range(0.01, 0.1)];
        s += &format!(
            "[[body]]\nname = \"b{b}\"\ntype = \"rigid\"\nmass = \"{:.4} kg\"\ninertia = {}\nposition = {}\n",
            g.range(0.5, 5.0),
            vec3(i, "kg m^2"),
            vec3(p, "m")
        );
    }
    for c in 0..contacts {
        let a = c % bodies;
        let other =
            (c % 3 != 0).then(|| (a + 1 + (g.next() * (bodies - 1) as f64) as usize) % bodies);
        let base = pos[a];
        let off = g.unit();
        let point = [
            base[0] + 0.2 * off[0],
            base[1] + 0.2 * off[1],
            base[2] + 0.2 * off[2],
        ];
        let normal = g.unit();
        s += &format!(
            "[[contact]]\nname = \"c{c}\"\nbody = \"b{a}\"\n{}point = {}\nnormal = {}\nstiffness = \"{:.1} N/m\"\n",
            other.map_or(String::new(), |o| format!("other = \"b{o}\"\n")),
            vec3(point, "m"),
            vec3(normal, ""),
            g.range(1e4, 1e6),
        );
        if damped {
            s += &format!("damping = \"{:.3} N s/m\"\n", g.range(1.0, 20.0));
        }
        if mixed && c % 2 == 1 {
            continue;
        }
        if c % 4 == 0 {
            s += &format!("tangential_stiffness = \"{:.1} N/m\"\n", g.range(1e4, 1e6));
        } else {
            s += &format!("tangential_ratio = {:.4}\n", g.range(0.2, 3.0));
        }
        if c % 5 == 2 {
            s += &format!("tangent = {}\n", vec3(g.unit(), ""));
        }
        if damped && c % 3 == 1 {
            s += "tangential_damping = \"2 N s/m\"\n";
        }
    }
    s
}

fn with_path(case: &str, path: &str) -> String {
    format!("{case}[analysis]\nmodes = 6\npath = \"{path}\"\n")
}

/// The large path's rows, blocks, modes and steps against the dense path's.
fn compare(case: &str) {
    let dense = evaluate_str(&with_path(case, "dense"));
    let large = evaluate_str(&with_path(case, "large"));
    assert!(dense.analysis.large.is_none() && large.analysis.large.is_some());
    let (d, l) = (
        dense.analysis.tangential.as_ref().expect("dense rows"),
        large.analysis.tangential.as_ref().expect("large rows"),
    );
    assert_eq!(d.rows.len(), l.rows.len());
    let scale = d.rows.iter().map(|r| r.a).fold(0.0, f64::max);
    for (x, y) in d.rows.iter().zip(l.rows.iter()) {
        assert_eq!(x.of, y.of);
        assert_eq!(x.direction, y.direction);
        assert_eq!(x.stiffness, y.stiffness);
        assert_eq!(x.damping, y.damping);
        assert!((x.a - y.a).abs() <= 1e-12 * scale, "{x:?} vs {y:?}");
    }
    assert_eq!(d.blocks.len(), l.blocks.len());
    for (x, y) in d.contact_blocks().zip(l.contact_blocks()) {
        assert_eq!((x.contact, x.first_row), (y.contact, y.first_row));
        for (p, q) in x.block.iter().flatten().zip(y.block.iter().flatten()) {
            assert!(
                (p - q).abs() <= 1e-12 * scale,
                "{:?} vs {:?}",
                x.block,
                y.block
            );
        }
        for (p, q) in x.coupling.iter().zip(&y.coupling) {
            assert!((p - q).abs() <= 1e-10, "{p} vs {q}");
        }
    }
    // The fastest mode over every row, to 1e-10 (a random case has no
    // repeated frequencies): the large path seeks that one alone (ω_max,
    // the step, the rows that set it), with one replay for its shape and
    // one residual product.
    assert_eq!(l.modes.len(), 1, "{} modes listed", l.modes.len());
    let info = l.large.as_ref().expect("the run over every row");
    assert_eq!((info.modes_requested, info.modes_converged), (1, 1));
    assert_eq!(info.products, 2 * info.lanczos_steps, "{info:?}");
    for (k, (x, y)) in d.modes.iter().zip(&l.modes).enumerate() {
        assert!(
            (x.omega - y.omega).abs() <= 1e-10 * d.modes[0].omega,
            "mode {k}: {} vs {}",
            x.omega,
            y.omega
        );
    }
    // Which rows set the step: the same rows, the same shares.
    assert_eq!(
        d.setting_rows.iter().map(|r| r.0).collect::<Vec<_>>(),
        l.setting_rows.iter().map(|r| r.0).collect::<Vec<_>>()
    );
    for (x, y) in d.setting_rows.iter().zip(&l.setting_rows) {
        assert!((x.1 - y.1).abs() <= 1e-8, "{x:?} vs {y:?}");
    }
    // The step with the tangential springs, 2/ω_max over every row; the
    // step without them is the normal rows' own.
    assert_close(
        d.stable_dt.coupled.unwrap(),
        l.stable_dt.coupled.unwrap(),
        1e-10,
    );
    assert_close(
        dense.analysis.stable_dt.coupled.unwrap(),
        large.analysis.stable_dt.coupled.unwrap(),
        1e-10,
    );
    let (dn, ln) = (d.normal_governing.unwrap(), l.normal_governing.unwrap());
    if dense.analysis.contacts.iter().all(|c| c.damping.is_none()) {
        assert_close(dn.0, ln.0, 1e-10);
        assert_close(
            d.stable_dt.governing.unwrap().0,
            l.stable_dt.governing.unwrap().0,
            1e-10,
        );
        // Tangential springs only add stiffness: the step can only shrink.
        assert!(l.stable_dt.governing.unwrap().0 <= ln.0 * (1.0 + 1e-12));
    } else {
        // Dashpots: the large path's energy bound is below the exact
        // step map's limit, and never above 2/ω_max.
        let (lg, dg) = (
            l.stable_dt.governing.unwrap(),
            d.stable_dt.governing.unwrap(),
        );
        assert!(lg.0 <= dg.0 * (1.0 + 1e-9), "{lg:?} vs {dg:?}");
        assert!(lg.0 <= l.stable_dt.coupled.unwrap());
        assert!(lg.0 > 0.0);
    }
    // The headline's step is the one over every row.
    assert_eq!(large.analysis.stable_dt.governing, l.stable_dt.governing);
    let g = large.analysis.stable_dt.guaranteed.unwrap();
    assert!(g <= l.stable_dt.governing.unwrap().0 && g > 0.0);
}

#[test]
fn random_clumps_give_the_dense_paths_rows_and_modes_on_the_large_path() {
    for seed in 1..=4 {
        compare(&random_case(seed, 3, 5, false, false));
    }
}

#[test]
fn random_packings_with_some_tangential_springs_match_the_dense_path() {
    for seed in 11..=13 {
        compare(&random_case(seed, 12, 30, true, false));
    }
    // Dashpots on some rows: the rows and modes still agree; the step
    // is the large path's bound.
    compare(&random_case(21, 8, 16, false, true));
}

#[test]
fn the_spheres_two_sevenths_come_out_on_the_large_path() {
    for (m, r, ratio) in [(0.2, 0.02, 0.8), (3.7, 0.13, 2.5), (1e-3, 5e-4, 0.1)] {
        let case = format!(
            "space = \"3d\"\n[[body]]\nname = \"ball\"\ntype = \"rigid\"\nmass = \"{m} kg\"\ninertia = [\"{i} kg m^2\", \"{i} kg m^2\", \"{i} kg m^2\"]\nposition = [\"0 m\", \"0 m\", \"{r} m\"]\n[[contact]]\nname = \"floor\"\nbody = \"ball\"\npoint = [\"0 m\", \"0 m\", \"0 m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e5 N/m\"\ntangential_ratio = {ratio}\n[analysis]\npath = \"large\"\n",
            i = 0.4 * m * r * r
        );
        let ev = evaluate_str(&case);
        assert!(ev.analysis.large.is_some());
        let t = ev.analysis.tangential.as_ref().unwrap();
        assert_eq!(t.rows.len(), 3);
        assert_close(t.rows.m_eff(0).unwrap(), m, 1e-12);
        for row in 1..3 {
            assert_close(t.rows.m_eff(row).unwrap(), 2.0 / 7.0 * m, 1e-12);
        }
        // Uncoupled rows: ω over every row is the faster of √(k/m) and
        // √(k_t 7/(2m)).
        let want = (1e5 / m).sqrt().max((ratio * 1e5 * 3.5 / m).sqrt());
        assert_close(t.modes[0].omega, want, 1e-10);
        assert!(t.contact_block(0).coupling.iter().all(|c| c.abs() < 1e-12));
        let tangent_sets = ratio * 3.5 > 1.0;
        let named: Vec<usize> = t.setting_rows.iter().map(|r| r.0).collect();
        if tangent_sets {
            assert!(named.iter().all(|&r| r > 0), "{named:?}");
        } else {
            assert_eq!(named, [0]);
        }
    }
}
