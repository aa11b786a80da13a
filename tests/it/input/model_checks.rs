//! Model checks: each planted implausible input gets a warning naming
//! the input and its line; plausible cases stay silent; the world-frame
//! echo is the pose's.

use crate::support::{SEED_CASE, evaluate_path, evaluate_str, root};
fn rules(ev: &meff::Evaluated) -> Vec<&'static str> {
    ev.report.model_checks.iter().map(|w| w.rule).collect()
}

#[test]
fn plausible_cases_are_silent() {
    // The seed block: radius of gyration 0.1 m, contact 0.1 m away.
    assert!(rules(&evaluate_str(SEED_CASE)).is_empty());
    for name in [
        "offcentre.toml",
        "tote-drop.toml",
        "engine-mujoco-arm.toml",
        "ur5-tool.toml",
    ] {
        let ev = evaluate_path(&root().join("cases").join(name));
        assert!(
            rules(&ev).is_empty(),
            "{name}: {:?}",
            ev.report.model_checks
        );
    }
}

#[test]
fn an_inertia_no_body_can_have_is_flagged_at_its_line() {
    let case = r#"title = "t"
space = "3d"
[[body]]
name = "b"
type = "rigid"
mass = "1 kg"
inertia = ["0.01 kg m^2", "0.01 kg m^2", "0.05 kg m^2"]
[[contact]]
name = "c"
body = "b"
point = ["0.3 m", "0 m", "0 m"]
normal = [0, 0, 1]
stiffness = "1e5 N/m"
"#;
    let ev = evaluate_str(case);
    let w = &ev.report.model_checks;
    assert_eq!(rules(&ev), ["inertia_triangle"], "{w:?}");
    assert!(w[0].location.ends_with(":7:12"), "{}", w[0].location);
    assert!(
        w[0].message.contains("0.02000 < I₃ = 0.05000"),
        "{}",
        w[0].message
    );
}

#[test]
fn a_radius_of_gyration_beyond_every_contact_is_flagged() {
    // The seed block with its contact moved to 3 cm from the centre.
    let ev = evaluate_str(&SEED_CASE.replace("r = \"0.10 m\"", "r = \"0.03 m\""));
    assert_eq!(rules(&ev), ["gyration_beyond_contacts"]);
    let at = &ev.report.model_checks[0].location;
    assert!(at.ends_with(":11:11"), "{at}");
    // And one 40 times farther than the mass reaches.
    let ev = evaluate_str(&SEED_CASE.replace("r = \"0.10 m\"", "r = \"4 m\""));
    assert_eq!(rules(&ev), ["contacts_far_from_mass"]);
}

#[test]
fn a_contact_off_its_shaped_body_is_flagged() {
    let case = r#"title = "t"
space = "3d"
[[body]]
name = "box"
type = "rigid"
mass = "2 kg"
shape = { box = ["0.2 m", "0.2 m", "0.2 m"] }
[[contact]]
name = "far"
body = "box"
point = ["0.5 m", "0 m", "0 m"]
normal = [0, 0, 1]
stiffness = "1e5 N/m"
[[contact]]
name = "corner"
body = "box"
point = ["0.1 m", "0.1 m", "-0.1 m"]
normal = [0, 0, 1]
stiffness = "1e5 N/m"
"#;
    let ev = evaluate_str(case);
    assert_eq!(rules(&ev), ["contact_outside_shape"]);
    assert!(ev.report.model_checks[0].input.contains("far"));
}

/// The bundled MuJoCo arm with its floor normal typed in the forearm's
/// axes (the defect the sheet used to carry): flagged against the floor
/// plane, 69° off, and the world echo shows where the normal points.
#[test]
fn a_floor_contact_whose_normal_is_in_the_wrong_frame_is_flagged() {
    let text = std::fs::read_to_string(root().join("cases/engine-mujoco-arm.toml"))
        .unwrap()
        .replace("normal_frame = \"world\"\n", "")
        .replace(
            "\"models/",
            &format!("\"{}/cases/models/", root().display()),
        );
    // The claim (MuJoCo's own A) no longer holds: drop it.
    let text = &text[..text.find("[[claim]]").unwrap()];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("arm.toml");
    std::fs::write(&path, text).unwrap();
    let ev = evaluate_path(&path);
    assert!(
        rules(&ev).contains(&"normal_against_plane"),
        "{:?}",
        ev.report.model_checks
    );
    let w = &ev.report.model_checks[0];
    assert!(
        w.message.contains("68.8°") && w.message.contains("`floor`"),
        "{}",
        w.message
    );
    let def = ev.report.definition.as_ref().unwrap();
    let world = def.contacts[0].world.as_ref().unwrap();
    assert!(
        (world.normal[0] - 1.2f64.sin()).abs() < 1e-12,
        "{:?}",
        world.normal
    );
    assert!(
        (world.planes[0].1 - 68.75).abs() < 0.01,
        "{:?}",
        world.planes
    );
    // Typed right, the echo is the floor's normal and 0° from the plane.
    let ev = evaluate_path(&root().join("cases/engine-mujoco-arm.toml"));
    let world = ev.report.definition.as_ref().unwrap().contacts[0]
        .world
        .clone()
        .unwrap();
    assert_eq!(world.normal, vec![0.0, 0.0, 1.0]);
    assert!(world.planes[0].1.abs() < 1e-9);
    // The point is the tip sphere's centre at the pose: 0.5126 m out, 1 cm up.
    assert!((world.point[0] - 0.512583).abs() < 1e-5 && (world.point[2] - 0.01).abs() < 1e-5);
}

#[test]
fn the_sheet_shows_the_checks_in_every_format() {
    let ev = evaluate_path(&root().join("cases/damped-corners.toml"));
    let t = meff::render::templates::Templates::load(None).unwrap();
    let md = t.report_md(&ev.report, 4).unwrap();
    let html = t.report_html(&ev.report, 4).unwrap();
    // Typst text escapes its punctuation (`0\.07071`).
    let typ = t.report_typ(&ev.report, 4).unwrap().0.replace('\\', "");
    let text = meff::render::text::summary(&ev.report, 4);
    for doc in [&md, &html, &typ, &text] {
        assert!(doc.contains("damped-corners.toml:20:11"), "{doc}");
        assert!(doc.contains("0.07071"), "{doc}");
    }
    let json = meff::render::json(&ev.report);
    assert!(json.contains("\"rule\": \"gyration_beyond_contacts\""));
}
