//! meff from Python: a thin layer over the library (nothing is computed
//! here that the library does not compute for the command line).
//!
//! - `load(path_or_text) -> Case`, `Case.evaluate(verify=False) -> Result`:
//!   the command's pipeline; `Result.json` is the document `meff eval
//!   --json` writes (`--no-verify` unless `verify=True`).
//! - `Robot.from_mjcf/from_urdf(path)`: one compiled model, many
//!   configurations: `mass_matrix(q)`, `effective_mass(q, body, point,
//!   normal)` over arrays of configurations and directions, in parallel
//!   with the GIL released.
//! - Errors are Python exceptions: `InputError` (file, line, column,
//!   message) for bad input, `MeffError` for the rest.

use meff::kinematics::Tree;
use nalgebra::{DMatrix, DVector, Vector3};
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rayon::prelude::*;
use std::sync::Arc;

create_exception!(_meff, MeffError, PyException, "An error meff reports.");
create_exception!(
    _meff,
    InputError,
    MeffError,
    "Bad input: `file`, `line`, `column` (1-based) and `message` say where and what."
);

/// The most contacts whose A is formed densely from the large-system
/// path's sparse S (c² numbers).
const MAX_DENSE_A: usize = 4096;

/// Configurations evaluated between checks for Ctrl-C.
const BATCH_BLOCK: usize = 4096;

/// The largest model file read (as the command line's default).
const MAX_MODEL_BYTES: u64 = 64 << 20;

fn input_error(py: Python<'_>, e: &meff::diag::SourceError) -> PyErr {
    let first = e.diagnostics.first();
    let (line, col) = first.map_or((0, 0), |d| meff::diag::line_col(&e.source, d.span.start));
    let message = first.map_or_else(|| e.to_string(), |d| d.message.clone());
    let text = e.to_string();
    let err = InputError::new_err(text);
    let value = err.value(py);
    let _ = value.setattr("file", e.path.clone());
    let _ = value.setattr("line", line);
    let _ = value.setattr("column", col);
    let _ = value.setattr("message", message);
    err
}

fn meff_error(py: Python<'_>, e: meff::Error) -> PyErr {
    match &e {
        meff::Error::Input(s) => input_error(py, s),
        _ => MeffError::new_err(e.to_string()),
    }
}

/// A validated case.
#[pyclass(module = "meff", frozen)]
struct Case {
    case: meff::case::Case,
}

