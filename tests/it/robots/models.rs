//! Reading robot models: bad models are errors at their place, hostile ones
//! are bounded, common habits of model files load without edits, models in
//! a directory load, and bodies written beside a model add their response.

use crate::support::robots::{LINK, model_case, rel, ur5_dir};
use crate::support::{cli, root, stderr};
use meff::robot::Robot;
use nalgebra::Vector3;

/// Runs `meff eval` on a case in a directory with the given model files;
/// returns (exit code, stderr).
fn eval_in_dir(files: &[(&str, &str)], case: &str) -> (Option<i32>, String) {
    let tmp = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(tmp.path().join(name), text).unwrap();
    }
    std::fs::write(tmp.path().join("case.toml"), case).unwrap();
    let out = cli(["report", "case.toml", "-o", "out"])
        .dir(tmp.path())
        .output();
    assert!(
        !tmp.path().join("out").exists()
            || std::fs::read_dir(tmp.path().join("out")).unwrap().count() == 0,
        "nothing is written on bad input"
    );
    (out.status.code(), stderr(&out))
}

#[test]
fn bad_models_are_errors_at_their_place() {
    let urdf = |joint: &str| {
        format!(
            "<robot name=\"r\">\n<link name=\"a\"/>\n<link name=\"b\">{LINK}</link>\n{joint}\n</robot>\n"
        )
    };
    let mjcf = |body: &str| format!("<mujoco>\n<worldbody>\n{body}\n</worldbody>\n</mujoco>\n");
    // (model files, case text, expected place, expected message)
    type Bad<'a> = (Vec<(&'a str, String)>, String, &'a str, &'a str);
    let cases: Vec<Bad> = vec![
        (
            vec![(
                "m.urdf",
                urdf(
                    "<joint name=\"j\" type=\"screw\"><parent link=\"a\"/><child link=\"b\"/></joint>",
                ),
            )],
            model_case("urdf", "m.urdf", "b", ""),
            "m.urdf:4:",
            "unknown joint type `screw`",
        ),
        (
            vec![(
                "m.urdf",
                urdf(
                    "<joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"zz\"/></joint>",
                ),
            )],
            model_case("urdf", "m.urdf", "b", ""),
            "m.urdf:4:",
            "no link named `zz`",
        ),
        (
            vec![(
                "m.urdf",
                urdf(
                    "<joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/><axis xyz=\"0 0 x\"/></joint>",
                ),
            )],
            model_case("urdf", "m.urdf", "b", ""),
            "m.urdf:4:",
            "must be numbers",
        ),
        (
            vec![("m.urdf", "<robot name=\"r\"><link name=\"a\">".into())],
            model_case("urdf", "m.urdf", "a", ""),
            "m.urdf:1:",
            "invalid XML",
        ),
        (
            vec![(
                "m.xml",
                mjcf("<body name=\"b\">\n<joint/>\n<geom type=\"mesh\" mesh=\"x\"/>\n</body>"),
            )],
            model_case("mjcf", "m.xml", "b", ""),
            "m.xml:5:",
            "give the body an `<inertial>`",
        ),
        (
            vec![(
                "m.xml",
                mjcf(
                    "<body name=\"b\">\n<joint type=\"ball\" pos=\"0 0\"/>\n<geom size=\"0.1\"/>\n</body>",
                ),
            )],
            model_case("mjcf", "m.xml", "b", ""),
            "m.xml:4:",
            "must have 3 numbers",
        ),
        (
            vec![(
                "m.xml",
                "<mujoco>\n<worldbody>\n<composite type=\"grid\"/>\n</worldbody>\n</mujoco>\n"
                    .into(),
            )],
            model_case("mjcf", "m.xml", "b", ""),
            "m.xml:3:",
            "not supported",
        ),
        (
            vec![(
                "m.xml",
                mjcf("<body name=\"b\">\n<joint/>\n<geom size=\"0.1\"/>\n</body>"),
            )],
            model_case("mjcf", "m.xml", "c", ""),
            "case.toml:7:",
            "the model has no body `c`",
        ),
        (
            vec![(
                "m.xml",
                mjcf("<body name=\"b\">\n<joint name=\"hinge\"/>\n<geom size=\"0.1\"/>\n</body>"),
            )],
            model_case("mjcf", "m.xml", "b", "configuration = { hinge = \"2 m\" }"),
            "case.toml:4:",
            "",
        ),
        (
            vec![(
                "m.xml",
                mjcf("<body name=\"b\">\n<joint name=\"hinge\"/>\n<geom size=\"0.1\"/>\n</body>"),
            )],
            model_case("mjcf", "m.xml", "b", "keyframe = \"home\""),
            "case.toml:4:",
            "no keyframe named `home`",
        ),
        (
            vec![(
                "m.xml",
                "<mujoco>\n<include file=\"m.xml\"/>\n<include file=\"missing.xml\"/>\n</mujoco>\n"
                    .into(),
            )],
            model_case("mjcf", "m.xml", "b", ""),
            "m.xml:3:",
            "cannot include `missing.xml`",
        ),
        (
            vec![(
                "m.urdf",
                urdf(
                    "<joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/></joint>",
                ),
            )],
            model_case("mjcf", "m.urdf", "b", ""),
            "case.toml:3:",
            "is a URDF file, not MJCF",
        ),
        (
            vec![(
                "m.xml",
                mjcf(
                    "<body name=\"b\">\n<joint name=\"h\"/>\n<geom size=\"0.1\"/>\n<body name=\"c\" pos=\"1 0 0\"><joint name=\"s\" type=\"slide\"/></body>\n</body>",
                ),
            )],
            model_case("mjcf", "m.xml", "b", ""),
            "case.toml:3:",
            "velocity `s` adds no kinetic energy of its own",
        ),
    ];
    for (files, case, at, message) in cases {
        let files: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
        let (code, err) = eval_in_dir(&files, &case);
        assert_eq!(code, Some(2), "{message}: {err}");
        assert!(err.contains(at), "{message}: expected at {at}: {err}");
        assert!(err.contains(message), "expected {message:?}: {err}");
    }
}

