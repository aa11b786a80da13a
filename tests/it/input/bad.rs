//! Bad input: every class of problem is reported at its place (`file:line:col`,
//! the engine's table, the model's attribute, the CSV cell), with exit status 2
//! from the binary and never a panic; one message per cause, no cascade.

use crate::support::{
    SEED, SEED_CASE, assert_exit, cli, eval_stdin, eval_text, meff, refused, scratch, stderr,
};
use meff::diag::line_col;

const BLOCK: &str = r#"[[body]]
name = "block"
type = "rigid"
mass = "2 kg"
inertia = "0.02 kg m^2"
"#;

/// (name, case text, expected line, expected column, message fragment).
fn cases() -> Vec<(&'static str, String, usize, usize, &'static str)> {
    let contact = |extra: &str| {
        format!(
            "{BLOCK}[[contact]]\nname = \"c\"\nbody = \"block\"\npoint = [\"0.1 m\", \"0 m\"]\nnormal = [0, 1]\nstiffness = \"1e5 N/m\"\n{extra}"
        )
    };
    let with_params = |params: &str, mass: &str| {
        format!(
            "[parameters]\n{params}\n[[body]]\nname = \"block\"\ntype = \"particle\"\nmass = \"{mass}\"\n[[contact]]\nname = \"c\"\nbody = \"block\"\npoint = [\"0 m\", \"0 m\"]\nnormal = [0, 1]\nstiffness = \"1e5 N/m\"\n"
        )
    };
    let generalized = |m: &str| {
        format!(
            "[generalized]\ncoordinates = [{{ name = \"a\", unit = \"rad\" }}, {{ name = \"b\", unit = \"rad\" }}]\nmass_matrix = {m}\n[[contact]]\nname = \"c\"\njacobian = [\"1 m\", \"0 m\"]\nstiffness = \"1e5 N/m\"\n"
        )
    };
    vec![
        ("toml syntax", "title = \"x\nspace = 3".to_string(), 1, 11, "invalid TOML"),
        ("unknown unit", BLOCK.replace("\"2 kg\"", "\"2 kgg\""), 4, 11, "unknown unit `kgg`"),
        ("unit written as product", BLOCK.replace("\"2 kg\"", "\"2 Nm\""), 4, 11, "unknown unit `Nm`"),
        ("inertia in kg", BLOCK.replace("\"0.02 kg m^2\"", "\"0.02 kg\""), 5, 11, "must be in kg m^2"),
        ("mass without unit", BLOCK.replace("\"2 kg\"", "2"), 4, 8, "needs a unit"),
        ("non-unit normal", contact("").replace("[0, 1]", "[0, 1.1]"), 10, 10, "unit vector"),
        ("zero mass", BLOCK.replace("\"2 kg\"", "\"0 kg\""), 4, 8, "must be positive"),
        ("negative inertia", BLOCK.replace("\"0.02 kg m^2\"", "\"-0.02 kg m^2\""), 5, 11, "must be positive"),
        ("zero stiffness", contact("").replace("\"1e5 N/m\"", "\"0 N/m\""), 11, 13, "must be positive"),
        ("negative damping", contact("damping = \"-3 N s/m\"\n"), 12, 11, "cannot be negative"),
        ("unknown body", contact("").replace("body = \"block\"", "body = \"blok\""), 8, 8, "did you mean `block`"),
        ("unknown key", contact("stifness = \"1 N/m\"\n"), 12, 1, "did you mean `stiffness`"),
        ("mixed solref", contact("[engine.mujoco]\nsolref = [0.02, -1]\n"), 13, 10, "mixes its two forms"),
        ("solimp out of range", contact("[engine.mujoco]\nsolimp = [0.9, 1.5, 0.001, 0.5, 2]\n"), 13, 10, "out of MuJoCo's range"),
        ("engine timestep in Hz", contact("[engine.box2d]\ntimestep = \"60 Hz\"\n"), 13, 12, "must be in s"),
        ("unknown engine", contact("[engine.physx]\n"), 12, 9, "unknown key `physx`"),
        ("drake without stiffness", contact("[engine.drake]\ntimestep = \"1 ms\"\n"), 12, 1, "needs `stiffness`"),
        ("erp above one", contact("[engine.bullet]\nerp = 1.5\n"), 13, 7, "from 0 to 1"),
        ("negative frequency", contact("[engine.rapier]\ncontact_natural_frequency = -3\n"), 13, 29, "≥ 0"),
        ("duplicate name", format!("{BLOCK}{BLOCK}"), 7, 8, "duplicate name `block`"),
        ("unknown parameter", with_params("mass = \"2 kg\"", "mas"), 6, 9, "did you mean `mass`"),
        ("parameter cycle", with_params("a = \"b\"\nb = \"2*a\"", "a"), 2, 1, "depends on itself"),
        ("overflowing literal", BLOCK.replace("\"2 kg\"", "\"1e400 kg\""), 4, 9, "too large"),
        ("non-finite number", contact("").replace("[0, 1]", "[nan, 1]"), 10, 11, "finite"),
        ("dimension mismatch in a sum", BLOCK.replace("\"2 kg\"", "\"2 kg + 1 m\""), 4, 9, "different dimensions"),
        ("nesting too deep", BLOCK.replace("\"2 kg\"", &format!("\"{}2 kg{}\"", "(".repeat(500), ")".repeat(500))), 4, 0, "nested deeper"),
        ("long chain", BLOCK.replace("\"2 kg\"", &format!("\"{}\"", vec!["1 kg"; 5000].join(" + "))), 4, 0, "nested deeper"),
        (
            "fixed body against the world",
            "[[body]]\nname = \"floor\"\ntype = \"fixed\"\n[[contact]]\nname = \"c\"\nbody = \"floor\"\npoint = [\"0 m\", \"0 m\"]\nnormal = [0, 1]\nstiffness = \"1e5 N/m\"\n".into(),
            6,
            8,
            "cannot move",
        ),
        (
            "non-symmetric mass matrix",
            generalized("[[\"1 kg m^2\", \"0.2 kg m^2\"], [\"0.3 kg m^2\", \"1 kg m^2\"]]"),
            3,
            45,
            "not symmetric: M[a][b]",
        ),
        (
            "mass matrix not positive definite",
            generalized("[[\"1 kg m^2\", \"2 kg m^2\"], [\"2 kg m^2\", \"1 kg m^2\"]]"),
            3,
            15,
            "over the coordinates (a, b)",
        ),
        (
            "mass matrix entry of the wrong unit",
            generalized("[[\"1 kg\", \"0 kg m^2\"], [\"0 kg m^2\", \"1 kg m^2\"]]"),
            3,
            17,
            "must be in kg m^2",
        ),
        ("unknown contact in a claim", contact("[[claim]]\nof = \"m_eff(d)\"\nequals = \"1 kg\"\n"), 13, 13, "unknown contact `d`"),
        ("unknown space", format!("space = \"planer\"\n{}", contact("")), 1, 9, "did you mean `planar`"),
    ]
}

