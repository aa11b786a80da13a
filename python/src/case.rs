//! Cases: `load`, `Case.evaluate`, `Result`.

use crate::{MeffError, budget_error, interruptible, meff_error};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::Arc;

/// The most contacts whose A is formed densely from the large-system
/// path's sparse S (c² numbers).
const MAX_DENSE_A: usize = 4096;

/// A validated case.
#[pyclass(module = "meff", frozen)]
pub(crate) struct Case {
    pub(crate) case: meff::case::Case,
}

/// `meff.load(path_or_toml_text)`: a case from a file (a `str` without a
/// newline or `=`, or any `os.PathLike`), or from TOML text.
#[pyfunction]
pub(crate) fn load(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Case> {
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
        (None, Some(p)) => meff::case::load(p).map_err(meff::Error::from),
        (None, None) => unreachable!("a path or a text"),
    });
    case.map(|case| Case { case })
        .map_err(|e| meff_error(py, e))
}

/// The pipeline on `case`, interruptible by Ctrl-C.
pub(crate) fn evaluate(
    py: Python<'_>,
    case: meff::case::Case,
    verify: bool,
) -> PyResult<EvalResult> {
    let cancel = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = cancel.clone();
    interruptible(py, &cancel, move || {
        let options = meff::Options {
            verify,
            cancel: Some(flag),
            ..Default::default()
        };
        meff::evaluate_with(case, options)
    })?
    .map(|ev| EvalResult { ev: Arc::new(ev) })
    .map_err(|e| meff_error(py, e))
}

/// Python's `Result.report(digits = 4)` default is the library's.
const _: () = assert!(meff::number::DEFAULT_DIGITS == 4);

#[pymethods]
impl Case {
    /// Runs the analysis (and the time-domain verification when `verify`).
    /// `engine`: also translate the contacts for this engine (`"mujoco"`,
    /// `"box2d"`, `"bullet"`, `"drake"`, `"rapier"`) with its defaults when
    /// the case has no `[engine.NAME]` table (`Result.json["engines"]`).
    /// Ctrl-C stops it (`KeyboardInterrupt`).
    #[pyo3(signature = (verify = false, engine = None))]
    fn evaluate(&self, py: Python<'_>, verify: bool, engine: Option<&str>) -> PyResult<EvalResult> {
        let mut case = self.case.clone();
        if let Some(name) = engine {
            let Some(engine) = meff::case::Engine::parse(name) else {
                return Err(PyValueError::new_err(format!(
                    "unknown engine {name:?}: one of {}",
                    meff::case::ENGINE_NAMES.join(", ")
                )));
            };
            case.engines.ensure(engine).map_err(PyValueError::new_err)?;
        }
        evaluate(py, case, verify)
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
pub(crate) struct EvalResult {
    pub(crate) ev: Arc<meff::Evaluated>,
}

#[pymethods]
impl EvalResult {
    /// The JSON document of `meff eval --json`, as a dict.
    #[getter]
    fn json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = meff::render::json(&self.ev.report);
        py.import("json")?.call_method1("loads", (text,))
    }

    /// Results bounded over the inputs' tolerances (`"2 kg ± 5 %"` in
    /// `[parameters]`), a dict by result id (`m_eff(c)`, `omega(c)`,
    /// `omega_max`, `dt_to_use`, `dt_guaranteed`, `peak_force(impact)`,
    /// `max_speed(contact, region)`) of dicts with `nominal`, `lo`, `hi`
    /// (exact, over the points searched), `first_order_lo`,
    /// `first_order_hi`, `driver`, `notes`…; `None` without tolerances.
    #[getter]
    fn tolerances<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let Some(t) = &self.ev.report.tolerances else {
            return Ok(py.None().into_bound(py));
        };
        let by_id: std::collections::BTreeMap<&str, &meff::tolerance::Bound> =
            t.results.iter().map(|b| (b.id.as_str(), b)).collect();
        let text = serde_json::to_string(&by_id)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        py.import("json")?.call_method1("loads", (text,))
    }