#[test]
fn hostile_models_are_bounded() {
    // Deep nesting, many nodes, a billion-laughs entity: errors, not hangs.
    let deep = format!(
        "<mujoco><worldbody>{}{}</worldbody></mujoco>",
        "<body><geom size=\"0.1\"/><joint/>".repeat(20_000),
        "</body>".repeat(20_000)
    );
    let (code, err) = eval_in_dir(&[("m.xml", &deep)], &model_case("mjcf", "m.xml", "b", ""));
    assert_eq!(code, Some(2), "{err}");
    let laughs = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]><robot name=\"&b;\"/>";
    let (code, err) = eval_in_dir(
        &[("m.urdf", laughs)],
        &model_case("urdf", "m.urdf", "b", ""),
    );
    assert_eq!(code, Some(2), "{err}");
    // A file that includes itself, and two that include each other.
    let me = "<mujoco>\n<include file=\"m.xml\"/>\n</mujoco>\n";
    let (code, err) = eval_in_dir(&[("m.xml", me)], &model_case("mjcf", "m.xml", "b", ""));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("include"), "{err}");
    let a = "<mujoco>\n<include file=\"b.xml\"/>\n</mujoco>\n";
    let b = "<mujoco>\n<include file=\"a.xml\"/>\n</mujoco>\n";
    let (code, err) = eval_in_dir(
        &[("a.xml", a), ("b.xml", b)],
        &model_case("mjcf", "a.xml", "b", ""),
    );
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn common_model_habits_load_without_edits() {
    // A URDF leaving out zero products of inertia, and an MJCF whose
    // visual mesh is weightless while the body's mass comes from a box.
    let urdf = "<robot name=\"r\">\n<link name=\"a\"/>\n<link name=\"b\"><inertial><mass value=\"2\"/><inertia ixx=\"0.1\" iyy=\"0.2\" izz=\"0.3\"/></inertial></link>\n<joint name=\"j\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/><axis xyz=\"0 0 1\"/></joint>\n</robot>\n";
    let robot = Robot::parse("r.urdf", urdf).unwrap();
    assert_eq!(robot.tree.bodies[1].inertia[(0, 1)], 0.0);
    assert_eq!(robot.tree.bodies[1].inertia[(2, 2)], 0.3);
    let mjcf = "<mujoco>\n<worldbody>\n<body name=\"b\">\n<joint/>\n<geom type=\"mesh\" mesh=\"m\" mass=\"0\"/>\n<geom type=\"mesh\" mesh=\"m\" density=\"0\"/>\n<geom type=\"box\" size=\"0.1 0.2 0.3\" mass=\"3\"/>\n</body>\n</worldbody>\n</mujoco>\n";
    let robot = Robot::parse("m.xml", mjcf).unwrap();
    assert_eq!(robot.tree.bodies[0].mass, 3.0);
    let i = robot.tree.bodies[0].inertia;
    assert!((i[(2, 2)] - 3.0 * (0.01 + 0.04) / 3.0).abs() < 1e-12, "{i}");
    // A declaration after a comment, a trailing NUL, PyBullet's spherical
    // joint, a mimic of a joint that does not exist (ignored, with a note).
    let loose = format!(
        "<!-- generated -->\n<?xml version=\"1.0\"?>\n<robot name=\"r\">\n<link name=\"a\"/>\n<link name=\"b\">{LINK}</link>\n<joint name=\"j\" type=\"spherical\"><parent link=\"a\"/><child link=\"b\"/><mimic joint=\"gone\"/></joint>\n</robot>\n\0"
    );
    let robot = Robot::parse("r.urdf", &loose).unwrap();
    assert_eq!(robot.tree.nv, 3);
    assert!(robot.constraints.is_empty());
    assert!(robot.notes[0].contains("`gone`"), "{:?}", robot.notes);
    // A mount welded to the world whose mass is in a mesh: it never moves,
    // so the model loads (with a note) and M is that of the moving body;
    // a static body with an explicit inertial still counts in the total.
    let mounted = "<mujoco>\n<worldbody>\n<body name=\"mount\">\n<geom type=\"mesh\" mesh=\"m\"/>\n<body name=\"plate\">\n<inertial pos=\"0 0 0\" mass=\"5\" diaginertia=\"1 1 1\"/>\n<body name=\"b\">\n<joint type=\"slide\"/>\n<geom type=\"box\" size=\"0.1 0.2 0.3\" mass=\"3\"/>\n</body>\n</body>\n</body>\n</worldbody>\n</mujoco>\n";
    let robot = Robot::parse("m.xml", mounted).unwrap();
    assert_eq!(robot.tree.total_mass(), 8.0);
    assert!(robot.notes[0].contains("`mount`"), "{:?}", robot.notes);
    let kin = robot.tree.kinematics(&robot.tree.qpos0);
    let m = robot.tree.mass_matrix(&kin, true);
    assert!((m[0] - 3.0).abs() < 1e-12, "{m:?}");
    // The same mesh on a body that moves cannot be left out: an error.
    let moving = mounted.replace("<body name=\"mount\">", "<body name=\"mount\">\n<joint/>");
    assert!(Robot::parse("m.xml", &moving).is_err());
}