#[test]
fn every_bad_input_is_located() {
    for (name, source, line, col, fragment) in cases() {
        let err = match meff::case::parse_case("bad.toml", &source) {
            Ok(_) => panic!("{name}: accepted"),
            Err(e) => e,
        };
        let found = err.diagnostics.iter().any(|d| {
            let (l, c) = line_col(&source, d.span.start);
            let text = format!("{} {}", d.message, d.hints.join(" "));
            text.contains(fragment) && l == line && (col == 0 || c == col)
        });
        assert!(
            found,
            "{name}: expected {line}:{col} `{fragment}`, got:\n{}",
            meff::diag::render("bad.toml", &source, &err.diagnostics, false)
        );
    }
}

#[test]
fn several_problems_are_reported_at_once() {
    let source = BLOCK
        .replace("\"2 kg\"", "\"2 kgg\"")
        .replace("\"0.02 kg m^2\"", "\"0.02 kg\"");
    let err = meff::case::parse_case("bad.toml", &source).unwrap_err();
    assert!(err.diagnostics.len() >= 2, "{:?}", err.diagnostics);
}

#[test]
fn binary_exits_2_with_location_and_no_panic() {
    let dir = crate::support::scratch("bad");
    std::fs::create_dir_all(&dir).unwrap();
    for (i, (name, source, line, col, _)) in cases().into_iter().enumerate() {
        let path = dir.join(format!("case{i}.toml"));
        std::fs::write(&path, &source).unwrap();
        let out = cli(["eval"]).arg(&path).output();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        let at = if col == 0 {
            format!("case{i}.toml:{line}:")
        } else {
            format!("case{i}.toml:{line}:{col}")
        };
        assert!(stderr.contains(&at), "{name}: expected {at} in\n{stderr}");
        assert!(out.stdout.is_empty(), "{name}: wrote output on bad input");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_invalid_declaration_is_reported_once_not_at_every_use() {
    let source = "[parameters]\nm = \"2 kgg\"\n[[body]]\nname = \"block\"\ntype = \"particle\"\nmass = \"m\"\n[[contact]]\nname = \"c\"\nbody = \"block\"\npoint = [\"0 m\", \"0 m\"]\nnormal = [0, 1]\nstiffness = \"1e5 N/m\"\n";
    let err = meff::case::parse_case("bad.toml", source).unwrap_err();
    let messages: Vec<&str> = err.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        vec!["unknown unit `kgg`"],
        "cascading errors: {messages:?}"
    );
    assert!(err.diagnostics[0].hints[0].contains("`kg`"));
}

#[test]
fn no_cascade_from_an_invalid_contact_to_its_claims() {
    for bad in [
        // A misspelled body.
        "space = \"3d\"\n[[body]]\nname = \"block\"\ntype = \"rigid\"\nmass = \"2 kg\"\ninertia = [\"0.1 kg m^2\", \"0.2 kg m^2\", \"0.3 kg m^2\"]\n[[contact]]\nname = \"tip\"\nbody = \"blok\"\npoint = [\"0.1 m\", \"0 m\", \"0 m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e5 N/m\"\n[[claim]]\nof = \"m_eff(tip)\"\nequals = \"1 kg\"\n",
        // A contact whose normal is not a unit vector.
        "[[body]]\nname = \"block\"\ntype = \"particle\"\nmass = \"2 kg\"\n[[contact]]\nname = \"tip\"\nbody = \"block\"\npoint = [\"0 m\", \"0 m\"]\nnormal = [0, 2]\nstiffness = \"1e5 N/m\"\n[[claim]]\nof = \"m_eff(tip)\"\nequals = \"2 kg\"\n[[sweep]]\nparameter = \"x\"\nfrom = \"1 kg\"\nto = \"2 kg\"\nplot = [\"m_eff(tip)\"]\n",
    ] {
        let err = meff::case::parse_case("bad.toml", bad).unwrap_err();
        assert!(
            err.diagnostics
                .iter()
                .all(|d| !d.message.contains("unknown contact")),
            "{:?}",
            err.diagnostics
        );
    }
}

#[test]
fn a_unit_error_in_a_parameter_is_shown_at_its_definition() {
    let source = "[parameters]\nm = \"2 kg m\"\n[[body]]\nname = \"a\"\ntype = \"particle\"\nmass = \"m\"\n[[body]]\nname = \"b\"\ntype = \"particle\"\nmass = \"m\"\n[[contact]]\nname = \"c\"\nbody = \"a\"\nother = \"b\"\npoint = [\"0 m\", \"0 m\"]\nnormal = [0, 1]\nstiffness = \"1e5 N/m\"\n";
    let err = meff::case::parse_case("bad.toml", source).unwrap_err();
    assert_eq!(err.diagnostics.len(), 1, "{:?}", err.diagnostics);
    let d = &err.diagnostics[0];
    assert_eq!(line_col(source, d.span.start).0, 2, "{d:?}");
    assert!(d.message.contains("parameter `m` is in kg m") && d.message.contains("mass"));
    assert!(d.hints[0].contains("used at line 6"), "{d:?}");
}

#[test]
fn units_spelled_out_get_their_symbol_suggested() {
    for (word, unit) in [
        ("degrees", "deg"),
        ("inches", "in"),
        ("seconds", "s"),
        ("Newtons", "N"),
    ] {
        let source = format!("[parameters]\nq = \"50 {word}\"\n");
        let err = meff::case::parse_case("bad.toml", &source).unwrap_err();
        let d = &err.diagnostics[0];
        assert!(
            d.hints.iter().any(|h| h.contains(&format!("`{unit}`"))),
            "{word}: {d:?}"
        );
    }
}

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
        let out = eval_stdin(&format!("{SEED_CASE}{table}"));
        let stderr = refused(&out, said);
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
            let out = eval_stdin(&format!("{SEED_CASE}{table}"));
            let code = out.status.code();
            assert!(
                code == Some(0) || code == Some(2),
                "{table}: exit {code:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    // An ordinary setting is still translated.
    let out = eval_stdin(&format!("{SEED_CASE}[engine.box2d]\ncontact_hertz = 60\n"));
    assert_exit(&out, 0);
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
    let out = cli(["eval", "--no-verify"])
        .arg(dir.join("free.toml"))
        .output();
    refused(&out, "720 generalized velocities");
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
    cli(["eval", "--no-verify", "--json"])
        .arg(dir.join("case.toml"))
        .output()
}

/// A contact on a body welded to the world is immobile in every section,
/// never 1/round-off.
#[test]
fn a_contact_on_a_welded_body_is_immobile_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let xml = "<mujoco><worldbody><body name=\"b\"><joint type=\"hinge\" axis=\"0 1 0\"/><geom size=\"0.1\" mass=\"1\"/></body></worldbody><equality><weld body1=\"b\"/></equality></mujoco>";
    let out = model_case(tmp.path(), "w.xml", xml, "b");
    assert_exit(&out, 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["contacts"][0]["immobile"], true, "{v}");
    let robot = &v["robot"]["contacts"][0];
    assert!(robot.is_object() && robot["rule_mass"].is_number(), "{v}");
    assert!(robot["m_eff_with_armature"].is_null(), "{robot}");
    assert!(robot["m_eff_without_armature"].is_null(), "{robot}");
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
    refused(&out, "negative");
    let out = model_case(
        dir,
        "m.xml",
        &mjcf("<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"-1 1 1\"/>"),
        "b",
    );
    refused(&out, "negative");
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
    refused(&out, "positive semi-definite");
    let out = model_case(dir, "r.urdf", &urdf("ixx=\"1\" iyy=\"1\" izz=\"5\""), "b");
    refused(&out, "A + B ≥ C");
    let out = model_case(dir, "r.urdf", &urdf("ixx=\"1\" iyy=\"1\" izz=\"1.5\""), "b");
    assert_exit(&out, 0);
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
    refused(&out, "multiplier");
    let out = model_case(tmp.path(), "r.urdf", &urdf("2"), "b");
    assert_exit(&out, 0);
}

