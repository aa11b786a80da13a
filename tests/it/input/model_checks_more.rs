//! Model checks of the second round: the sign and frame of a normal on an
//! unshaped or turned body, a normal that is not its surface's, springs,
//! dashpots and engine steps no body of that size has, a generalized lever
//! in the wrong unit, a particle's or a model's point far from where it
//! acts, a person's region values against the bundled table. Each planted
//! input is flagged at its line; its honest twin is silent.

use crate::support::{evaluate_path, evaluate_str, root};

fn rules(ev: &meff::Evaluated) -> Vec<&'static str> {
    ev.report.model_checks.iter().map(|w| w.rule).collect()
}

/// A planar 2 kg block, 10 cm square (I = m(a² + b²)/12), its centre 5 cm
/// above the floor, with the given contacts.
fn block(extra_body: &str, contacts: &str) -> String {
    format!(
        "title = \"t\"\nspace = \"planar\"\n[[body]]\nname = \"block\"\ntype = \"rigid\"\nmass = \"2 kg\"\ninertia = \"0.003333 kg m^2\"\nposition = [\"0 m\", \"0.05 m\"]\n{extra_body}\n{contacts}"
    )
}

fn contact(name: &str, point: &str, normal: &str, more: &str) -> String {
    format!(
        "[[contact]]\nname = \"{name}\"\nbody = \"block\"\npoint = {point}\nnormal = {normal}\nstiffness = \"1e5 N/m\"\n{more}"
    )
}

fn evaluate_beside_the_models(text: &str) -> meff::Evaluated {
    let dir = tempfile::tempdir().unwrap();
    let models = root().join("cases/models");
    let text = text.replace("\"models/", &format!("\"{}/", models.display()));
    let path = dir.path().join("case.toml");
    std::fs::write(&path, text).unwrap();
    evaluate_path(&path)
}

#[test]
fn a_normal_pointing_away_from_an_unshaped_body_is_flagged_its_sign_kept() {
    let feet = |l: &str, r: &str| {
        block(
            "",
            &(contact("left", "[\"-0.05 m\", \"0 m\"]", l, "")
                + &contact("right", "[\"0.05 m\", \"0 m\"]", r, "")),
        )
    };
    // Both feet on the floor: silent.
    assert!(rules(&evaluate_str(&feet("[0, 1]", "[0, 1]"))).is_empty());
    // One flipped, both flipped, a sideways normal at a bottom corner
    // that points out of the block.
    for (l, r, count) in [
        ("[0, -1]", "[0, 1]", 1),
        ("[0, -1]", "[0, -1]", 2),
        ("[1, 0]", "[1, 0]", 1),
    ] {
        let ev = evaluate_str(&feet(l, r));
        let w = &ev.report.model_checks;
        assert_eq!(
            rules(&ev),
            vec!["normal_away_from_centre"; count],
            "{l} {r}: {w:?}"
        );
        assert!(w[0].message.contains("hanging"), "{}", w[0].message);
        // The numbers do not change: a normal's sign changes no m_eff.
        let m: Vec<f64> = ev
            .analysis
            .contacts
            .iter()
            .map(|c| c.m_eff.unwrap())
            .collect();
        let honest = evaluate_str(&feet("[0, 1]", "[0, 1]"));
        for (a, b) in m.iter().zip(&honest.analysis.contacts) {
            assert!((a - b.m_eff.unwrap()).abs() < 1e-12 * a, "{a}");
        }
    }
    // Between two bodies, the other body's side is read the other way:
    // the upper body's normal typed downward is flagged for both.
    let two = "title = \"t\"\nspace = \"3d\"\n[[body]]\nname = \"up\"\ntype = \"rigid\"\nmass = \"1 kg\"\ninertia = [\"0.004 kg m^2\", \"0.004 kg m^2\", \"0.004 kg m^2\"]\nposition = [\"0 m\", \"0 m\", \"0.1 m\"]\n[[body]]\nname = \"down\"\ntype = \"rigid\"\nmass = \"2 kg\"\ninertia = [\"0.01 kg m^2\", \"0.02 kg m^2\", \"0.015 kg m^2\"]\nposition = [\"0.03 m\", \"0.01 m\", \"-0.05 m\"]\n[[contact]]\nname = \"touch\"\nbody = \"up\"\nother = \"down\"\npoint = [\"0.02 m\", \"0 m\", \"0 m\"]\nnormal = NORMAL\nstiffness = \"2e5 N/m\"\n";
    assert!(rules(&evaluate_str(&two.replace("NORMAL", "[0, 0, 1]"))).is_empty());
    assert_eq!(
        rules(&evaluate_str(&two.replace("NORMAL", "[0, 0, -1]"))),
        ["normal_away_from_centre"; 2]
    );
}

