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

/// The bundled UR5 program case in a temporary directory with its CSV
/// rewritten by `edit` (the header line and every row's values) and
/// `extra` added to `[motion]`; the rules that warn.
fn program_rules(edit: &dyn Fn(&str) -> String, extra: &str) -> Vec<&'static str> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("models")).unwrap();
    std::fs::copy(
        root().join("cases/models/ur5_robot.urdf"),
        dir.path().join("models/ur5_robot.urdf"),
    )
    .unwrap();
    let csv = std::fs::read_to_string(root().join("cases/ur5-program.csv")).unwrap();
    let csv: String = csv
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| edit(l) + "\n")
        .collect();
    std::fs::write(dir.path().join("p.csv"), csv).unwrap();
    let case = std::fs::read_to_string(root().join("cases/ur5-program.toml"))
        .unwrap()
        .replace(
            "trajectory = \"ur5-program.csv\"",
            &format!("trajectory = \"p.csv\"\n{extra}"),
        );
    let path = dir.path().join("case.toml");
    std::fs::write(&path, case).unwrap();
    let ev = evaluate_path(&path);
    ev.report.model_checks.iter().map(|w| w.rule).collect()
}

/// Each row's values mapped by `f(column, value)` (the header kept).
fn map_values(f: &'static dyn Fn(usize, f64) -> f64) -> impl Fn(&str) -> String {
    move |l: &str| {
        if l.starts_with('t') {
            return l.to_string();
        }
        l.split(',')
            .enumerate()
            .map(|(i, x)| format!("{}", f(i, x.parse::<f64>().unwrap())))
            .collect::<Vec<_>>()
            .join(",")
    }
}

#[test]
fn a_program_in_the_wrong_angle_unit_warns() {
    let rule = "program_angle_unit";
    let deg = r#"angle_unit = "deg""#;
    let same = |l: &str| l.to_string();
    // Radians read as degrees (the planter's p22), and halved.
    assert!(program_rules(&same, deg).contains(&rule));
    assert!(
        program_rules(&map_values(&|i, x| if i == 0 { x } else { x / 2.0 }), deg).contains(&rule)
    );
    // Degrees read as radians.
    let to_deg = map_values(&|i, x| if i == 0 { x } else { x.to_degrees() });
    assert!(program_rules(&to_deg, "").contains(&rule));
    // Honest: degrees declared, radians as they are.
    assert!(!program_rules(&to_deg, deg).contains(&rule));
    assert!(!program_rules(&same, "").contains(&rule));
}

#[test]
fn swapped_program_columns_and_a_sample_counter_warn() {
    let swap = |a: &'static str, b: &'static str| {
        move |l: &str| {
            if l.starts_with('t') {
                l.replace(a, "@").replace(b, a).replace('@', b)
            } else {
                l.to_string()
            }
        }
    };
    let rules = program_rules(&swap("shoulder_lift_joint", "elbow_joint"), "");
    assert!(rules.contains(&"program_start"), "{rules:?}");
    let rules = program_rules(&swap("shoulder_lift_joint", "wrist_3_joint"), "");
    assert!(rules.contains(&"program_start"), "{rules:?}");
    // Two columns of equal first values cannot show a swap; the case as
    // bundled starts at its configuration.
    assert!(!program_rules(&swap("wrist_1_joint", "wrist_2_joint"), "").contains(&"program_start"));
    assert!(!program_rules(&|l: &str| l.to_string(), "").contains(&"program_start"));
    // The time column as a sample index (p24), and at 1 Hz from 1.
    let index = map_values(&|i, x| if i == 0 { (x / 0.02).round() } else { x });
    assert!(program_rules(&index, "").contains(&"sample_counter"));
    let from_one = map_values(&|i, x| if i == 0 { (x / 0.02).round() + 1.0 } else { x });
    assert!(!program_rules(&from_one, "").contains(&"sample_counter"));
}

#[test]
fn a_link_inertia_about_its_joint_warns_and_names_the_link() {
    // The planter's p27: the upper arm's ixx and iyy about the shoulder
    // (0.2268 + m·0.28² = 0.885), and the forearm's about the elbow.
    let dir = tempfile::tempdir().unwrap();
    let urdf = std::fs::read_to_string(root().join("cases/models/ur5_robot.urdf")).unwrap();
    for (link, joint) in [("upper_arm_link", 0.28f64), ("forearm_link", 0.25)] {
        let start = urdf.find(&format!("<link name=\"{link}\"")).unwrap();
        let at = start + urdf[start..].find("<inertia ").unwrap();
        let end = at + urdf[at..].find("/>").unwrap();
        let tag = &urdf[at..end];
        let mass_at = start + urdf[start..].find("<mass value=\"").unwrap() + 13;
        let mass: f64 = urdf[mass_at..mass_at + urdf[mass_at..].find('"').unwrap()]
            .parse()
            .unwrap();
        let get = |k: &str| -> f64 {
            let i = tag.find(&format!("{k}=\"")).unwrap() + k.len() + 2;
            tag[i..i + tag[i..].find('"').unwrap()].parse().unwrap()
        };
        let (ixx, iyy) = (
            get("ixx") + mass * joint * joint,
            get("iyy") + mass * joint * joint,
        );
        let new_tag = format!(
            "<inertia ixx=\"{ixx}\" ixy=\"0\" ixz=\"0\" iyy=\"{iyy}\" iyz=\"0\" izz=\"{}\"",
            get("izz")
        );
        let edited = format!("{}{}{}", &urdf[..at], new_tag, &urdf[end..]);
        std::fs::write(dir.path().join("ur5.urdf"), edited).unwrap();
        let case = std::fs::read_to_string(root().join("cases/ur5-tool.toml"))
            .unwrap()
            .replace("models/ur5_robot.urdf", "ur5.urdf");
        let path = dir.path().join("case.toml");
        std::fs::write(&path, case).unwrap();
        let ev = evaluate_path(&path);
        let w: Vec<_> = ev
            .report
            .model_checks
            .iter()
            .filter(|w| w.rule == "link_gyration_beyond_extent")
            .collect();
        assert_eq!(w.len(), 1, "{link}");
        assert!(w[0].input.contains(link), "{}", w[0].input);
    }
    // The bundled arm as it is: silent.
    let ev = crate::support::bundled("ur5-tool.toml");
    assert!(
        ev.report
            .model_checks
            .iter()
            .all(|w| w.rule != "link_gyration_beyond_extent")
    );
}
