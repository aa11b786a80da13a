//! MJCF and URDF models against MuJoCo and Pinocchio: M(q), Jacobian rows
//! and effective masses at five configurations per model, from the
//! fixtures `tests/robots/generate.py` wrote.

use meff::kinematics::Tree;
use meff::robot::Robot;
use nalgebra::{DMatrix, DVector, Vector3};
use serde_json::Value;
use std::path::Path;

const TOL: f64 = 1e-10;

pub(crate) fn dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/robots"))
}

pub(crate) fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

pub(crate) fn load(file: &str) -> Robot {
    let path = dir().join(file);
    Robot::read(&path, file, 1 << 26, None).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// meff's velocity index of each reference velocity (by joint name).
fn permutation(tree: &Tree, dof_joints: &[String]) -> Vec<usize> {
    let names = tree.dof_names();
    let mut used = vec![false; names.len()];
    dof_joints
        .iter()
        .map(|j| {
            let i = (0..names.len())
                .find(|&i| {
                    !used[i] && (names[i].0 == *j || names[i].0.starts_with(&format!("{j}.")))
                })
                .unwrap_or_else(|| panic!("no velocity of joint `{j}`"));
            used[i] = true;
            i
        })
        .collect()
}

pub(crate) fn rel(a: f64, b: f64, scale: f64) -> f64 {
    (a - b).abs() / scale
}

#[test]
fn mass_matrices_and_effective_masses_match_mujoco_and_pinocchio() {
    let text = std::fs::read_to_string(dir().join("reference.json")).unwrap();
    let reference: Value = serde_json::from_str(&text).unwrap();
    let models = reference["models"].as_array().unwrap();
    let (mut mjcf, mut urdf) = (0, 0);
    for m in models {
        let file = m["file"].as_str().unwrap();
        let robot = load(file);
        let tree = &robot.tree;
        assert_eq!(tree.nv, m["nv"].as_u64().unwrap() as usize, "{file}: nv");
        let dof_joints: Vec<String> = m["dof_joints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        let perm = permutation(tree, &dof_joints);
        let n = tree.nv;
        let is_mjcf = file.starts_with("mjcf/") || file.starts_with("features/");
        let configs = m["configurations"].as_array().unwrap();
        assert!(configs.len() >= 5);
        for (ci, c) in configs.iter().enumerate() {
            if is_mjcf {
                assert_eq!(tree.nq, m["nq"].as_u64().unwrap() as usize, "{file}: nq");
            }
            let q = configuration(tree, file, c);
            let kin = tree.kinematics(&q);
            let mut checks = vec![("mass_matrix", true)];
            if is_mjcf {
                checks.push(("mass_matrix_without_armature", false));
            }
            let mut ours_m = None;
            for (key, armature) in checks {
                let ours = tree.mass_matrix(&kin, armature);
                let theirs = floats(&c[key]);
                let scale = theirs.iter().fold(0.0f64, |a, x| a.max(x.abs()));
                for i in 0..n {
                    for j in 0..n {
                        let (a, b) = (ours[perm[i] * n + perm[j]], theirs[i * n + j]);
                        assert!(
                            rel(a, b, scale) <= TOL,
                            "{file} config {ci} {key}[{i}][{j}]: meff {a}, reference {b}"
                        );
                    }
                }
                if armature {
                    ours_m = Some(DMatrix::from_row_slice(n, n, &ours));
                }
            }
            let mm = ours_m.unwrap();
            let chol = mm.clone().cholesky().expect("M is positive definite");
            for contact in c["contacts"].as_array().unwrap() {
                // By name, or by index (MuJoCo's body id − 1) for unnamed bodies.
                let body = contact["body"].as_str().unwrap_or("(unnamed)");
                let b = match contact["body_index"].as_u64() {
                    Some(i) if contact["body"].is_null() => i as usize,
                    _ => tree
                        .body_index(body)
                        .unwrap_or_else(|| panic!("{file}: no body {body}")),
                };
                let local = Vector3::from_vec(floats(&contact["point"]));
                let normal = Vector3::from_vec(floats(&contact["normal"]));
                let p = tree.place(&kin, b, &local);
                let row = tree.point_row(&kin, b, &p, &normal);
                let theirs = floats(&contact["row"]);
                let scale = theirs.iter().fold(0.0f64, |a, x| a.max(x.abs()));
                for i in 0..n {
                    assert!(
                        rel(row[perm[i]], theirs[i], scale) <= TOL,
                        "{file} config {ci} contact on {body}: row[{i}] {} vs {}",
                        row[perm[i]],
                        theirs[i]
                    );
                }
                let r = DVector::from_vec(row);
                let a = r.dot(&chol.solve(&r));
                let m_eff = 1.0 / a;
                let want = contact["m_eff"].as_f64().unwrap();
                assert!(
                    rel(m_eff, want, want) <= TOL,
                    "{file} config {ci} contact on {body}: m_eff {m_eff} vs {want}"
                );
                // The constrained response (MJCF equality rows).
                if let Some(want) = contact["m_eff_constrained"].as_f64() {
                    let g = robot.constraint_rows(&kin, &q);
                    let got = constrained_meff(&mm, &g, &r);
                    assert!(
                        rel(got, want, want) <= 1e-9,
                        "{file} config {ci} contact on {body}: constrained m_eff {got} vs {want}"
                    );
                }
            }
        }
        if file.starts_with("mjcf/") {
            mjcf += 1;
        } else if file.starts_with("urdf/") {
            urdf += 1;
        }
    }
    assert!(mjcf >= 6 && urdf >= 4, "{mjcf} MJCF and {urdf} URDF models");
}

/// A reference configuration: MuJoCo's `qpos`, or Pinocchio's joint values
/// set on `qpos0`.
pub(crate) fn configuration(tree: &Tree, file: &str, c: &Value) -> Vec<f64> {
    if file.starts_with("mjcf/") || file.starts_with("features/") {
        return floats(&c["qpos"]);
    }
    let mut q = tree.qpos0.clone();
    for (name, x) in c["joints"].as_object().unwrap() {
        let j = tree
            .joints
            .iter()
            .find(|j| j.name == *name)
            .unwrap_or_else(|| panic!("{file}: no joint {name}"));
        q[j.qpos_adr] = x.as_f64().unwrap();
    }
    q
}

/// `1 / (r P rᵀ)` with `P = M⁻¹ − M⁻¹Gᵀ(GM⁻¹Gᵀ)⁺GM⁻¹`.
fn constrained_meff(m: &DMatrix<f64>, g: &[Vec<f64>], r: &DVector<f64>) -> f64 {
    let n = m.nrows();
    let mi = m.clone().try_inverse().unwrap();
    if g.is_empty() {
        return 1.0 / r.dot(&(&mi * r));
    }
    let gm = DMatrix::from_fn(g.len(), n, |i, j| g[i][j]);
    let s = &gm * &mi * gm.transpose();
    let sp = s.pseudo_inverse(1e-12).unwrap();
    let p = &mi - &mi * gm.transpose() * sp * &gm * &mi;
    1.0 / r.dot(&(&p * r))
}

/// The reference entry of a model file.
fn reference_model(file: &str) -> Value {
    let text = std::fs::read_to_string(dir().join("reference.json")).unwrap();
    let reference: Value = serde_json::from_str(&text).unwrap();
    reference["models"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["file"] == file)
        .unwrap()
        .clone()
}

/// A `[model]` case for configuration `ci` and contact `k` of a reference
/// model: joint values by name (hinges and slides), the contact point in
/// world coordinates.
fn case_for(file: &str, ci: usize, k: usize, extra: &str) -> (String, Value) {
    let m = reference_model(file);
    let robot = load(file);
    let tree = &robot.tree;
    let c = &m["configurations"][ci];
    let q: Vec<f64> = if file.starts_with("urdf/") {
        let mut q = tree.qpos0.clone();
        for (name, x) in c["joints"].as_object().unwrap() {
            let j = tree.joints.iter().find(|j| j.name == *name).unwrap();
            q[j.qpos_adr] = x.as_f64().unwrap();
        }
        q
    } else {
        floats(&c["qpos"])
    };
    let contact = &c["contacts"][k];
    let b = match contact["body"].as_str() {
        Some(name) => tree.body_index(name).unwrap(),
        None => contact["body_index"].as_u64().unwrap() as usize,
    };
    let kin = tree.kinematics(&q);
    let p = tree.to_world(&kin, b, &Vector3::from_vec(floats(&contact["point"])));
    let n = floats(&contact["normal"]);
    let mut config = Vec::new();
    for j in &tree.joints {
        let unit = match j.kind {
            meff::kinematics::JointKind::Hinge => "rad",
            meff::kinematics::JointKind::Slide => "m",
            _ => continue,
        };
        config.push(format!("{} = \"{:e} {unit}\"", j.name, q[j.qpos_adr]));
    }
    let kind = if file.starts_with("urdf/") {
        "urdf"
    } else {
        "mjcf"
    };
    let path = dir().join(file);
    let case = format!(
        r#"title = "reference"
[model]
{kind} = "{path}"
configuration = {{ {config} }}
{extra}
[[contact]]
name = "c"
body = "{body}"
point = ["{px:e} m", "{py:e} m", "{pz:e} m"]
normal = [{nx:e}, {ny:e}, {nz:e}]
frame = "world"
stiffness = "1e5 N/m"
"#,
        path = path.display(),
        config = config.join(", "),
        body = tree.bodies[b].name,
        px = p.x,
        py = p.y,
        pz = p.z,
        nx = n[0],
        ny = n[1],
        nz = n[2],
    );
    (case, contact.clone())
}

fn evaluate_case_text(text: &str) -> meff::Evaluated {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("case.toml");
    std::fs::write(&path, text).unwrap();
    crate::evaluate_path(&path)
}

#[test]
fn urdf_cases_give_pinocchio_effective_masses() {
    // Models without mimic joints (Pinocchio's reference is unconstrained).
    for (file, ci, k) in [
        ("urdf/kinova.urdf", 2, 0),
        ("urdf/ur5_robot.urdf", 3, 1),
        ("urdf/solo12.urdf", 4, 2),
        ("urdf/double_pendulum_continuous.urdf", 1, 0),
    ] {
        assert!(load(file).constraints.is_empty(), "{file}");
        let (case, contact) = case_for(file, ci, k, "");
        let ev = evaluate_case_text(&case);
        let got = ev.report.contacts[0].m_eff.unwrap();
        let want = contact["m_eff"].as_f64().unwrap();
        assert!(rel(got, want, want) <= 1e-9, "{file}: {got} vs {want}");
        let r = ev.report.robot.as_ref().unwrap();
        // The ellipsoid agrees with the contact's own m_eff along its normal.
        let e = &r.contacts[0].ellipsoid;
        let n = Vector3::from(r.contacts[0].normal);
        let inv = nalgebra::Matrix3::from_fn(|i, j| e.inverse[i][j]);
        assert!(rel(1.0 / n.dot(&(inv * n)), want, want) <= 1e-9);
        // Largest first (∞ for a direction the point cannot move in).
        assert!(e.masses[0].is_none_or(|m| m >= got * (1.0 - 1e-12)));
        assert!(e.masses[2].unwrap() <= got * (1.0 + 1e-12));
    }
}

#[test]
fn mjcf_armature_is_in_m_by_default_and_can_be_left_out() {
    let (case, contact) = case_for("mjcf/pusher.xml", 3, 0, "");
    let with = evaluate_case_text(&case);
    let want = contact["m_eff"].as_f64().unwrap();
    let want_without = contact["m_eff_without_armature"].as_f64().unwrap();
    assert!(rel(with.report.contacts[0].m_eff.unwrap(), want, want) <= 1e-9);
    let r = with.report.robot.as_ref().unwrap();
    assert!(r.armature_included && r.armature_total > 0.0);
    let rc = &r.contacts[0];
    assert!(rel(rc.m_eff_with_armature.unwrap(), want, want) <= 1e-9);
    assert!(
        rel(
            rc.m_eff_without_armature.unwrap(),
            want_without,
            want_without
        ) <= 1e-9
    );
    let (case, _) = case_for("mjcf/pusher.xml", 3, 0, "armature = false");
    let without = evaluate_case_text(&case);
    let got = without.report.contacts[0].m_eff.unwrap();
    assert!(
        rel(got, want_without, want_without) <= 1e-9,
        "{got} vs {want_without}"
    );
    assert!(!without.report.robot.as_ref().unwrap().armature_included);
}

#[test]
fn keyframes_and_equality_constraints_give_mujocos_constrained_response() {
    // Configuration 1 of the feature model is its keyframe `home`.
    let (case, contact) = case_for("features/features.xml", 1, 1, "keyframe = \"home\"");
    let ev = evaluate_case_text(&case);
    let want = contact["m_eff_constrained"].as_f64().unwrap();
    let got = ev.report.contacts[0].m_eff.unwrap();
    assert!(rel(got, want, want) <= 1e-9, "{got} vs {want}");
    assert!(ev.report.constraints.rows >= 4);
    let unconstrained = contact["m_eff"].as_f64().unwrap();
    assert!((got - unconstrained).abs() > 1e-3 * want);
}

#[test]
fn a_sweep_over_a_joint_matches_cases_at_its_points() {
    let ev = crate::bundled("ur5-tool.toml");
    let s = &ev.report.sweeps[0];
    let series = s.series.iter().find(|x| x.of.contains("m_eff")).unwrap();
    let text = std::fs::read_to_string(crate::root().join("cases/ur5-tool.toml")).unwrap();
    for k in [0, s.x.len() / 2, s.x.len() - 1] {
        let q = s.x[k];
        let changed = text.replace(
            "q_elbow = { value = \"90 deg\"",
            &format!("q_elbow = {{ value = \"{q:e} rad\""),
        );
        assert_ne!(changed, text);
        let tmp = ur5_dir();
        let path = tmp.path().join("case.toml");
        std::fs::write(&path, &changed).unwrap();
        let at = crate::evaluate_path(&path);
        let want = at.report.contacts[0].m_eff.unwrap();
        let got = series.values[k].unwrap();
        assert!(rel(got, want, want) <= 1e-12, "point {k}: {got} vs {want}");
    }
    let first = series.values[0].unwrap();
    let middle = series.values[s.x.len() / 2].unwrap();
    assert!(
        first > 1.5 * middle,
        "the elbow changes m_eff: {first} vs {middle}"
    );
}

/// Runs `meff eval` on a case in a directory with the given model files;
/// returns (exit code, stderr).
fn eval_in_dir(files: &[(&str, &str)], case: &str) -> (Option<i32>, String) {
    let tmp = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(tmp.path().join(name), text).unwrap();
    }
    std::fs::write(tmp.path().join("case.toml"), case).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_meff"))
        .args(["report", "case.toml", "-o", "out"])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert!(
        !tmp.path().join("out").exists()
            || std::fs::read_dir(tmp.path().join("out")).unwrap().count() == 0,
        "nothing is written on bad input"
    );
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn model_case(kind: &str, file: &str, body: &str, extra: &str) -> String {
    format!(
        "title = \"t\"\n[model]\n{kind} = \"{file}\"\n{extra}\n[[contact]]\nname = \"c\"\nbody = \"{body}\"\npoint = [\"0 m\", \"0 m\", \"0 m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e5 N/m\"\n"
    )
}

const LINK: &str = r#"<inertial><origin xyz="0 0 0"/><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>"#;

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
fn the_simulation_checks_robot_cases_independently() {
    // Ball and free joints, equality constraints, armature (MJCF), and a
    // floating base with body-axis velocities (URDF).
    let (case, _) = case_for("features/features.xml", 1, 1, "keyframe = \"home\"");
    let floating = format!(
        "<robot name=\"f\">\n<link name=\"world\"/>\n<link name=\"base\">{LINK}</link>\n<link name=\"arm\">{LINK}</link>\n<joint name=\"float\" type=\"floating\"><parent link=\"world\"/><child link=\"base\"/><origin xyz=\"0.1 0.2 0.3\" rpy=\"0.1 0.2 0.3\"/></joint>\n<joint name=\"elbow\" type=\"revolute\"><parent link=\"base\"/><child link=\"arm\"/><origin xyz=\"0.5 0 0\"/><axis xyz=\"0 1 0\"/></joint>\n</robot>\n"
    );
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("f.urdf"), floating).unwrap();
    let urdf_case = model_case(
        "urdf",
        "f.urdf",
        "arm",
        "configuration = { elbow = \"40 deg\" }",
    )
    .replace(
        "point = [\"0 m\", \"0 m\", \"0 m\"]",
        "point = [\"0.3 m\", \"0.1 m\", \"0 m\"]",
    );
    std::fs::write(tmp.path().join("u.toml"), urdf_case).unwrap();
    std::fs::write(tmp.path().join("m.toml"), case).unwrap();
    for name in ["m.toml", "u.toml"] {
        let c = meff::case::load(&tmp.path().join(name)).unwrap();
        let ev = meff::evaluate_with(
            c,
            meff::Options {
                verify: true,
                progress: None,
                ..Default::default()
            },
        )
        .unwrap();
        let v = ev.verification.as_ref().unwrap();
        assert!(
            v.simulator.contains("finite differences"),
            "{}",
            v.simulator
        );
        let bad: Vec<_> = v.verdict.disagreements().collect();
        assert!(bad.is_empty(), "{name}: {bad:?}");
        assert!(v.impulse.iter().all(|i| i.max_rel_error < 1e-8));
    }
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
    let base = std::fs::read_to_string(crate::root().join("cases/ur5-tool.toml")).unwrap();
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
            &crate::root()
                .join("cases/models/ur5_robot.urdf")
                .display()
                .to_string(),
        ),
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("already has a body `tool0`"), "{err}");
}

/// A scratch directory holding the bundled UR5 model where the bundled
/// case looks for it (`models/ur5_robot.urdf`).
fn ur5_dir() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("models")).unwrap();
    std::fs::copy(
        crate::root().join("cases/models/ur5_robot.urdf"),
        tmp.path().join("models/ur5_robot.urdf"),
    )
    .unwrap();
    tmp
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