/// Loads every `.urdf` and `.xml` under `$MEFF_MODEL_DIR` and computes M at
/// the reference configuration: for trying model collections that are not
/// in the repository (`MEFF_MODEL_DIR=… cargo test -- --ignored models_in`).
#[test]
#[ignore]
fn models_in_a_directory_load() {
    let Ok(root) = std::env::var("MEFF_MODEL_DIR") else {
        return;
    };
    let mut stack = vec![std::path::PathBuf::from(root)];
    let (mut ok, mut failed) = (0, Vec::new());
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "urdf" || x == "xml") {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                if !(text.contains("<robot") || text.contains("<mujoco")) {
                    continue;
                }
                let shown = p.display().to_string();
                match Robot::read(&p, &shown, 1 << 28, None) {
                    Ok(r) => {
                        let kin = r.tree.kinematics(&r.tree.qpos0);
                        let m = r.tree.mass_matrix(&kin, true);
                        assert!(m.iter().all(|x| x.is_finite()), "{shown}");
                        ok += 1;
                    }
                    Err(e) => failed.push(format!("{e}")),
                }
            }
        }
    }
    for f in &failed {
        println!("{f}");
    }
    println!("{ok} loaded, {} refused", failed.len());
}

#[test]
fn bodies_written_beside_a_model_add_their_own_response() {
    // The UR5 tool touching a free 0.6 kg particle (a hand), then a free
    // rigid box touched off its centre: the Delassus entries add,
    // A = a_robot + a_body, with a_body = 1/m + (r×n)ᵀ I⁻¹ (r×n).
    let base = std::fs::read_to_string(root().join("cases/ur5-tool.toml")).unwrap();
    let tmp = ur5_dir();
    let write_eval = |text: &str| {
        let path = tmp.path().join("case.toml");
        std::fs::write(&path, text).unwrap();
        let c = meff::case::load(&path).unwrap_or_else(|e| panic!("{e}"));
        meff::evaluate_with(
            c,
            meff::Options {
                verify: true,
                progress: None,
                ..Default::default()
            },
        )
        .unwrap()
    };
    let alone = write_eval(&base);
    let a_robot = alone.report.contacts[0].a;
    let tool = alone.report.robot.as_ref().unwrap().contacts[0].point;
    let with_particle = base.replace(
        "stiffness = \"k\"\n",
        "stiffness = \"k\"\nother = \"hand\"\n\n[[body]]\nname = \"hand\"\ntype = \"particle\"\nmass = \"0.6 kg\"\n",
    );
    let ev = write_eval(&with_particle);
    let a = ev.report.contacts[0].a;
    assert!(
        rel(a, a_robot + 1.0 / 0.6, a) <= 1e-12,
        "{a} vs {}",
        a_robot + 1.0 / 0.6
    );
    assert!(ev.verification.as_ref().unwrap().verdict.agrees);
    // A rigid box whose centre is 0.1 m to the side of the tool point.
    let (m, i) = (2.0, [0.01, 0.02, 0.03]);
    let with_box = base.replace(
        "stiffness = \"k\"\n",
        &format!(
            "stiffness = \"k\"\nother = \"box\"\n\n[[body]]\nname = \"box\"\ntype = \"rigid\"\nmass = \"{m} kg\"\ninertia = [\"{} kg m^2\", \"{} kg m^2\", \"{} kg m^2\"]\nposition = [\"{:e} m\", \"{:e} m\", \"{:e} m\"]\n",
            i[0],
            i[1],
            i[2],
            tool[0] + 0.1,
            tool[1],
            tool[2] - 0.05
        ),
    );
    let ev = write_eval(&with_box);
    let n = Vector3::from(ev.report.robot.as_ref().unwrap().contacts[0].normal);
    let r = Vector3::new(-0.1, 0.0, 0.05);
    let rxn = r.cross(&n);
    let a_box = 1.0 / m + (0..3).map(|k| rxn[k] * rxn[k] / i[k]).sum::<f64>();
    let a = ev.report.contacts[0].a;
    assert!(
        rel(a, a_robot + a_box, a) <= 1e-9,
        "{a} vs {}",
        a_robot + a_box
    );
    let v = ev.verification.as_ref().unwrap();
    assert!(
        v.verdict.agrees,
        "{:?}",
        v.verdict.disagreements().collect::<Vec<_>>()
    );
    // A case body may not take a model body's name.
    let clash = with_particle.replace("name = \"hand\"", "name = \"tool0\"");
    let (code, err) = eval_in_dir(
        &[],
        &clash.replace(
            "models/ur5_robot.urdf",
            &root()
                .join("cases/models/ur5_robot.urdf")
                .display()
                .to_string(),
        ),
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("already has a body `tool0`"), "{err}");
}

