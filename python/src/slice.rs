//! `scene_slice`: one process's part of a scene for a distributed solve
//! (`meff.mpi`), computed by `meff::analysis::slice` from
//! the part's rows alone (`meff::case::load_part`).

use crate::{MeffError, meff_error};
use numpy::IntoPyArray;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// `usize` indices as an int32 array when they fit (what Debian's PETSc
/// indexes with: no copy on the way in), else int64.
fn indices<'py>(py: Python<'py>, v: Vec<usize>) -> Bound<'py, PyAny> {
    if v.iter().all(|&x| x <= i32::MAX as usize) {
        let v: Vec<i32> = v.into_iter().map(|x| x as i32).collect();
        v.into_pyarray(py).into_any()
    } else {
        let v: Vec<i64> = v.into_iter().map(|x| x as i64).collect();
        v.into_pyarray(py).into_any()
    }
}

/// `scene_slice(path, part=0, parts=1)`: part `part` of `parts` of the
/// scene of the case file at `path`, split by body range (bodies
/// `n·part/parts … n·(part+1)/parts − 1`). A dict of NumPy arrays and
/// numbers: `bodies` (start, stop), `velocities` (per body: 6 in 3-d, 3
/// planar), `n_bodies`, `n_contacts`, `title`, `bodies_read` (the part's
/// bodies and the others its contacts touch), `read_alone` (True when only
/// the part's rows were read: an NPZ scene; a CSV or dump scene is read
/// whole and cut); the contacts owned (those whose `body` is owned) as
/// `contacts` (global indices; these and the CSR's indices are int32
/// when every one fits, else int64) with their whitened rows J̃ = J L⁻ᵀ
/// (M = L Lᵀ; S = K^½ J̃ J̃ᵀ K^½) in CSR form — `row_start`, `column`
/// (global: body b's velocities are columns `velocities·b + k`), `value`
/// — their `stiffness` (N/m) and `a` (A_ii = |J̃_i|², 1/kg).
///
/// `max_input_bytes` (default 1 GiB) bounds the case file, the bytes a
/// part keeps and the bytes decompressed from compressed arrays, as
/// `meff eval --max-input-bytes` does for the whole scene.
///
/// The case must have a `[scene]` without tangential springs. A bad case
/// raises `InputError` located as `meff eval` locates it (the whole
/// scene's row), for the rows this part reads.
#[pyfunction]
#[pyo3(signature = (path, part = 0, parts = 1, max_input_bytes = meff::case::MAX_INPUT_BYTES))]
pub(crate) fn scene_slice<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    part: usize,
    parts: usize,
    max_input_bytes: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let Some(request) = meff::case::scene::part::PartRequest::new(part, parts) else {
        return Err(PyValueError::new_err(format!(
            "part {part} of {parts}: part is from 0 to parts - 1"
        )));
    };
    if !path.is_file() {
        return Err(MeffError::new_err(format!(
            "{}: no such file",
            path.display()
        )));
    }
    let result = py.detach(|| {
        let case =
            meff::case::load_part(&path, max_input_bytes, request).map_err(meff::Error::from)?;
        Ok::<_, meff::Error>(
            meff::analysis::slice::scene_slice(&case, request)
                .map(|s| (s, case.title.clone()))
                .map_err(|e| format!("{}: {e}", path.display())),
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
    out.set_item("bodies_read", s.bodies_read)?;
    out.set_item("read_alone", s.read_alone)?;
    out.set_item("contacts", indices(py, s.contacts))?;
    out.set_item("row_start", indices(py, s.row_start))?;
    out.set_item("column", indices(py, s.column))?;
    out.set_item("value", s.value.into_pyarray(py))?;
    out.set_item("stiffness", s.stiffness.into_pyarray(py))?;
    out.set_item("a", s.a.into_pyarray(py))?;
    Ok(out)
}
