//! MJCF and URDF models against MuJoCo and Pinocchio: M(q), Jacobian rows
//! and effective masses at five configurations per model, from the
//! fixtures `tests/robots/generate.py` wrote; keyframes, equality
//! constraints, sweeps over a joint and the simulation's own check.

use crate::support::robots::{LINK, configuration, dir, floats, load, model_case, rel, ur5_dir};
use crate::support::{bundled, evaluate_path, root};
use meff::kinematics::Tree;
use nalgebra::{DMatrix, DVector, Vector3};
use serde_json::Value;

const TOL: f64 = 1e-10;

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
    evaluate_path(&path)
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
    let ev = bundled("ur5-tool.toml");
    let s = &ev.report.sweeps[0];
    let series = s.series.iter().find(|x| x.of.contains("m_eff")).unwrap();
    let text = std::fs::read_to_string(root().join("cases/ur5-tool.toml")).unwrap();
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
        let at = evaluate_path(&path);
        let want = at.report.contacts[0].m_eff.unwrap();
        let got = series.values[k].unwrap();
        assert!(rel(got, want, want) <= 1e-12, "point {k}: {got} vs {want}");
    }
    let first = series.values[0].unwrap();
    let middle = series.values[s.x.len() / 2].unwrap();
    // The elbow moves the tool's lever arms: m_eff is not flat along the
    // sweep (7 % here with the wrists' physical inertias).
    assert!(
        (first - middle).abs() > 0.05 * middle,
        "the elbow changes m_eff: {first} vs {middle}"
    );
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
