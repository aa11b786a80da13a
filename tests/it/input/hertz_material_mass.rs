//! A Hertz contact's `material` (and `other_material`) with a density and
//! a radius names the body it belongs to: a mass further than 2 % from
//! 4/3 π r³ ρ (or ρ × the body's shape volume) is flagged under
//! `hertz_geometry` at the material's key; a ball weighed against a
//! handbook density (within steel's ±2 % spread) stays silent.

use crate::support::{bundled, evaluate_str, hertz_ball};

fn flagged(ev: &meff::Evaluated) -> Vec<&meff::checks::ModelCheck> {
    ev.report
        .model_checks
        .iter()
        .filter(|w| w.rule == "hertz_geometry")
        .collect()
}

const OTHER: &str = "other_material = { youngs_modulus = \"210 GPa\", poisson_ratio = 0.3 }";

/// The helper's ball (m = 0.0327 kg, r = 10 mm) with its material's
/// density and radius.
fn ball(density: &str, radius: &str) -> meff::Evaluated {
    evaluate_str(&hertz_ball(
        "",
        &format!(
            "load = \"0.3208 N\"\nmaterial = {{ youngs_modulus = \"210 GPa\", poisson_ratio = 0.3, density = \"{density}\", radius = \"{radius}\" }}\n{OTHER}"
        ),
    ))
}

#[test]
fn a_hertz_material_that_names_another_ball_is_flagged() {
    // 4/3 π (10 mm)³ ρ: 0.0327 kg is ρ = 7,806 kg/m³.
    for (density, radius, silent) in [
        ("7850 kg/m^3", "r", true),    // 0.55 % (the bundled case's old numbers)
        ("7930 kg/m^3", "r", true),    // 1.6 %, a stainless steel
        ("8050 kg/m^3", "r", false),   // 3.0 %
        ("2700 kg/m^3", "r", false),   // aluminium's density for a steel ball
        ("7850 kg/m^3", "2*r", false), // the diameter typed as the radius
        ("7.85 kg/m^3", "r", false),   // g/cm³ read as kg/dm³
    ] {
        let ev = ball(density, radius);
        let w = flagged(&ev);
        assert_eq!(w.is_empty(), silent, "{density}, {radius}: {w:?}");
        if let Some(w) = w.first() {
            assert_eq!(w.input, "contact plate: material");
            let line = 1 + ev
                .case
                .source
                .lines()
                .position(|l| l.starts_with("material"))
                .unwrap();
            assert!(
                w.location.ends_with(&format!(":{line}:1")),
                "{}",
                w.location
            );
            assert!(w.message.contains("0.03270 kg"), "{}", w.message);
        }
    }
}

#[test]
fn a_shaped_body_and_the_other_material_are_held_to_their_density() {
    // A shaped ball: ρ × its sphere's volume; the material's radius left
    // out. 16 g nylon (PA6, 1140 kg/m³) of 15 mm radius: 0.72 % off.
    let nylon = |m: &str, rho: &str| {
        format!(
            "space = \"3d\"\n[[body]]\nname = \"ball\"\ntype = \"rigid\"\nmass = \"{m}\"\nshape = {{ sphere = \"0.015 m\" }}\nposition = [\"0 m\", \"0 m\", \"0.015 m\"]\n[[contact]]\nname = \"plate\"\nbody = \"ball\"\npoint = [\"0 m\", \"0 m\", \"0 m\"]\nnormal = [0, 0, 1]\nlaw = \"hertz\"\nradius = \"0.015 m\"\nload = \"0.157 N\"\nmaterial = {{ youngs_modulus = \"2.8 GPa\", poisson_ratio = 0.39, density = \"{rho}\" }}\n{OTHER}\n"
        )
    };
    assert!(flagged(&evaluate_str(&nylon("0.016 kg", "1140 kg/m^3"))).is_empty());
    let ev = evaluate_str(&nylon("0.016 kg", "7850 kg/m^3"));
    let w = flagged(&ev);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].message.contains("sphere"), "{}", w[0].message);
    // Two balls: the other material's density names the other body.
    let two = |rho: &str| {
        format!(
            "space = \"3d\"\n[[body]]\nname = \"a\"\ntype = \"rigid\"\nmass = \"0.0327 kg\"\ninertia = [\"1.308e-6 kg m^2\", \"1.308e-6 kg m^2\", \"1.308e-6 kg m^2\"]\nposition = [\"0 m\", \"0 m\", \"0.01 m\"]\n[[body]]\nname = \"b\"\ntype = \"rigid\"\nmass = \"0.0327 kg\"\ninertia = [\"1.308e-6 kg m^2\", \"1.308e-6 kg m^2\", \"1.308e-6 kg m^2\"]\nposition = [\"0 m\", \"0 m\", \"-0.01 m\"]\n[[contact]]\nname = \"ab\"\nbody = \"a\"\nother = \"b\"\npoint = [\"0 m\", \"0 m\", \"0 m\"]\nnormal = [0, 0, 1]\nlaw = \"hertz\"\nradius = \"5 mm\"\noverlap = \"1 um\"\nmaterial = {{ youngs_modulus = \"210 GPa\", poisson_ratio = 0.3, density = \"7806 kg/m^3\", radius = \"10 mm\" }}\nother_material = {{ youngs_modulus = \"210 GPa\", poisson_ratio = 0.3, density = \"{rho}\", radius = \"10 mm\" }}\n"
        )
    };
    assert!(flagged(&evaluate_str(&two("7806 kg/m^3"))).is_empty());
    let ev = evaluate_str(&two("2700 kg/m^3"));
    let w = flagged(&ev);
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].input, "contact ab: other_material");
    assert!(w[0].message.contains("body b"), "{}", w[0].message);
}

#[test]
fn the_bundled_hertz_ball_is_its_materials_mass_and_weight() {
    let ev = bundled("hertz-sphere-impact.toml");
    assert!(
        ev.report.model_checks.is_empty(),
        "{:?}",
        ev.report.model_checks
    );
    let m = ev.analysis.contacts[0].m_eff.unwrap();
    let want = 4.0 / 3.0 * std::f64::consts::PI * 0.01f64.powi(3) * 7850.0;
    assert!((m / want - 1.0).abs() < 1e-12, "{m} vs {want}");
    let h = &ev.case.hertz_laws()[0].1;
    assert!((h.load.unwrap() / (want * 9.80665) - 1.0).abs() < 1e-12);
}