#[test]
fn a_normal_typed_in_a_turned_bodys_axes_that_lands_off_the_world_axes_is_flagged() {
    // A block turned 30° resting on its corner: the floor's normal typed
    // in the block's axes tilts 30°.
    let turned = |angle: &str, frame_normal: &str| {
        block(
            &format!("angle = \"{angle}\""),
            &contact(
                "c",
                "[\"-0.05 m\", \"-0.05 m\"]",
                frame_normal,
                "frame = \"body\"\n",
            ),
        )
    };
    let ev = evaluate_str(&turned("30 deg", "[0, 1]"));
    let w = &ev.report.model_checks;
    assert_eq!(rules(&ev), ["body_frame_normal"], "{w:?}");
    assert!(w[0].location.ends_with(":14:11"), "{}", w[0].location);
    assert!(w[0].message.contains("30.0°"), "{}", w[0].message);
    // Turned a quarter: the body's axis lands on a world axis, as meant.
    assert!(rules(&evaluate_str(&turned("90 deg", "[0, 1]"))).is_empty());
    // In 3-d: a box turned 30° about x, the floor normal in body axes.
    let cube = "title = \"t\"\nspace = \"3d\"\n[[body]]\nname = \"part\"\ntype = \"rigid\"\nmass = \"2 kg\"\nshape = { box = [\"0.1 m\", \"0.1 m\", \"0.1 m\"] }\norientation = { rpy = [\"30 deg\", \"0 deg\", \"0 deg\"] }\nposition = [\"0 m\", \"0 m\", \"0.07 m\"]\n[[contact]]\nname = \"c\"\nbody = \"part\"\nframe = \"body\"\npoint = [\"0.05 m\", \"0.05 m\", \"-0.05 m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e5 N/m\"\n";
    assert_eq!(rules(&evaluate_str(cube)), ["body_frame_normal"]);
}

#[test]
fn a_normal_that_is_not_its_shaped_surfaces_is_flagged() {
    let cube = |point: &str, normal: &str| {
        format!(
            "title = \"t\"\nspace = \"3d\"\n[[body]]\nname = \"part\"\ntype = \"rigid\"\nmass = \"2 kg\"\nshape = {{ box = [\"0.1 m\", \"0.1 m\", \"0.1 m\"] }}\nposition = [\"0 m\", \"0 m\", \"0.05 m\"]\n[[contact]]\nname = \"c\"\nbody = \"part\"\nframe = \"body\"\npoint = {point}\nnormal = {normal}\nstiffness = \"1e5 N/m\"\n"
        )
    };
    // On the bottom face: its normal is silent, a tangent or a 30° tilt
    // is flagged.
    assert!(
        rules(&evaluate_str(&cube(
            "[\"0 m\", \"0 m\", \"-0.05 m\"]",
            "[0, 0, 1]"
        )))
        .is_empty()
    );
    for normal in ["[1, 0, 0]", "[0.5, 0, 0.8660254037844386]"] {
        let ev = evaluate_str(&cube("[\"0 m\", \"0 m\", \"-0.05 m\"]", normal));
        assert_eq!(rules(&ev), ["normal_not_surface"], "{normal}");
    }
    // A corner: any normal inside its cone is silent (a tilted floor);
    // one outside it is flagged.
    assert!(
        rules(&evaluate_str(&cube(
            "[\"0.05 m\", \"0.05 m\", \"-0.05 m\"]",
            "[-0.2, -0.2, 0.9591663046625439]"
        )))
        .is_empty()
    );
    assert_eq!(
        rules(&evaluate_str(&cube(
            "[\"0.05 m\", \"0.05 m\", \"-0.05 m\"]",
            "[0.2, 0.2, 0.9591663046625439]"
        ))),
        ["normal_not_surface"]
    );
    // Inside, on the line of a face point: the same m_eff, silent; off the
    // face by 3 cm (inside the circumradius): flagged.
    assert!(
        rules(&evaluate_str(&cube(
            "[\"0.01 m\", \"0 m\", \"0 m\"]",
            "[0, 0, 1]"
        )))
        .is_empty()
    );
    assert_eq!(
        rules(&evaluate_str(&cube(
            "[\"0 m\", \"0 m\", \"-0.08 m\"]",
            "[0, 0, 1]"
        ))),
        ["contact_outside_shape"]
    );
}

