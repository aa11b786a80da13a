//! Contacts with tangential springs: rows, not contacts. The sphere's
//! 2/7 and the cylinder's 1/3 come out of the derivation; the coupled
//! normal/tangential frequencies in closed form; every row of an
//! off-centre body against an independent dense J M⁻¹ Jᵀ; bad input.

use crate::support::{assert_close, eval_stdin, evaluate_str, refused};
use nalgebra::{DMatrix, Matrix3, Vector3};

fn sphere(m: f64, r: f64, k: f64, extra: &str) -> String {
    format!(
        r#"
space = "3d"
[parameters]
m = "{m} kg"
r = "{r} m"
k = "{k} N/m"
[[body]]
name = "ball"
type = "rigid"
mass = "m"
inertia = ["2/5*m*r^2", "2/5*m*r^2", "2/5*m*r^2"]
position = ["0 m", "0 m", "r"]
[[contact]]
name = "floor"
body = "ball"
point = ["0 m", "0 m", "0 m"]
normal = [0, 0, 1]
stiffness = "k"
{extra}
"#
    )
}

#[test]
fn the_spheres_two_sevenths_is_derived() {
    for (m, r) in [(0.2, 0.02), (3.7, 0.13), (1e-3, 5e-4)] {
        let ev = evaluate_str(&sphere(m, r, 1e5, "tangential_ratio = 0.8"));
        let d = ev.derivation.as_ref().expect("derivation");
        let t = &d.tangential[0];
        assert_eq!(t.m_t_over_m_n.len(), 2);
        for q in &t.m_t_over_m_n {
            assert_eq!(q.as_ref().unwrap().text, "2/7");
        }
        let tg = ev.analysis.tangential.as_ref().unwrap();
        assert_close(tg.rows.m_eff(1).unwrap(), 2.0 / 7.0 * m, 1e-12);
        assert_close(tg.rows.m_eff(2).unwrap(), 2.0 / 7.0 * m, 1e-12);
        assert!(tg.contact_block(0).coupling.iter().all(|c| c.abs() < 1e-12));
    }
}

#[test]
fn a_rolling_cylinders_tangent_mass_is_m_over_one_plus_m_r2_over_i() {
    // Planar: a solid cylinder (I = m r²/2) and a thin ring (I = m r²)
    // on the ground. m_t = m/(1 + m r²/I): 1/3 and 1/2 of m, derived.
    for (inertia, want) in [("m*r^2/2", "1/3"), ("m*r^2", "1/2"), ("J", "")] {
        let src = format!(
            r#"
space = "planar"
[parameters]
m = "1.3 kg"
r = "0.07 m"
J = "0.004 kg m^2"
[[body]]
name = "roller"
type = "rigid"
mass = "m"
inertia = "{inertia}"
position = ["0 m", "r"]
[[contact]]
name = "ground"
body = "roller"
point = ["0 m", "0 m"]
normal = [0, 1]
stiffness = "1e5 N/m"
tangential_stiffness = "5e4 N/m"
"#
        );
        let ev = evaluate_str(&src);
        let d = ev.derivation.as_ref().expect("derivation");
        let q = d.tangential[0].m_t_over_m_n[0].as_ref().unwrap();
        let (m, r, j) = (1.3, 0.07, 0.004);
        let i = match inertia {
            "m*r^2/2" => m * r * r / 2.0,
            "m*r^2" => m * r * r,
            _ => j,
        };
        if !want.is_empty() {
            assert_eq!(q.text, want);
        }
        let tg = ev.analysis.tangential.as_ref().unwrap();
        assert_eq!(tg.rows.len(), 2, "planar: the normal row and one tangent");
        assert_close(tg.rows.m_eff(1).unwrap(), m / (1.0 + m * r * r / i), 1e-12);
    }
}

