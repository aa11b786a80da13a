//! The step over every row (issue 38's sheet side): with tangential springs
//! the sheet's ω_max, step to use and guaranteed step are over every row,
//! normal and tangential, with ω̄ ≥ ω_max and guaranteed ≤ governing; at the
//! peak of a Hertz impact the step holds at the largest stiffness reached;
//! Mindlin's G* and the Rayleigh time from the materials; the verification
//! simulates every row.

use crate::support::{assert_close, bundled, eval_stdin, evaluate_str, refused, verified_str};
use meff::analysis::stable::energy_bound;

/// ω̄ ≥ ω_max ≥ max ω_i over every row, guaranteed ≤ governing, and the
/// guaranteed step computed from the bounds over every row alone.
fn assert_steps_over_every_row(ev: &meff::Evaluated) {
    let r = &ev.report;
    let tg = ev.analysis.tangential.as_ref().expect("tangential rows");
    let modes_max = tg.modes.first().map_or(0.0, |m| m.omega);
    assert_eq!(r.coupled_omega_max, modes_max, "ω_max over every row");
    let rows_max = (0..tg.rows.len())
        .map(|r| tg.rows.omega(r))
        .fold(0.0, f64::max);
    assert_eq!(r.independent_omega_max, rows_max);
    assert!(
        rows_max <= modes_max * (1.0 + 1e-12),
        "{rows_max} > {modes_max}"
    );
    let bar = r.coupled_omega_upper_bound;
    assert!(
        bar >= modes_max * (1.0 - 1e-12),
        "ω̄ {bar} < ω_max {modes_max}"
    );
    // ω̄ is over every row: at least the normal rows' ω_max.
    assert!(bar >= ev.analysis.coupled_omega_max * (1.0 - 1e-12));
    let g = r.stable_dt.governing.expect("a step");
    let h = r.stable_dt.guaranteed.expect("a guaranteed step");
    assert!(h <= g * (1.0 + 1e-12), "guaranteed {h} > governing {g}");
    let from_bounds = match tg.damping_rate_bound {
        None => 2.0 / bar,
        Some(gamma) => energy_bound(bar, gamma).unwrap(),
    };
    assert_close(h, from_bounds.min(g), 1e-12);
    assert_eq!(r.stable_dt.coupled, Some(2.0 / modes_max));
}

#[test]
fn the_spheres_headline_step_and_omega_max_are_over_every_row() {
    let ev = bundled("sphere-friction.toml");
    assert_steps_over_every_row(&ev);
    // ω_max is the tangent rows' √(k_t/m_t) = √(7 k_t/(2m)), not √(k/m).
    let (m, k, kt): (f64, f64, f64) = (0.2, 1e5, 0.8e5);
    assert_close(ev.report.coupled_omega_max, (3.5 * kt / m).sqrt(), 1e-12);
    let tg = ev.report.tangential.as_ref().unwrap();
    assert_close(tg.normal_omega_max, (k / m).sqrt(), 1e-12);
    // The headline names the tangent rows and the change (×0.59).
    let text = meff::render::text::summary(&ev.report, 4);
    let head = text
        .lines()
        .map(str::trim_start)
        .find(|l| l.starts_with("Use "))
        .unwrap();
    assert!(
        head.contains("floor.t1") && head.contains("×0.5905"),
        "{head}"
    );
    // J and the definition carry the tangent rows and k_t, c_t.
    assert_eq!(
        ev.report.model.jacobian_rows,
        ["floor.n", "floor.t1", "floor.t2"]
    );
    assert_eq!(ev.report.model.jacobian.as_ref().unwrap().len(), 3);
    let def = ev.report.definition.as_ref().unwrap();
    let t = def.contacts[0].tangential.as_ref().unwrap();
    assert_close(t.stiffness.si, kt, 1e-12);
    assert_close(t.damping.as_ref().unwrap().si, 4.0, 1e-12);
}

/// A deterministic generator (LCG) for random cases.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
}

