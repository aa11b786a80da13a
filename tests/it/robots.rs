//! MJCF and URDF models against MuJoCo and Pinocchio: M(q), Jacobian rows
//! and effective masses at five configurations per model, from the
//! fixtures `tests/robots/generate.py` wrote.

use meff::kinematics::Tree;
use meff::robot::Robot;
use nalgebra::{DMatrix, DVector, Vector3};
use serde_json::Value;
use std::path::Path;

const TOL: f64 = 1e-10;

fn dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/robots"))
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn load(file: &str) -> Robot {
    let path = dir().join(file);
    Robot::read(&path, file, 1 << 26).unwrap_or_else(|e| panic!("{file}: {e}"))
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

fn rel(a: f64, b: f64, scale: f64) -> f64 {
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
        let is_mjcf = file.starts_with("mjcf/");
        let configs = m["configurations"].as_array().unwrap();
        assert!(configs.len() >= 5);
        for (ci, c) in configs.iter().enumerate() {
            let q: Vec<f64> = if is_mjcf {
                assert_eq!(tree.nq, m["nq"].as_u64().unwrap() as usize, "{file}: nq");
                floats(&c["qpos"])
            } else {
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
            };
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
                let p = tree.to_world(&kin, b, &local);
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
            }
        }
        if is_mjcf {
            mjcf += 1;
        } else {
            urdf += 1;
        }
    }
    assert!(mjcf >= 6 && urdf >= 4, "{mjcf} MJCF and {urdf} URDF models");
}