#[test]
fn the_spheres_coupled_frequencies_are_the_closed_forms() {
    let (m, r, k, ratio) = (0.35, 0.04, 2e5, 0.6);
    let ev = evaluate_str(&sphere(m, r, k, &format!("tangential_ratio = {ratio}")));
    let tg = ev.analysis.tangential.as_ref().unwrap();
    let wt = (7.0 * ratio * k / (2.0 * m)).sqrt();
    let wn = (k / m).sqrt();
    let mut got: Vec<f64> = tg.modes.iter().map(|x| x.omega).collect();
    got.sort_by(f64::total_cmp);
    let mut want = vec![wn, wt, wt];
    want.sort_by(f64::total_cmp);
    for (g, w) in got.iter().zip(&want) {
        assert_close(*g, *w, 1e-12);
    }
    assert_close(tg.stable_dt.coupled.unwrap(), 2.0 / wt, 1e-12);
    // The normal rows alone: 2/ω_n, and the summary's ratio between them.
    let rep = ev.report.tangential.as_ref().unwrap();
    assert_close(rep.dt_without.unwrap(), 2.0 / wn, 1e-12);
    assert_close(rep.dt_ratio.unwrap(), wn / wt, 1e-12);
    let rows: Vec<&str> = rep.setting_rows.iter().map(|s| s.row.as_str()).collect();
    assert_eq!(rows, ["floor.t1", "floor.t2"]);
    assert_close(ev.report.stable_dt.governing.unwrap(), 2.0 / wt, 1e-12);
}

/// A box resting on a tilted contact off its centre, against a second
/// free box: every row of A, computed here from J M⁻¹ Jᵀ by hand.
#[test]
fn every_row_matches_an_independent_dense_computation() {
    let src = r#"
space = "3d"
[[body]]
name = "a"
type = "rigid"
mass = "2 kg"
inertia = ["0.02 kg m^2", "0.03 kg m^2", "0.04 kg m^2"]
position = ["0.1 m", "0.05 m", "0.3 m"]
[[body]]
name = "b"
type = "rigid"
mass = "5 kg"
inertia = ["0.1 kg m^2", "0.08 kg m^2", "0.06 kg m^2"]
position = ["-0.05 m", "0.02 m", "0.0 m"]
[[contact]]
name = "ab"
body = "a"
other = "b"
point = ["0.02 m", "0.01 m", "0.15 m"]
normal = [0.6, 0, 0.8]
stiffness = "1e5 N/m"
tangential_ratio = 0.5
tangent = [0, 1, 1]
[[contact]]
name = "floor"
body = "b"
point = ["-0.1 m", "0.05 m", "-0.1 m"]
normal = [0, 0, 1]
stiffness = "2e5 N/m"
tangential_stiffness = "1e5 N/m"
"#;
    let ev = evaluate_str(src);
    let tg = ev.analysis.tangential.as_ref().unwrap();
    // Independent: the tangent basis by hand, rows by v_p = v + ω × r.
    let n1 = Vector3::new(0.6, 0.0, 0.8);
    let g = Vector3::new(0.0, 1.0, 1.0);
    let t1 = (g - n1 * g.dot(&n1)).normalize();
    let t2 = n1.cross(&t1);
    let n2 = Vector3::z();
    let (u1, u2) = (Vector3::x(), Vector3::y()); // least aligned with z: x; then z × x = y
    let pa = Vector3::new(0.1, 0.05, 0.3);
    let pb = Vector3::new(-0.05, 0.02, 0.0);
    let p1 = Vector3::new(0.02, 0.01, 0.15);
    let p2 = Vector3::new(-0.1, 0.05, -0.1);
    let row =
        |d: Vector3<f64>, p: Vector3<f64>, a: Option<Vector3<f64>>, b: Option<Vector3<f64>>| {
            let mut j = vec![0.0; 12];
            if let Some(x) = a {
                let rxn = (p - x).cross(&d);
                j[..3].copy_from_slice(d.as_slice());
                j[3..6].copy_from_slice(rxn.as_slice());
            }
            if let Some(x) = b {
                let rxn = (p - x).cross(&d);
                for k in 0..3 {
                    j[6 + k] -= d[k];
                    j[9 + k] -= rxn[k];
                }
            }
            j
        };
    // floor's body is b, with no other: its rows are +b.
    let rows = [
        row(n1, p1, Some(pa), Some(pb)),
        row(t1, p1, Some(pa), Some(pb)),
        row(t2, p1, Some(pa), Some(pb)),
        row(n2, p2, Some(pb), None),
        row(u1, p2, Some(pb), None),
        row(u2, p2, Some(pb), None),
    ];
    let mut rows = rows.to_vec();
    for r in rows.iter_mut().skip(3) {
        // Move the floor's entries to body b's columns.
        let a: Vec<f64> = (0..6).map(|_| 0.0).collect();
        let bb: Vec<f64> = (0..6).map(|k| r[k]).collect();
        r[..6].copy_from_slice(&a);
        r[6..].copy_from_slice(&bb);
    }
    let minv = {
        let mut m = DMatrix::zeros(12, 12);
        let ia = Matrix3::from_diagonal(&Vector3::new(0.02, 0.03, 0.04));
        let ib = Matrix3::from_diagonal(&Vector3::new(0.1, 0.08, 0.06));
        for k in 0..3 {
            m[(k, k)] = 1.0 / 2.0;
            m[(6 + k, 6 + k)] = 1.0 / 5.0;
            m[(3 + k, 3 + k)] = 1.0 / ia[(k, k)];
            m[(9 + k, 9 + k)] = 1.0 / ib[(k, k)];
        }
        m
    };
    let j = DMatrix::from_fn(6, 12, |i, k| rows[i][k]);
    let a = &j * minv * j.transpose();
    for p in 0..6 {
        for q in 0..6 {
            let scale = (a[(p, p)] * a[(q, q)]).sqrt();
            assert!(
                (tg.delassus[(p, q)] - a[(p, q)]).abs() <= 1e-12 * scale,
                "A[{p}][{q}] = {} against {}",
                tg.delassus[(p, q)],
                a[(p, q)]
            );
        }
    }
    // The first contact's coupling is not zero (its point is off both centres).
    let c = &tg.contact_block(0);
    assert_close(
        c.coupling[0],
        a[(0, 1)] / (a[(0, 0)] * a[(1, 1)]).sqrt(),
        1e-12,
    );
    assert!(c.coupling.iter().any(|x| x.abs() > 1e-3));
    // Every row's step: 2/ω_max of K^½ A K^½ with these stiffnesses.
    let k: [f64; 6] = [1e5, 5e4, 5e4, 2e5, 1e5, 1e5];
    let s = DMatrix::from_fn(6, 6, |p, q| (k[p] * k[q]).sqrt() * a[(p, q)]);
    let wmax = s.symmetric_eigenvalues().max().sqrt();
    assert_close(tg.stable_dt.coupled.unwrap(), 2.0 / wmax, 1e-10);
}

