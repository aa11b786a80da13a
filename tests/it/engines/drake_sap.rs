//! Drake SAP's near-rigid regime with Drake's own estimate of a contact's
//! inverse mass: `w = ‖W_ii‖_F/3`, `W_ii = J_i diag(M)⁻¹ J_iᵀ` over the
//! contact's normal and two tangent rows
//! (`SapModel::CalcDelassusDiagonalApproximation`), never `A_ii`. The
//! blocks below are written out by hand from the bodies' numbers.

use crate::support::{assert_close, bundled, evaluate_str};
use std::f64::consts::PI;

/// `W = J_p diag(m, m, m, I)⁻¹ J_pᵀ` of a point at `rho` from a free rigid
/// body's centre of mass (principal axes along the world's), in world
/// axes: `W_kl = δ_kl/m + Σ_j (ρ × e_k)_j (ρ × e_l)_j / I_j`.
fn rigid_block(m: f64, inertia: [f64; 3], rho: [f64; 3]) -> [[f64; 3]; 3] {
    let cross = |e: [f64; 3]| {
        [
            rho[1] * e[2] - rho[2] * e[1],
            rho[2] * e[0] - rho[0] * e[2],
            rho[0] * e[1] - rho[1] * e[0],
        ]
    };
    let axes = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    std::array::from_fn(|k| {
        std::array::from_fn(|l| {
            let (a, b) = (cross(axes[k]), cross(axes[l]));
            let own = if k == l { 1.0 / m } else { 0.0 };
            own + (0..3).map(|j| a[j] * b[j] / inertia[j]).sum::<f64>()
        })
    })
}

fn frobenius_over_three(w: &[[f64; 3]; 3]) -> f64 {
    w.iter().flatten().map(|x| x * x).sum::<f64>().sqrt() / 3.0
}

/// The SAP spring: `k = 1/(h (h + τ) R_n)`, `R_n = max(β² w/(4π²), 1/(h k (h + τ)))`.
fn sap_spring(k: f64, h: f64, tau: f64, beta: f64, w: f64) -> f64 {
    let rn = (beta * beta * w / (4.0 * PI * PI)).max(1.0 / (h * k * (h + tau)));
    1.0 / (h * (h + tau) * rn)
}

#[test]
fn the_bundled_near_rigid_part_uses_drakes_estimate_not_a_ii() {
    let ev = bundled("engine-drake-near-rigid.toml");
    let e = &ev.report.engines[0];
    // 50 g, inertia m r²/4, m r²/4, m r²/2 with r = 2 cm; points on the
    // circle of radius r, 5 mm below the centre of mass.
    let (m, r) = (0.05, 0.02);
    let inertia = [m * r * r / 4.0, m * r * r / 4.0, m * r * r / 2.0];
    let w = rigid_block(m, inertia, [r, 0.0, -0.005]);
    // W_nn = A_ii = 100 /kg, but ‖W‖_F/3 = √15650/3 = 41.70 /kg.
    assert_close(w[2][2], 100.0, 1e-12);
    let w_hat = frobenius_over_three(&w);
    assert_close(w_hat, 15650f64.sqrt() / 3.0, 1e-12);
    for c in &e.contacts {
        assert_close(1.0 / c.m_engine.unwrap(), w_hat, 1e-9);
        assert_close(c.a_error.unwrap(), w_hat / 100.0 - 1.0, 1e-9);
        let k = sap_spring(1e7, 1e-3, 1e-4, 1.0, w_hat);
        assert_close(c.k.unwrap(), k, 1e-9);
        assert_close(k, 8.607e5, 1e-3);
        assert_eq!(c.k_set, Some(1e7));
        // The threshold that leaves the case's own k and c uncapped, an
        // upper limit rounded down at four figures: 0.30738… → 0.3073.
        let tau = 20.0 / 1e7;
        let beta = 2.0 * PI / (w_hat * 1e-3 * 1e7 * (1e-3 + tau)).sqrt();
        assert_close(beta, 0.30738, 1e-4);
        let shown = c
            .inverse
            .iter()
            .find(|(k, _)| k == "near_rigid_threshold")
            .map(|(_, v)| v.as_str());
        assert_eq!(shown, Some("≤ 0.3073"), "{:?}", c.inverse);
    }
}

