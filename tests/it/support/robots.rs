//! The robot fixtures (`tests/robots/`: models, and the MuJoCo and
//! Pinocchio references `generate.py` wrote) and robot cases.

use super::root;
use meff::kinematics::Tree;
use meff::robot::Robot;
use serde_json::Value;
use std::path::Path;

pub fn dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/robots"))
}

pub fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

pub fn load(file: &str) -> Robot {
    let path = dir().join(file);
    Robot::read(&path, file, 1 << 26, None).unwrap_or_else(|e| panic!("{file}: {e}"))
}

pub fn rel(a: f64, b: f64, scale: f64) -> f64 {
    (a - b).abs() / scale
}

/// A reference configuration: MuJoCo's `qpos`, or Pinocchio's joint values
/// set on `qpos0`.
pub fn configuration(tree: &Tree, file: &str, c: &Value) -> Vec<f64> {
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

pub const LINK: &str = r#"<inertial><origin xyz="0 0 0"/><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>"#;

pub fn model_case(kind: &str, file: &str, body: &str, extra: &str) -> String {
    format!(
        "title = \"t\"\n[model]\n{kind} = \"{file}\"\n{extra}\n[[contact]]\nname = \"c\"\nbody = \"{body}\"\npoint = [\"0 m\", \"0 m\", \"0 m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e5 N/m\"\n"
    )
}

/// A scratch directory holding the bundled UR5 model where the bundled
/// case looks for it (`models/ur5_robot.urdf`).
pub fn ur5_dir() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("models")).unwrap();
    std::fs::copy(
        root().join("cases/models/ur5_robot.urdf"),
        tmp.path().join("models/ur5_robot.urdf"),
    )
    .unwrap();
    tmp
}
