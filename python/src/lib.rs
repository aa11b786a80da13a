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
//! - `scene_slice(path, part, parts)`: one process's whitened rows of J
//!   of a scene, read by itself, for the distributed solve of `meff.mpi`.
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
mod slice;

use case::{Case, EvalResult, load};
use robot::Robot;
use scene::Scene;

create_exception!(meff, MeffError, PyException, "An error meff reports.");
create_exception!(
    meff,
    InputError,
    MeffError,
    "Bad input: `file`, `line`, `column` (1-based) and `message` say where and what."
);
create_exception!(
    meff,
    BudgetError,
    MeffError,
    "The work asked for is beyond one of meff's limits: `limit` is the limit, `requested` what was asked (when they are numbers)."
);

/// A `BudgetError` with its numbers.
pub(crate) fn budget_error(
    py: Python<'_>,
    message: String,
    requested: usize,
    limit: usize,
) -> PyErr {
    let err = BudgetError::new_err(message);
    let value = err.value(py);
    let _ = value.setattr("requested", requested);
    let _ = value.setattr("limit", limit);
    err
}

/// Runs `work` on a helper thread with the GIL released, checking for
/// Ctrl-C while it runs: a `KeyboardInterrupt` sets `cancel` (the
/// library's loops look at it), waits for the work to stop, and is raised.
/// The result arrives as soon as the work ends (no polling delay).
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    cancel: &std::sync::Arc<std::sync::atomic::AtomicBool>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    use std::sync::mpsc;
    use std::time::Duration;
    py.detach(|| {
        std::thread::scope(|s| {
            let (tx, rx) = mpsc::channel();
            // A main thread's stack: the command line runs the same work there.
            let worker = std::thread::Builder::new()
                .stack_size(8 << 20)
                .spawn_scoped(s, move || {
                    let _ = tx.send(work());
                })
                .map_err(|e| MeffError::new_err(format!("cannot start a thread: {e}")))?;
            let mut interrupted = None;
            loop {
                match rx.recv_timeout(Duration::from_millis(50)) {
                    Ok(result) => {
                        let _ = worker.join();
                        return match interrupted {
                            Some(e) => Err(e),
                            None => Ok(result),
                        };
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if interrupted.is_none()
                            && let Err(e) = Python::attach(|py| py.check_signals())
                        {
                            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
                            interrupted = Some(e);
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        // The work panicked: its message as an error, not a crash.
                        let why = worker.join().err().and_then(|e| {
                            e.downcast_ref::<String>()
                                .cloned()
                                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                        });
                        return Err(interrupted.unwrap_or_else(|| {
                            MeffError::new_err(format!(
                                "internal error: {}",
                                why.unwrap_or_else(|| "the evaluation stopped".into())
                            ))
                        }));
                    }
                }
            }
        })
    })
}

/// The library's advice is written for the command line; in Python the
/// same advice names Python's calls. One table, applied to every message
/// this module raises.
const PYTHON_TERMS: &[(&str, &str)] = &[
    (
        "(raise it with --max-input-bytes)",
        "(meff.load keeps to it; the command line's --max-input-bytes raises it)",
    ),
    (
        "run meff on the case file (or on `-` from the directory the path starts from)",
        "give meff.load the case file's path rather than its text, so that the files it names are found beside it",
    ),
    (
        "run meff on the case file (or on `-` from the directory the paths start from)",
        "give meff.load the case file's path rather than its text, so that the files it names are found beside it",
    ),
    ("; --max-input-bytes)", ")"),
];

/// `text` with the command line's advice in Python's terms.
pub(crate) fn python_terms(text: &str) -> String {
    PYTHON_TERMS
        .iter()
        .fold(text.to_string(), |t, (cli, py)| t.replace(cli, py))
}

/// Columns handed over as arrays have no file: their errors name the
/// column and say no `<arrays>:1:1`.
pub(crate) const ARRAYS: &str = "<arrays>";

pub(crate) fn input_error(py: Python<'_>, e: &meff::diag::SourceError) -> PyErr {
    let first = e.diagnostics.first();
    let (line, col) = first.map_or((0, 0), |d| meff::diag::line_col(&e.source, d.span.start));
    let message = python_terms(&first.map_or_else(|| e.to_string(), |d| d.message.clone()));
    let arrays = e.path == ARRAYS;
    let text = if arrays {
        // The message and its hints, without a source frame.
        e.diagnostics
            .iter()
            .map(|d| {
                let mut t = python_terms(&d.message);
                for h in &d.hints {
                    t.push_str(&format!(" ({})", python_terms(h)));
                }
                t
            })
            .collect::<Vec<_>>()
            .join("; ")
    } else {
        python_terms(&e.to_string())
    };
    let err = InputError::new_err(text);
    let value = err.value(py);
    if arrays {
        let _ = value.setattr("file", py.None());
        let _ = value.setattr("line", py.None());
        let _ = value.setattr("column", py.None());
    } else {
        let _ = value.setattr("file", e.path.clone());
        let _ = value.setattr("line", line);
        let _ = value.setattr("column", col);
    }
    let _ = value.setattr("message", message);
    err
}

pub(crate) fn meff_error(py: Python<'_>, e: meff::Error) -> PyErr {
    match &e {
        meff::Error::Input(s) => input_error(py, s),
        meff::Error::Analysis {
            error: meff::analysis::AnalysisError::TooLarge { contacts, .. },
            ..
        } => budget_error(
            py,
            e.to_string(),
            *contacts,
            meff::analysis::DENSE_CONTACT_LIMIT,
        ),
        meff::Error::Cancelled => pyo3::exceptions::PyKeyboardInterrupt::new_err(e.to_string()),
        _ => MeffError::new_err(python_terms(&e.to_string())),
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
    m.add_function(wrap_pyfunction!(slice::scene_slice, m)?)?;
    m.add_class::<Case>()?;
    m.add_class::<EvalResult>()?;
    m.add_class::<Robot>()?;
    m.add_class::<Scene>()?;
    m.add("MeffError", m.py().get_type::<MeffError>())?;
    m.add("InputError", m.py().get_type::<InputError>())?;
    m.add("BudgetError", m.py().get_type::<BudgetError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
