//! Large systems: a generated case with 10,000 contacts gives a readable
//! report (summaries and histograms, no c×c matrix) and safe timesteps.

/// A row of `n + 1` particles on a line joined by `n` contacts, with
/// masses varying along the row, plus a wall at the start.
fn chain(n: usize) -> String {
    let mut s = String::from(
        "title = \"Chain of particles\"\nspace = \"line\"\n[parameters]\nk = \"1e5 N/m\"\n",
    );
    for i in 0..=n {
        let mass = 1.0 + (i % 7) as f64 * 0.25;
        s.push_str(&format!("[[body]]\nname = \"p{i}\"\ntype = \"particle\"\nmass = \"{mass} kg\"\nposition = [\"{} m\"]\n", i as f64 * 0.01));
    }
    s.push_str("[[contact]]\nname = \"wall\"\nbody = \"p0\"\npoint = [\"-0.005 m\"]\nnormal = [1]\nstiffness = \"k\"\n");
    for i in 1..n {
        s.push_str(&format!(
            "[[contact]]\nname = \"c{i}\"\nbody = \"p{i}\"\nother = \"p{}\"\npoint = [\"{} m\"]\nnormal = [1]\nstiffness = \"k\"\n",
            i - 1,
            i as f64 * 0.01 - 0.005
        ));
    }
    s
}

/// The assembled system of [`chain`]`(n)` and its stiffnesses.
fn chain_system(n: usize) -> (meff::model::System<f64>, Vec<f64>) {
    let case = meff::case::parse_case("chain.toml", &chain(n)).unwrap();
    let model = meff::model::numeric(&case);
    let k = model.contacts.iter().map(|c| c.stiffness).collect();
    (meff::model::assemble(&model), k)
}

#[test]
fn ten_thousand_contacts_give_a_readable_report() {
    let source = chain(10_000);
    let case = meff::case::parse_case("chain.toml", &source).unwrap();
    assert_eq!(case.contacts.len(), 10_000);
    let ev = meff::evaluate_with(
        case,
        meff::Options {
            verify: true,
            progress: None,
            // Every contact (the large path's default lists the fastest 20).
            contacts: Some(meff::report::ContactSelection::All),
            ..Default::default()
        },
    )
    .unwrap();
    let r = &ev.report;
    let large = r.large.as_ref().expect("the large-system path");
    assert!(r.delassus.matrix.is_none());
    assert_eq!(r.delassus.omitted, Some("size"));
    assert_eq!(r.zero_modes, None);
    assert!(r.verification.is_none());
    assert!(!r.symbolic.available);
    // Safe: ω_max is a converged Lanczos value or the Gershgorin bound, never
    // below the Rayleigh bound max ω_i.
    assert!(r.coupled_omega_max >= r.independent_omega_max * (1.0 - 1e-9));
    assert!(r.coupled_omega_max <= large.gershgorin_omega * (1.0 + 1e-12));
    assert_eq!(large.mass_ratio.counts.iter().sum::<usize>(), 10_000);
    assert_eq!(large.most_affected.len(), 10);
    // Per-contact values are still exact: the wall contact sees p0 alone.
    assert!((r.contacts[0].a - 1.0).abs() < 1e-12);

    let t = meff::render::templates::Templates::load(None).unwrap();
    let html = t.report_html(r, 4).unwrap();
    let md = t.report_md(r, 4).unwrap();
    assert!(
        html.matches("<tr>").count() < 100,
        "the HTML lists a bounded number of rows"
    );
    assert!(html.len() < 300_000, "HTML is {} bytes", html.len());
    assert!(md.lines().count() < 200);
    // m_eff / naive is 1 for every contact of the chain (to round-off):
    // that distribution is not plotted, the single-contact ω one is.
    assert!(html.contains("histogram of single-contact ω"));
    assert!(!html.contains("histogram of m_eff / naive"));
    // Both counts of S as the JSON gives them: every nonzero (both
    // triangles; a chain couples each contact with its neighbours) and
    // fewer stored (a symmetric pair once).
    assert!(large.stored < large.nnz && 2 * large.stored > large.nnz);
    for text in [&html, &md] {
        assert!(text.contains(&format!(
            "{} nonzero entries, {} stored",
            large.nnz, large.stored
        )));
    }
    let json = meff::render::json(r);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(v["delassus"]["matrix"].is_null());
    assert_eq!(v["delassus"]["omitted"], "size");
}