fn random_case(seed: u64) -> String {
    let mut g = Lcg(seed);
    let normals = ["[0, 0, 1]", "[0.6, 0, 0.8]", "[0, 0.8, 0.6]", "[1, 0, 0]"];
    let mut s = format!(
        "space = \"3d\"\n[[body]]\nname = \"b\"\ntype = \"rigid\"\nmass = \"{} kg\"\ninertia = [\"{} kg m^2\", \"{} kg m^2\", \"{} kg m^2\"]\nposition = [\"0 m\", \"0 m\", \"0.1 m\"]\n",
        g.range(0.5, 5.0),
        g.range(0.01, 0.03),
        g.range(0.01, 0.03),
        g.range(0.015, 0.03),
    );
    let contacts = 1 + (g.next() * 3.0) as usize;
    for c in 0..contacts {
        let n = normals[(g.next() * 4.0) as usize % 4];
        s += &format!(
            "[[contact]]\nname = \"c{c}\"\nbody = \"b\"\npoint = [\"{} m\", \"{} m\", \"{} m\"]\nnormal = {n}\nstiffness = \"{} N/m\"\n",
            g.range(-0.08, 0.08),
            g.range(-0.08, 0.08),
            g.range(0.0, 0.05),
            g.range(1e4, 1e6),
        );
        if g.next() < 0.6 {
            s += &format!("damping = \"{} N*s/m\"\n", g.range(1.0, 80.0));
        }
        if g.next() < 0.5 {
            s += &format!("tangential_ratio = {}\n", g.range(0.1, 2.0));
        } else {
            s += &format!("tangential_stiffness = \"{} N/m\"\n", g.range(1e4, 1e6));
            if g.next() < 0.5 {
                s += &format!("tangential_damping = \"{} N*s/m\"\n", g.range(1.0, 50.0));
            }
        }
    }
    s
}

#[test]
fn guaranteed_never_exceeds_the_step_over_every_row() {
    // Two hand-made cases and twelve random ones (one to three contacts,
    // ratios and absolute k_t, with and without dashpots).
    let two_bodies = r#"
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
damping = "30 N*s/m"
tangential_ratio = 0.5
[[contact]]
name = "floor"
body = "b"
point = ["-0.1 m", "0.05 m", "-0.1 m"]
normal = [0, 0, 1]
stiffness = "2e5 N/m"
tangential_stiffness = "1e5 N/m"
"#;
    let planar = r#"
space = "planar"
[[body]]
name = "roller"
type = "rigid"
mass = "1.3 kg"
inertia = "0.004 kg m^2"
position = ["0 m", "0.07 m"]
[[contact]]
name = "ground"
body = "roller"
point = ["0 m", "0 m"]
normal = [0, 1]
stiffness = "1e5 N/m"
tangential_stiffness = "5e4 N/m"
"#;
    let mut checked = 0;
    for src in [two_bodies.to_string(), planar.to_string()]
        .into_iter()
        .chain((1..=12).map(random_case))
    {
        let ev = evaluate_str(&src);
        assert_steps_over_every_row(&ev);
        // The step with the tangential springs never exceeds the one without.
        let tg = ev.report.tangential.as_ref().unwrap();
        assert!(
            tg.dt_with.unwrap() <= tg.dt_without.unwrap() * (1.0 + 1e-9),
            "{src}"
        );
        checked += 1;
    }
    assert_eq!(checked, 14);
}

#[test]
fn the_verification_simulates_every_row() {
    // The bundled sphere and two random cases: the fastest mode over every
    // row is measured, and symplectic Euler over every row is bounded at
    // 0.98 × the step to use and diverges at 1.02 × it.
    for src in [
        std::fs::read_to_string(crate::support::root().join("cases/sphere-friction.toml")).unwrap(),
        random_case(3),
        random_case(7),
    ] {
        let ev = verified_str(&src);
        let v = ev.verification.as_ref().unwrap();
        let rows: Vec<_> = v
            .verdict
            .checks
            .iter()
            .filter(|c| c.check.starts_with("row_"))
            .collect();
        assert!(rows.iter().any(|c| c.check == "row_mode"), "{src}");
        assert_eq!(
            rows.iter().filter(|c| c.check == "row_stability").count(),
            2
        );
        for c in &rows {
            assert_eq!(c.agrees, Some(true), "{}: {}", c.check, c.what);
        }
        let mode = rows.iter().find(|c| c.check == "row_mode").unwrap();
        assert_close(mode.predicted.unwrap(), ev.report.coupled_omega_max, 1e-12);
    }
}