#[test]
fn springs_and_dashpots_no_body_of_that_size_has_are_flagged() {
    let pair = |k: &str, more: &str| {
        block(
            "",
            &(contact("left", "[\"-0.05 m\", \"0 m\"]", "[0, 1]", more).replace("1e5 N/m", k)
                + &contact("right", "[\"0.05 m\", \"0 m\"]", "[0, 1]", "").replace("1e5 N/m", k)),
        )
    };
    assert!(rules(&evaluate_str(&pair("1e5 N/m", "damping = \"100 N s/m\"\n"))).is_empty());
    // Stiffer than diamond across the block; so soft it sinks 10 km.
    let ev = evaluate_str(&pair("1e14 N/m", ""));
    assert_eq!(rules(&ev), ["stiffness_for_size"; 2]);
    assert!(
        ev.report.model_checks[0]
            .message
            .contains("fastest wave in any solid"),
        "{}",
        ev.report.model_checks[0].message
    );
    let ev = evaluate_str(&pair("1e-3 N/m", ""));
    assert_eq!(rules(&ev), ["stiffness_for_size"]);
    assert!(ev.report.model_checks[0].message.contains("sink"));
    // A dashpot 1000 times critical, located at its value.
    let ev = evaluate_str(&pair("1e5 N/m", "damping = \"1e6 N s/m\"\n"));
    assert_eq!(rules(&ev), ["damping_ratio"]);
    assert!(
        ev.report.model_checks[0].location.ends_with(":16:11"),
        "{}",
        ev.report.model_checks[0].location
    );
}

#[test]
fn engine_steps_and_springs_no_engine_runs_are_flagged() {
    let with = |engine: &str| {
        format!(
            "title = \"t\"\nspace = \"3d\"\n[[body]]\nname = \"part\"\ntype = \"rigid\"\nmass = \"2 kg\"\nshape = {{ box = [\"0.1 m\", \"0.1 m\", \"0.1 m\"] }}\nposition = [\"0 m\", \"0 m\", \"0.05 m\"]\n[[contact]]\nname = \"c\"\nbody = \"part\"\nframe = \"body\"\npoint = [\"0.05 m\", \"0.05 m\", \"-0.05 m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e5 N/m\"\n{engine}"
        )
    };
    assert!(
        rules(&evaluate_str(&with(
            "[engine.mujoco]\ntimestep = \"2 ms\"\n"
        )))
        .is_empty()
    );
    for engine in [
        "[engine.mujoco]\ntimestep = \"2 s\"\n",
        "[engine.mujoco]\ntimestep = \"2 ns\"\n",
        "[engine.bullet]\ntimestep = \"1/240 min\"\n",
    ] {
        assert_eq!(
            rules(&evaluate_str(&with(engine))),
            ["engine_time_scales"],
            "{engine}"
        );
    }
    let rapier = with("[engine.rapier]\ncontact_natural_frequency = \"30 MHz\"\n")
        .replace("stiffness = \"1e5 N/m\"\n", "");
    assert!(rules(&evaluate_str(&rapier)).contains(&"engine_time_scales"));
}

