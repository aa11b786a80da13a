//! `Robot`: a model compiled once ([`meff::robot::probe::Compiled`]),
//! evaluated at many configurations.

use crate::{MeffError, floats, input_error};
use meff::kinematics::Tree;
use meff::robot::probe::{Compiled, Target};
use nalgebra::Vector3;
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::Arc;

/// Work (configurations × (nv + 1)³, the factorisation's growth) between
/// checks for Ctrl-C: 65,536 configurations of a six-joint arm (about 15
/// ms on two cores), 4 of a model with hundreds of velocities (tens of
/// milliseconds either way). Few blocks: each ends with a pause for its
/// slowest chunk.
const BATCH_WORK: usize = 1 << 25;

/// The largest model file read (as the command line's default).
const MAX_MODEL_BYTES: u64 = 64 << 20;

/// A body's origin and rotation, as arrays.
type Pose<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray2<f64>>);

/// A robot model (MJCF or URDF), compiled once.
#[pyclass(module = "meff", frozen)]
pub(crate) struct Robot {
    compiled: Arc<Compiled>,
}

impl Robot {
    pub(crate) fn new(robot: meff::robot::Robot) -> Robot {
        Robot {
            compiled: Arc::new(Compiled::new(robot)),
        }
    }

    fn robot(&self) -> &meff::robot::Robot {
        self.compiled.robot()
    }
}

fn read_robot(
    py: Python<'_>,
    path: &Bound<'_, PyAny>,
    format: meff::robot::Format,
) -> PyResult<Robot> {
    let path: String = py
        .import("os")?
        .call_method1("fspath", (path,))
        .and_then(|p| p.extract())
        .map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err("a model's path: str or os.PathLike")
        })?;
    let path = path.as_str();
    let p = std::path::PathBuf::from(path);
    if !p.is_file() {
        return Err(MeffError::new_err(format!(
            "cannot read {path}: {}",
            if p.exists() {
                "not a regular file"
            } else {
                "no such file"
            }
        )));
    }
    let r = py.detach(|| meff::robot::Robot::read(&p, path, MAX_MODEL_BYTES, None));
    let robot = r.map_err(|e| input_error(py, &e))?;
    if robot.format != format {
        return Err(PyValueError::new_err(format!(
            "{path} is {}, not {}: use Robot.from_{}",
            robot.format.name(),
            format.name(),
            if robot.format == meff::robot::Format::Urdf {
                "urdf"
            } else {
                "mjcf"
            }
        )));
    }
    Ok(Robot::new(robot))
}

/// A 1-D `(width,)` or 2-D `(n, width)` array's rows, one after another
/// (copied: the GIL is released while they are read, and Python code may
/// write to its arrays meanwhile), their count, and whether it was 2-D.
fn rows(
    a: &PyReadonlyArrayDyn<f64>,
    width: usize,
    what: &str,
) -> PyResult<(Vec<f64>, usize, bool)> {
    let shape = a.shape().to_vec();
    // `as_slice` also takes a Fortran-ordered array (its memory order):
    // only a C-ordered one is read as memory, the rest in logical order.
    let flat: Vec<f64> = match a.as_slice() {
        Ok(s) if a.is_c_contiguous() => s.to_vec(),
        _ => a.as_array().iter().copied().collect(),
    };
    if let Some(i) = flat.iter().position(|x| !x.is_finite()) {
        return Err(PyValueError::new_err(format!(
            "{what} holds {} (entry {i} in row-major order): every value must be finite",
            flat[i]
        )));
    }
    match shape.as_slice() {
        [w] if *w == width => Ok((flat, 1, false)),
        [n, w] if *w == width => Ok((flat, *n, true)),
        _ => Err(PyValueError::new_err(format!(
            "{what} must have shape ({width},) or (n, {width}), not {shape:?}"
        ))),
    }
}

/// One configuration of `tree` from an array of shape (nq,).
fn one_configuration(a: &PyReadonlyArrayDyn<f64>, tree: &Tree, what: &str) -> PyResult<Vec<f64>> {
    let (q, _, many) = rows(a, tree.nq, "q")?;
    if many {
        return Err(PyValueError::new_err(format!(
            "{what} takes one configuration"
        )));
    }
    Ok(q)
}