/// `meff.load(path_or_toml_text)`: a case from a file (a `str` without a
/// newline or `=`, or any `os.PathLike`), or from TOML text.
#[pyfunction]
fn load(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Case> {
    let (text, path) = match source.extract::<String>() {
        Ok(s) if s.contains('\n') || s.contains('=') => (Some(s), None),
        Ok(s) => (None, Some(std::path::PathBuf::from(s))),
        Err(_) => {
            let p = py
                .import("os")?
                .call_method1("fspath", (source,))
                .map_err(|_| {
                    pyo3::exceptions::PyTypeError::new_err(
                        "load takes a path (str or os.PathLike) or TOML text",
                    )
                })?;
            (None, Some(std::path::PathBuf::from(p.extract::<String>()?)))
        }
    };
    let case = py.detach(|| match (&text, &path) {
        (Some(t), _) => meff::case::parse_case("<text>", t).map_err(meff::Error::Input),
        (None, Some(p)) if !p.is_file() => Err(meff::Error::Io {
            path: p.display().to_string(),
            message: if p.exists() {
                "not a regular file".into()
            } else {
                "no such file".into()
            },
        }),
        (None, Some(p)) => meff::case::load(p),
        (None, None) => unreachable!("a path or a text"),
    });
    case.map(|case| Case { case })
        .map_err(|e| meff_error(py, e))
}

#[pymethods]
impl Case {
    /// Runs the analysis (and the time-domain verification when `verify`).
    #[pyo3(signature = (verify = false))]
    fn evaluate(&self, py: Python<'_>, verify: bool) -> PyResult<EvalResult> {
        let case = self.case.clone();
        let ev = py.detach(|| {
            meff::evaluate_with(
                case,
                meff::Options {
                    verify,
                    ..Default::default()
                },
            )
        });
        ev.map(|ev| EvalResult { ev: Arc::new(ev) })
            .map_err(|e| meff_error(py, e))
    }

    /// The case's title.
    #[getter]
    fn title(&self) -> String {
        self.case.title.clone()
    }

    fn __repr__(&self) -> String {
        format!("<meff.Case {:?} ({})>", self.case.title, self.case.path)
    }
}

/// An evaluated case.
#[pyclass(module = "meff", frozen, name = "Result")]
struct EvalResult {
    ev: Arc<meff::Evaluated>,
}

#[pymethods]
impl EvalResult {
    /// The JSON document of `meff eval --json`, as a dict.
    #[getter]
    fn json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = meff::render::json(&self.ev.report);
        py.import("json")?.call_method1("loads", (text,))
    }

    /// m_eff per contact (kg; NaN for an immobile contact).
    #[getter]
    fn m_eff<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.ev
            .analysis
            .contacts
            .iter()
            .map(|c| c.m_eff.unwrap_or(f64::NAN))
            .collect::<Vec<_>>()
            .into_pyarray(py)
    }

    /// The Delassus matrix A (1/kg), contacts × contacts.
    #[getter]
    fn delassus<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let an = &self.ev.analysis;
        let c = an.contacts.len();
        if an.coupled.is_some() && c > MAX_DENSE_A {
            return Err(MeffError::new_err(format!(
                "A is not formed on the large-system path ({c} contacts)"
            )));
        }
        let rows: Vec<Vec<f64>> = (0..c)
            .map(|i| (0..c).map(|j| an.a(i, j)).collect())
            .collect();
        Ok(PyArray2::from_vec2(py, &rows)?)
    }

    /// Coupled mode frequencies ω (rad/s), fastest first.
    #[getter]
    fn mode_omega<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.ev
            .analysis
            .modes
            .iter()
            .map(|m| m.omega)
            .collect::<Vec<_>>()
            .into_pyarray(py)
    }

    /// Mode shapes in gap space, one row per mode (largest component +1).
    #[getter]
    fn mode_shapes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let rows: Vec<Vec<f64>> = self
            .ev
            .analysis
            .modes
            .iter()
            .map(|m| m.shape.clone())
            .collect();
        if rows.is_empty() {
            return Ok(PyArray2::zeros(
                py,
                [0, self.ev.analysis.contacts.len()],
                false,
            ));
        }
        Ok(PyArray2::from_vec2(py, &rows)?)
    }

    /// The report: `"html"` or `"md"` as text, `"json"`, or `"pdf"` as
    /// bytes (when the package was built with the typesetter).
    #[pyo3(signature = (format = "html", digits = 4))]
    fn report<'py>(
        &self,
        py: Python<'py>,
        format: &str,
        digits: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let ev = self.ev.clone();
        let t = meff::render::templates::Templates::load(None)
            .map_err(|e| MeffError::new_err(e.to_string()))?;
        let text = match format {
            "html" => py.detach(|| t.report_html(&ev.report, digits)),
            "md" => py.detach(|| t.report_md(&ev.report, digits)),
            "json" => Ok(meff::render::json(&ev.report)),
            "pdf" => return pdf(py, &t, &ev.report, digits),
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown format {other:?}: \"html\", \"md\", \"json\" or \"pdf\""
                )));
            }
        }
        .map_err(|e| MeffError::new_err(e.to_string()))?;
        Ok(text.into_pyobject(py)?.into_any())
    }

    /// The HTML report, for Jupyter (self-contained, no JavaScript).
    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        let ev = self.ev.clone();
        let t = meff::render::templates::Templates::load(None)
            .map_err(|e| MeffError::new_err(e.to_string()))?;
        py.detach(|| t.report_html(&ev.report, 4))
            .map_err(|e| MeffError::new_err(e.to_string()))
    }

    fn __repr__(&self) -> String {
        format!(
            "<meff.Result {:?}: {} contacts, ω_max = {:.4} rad/s>",
            self.ev.report.title,
            self.ev.analysis.contacts.len(),
            self.ev.analysis.coupled_omega_max
        )
    }
}

#[cfg(feature = "pdf")]
fn pdf<'py>(
    py: Python<'py>,
    t: &meff::render::templates::Templates,
    report: &meff::report::Report,
    digits: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let bytes = py
        .detach(|| t.report_pdf(report, digits))
        .map_err(|e| MeffError::new_err(e.to_string()))?;
    Ok(PyBytes::new(py, &bytes).into_any())
}

#[cfg(not(feature = "pdf"))]
fn pdf<'py>(
    _: Python<'py>,
    _: &meff::render::templates::Templates,
    _: &meff::report::Report,
    _: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let _ = PyBytes::new;
    Err(MeffError::new_err(
        "PDF output is not built into this package: build it with `maturin build --features pdf`",
    ))
}