/// A chain with equal masses: its fastest modes are clustered (spacing
/// ∝ 1/n²), the hard case for Lanczos.
fn uniform_chain(n: usize) -> String {
    chain(n)
        .replace("mass = \"1.25 kg\"", "mass = \"1 kg\"")
        .replace("mass = \"1.5 kg\"", "mass = \"1 kg\"")
        .replace("mass = \"1.75 kg\"", "mass = \"1 kg\"")
        .replace("mass = \"2 kg\"", "mass = \"1 kg\"")
        .replace("mass = \"2.25 kg\"", "mass = \"1 kg\"")
        .replace("mass = \"2.5 kg\"", "mass = \"1 kg\"")
}

#[test]
fn lanczos_agrees_with_a_dense_eigensolver() {
    // The matrix-free path on chains where a dense solve is cheap: every
    // requested mode converges and matches the dense spectrum to the
    // residual tolerance; the upper bound is safe.
    for (source, want) in [(chain(40), 3), (chain(300), 6), (uniform_chain(600), 6)] {
        let case = meff::case::parse_case("chain.toml", &source).unwrap();
        let model = meff::model::numeric(&case);
        let system = meff::model::assemble(&model);
        let k: Vec<f64> = model.contacts.iter().map(|c| c.stiffness).collect();
        let w = meff::analysis::large::coupled(&system, &k).unwrap();
        let diag = &w.diag;
        let (modes, info) = meff::analysis::large::fastest_modes(&w, want, true);
        let dense = meff::analysis::delassus(&system).unwrap().matrix;
        let (exact, _) = meff::analysis::modes(&dense, &k);
        let n = k.len();
        assert_eq!(
            modes.len(),
            want,
            "n={n}: all requested modes converge: {info:?}"
        );
        assert!(info.max_residual <= meff::analysis::large::LANCZOS_TOLERANCE);
        for (m, e) in modes.iter().zip(&exact) {
            assert!(
                (m.omega - e.omega).abs() <= 1e-9 * e.omega,
                "n={n}: {} vs {}",
                m.omega,
                e.omega
            );
        }
        // A_ii and A_ij from the sparse S equal the dense A.
        for i in [0, n / 2, n - 1] {
            assert!((diag[i] - dense[(i, i)]).abs() <= 1e-12 * dense[(i, i)]);
            if i > 0 {
                assert!((w.a(i, i - 1) - dense[(i, i - 1)]).abs() <= 1e-12 * dense[(i, i)]);
            }
        }
        assert!(info.gershgorin_omega >= exact[0].omega * (1.0 - 1e-12));
        // Values alone, judged by the Kato–Temple bound: no more steps, the
        // same modes, each squared frequency within the tolerance of the
        // dense one (and within the bound it reports, with room for the
        // dense solver's own round-off).
        let (values, vinfo) = meff::analysis::large::fastest_modes(&w, want, false);
        assert_eq!(values.len(), want, "{vinfo:?}");
        assert!(
            vinfo.lanczos_steps <= info.lanczos_steps,
            "{vinfo:?} {info:?}"
        );
        assert!(vinfo.max_value_error <= meff::analysis::large::LANCZOS_TOLERANCE);
        let top = exact[0].omega * exact[0].omega;
        for (m, e) in values.iter().zip(&exact) {
            let err = (m.omega * m.omega - e.omega * e.omega).abs() / top;
            assert!(
                err <= meff::analysis::large::LANCZOS_TOLERANCE
                    && err <= vinfo.max_value_error + 1e-13,
                "n={n}: {err:e} ({vinfo:?})"
            );
        }
        // Bit-identical on a second run (fixed start, fixed summation order).
        let (again, _) = meff::analysis::large::fastest_modes(&w, want, true);
        assert_eq!(
            modes.iter().map(|m| m.omega.to_bits()).collect::<Vec<_>>(),
            again.iter().map(|m| m.omega.to_bits()).collect::<Vec<_>>()
        );
    }
}