/// The ball of `support::hertz_ball` under its weight's load.
fn hertz_ball(extra: &str) -> String {
    crate::support::hertz_ball("", &format!("load = \"0.3208 N\"\n{extra}"))
}

const STEEL: &str = r#"material = { youngs_modulus = "210 GPa", poisson_ratio = 0.3, density = "7850 kg/m^3", radius = "r" }"#;

#[test]
fn mindlins_shear_modulus_for_steel_is_the_hand_value() {
    let (e, nu, r, w): (f64, f64, f64, f64) = (210e9, 0.3, 0.01, 0.3208);
    let g = e / (2.0 * (1.0 + nu));
    for (other, e_star, g_star) in [
        (
            r#"other_material = { youngs_modulus = "210 GPa", poisson_ratio = 0.3 }"#,
            e / (2.0 * (1.0 - nu * nu)),
            g / (2.0 * (2.0 - nu)),
        ),
        (
            r#"other_material = "rigid""#,
            e / (1.0 - nu * nu),
            g / (2.0 - nu),
        ),
    ] {
        let ev = evaluate_str(&hertz_ball(&format!("{STEEL}\n{other}\nmindlin = true")));
        let h = &ev.report.hertz[0];
        assert_close(h.modulus.unwrap(), e_star, 1e-14);
        assert_close(h.shear_modulus.unwrap(), g_star, 1e-14);
        assert!(h.from_materials);
        let k = 4.0 / 3.0 * e_star * r.sqrt();
        let delta = (w / k).powf(2.0 / 3.0);
        let tg = ev.analysis.tangential.as_ref().unwrap();
        assert_close(
            tg.rows.stiffness()[1],
            8.0 * g_star * (r * delta).sqrt(),
            1e-12,
        );
        // Rayleigh time by hand, and the factor against the step to use.
        let t_r = std::f64::consts::PI * r * (7850.0 / g).sqrt() / (0.1631 * nu + 0.8766);
        assert_close(h.rayleigh.time.unwrap(), t_r, 1e-14);
        let step = ev.report.stable_dt.governing.unwrap();
        assert_close(h.rayleigh.factor.unwrap(), step / t_r, 1e-14);
    }
    // Steel on steel: G* = 80.77 GPa / 3.4 = 23.76 GPa, not 43.5 GPa.
    assert_close(g / (2.0 * (2.0 - nu)), 23.755_656_1e9, 1e-8);
}

#[test]
fn the_rayleigh_rule_says_what_is_missing() {
    let no_density = r#"material = { youngs_modulus = "210 GPa", poisson_ratio = 0.3, radius = "r" }
other_material = "rigid""#;
    let ev = evaluate_str(&hertz_ball(no_density));
    let h = &ev.report.hertz[0];
    assert!(h.rayleigh.time.is_none() && h.rayleigh.factor.is_none());
    assert!(h.rayleigh.missing.as_deref().unwrap().contains("density"));
    let ev = evaluate_str(&hertz_ball("modulus = \"115 GPa\""));
    let missing = ev.report.hertz[0].rayleigh.missing.clone().unwrap();
    assert!(missing.contains("materials"), "{missing}");
}

