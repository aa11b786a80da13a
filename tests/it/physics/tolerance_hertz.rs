//! Tolerances reach every row and every law (issues 38 and 39): the step
//! to use with tolerances on a case with tangential springs is the
//! smallest over the box of the step over every row (against a
//! brute-force grid of the closed form); a Hertz law's inputs carry their
//! tolerances into the stiffness (k ∝ E* at a given overlap, k ∝ E*^{2/3}
//! under a load, the peak of an impact at each point); and a Hertz sheet
//! names the state (static, at the peak) of every fastest mode and step.

// `hertz(params, law)`: a ball on a plate with a Hertz contact (`law`: its keys).
use crate::support::{assert_close, bundled, evaluate_str, hertz_ball as hertz};

/// A solid sphere on a plane with a stick spring: ω_n = √(k/m), each
/// tangent row ω_t = √(k_t/(2/7 m)); no dashpots, so the step is 2/ω_max.
fn sphere(params: &str, tangential: &str) -> String {
    format!(
        r#"
space = "3d"
[parameters]
r = "0.02 m"
k = "1e5 N/m"
{params}
[[body]]
name = "ball"
type = "rigid"
mass = "m"
inertia = ["2/5 * m * r^2", "2/5 * m * r^2", "2/5 * m * r^2"]
position = ["0 m", "0 m", "r"]
[[contact]]
name = "floor"
body = "ball"
point = ["0 m", "0 m", "0 m"]
normal = [0, 0, 1]
stiffness = "k"
{tangential}
"#
    )
}

fn lin(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| lo + (hi - lo) * i as f64 / (n - 1) as f64)
        .collect()
}

/// The headline's step line.
fn use_line(ev: &meff::Evaluated) -> String {
    meff::render::headline::lines(&ev.report, 4)
        .iter()
        .map(|l| l.iter().map(|s| s.text.as_str()).collect::<String>())
        .find(|l| l.starts_with("Use "))
        .expect("a step line")
}

/// Checks the step to use, its tolerance bound and the headline against
/// the smallest 2/ω_max over a grid of (m, k_t) of the box.
fn check_against_grid(ev: &meff::Evaluated, ms: &[f64], kts: &[f64]) {
    let k = 1e5;
    let step = |m: f64, kt: f64| 2.0 / (k / m).sqrt().max((3.5 * kt / m).sqrt());
    let grid = ms
        .iter()
        .flat_map(|&m| kts.iter().map(move |&kt| step(m, kt)))
        .fold(f64::INFINITY, f64::min);
    let t = ev.report.tolerances.as_ref().unwrap();
    let b = t.results.iter().find(|b| b.id == "dt_to_use").unwrap();
    let g = ev.report.stable_dt.governing.unwrap();
    // The step to use is the box's smallest, over every row, below the
    // nominal one.
    assert!(g < ev.report.stable_dt.nominal_governing.unwrap() * 0.96);
    assert_close(g, grid, 1e-9);
    assert_close(b.lo, grid, 1e-9);
    let w = t.results.iter().find(|b| b.id == "omega_max").unwrap();
    assert_close(w.hi, 2.0 / grid, 1e-9);
    // The headline states it, rounded down, and the nominal one beside.
    let line = use_line(ev);
    let shown = meff::number::sig(meff::number::at_most(g * 1e3, 4), 4);
    assert!(line.contains(&format!("Δt ≤ {shown} ms")), "{line}");
    assert!(line.contains("tolerance box"), "{line}");
    assert!(line.contains("normal and tangential"), "{line}");
}

#[test]
fn with_tangential_springs_the_step_to_use_is_the_smallest_over_the_box() {
    // k_t as a value with a tolerance, and the mass.
    let ev = evaluate_str(&sphere(
        "m = \"0.2 kg ± 10 %\"\nkt = \"8e4 N/m ± 25 %\"",
        "tangential_stiffness = \"kt\"",
    ));
    check_against_grid(&ev, &lin(0.18, 0.22, 41), &lin(6e4, 1e5, 41));
    // k_t as a ratio to k with a range.
    let ev = evaluate_str(&sphere(
        "m = \"0.2 kg ± 10 %\"\nq = \"[0.6, 1.0]\"",
        "tangential_ratio = \"q\"",
    ));
    let kts: Vec<f64> = lin(0.6, 1.0, 41).iter().map(|q| q * 1e5).collect();
    check_against_grid(&ev, &lin(0.18, 0.22, 41), &kts);
    // The mass alone.
    let ev = evaluate_str(&sphere(
        "m = \"0.2 kg ± 10 %\"",
        "tangential_stiffness = \"8e4 N/m\"",
    ));
    check_against_grid(&ev, &lin(0.18, 0.22, 401), &[8e4]);
}