    /// m_eff per contact over the tolerances: one row `[lo, hi]` (kg) per
    /// contact, NaN where it is not bounded (no tolerance, an immobile
    /// contact, beyond the first 16 contacts).
    #[getter]
    fn m_eff_interval<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let ev = &self.ev;
        let rows: Vec<Vec<f64>> = (0..ev.analysis.n_contacts())
            .map(|i| {
                let id = format!("m_eff({})", ev.case.contact_name(i));
                ev.report
                    .tolerances
                    .as_ref()
                    .and_then(|t| t.results.iter().find(|b| b.id == id))
                    .map_or(vec![f64::NAN, f64::NAN], |b| vec![b.lo, b.hi])
            })
            .collect();
        if rows.is_empty() {
            return Ok(PyArray2::zeros(py, [0, 2], false));
        }
        Ok(PyArray2::from_vec2(py, &rows)?)
    }

    /// m_eff per contact (kg; NaN for an immobile contact).
    #[getter]
    fn m_eff<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        let an = &self.ev.analysis;
        (0..an.n_contacts())
            .map(|i| an.contact(i).m_eff.unwrap_or(f64::NAN))
            .collect::<Vec<_>>()
            .into_pyarray(py)
    }

    /// The Delassus matrix A (1/kg), contacts × contacts.
    #[getter]
    fn delassus<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let an = &self.ev.analysis;
        let c = an.n_contacts();
        if an.coupled.is_some() && c > MAX_DENSE_A {
            return Err(budget_error(
                py,
                format!(
                    "A ({c} × {c}) is not formed on the large-system path: at most {MAX_DENSE_A} contacts (mode_omega and mode_shapes hold its fastest modes)"
                ),
                c,
                MAX_DENSE_A,
            ));
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
                [0, self.ev.analysis.n_contacts()],
                false,
            ));
        }
        Ok(PyArray2::from_vec2(py, &rows)?)
    }

    /// The report: `"html"` or `"md"` as text, `"json"`, or `"pdf"` as
    /// bytes (when the package was built with the typesetter).
    // `digits = 4` is written out so that Python's signature shows it; it
    // is `meff::number::DEFAULT_DIGITS` (checked where it is compiled).
    #[pyo3(signature = (format = "html", digits = 4))]
    fn report<'py>(
        &self,
        py: Python<'py>,
        format: &str,
        digits: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        if !(1..=17).contains(&digits) {
            return Err(PyValueError::new_err(format!(
                "digits is from 1 to 17 (significant figures), not {digits}"
            )));
        }
        let digits = digits as usize;
        let ev = self.ev.clone();
        let t = meff::render::templates::Templates::load(None)
            .map_err(|e| MeffError::new_err(e.to_string()))?;
        let Some(format) = meff::render::Format::parse(format) else {
            return Err(PyValueError::new_err(format!(
                "unknown format {format:?}: \"html\", \"md\", \"json\" or \"pdf\""
            )));
        };
        let text = match format {
            meff::render::Format::Html => py.detach(|| t.report_html(&ev.report, digits)),
            meff::render::Format::Md => py.detach(|| t.report_md(&ev.report, digits)),
            meff::render::Format::Json => Ok(meff::render::json(&ev.report)),
            meff::render::Format::Pdf => return pdf(py, &t, &ev.report, digits),
        }
        .map_err(|e| MeffError::new_err(e.to_string()))?;
        Ok(text.into_pyobject(py)?.into_any())
    }

    /// The HTML report, for Jupyter (self-contained, no JavaScript).
    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        let ev = self.ev.clone();
        let t = meff::render::templates::Templates::load(None)
            .map_err(|e| MeffError::new_err(e.to_string()))?;
        py.detach(|| t.report_html(&ev.report, meff::number::DEFAULT_DIGITS))
            .map_err(|e| MeffError::new_err(e.to_string()))
    }

    fn __repr__(&self) -> String {
        format!(
            "<meff.Result {:?}: {} contacts, ω_max = {:.4} rad/s>",
            self.ev.report.title,
            self.ev.analysis.n_contacts(),
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