/// A deterministic pseudo-random number in [0, 1).
fn lcg(state: &mut u64) -> f64 {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    (*state >> 11) as f64 / (1u64 << 53) as f64
}

/// `Q diag(d) Qᵀ` with a random orthogonal Q, as the large path's S (one
/// block of compressed rows, every entry stored).
fn coupled_with_spectrum(d: &[f64], seed: u64) -> meff::analysis::large::Coupled {
    let n = d.len();
    let mut state = seed;
    let g = nalgebra::DMatrix::from_fn(n, n, |_, _| lcg(&mut state) - 0.5);
    let q = g.qr().q();
    let s = &q
        * nalgebra::DMatrix::from_diagonal(&nalgebra::DVector::from_row_slice(d))
        * q.transpose();
    let s = &s;
    let sym = |i: usize| (0..n).map(move |j| (j, 0.5 * (s[(i, j)] + s[(j, i)])));
    let csr = meff::analysis::large::LocalCsr::from_rows(n, sym);
    meff::analysis::large::Coupled {
        diag: (0..n).map(|i| s[(i, i)]).collect(),
        sqrt_k: vec![1.0; n],
        s: csr,
        order: None,
    }
}

#[test]
fn lanczos_lists_distinct_values_in_order_despite_copies_and_ghosts() {
    // A well separated top converges first and leaves ghost copies in T
    // while a cluster below converges slowly; an exactly repeated value
    // (multiplicity 3) is one direction for a single-vector method. The
    // listed values must be the distinct top values, in order, each once.
    let mut d: Vec<f64> = (0..400).map(|i| 1.0 + 50.0 * (i as f64 / 400.0)).collect();
    d[0] = 1000.0; // isolated top: ghosts
    for (k, v) in [
        (1, 90.0),
        (2, 90.0),
        (3, 90.0),
        (4, 89.99),
        (5, 89.98),
        (6, 89.97),
    ] {
        d[k] = v;
    }
    let cp = coupled_with_spectrum(&d, 7);
    let mut distinct = d.clone();
    distinct.sort_by(|a, b| b.total_cmp(a));
    distinct.dedup();
    for shapes in [false, true] {
        let (modes, info) = meff::analysis::large::fastest_modes(&cp, 6, shapes);
        assert_eq!(modes.len(), 6, "{info:?}");
        for (m, e) in modes.iter().zip(&distinct) {
            let lambda = m.omega * m.omega;
            assert!(
                (lambda - e).abs() <= 1e-9 * distinct[0],
                "{lambda} vs {e} ({info:?})"
            );
        }
        assert!(info.lanczos_steps > 20, "ghosts had time to form: {info:?}");
        // Shapes are judged by their residuals, values alone by the value
        // bound; either way what was judged is within the tolerance.
        let judged = if shapes {
            info.max_residual
        } else {
            info.max_value_error
        };
        assert!(
            judged <= meff::analysis::large::LANCZOS_TOLERANCE,
            "{info:?}"
        );
        assert!(
            info.max_value_error <= info.max_residual.max(1e-300),
            "{info:?}"
        );
        assert_eq!(info.residual_kind, if shapes { "true" } else { "estimate" });
    }
}

