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
    // The seed block with its contact moved to 3 cm from the centre and a
    // second one 2 cm the other side: the mass lies beyond both.
    let second = "[[contact]]\nname = \"d\"\nbody = \"block\"\npoint = [\"-0.02 m\", \"0 m\"]\nnormal = [0, 1]\nstiffness = \"k\"\n";
    let two = format!(
        "{}{second}",
        SEED_CASE.replace("r = \"0.10 m\"", "r = \"0.03 m\"")
    );
    let ev = evaluate_str(&two);
    assert_eq!(rules(&ev), ["gyration_beyond_contacts"]);
    let at = &ev.report.model_checks[0].location;
    assert!(at.ends_with(":11:11"), "{at}");
    // One contact alone says nothing of the body's size (a plate on a
    // central pad): silent.
    let ev = evaluate_str(&SEED_CASE.replace("r = \"0.10 m\"", "r = \"0.03 m\""));
    assert!(rules(&ev).is_empty());
    // And one 40 times farther than the mass reaches.
    let ev = evaluate_str(&SEED_CASE.replace("r = \"0.10 m\"", "r = \"4 m\""));
    assert_eq!(
        rules(&ev),
        ["contacts_far_from_mass", "lever_beyond_gyration"]
    );
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
    // 0.5 m is also 6 radii of gyration out: its lever says so too.
    assert_eq!(
        rules(&ev),
        ["contact_outside_shape", "lever_beyond_gyration"]
    );
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
        assert!(doc.contains("damped-corners.toml:22:11"), "{doc}");
        assert!(doc.contains("0.07071"), "{doc}");
    }
    let json = meff::render::json(&ev.report);
    assert!(json.contains("\"rule\": \"gyration_beyond_contacts\""));
}

/// A body for the range rules: `BODY` and `CONTACTS` are filled in.
fn case_3d(body: &str, contacts: &str) -> String {
    format!(
        "title = \"t\"\nspace = \"3d\"\n[[body]]\nname = \"part\"\ntype = \"rigid\"\nposition = [\"0 m\", \"0 m\", \"0.05 m\"]\n{body}\n{contacts}"
    )
}

const CORNER: &str = "[[contact]]\nname = \"c\"\nbody = \"part\"\nframe = \"body\"\npoint = [\"0.05 m\", \"0.05 m\", \"-0.05 m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e5 N/m\"\n";

#[test]
fn a_density_no_matter_has_is_flagged_for_shaped_and_plain_bodies() {
    for (body, expect) in [
        // A 1 kg box of 1 m³ (kg for g? m for dm?): lighter than air.
        (
            "mass = \"1 kg\"\nshape = { box = [\"1 m\", \"1 m\", \"1 m\"] }",
            true,
        ),
        // 1000 kg in a 10 cm cube: 10⁶ kg/m³.
        (
            "mass = \"1000 kg\"\nshape = { box = [\"0.1 m\", \"0.1 m\", \"0.1 m\"] }",
            true,
        ),
        // Steel, 7.85 kg in a 10 cm cube: plausible.
        (
            "mass = \"7.85 kg\"\nshape = { box = [\"0.1 m\", \"0.1 m\", \"0.1 m\"] }",
            false,
        ),
        // Inertia in g·cm² typed as kg·m² (10⁷ too large): its sphere of
        // gyration is metres wide.
        (
            "mass = \"2 kg\"\ninertia = [\"33 kg m^2\", \"33 kg m^2\", \"33 kg m^2\"]",
            true,
        ),
        // A 2 kg block's own inertia: plausible.
        (
            "mass = \"2 kg\"\ninertia = [\"0.0033 kg m^2\", \"0.0033 kg m^2\", \"0.0033 kg m^2\"]",
            false,
        ),
    ] {
        let ev = evaluate_str(&case_3d(body, CORNER));
        assert_eq!(
            rules(&ev).contains(&"implausible_density"),
            expect,
            "{body}: {:?}",
            ev.report.model_checks
        );
    }
}