#[test]
fn a_point_mass_is_one_over_root_three_m() {
    // A particle on the ground: W = I/m, w = √3/(3m) = 1/(√3 m).
    let m = 0.2;
    let ev = evaluate_str(&format!(
        "space = \"3d\"\n[[body]]\nname = \"p\"\ntype = \"particle\"\nmass = \"{m} kg\"\nposition = [\"0 m\", \"0 m\", \"0 m\"]\n\
         [[contact]]\nname = \"c\"\nbody = \"p\"\npoint = [\"0 m\", \"0 m\", \"0 m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e5 N/m\"\n\
         [engine.drake]\napproximation = \"sap\"\nstiffness = \"1e9 N/m\"\ntimestep = \"1 ms\"\nrelaxation_time = \"0.1 ms\"\n"
    ));
    let c = &ev.report.engines[0].contacts[0];
    let w_hat = 1.0 / (3f64.sqrt() * m);
    assert_close(1.0 / c.m_engine.unwrap(), w_hat, 1e-12);
    assert_close(c.k.unwrap(), sap_spring(1e9, 1e-3, 1e-4, 1.0, w_hat), 1e-9);
}

#[test]
fn an_offset_foot_and_a_turned_tangent_give_the_same_estimate() {
    // tests/engines/offset-block.toml: 2 kg, one foot at (0.15, 0.06) m,
    // 6 cm below the centre of mass. Given tangents spanning the plane
    // differently leave ‖W‖_F unchanged.
    let base =
        std::fs::read_to_string(crate::support::root().join("tests/engines/offset-block.toml"))
            .unwrap();
    let w = rigid_block(
        2.0,
        [
            0.008333333333333335,
            0.02833333333333334,
            0.03333333333333334,
        ],
        [0.15, 0.06, -0.06],
    );
    let w_hat = frobenius_over_three(&w);
    let table =
        "[engine.drake]\napproximation = \"sap\"\nstiffness = \"1e9 N/m\"\ntimestep = \"1 ms\"\n";
    for tangent in ["", "tangential_ratio = 0.5\ntangent = [1, 1, 0]\n"] {
        let text = base.replace(
            "damping = \"20 N s/m\"\n",
            &format!("damping = \"20 N s/m\"\n{tangent}"),
        );
        let ev = evaluate_str(&format!("{text}\n{table}"));
        let c = &ev.report.engines[0].contacts[0];
        assert_close(1.0 / c.m_engine.unwrap(), w_hat, 1e-9);
        // The spring follows from the τ the settings show (default 0).
        let tau: f64 = ev.report.engines[0]
            .settings
            .iter()
            .find(|(k, _)| k == "relaxation_time")
            .map(|(_, v)| v.trim_end_matches(" s").parse().unwrap())
            .unwrap();
        assert_close(c.k.unwrap(), sap_spring(1e9, 1e-3, tau, 1.0, w_hat), 1e-9);
    }
}

#[test]
fn the_sheet_leads_with_the_cap_and_prints_the_threshold_as_a_limit() {
    let ev = bundled("engine-drake-near-rigid.toml");
    let lines = meff::render::headline::lines(&ev.report, 4);
    let text: Vec<String> = lines
        .iter()
        .map(|l| l.iter().map(|s| s.text.as_str()).collect())
        .collect();
    // The engine's own effect first; the explicit integrators' step after,
    // said to be not the engine's.
    assert!(text[0].starts_with("Drake"), "{text:?}");
    assert!(text[0].contains("near-rigid cap"), "{}", text[0]);
    assert!(text[0].contains("8.607 × 10⁵ N/m"), "{}", text[0]);
    assert!(
        text[0].contains("near_rigid_threshold ≤ 0.3073"),
        "{}",
        text[0]
    );
    assert!(
        text[1].starts_with("For an explicit integrator"),
        "{}",
        text[1]
    );
    let t = meff::render::templates::Templates::load(None).unwrap();
    let sheets = [
        t.report_html(&ev.report, 4).unwrap(),
        t.report_md_files(&ev.report, 4, "x").unwrap().0,
        t.report_typ(&ev.report, 4).unwrap().0,
    ];
    for (i, sheet) in sheets.iter().enumerate() {
        assert!(!sheet.contains("= ≤"), "{sheet}");
        assert!(!sheet.contains("0.1984") && !sheet.contains("0.198493"));
        if i < 2 {
            // HTML and Markdown: the limit as typed, and Drake's estimate
            // of the mass (1/41.70 kg⁻¹).
            assert!(sheet.contains("≤ 0.3073"));
            assert!(sheet.contains("0.02398"));
        }
    }
}