#[test]
fn lanczos_shapes_are_eigenvectors_and_cost_a_replay() {
    // With shapes the recurrence is replayed (same bits: the values do not
    // change) and each shape is checked against the dense eigenvector.
    let (system, k) = chain_system(300);
    let cp = meff::analysis::large::coupled(&system, &k).unwrap();
    let (plain, a) = meff::analysis::large::fastest_modes(&cp, 4, false);
    let (shaped, b) = meff::analysis::large::fastest_modes(&cp, 4, true);
    // Values alone may stop earlier (their own bound), never later, and
    // agree far below what is printed.
    assert!(a.lanczos_steps <= b.lanczos_steps, "{a:?} {b:?}");
    for (p, q) in plain.iter().zip(&shaped) {
        assert!((p.omega - q.omega).abs() <= 1e-12 * shaped[0].omega);
    }
    assert!(plain.iter().all(|m| m.shape.is_empty()));
    assert_eq!(a.products, a.lanczos_steps);
    assert_eq!(b.products, 2 * b.lanczos_steps - 1 + 4);
    let dense = meff::analysis::delassus(&system).unwrap().matrix;
    let (exact, _) = meff::analysis::modes(&dense, &k);
    for (m, e) in shaped.iter().zip(&exact) {
        assert_eq!(m.shape.len(), k.len());
        assert_same_shape(&m.shape, &e.shape);
    }
}

#[test]
fn lanczos_on_a_rank_deficient_matrix_lists_only_its_nonzero_modes() {
    // Rank 3 (more contacts than independent motions): three modes, no
    // round-off "modes" at ω ≈ 0, found at breakdown or soon after.
    let mut d = vec![0.0; 60];
    d[..3].copy_from_slice(&[5.0, 3.0, 1.0]);
    let cp = coupled_with_spectrum(&d, 11);
    for shapes in [false, true] {
        let (modes, info) = meff::analysis::large::fastest_modes(&cp, 6, shapes);
        let lambdas: Vec<f64> = modes.iter().map(|m| m.omega * m.omega).collect();
        assert_eq!(lambdas.len(), 3, "{lambdas:?} {info:?}");
        for (l, e) in lambdas.iter().zip([5.0, 3.0, 1.0]) {
            assert!((l - e).abs() <= 1e-9 * 5.0, "{l} vs {e}");
        }
    }
}

/// A 3-d scene with every kind of body: rigid bodies with full inertia
/// tensors, particles and a fixed part, contacts between random pairs and
/// with the world.
fn mixed_scene(bodies: usize, contacts: usize, seed: u64) -> String {
    let mut st = seed;
    let mut s = String::from("title = \"Mixed\"\nspace = \"3d\"\n");
    for i in 0..bodies {
        let p = [lcg(&mut st), lcg(&mut st), lcg(&mut st)];
        let pos = format!("[\"{} m\", \"{} m\", \"{} m\"]", p[0], p[1], p[2]);
        match i % 5 {
            0 => s.push_str(&format!(
                "[[body]]\nname = \"b{i}\"\ntype = \"particle\"\nmass = \"{} kg\"\nposition = {pos}\n",
                0.5 + lcg(&mut st)
            )),
            4 if i == 4 => s.push_str(&format!(
                "[[body]]\nname = \"b{i}\"\ntype = \"fixed\"\nposition = {pos}\n"
            )),
            _ => {
                // SPD: diagonal 2..3 with off-diagonal terms below 0.4.
                let (a, b, c) = (
                    0.4 * lcg(&mut st) - 0.2,
                    0.4 * lcg(&mut st) - 0.2,
                    0.4 * lcg(&mut st) - 0.2,
                );
                let d = [2.0 + lcg(&mut st), 2.0 + lcg(&mut st), 2.0 + lcg(&mut st)];
                s.push_str(&format!(
                    "[[body]]\nname = \"b{i}\"\ntype = \"rigid\"\nmass = \"{} kg\"\nposition = {pos}\ninertia = [[\"{} kg m^2\", \"{a} kg m^2\", \"{b} kg m^2\"], [\"{a} kg m^2\", \"{} kg m^2\", \"{c} kg m^2\"], [\"{b} kg m^2\", \"{c} kg m^2\", \"{} kg m^2\"]]\n",
                    1.0 + lcg(&mut st),
                    d[0],
                    d[1],
                    d[2]
                ));
            }
        }
    }
    for i in 0..contacts {
        let body = (lcg(&mut st) * bodies as f64) as usize;
        let other = (lcg(&mut st) * (bodies + 1) as f64) as usize;
        let n = [lcg(&mut st) - 0.5, lcg(&mut st) - 0.5, lcg(&mut st) - 0.5];
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        let other = if other == bodies || other == body || (body == 4 && other == 4) {
            String::new()
        } else {
            format!("other = \"b{other}\"\n")
        };
        s.push_str(&format!(
            "[[contact]]\nname = \"c{i}\"\nbody = \"b{body}\"\n{other}point = [\"{} m\", \"{} m\", \"{} m\"]\nnormal = [{}, {}, {}]\nstiffness = \"{} N/m\"\n",
            lcg(&mut st),
            lcg(&mut st),
            lcg(&mut st),
            n[0] / len,
            n[1] / len,
            n[2] / len,
            1e5 * (1.0 + 9.0 * lcg(&mut st))
        ));
    }
    s
}