fn bound<'a>(ev: &'a meff::Evaluated, id: &str) -> &'a meff::tolerance::Bound {
    let t = ev.report.tolerances.as_ref().unwrap();
    t.results.iter().find(|b| b.id == id).unwrap()
}

/// ω of the contact moves as k^{1/2} = E^{p/2} over E ± 10 %, and the
/// step to use as k^{−1/2}; the sensitivity ∂ln ω/∂ln E is p/2.
fn check_power(ev: &meff::Evaluated, p: f64) {
    let w = bound(ev, "omega(plate)");
    assert_close(w.lo, w.nominal * 0.9f64.powf(p / 2.0), 1e-9);
    assert_close(w.hi, w.nominal * 1.1f64.powf(p / 2.0), 1e-9);
    let s = bound(ev, "dt_to_use");
    assert_close(s.lo, s.nominal * 1.1f64.powf(-p / 2.0), 1e-9);
    assert_close(s.hi, s.nominal * 0.9f64.powf(-p / 2.0), 1e-9);
    assert_close(
        ev.report.stable_dt.governing.unwrap(),
        s.nominal * 1.1f64.powf(-p / 2.0),
        1e-9,
    );
    assert_eq!(w.driver.as_deref(), Some("E"));
    let t = ev.report.tolerances.as_ref().unwrap();
    assert!(
        !t.notes.iter().any(|n| n.contains("moves none")),
        "{:?}",
        t.notes
    );
    let e = ev
        .report
        .symbolic
        .sensitivities
        .iter()
        .find(|s| s.parameter == "E")
        .expect("E's sensitivity");
    assert_close(e.omega.unwrap(), p / 2.0, 1e-6);
    assert_eq!(e.m_eff, Some(0.0));
}

#[test]
fn a_tolerance_on_a_hertz_modulus_moves_the_stiffness_by_the_laws_power() {
    // At a given overlap k = 2 E* √(R* δ) ∝ E*.
    let ev = evaluate_str(&hertz(
        "E = \"115 GPa ± 10 %\"",
        "modulus = \"E\"\noverlap = \"2 um\"",
    ));
    let k = ev.report.hertz[0].stiffness;
    assert_close(k, 2.0 * 115e9 * (0.01f64 * 2e-6).sqrt(), 1e-12);
    check_power(&ev, 1.0);
    // Under a load k = 3/2 K^{2/3} W^{1/3} ∝ E*^{2/3}.
    let ev = evaluate_str(&hertz(
        "E = \"115 GPa ± 10 %\"",
        "modulus = \"E\"\nload = \"0.3208 N\"",
    ));
    check_power(&ev, 2.0 / 3.0);
    // Through the materials: E* ∝ E for two bodies of one material.
    let ev = evaluate_str(&hertz(
        "E = \"210 GPa ± 10 %\"",
        "load = \"0.3208 N\"\nmaterial = { youngs_modulus = \"E\", poisson_ratio = 0.3 }\nother_material = { youngs_modulus = \"E\", poisson_ratio = 0.3 }",
    ));
    check_power(&ev, 2.0 / 3.0);
}

#[test]
fn mindlins_stiffness_and_an_impacts_peak_follow_their_inputs_at_every_point() {
    // k_t = 8 G* √(R* δ) ∝ G*: the tangent rows (ω_t = √(3.5 k_t/m))
    // set the step, which moves as G*^{−1/2}.
    let ev = evaluate_str(&hertz(
        "G = \"23.76 GPa ± 20 %\"",
        "modulus = \"115 GPa\"\nshear_modulus = \"G\"\noverlap = \"2 um\"",
    ));
    let s = bound(&ev, "dt_to_use");
    let kt = 8.0 * 1.2 * 23.76e9 * (0.01f64 * 2e-6).sqrt();
    assert_close(s.lo, 2.0 / (3.5 * kt / 0.0327f64).sqrt(), 1e-9);
    // An impact at v ± 20 %: δ_max ∝ v^{4/5}, so at the peak
    // k ∝ v^{2/5} and the step to use (held there) ∝ v^{−1/5}.
    let ev = evaluate_str(&hertz(
        "v = \"1 m/s ± 20 %\"",
        "modulus = \"115 GPa\"\noverlap = \"2 um\"\nimpact_speed = \"v\"",
    ));
    let s = bound(&ev, "dt_to_use");
    assert!(
        s.quantity.contains("at the Hertz impact's peak"),
        "{}",
        s.quantity
    );
    assert_close(s.lo, s.nominal * 1.2f64.powf(-0.2), 1e-9);
    let m = 0.0327f64;
    let big_k = 4.0 / 3.0 * 115e9 * 0.01f64.sqrt();
    let x = meff::hertz::impact(m, big_k, 1.2);
    // One row: the step to use through the impact is the rebound's
    // resolution, a fixed fraction of 2/ω at the peak.
    let theta = meff::hertz::resolution_factor_default();
    assert_close(s.lo, theta * 2.0 / (x.peak_stiffness / m).sqrt(), 1e-9);
    assert_close(ev.report.stable_dt.governing.unwrap(), s.lo, 1e-12);
    let line = use_line(&ev);
    assert!(line.contains("tolerance box"), "{line}");
    assert!(line.contains("through the Hertz impact"), "{line}");
    let shown = meff::number::sig(meff::number::at_most(s.lo * 1e6, 4), 4);
    assert!(line.contains(&format!("Δt ≤ {shown} µs")), "{line}");
    // A sweep of the modulus moves ω as E^{1/2} at a given overlap.
    let ev = evaluate_str(&format!(
        "{}\n[[sweep]]\nparameter = \"E\"\nfrom = \"100 GPa\"\nto = \"200 GPa\"\npoints = 3\nplot = [\"omega(plate)\"]\n",
        hertz("E = \"115 GPa\"", "modulus = \"E\"\noverlap = \"2 um\"")
    ));
    let y = ev.report.sweeps[0].series[0].values.clone();
    let (a, b) = (y[0].unwrap(), y[2].unwrap());
    assert_close(b / a, 2f64.sqrt(), 1e-9);
}