/// A robot model (MJCF or URDF), compiled once.
#[pyclass(module = "meff", frozen)]
struct Robot {
    robot: Arc<meff::robot::Robot>,
}

fn read_robot(py: Python<'_>, path: &str, format: meff::robot::Format) -> PyResult<Robot> {
    let p = std::path::PathBuf::from(path);
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
    Ok(Robot {
        robot: Arc::new(robot),
    })
}

/// Rows of a 1-D or 2-D float array as vectors of `width`.
fn rows(a: &PyReadonlyArrayDyn<f64>, width: usize, what: &str) -> PyResult<(Vec<Vec<f64>>, bool)> {
    let shape = a.shape().to_vec();
    let view = a.as_array();
    if let Some(i) = view.iter().position(|x| !x.is_finite()) {
        return Err(PyValueError::new_err(format!(
            "{what} holds {} (entry {i} in row-major order): every value must be finite",
            view.iter().nth(i).copied().unwrap_or(f64::NAN)
        )));
    }
    match shape.as_slice() {
        [w] if *w == width => Ok((vec![view.iter().copied().collect()], false)),
        [_, w] if *w == width => Ok((
            view.outer_iter()
                .map(|r| r.iter().copied().collect())
                .collect(),
            true,
        )),
        _ => Err(PyValueError::new_err(format!(
            "{what} must have shape ({width},) or (n, {width}), not {shape:?}"
        ))),
    }
}

/// `A_rs = j_r M⁻¹ j_sᵀ` (constrained by `g` when it has rows) for the
/// rows `js`, from one factorisation of M; `diagonal_only` computes the
/// diagonal alone (the other entries left 0).
fn delassus_of(
    m: DMatrix<f64>,
    g: &[Vec<f64>],
    js: &[DVector<f64>],
    diagonal_only: bool,
) -> Option<DMatrix<f64>> {
    let n = m.nrows();
    let chol = m.cholesky()?;
    let k = js.len();
    let x: Vec<DVector<f64>> = js.iter().map(|j| chol.solve(j)).collect();
    let mut a = DMatrix::zeros(k, k);
    for r in 0..k {
        for c in 0..k {
            if (diagonal_only && r != c) || c < r {
                continue;
            }
            a[(r, c)] = js[r].dot(&x[c]);
            a[(c, r)] = a[(r, c)];
        }
    }
    if !g.is_empty() {
        let gm = DMatrix::from_fn(g.len(), n, |r, c| g[r][c]);
        let mi_gt = chol.solve(&gm.transpose());
        let s = &gm * &mi_gt;
        let pinv = s
            .clone()
            .pseudo_inverse(1e-12 * s.amax().max(f64::MIN_POSITIVE))
            .unwrap_or(s);
        let y: Vec<DVector<f64>> = js.iter().map(|j| mi_gt.transpose() * j).collect();
        for r in 0..k {
            for c in 0..k {
                if (diagonal_only && r != c) || c < r {
                    continue;
                }
                a[(r, c)] -= y[r].dot(&(&pinv * &y[c]));
                a[(c, r)] = a[(r, c)];
            }
        }
    }
    Some(a)
}

/// `a = j M⁻¹ jᵀ` for every row `j` of `js`.
fn inverse_masses(m: DMatrix<f64>, g: &[Vec<f64>], js: &[DVector<f64>]) -> Vec<f64> {
    match delassus_of(m, g, js, true) {
        Some(a) => a.diagonal().iter().copied().collect(),
        None => vec![f64::NAN; js.len()],
    }
}

/// A body's origin and rotation, as arrays.
type Pose<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray2<f64>>);

/// Any array-like as a float64 array (no copy when it already is one).
fn floats<'py>(py: Python<'py>, obj: &Bound<'py, PyAny>) -> PyResult<PyReadonlyArrayDyn<'py, f64>> {
    if let Ok(a) = obj.extract::<PyReadonlyArrayDyn<'py, f64>>() {
        return Ok(a);
    }
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item("dtype", "float64")?;
    py.import("numpy")?
        .call_method("asarray", (obj,), Some(&kwargs))?
        .extract()
        .map_err(|_| PyValueError::new_err("expected an array of numbers"))
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