/// An unnamed body's or joint's generated name avoids the names the file gives: a
/// model MuJoCo loads (an unnamed first body, a second one named `body2`…)
/// loads, every body reachable by a name of its own.
#[test]
fn generated_body_names_avoid_given_ones() {
    let text = r#"<mujoco><worldbody>
        <body name="body2"><joint type="hinge"/><geom size=".1"/></body>
        <body><joint type="hinge"/><geom size=".1"/></body>
        <body name="body3"><joint type="hinge"/><geom size=".1"/>
          <body><joint type="slide"/><geom size=".1"/></body></body>
        </worldbody></mujoco>"#;
    let robot = Robot::parse("names.xml", text).unwrap();
    let names: Vec<&str> = robot.tree.bodies.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["body2", "body2_2", "body3", "body4"]);
    // The given name comes after the unnamed body that would take it.
    let later = r#"<mujoco><worldbody>
        <body><joint type="hinge"/><geom size=".1"/></body>
        <body name="body1"><joint type="hinge"/><geom size=".1"/></body>
        </worldbody></mujoco>"#;
    let robot = Robot::parse("names.xml", later).unwrap();
    let names: Vec<&str> = robot.tree.bodies.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["body1_2", "body1"]);
    // Joints alike: an unnamed second joint would be `joint2`.
    let joints = r#"<mujoco><worldbody>
        <body name="a"><joint name="joint2"/><geom size=".1"/>
          <body name="b" pos="0 0 .3"><joint/><geom size=".1"/></body></body>
        </worldbody></mujoco>"#;
    let robot = Robot::parse("names.xml", joints).unwrap();
    let names: Vec<&str> = robot.tree.joints.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["joint2", "joint2_2"]);
}