#[test]
fn bad_tangential_input_is_located() {
    let base = sphere(0.2, 0.02, 1e5, "");
    for (extra, said) in [
        ("tangential_ratio = 0", "must be in (0, 10]"),
        ("tangential_ratio = 10.5", "must be in (0, 10]"),
        ("tangential_ratio = -1", "must be in (0, 10]"),
        ("tangential_ratio = \"1 m\"", "a tangential ratio"),
        (
            "tangential_ratio = 0.5\ntangential_stiffness = \"1e4 N/m\"",
            "both `tangential_stiffness` and `tangential_ratio`",
        ),
        (
            "tangential_damping = \"1 N s/m\"",
            "needs a tangential spring",
        ),
        (
            "tangential_ratio = 0.5\ntangent = [0, 0, 3]",
            "parallel to the normal",
        ),
        (
            "tangential_ratio = 0.5\ntangent = [1, 0]",
            "must have 3 components",
        ),
        ("tangential_stiffness = \"-5 N/m\"", "must be positive"),
    ] {
        let out = eval_stdin(&format!("{base}{extra}\n"));
        let err = refused(&out, said);
        assert!(err.contains("-:"), "located: {err}");
    }
    // A line case has no tangent.
    let line = "space = \"line\"\n[[body]]\nname = \"p\"\ntype = \"particle\"\nmass = \"1 kg\"\n[[contact]]\nname = \"c\"\nbody = \"p\"\npoint = [\"0 m\"]\nnormal = [1]\nstiffness = \"1 N/m\"\ntangential_ratio = 0.5\n";
    refused(&eval_stdin(line), "no tangent direction");
}