/// `"world"` or `"body"`: whether points and directions are in the body's frame.
fn body_frame(frame: &str) -> PyResult<bool> {
    match frame {
        "body" => Ok(true),
        "world" => Ok(false),
        other => Err(PyValueError::new_err(format!(
            "frame is \"world\" or \"body\", not {other:?}"
        ))),
    }
}

/// A point of shape (3,), within the magnitudes a model file may hold.
fn point3(a: &PyReadonlyArrayDyn<f64>) -> PyResult<Vector3<f64>> {
    let (p, _, many) = rows(a, 3, "point")?;
    if many {
        return Err(PyValueError::new_err("point must have shape (3,)"));
    }
    let limit = meff::robot::MAX_MAGNITUDE;
    if let Some(x) = p.iter().find(|x| x.abs() > limit) {
        return Err(PyValueError::new_err(format!(
            "point holds {x}: coordinates are at most {limit:e} m in magnitude"
        )));
    }
    Ok(Vector3::new(p[0], p[1], p[2]))
}

fn body_index(tree: &Tree, body: &str) -> PyResult<usize> {
    tree.body_index(body).ok_or_else(|| {
        let names: Vec<&str> = tree
            .bodies
            .iter()
            .map(|b| b.name.as_str())
            .take(30)
            .collect();
        PyValueError::new_err(format!(
            "no body named {body:?} (bodies: {})",
            names.join(", ")
        ))
    })
}

/// A body region from a dict of SI numbers: `mass`, `stiffness` and at
/// least one of `force_limit`, `energy_limit`, `pressure_limit` (the last
/// with `area`).
fn read_region(d: &Bound<'_, pyo3::types::PyDict>) -> PyResult<meff::case::Region> {
    const KEYS: [&str; 6] = [
        "mass",
        "stiffness",
        "force_limit",
        "energy_limit",
        "area",
        "pressure_limit",
    ];
    for k in d.keys() {
        let k: String = k.extract()?;
        if !KEYS.contains(&k.as_str()) && k != "name" {
            return Err(PyValueError::new_err(format!(
                "region: unknown key `{k}` (mass, stiffness, force_limit, energy_limit, area, pressure_limit; SI units)"
            )));
        }
    }
    let get = |k: &str| -> PyResult<Option<f64>> {
        match d.get_item(k)? {
            None => Ok(None),
            Some(v) if v.is_none() => Ok(None),
            Some(v) => {
                let x: f64 = v.extract()?;
                if x.is_finite() && x > 0.0 {
                    Ok(Some(x))
                } else {
                    Err(PyValueError::new_err(format!(
                        "region `{k}` must be a positive finite number (SI), not {x}"
                    )))
                }
            }
        }
    };
    let need = |k: &str| -> PyResult<f64> {
        get(k)?.ok_or_else(|| PyValueError::new_err(format!("region needs `{k}` (SI)")))
    };
    let r = meff::case::Region {
        name: match d.get_item("name")? {
            Some(v) => v.extract()?,
            None => "region".into(),
        },
        mass: need("mass")?,
        stiffness: need("stiffness")?,
        force_limit: get("force_limit")?,
        energy_limit: get("energy_limit")?,
        area: get("area")?,
        pressure_limit: get("pressure_limit")?,
        description: String::new(),
    };
    if r.pressure_limit.is_some() && r.area.is_none() {
        return Err(PyValueError::new_err(
            "region: a pressure_limit needs the contact `area` (m²)",
        ));
    }
    if r.force_limit.is_none() && r.energy_limit.is_none() && r.pressure_limit.is_none() {
        return Err(PyValueError::new_err(
            "region without a limit: give force_limit, energy_limit and/or pressure_limit",
        ));
    }
    Ok(r)
}