#[test]
fn a_generalized_lever_in_another_unit_is_flagged() {
    let pendulum = |l: &str| {
        format!(
            "title = \"t\"\nspace = \"planar\"\n[parameters]\nm = \"1 kg\"\nL = \"{l}\"\n[generalized]\ncoordinates = [{{ name = \"theta\", unit = \"rad\" }}]\nmass_matrix = [[\"m*L^2/3\"]]\n[[contact]]\nname = \"tip\"\njacobian = [\"L2\"]\nstiffness = \"1e5 N/m\"\n"
        )
    };
    // m_eff = m/3 at the tip: silent; the lever typed 1000 times the
    // length the mass matrix uses: flagged at the row.
    assert!(rules(&evaluate_str(&pendulum("0.3 m").replace("L2", "L"))).is_empty());
    let ev = evaluate_str(&pendulum("0.3 m").replace("L2", "300 m"));
    assert_eq!(rules(&ev), ["mass_out_of_proportion"]);
    assert!(
        ev.report.model_checks[0].location.ends_with(":11:13"),
        "{}",
        ev.report.model_checks[0].location
    );
}

#[test]
fn a_particles_point_far_from_it_is_flagged() {
    let particle = |point: &str| {
        format!(
            "title = \"t\"\nspace = \"planar\"\n[[body]]\nname = \"p\"\ntype = \"particle\"\nmass = \"2 kg\"\nposition = [\"0 m\", \"0 m\"]\n[[contact]]\nname = \"c\"\nbody = \"p\"\npoint = {point}\nnormal = [0, 1]\nstiffness = \"1e5 N/m\"\n"
        )
    };
    assert!(rules(&evaluate_str(&particle("[\"0 m\", \"-0.1 m\"]"))).is_empty());
    assert_eq!(
        rules(&evaluate_str(&particle("[\"30 m\", \"-400 m\"]"))),
        ["particle_point_far"]
    );
}

#[test]
fn a_model_point_far_from_its_link_or_its_plane_and_a_flipped_link_normal_are_flagged() {
    let arm = std::fs::read_to_string(root().join("cases/engine-mujoco-arm.toml")).unwrap();
    assert!(rules(&evaluate_beside_the_models(&arm)).is_empty());
    // The tip's point 0.36 m → 50 m along the forearm: far from the link.
    let tip = "[\"0.36 m\", \"0 m\", \"0 m\"]";
    assert!(arm.contains(tip));
    let far = arm.replace(tip, "[\"50 m\", \"0 m\", \"0 m\"]");
    assert!(rules(&evaluate_beside_the_models(&far)).contains(&"point_far_from_link"));
    // In world axes half a metre above the floor the case touches.
    let above = arm
        .replace("frame = \"body\"", "frame = \"world\"")
        .replace(tip, "[\"0.5125833872618448 m\", \"0 m\", \"0.5 m\"]")
        .replace("normal_frame = \"world\"\n", "");
    assert!(rules(&evaluate_beside_the_models(&above)).contains(&"point_off_plane"));
    // The UR5's tool pressing down with its normal typed downward too.
    let ur5 = |normal: &str| {
        format!(
            "title = \"t\"\n[parameters]\nk = \"1e5 N/m\"\n[model]\nurdf = \"models/ur5_robot.urdf\"\nconfiguration = {{ shoulder_lift_joint = \"-90 deg\", elbow_joint = \"90 deg\", wrist_1_joint = \"-90 deg\", wrist_2_joint = \"-90 deg\" }}\n[[contact]]\nname = \"tool\"\nbody = \"tool0\"\npoint = [\"0 m\", \"0 m\", \"0.05 m\"]\nnormal = {normal}\nframe = \"body\"\nstiffness = \"k\"\n"
        )
    };
    assert!(rules(&evaluate_beside_the_models(&ur5("[0, 0, -1]"))).is_empty());
    assert_eq!(
        rules(&evaluate_beside_the_models(&ur5("[0, 0, 1]"))),
        ["normal_away_from_centre"]
    );
}

#[test]
fn a_persons_region_values_far_from_the_bundled_tables_are_flagged() {
    let tool = std::fs::read_to_string(root().join("cases/ur5-tool.toml")).unwrap();
    assert!(rules(&evaluate_beside_the_models(&tool)).is_empty());
    let heavy = tool.replacen("mass = \"0.6 kg\"", "mass = \"60 kg\"", 1);
    assert_ne!(heavy, tool, "the bundled case names the hand's 0.6 kg");
    let ev = evaluate_beside_the_models(&heavy);
    assert_eq!(rules(&ev), ["person_values"]);
    assert!(
        ev.report.model_checks[0].message.contains("100.0×"),
        "{}",
        ev.report.model_checks[0].message
    );
}