#[test]
fn a_hertz_contact_is_linearised_under_its_load_with_mindlins_spring() {
    let (e, r, w, g): (f64, f64, f64, f64) = (115e9, 0.01, 0.3208, 43.5e9);
    // The helper's ball is m = 0.0327 kg, r = 0.01 m.
    let src = crate::support::hertz_ball(
        "",
        &format!("modulus = \"{e} Pa\"\nload = \"{w} N\"\nshear_modulus = \"{g} Pa\"\n"),
    );
    let ev = evaluate_str(&src);
    let k = 4.0 / 3.0 * e * r.sqrt();
    let delta = (w / k).powf(2.0 / 3.0);
    // F(δ) = W, and k = dF/dδ there.
    assert_close(k * delta.powf(1.5), w, 1e-12);
    assert_close(
        ev.analysis.contacts[0].stiffness,
        1.5 * k * delta.sqrt(),
        1e-12,
    );
    let tg = ev.analysis.tangential.as_ref().unwrap();
    assert_close(tg.rows.stiffness()[1], 8.0 * g * (r * delta).sqrt(), 1e-12);
    // The same contact by its coefficient and overlap.
    let by_k = src
        .replace(
            &format!("modulus = \"{e} Pa\"\n"),
            &format!("hertz_coefficient = {k}\n"),
        )
        .replace(
            &format!("load = \"{w} N\"\n"),
            &format!("overlap = \"{delta} m\"\n"),
        );
    let ev2 = evaluate_str(&by_k);
    assert_close(
        ev2.analysis.contacts[0].stiffness,
        ev.analysis.contacts[0].stiffness,
        1e-12,
    );
    for (from, to, said) in [
        (
            "law = \"hertz\"\n",
            "law = \"hertz\"\nstiffness = \"1 N/m\"\n",
            "its stiffness comes from the law",
        ),
        (
            "law = \"hertz\"\n",
            "law = \"herz\"\n",
            "unknown contact law",
        ),
        (
            &format!("load = \"{w} N\"\n"),
            "",
            "give one of `overlap` and `load`",
        ),
        (
            &format!("load = \"{w} N\"\n"),
            &format!("load = \"{w} N\"\noverlap = \"1 um\"\n"),
            "give one of `overlap` and `load`",
        ),
        (
            &format!("modulus = \"{e} Pa\"\n"),
            "",
            "needs `modulus` and `radius`",
        ),
        (
            &format!("modulus = \"{e} Pa\"\n"),
            "modulus = \"-1 Pa\"\n",
            "must be positive",
        ),
        (
            &format!("load = \"{w} N\"\n"),
            "load = \"1 m\"\n",
            "a load must be in",
        ),
        (
            "law = \"hertz\"\n",
            "law = \"hertz\"\ntangential_ratio = 0.5\n",
            "Mindlin",
        ),
    ] {
        let bad = src.replace(from, to);
        refused(&eval_stdin(&bad), said);
    }
    // Hertz keys on a linear contact.
    let linear = sphere(0.2, 0.02, 1e5, "overlap = \"1 um\"");
    refused(&eval_stdin(&linear), "is a Hertz key");
}

#[test]
fn the_hertz_impact_is_reported_with_the_exact_effective_mass() {
    // The bundled steel ball: the impact uses the analysis m_eff and its
    // numbers are the closed form.
    let ev = crate::support::bundled("hertz-sphere-impact.toml");
    let h = &ev.report.hertz[0];
    let m = ev.analysis.contacts[0].m_eff.unwrap();
    let x = meff::hertz::impact(m, h.coefficient, 1.0);
    let i = h.impact.as_ref().unwrap();
    assert_close(i.max_overlap, x.max_overlap, 1e-14);
    assert_close(i.peak_force, x.peak_force, 1e-14);
    assert_close(i.duration, x.duration, 1e-14);
    // Against the independent integration (error bound 1e-6, docs/physics.md).
    let n = meff::hertz::integrate(m, h.coefficient, 1.0, 2000);
    assert_close(i.duration, n.duration, 1e-6);
    assert_close(i.peak_force, n.peak_force, 1e-6);
    let g = ev.report.stable_dt.governing.unwrap();
    assert_close(i.hertz_time_factor.unwrap(), g / i.duration, 1e-14);
}

