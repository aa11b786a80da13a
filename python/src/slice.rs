//! `scene_slice`: one process's part of a scene for a distributed solve
//! (`meff.mpi`), computed by `meff::model::slice`.

use crate::{MeffError, meff_error};
use numpy::{IntoPyArray, PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// `usize` indices as an int64 array (what NumPy and PETSc index with).
fn indices<'py>(py: Python<'py>, v: Vec<usize>) -> Bound<'py, PyArray1<i64>> {
    v.into_iter()
        .map(|x| x as i64)
        .collect::<Vec<_>>()
        .into_pyarray(py)
}

/// `scene_slice(path, part=0, parts=1)`: part `part` of `parts` of the
/// scene of the case file at `path`, split by body range (bodies
/// `n·part/parts … n·(part+1)/parts − 1`). A dict of NumPy arrays and
/// numbers: `bodies` (start, stop), `velocities` (per body: 6 in 3-d, 3
/// planar), `n_bodies`, `n_contacts`, `title`; the contacts owned (those
/// whose `body` is owned) as `contacts` (global indices) with their rows
/// of J in CSR form — `row_start`, `column` (global: body b's velocities
/// are columns `velocities·b + k`), `value` — their `stiffness` (N/m) and
/// `a` (A_ii, 1/kg); `inverse_mass`, shape (owned bodies, velocities,
/// velocities), M⁻¹ of each owned body (zero for a fixed one).
///
/// The case must have a `[scene]`. Today the whole scene is read and the
/// part kept (docs/mpi.md says what that costs).
#[pyfunction]
#[pyo3(signature = (path, part = 0, parts = 1))]
pub(crate) fn scene_slice<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    part: usize,
    parts: usize,
) -> PyResult<Bound<'py, PyDict>> {
    if parts == 0 || part >= parts {
        return Err(PyValueError::new_err(format!(
            "part {part} of {parts}: part is from 0 to parts - 1"
        )));
    }
    if !path.is_file() {
        return Err(MeffError::new_err(format!(
            "{}: no such file",
            path.display()
        )));
    }
    let result = py.detach(|| {
        let case = meff::case::load(&path).map_err(meff::Error::from)?;
        let Some(scene) = &case.scene else {
            return Ok(Err(format!(
                "{}: the case has no [scene]; meff.mpi works on scenes (docs/case-format.md)",
                path.display()
            )));
        };
        let bodies = meff::model::slice::body_range(scene.data.n_bodies(), part, parts);
        Ok::<_, meff::Error>(
            meff::model::slice::scene_slice(&scene.data, case.space, bodies)
                .map(|s| (s, case.title.clone()))
                .map_err(|e| e.to_string()),
        )
    });
    let (s, title) = result
        .map_err(|e| meff_error(py, e))?
        .map_err(MeffError::new_err)?;
    let out = PyDict::new(py);
    out.set_item("title", title)?;
    out.set_item("bodies", (s.bodies.start, s.bodies.end))?;
    out.set_item("velocities", s.size)?;
    out.set_item("n_bodies", s.n_bodies)?;
    out.set_item("n_contacts", s.n_contacts)?;
    out.set_item("contacts", indices(py, s.contacts))?;
    out.set_item("row_start", indices(py, s.row_start))?;
    out.set_item("column", indices(py, s.column))?;
    out.set_item("value", s.value.into_pyarray(py))?;
    out.set_item("stiffness", s.stiffness.into_pyarray(py))?;
    out.set_item("a", s.a.into_pyarray(py))?;
    let owned = s.bodies.len();
    let m = s
        .inverse_mass
        .into_pyarray(py)
        .reshape([owned, s.size, s.size])?;
    out.set_item("inverse_mass", m)?;
    Ok(out)
}