/// The bundled cobot program with `edit` applied, evaluated beside its
/// trajectory and the models.
fn program_with(edit: impl Fn(String) -> String) -> meff::Evaluated {
    let dir = tempfile::tempdir().unwrap();
    let cases = root().join("cases");
    std::fs::copy(
        cases.join("ur5-program.csv"),
        dir.path().join("ur5-program.csv"),
    )
    .unwrap();
    let text = std::fs::read_to_string(cases.join("ur5-program.toml")).unwrap();
    let text = edit(text).replace(
        "\"models/",
        &format!("\"{}/", cases.join("models").display()),
    );
    let path = dir.path().join("case.toml");
    std::fs::write(&path, text).unwrap();
    evaluate_path(&path)
}

#[test]
fn degrees_typed_as_radians_and_a_pose_beyond_the_joint_limits_are_flagged() {
    let turned = |angle: &str| {
        block(
            &format!("angle = \"{angle}\""),
            &contact("c", "[\"-0.05 m\", \"-0.05 m\"]", "[0, 1]", ""),
        )
    };
    assert!(rules(&evaluate_str(&turned("30 deg"))).is_empty());
    let ev = evaluate_str(&turned("30"));
    assert!(
        rules(&ev).contains(&"angle_unit"),
        "{:?}",
        ev.report.model_checks
    );
    assert!(
        ev.report
            .model_checks
            .iter()
            .any(|w| w.message.contains("`30 deg`"))
    );
    // The UR5's elbow: 90 read as radians; 4 rad beyond its ±π.
    let ur5 = |elbow: &str| {
        evaluate_beside_the_models(&format!(
            "title = \"t\"\n[parameters]\nk = \"1e5 N/m\"\n[model]\nurdf = \"models/ur5_robot.urdf\"\nconfiguration = {{ shoulder_lift_joint = \"-90 deg\", elbow_joint = \"{elbow}\" }}\n[[contact]]\nname = \"tool\"\nbody = \"tool0\"\npoint = [\"0 m\", \"0 m\", \"0.05 m\"]\nnormal = [0, 0, -1]\nframe = \"body\"\nnormal_frame = \"world\"\nstiffness = \"k\"\n"
        ))
    };
    assert!(!rules(&ur5("90 deg")).contains(&"angle_unit"));
    assert!(rules(&ur5("90")).contains(&"angle_unit"));
    assert!(rules(&ur5("4 rad")).contains(&"configuration_beyond_limits"));
}

#[test]
fn a_payload_hazard_or_region_of_a_program_in_the_wrong_unit_is_flagged() {
    assert!(rules(&program_with(|t| t)).is_empty());
    // The payload's centre 60 m out (mm typed as m); 1000 kg with the
    // gripper's inertia (g typed as kg).
    let far = program_with(|t| {
        t.replacen(
            "position = [\"0 m\", \"0 m\", \"0.06 m\"]",
            "position = [\"0 m\", \"0 m\", \"60 m\"]",
            1,
        )
    });
    assert!(
        rules(&far).contains(&"point_far_from_link"),
        "{:?}",
        far.report.model_checks
    );
    // At the `[[payload]]` table's line.
    let text = std::fs::read_to_string(root().join("cases/ur5-program.toml")).unwrap();
    let line = 1 + text.lines().position(|l| l == "[[payload]]").unwrap();
    assert!(
        far.report.model_checks[0]
            .location
            .ends_with(&format!(":{line}:1")),
        "{}",
        far.report.model_checks[0].location
    );
    let dense = program_with(|t| t.replacen("mass = \"1 kg\"", "mass = \"1000 kg\"", 1));
    assert_eq!(rules(&dense), ["implausible_density"]);
    // A hazard point 120 m beyond the flange.
    let hazard = program_with(|t| {
        t.replacen(
            "point = [\"0 m\", \"0 m\", \"0.12 m\"]\n\n[[hazard]]",
            "point = [\"0 m\", \"0 m\", \"120 m\"]\n\n[[hazard]]",
            1,
        )
    });
    assert!(
        rules(&hazard).contains(&"point_far_from_link"),
        "{:?}",
        hazard.report.model_checks
    );
    // The hand's stiffness in N/m for N/mm; the chest at 400 kg.
    let region = program_with(|t| {
        t.replacen("stiffness = \"75 N/mm\"", "stiffness = \"75 N/m\"", 1)
            .replacen("mass = \"40 kg\"", "mass = \"400 kg\"", 1)
    });
    assert_eq!(
        rules(&region),
        ["person_values"; 2],
        "{:?}",
        region.report.model_checks
    );
}