#[pymethods]
impl Robot {
    /// Reads an MJCF file (a `str` or `os.PathLike`; `<include>`s from
    /// its folder; mesh files are never opened — a body's inertia must be
    /// given or come from primitive geoms). Bad input raises `InputError`
    /// at its file, line and column.
    #[staticmethod]
    fn from_mjcf(py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<Robot> {
        read_robot(py, path, meff::robot::Format::Mjcf)
    }

    /// A robot from a MuJoCo `MjModel` (the `mujoco` package's), read
    /// through its arrays: bodies, joints, `qpos0`, armature. Its equality
    /// constraints are not read (a warning says so when some are active):
    /// `from_mjcf` reads them from the file.
    #[staticmethod]
    fn from_mujoco(py: Python<'_>, model: &Bound<'_, PyAny>) -> PyResult<Robot> {
        crate::mujoco::read(py, model).map(Robot::new)
    }

    /// Reads a URDF file (a `str` or `os.PathLike`). The root link is
    /// fixed to the world (a floating base needs a `floating` joint from a
    /// world link). Bad input raises `InputError` at its file, line and
    /// column.
    #[staticmethod]
    fn from_urdf(py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<Robot> {
        read_robot(py, path, meff::robot::Format::Urdf)
    }

    /// Number of position coordinates.
    #[getter]
    fn nq(&self) -> usize {
        self.robot().tree.nq
    }

    /// Number of velocities.
    #[getter]
    fn nv(&self) -> usize {
        self.robot().tree.nv
    }

    /// Body names, in model order.
    #[getter]
    fn bodies(&self) -> Vec<String> {
        self.robot()
            .tree
            .bodies
            .iter()
            .map(|b| b.name.clone())
            .collect()
    }

    /// Joint names, in model order.
    #[getter]
    fn joints(&self) -> Vec<String> {
        self.robot()
            .tree
            .joints
            .iter()
            .map(|j| j.name.clone())
            .collect()
    }

    /// A configuration: `qpos0` with the named one-coordinate joints
    /// (hinges, slides) set, `{"elbow_joint": 0.5}` (radians, metres).
    fn configuration<'py>(
        &self,
        py: Python<'py>,
        values: std::collections::HashMap<String, f64>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let tree = &self.robot().tree;
        let mut q = tree.qpos0.clone();
        let mut names: Vec<&String> = values.keys().collect();
        names.sort();
        for name in names {
            let j = tree
                .joints
                .iter()
                .find(|j| &j.name == name)
                .ok_or_else(|| {
                    let names: Vec<&str> = tree
                        .joints
                        .iter()
                        .map(|j| j.name.as_str())
                        .take(30)
                        .collect();
                    PyValueError::new_err(format!(
                        "no joint named {name:?} (joints: {})",
                        names.join(", ")
                    ))
                })?;
            if j.kind.nq() != 1 {
                return Err(PyValueError::new_err(format!(
                    "joint {name:?} has {} coordinates: set them in q directly",
                    j.kind.nq()
                )));
            }
            let v = values[name];
            if !v.is_finite() {
                return Err(PyValueError::new_err(format!(
                    "joint {name:?}: {v} is not a finite value"
                )));
            }
            q[j.qpos_adr] = v;
        }
        Ok(q.into_pyarray(py))
    }

    /// A body's frame at `q`: its origin (3,) and rotation (3, 3), body
    /// axes to world axes.
    fn body_pose<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
        body: &str,
    ) -> PyResult<Pose<'py>> {
        let q = floats(py, q)?;
        let tree = &self.robot().tree;
        let b = body_index(tree, body)?;
        let kin = tree.kinematics(&one_configuration(&q, tree, "body_pose")?);
        let x = kin.world(&kin.xpos[b]);
        let r = kin.xrot[b];
        let rows: Vec<Vec<f64>> = (0..3)
            .map(|i| (0..3).map(|j| r[(i, j)]).collect())
            .collect();
        Ok((
            vec![x[0], x[1], x[2]].into_pyarray(py),
            PyArray2::from_vec2(py, &rows)?,
        ))
    }

    /// The reference configuration (MuJoCo's `qpos0`).
    #[getter]
    fn qpos0<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.robot().tree.qpos0.clone().into_pyarray(py)
    }

    /// The joint-space mass matrix M(q) (nv × nv), with the joints'
    /// armature when `armature`.
    #[pyo3(signature = (q, armature = true))]
    fn mass_matrix<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
        armature: bool,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let q = floats(py, q)?;
        let tree = &self.robot().tree;
        let q = one_configuration(&q, tree, "mass_matrix")?;
        let n = tree.nv;
        let m = tree.mass_matrix(&tree.kinematics(&q), armature);
        m.into_pyarray(py).reshape([n, n])
    }

    /// m_eff = 1/(j M⁻¹ jᵀ) (kg) at a point of `body` along `normal`
    /// (normalised), with the joints' armature in M unless
    /// `armature=False` and the model's equality constraints unless
    /// `constrained=False`. `q`: shape (nq,) or (n, nq), radians and
    /// metres; `normal`: (3,) or (k, 3). Returns a float, or an array of
    /// shape (n,), (k,) or (n, k); `inf` where the point cannot move along
    /// the normal. `frame="world"` (the default): the point is a position
    /// in the world, not an offset on the body; `frame="body"`: point and
    /// normals in the body's frame. Configurations run in parallel,
    /// without the GIL.
    #[pyo3(signature = (q, body, point, normal, frame = "world", armature = true, constrained = true))]
    #[allow(clippy::too_many_arguments)]
    fn effective_mass<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
        body: &str,
        point: &Bound<'py, PyAny>,
        normal: &Bound<'py, PyAny>,
        frame: &str,
        armature: bool,
        constrained: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (q, point, normal) = (floats(py, q)?, floats(py, point)?, floats(py, normal)?);
        let tree = &self.robot().tree;
        let body = body_index(tree, body)?;
        let local = body_frame(frame)?;
        let (qs, n_q, many_q) = rows(&q, tree.nq, "q")?;
        let point = point3(&point)?;
        let (ns, k, many_n) = rows(&normal, 3, "normal")?;
        if k == 0 {
            return Err(PyValueError::new_err("normal: give at least one direction"));
        }
        let mut normals: Vec<Vector3<f64>> = Vec::with_capacity(k);
        for (i, n) in ns.chunks(3).enumerate() {
            let v = Vector3::new(n[0], n[1], n[2]);
            // Scaled first, so that 1e300 does not overflow the norm.
            let big = v.amax();
            if big == 0.0 {
                return Err(PyValueError::new_err(format!("normal {i} has zero length")));
            }
            let v = v / big;
            normals.push(v / v.norm());
        }
        let target = Target {
            body,
            point,
            normals,
            local,
            armature,
            constrained,
        };
        let nq = tree.nq;
        let mut out = vec![0.0; n_q * k];
        if n_q == 1 || nq == 0 {
            // One configuration: a fraction of a microsecond, not worth
            // releasing the GIL for.
            self.compiled.effective_masses(&qs, &target, &mut out);
        } else {
            // Blocks of configurations without the GIL, Ctrl-C checked
            // between them (a KeyboardInterrupt stops a long batch within
            // a block).
            let compiled = &self.compiled;
            let block = (BATCH_WORK / (tree.nv + 1).pow(3)).clamp(4, 65_536);
            for (q, o) in qs.chunks(block * nq).zip(out.chunks_mut(block * k)) {
                py.detach(|| compiled.effective_masses(q, &target, o));
                py.check_signals()?;
            }
        }
        // A configuration where M(q) is not positive definite (a joint
        // that moves no mass) has no effective mass: an error, not `inf`.
        if let Some(i) = out.iter().position(|x| x.is_nan()) {
            return Err(MeffError::new_err(format!(
                "M(q) is not positive definite at configuration {}: a joint moves no mass or inertia",
                i / k
            )));
        }
        // 1/a = 0 only when a overflowed: numbers beyond what 64-bit
        // floating point represents, never a mass.
        if let Some(i) = out.iter().position(|&x| x == 0.0) {
            return Err(MeffError::new_err(format!(
                "configuration {}: j M⁻¹ jᵀ overflowed (values far outside physical ranges in SI units?)",
                i / k
            )));
        }
        match (many_q, many_n) {
            (false, false) => Ok(out[0].into_pyobject(py)?.into_any()),
            (true, false) | (false, true) => Ok(out.into_pyarray(py).into_any()),
            (true, true) => Ok(out.into_pyarray(py).reshape([n_q, k])?.into_any()),
        }
    }

    /// The effective-mass ellipsoid of a point of `body` at `q`:
    /// `Λ⁻¹ = J_p M⁻¹ J_pᵀ` (3 × 3, world axes, 1/kg; constraints included
    /// unless `constrained=False`), its principal masses (kg, heaviest
    /// first; `inf` along a direction the point cannot move) and their
    /// directions (columns, world axes), as a dict with keys `inverse`,
    /// `masses` and `axes`. One configuration.
    #[pyo3(signature = (q, body, point, frame = "world", armature = true, constrained = true))]
    #[allow(clippy::too_many_arguments)]
    fn ellipsoid<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
        body: &str,
        point: &Bound<'py, PyAny>,
        frame: &str,
        armature: bool,
        constrained: bool,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let tree = &self.robot().tree;
        let body = body_index(tree, body)?;
        let (q, point) = (floats(py, q)?, floats(py, point)?);
        let q = one_configuration(&q, tree, "ellipsoid")?;
        let target = Target {
            body,
            point: point3(&point)?,
            normals: Vec::new(),
            local: body_frame(frame)?,
            armature,
            constrained,
        };
        let a = self
            .compiled
            .point_inverse_inertia(&q, &target)
            .ok_or_else(|| MeffError::new_err("M(q) is not positive definite"))?;
        let eig = meff::linalg::eig::symmetric(a).ok_or_else(|| {
            MeffError::new_err("the point's inverse inertia has no eigenvalues (not finite)")
        })?;
        let mut order: Vec<usize> = (0..3).collect();
        order.sort_by(|&i, &j| eig.eigenvalues[i].total_cmp(&eig.eigenvalues[j]));
        let tiny = 1e-12 * a.amax().max(f64::MIN_POSITIVE);
        let masses: Vec<f64> = order
            .iter()
            .map(|&i| {
                if eig.eigenvalues[i] > tiny {
                    1.0 / eig.eigenvalues[i]
                } else {
                    f64::INFINITY
                }
            })
            .collect();
        let axes: Vec<Vec<f64>> = (0..3)
            .map(|r| order.iter().map(|&i| eig.eigenvectors[(r, i)]).collect())
            .collect();
        let inv: Vec<Vec<f64>> = (0..3)
            .map(|r| (0..3).map(|c| a[(r, c)]).collect())
            .collect();
        let out = pyo3::types::PyDict::new(py);
        out.set_item("inverse", PyArray2::from_vec2(py, &inv)?)?;
        out.set_item("masses", masses.into_pyarray(py))?;
        out.set_item("axes", PyArray2::from_vec2(py, &axes)?)?;
        Ok(out)
    }

    /// How fast may a point move into a body region (ISO/TS 15066 Annex A,
    /// issue 40), at many configurations at once: `q` (n, nq) and `qd`
    /// (n, nv) (or one of each), a point of `body` given in the body's
    /// frame, a `region` dict of SI numbers (`mass` m_H, `stiffness` k_H,
    /// and `force_limit`, `energy_limit` and/or `pressure_limit` with
    /// `area`). Returns a dict of arrays (one entry per configuration):
    /// `velocity` (n, 3, world axes), `speed`, `mass_exact` (the mass along
    /// the velocity, 1/(uᵀ Λ⁻¹ u); `nan` at rest, `inf` where infinite),
    /// `mass_worst_direction` (1/λ_min(Λ⁻¹)), and `max_speed_exact`,
    /// `max_speed_worst_direction`, `max_speed_rule` (v_max, m/s, the
    /// smallest of the region's limits), `factor_exact` (v_max/|v|, `inf`
    /// at rest); and `mass_rule` = M/2 + `payload` (M the mass the joints
    /// move). Configurations run in parallel, without the GIL.
    #[pyo3(signature = (q, qd, body, point, region, payload = 0.0, armature = true))]
    #[allow(clippy::too_many_arguments)]
    fn contact_speeds<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
        qd: &Bound<'py, PyAny>,
        body: &str,
        point: &Bound<'py, PyAny>,
        region: &Bound<'py, pyo3::types::PyDict>,
        payload: f64,
        armature: bool,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        use meff::analysis::program::{moving_mass, point_masses, transfer};
        use rayon::prelude::*;
        let robot = self.robot();
        let tree = &robot.tree;
        let body = body_index(tree, body)?;
        let (q, qd, point) = (floats(py, q)?, floats(py, qd)?, floats(py, point)?);
        let (qs, n, many) = rows(&q, tree.nq, "q")?;
        let (qds, m, many_v) = rows(&qd, tree.nv, "qd")?;
        if n != m {
            return Err(PyValueError::new_err(format!(
                "q has {n} configurations, qd {m}: one velocity per configuration"
            )));
        }
        if !(payload.is_finite() && payload >= 0.0) {
            return Err(PyValueError::new_err(
                "payload must be a finite mass ≥ 0 (kg)",
            ));
        }
        let p = point3(&point)?;
        let region = read_region(region)?;
        let rule_mass = moving_mass(tree) / 2.0 + payload;
        let (nq, nv) = (tree.nq, tree.nv);
        let at = |s: usize| {
            point_masses(
                robot,
                armature,
                &qs[s * nq..(s + 1) * nq],
                &qds[s * nv..(s + 1) * nv],
                (body, [p.x, p.y, p.z]),
            )
        };
        let per: Vec<([f64; 3], Option<f64>, Option<f64>)> =
            py.detach(|| (0..n).into_par_iter().with_min_len(64).map(at).collect());
        let inf = |m: Option<f64>| m.unwrap_or(f64::INFINITY);
        let speed: Vec<f64> = per
            .iter()
            .map(|(v, _, _)| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt())
            .collect();
        let moving = |s: usize| speed[s] > meff::analysis::program::AT_REST;
        let v_max = |m: Option<f64>| transfer(m, &region, 1.0).max_speed;
        let mass_exact: Vec<f64> = (0..n)
            .map(|s| if moving(s) { inf(per[s].1) } else { f64::NAN })
            .collect();
        let max_exact: Vec<f64> = (0..n)
            .map(|s| if moving(s) { v_max(per[s].1) } else { f64::NAN })
            .collect();
        let factor: Vec<f64> = (0..n)
            .map(|s| {
                if moving(s) {
                    max_exact[s] / speed[s]
                } else {
                    f64::INFINITY
                }
            })
            .collect();
        let worst: Vec<f64> = per.iter().map(|x| inf(x.2)).collect();
        let max_worst: Vec<f64> = per.iter().map(|x| v_max(x.2)).collect();
        let velocity: Vec<Vec<f64>> = per.iter().map(|x| x.0.to_vec()).collect();
        let out = pyo3::types::PyDict::new(py);
        let one = !(many || many_v);
        let put = |k: &str, v: Vec<f64>| -> PyResult<()> {
            if one {
                out.set_item(k, v[0])
            } else {
                out.set_item(k, v.into_pyarray(py))
            }
        };
        if one {
            out.set_item("velocity", per[0].0.to_vec().into_pyarray(py))?;
        } else {
            out.set_item("velocity", PyArray2::from_vec2(py, &velocity)?)?;
        }
        put("speed", speed)?;
        put("mass_exact", mass_exact)?;
        put("mass_worst_direction", worst)?;
        put("max_speed_exact", max_exact)?;
        put("max_speed_worst_direction", max_worst)?;
        put("max_speed_rule", vec![v_max(Some(rule_mass)); n])?;
        put("factor_exact", factor)?;
        out.set_item("mass_rule", rule_mass)?;
        Ok(out)
    }

    fn __repr__(&self) -> String {
        format!(
            "<meff.Robot {:?}: {} bodies, nq = {}, nv = {}>",
            self.robot().name,
            self.robot().tree.bodies.len(),
            self.robot().tree.nq,
            self.robot().tree.nv
        )
    }
}