/// A tree from arrays (what `from_mujoco` reads out of an `MjModel`):
/// per body (parent index or -1, name, pos, quat wxyz, mass, com,
/// inertia 3×3 about the com in body axes); per joint (body index,
/// name, kind 0 free / 1 ball / 2 slide / 3 hinge, pos, axis, ref,
/// armature), joints in coordinate order.
#[allow(clippy::type_complexity)]
fn tree_robot(
    name: String,
    bodies: Vec<(
        i64,
        String,
        [f64; 3],
        [f64; 4],
        f64,
        [f64; 3],
        [[f64; 3]; 3],
    )>,
    joints: Vec<(usize, String, u8, [f64; 3], [f64; 3], f64, f64)>,
) -> PyResult<Robot> {
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
        return Err(PyValueError::new_err(format!(
            "the model has {} velocities: meff evaluates models of at most {}",
            tree.nv,
            meff::robot::MAX_VELOCITIES
        )));
    }
    Ok(Robot {
        robot: Arc::new(meff::robot::Robot {
            format: meff::robot::Format::Mjcf,
            path: String::new(),
            name,
            tree,
            keyframes: Vec::new(),
            constraints: Vec::new(),
            notes: Vec::new(),
            sha256: String::new(),
        }),
    })
}

#[pymethods]
impl Robot {
    /// Reads an MJCF file.
    #[staticmethod]
    fn from_mjcf(py: Python<'_>, path: &str) -> PyResult<Robot> {
        read_robot(py, path, meff::robot::Format::Mjcf)
    }