#[test]
fn a_sweep_to_a_stiffness_no_body_has_is_flagged_at_its_end() {
    let swept = |to: &str| {
        format!(
            "title = \"t\"\nspace = \"planar\"\n[parameters]\nk = \"1e5 N/m\"\n[[body]]\nname = \"block\"\ntype = \"rigid\"\nmass = \"2 kg\"\ninertia = \"0.003333 kg m^2\"\nposition = [\"0 m\", \"0.05 m\"]\n[[contact]]\nname = \"c\"\nbody = \"block\"\npoint = [\"-0.05 m\", \"0 m\"]\nnormal = [0, 1]\nstiffness = \"k\"\n[[sweep]]\nparameter = \"k\"\nfrom = \"1e4 N/m\"\nto = \"{to}\"\npoints = 5\nplot = [\"m_eff(c)\"]\n"
        )
    };
    assert!(rules(&evaluate_str(&swept("1e7 N/m"))).is_empty());
    let ev = evaluate_str(&swept("1e14 N/m"));
    let w = &ev.report.model_checks;
    assert_eq!(rules(&ev), ["stiffness_for_size"], "{w:?}");
    assert!(
        w[0].message.starts_with("at the sweep's end"),
        "{}",
        w[0].message
    );
    assert!(w[0].location.ends_with(":20:6"), "{}", w[0].location);
}

#[test]
fn a_scene_rows_warning_names_its_file_and_row() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bodies.csv"),
        "name,mass,x,y,z,Ixx,Iyy,Izz,Ixy,Ixz,Iyz,fixed\nfloor,,0,0,0,,,,,,,true\na,1,0,0,0.1,0.004,0.004,0.004,0,0,0,false\nb,1,1,0,0.1,4,4,4,0,0,0,false\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("contacts.csv"),
        "name,body,other,px,py,pz,nx,ny,nz,k\nca,a,floor,0,0,0.05,0,0,1,1e5\ncb,b,floor,1,0,0.05,0,0,1,1e5\ncb2,b,floor,1.05,0,0.05,0,0,1,1e5\n",
    )
    .unwrap();
    let case = dir.path().join("case.toml");
    std::fs::write(
        &case,
        "title = \"t\"\nspace = \"3d\"\n[scene]\nbodies = \"bodies.csv\"\ncontacts = \"contacts.csv\"\n",
    )
    .unwrap();
    let ev = evaluate_path(&case);
    let w = &ev.report.model_checks;
    assert!(!w.is_empty());
    assert!(
        w.iter().all(|w| w.location == "bodies.csv: bodies row 3"),
        "{w:?}"
    );
}

#[test]
fn a_pin_between_two_bodies_far_off_them_is_flagged() {
    let text = std::fs::read_to_string(root().join("cases/double-pendulum-pins.toml")).unwrap();
    assert!(rules(&evaluate_str(&text)).is_empty());
    // The elbow pin typed 100 times too far (cm meant, m typed).
    let elbow = "point = [\"L1*sin(q1)\", \"-L1*cos(q1)\"]";
    assert!(text.contains(elbow), "the bundled case names its elbow pin");
    let far = text.replacen(
        elbow,
        "point = [\"100*L1*sin(q1)\", \"-100*L1*cos(q1)\"]",
        1,
    );
    assert_eq!(rules(&evaluate_str(&far)), ["joint_far_from_body"; 2]);
}
