//! Hostile input, round 3 (the surfaces added after round 2: engines,
//! scenes, models, books): no panic, no hang, no silent wrong number —
//! exit 2 at the place, with a message of bounded size.

use crate::{SEED_CASE, meff_with_stdin};

fn eval(case: &str) -> std::process::Output {
    meff_with_stdin(&["eval", "--no-verify", "-"], case)
}

#[track_caller]
fn bad_input(out: &std::process::Output, said: &str) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(said), "{said:?} not in {stderr}");
    stderr
}

/// Engine settings that translate to numbers out of range are errors at
/// the engine's table; a bare frequency of any magnitude is read, not
/// printed and parsed again (that panicked).
#[test]
fn engine_settings_out_of_range_are_errors_at_their_table() {
    for (table, said) in [
        (
            "[engine.rapier]\ntimestep = \"1e154 s\"\n",
            "[engine.rapier]",
        ),
        (
            "[engine.rapier]\ncontact_damping_ratio = 1.7e308\n",
            "[engine.rapier]",
        ),
        (
            "[engine.box2d]\ncontact_damping_ratio = 9e307\n",
            "[engine.box2d]",
        ),
        (
            "[engine.mujoco]\ntimestep = \"1e300 s\"\n",
            "[engine.mujoco]",
        ),
    ] {
        let out = eval(&format!("{SEED_CASE}{table}"));
        let stderr = bad_input(&out, said);
        assert!(
            stderr.contains("test.toml") || stderr.contains("<stdin>") || stderr.contains(":"),
            "{stderr}"
        );
    }
    for hertz in ["1e64", "1e-64", "1e300"] {
        for table in [
            format!("[engine.box2d]\ncontact_hertz = {hertz}\n"),
            format!("[engine.rapier]\ncontact_natural_frequency = {hertz}\n"),
        ] {
            let out = eval(&format!("{SEED_CASE}{table}"));
            let code = out.status.code();
            assert!(
                code == Some(0) || code == Some(2),
                "{table}: exit {code:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    // An ordinary setting is still translated.
    let out = eval(&format!("{SEED_CASE}[engine.box2d]\ncontact_hertz = 60\n"));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Thousands of misspelt names among thousands of parameters: every
/// problem is still reported (up to the cap), in bounded work.
#[test]
fn many_unknown_names_are_reported_without_quadratic_hints() {
    let mut case = String::from("title = \"t\"\n[parameters]\n");
    for i in 0..3000 {
        case.push_str(&format!("p_{i:05} = \"1 kg\"\n"));
    }
    for i in 0..3000 {
        case.push_str(&format!("q_{i:05} = \"p_{i:05}x + zz_{i}\"\n"));
    }
    let out = eval(&case);
    let stderr = bad_input(&out, "unknown");
    assert!(stderr.len() < 200_000, "{} bytes of messages", stderr.len());
}

/// A CSV header of 20,000 unknown columns is a handful of problems, not
/// 20,000 (the cap is 20 per scene).
#[test]
fn a_csv_header_of_unknown_columns_is_capped() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let header: Vec<String> = (0..20_000).map(|i| format!("col{i}")).collect();
    std::fs::write(dir.join("b.csv"), format!("{}\n", header.join(","))).unwrap();
    std::fs::write(
        dir.join("c.csv"),
        "body,point_x,point_y,normal_x,normal_y,stiffness\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("s.toml"),
        "title = \"s\"\n[scene]\nbodies = \"b.csv\"\ncontacts = \"c.csv\"\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_meff"))
        .args(["eval", "--no-verify"])
        .arg(dir.join("s.toml"))
        .output()
        .unwrap();
    let stderr = bad_input(&out, "unknown column");
    assert!(stderr.matches("unknown column").count() <= 20, "{stderr}");
}

/// `meff mdbook`: bad input (not JSON, a missing case) exits 2; only a
/// claim exits 1.
#[test]
fn mdbook_bad_input_exits_2() {
    let out = meff_with_stdin(&["mdbook"], "{ not json");
    assert_eq!(out.status.code(), Some(2));
    let tmp = tempfile::tempdir().unwrap();
    let input = serde_json::json!([
        { "root": tmp.path(), "config": { "book": { "src": "src" } }, "renderer": "html" },
        { "items": [ { "Chapter": {
            "name": "c", "content": "{{#meff missing.toml}}", "number": [1],
            "sub_items": [], "path": "c.md", "source_path": "c.md", "parent_names": []
        } } ] }
    ]);
    let out = meff_with_stdin(&["mdbook"], &input.to_string());
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A model's mass matrix is dense: more than 600 velocities is refused at
/// the model (1,000 free bodies took minutes and gigabytes).
#[test]
fn model_size_is_bounded() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let free: String = (0..120)
        .map(|i| {
            format!("<body name=\"b{i}\" pos=\"{i} 0 1\"><freejoint/><geom size=\"0.1\"/></body>")
        })
        .collect();
    std::fs::write(
        dir.join("free.xml"),
        format!("<mujoco><worldbody>{free}</worldbody></mujoco>"),
    )
    .unwrap();
    let case = |file: &str, body: &str| {
        format!(
            "title = \"t\"\nspace = \"3d\"\n[model]\nmjcf = \"{file}\"\n[[contact]]\nname = \"c\"\nbody = \"{body}\"\npoint = [\"0 m\", \"0 m\", \"0 m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e5 N/m\"\n"
        )
    };
    std::fs::write(dir.join("free.toml"), case("free.xml", "b0")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_meff"))
        .args(["eval", "--no-verify"])
        .arg(dir.join("free.toml"))
        .output()
        .unwrap();
    bad_input(&out, "720 generalized velocities");
}

fn model_case(dir: &std::path::Path, file: &str, text: &str, body: &str) -> std::process::Output {
    std::fs::write(dir.join(file), text).unwrap();
    let key = if file.ends_with(".urdf") {
        "urdf"
    } else {
        "mjcf"
    };
    std::fs::write(
        dir.join("case.toml"),
        format!(
            "title = \"t\"\nspace = \"3d\"\n[model]\n{key} = \"{file}\"\n[[contact]]\nname = \"c\"\nbody = \"{body}\"\npoint = [\"0.1 m\", \"0 m\", \"0 m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e5 N/m\"\n"
        ),
    )
    .unwrap();
    std::process::Command::new(env!("CARGO_BIN_EXE_meff"))
        .args(["eval", "--no-verify", "--json"])
        .arg(dir.join("case.toml"))
        .output()
        .unwrap()
}

/// Mass properties no body has are refused at their attribute, before the
/// compiler's bounds could lift them to zero.
#[test]
fn impossible_mass_properties_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mjcf = |inertial: &str| {
        format!(
            "<mujoco><worldbody><body name=\"b\"><joint type=\"hinge\" axis=\"0 1 0\"/>{inertial}</body></worldbody></mujoco>"
        )
    };
    let out = model_case(
        dir,
        "m.xml",
        &mjcf("<inertial pos=\"0 0 0\" mass=\"-1\" diaginertia=\"1 1 1\"/>"),
        "b",
    );
    bad_input(&out, "negative");
    let out = model_case(
        dir,
        "m.xml",
        &mjcf("<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"-1 1 1\"/>"),
        "b",
    );
    bad_input(&out, "negative");
    let urdf = |inertia: &str| {
        format!(
            "<robot name=\"r\"><link name=\"base\"/><link name=\"b\"><inertial><mass value=\"1\"/><inertia {inertia}/></inertial></link><joint name=\"j\" type=\"revolute\"><parent link=\"base\"/><child link=\"b\"/><axis xyz=\"0 1 0\"/></joint></robot>"
        )
    };
    let out = model_case(
        dir,
        "r.urdf",
        &urdf("ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"2\" ixz=\"0\" iyz=\"0\""),
        "b",
    );
    bad_input(&out, "positive semi-definite");
    let out = model_case(dir, "r.urdf", &urdf("ixx=\"1\" iyy=\"1\" izz=\"5\""), "b");
    bad_input(&out, "A + B ≥ C");
    let out = model_case(dir, "r.urdf", &urdf("ixx=\"1\" iyy=\"1\" izz=\"1.5\""), "b");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A mimic multiplier that would turn the constraint into round-off is
/// refused rather than silently dropped.
#[test]
fn an_absurd_mimic_multiplier_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let urdf = |mult: &str| {
        format!(
            "<robot name=\"r\"><link name=\"base\"/><link name=\"a\"><inertial><mass value=\"1\"/><inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.1\"/></inertial></link><link name=\"b\"><inertial><mass value=\"1\"/><inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.1\"/></inertial></link><joint name=\"j1\" type=\"revolute\"><parent link=\"base\"/><child link=\"a\"/><axis xyz=\"0 1 0\"/></joint><joint name=\"j2\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/><origin xyz=\"0.5 0 0\"/><axis xyz=\"0 1 0\"/><mimic joint=\"j1\" multiplier=\"{mult}\"/></joint></robot>"
        )
    };
    let out = model_case(tmp.path(), "r.urdf", &urdf("1e160"), "b");
    bad_input(&out, "multiplier");
    let out = model_case(tmp.path(), "r.urdf", &urdf("2"), "b");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A contact on a body welded to the world is immobile in every section,
/// never 1/round-off.
#[test]
fn a_contact_on_a_welded_body_is_immobile_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let xml = "<mujoco><worldbody><body name=\"b\"><joint type=\"hinge\" axis=\"0 1 0\"/><geom size=\"0.1\" mass=\"1\"/></body></worldbody><equality><weld body1=\"b\"/></equality></mujoco>";
    let out = model_case(tmp.path(), "w.xml", xml, "b");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["contacts"][0]["immobile"], true, "{v}");
    let robot = &v["robot"]["contacts"][0];
    assert!(
        robot.is_object() && robot["half_moving_mass"].is_number(),
        "{v}"
    );
    assert!(robot["m_eff_with_armature"].is_null(), "{robot}");
    assert!(robot["m_eff_without_armature"].is_null(), "{robot}");
}

/// Values whose ω over- or underflows are errors at the contact, not
/// ω = ∞ beside "nothing moves".
#[test]
fn an_overflowing_frequency_is_an_error_at_the_contact() {
    let case = SEED_CASE
        .replace("m = \"2 kg\"", "m = \"1e-300 kg\"")
        .replace("I = \"0.020 kg m^2\"", "I = \"1e-302 kg m^2\"")
        .replace("k = \"1e5 N/m\"", "k = \"1e308 N/m\"");
    bad_input(&eval(&case), "contact `c`");
}

/// CSV scene diagnostics point at the right cell whatever precedes it
/// (issue 29.19).
#[test]
fn csv_problems_are_at_their_cell() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("case.toml"),
        "title = \"s\"\nspace = \"planar\"\n[scene]\nbodies = \"b.csv\"\ncontacts = \"c.csv\"\n",
    )
    .unwrap();
    let good_bodies = "mass,x,y,I\n1,0,0,0.1\n2,1,0,0.2\n";
    let run = |bodies: &str, contacts: &str| -> String {
        std::fs::write(dir.path().join("b.csv"), bodies).unwrap();
        std::fs::write(dir.path().join("c.csv"), contacts).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_meff"))
            .args(["eval", "--no-verify"])
            .arg(dir.path().join("case.toml"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // After blank lines and a comment: the true line.
    let blank = format!(
        "body,other,px,py,nx,ny,k\n{}# a comment\n0,-1,0,0,0,1,abc\n",
        "\n".repeat(150)
    );
    let err = run(good_bodies, &blank);
    assert!(err.contains("c.csv:153:14"), "{err}");
    // After a quoted field with a comma and doubled quotes: the true column.
    let quoted = "name,body,other,px,py,nx,ny,k\n\"a, \"\"b\"\"\",0,-1,0,0,0,1,x1e5\n";
    let err = run(good_bodies, quoted);
    assert!(err.contains("c.csv:2:25"), "{err}");
    // A short row: one message saying so.
    let err = run(good_bodies, "body,other,px,py,nx,ny,k\n0,-1,0,0\n");
    assert_eq!(err.matches("error:").count(), 1, "{err}");
    assert!(err.contains("this row has 4 fields, the header 7"), "{err}");
    assert!(!err.contains("`` is not a number"), "{err}");
    // A subnormal mass: at its cell, not an overflow later.
    let err = run(
        "mass,x,y,I\n1e-310,0,0,0.1\n2,1,0,0.2\n",
        "body,other,px,py,nx,ny,k\n0,-1,0,0,0,1,1e5\n",
    );
    assert!(err.contains("b.csv:2:1"), "{err}");
    assert!(!err.contains("overflows"), "{err}");
}

/// Model values far from physical scales are errors at their attribute,
/// not a "singular mass matrix" at the case's `mjcf` key; a large armature
/// beside a small joint is analysed (issue 29.17).
#[test]
fn model_overflow_is_diagnosed_at_its_cause() {
    let dir = tempfile::tempdir().unwrap();
    let model = |fore_pos: &str, size: &str, armature: &str| {
        format!(
            r#"<mujoco model="m">
  <worldbody>
    <body name="upper" pos="0 0 0.5">
      <joint name="shoulder" type="hinge" axis="0 1 0" armature="{armature}"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.03" mass="1.5"/>
      <body name="fore" pos="{fore_pos}">
        <joint name="elbow" type="hinge" axis="0 1 0"/>
        <joint name="slide" type="slide" axis="1 0 0"/>
        <geom type="capsule" fromto="0 0 0 0.35 0 0" size="{size}" mass="1"/>
        <body name="wrist" pos="0.35 0 0">
          <joint name="ball" type="ball"/>
          <geom type="sphere" size="0.02" mass="0.2"/>
        </body>
      </body>
    </body>
  </worldbody>
  <keyframe>
    <key name="flat" qpos="0.1 0.2 0 1 0 0 0"/>
  </keyframe>
</mujoco>
"#
        )
    };
    let case = |config: &str| {
        format!(
            "title = \"m\"\nspace = \"3d\"\n[model]\nmjcf = \"m.xml\"\nconfiguration = {{ {config} }}\n[[contact]]\nname = \"tip\"\nbody = \"fore\"\npoint = [\"0.35 m\", \"0 m\", \"0 m\"]\nframe = \"body\"\nnormal = [0, 0, 1]\nstiffness = \"1e4 N/m\"\n"
        )
    };
    let run = |xml: &str, toml: &str| {
        std::fs::write(dir.path().join("m.xml"), xml).unwrap();
        std::fs::write(dir.path().join("case.toml"), toml).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_meff"))
            .args(["eval", "--no-verify"])
            .arg(dir.path().join("case.toml"))
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let ok = case("elbow = \"0.9 rad\"");
    for (xml, at) in [
        (model("1e200 0 0", "0.025", "0"), "m.xml:6:"),
        (model("0.4 0 0", "1e150", "0"), "m.xml:9:"),
    ] {
        let (code, err) = run(&xml, &ok);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains(at) && err.contains("10³⁰"), "{err}");
        assert!(!err.contains("kinetic energy"), "{err}");
    }
    // A slide joint set 10³⁰⁰ m out: at the case's value.
    let (code, err) = run(
        &model("0.4 0 0", "0.025", "0"),
        &case("elbow = \"0.9 rad\", slide = \"1e300 m\""),
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("case.toml:5:") && err.contains("1e300"),
        "{err}"
    );
    // A keyframe whose quaternion has no direction: at its qpos.
    let xml = model("0.4 0 0", "0.025", "0").replace(
        "qpos=\"0.1 0.2 0 1 0 0 0\"",
        "qpos=\"0.1 0.2 0 1 0 0 0\"/><key name=\"zero\" qpos=\"0 0 0 0 0 0 0\"",
    );
    let (code, err) = run(&xml, &ok);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("no direction") && err.contains("qpos"),
        "{err}"
    );
    // Armature 10¹⁵ on the shoulder: the elbow keeps its own inertia.
    let (code, err) = run(&model("0.4 0 0", "0.025", "1e15"), &ok);
    assert_eq!(code, Some(0), "{err}");
}
