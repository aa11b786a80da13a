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

use numpy::PyReadonlyArrayDyn;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;

mod case;
mod mujoco;
mod robot;
mod scene;

use case::{Case, EvalResult, load};
use robot::Robot;
use scene::Scene;

create_exception!(_meff, MeffError, PyException, "An error meff reports.");
create_exception!(
    _meff,
    InputError,
    MeffError,
    "Bad input: `file`, `line`, `column` (1-based) and `message` say where and what."
);

pub(crate) fn input_error(py: Python<'_>, e: &meff::diag::SourceError) -> PyErr {
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

pub(crate) fn meff_error(py: Python<'_>, e: meff::Error) -> PyErr {
    match &e {
        meff::Error::Input(s) => input_error(py, s),
        _ => MeffError::new_err(e.to_string()),
    }
}

/// Any array-like as a float64 array (no copy when it already is one).
pub(crate) fn floats<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
) -> PyResult<PyReadonlyArrayDyn<'py, f64>> {
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