#[test]
fn a_lever_far_beyond_the_radius_of_gyration_is_flagged() {
    // Thin-rod inertia for a ball: the contact's lever about the rod's
    // axis is 300 radii of gyration; m_eff = 1e-5 of the mass.
    let body = "mass = \"1 kg\"\ninertia = [\"0.0067 kg m^2\", \"0.0067 kg m^2\", \"1e-7 kg m^2\"]";
    let contact = "[[contact]]\nname = \"a\"\nbody = \"part\"\npoint = [\"0.1 m\", \"0 m\", \"0.05 m\"]\nnormal = [0, 1, 0]\nstiffness = \"1e5 N/m\"\n";
    let ev = evaluate_str(&case_3d(body, contact));
    let w = ev
        .report
        .model_checks
        .iter()
        .find(|w| w.rule == "lever_beyond_gyration")
        .unwrap_or_else(|| panic!("{:?}", ev.report.model_checks));
    assert!(w.input.contains("contact a"), "{w:?}");
    assert!(w.location.starts_with("test.toml:"), "{w:?}");
    // The bundled cases' levers are all within 5 radii of gyration.
    for path in crate::support::bundled_case_paths() {
        let ev = evaluate_path(&path);
        assert!(
            !rules(&ev).contains(&"lever_beyond_gyration"),
            "{}",
            path.display()
        );
        assert!(
            !rules(&ev).contains(&"implausible_density"),
            "{}",
            path.display()
        );
    }
}

#[test]
fn one_contact_near_the_centre_is_no_reason_to_warn() {
    // A 1 m steel plate on one central pad; a ring hanging on a peg: the
    // mass lies beyond the only contact, as it should.
    let plate = case_3d(
        "mass = \"78.5 kg\"\ninertia = [\"6.55 kg m^2\", \"6.55 kg m^2\", \"13.1 kg m^2\"]",
        "[[contact]]\nname = \"pad\"\nbody = \"part\"\npoint = [\"0.02 m\", \"0 m\", \"0 m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e7 N/m\"\n",
    );
    assert!(rules(&evaluate_str(&plate)).is_empty(), "plate");
    let ring = "title = \"t\"\nspace = \"planar\"\n[[body]]\nname = \"ring\"\ntype = \"rigid\"\nmass = \"0.5 kg\"\ninertia = \"0.00130 kg m^2\"\n[[contact]]\nname = \"peg\"\nbody = \"ring\"\npoint = [\"0 m\", \"0.04 m\"]\nnormal = [0, -1]\nstiffness = \"1e6 N/m\"\n";
    assert!(rules(&evaluate_str(ring)).is_empty(), "ring");
}

#[test]
fn a_zero_width_slot_a_crushing_impact_and_a_person_out_of_range_are_flagged() {
    let slot = "title = \"t\"\nspace = \"planar\"\n[[body]]\nname = \"block\"\ntype = \"rigid\"\nmass = \"2 kg\"\ninertia = \"0.003333 kg m^2\"\nposition = [\"0 m\", \"0.05 m\"]\n[[contact]]\nname = \"up\"\nbody = \"block\"\npoint = [\"0.05 m\", \"0 m\"]\nnormal = [0, 1]\nstiffness = \"1e5 N/m\"\n[[contact]]\nname = \"down\"\nbody = \"block\"\npoint = [\"0.05 m\", \"0 m\"]\nnormal = [0, -1]\nstiffness = \"1e5 N/m\"\n";
    assert!(rules(&evaluate_str(slot)).contains(&"opposite_normals"));
    // 800 m drop: the corner compresses far more than the 10 cm box.
    let drop = case_3d(
        "mass = \"2 kg\"\nshape = { box = [\"0.1 m\", \"0.1 m\", \"0.1 m\"] }",
        &format!("{CORNER}[[impact]]\ncontact = \"c\"\ndrop = \"800 m\"\n"),
    );
    let ev = evaluate_str(&drop);
    let w = ev
        .report
        .model_checks
        .iter()
        .find(|w| w.rule == "impact_compression")
        .unwrap_or_else(|| panic!("{:?}", ev.report.model_checks));
    assert!(w.location.starts_with("test.toml:"), "{w:?}");
    // A 0.5 m drop of the same box compresses it by less than 10 %.
    let gentle = drop.replace("800 m", "0.5 m");
    assert!(!rules(&evaluate_str(&gentle)).contains(&"impact_compression"));
    // A hand of 75 N/m (kN/m meant), a force limit of 280 kN, 25 m/s.
    let text = std::fs::read_to_string(root().join("cases/ur5-tool.toml")).unwrap();
    let person = text
        .replace("stiffness = \"75 kN/m\"", "stiffness = \"75 N/m\"")
        .replace("force_limit = \"280 N\"", "force_limit = \"280 kN\"")
        .replace("speed = \"0.25 m/s\"", "speed = \"25 m/s\"");
    let ev = evaluate_beside_the_models(&person);
    let inputs: Vec<&str> = ev
        .report
        .model_checks
        .iter()
        .filter(|w| w.rule == "person_values")
        .map(|w| w.input.as_str())
        .collect();
    assert_eq!(inputs.len(), 3, "{:?}", ev.report.model_checks);
}