#[test]
fn sparse_s_by_mass_blocks_equals_the_dense_delassus_matrix() {
    // The large path's S (whitened rows multiplied block by block) against
    // K^½ A K^½ from the dense path, entry by entry, pattern included.
    let source = mixed_scene(40, 150, 99);
    let case = meff::case::parse_case("mixed.toml", &source).unwrap();
    let model = meff::model::numeric(&case);
    let system = meff::model::assemble(&model);
    let k: Vec<f64> = model.contacts.iter().map(|c| c.stiffness).collect();
    let cp = meff::analysis::large::coupled(&system, &k).unwrap();
    let dense = meff::analysis::delassus(&system).unwrap().matrix;
    let n = k.len();
    let scale = (0..n).map(|i| k[i] * dense[(i, i)]).fold(0.0, f64::max);
    let mut stored = 0;
    for i in 0..n {
        let row = cp.s.row(i);
        assert!(row.windows(2).all(|w| w[0].0 < w[1].0), "row {i} sorted");
        let cols: Vec<usize> = row.iter().map(|e| e.0).collect();
        for &(j, v) in &row {
            let want = (k[i] * k[j]).sqrt() * dense[(i, j)];
            assert!(
                (v - want).abs() <= 1e-13 * scale,
                "S[{i},{j}] = {v} vs {want}"
            );
            assert_eq!(
                v.to_bits(),
                cp.s.get(j, i).to_bits(),
                "S symmetric at {i},{j}"
            );
            stored += 1;
        }
        for j in 0..n {
            if cols.binary_search(&j).is_err() {
                assert!(
                    dense[(i, j)].abs() <= 1e-13 * dense[(i, i)].max(dense[(j, j)]),
                    "A[{i},{j}] missing"
                );
            }
        }
        assert!((cp.diag[i] - dense[(i, i)]).abs() <= 1e-13 * dense[(i, i)]);
    }
    assert_eq!(stored, cp.s.nnz());
}

