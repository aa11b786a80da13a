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
    assert!(html.contains("histogram of m_eff / naive"));
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
        let (modes, info) = meff::analysis::large::fastest_modes(&w, want);
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
        // Bit-identical on a second run (fixed start, fixed summation order).
        let (again, _) = meff::analysis::large::fastest_modes(&w, want);
        assert_eq!(
            modes.iter().map(|m| m.omega.to_bits()).collect::<Vec<_>>(),
            again.iter().map(|m| m.omega.to_bits()).collect::<Vec<_>>()
        );
    }
}