    /// A robot from a MuJoCo `MjModel` (the `mujoco` package's), read
    /// through its arrays: bodies, joints, `qpos0`, armature. Its equality
    /// constraints are not read (a warning says so when some are active):
    /// `from_mjcf` reads them from the file.
    #[staticmethod]
    fn from_mujoco(py: Python<'_>, model: &Bound<'_, PyAny>) -> PyResult<Robot> {
        let mujoco = py.import("mujoco")?;
        if !model.is_instance(&mujoco.getattr("MjModel")?)? {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "from_mujoco takes a mujoco.MjModel",
            ));
        }
        let count = |name: &str| -> PyResult<usize> { model.getattr(name)?.extract() };
        let (nbody, njnt, nq, nv) = (count("nbody")?, count("njnt")?, count("nq")?, count("nv")?);
        // Every array read is checked for its length (a model whose arrays
        // were edited from Python may disagree with its counts).
        let get = |name: &str| -> PyResult<Vec<f64>> {
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
        };
        let index = |x: f64, below: usize, what: &str| -> PyResult<usize> {
            if x.fract() == 0.0 && x >= 0.0 && (x as usize) < below {
                Ok(x as usize)
            } else {
                Err(PyValueError::new_err(format!(
                    "MjModel: {what} = {x} is out of range (0 … {below})"
                )))
            }
        };
        let obj = mujoco.getattr("mjtObj")?;
        let name_of = |kind: &str, i: usize, fallback: String| -> PyResult<String> {
            let n: Option<String> = mujoco
                .getattr("mj_id2name")?
                .call1((model, obj.getattr(kind)?, i))?
                .extract()?;
            Ok(n.filter(|s| !s.is_empty()).unwrap_or(fallback))
        };
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
        if count("neq")? > 0 && get("eq_active0")?.iter().any(|&a| a != 0.0) {
            py.import("warnings")?.call_method1(
                "warn",
                ("the model's equality constraints are not read from an MjModel: effective masses are those of the tree (Robot.from_mjcf reads them from the file)",),
            )?;
        }
        let name = "MjModel".to_string();
        tree_robot(name, bodies, joints)
    }

    /// Reads a URDF file.
    #[staticmethod]
    fn from_urdf(py: Python<'_>, path: &str) -> PyResult<Robot> {
        read_robot(py, path, meff::robot::Format::Urdf)
    }

    /// Number of position coordinates.
    #[getter]
    fn nq(&self) -> usize {
        self.robot.tree.nq
    }

    /// Number of velocities.
    #[getter]
    fn nv(&self) -> usize {
        self.robot.tree.nv
    }

    /// Body names, in model order.
    #[getter]
    fn bodies(&self) -> Vec<String> {
        self.robot
            .tree
            .bodies
            .iter()
            .map(|b| b.name.clone())
            .collect()
    }

    /// Joint names, in model order.
    #[getter]
    fn joints(&self) -> Vec<String> {
        self.robot
            .tree
            .joints
            .iter()
            .map(|j| j.name.clone())
            .collect()
    }

    /// A configuration: `qpos0` with the named one-coordinate joints
    /// (hinges, slides) set, `{"elbow": 0.5}` (radians, metres).
    fn configuration<'py>(
        &self,
        py: Python<'py>,
        values: std::collections::HashMap<String, f64>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let tree = &self.robot.tree;
        let mut q = tree.qpos0.clone();
        let mut names: Vec<&String> = values.keys().collect();
        names.sort();
        for name in names {
            let j = tree
                .joints
                .iter()
                .find(|j| &j.name == name)
                .ok_or_else(|| PyValueError::new_err(format!("no joint named {name:?}")))?;
            if j.kind.nq() != 1 {
                return Err(PyValueError::new_err(format!(
                    "joint {name:?} has {} coordinates: set them in q directly",
                    j.kind.nq()
                )));
            }
            q[j.qpos_adr] = values[name];
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
        let tree = &self.robot.tree;
        let b = body_index(tree, body)?;
        let (qs, many) = rows(&q, tree.nq, "q")?;
        if many {
            return Err(PyValueError::new_err("body_pose takes one configuration"));
        }
        let kin = tree.kinematics(&qs[0]);
        let x = kin.xpos[b];
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
        self.robot.tree.qpos0.clone().into_pyarray(py)
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
        let tree = &self.robot.tree;
        let (qs, _) = rows(&q, tree.nq, "q")?;
        if qs.len() != 1 {
            return Err(PyValueError::new_err("mass_matrix takes one configuration"));
        }
        let n = tree.nv;
        let m = tree.mass_matrix(&tree.kinematics(&qs[0]), armature);
        m.into_pyarray(py).reshape([n, n])
    }

    /// m_eff = 1/(j M⁻¹ jᵀ) at a point of `body` along `normal` (the
    /// model's equality constraints included unless `constrained=False`). `q`: shape (nq,) or
    /// (n, nq); `normal`: (3,) or (k, 3). Returns a float, or an array of
    /// shape (n,), (k,) or (n, k). `frame="body"`: point and normals in
    /// the body's frame, else the world's. Configurations run in
    /// parallel, without the GIL.
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
        let tree = &self.robot.tree;
        let b = body_index(tree, body)?;
        let local = match frame {
            "body" => true,
            "world" => false,
            other => {
                return Err(PyValueError::new_err(format!(
                    "frame is \"world\" or \"body\", not {other:?}"
                )));
            }
        };
        let (qs, many_q) = rows(&q, tree.nq, "q")?;
        let (ps, _) = rows(&point, 3, "point")?;
        if ps.len() != 1 {
            return Err(PyValueError::new_err("point must have shape (3,)"));
        }
        let (ns, many_n) = rows(&normal, 3, "normal")?;
        let p = Vector3::new(ps[0][0], ps[0][1], ps[0][2]);
        if ns.is_empty() {
            return Err(PyValueError::new_err("normal: give at least one direction"));
        }
        let mut normals: Vec<Vector3<f64>> = Vec::with_capacity(ns.len());
        for (i, n) in ns.iter().enumerate() {
            let v = Vector3::new(n[0], n[1], n[2]);
            // Scaled first, so that 1e300 does not overflow the norm.
            let big = v.amax();
            if big == 0.0 {
                return Err(PyValueError::new_err(format!("normal {i} has zero length")));
            }
            let v = v / big;
            normals.push(v / v.norm());
        }
        let robot = self.robot.clone();
        let k = normals.len();
        let one = |qv: &Vec<f64>| -> Vec<f64> {
            let tree = &robot.tree;
            let kin = tree.kinematics(qv);
            let n = tree.nv;
            let m = DMatrix::from_vec(n, n, tree.mass_matrix(&kin, armature));
            let g = if constrained {
                robot.constraint_rows(&kin, qv)
            } else {
                Vec::new()
            };
            let (pw, rot) = if local {
                (tree.to_world(&kin, b, &p), Some(kin.xrot[b]))
            } else {
                (p, None)
            };
            let js: Vec<DVector<f64>> = normals
                .iter()
                .map(|nn| {
                    let nw = rot.map_or(*nn, |r| r * nn);
                    DVector::from_vec(tree.point_row(&kin, b, &pw, &nw))
                })
                .collect();
            inverse_masses(m, &g, &js)
                .into_iter()
                .map(|a| {
                    if a.is_nan() {
                        f64::NAN
                    } else if a > 0.0 {
                        1.0 / a
                    } else {
                        f64::INFINITY
                    }
                })
                .collect()
        };
        // Blocks of configurations without the GIL, Ctrl-C checked between
        // them (a KeyboardInterrupt stops a long batch within a block).
        let mut out: Vec<f64> = Vec::with_capacity(qs.len() * k);
        for block in qs.chunks(BATCH_BLOCK) {
            let part: Vec<f64> = py.detach(|| {
                if block.len() > 1 {
                    block.par_iter().flat_map_iter(one).collect()
                } else {
                    block.iter().flat_map(one).collect()
                }
            });
            out.extend(part);
            py.check_signals()?;
        }
        // A configuration where M(q) is not positive definite (a joint
        // that moves no mass) has no effective mass: an error, not `inf`.
        if let Some(i) = out.iter().position(|x| x.is_nan()) {
            return Err(MeffError::new_err(format!(
                "M(q) is not positive definite at configuration {}: a joint moves no mass or inertia",
                i / k
            )));
        }
        let n_q = qs.len();
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
    /// directions (columns, world axes).
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
        let tree = &self.robot.tree;
        let b = body_index(tree, body)?;
        let (q, point) = (floats(py, q)?, floats(py, point)?);
        let (qs, many) = rows(&q, tree.nq, "q")?;
        let (ps, _) = rows(&point, 3, "point")?;
        if many || ps.len() != 1 {
            return Err(PyValueError::new_err(
                "ellipsoid takes one configuration and one point",
            ));
        }
        let kin = tree.kinematics(&qs[0]);
        let p = Vector3::new(ps[0][0], ps[0][1], ps[0][2]);
        let pw = match frame {
            "body" => tree.to_world(&kin, b, &p),
            "world" => p,
            other => {
                return Err(PyValueError::new_err(format!(
                    "frame is \"world\" or \"body\", not {other:?}"
                )));
            }
        };
        let n = tree.nv;
        let m = DMatrix::from_vec(n, n, tree.mass_matrix(&kin, armature));
        let g = if constrained {
            self.robot.constraint_rows(&kin, &qs[0])
        } else {
            Vec::new()
        };
        let js: Vec<DVector<f64>> = (0..3)
            .map(|k| DVector::from_vec(tree.point_row(&kin, b, &pw, &Vector3::ith(k, 1.0))))
            .collect();
        let a = delassus_of(m, &g, &js, false)
            .ok_or_else(|| MeffError::new_err("M(q) is not positive definite"))?;
        let eig = nalgebra::SymmetricEigen::new(a.clone());
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

    fn __repr__(&self) -> String {
        format!(
            "<meff.Robot {:?}: {} bodies, nq = {}, nv = {}>",
            self.robot.name,
            self.robot.tree.bodies.len(),
            self.robot.tree.nq,
            self.robot.tree.nv
        )
    }
}