/// A planar row of `n` disks on a floor (a contact under each and between
/// neighbours: 2n − 1 contacts), the first pinned to the world when
/// `pinned`, with `[analysis] path` when given.
fn disk_row(n: usize, pinned: bool, path: Option<&str>) -> String {
    let mut s = String::from("title = \"Disks\"\nspace = \"planar\"\n");
    if let Some(p) = path {
        s.push_str(&format!("[analysis]\npath = \"{p}\"\n"));
    }
    for i in 0..n {
        let m = 1.0 + (i % 5) as f64 * 0.1;
        s.push_str(&format!(
            "[[body]]\nname = \"d{i}\"\ntype = \"rigid\"\nmass = \"{m} kg\"\ninertia = \"{} kg m^2\"\nposition = [\"{} m\", \"0.1 m\"]\n",
            0.5 * m * 0.01,
            0.2 * i as f64
        ));
        s.push_str(&format!(
            "[[contact]]\nname = \"f{i}\"\nbody = \"d{i}\"\npoint = [\"{} m\", \"0.02 m\"]\nnormal = [0, 1]\nstiffness = \"{} N/m\"\n",
            0.2 * i as f64 + 0.03,
            1e5 * (1.0 + (i % 3) as f64)
        ));
        if i > 0 {
            s.push_str(&format!(
                "[[contact]]\nname = \"n{i}\"\nbody = \"d{i}\"\nother = \"d{}\"\npoint = [\"{} m\", \"0.12 m\"]\nnormal = [1, 0]\nstiffness = \"2e5 N/m\"\n",
                i - 1,
                0.2 * i as f64 - 0.1
            ));
        }
    }
    if pinned {
        s.push_str("[[joint]]\ntype = \"pin\"\nbodies = [\"d0\"]\npoint = [\"0 m\", \"0.1 m\"]\n");
    }
    s
}

fn evaluate(source: &str) -> Result<meff::Evaluated, meff::Error> {
    let case = meff::case::parse_case("disks.toml", source).unwrap();
    meff::evaluate_with(case, meff::Options::default())
}

#[test]
fn the_path_is_chosen_by_size_and_constraints_or_as_asked() {
    // Above LARGE_PATH_ABOVE without constraints: the large path, and the
    // fastest modes and per-contact values are the dense path's.
    let n = meff::analysis::LARGE_PATH_ABOVE / 2 + 2;
    let auto = evaluate(&disk_row(n, false, None)).unwrap();
    assert!(2 * n - 1 > meff::analysis::LARGE_PATH_ABOVE);
    assert!(auto.analysis.large.is_some(), "auto takes the large path");
    assert_eq!(
        auto.report.contacts.len(),
        meff::report::ContactSelection::DEFAULT_WORST,
        "the large path's default lists the fastest contacts"
    );
    let dense = evaluate(&disk_row(n, false, Some("dense"))).unwrap();
    assert!(dense.analysis.large.is_none());
    assert_eq!(dense.report.contacts.len(), 2 * n - 1);
    let (a, d) = (&auto.analysis, &dense.analysis);
    assert!((a.coupled_omega_max - d.coupled_omega_max).abs() <= 1e-9 * d.coupled_omega_max);
    for (x, y) in a.modes.iter().zip(&d.modes) {
        assert!((x.omega - y.omega).abs() <= 1e-9 * d.coupled_omega_max);
    }
    for (x, y) in a.contacts.iter().zip(&d.contacts) {
        assert!((x.a - y.a).abs() <= 1e-12 * y.a, "{} vs {}", x.a, y.a);
    }
    // With a joint the same size stays on the dense path.
    let pinned = evaluate(&disk_row(n, true, None)).unwrap();
    assert!(pinned.analysis.large.is_none());
    assert!(pinned.analysis.constraint_rows > 0);
    // A small case can be sent down the large path and agrees too.
    let small_large = evaluate(&disk_row(30, false, Some("large"))).unwrap();
    let small_dense = evaluate(&disk_row(30, false, None)).unwrap();
    assert!(small_large.analysis.large.is_some() && small_dense.analysis.large.is_none());
    let (a, d) = (&small_large.analysis, &small_dense.analysis);
    assert!((a.coupled_omega_max - d.coupled_omega_max).abs() <= 1e-9 * d.coupled_omega_max);
    // Constraints on the large path, or too many contacts for the dense
    // one, are errors that say what to do.
    let msg = |r: Result<meff::Evaluated, meff::Error>| match r {
        Err(e) => e.to_string(),
        Ok(_) => panic!("expected an error"),
    };
    let e = msg(evaluate(&disk_row(10, true, Some("large"))));
    assert!(e.contains("constraints"), "{e}");
    let big = meff::analysis::DENSE_CONTACT_LIMIT / 2 + 2;
    let e = msg(evaluate(&disk_row(big, false, Some("dense"))));
    assert!(e.contains("path = \"auto\""), "{e}");
    let e = msg(evaluate(&disk_row(big, true, None)));
    assert!(e.contains("constraints"), "{e}");
}

