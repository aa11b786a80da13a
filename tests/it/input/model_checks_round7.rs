//! Round 7's model checks (issue 36, planter's round 6): a claim's
//! rel_tol typed as a percentage, a tolerance spanning decades, radians
//! under `angle_unit = "deg"`, swapped program columns, a sample counter
//! as time, a link's inertia about its joint, a named material's density.
//! Each class with members made here and the planter's case; the honest
//! twins stay silent.

use crate::support::{evaluate_path, evaluate_str, root};
use meff::robot::Robot;

/// Every model the repository ships or tests with.
fn models() -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for dir in ["cases/models", "tests/robots/urdf", "tests/robots/mjcf"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if matches!(p.extension().and_then(|x| x.to_str()), Some("urdf" | "xml")) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn no_shipped_or_test_model_has_a_link_gyrating_beyond_its_extent() {
    for p in models() {
        let text = std::fs::read_to_string(&p).unwrap();
        let Ok(robot) = Robot::parse(&p.display().to_string(), &text) else {
            continue;
        };
        let tree = &robot.tree;
        let flagged = meff::checks::link_excess(tree);
        assert!(
            flagged.is_empty(),
            "{}: {:?}",
            p.display(),
            flagged
                .iter()
                .map(|x| (
                    tree.bodies[x.body].name.clone(),
                    x.gyration,
                    x.extent,
                    x.gyration / x.extent
                ))
                .collect::<Vec<_>>()
        );
    }
}

/// The rules that warn on a case given as text.
fn rules_of(source: &str) -> Vec<&'static str> {
    let ev = evaluate_str(source);
    ev.report.model_checks.iter().map(|w| w.rule).collect()
}

/// The planter's p10 with its claims' `rel_tol` set to `tol`.
fn tote_claim(tol: &str) -> String {
    format!(
        r#"title = "Tote dropped on a corner: hand check"
description = "An 8 kg tote, uniform, dropped 0.5 m on a corner."
space = "3d"
[parameters]
m = {{ value = "8 kg" }}
a = {{ value = "400 mm" }}
b = {{ value = "300 mm" }}
H = {{ value = "200 mm" }}
k = {{ value = "2e5 N/m" }}
[[body]]
name = "tote"
type = "rigid"
mass = "m"
shape = {{ box = ["a", "b", "H"] }}
position = ["0 m", "0 m", "H/2"]
[[contact]]
name = "corner"
body = "tote"
frame = "body"
point = ["a/2", "b/2", "-H/2"]
normal = [0, 0, 1]
stiffness = "k"
[[impact]]
name = "drop"
contact = "corner"
drop = "0.5 m"
[[claim]]
of = "m_eff(corner)"
equals = "1.5 kg"
rel_tol = {tol}
"#
    )
}

#[test]
fn a_claim_tolerance_typed_as_a_percentage_warns_at_its_rel_tol() {
    for tol in ["5", "2", "0.75"] {
        let ev = evaluate_str(&tote_claim(tol));
        let w: Vec<_> = ev
            .report
            .model_checks
            .iter()
            .filter(|w| w.rule == "claim_tolerance")
            .collect();
        assert_eq!(w.len(), 1, "rel_tol = {tol}");
        // At the `rel_tol` key (line 30 of the text above).
        assert!(w[0].location.ends_with(":30:1"), "{}", w[0].location);
        assert!(w[0].message.contains("m_eff(corner)"), "{}", w[0].message);
    }
    for tol in ["0.3", "0.05"] {
        assert!(
            !rules_of(&tote_claim(tol)).contains(&"claim_tolerance"),
            "{tol}"
        );
    }
}

/// The planter's p11 with the lever's value `r`.
fn lever(r: &str) -> String {
    format!(
        r#"title = "Off-centre block"
description = "A plate with a measured lever."
space = "planar"
[parameters]
m = {{ value = "2 kg ± 5 %" }}
I = {{ value = "0.020 kg m^2 ± 10 %" }}
r = {{ value = "{r}" }}
k = {{ value = "1e5 N/m ± 20 %" }}
[[body]]
name = "block"
type = "rigid"
mass = "m"
inertia = "I"
position = ["0 m", "0 m"]
[[contact]]
name = "offcentre"
body = "block"
point = ["r", "0 m"]
normal = [0, 1]
stiffness = "k"
"#
    )
}