/// Values whose ω over- or underflows are errors at the contact, not
/// ω = ∞ beside "nothing moves".
#[test]
fn an_overflowing_frequency_is_an_error_at_the_contact() {
    let case = SEED_CASE
        .replace("m = \"2 kg\"", "m = \"1e-300 kg\"")
        .replace("I = \"0.020 kg m^2\"", "I = \"1e-302 kg m^2\"")
        .replace("k = \"1e5 N/m\"", "k = \"1e308 N/m\"");
    refused(&eval_stdin(&case), "contact `c`");
}

/// CSV scene diagnostics point at the right cell whatever precedes it.
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
        let out = cli(["eval", "--no-verify"])
            .arg(dir.path().join("case.toml"))
            .exits(2);
        stderr(&out)
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
/// beside a small joint is analysed.
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
        let out = cli(["eval", "--no-verify"])
            .arg(dir.path().join("case.toml"))
            .output();
        (out.status.code(), stderr(&out))
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

#[test]
fn literals_outside_the_float_range_are_errors_at_their_span() {
    for (lit, line) in [
        ("1e-999999999 m", 5),
        ("1e-300000 m", 5),
        ("1e-320 m", 5),
        ("0e-999999999 m", 5),
        (
            "1.0000000000000000000000000000000000000000000000000000000000000000001 m",
            5,
        ),
    ] {
        let (code, _, stderr) = eval_text(
            "lit",
            &SEED.replace("r = \"0.10 m\"", &format!("r = \"{lit}\"")),
        );
        assert_eq!(code, Some(2), "{lit}: {stderr}");
        assert!(
            stderr.contains(&format!("lit.toml:{line}:")),
            "{lit}: {stderr}"
        );
    }
    // In a claim too.
    let (code, _, stderr) = eval_text(
        "lit2",
        &SEED.replace(
            "equals = \"m*I/(I + m*r^2)\"",
            "equals = \"1e-999999999 kg\"",
        ),
    );
    assert_eq!(code, Some(2), "{stderr}");
}