/// `text` as a TOML basic string (control characters escaped).
fn toml_string(text: &str) -> String {
    let mut out = String::from("\"");
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A packing from arrays: bodies (mass, position, inertia) and contacts
/// (body, other, point, normal, stiffness), SI units, validated like a
/// `[scene]`'s files; analysed on the large-system path.
#[pyclass(module = "meff", frozen)]
struct Scene {
    case: meff::case::Case,
}

fn column<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<(Vec<f64>, Vec<usize>)> {
    let a = floats(py, obj)
        .map_err(|_| PyValueError::new_err(format!("{what}: expected an array of numbers")))?;
    Ok((a.as_array().iter().copied().collect(), a.shape().to_vec()))
}

fn indices<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    what: &str,
    n: usize,
    world: bool,
) -> PyResult<Vec<u32>> {
    let (v, _) = column(py, obj, what)?;
    v.iter()
        .enumerate()
        .map(|(i, &x)| {
            if x == -1.0 && world {
                Ok(meff::case::scene::WORLD)
            } else if x.fract() == 0.0 && x >= 0.0 && (x as usize) < n {
                Ok(x as u32)
            } else {
                Err(PyValueError::new_err(format!(
                    "{what}[{i}] = {x} is not a body index (0 … {}{})",
                    n.saturating_sub(1),
                    if world { ", or -1 for the world" } else { "" }
                )))
            }
        })
        .collect()
}