#[test]
fn a_tolerance_spanning_decades_or_crossing_zero_warns() {
    for r in [
        "[0.8 cm, 12 cm]",
        "[1 mm, 20 mm]",
        "0.05 m ± 0.08 m",
        "[-12 cm, -0.8 cm]",
    ] {
        let ev = evaluate_str(&lever(r));
        let w: Vec<_> = ev
            .report
            .model_checks
            .iter()
            .filter(|w| w.rule == "tolerance_span")
            .collect();
        assert_eq!(w.len(), 1, "{r}");
        assert!(w[0].input.contains("parameter r"), "{}", w[0].input);
        assert!(w[0].location.contains(":7:"), "{}", w[0].location);
    }
    for r in [
        "[4 cm, 12 cm]",
        "0.1 m ± 5 %",
        "0 m ± 2 cm",
        "[-2 cm, 2 cm]",
    ] {
        assert!(!rules_of(&lever(r)).contains(&"tolerance_span"), "{r}");
    }
}

/// A box of `mass` and `size` (m) dropped `h` (or struck at `v`), with
/// `words` as its description.
fn words_case(words: &str, mass: &str, size: &str, impact: &str) -> String {
    format!(
        r#"title = "A box"
description = "{words}"
space = "3d"
[parameters]
m = {{ value = "{mass}" }}
a = {{ value = "{size}" }}
k = {{ value = "2e5 N/m" }}
[[body]]
name = "box"
type = "rigid"
mass = "m"
shape = {{ box = ["a", "a", "a"] }}
position = ["0 m", "0 m", "a/2"]
[[contact]]
name = "corner"
body = "box"
frame = "body"
point = ["a/2", "a/2", "-a/2"]
normal = [0, 0, 1]
stiffness = "k"
[[impact]]
name = "hit"
contact = "corner"
{impact}
"#
    )
}

fn warns(source: &str, rule: &str) -> bool {
    rules_of(source).contains(&rule)
}

#[test]
fn a_drop_height_or_a_speed_the_words_state_is_held_against_the_inputs() {
    let rule = "description_contradicts_result";
    for (words, impact) in [
        // The planter's p12: 80 cm written, 0.08 m typed.
        (
            "An 8 kg tote falls 80 cm onto the floor.",
            r#"drop = "0.08 m""#,
        ),
        ("Dropped from a height of 1.5 m.", r#"drop = "0.15 m""#),
        ("A 1.2 m drop onto concrete.", r#"drop = "12 cm""#),
        // p32: a speed in words the inputs do not hold.
        ("Struck by a pusher at 3.6 km/h.", r#"speed = "3.6 m/s""#),
        ("Hit at 5 mph.", r#"speed = "5 m/s""#),
    ] {
        assert!(
            warns(&words_case(words, "8 kg", "0.2 m", impact), rule),
            "{words}"
        );
    }
    for (words, impact) in [
        (
            "An 8 kg tote falls 8 cm onto the floor.",
            r#"drop = "0.08 m""#,
        ),
        ("Struck by a pusher at 3.6 km/h.", r#"speed = "1 m/s""#),
        // A size is not a drop: a 20 cm box dropped.
        (
            "A 20 cm box of 400 mm diagonal dropped on a corner.",
            r#"drop = "0.3 m""#,
        ),
        (
            "Dropped 0.3 m; its 2 m long conveyor is not modelled.",
            r#"drop = "0.3 m""#,
        ),
    ] {
        assert!(
            !warns(&words_case(words, "8 kg", "0.2 m", impact), rule),
            "{words}"
        );
    }
}

#[test]
fn a_named_material_far_from_a_bodys_density_warns() {
    let rule = "material_density";
    let drop = r#"drop = "0.1 m""#;
    // m/V of a 0.1 m cube: the mass in kg times 1000 kg/m³.
    for (words, mass) in [
        ("An aluminium (6082) block machined from solid.", "7.85 kg"),
        ("A printed PA12 cube.", "2.7 kg"),
        ("A solid glass cube.", "0.9 kg"),
    ] {
        assert!(
            warns(&words_case(words, mass, "0.1 m", drop), rule),
            "{words}"
        );
    }
    for (words, mass) in [
        ("An aluminium block.", "2.7 kg"),
        // Hollow: light for its steel is honest unless called solid.
        ("A steel tote, sheet metal.", "0.8 kg"),
        ("A nylon ball on a steel plate.", "1.2 kg"),
        (
            "A tungsten-carbide die block (15,000 kg/m^3) on steel points.",
            "15 kg",
        ),
    ] {
        assert!(
            !warns(&words_case(words, mass, "0.1 m", drop), rule),
            "{words}"
        );
    }
}