#[test]
fn overflow_and_underflow_are_errors_not_immobile_contacts() {
    for (text, what) in [
        (
            SEED.replace("r = \"0.10 m\"", "r = \"1e300 m\""),
            "lever arm 1e300 m",
        ),
        (
            SEED.replace("m = \"2 kg\"", "m = \"1e-320 kg\""),
            "mass 1e-320 kg",
        ),
        (
            SEED.replace("m = \"2 kg\"", "m = \"1e-200 kg * 1e-200\""),
            "underflowing product",
        ),
        (
            SEED.replace("I = \"0.020 kg m^2\"", "I = \"1e-300 kg m^2\"")
                .replace("r = \"0.10 m\"", "r = \"1e10 m\""),
            "a overflows",
        ),
    ] {
        let (code, stdout, stderr) = eval_text("range", &text);
        assert_eq!(code, Some(2), "{what}: {stdout}{stderr}");
        assert!(stderr.contains("range.toml:"), "{what}: {stderr}");
        assert!(!stdout.contains("immobile"), "{what}");
    }
}

#[test]
fn invalid_utf8_is_located() {
    let dir = scratch("utf8");
    let path = dir.join("bad.toml");
    let mut bytes = SEED.as_bytes().to_vec();
    let at = SEED.find("Seed").unwrap() + 2;
    bytes.insert(at, 0xff);
    std::fs::write(&path, bytes).unwrap();
    let out = meff(["eval", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.toml:1:12") && stderr.contains("not valid UTF-8"),
        "{stderr}"
    );
}