#[test]
fn an_unknown_path_is_an_error_at_its_place() {
    let source = disk_row(3, false, Some("sparse"));
    let err = meff::case::parse_case("disks.toml", &source).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("unknown analysis path `sparse`"), "{text}");
    assert!(text.contains("disks.toml:4:8"), "{text}");
    assert!(text.contains("path is one of"), "{text}");
}

#[test]
fn a_distribution_of_round_off_is_not_plotted() {
    // Particles on a floor: every m_eff / naive is 1, so its histogram
    // would plot round-off; the single-contact ω still varies and is plotted.
    let mut s = String::from("title = \"Grains\"\nspace = \"3d\"\n[analysis]\npath = \"large\"\n");
    for i in 0..40 {
        s.push_str(&format!(
            "[[body]]\nname = \"g{i}\"\ntype = \"particle\"\nmass = \"{} kg\"\nposition = [\"{} m\", \"0 m\", \"0.01 m\"]\n[[contact]]\nname = \"f{i}\"\nbody = \"g{i}\"\npoint = [\"{} m\", \"0 m\", \"0 m\"]\nnormal = [0, 0, 1]\nstiffness = \"{} N/m\"\n",
            1.0 + 0.1 * (i % 4) as f64,
            0.05 * i as f64,
            0.05 * i as f64,
            1e5 * (1.0 + (i % 5) as f64)
        ));
    }
    let ev = evaluate(&s).unwrap();
    let large = ev.report.large.as_ref().unwrap();
    assert_eq!(large.mass_ratio.min, large.mass_ratio.max);
    let html = meff::render::templates::Templates::load(None)
        .unwrap()
        .report_html(&ev.report, 4)
        .unwrap();
    assert!(!html.contains("histogram of m_eff / naive"));
    assert!(html.contains("histogram of single-contact ω"));
}

#[test]
fn s_stored_in_another_order_gives_the_same_results_per_contact() {
    // The rows of S in a scrambled order (as `order.rs` may choose for a
    // shuffled contact list): A entry by entry, the diagonal and the modes
    // with their shapes, per contact as given, against the dense path.
    let (system, k) = chain_system(300);
    let n = k.len();
    let order: Vec<u32> = (0..n as u32).map(|i| (i * 7 + 3) % n as u32).collect();
    let mut seen = order.clone();
    seen.sort_unstable();
    assert_eq!(seen, (0..n as u32).collect::<Vec<_>>(), "a permutation");
    let row = |i: usize, out: &mut meff::model::SparseRow<f64>| {
        out.clear();
        out.extend_from_slice(&system.jacobian[i]);
    };
    let cp = meff::analysis::large::coupled_with(
        &system,
        &k,
        row,
        Some(meff::analysis::large::RowOrder::new(order.clone())),
    )
    .unwrap();
    let dense = meff::analysis::delassus(&system).unwrap().matrix;
    let scale = (0..n).map(|i| dense[(i, i)]).fold(0.0, f64::max);
    for i in 0..n {
        for j in 0..n {
            assert!(
                (cp.a(i, j) - dense[(i, j)]).abs() <= 1e-13 * scale,
                "A[{i},{j}]"
            );
        }
    }
    assert_eq!(cp.contact_of(0), order[0] as usize);
    let (shaped, _) = meff::analysis::large::fastest_modes(&cp, 4, true);
    let (exact, _) = meff::analysis::modes(&dense, &k);
    assert_eq!(shaped.len(), 4);
    for (m, e) in shaped.iter().zip(&exact) {
        assert!((m.omega - e.omega).abs() <= 1e-10 * exact[0].omega);
        assert_same_shape(&m.shape, &e.shape);
    }
}