#[test]
fn a_hertz_sheet_names_the_state_of_every_fastest_mode_and_step() {
    use meff::report::hertz_state::State;
    let ev = bundled("hertz-sphere-impact.toml");
    let r = &ev.report;
    let st = r.hertz_states.as_ref().unwrap();
    assert_eq!(st.governing, State::AtPeak);
    let peak = st.at_peak.as_ref().unwrap();
    let hp = r.hertz_peak.as_ref().unwrap();
    assert_eq!(peak.omega_max, hp.omega_max);
    assert_eq!(peak.governing, r.stable_dt.governing);
    assert_close(peak.coupled.unwrap(), 2.0 / peak.omega_max, 1e-12);
    assert_eq!(st.linearised.omega_max, r.coupled_omega_max);
    assert!(peak.omega_max > 2.0 * r.coupled_omega_max);
    assert!(peak.omega_upper_bound >= peak.omega_max * (1.0 - 1e-12));
    assert_eq!(r.governing_omega_max(), peak.omega_max);
    let json: serde_json::Value = serde_json::from_str(&meff::render::json(r)).unwrap();
    assert_eq!(json["hertz_states"]["governing"], "at_peak");
    assert_eq!(
        json["hertz_states"]["static"]["omega_max"].as_f64(),
        Some(r.coupled_omega_max)
    );
    // Every format: the fastest mode line leads with the peak's, and the
    // step table's static rows say so.
    let t = meff::render::templates::Templates::load(None).unwrap();
    let e = peak.omega_max.log10().floor();
    let mantissa = format!("{:.3}", peak.omega_max / 10f64.powf(e));
    for doc in [
        t.report_html(r, 4).unwrap(),
        t.report_md_files(r, 4, "x").unwrap().0,
        t.report_typ(r, 4).unwrap().0,
    ] {
        let line = doc
            .lines()
            .find(|l| l.contains("Fastest coupled mode"))
            .unwrap();
        assert!(line.contains("at the peak of the Hertz impact"), "{line}");
        assert!(line.contains("at the static linearisation"), "{line}");
        let peak_at = line.find("at the peak").unwrap();
        assert!(line[peak_at..].contains(&mantissa), "{mantissa} in {line}");
        assert!(doc.contains("(static linearisation)"));
        assert!(doc.contains("at the peak of the Hertz impact (sets the step to use)"));
    }
    let text = meff::render::text::sections_text(&r.title, &meff::render::text::sections(r, 4));
    assert!(
        text.contains("coupled ω_max — static linearisation"),
        "{text}"
    );
    assert!(
        text.contains("coupled ω_max at the Hertz impact's peak"),
        "{text}"
    );
    // Without an impact the static state governs, and says so.
    let ev = evaluate_str(&hertz("", "modulus = \"115 GPa\"\noverlap = \"2 um\""));
    let st = ev.report.hertz_states.as_ref().unwrap();
    assert_eq!(st.governing, State::Static);
    assert!(st.at_peak.is_none());
    let line = use_line(&ev);
    assert!(line.contains("static linearisation"), "{line}");
    // A sheet without Hertz contacts has none.
    let ev = evaluate_str(&sphere("m = \"0.2 kg\"", "tangential_ratio = 0.8"));
    assert!(ev.report.hertz_states.is_none());
}