#[test]
fn bad_materials_are_located() {
    let other = r#"other_material = "rigid""#;
    for (extra, said) in [
        (
            STEEL.to_string(),
            "give both `material` and `other_material`",
        ),
        (
            format!("{}\n{other}", STEEL.replace("0.3", "0.6")),
            "`poisson_ratio` must be a number in [0, 0.5)",
        ),
        (
            format!(
                "{}\n{other}",
                STEEL.replace("youngs_modulus = \"210 GPa\", ", "")
            ),
            "give one of `youngs_modulus` and `shear_modulus`",
        ),
        (
            format!("{STEEL}\n{other}\nmodulus = \"115 GPa\""),
            "the materials give E* and G*",
        ),
        (
            format!("{STEEL}\nother_material = \"steel\""),
            "a table or \"rigid\"",
        ),
        ("mindlin = true".to_string(), "`mindlin` is true or false"),
        (
            format!("{}\n{other}", STEEL.replace("density", "densty")),
            "unknown key `densty`",
        ),
    ] {
        refused(&eval_stdin(&hertz_ball(&extra)), said);
    }
}

/// Every Hertz contact with an impact at its peak: the step there from the
/// overlap of an independent RK4 integration of m δ̈ = −K δ^{3/2}.
#[test]
fn the_step_holds_at_the_peak_of_a_hertz_impact() {
    let m: f64 = 0.0327;
    let r: f64 = 0.01;
    for (extra, mindlin) in [
        ("modulus = \"115 GPa\"\nimpact_speed = \"1 m/s\"", false),
        ("modulus = \"70 GPa\"\nimpact_speed = \"3.5 m/s\"", false),
        (
            "modulus = \"115 GPa\"\nshear_modulus = \"23.76 GPa\"\nimpact_speed = \"0.4 m/s\"",
            true,
        ),
    ] {
        let ev = evaluate_str(&hertz_ball(extra));
        let h = &ev.report.hertz[0];
        let x = meff::hertz::integrate(m, h.coefficient, h.impact.as_ref().unwrap().speed, 4000);
        let k_peak = 1.5 * h.coefficient * x.max_overlap.sqrt();
        let mut omega = (k_peak / m).sqrt();
        if mindlin {
            let kt = 8.0 * 23.76e9 * (r * x.max_overlap).sqrt();
            omega = omega.max((3.5 * kt / m).sqrt());
        }
        // The linear limit at the peak is 2/ω there; the step to use is the
        // smaller of its overshoot fraction and the rebound's resolution
        // (one row: the normal row alone at its peak).
        let p = ev.report.hertz_peak.as_ref().unwrap();
        assert_close(p.limit.unwrap(), 2.0 / omega, 1e-6);
        let normal = (k_peak / m).sqrt();
        let resolution = meff::hertz::resolution_factor(0.01) * 2.0 / normal;
        let stable = meff::hertz::overshoot_factor() * 2.0 / omega;
        let g = ev.report.stable_dt.governing.unwrap();
        assert_close(g, resolution.min(stable), 1e-6);
        assert_eq!(p.governing, Some(g));
        assert!(
            p.static_governing.unwrap() > 1.5 * g,
            "the static step is far larger"
        );
        assert!(ev.report.stable_dt.guaranteed.unwrap() <= g);
        let text = meff::render::text::summary(&ev.report, 4);
        let head = text
            .lines()
            .map(str::trim_start)
            .find(|l| l.starts_with("Use "))
            .unwrap();
        assert!(head.contains("through the Hertz impact"), "{head}");
        assert!(head.contains("static linearisation only"), "{head}");
    }
    // Without an impact the static step stands, labelled by nothing else.
    let ev = evaluate_str(&hertz_ball("modulus = \"115 GPa\""));
    assert!(ev.report.hertz_peak.is_none());
}

#[test]
fn the_bundled_hertz_case_states_its_peak_step() {
    let ev = bundled("hertz-sphere-impact.toml");
    let p = ev.report.hertz_peak.as_ref().unwrap();
    let g = ev.report.stable_dt.governing.unwrap();
    assert_eq!(p.governing, Some(g));
    assert!(p.static_governing.unwrap() > g);
    assert!(p.contacts[0].tangential_stiffness.is_some());
    assert!(ev.report.hertz[0].rayleigh.time.is_some());
}
