//! `Robot.from_mujoco`: a tree read from an `MjModel`'s arrays (the
//! library's robot, which `robot.rs` wraps).

use crate::floats;
use meff::kinematics::Tree;
use meff::robot::Robot;
use nalgebra::Vector3;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A body of [`tree_robot`]: parent index or -1, name, pos, quat wxyz,
/// mass, com, inertia 3×3 about the com in body axes.
type BodyRow = (
    i64,
    String,
    [f64; 3],
    [f64; 4],
    f64,
    [f64; 3],
    [[f64; 3]; 3],
);

/// A joint of [`tree_robot`]: body index, name, kind 0 free / 1 ball /
/// 2 slide / 3 hinge, pos, axis, ref, armature.
type JointRow = (usize, String, u8, [f64; 3], [f64; 3], f64, f64);

/// A tree from arrays (what `from_mujoco` reads out of an `MjModel`):
/// per body (parent index or -1, name, pos, quat wxyz, mass, com,
/// inertia 3×3 about the com in body axes); per joint (body index,
/// name, kind 0 free / 1 ball / 2 slide / 3 hinge, pos, axis, ref,
/// armature), joints in coordinate order.
fn tree_robot(name: String, bodies: Vec<BodyRow>, joints: Vec<JointRow>) -> PyResult<Robot> {
    use meff::kinematics::{Body, Joint, JointKind};
    use nalgebra::{Matrix3, Quaternion, UnitQuaternion};
    let finite = |xs: &[f64]| xs.iter().all(|x| x.is_finite());
    let mut tree = Tree::default();
    for (i, (parent, bname, pos, quat, mass, com, inertia)) in bodies.iter().enumerate() {
        let parent = match *parent {
            -1 => None,
            p if p >= 0 && (p as usize) < i => Some(p as usize),
            p => {
                return Err(PyValueError::new_err(format!(
                    "body {i} ({bname}): parent {p} does not come before it"
                )));
            }
        };
        let flat: Vec<f64> = inertia.iter().flatten().copied().collect();
        if *mass < 0.0 {
            return Err(PyValueError::new_err(format!(
                "body {i} ({bname}): a negative mass"
            )));
        }
        if !finite(pos)
            || !finite(quat)
            || !finite(com)
            || !finite(&flat)
            || !mass.is_finite()
            || *mass < 0.0
        {
            return Err(PyValueError::new_err(format!(
                "body {i} ({bname}): a value is not finite"
            )));
        }
        let q = Quaternion::new(quat[0], quat[1], quat[2], quat[3]);
        if q.norm() == 0.0 {
            return Err(PyValueError::new_err(format!(
                "body {i} ({bname}): a zero quaternion"
            )));
        }
        let js: Vec<Joint> = joints
            .iter()
            .filter(|j| j.0 == i)
            .map(|(_, jname, kind, jpos, axis, q_ref, armature)| {
                let kind = match kind {
                    0 => JointKind::Free {
                        local_linear: false,
                    },
                    1 => JointKind::Ball,
                    2 => JointKind::Slide,
                    3 => JointKind::Hinge,
                    k => {
                        return Err(PyValueError::new_err(format!(
                            "joint {jname}: unknown kind {k}"
                        )));
                    }
                };
                let a = Vector3::from(*axis);
                if matches!(kind, JointKind::Slide | JointKind::Hinge) && a.norm() == 0.0 {
                    return Err(PyValueError::new_err(format!("joint {jname}: a zero axis")));
                }
                if !finite(jpos) || !finite(axis) || !q_ref.is_finite() || !armature.is_finite() {
                    return Err(PyValueError::new_err(format!(
                        "joint {jname}: a value is not finite"
                    )));
                }
                Ok(Joint {
                    name: jname.clone(),
                    kind,
                    pos: Vector3::from(*jpos),
                    axis: if a.norm() > 0.0 { a / a.norm() } else { a },
                    q_ref: *q_ref,
                    armature: *armature,
                    qpos_adr: 0,
                    dof_adr: 0,
                })
            })
            .collect::<PyResult<_>>()?;
        tree.push_body(
            Body {
                name: bname.clone(),
                parent,
                pos: Vector3::from(*pos),
                quat: UnitQuaternion::from_quaternion(q),
                mass: *mass,
                com: Vector3::from(*com),
                inertia: Matrix3::from_fn(|r, c| inertia[r][c]),
                joints: Vec::new(),
            },
            js,
        );
    }
    if joints.iter().any(|j| j.0 >= bodies.len()) {
        return Err(PyValueError::new_err(
            "a joint names a body that is not given",
        ));
    }
    if tree.nv > meff::robot::MAX_VELOCITIES {
        return Err(Python::attach(|py| {
            crate::budget_error(
                py,
                format!(
                    "the model has {} velocities: meff evaluates models of at most {}",
                    tree.nv,
                    meff::robot::MAX_VELOCITIES
                ),
                tree.nv,
                meff::robot::MAX_VELOCITIES,
            )
        }));
    }
    Ok(Robot {
        format: meff::robot::Format::Mjcf,
        path: String::new(),
        name,
        tree,
        keyframes: Vec::new(),
        constraints: Vec::new(),
        notes: Vec::new(),
        sha256: String::new(),
        planes: Vec::new(),
    })
}

