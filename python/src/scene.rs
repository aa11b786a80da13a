//! `Scene`: a packing from NumPy arrays.

use crate::case::EvalResult;
use crate::{MeffError, floats, meff_error};
use numpy::{IntoPyArray, PyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

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
/// (body, other: 0-based rows of `mass`, -1 for the world; point; unit
/// normal, along which the gap opens when `body` moves; stiffness), SI
/// units, validated like a `[scene]`'s files (a problem raises
/// `InputError` naming the column and row); above 1000 contacts the
/// analysis takes the large-system path.
#[pyclass(module = "meff", frozen)]
pub(crate) struct Scene {
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

/// A scene's tangential columns from `Scene(…)`'s arguments (stiffness,
/// ratio, damping): each `c` entries or one number for every contact.
fn tangential_of<'py>(
    py: Python<'py>,
    c: usize,
    d: usize,
    given: [Option<&Bound<'py, PyAny>>; 3],
) -> PyResult<Option<meff::case::scene::TangentialColumns>> {
    let names = [
        "tangential_stiffness",
        "tangential_ratio",
        "tangential_damping",
    ];
    let mut cols = Vec::with_capacity(3);
    for (a, what) in given.into_iter().zip(names) {
        cols.push(match a {
            None => None,
            Some(a) => {
                let (v, shape) = column(py, a, what)?;
                match shape.as_slice() {
                    [] => Some(vec![v[0]; c]),
                    [k] if *k == c => Some(v),
                    s => {
                        return Err(PyValueError::new_err(format!(
                            "{what} must be a number or have {c} entries, not shape {s:?}"
                        )));
                    }
                }
            }
        });
    }
    let space = if d == 2 {
        meff::case::Space::Planar
    } else {
        meff::case::Space::ThreeD
    };
    let damping = cols.pop().flatten();
    let ratio = cols.pop().flatten();
    let stiffness = cols.pop().flatten();
    meff::case::scene::tangential_columns(stiffness, ratio, damping, space)
        .map_err(|i| PyValueError::new_err(format!("{}: {}", i.column, i.message)))
}

#[pymethods]
impl Scene {
    /// `position`, `point`, `normal`: shape (n, 2) for a planar scene, (n, 3)
    /// in 3-d. `inertia`: (n,) planar; (n, 3) principal, (n, 6) as `Ixx,
    /// Iyy, Izz, Ixy, Ixz, Iyz` or (n, 3, 3) in 3-d (world axes). `other`:
    /// a body index or -1 for the world. `fixed`: bodies that belong to the
    /// world (their mass and inertia are not read).
    #[new]
    /// `tangential_stiffness` (N/m) or `tangential_ratio` (k_t/k, in
    /// (0, 10]), and `tangential_damping` (N s/m): per contact (or one
    /// number for every contact), a tangential spring on every contact
    /// (docs/case-format.md, "Tangential springs in a scene").
    #[pyo3(signature = (mass, position, inertia, body, other, point, normal, stiffness, damping = None, fixed = None, title = "scene", tangential_stiffness = None, tangential_ratio = None, tangential_damping = None))]
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
        tangential_stiffness: Option<&Bound<'py, PyAny>>,
        tangential_ratio: Option<&Bound<'py, PyAny>>,
        tangential_damping: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Scene> {
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
                // The rule every reader applies (one scale: the tensor's
                // largest entry).
                if let Some(b) = inertia.chunks(9).position(|m| {
                    !meff::kinematics::inertia::asymmetries(&[&m[0..3], &m[3..6], &m[6..9]])
                        .is_empty()
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
        let damping = damping_of(py, damping, c)?;
        let tangential = tangential_of(
            py,
            c,
            d,
            [tangential_stiffness, tangential_ratio, tangential_damping],
        )?;
        let fixed = fixed_of(py, fixed, n)?;
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
            image: None,
            tangential,
        };
        let source = format!(
            "title = {}\nspace = \"{}\"\n",
            toml_string(title),
            if d == 2 { "planar" } else { "3d" }
        );
        let case = py
            .detach(|| meff::case::case_from_columns(crate::ARRAYS, &source, data))
            .map_err(|e| meff_error(py, e.into()))?;
        Ok(Scene { case })
    }

    /// A scene from a LAMMPS/LIGGGHTS text dump, as a case's `[scene]` with
    /// `dump` reads it (docs/case-format.md): the spheres of the last
    /// snapshot (or of `timestep`), the contacts meff finds (overlaps, or
    /// gaps below `tolerance` in m; `walls` "fixed" or a list such as
    /// `["zlo"]`), each with `stiffness` (N/m) and `damping` (N s/m). A
    /// problem in the dump raises `InputError` at its line and column.
    #[staticmethod]
    /// `tangential_stiffness` (N/m) or `tangential_ratio` (in (0, 10]) and
    /// `tangential_damping` (N s/m) give every contact a tangential spring.
    #[pyo3(signature = (path, stiffness, damping = None, timestep = None, tolerance = 0.0, walls = None, title = "scene", tangential_stiffness = None, tangential_ratio = None, tangential_damping = None))]
    #[allow(clippy::too_many_arguments)]
    fn from_dump(
        py: Python<'_>,
        path: std::path::PathBuf,
        stiffness: f64,
        damping: Option<f64>,
        timestep: Option<u64>,
        tolerance: f64,
        walls: Option<&Bound<'_, PyAny>>,
        title: &str,
        tangential_stiffness: Option<f64>,
        tangential_ratio: Option<f64>,
        tangential_damping: Option<f64>,
    ) -> PyResult<Scene> {
        let name = path
            .file_name()
            .ok_or_else(|| PyValueError::new_err("path names no file"))?
            .to_string_lossy()
            .into_owned();
        let base = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => std::path::PathBuf::from("."),
        };
        let mut law = format!("stiffness = \"{stiffness:?} N/m\"");
        if let Some(c) = damping {
            law.push_str(&format!(", damping = \"{c:?} N s/m\""));
        }
        if let Some(k) = tangential_stiffness {
            law.push_str(&format!(", tangential_stiffness = \"{k:?} N/m\""));
        }
        if let Some(r) = tangential_ratio {
            law.push_str(&format!(", tangential_ratio = {r:?}"));
        }
        if let Some(c) = tangential_damping {
            law.push_str(&format!(", tangential_damping = \"{c:?} N s/m\""));
        }
        let mut source = format!(
            "title = {}\nspace = \"3d\"\n[scene]\ndump = {}\ncontact = {{ {law} }}\ntolerance = \"{tolerance:?} m\"\n",
            toml_string(title),
            toml_string(&name)
        );
        if let Some(t) = timestep {
            source.push_str(&format!("timestep = {t}\n"));
        }
        if let Some(w) = walls {
            let list: Vec<String> = match w.extract::<String>() {
                Ok(s) => vec![s],
                Err(_) => w.extract::<Vec<String>>().map_err(|_| {
                    PyValueError::new_err(
                        "walls is \"fixed\" or a list of xlo, xhi, ylo, yhi, zlo, zhi",
                    )
                })?,
            };
            if list.len() == 1 && list[0] == "fixed" {
                source.push_str("walls = \"fixed\"\n");
            } else {
                let items: Vec<String> = list.iter().map(|s| toml_string(s)).collect();
                source.push_str(&format!("walls = [{}]\n", items.join(", ")));
            }
        }
        let access = meff::case::FileAccess::new(base, meff::case::MAX_INPUT_BYTES);
        let shown = path.display().to_string();
        let case = py
            .detach(|| meff::case::parse_case_with(&shown, &source, Some(access)))
            .map_err(|e| meff_error(py, meff::Error::Input(e)))?;
        Ok(Scene { case })
    }

    /// The coupled analysis (large-system path above 1000 contacts, as the
    /// command chooses): a dict of NumPy arrays and numbers — `m_eff`,
    /// `omega` (single-contact, per contact), `mode_omega` and, with
    /// `shapes`, `mode_shapes` (the `top` fastest modes, 1 to 100), `omega_max`,
    /// `omega_upper_bound`, `stable_dt` (2/ω_max, the explicit
    /// central-difference limit) and `large_path` (whether it was taken).
    #[pyo3(signature = (top = 6, shapes = false))]
    fn analyze<'py>(
        &self,
        py: Python<'py>,
        top: i64,
        shapes: bool,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        if !(1..=100).contains(&top) {
            return Err(PyValueError::new_err("top is from 1 to 100"));
        }
        let top = top as usize;
        let case = &self.case;
        // Ctrl-C stops the Lanczos recurrence (meff::cancel) and is raised.
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = cancel.clone();
        let an = crate::interruptible(py, &cancel, move || {
            meff::control::cancel_scope(Some(flag), || {
                // The pipeline's numeric half, as `evaluate` runs it.
                meff::analysis::analyze_numeric(
                    &meff::model::numeric(case),
                    meff::analysis::LargeModes {
                        count: top,
                        shapes,
                        path: case.analysis_path,
                    },
                )
            })
        })?
        .map_err(|e| MeffError::new_err(e.to_string()))?;
        let out = pyo3::types::PyDict::new(py);
        let m: Vec<f64> = (0..an.n_contacts())
            .map(|i| an.contact(i).m_eff.unwrap_or(f64::NAN))
            .collect();
        let w: Vec<f64> = (0..an.n_contacts()).map(|i| an.contact(i).omega).collect();
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
            let arr = if rows.is_empty() || rows.iter().any(|r| r.len() != an.n_contacts()) {
                PyArray2::zeros(py, [0, an.n_contacts()], false)
            } else {
                PyArray2::from_vec2(py, &rows)?
            };
            out.set_item("mode_shapes", arr)?;
        }
        out.set_item("omega_max", an.coupled_omega_max)?;
        out.set_item("omega_upper_bound", an.coupled_omega_upper_bound)?;
        out.set_item("stable_dt", an.stable_dt.coupled)?;
        out.set_item("large_path", an.large.is_some())?;
        // With tangential springs: every row (contact by contact, normal
        // then tangents), its contact and effective mass, the fastest modes
        // over every row and the step with them (2/ω_max over every row).
        if let Some(t) = &an.tangential {
            let rc: Vec<i64> = t.rows.iter().map(|r| r.of.contact as i64).collect();
            let rm: Vec<f64> = t.rows.iter().map(|r| r.m_eff.unwrap_or(f64::NAN)).collect();
            let rw: Vec<f64> = t.modes.iter().take(top).map(|m| m.omega).collect();
            out.set_item("row_contact", rc.into_pyarray(py))?;
            out.set_item("row_m_eff", rm.into_pyarray(py))?;
            out.set_item("row_mode_omega", rw.into_pyarray(py))?;
            out.set_item("stable_dt_tangential", t.stable_dt.coupled)?;
        }
        Ok(out)
    }

    /// The whole evaluation, as for a case file (`Result`).
    fn evaluate(&self, py: Python<'_>) -> PyResult<EvalResult> {
        crate::case::evaluate(py, self.case.clone(), false)
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

/// The scene's `damping` column: `c` entries, or none.
fn damping_of(
    py: Python<'_>,
    damping: Option<&Bound<'_, PyAny>>,
    c: usize,
) -> PyResult<Option<Vec<f64>>> {
    let damping = damping
        .map(|a| column(py, a, "damping").and_then(|v| vector(v, "damping")))
        .transpose()?;
    if damping.as_ref().is_some_and(|v| v.len() != c) {
        return Err(PyValueError::new_err(format!(
            "damping must have {c} entries"
        )));
    }
    Ok(damping)
}

/// The scene's `fixed` column: `n` booleans (0 or 1), all false by default.
fn fixed_of(py: Python<'_>, fixed: Option<&Bound<'_, PyAny>>, n: usize) -> PyResult<Vec<bool>> {
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
    Ok(fixed)
}

/// A column that must be one-dimensional.
fn vector(v: (Vec<f64>, Vec<usize>), what: &str) -> PyResult<Vec<f64>> {
    if v.1.len() == 1 {
        Ok(v.0)
    } else {
        Err(PyValueError::new_err(format!(
            "{what} must be one-dimensional, not of shape {:?}",
            v.1
        )))
    }
}