/// A shape against the dense eigenvector (both normalised the same way).
fn assert_same_shape(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    let err = got
        .iter()
        .zip(want)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max);
    assert!(
        err <= 1e-6,
        "shape differs from the dense eigenvector by {err}"
    );
}

/// A cancelled evaluation stops the Lanczos recurrence at its next step
/// (`meff::cancel`): one step instead of the tens the values need, and the
/// flag is this thread's only while its scope runs.
#[test]
fn a_cancelled_scope_stops_the_recurrence() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let (system, k) = chain_system(300);
    let cp = meff::analysis::large::coupled(&system, &k).unwrap();
    let (_, whole) = meff::analysis::large::fastest_modes(&cp, 4, false);
    let set = Some(Arc::new(AtomicBool::new(true)));
    let (_, stopped) =
        meff::control::cancel_scope(set, || meff::analysis::large::fastest_modes(&cp, 4, false));
    assert!(whole.lanczos_steps > 10, "{whole:?}");
    assert_eq!(stopped.lanczos_steps, 1, "{stopped:?}");
    assert!(!meff::control::cancelled());
    let (_, again) = meff::analysis::large::fastest_modes(&cp, 4, false);
    assert_eq!(again.lanczos_steps, whole.lanczos_steps);
}

/// The large path straight from a scene's columns
/// (`analysis::scene_large`, what the 10⁷-body benchmark runs) builds the
/// pipeline's S, √k and A_ii to the bit: eccentric packings in 3-d and in
/// the plane, and the 3-d one again with full inertia tensors (the 3+3
/// mass form) and a fixed body; and its fastest modes are the pipeline's.
#[test]
fn a_scene_read_straight_into_s_gives_the_pipelines_bits() {
    use meff::analysis::{LargeModes, scene_large};
    for (file, tensors) in [
        ("tests/cases/scene/p3d.scene.toml", false),
        ("tests/cases/scene/p3d.scene.toml", true),
        ("tests/cases/scene/p2d.scene.toml", false),
    ] {
        let mut case = meff::case::load(std::path::Path::new(file)).unwrap();
        if tensors {
            let data = &mut case.scene.as_mut().unwrap().data;
            for b in 0..data.n_bodies() {
                let t = &mut data.inertia[6 * b..6 * b + 6];
                let g = (t[0] * t[1]).sqrt();
                (t[3], t[4], t[5]) = (0.1 * g, -0.05 * g, 0.08 * g);
            }
            data.fixed[3] = true;
            data.mass[3] = 0.0;
            data.inertia[18..24].fill(0.0);
        }
        let model = meff::model::numeric(&case);
        let system = meff::analysis::system_for(&model, true);
        let modes = LargeModes {
            count: 6,
            shapes: false,
            path: meff::case::AnalysisPath::Large,
        };
        let an = meff::analysis::analyze_model(&model, &system, modes).unwrap();
        let want = an.coupled.as_ref().expect("the large path");
        assert!(want.order.is_none());
        let data = &case.scene.as_ref().unwrap().data;
        let got = scene_large::coupled(data, case.space).unwrap();
        assert!(got.s == want.s, "{file}: S differs");
        // The same bits on one thread and on three.
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let other = pool.install(|| scene_large::coupled(data, case.space).unwrap());
            assert!(other == got, "{file}: {threads} threads");
        }
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&got.diag), bits(&want.diag), "{file}");
        assert_eq!(bits(&got.sqrt_k), bits(&want.sqrt_k), "{file}");
        let (m, _) = meff::analysis::large::fastest_modes(&got, 6, false);
        let omega =
            |v: &[meff::analysis::Mode]| v.iter().map(|m| m.omega.to_bits()).collect::<Vec<_>>();
        assert!(!m.is_empty());
        assert_eq!(omega(&m), omega(&an.modes), "{file}");
    }
}