#[pymethods]
impl Scene {
    /// `position`, `point`, `normal`: shape (n, 2) for a planar scene, (n, 3)
    /// in 3-d. `inertia`: (n,) planar; (n, 3) principal, (n, 6) as `Ixx,
    /// Iyy, Izz, Ixy, Ixz, Iyz` or (n, 3, 3) in 3-d (world axes). `other`:
    /// a body index or -1 for the world. `fixed`: bodies that belong to the
    /// world (their mass and inertia are not read).
    #[new]
    #[pyo3(signature = (mass, position, inertia, body, other, point, normal, stiffness, damping = None, fixed = None, title = "scene"))]
    #[allow(clippy::too_many_arguments)]
    fn new<'py>(
        py: Python<'py>,
        mass: &Bound<'py, PyAny>,
        position: &Bound<'py, PyAny>,
        inertia: &Bound<'py, PyAny>,
        body: &Bound<'py, PyAny>,
        other: &Bound<'py, PyAny>,
        point: &Bound<'py, PyAny>,
        normal: &Bound<'py, PyAny>,
        stiffness: &Bound<'py, PyAny>,
        damping: Option<&Bound<'py, PyAny>>,
        fixed: Option<&Bound<'py, PyAny>>,
        title: &str,
    ) -> PyResult<Scene> {
        let vector = |v: (Vec<f64>, Vec<usize>), what: &str| -> PyResult<Vec<f64>> {
            if v.1.len() == 1 {
                Ok(v.0)
            } else {
                Err(PyValueError::new_err(format!(
                    "{what} must be one-dimensional, not of shape {:?}",
                    v.1
                )))
            }
        };
        let mass = vector(column(py, mass, "mass")?, "mass")?;
        let n = mass.len();
        let (position, pshape) = column(py, position, "position")?;
        let d = match pshape.as_slice() {
            [rows, 2] if *rows == n => 2,
            [rows, 3] if *rows == n => 3,
            s => {
                return Err(PyValueError::new_err(format!(
                    "position must have shape ({n}, 2) or ({n}, 3), not {s:?}"
                )));
            }
        };
        let (inertia, ishape) = column(py, inertia, "inertia")?;
        let inertia = match (d, ishape.as_slice()) {
            (2, [rows]) if *rows == n => inertia,
            (3, [rows, 6]) if *rows == n => inertia,
            (3, [rows, 3]) if *rows == n => inertia
                .chunks(3)
                .flat_map(|c| [c[0], c[1], c[2], 0.0, 0.0, 0.0])
                .collect(),
            (3, [rows, 3, 3]) if *rows == n => {
                if let Some(b) = inertia.chunks(9).position(|m| {
                    let off = |a: f64, b: f64| {
                        (a - b).abs() > 1e-12 * (a.abs() + b.abs()).max(f64::MIN_POSITIVE)
                    };
                    off(m[1], m[3]) || off(m[2], m[6]) || off(m[5], m[7])
                }) {
                    return Err(PyValueError::new_err(format!(
                        "inertia[{b}] is not symmetric"
                    )));
                }
                inertia
                    .chunks(9)
                    .flat_map(|m| [m[0], m[4], m[8], m[1], m[2], m[5]])
                    .collect()
            }
            (_, s) => {
                return Err(PyValueError::new_err(format!(
                    "inertia must have shape {} for this scene, not {s:?}",
                    if d == 2 {
                        format!("({n},)")
                    } else {
                        format!("({n}, 3), ({n}, 6) or ({n}, 3, 3)")
                    }
                )));
            }
        };
        let stiffness = vector(column(py, stiffness, "stiffness")?, "stiffness")?;
        let c = stiffness.len();
        if c == 0 {
            return Err(PyValueError::new_err("a scene needs at least one contact"));
        }
        let shaped = |name: &str, v: (Vec<f64>, Vec<usize>)| -> PyResult<Vec<f64>> {
            if v.1.as_slice() == [c, d] {
                Ok(v.0)
            } else {
                Err(PyValueError::new_err(format!(
                    "{name} must have shape ({c}, {d}), not {:?}",
                    v.1
                )))
            }
        };
        let point = shaped("point", column(py, point, "point")?)?;
        let normal = shaped("normal", column(py, normal, "normal")?)?;
        let body = indices(py, body, "body", n, false)?;
        let other = indices(py, other, "other", n, true)?;
        if body.len() != c || other.len() != c {
            return Err(PyValueError::new_err(format!(
                "body and other must have {c} entries, one per contact"
            )));
        }
        let damping = damping
            .map(|a| column(py, a, "damping").and_then(|v| vector(v, "damping")))
            .transpose()?;
        if damping.as_ref().is_some_and(|v| v.len() != c) {
            return Err(PyValueError::new_err(format!(
                "damping must have {c} entries"
            )));
        }
        let fixed: Vec<bool> = match fixed {
            Some(f) => vector(column(py, f, "fixed")?, "fixed")?
                .iter()
                .map(|&x| {
                    if x == 0.0 || x == 1.0 {
                        Ok(x == 1.0)
                    } else {
                        Err(PyValueError::new_err(format!(
                            "fixed holds {x}: booleans (0 or 1) only"
                        )))
                    }
                })
                .collect::<PyResult<_>>()?,
            None => vec![false; n],
        };
        if fixed.len() != n {
            return Err(PyValueError::new_err(format!(
                "fixed must have {n} entries"
            )));
        }
        let data = meff::case::scene::SceneData {
            mass,
            position,
            inertia,
            fixed,
            body_names: None,
            body,
            other,
            point,
            normal,
            stiffness,
            damping,
            contact_names: None,
        };
        let source = format!(
            "title = {}\nspace = \"{}\"\n",
            toml_string(title),
            if d == 2 { "planar" } else { "3d" }
        );
        let case = py
            .detach(|| meff::case::case_from_columns("<arrays>", &source, data))
            .map_err(|e| meff_error(py, e))?;
        Ok(Scene { case })
    }

    /// The coupled analysis (large-system path above 1000 contacts, as the
    /// command chooses): a dict of NumPy arrays and numbers — `m_eff`,
    /// `omega` (single-contact, per contact), `mode_omega` and, with
    /// `shapes`, `mode_shapes` (the `top` fastest modes), `omega_max`,
    /// `omega_upper_bound`, `stable_dt`.
    #[pyo3(signature = (top = 6, shapes = false))]
    fn analyze<'py>(
        &self,
        py: Python<'py>,
        top: usize,
        shapes: bool,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        if top == 0 || top > 100 {
            return Err(PyValueError::new_err("top is from 1 to 100"));
        }
        let case = &self.case;
        let an = py
            .detach(|| {
                let model = meff::model::numeric(case);
                let large = meff::analysis::takes_large_path(&model, case.analysis_path);
                let system = if large {
                    meff::model::assemble_without_contacts(&model)
                } else {
                    meff::model::assemble(&model)
                };
                meff::analysis::analyze_model(
                    &model,
                    &system,
                    meff::analysis::LargeModes {
                        count: top,
                        shapes,
                        path: case.analysis_path,
                    },
                )
            })
            .map_err(|e| MeffError::new_err(e.to_string()))?;
        let out = pyo3::types::PyDict::new(py);
        let m: Vec<f64> = an
            .contacts
            .iter()
            .map(|c| c.m_eff.unwrap_or(f64::NAN))
            .collect();
        let w: Vec<f64> = an.contacts.iter().map(|c| c.omega).collect();
        let modes: Vec<&meff::analysis::Mode> = an.modes.iter().take(top).collect();
        out.set_item("m_eff", m.into_pyarray(py))?;
        out.set_item("omega", w.into_pyarray(py))?;
        out.set_item(
            "mode_omega",
            modes
                .iter()
                .map(|m| m.omega)
                .collect::<Vec<_>>()
                .into_pyarray(py),
        )?;
        if shapes {
            let rows: Vec<Vec<f64>> = modes.iter().map(|m| m.shape.clone()).collect();
            let arr = if rows.is_empty() || rows.iter().any(|r| r.len() != an.contacts.len()) {
                PyArray2::zeros(py, [0, an.contacts.len()], false)
            } else {
                PyArray2::from_vec2(py, &rows)?
            };
            out.set_item("mode_shapes", arr)?;
        }
        out.set_item("omega_max", an.coupled_omega_max)?;
        out.set_item("omega_upper_bound", an.coupled_omega_upper_bound)?;
        out.set_item("stable_dt", an.stable_dt.coupled)?;
        out.set_item("large_path", an.large.is_some())?;
        Ok(out)
    }

    /// The whole evaluation, as for a case file (`Result`).
    fn evaluate(&self, py: Python<'_>) -> PyResult<EvalResult> {
        let case = self.case.clone();
        py.detach(|| meff::evaluate(case))
            .map(|ev| EvalResult { ev: Arc::new(ev) })
            .map_err(|e| meff_error(py, e))
    }

    fn __repr__(&self) -> String {
        let s = self
            .case
            .scene
            .as_ref()
            .map(|s| (s.data.n_bodies(), s.data.n_contacts()));
        let (b, c) = s.unwrap_or((0, 0));
        format!("<meff.Scene: {b} bodies, {c} contacts>")
    }
}

#[pymodule]
fn _meff(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_class::<Case>()?;
    m.add_class::<EvalResult>()?;
    m.add_class::<Robot>()?;
    m.add_class::<Scene>()?;
    m.add("MeffError", m.py().get_type::<MeffError>())?;
    m.add("InputError", m.py().get_type::<InputError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