/// How many bodies, joints, position and velocity coordinates a model has.
#[derive(Clone, Copy)]
struct Counts {
    nbody: usize,
    njnt: usize,
    nq: usize,
    nv: usize,
}

pub(crate) fn read(py: Python<'_>, model: &Bound<'_, PyAny>) -> PyResult<Robot> {
    let mujoco = py.import("mujoco")?;
    if !model.is_instance(&mujoco.getattr("MjModel")?)? {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "from_mujoco takes a mujoco.MjModel",
        ));
    }
    let count = |name: &str| -> PyResult<usize> { model.getattr(name)?.extract() };
    let (nbody, njnt, nq, nv) = (count("nbody")?, count("njnt")?, count("nq")?, count("nv")?);
    let counts = Counts {
        nbody,
        njnt,
        nq,
        nv,
    };
    let get = |name: &str| array(py, model, name, &counts);
    let obj = mujoco.getattr("mjtObj")?;
    let given = |kind: &str, i: usize| -> PyResult<Option<String>> {
        let n: Option<String> = mujoco
            .getattr("mj_id2name")?
            .call1((model, obj.getattr(kind)?, i))?
            .extract()?;
        Ok(n.filter(|s| !s.is_empty()))
    };
    // The model's own names, so that a generated one (`body3`) avoids them.
    let mut taken = std::collections::HashSet::new();
    for (kind, count) in [("mjOBJ_BODY", nbody), ("mjOBJ_JOINT", njnt)] {
        for i in 0..count {
            if let Some(n) = given(kind, i)? {
                taken.insert(n);
            }
        }
    }
    let mut name_of = |kind: &str, i: usize, fallback: String| -> PyResult<String> {
        if let Some(n) = given(kind, i)? {
            return Ok(n);
        }
        let name = meff::robot::unique_name(fallback, |n| taken.contains(n));
        taken.insert(name.clone());
        Ok(name)
    };
    let bodies = bodies(nbody, &get, &mut name_of)?;
    let joints = joints(&counts, &get, &mut name_of)?;
    if count("neq")? > 0 && get("eq_active0")?.iter().any(|&a| a != 0.0) {
        py.import("warnings")?.call_method1(
            "warn",
            ("the model's equality constraints are not read from an MjModel: effective masses are those of the tree (Robot.from_mjcf reads them from the file)",),
        )?;
    }
    // The model's name: the first of MjModel.names.
    let name = model
        .getattr("names")
        .and_then(|n| n.extract::<Vec<u8>>())
        .ok()
        .and_then(|b| {
            let first = b.split(|&c| c == 0).next()?.to_vec();
            String::from_utf8(first).ok()
        })
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "MjModel".to_string());
    tree_robot(name, bodies, joints)
}

/// `MjModel.<name>` as numbers, checked for its length (a model whose
/// arrays were edited from Python may disagree with its counts) and for
/// values that are not finite.
fn array(
    py: Python<'_>,
    model: &Bound<'_, PyAny>,
    name: &str,
    counts: &Counts,
) -> PyResult<Vec<f64>> {
    let Counts {
        nbody,
        njnt,
        nq,
        nv,
    } = *counts;
    let a = floats(py, &model.getattr(name)?)?;
    let v: Vec<f64> = a.as_array().iter().copied().collect();
    let want = match name {
        "body_parentid" | "body_mass" => nbody,
        "body_pos" | "body_ipos" | "body_inertia" => 3 * nbody,
        "body_quat" | "body_iquat" => 4 * nbody,
        "jnt_type" | "jnt_bodyid" | "jnt_qposadr" | "jnt_dofadr" => njnt,
        "jnt_pos" | "jnt_axis" => 3 * njnt,
        "qpos0" => nq,
        "dof_armature" => nv,
        _ => v.len(),
    };
    if v.len() != want {
        return Err(PyValueError::new_err(format!(
            "MjModel.{name} has {} numbers, {want} expected",
            v.len()
        )));
    }
    if let Some(x) = v.iter().find(|x| !x.is_finite()) {
        return Err(PyValueError::new_err(format!("MjModel.{name} holds {x}")));
    }
    Ok(v)
}