/// A clump (rigid three-sphere particle) on a plane, two spheres touching:
/// MuJoCo's condim = 3 rows (elliptic cone: per contact the normal, then
/// the two tangents of its contact frame) and its A = J M⁻¹ Jᵀ, from
/// tests/engines/clump_condim3.py, against meff's rows with the same
/// tangents, to round-off. MuJoCo's free-joint velocities (angular in body
/// axes) differ from meff's, so A, not J, is compared entry by entry; the
/// row norms of J M^-½ are in A's diagonal.
#[test]
fn a_clumps_condim3_rows_match_mujoco() {
    let path = crate::support::root().join("tests/engines/clump_condim3.json");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let f = |x: &serde_json::Value| x.as_f64().unwrap();
    let vec = |x: &serde_json::Value| x.as_array().unwrap().iter().map(f).collect::<Vec<f64>>();
    let com = vec(&v["com"]);
    let inertia: Vec<Vec<f64>> = v["inertia_world"]
        .as_array()
        .unwrap()
        .iter()
        .map(vec)
        .collect();
    let mut src = format!(
        "space = \"3d\"\n[[body]]\nname = \"clump\"\ntype = \"rigid\"\nmass = \"{} kg\"\nposition = [\"{} m\", \"{} m\", \"{} m\"]\ninertia = [",
        f(&v["mass"]),
        com[0],
        com[1],
        com[2]
    );
    let rows: Vec<String> = inertia
        .iter()
        .map(|r| {
            format!(
                "[\"{} kg m^2\", \"{} kg m^2\", \"{} kg m^2\"]",
                r[0], r[1], r[2]
            )
        })
        .collect();
    src.push_str(&rows.join(", "));
    src.push_str("]\n");
    let contacts = v["contacts"].as_array().unwrap();
    for (i, c) in contacts.iter().enumerate() {
        let p = vec(&c["pos"]);
        let fr = vec(&c["frame"]);
        src.push_str(&format!(
            "[[contact]]\nname = \"s{i}\"\nbody = \"clump\"\npoint = [\"{} m\", \"{} m\", \"{} m\"]\nnormal = [{}, {}, {}]\nstiffness = \"1e5 N/m\"\ntangential_ratio = 0.5\ntangent = [{}, {}, {}]\n",
            p[0], p[1], p[2], fr[0], fr[1], fr[2], fr[3], fr[4], fr[5]
        ));
    }
    let ev = evaluate_str(&src);
    let tg = ev.analysis.tangential.as_ref().unwrap();
    // meff's t2 = n × t1 is MuJoCo's third frame axis.
    for (i, c) in contacts.iter().enumerate() {
        let fr = vec(&c["frame"]);
        for k in 0..3 {
            assert!((tg.rows.direction(3 * i + 2)[k] - fr[6 + k]).abs() < 1e-15);
        }
    }
    let a: Vec<Vec<f64>> = v["A"].as_array().unwrap().iter().map(vec).collect();
    assert_eq!(a.len(), tg.rows.len());
    let scale = (0..a.len()).map(|i| a[i][i]).fold(0.0, f64::max);
    for (p, row) in a.iter().enumerate() {
        for (q, x) in row.iter().enumerate() {
            assert!(
                (tg.delassus[(p, q)] - x).abs() <= 1e-12 * scale,
                "A[{p}][{q}]: meff {} MuJoCo {x}",
                tg.delassus[(p, q)]
            );
        }
    }
    // Two contacts on one body couple their tangent rows.
    assert!(tg.delassus[(1, 4)].abs() > 1e-3 * scale);
}