#[test]
fn a_model_point_on_its_joints_axes_is_immobile_not_heavy() {
    // A point on the UR5 upper arm's shoulder axes (to round-off of the
    // model's geometry): it cannot move along any normal; the sheet says
    // immobile instead of 10²⁴ kg and a step of 10⁹ s.
    let text = std::fs::read_to_string(root().join("cases/ur5-tool.toml")).unwrap();
    let start = text.find("[[contact]]").unwrap();
    let end = text.find("[[person]]").unwrap();
    let moved = format!(
        "{}[[contact]]\nname = \"tool\"\nbody = \"upper_arm_link\"\npoint = [\"0 m\", \"0 m\", \"0.2 m\"]\nnormal = [0, 0, 1]\nframe = \"body\"\nnormal_frame = \"world\"\nstiffness = \"k\"\n\n",
        &text[..start]
    ) + &text[end..];
    let moved = moved.replace("[[claim]]", "[[claim_not_checked]]");
    let moved = moved.split("[[sweep]]").next().unwrap().to_string() + "[document]\n";
    let ev = evaluate_beside_the_models(&moved);
    let c = &ev.analysis.contacts[0];
    assert!(c.immobile && c.m_eff.is_none(), "{c:?}");
}

/// Evaluates case text that names `models/…` files as the bundled cases
/// do: written to a scratch folder with the model path made absolute.
fn evaluate_beside_the_models(text: &str) -> meff::Evaluated {
    let dir = tempfile::tempdir().unwrap();
    let models = root().join("cases/models");
    let text = text.replace("\"models/", &format!("\"{}/", models.display()));
    let path = dir.path().join("case.toml");
    std::fs::write(&path, text).unwrap();
    evaluate_path(&path)
}

#[test]
fn a_normal_pulling_a_shaped_body_outward_is_flagged() {
    // The corner of a 10 cm box on the floor, normal typed downward: the
    // floor would pull the box down through its corner.
    let down = CORNER.replace("normal = [0, 0, 1]", "normal = [0, 0, -1]");
    let body = "mass = \"7.85 kg\"\nshape = { box = [\"0.1 m\", \"0.1 m\", \"0.1 m\"] }";
    let ev = evaluate_str(&case_3d(body, &down));
    assert_eq!(
        rules(&ev),
        ["normal_out_of_shape"],
        "{:?}",
        ev.report.model_checks
    );
    assert!(rules(&evaluate_str(&case_3d(body, CORNER))).is_empty());
    // Between two boxes: the upper one's normal points down into the lower.
    let two = format!(
        "{}\n[[body]]\nname = \"top\"\ntype = \"rigid\"\nmass = \"7.85 kg\"\nshape = {{ box = [\"0.1 m\", \"0.1 m\", \"0.1 m\"] }}\nposition = [\"0 m\", \"0 m\", \"0.15 m\"]\n[[contact]]\nname = \"stack\"\nbody = \"top\"\nother = \"part\"\npoint = [\"0 m\", \"0 m\", \"0.1 m\"]\nnormal = [0, 0, NZ]\nstiffness = \"1e5 N/m\"\n",
        case_3d(body, CORNER)
    );
    assert!(rules(&evaluate_str(&two.replace("NZ", "1"))).is_empty());
    let flipped = evaluate_str(&two.replace("NZ", "-1"));
    assert_eq!(
        rules(&flipped),
        ["normal_out_of_shape", "normal_out_of_shape"],
        "both boxes are pulled: {:?}",
        flipped.report.model_checks
    );
}

#[test]
fn a_sweep_that_leaves_what_a_body_can_be_is_flagged_at_its_end() {
    let sweep = format!(
        "{SEED_CASE}[[sweep]]\nparameter = \"r\"\nfrom = \"0.05 m\"\nto = \"50 m\"\npoints = 5\nplot = [\"m_eff(c)\"]\n"
    );
    let ev = evaluate_str(&sweep);
    let w = ev
        .report
        .model_checks
        .iter()
        .find(|w| w.rule == "lever_beyond_gyration")
        .unwrap_or_else(|| panic!("{:?}", ev.report.model_checks));
    assert!(
        w.message.starts_with("at the sweep's end, r = 50 m:"),
        "{}",
        w.message
    );
    let line = SEED_CASE.lines().count() + 4;
    assert!(
        w.location.starts_with(&format!("test.toml:{line}:")),
        "{}",
        w.location
    );
    // The bundled lever-arm sweep stays within what the block can be.
    assert!(rules(&evaluate_path(&root().join("cases/lever-arm-sweep.toml"))).is_empty());
}