/// An index read as a float: whole, from 0 and below `below`.
fn index(x: f64, below: usize, what: &str) -> PyResult<usize> {
    if x.fract() == 0.0 && x >= 0.0 && (x as usize) < below {
        Ok(x as usize)
    } else {
        Err(PyValueError::new_err(format!(
            "MjModel: {what} = {x} is out of range (0 … {below})"
        )))
    }
}

/// The bodies after the world's: pose, mass and the inertia turned from
/// its principal axes into the body's.
fn bodies(
    nbody: usize,
    get: &dyn Fn(&str) -> PyResult<Vec<f64>>,
    name_of: &mut dyn FnMut(&str, usize, String) -> PyResult<String>,
) -> PyResult<Vec<BodyRow>> {
    let (parent, pos, quat, mass) = (
        get("body_parentid")?,
        get("body_pos")?,
        get("body_quat")?,
        get("body_mass")?,
    );
    let (ipos, iquat, inertia) = (get("body_ipos")?, get("body_iquat")?, get("body_inertia")?);
    let mut bodies = Vec::with_capacity(nbody.saturating_sub(1));
    for b in 1..nbody {
        let r = nalgebra::UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(
            iquat[4 * b],
            iquat[4 * b + 1],
            iquat[4 * b + 2],
            iquat[4 * b + 3],
        ))
        .to_rotation_matrix()
        .into_inner();
        let d = nalgebra::Matrix3::from_diagonal(&Vector3::new(
            inertia[3 * b],
            inertia[3 * b + 1],
            inertia[3 * b + 2],
        ));
        let i = r * d * r.transpose();
        let p = index(parent[b], b, &format!("body_parentid[{b}]"))?;
        if mass[b] < 0.0 || (0..3).any(|k| inertia[3 * b + k] < 0.0) {
            return Err(PyValueError::new_err(format!(
                "MjModel: body {b} has a negative mass or principal inertia"
            )));
        }
        bodies.push((
            p as i64 - 1,
            name_of("mjOBJ_BODY", b, format!("body{b}"))?,
            [pos[3 * b], pos[3 * b + 1], pos[3 * b + 2]],
            [
                quat[4 * b],
                quat[4 * b + 1],
                quat[4 * b + 2],
                quat[4 * b + 3],
            ],
            mass[b],
            [ipos[3 * b], ipos[3 * b + 1], ipos[3 * b + 2]],
            [
                [i[(0, 0)], i[(0, 1)], i[(0, 2)]],
                [i[(1, 0)], i[(1, 1)], i[(1, 2)]],
                [i[(2, 0)], i[(2, 1)], i[(2, 2)]],
            ],
        ));
    }
    Ok(bodies)
}

/// The joints in coordinate order, each on a body other than the world's.
fn joints(
    counts: &Counts,
    get: &dyn Fn(&str) -> PyResult<Vec<f64>>,
    name_of: &mut dyn FnMut(&str, usize, String) -> PyResult<String>,
) -> PyResult<Vec<JointRow>> {
    let Counts {
        nbody,
        njnt,
        nq,
        nv,
    } = *counts;
    let (jtype, jbody, jpos, jaxis) = (
        get("jnt_type")?,
        get("jnt_bodyid")?,
        get("jnt_pos")?,
        get("jnt_axis")?,
    );
    let (qadr, dadr, qpos0, armature) = (
        get("jnt_qposadr")?,
        get("jnt_dofadr")?,
        get("qpos0")?,
        get("dof_armature")?,
    );
    let mut joints = Vec::with_capacity(njnt);
    for j in 0..njnt {
        let kind = index(jtype[j], 4, &format!("jnt_type[{j}]"))? as u8;
        let qa = index(qadr[j], nq, &format!("jnt_qposadr[{j}]"))?;
        let da = index(dadr[j], nv, &format!("jnt_dofadr[{j}]"))?;
        let jb = index(jbody[j], nbody, &format!("jnt_bodyid[{j}]"))?;
        if jb == 0 {
            return Err(PyValueError::new_err(format!(
                "MjModel: joint {j} is on the world body"
            )));
        }
        if armature[da] < 0.0 {
            return Err(PyValueError::new_err(format!(
                "MjModel: dof {da} has a negative armature"
            )));
        }
        let q_ref = if kind >= 2 { qpos0[qa] } else { 0.0 };
        joints.push((
            jb - 1,
            name_of("mjOBJ_JOINT", j, format!("joint{j}"))?,
            kind,
            [jpos[3 * j], jpos[3 * j + 1], jpos[3 * j + 2]],
            [jaxis[3 * j], jaxis[3 * j + 1], jaxis[3 * j + 2]],
            q_ref,
            armature[da],
        ));
    }
    Ok(joints)
}
