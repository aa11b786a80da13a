//! The pipeline: one validated case through model, assembly, analysis,
//! symbolic derivation, claims, verification, engines and report data
//! ([`evaluate_with`]), with what the caller chooses ([`Options`]) and why
//! it stops ([`Error`]). The crate root re-exports these as `meff::evaluate`,
//! `meff::Options`, …

mod near;
mod scene;
pub use scene::COLUMNS_ABOVE;

use crate::control;
use crate::{
    analysis, case, checks, claims, diag, engines, model, number, report, symbolic, timing,
    tolerance, verify,
};

/// Errors that stop meff before any analysis: the input could not be read.
#[derive(Debug)]
pub enum Error {
    /// A file could not be read.
    Io {
        /// Path as given.
        path: String,
        /// What the operating system said.
        message: String,
    },
    /// The case file has problems (each with a span).
    Input(diag::SourceError),
    /// The case is valid but cannot be analysed.
    Analysis {
        /// Case path.
        path: String,
        /// Why.
        error: analysis::AnalysisError,
    },
    /// The caller set [`Options::cancel`].
    Cancelled,
}

impl From<diag::ReadError> for Error {
    fn from(e: diag::ReadError) -> Self {
        match e {
            diag::ReadError::Io { path, message } => Error::Io { path, message },
            diag::ReadError::Input(e) => Error::Input(e),
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Io { path, message } => write!(f, "cannot read {path}: {message}"),
            Error::Input(e) => e.fmt(f),
            Error::Analysis { path, error } => write!(f, "{path}: {error}"),
            Error::Cancelled => write!(f, "the evaluation was cancelled"),
        }
    }
}

impl std::error::Error for Error {}

/// A case taken through the whole pipeline.
#[derive(Clone, Debug)]
pub struct Evaluated {
    /// The validated case.
    pub case: case::Case,
    /// Its model at the case's values (empty for a large scene on the
    /// columnar route, [`COLUMNS_ABOVE`]: its bodies and contacts are the
    /// case's scene columns).
    pub model: model::Model<f64>,
    /// The assembled system (on the large-system path without its contact
    /// Jacobian rows: `analysis.coupled` holds what they give; empty on the
    /// columnar route of a large scene).
    pub system: model::System<f64>,
    /// The numeric analysis.
    pub analysis: analysis::Analysis,
    /// The symbolic derivation, or why there is none.
    pub derivation: Result<symbolic::Derivation, symbolic::Unsupported>,
    /// Claim results.
    pub claims: Vec<claims::ClaimResult>,
    /// The time-domain verification, when it was run.
    pub verification: Option<verify::Verification>,
    /// The report data.
    pub report: report::Report,
}

/// What to run beyond the analysis.
#[derive(Clone, Default)]
pub struct Options<'a> {
    /// Run the time-domain verification.
    pub verify: bool,
    /// Called with a stage name and the fraction done.
    pub progress: Option<verify::Progress<'a>>,
    /// List every generalized velocity in the report even on the
    /// large-system path (`model.dofs`; always listed below it).
    pub list_dofs: bool,
    /// Which contacts the report lists one by one; `None`: the default for
    /// the path taken (every contact on the dense path, the
    /// [`DEFAULT_WORST`](report::ContactSelection::DEFAULT_WORST) fastest on
    /// the large-system path).
    pub contacts: Option<report::ContactSelection>,
    /// Significant figures of the numbers in claim messages; `None`: the
    /// reports' default, [`number::DEFAULT_DIGITS`].
    pub digits: Option<usize>,
    /// Set by the caller to stop the evaluation (the Python package's
    /// Ctrl-C): checked between stages, at every simulation step of the
    /// verification, before every point of a sweep and at every step of
    /// the large path's Lanczos recurrence ([`crate::control`]); the evaluation
    /// then returns [`Error::Cancelled`].
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// Runs the pipeline on a validated case: model → assembly → analysis →
/// symbolic derivation → claims → report data (no verification).
pub fn evaluate(case: case::Case) -> Result<Evaluated, Error> {
    evaluate_with(case, Options::default())
}

/// An analysis failure; one caused by a contact's values is shown at that
/// contact's table in the file.
fn analysis_error(case: &case::Case, error: analysis::AnalysisError) -> Error {
    if let analysis::AnalysisError::OutOfRange { contact, what } = &error
        && let Some(c) = case.contacts.get(*contact)
    {
        return Error::Input(diag::SourceError {
            path: case.path.clone(),
            source: case.source.clone(),
            diagnostics: vec![
                diag::Diagnostic::new(
                    c.span.start..c.span.start,
                    format!(
                        "contact `{}`: {what}: the values are outside what 64-bit floating point represents",
                        c.name
                    ),
                )
                .hint("check the magnitudes and units of the masses, inertias, lever arms and normals this contact involves"),
            ],
        });
    }
    Error::Analysis {
        path: case.path.clone(),
        error,
    }
}

/// The one check that results computed from the inputs' magnitudes are
/// representable: an impact or `[[person]]` result that overflowed (an
/// infinite peak force) is an error at the input value it came from, not
/// a printed ∞ (the dense analysis' own ω and ζ are checked where they
/// are formed: `AnalysisError::OutOfRange`).
fn out_of_range(
    case: &case::Case,
    an: &analysis::Analysis,
    report: &report::Report,
) -> Result<(), Error> {
    let located = |span: std::ops::Range<usize>, message: String, hint: &str| {
        Err(Error::Input(diag::SourceError {
            path: case.path.clone(),
            source: case.source.clone(),
            diagnostics: vec![diag::Diagnostic::new(span, message).hint(hint.to_string())],
        }))
    };
    for (imp, r) in case.impacts.iter().zip(&an.impacts) {
        if let Err(analysis::impact::ImpactError::Overflow(what)) = &r.response {
            return located(
                imp.speed.span.clone(),
                format!(
                    "impact `{}`: {what} is outside what 64-bit floating point represents",
                    imp.name
                ),
                "check the magnitudes and units of the speed (or drop), the stiffnesses, dashpots and masses of the contacts involved",
            );
        }
    }
    for (p, r) in case.persons.iter().zip(&report.persons) {
        let bad = [&r.exact, &r.rule_of_thumb]
            .into_iter()
            .flatten()
            .find_map(|t| {
                [
                    ("the reduced mass", Some(t.reduced_mass)),
                    ("ω", Some(t.omega)),
                    ("the duration", Some(t.duration)),
                    ("the peak force", t.peak_force),
                    ("the largest speed", t.max_speed),
                ]
                .into_iter()
                .find(|(_, x)| x.is_some_and(f64::is_infinite))
            });
        if let Some((what, _)) = bad {
            // At the largest of the person's values: the one that overflows.
            let vals = [
                Some(&p.mass),
                Some(&p.stiffness),
                p.speed.as_ref(),
                p.force_limit.as_ref(),
            ];
            let at = vals
                .into_iter()
                .flatten()
                .max_by(|a, b| a.si.abs().total_cmp(&b.si.abs()))
                .map_or(0..0, |v| v.span.clone());
            return located(
                at,
                format!(
                    "`[[person]]` at contact `{}`: {what} is outside what 64-bit floating point represents",
                    r.contact
                ),
                "check the magnitudes and units of the region's mass, stiffness, speed and force limit",
            );
        }
    }
    Ok(())
}

/// The case's sweeps, each with its band over the tolerances.
fn sweeps(case: &case::Case) -> Vec<analysis::sweep::SweepResult> {
    let mut sweeps: Vec<_> = case
        .sweeps
        .iter()
        .map(|s| analysis::sweep::run(case, s))
        .collect();
    tolerance::bands(case, &mut sweeps);
    sweeps
}

/// Runs the pipeline with options (verification, progress).
pub fn evaluate_with(case: case::Case, options: Options) -> Result<Evaluated, Error> {
    // One work allowance for the impacts at the case point, the sweep
    // points and the claim probes (analysis::work).
    // The caller's stop flag and the work allowance, for every stage
    // (restored when the evaluation ends, by a return or a panic).
    let _stop = control::stop_on(options.cancel.clone());
    let _work = control::allow(control::CASE_WORK);
    // A large scene: straight from its columns (pipeline/scene.rs; it has
    // no engine springs to fill).
    if scene::takes_columns(&case, &options) {
        return scene::evaluate(case, options);
    }
    evaluate_scoped(case, options)
}

/// [`evaluate_with`] on the model path whatever the case: a large scene
/// is not routed to its columns ([`COLUMNS_ABOVE`]). For the tests and
/// benchmarks that compare the two routes.
#[doc(hidden)]
pub fn evaluate_on_model_path(case: case::Case, options: Options) -> Result<Evaluated, Error> {
    let _stop = control::stop_on(options.cancel.clone());
    let _work = control::allow(control::CASE_WORK);
    evaluate_scoped(case, options)
}

fn evaluate_scoped(case: case::Case, options: Options) -> Result<Evaluated, Error> {
    let stage = || {
        if control::cancelled() {
            Err(Error::Cancelled)
        } else {
            Ok(())
        }
    };
    timing::mark("read");
    // Contacts without a stiffness take their engine's spring.
    let mut case = engines::fill_from_engine(case).map_err(Error::Input)?;
    let model = model::numeric(&case);
    let large = analysis::takes_large_path(&model, case.analysis_path);
    // A large scene's columns are copied into the model; without sweeps
    // (which rebuild models from the case) they are not read again.
    if large
        && case.sweeps.is_empty()
        && let Some(scene) = case.scene.as_mut()
    {
        scene.data.release_geometry();
    }
    timing::mark("model");
    stage()?;
    // Large systems keep no per-contact Jacobian rows (see analyze_model).
    let system = analysis::system_for(&model, large);
    timing::mark("assemble");
    stage()?;
    let selection = options
        .contacts
        .unwrap_or_else(|| report::ContactSelection::default_for(large));
    let analysis = analysis::analyze_model(
        &model,
        &system,
        analysis::LargeModes {
            count: case.large_modes.unwrap_or(analysis::LARGE_MODES),
            // Shapes are listed at the selected contacts only.
            shapes: selection != report::ContactSelection::None,
            path: case.analysis_path,
        },
    )
    .and_then(|an| analysis::hertz_contacts::with_impact_peaks(&case.hertz_laws(), &model, an))
    .map_err(|error| analysis_error(&case, error))?;
    // All symbolic work of one case draws on one allowance.
    let (derivation, verdicts, sensitivities) =
        symbolic::poly::case_budget(symbolic::CASE_WORK_BUDGET, || {
            let derivation = symbolic::derive(&case, &system);
            let verdicts: Vec<_> = case
                .claims
                .iter()
                .map(|c| {
                    derivation
                        .as_ref()
                        .ok()
                        .and_then(|d| claims::claim_verdict(d, c))
                })
                .collect();
            let sensitivities = derivation
                .as_ref()
                .map_or_else(|_| Vec::new(), |d| symbolic::sensitivities(&case, d));
            (derivation, verdicts, sensitivities)
        });
    timing::mark("analysis");
    stage()?;
    let claims = claims::check(
        &case,
        &analysis,
        &verdicts,
        options.digits.unwrap_or(number::DEFAULT_DIGITS),
    );
    // The simulations are for systems a person reads contact by contact.
    let verification = (options.verify && analysis.large.is_none()).then(|| {
        let progress = options.progress.unwrap_or(&|_: &str, _: f64| {});
        verify::verify(&case, &model, &analysis, progress)
    });
    // The robot section and the persons: physics, done here, not by the
    // report.
    let analysis::robot::CaseResults {
        robot,
        persons,
        system: robot_system,
    } = analysis::robot::case_results(&case, &analysis);
    let mut report = report::build(
        &case,
        report::Results {
            robot,
            persons,
            robot_system: robot_system.as_ref(),
            analysis: &analysis,
            claims: &claims,
            system: &system,
            list_dofs: options.list_dofs,
            selection,
            derivation: derivation.as_ref(),
            sensitivities,
            sweeps: sweeps(&case),
        },
    );
    let exact = derivation
        .as_ref()
        .ok()
        .map(|_| report.symbolic.sensitivities.as_slice());
    report.set_tolerances(tolerance::bound(&case, &analysis, exact));
    near::closed_step(&case, &mut report);
    report.program = analysis::program::analyze(&case);
    report.map = analysis::workspace::analyze(&case);
    stage()?;
    out_of_range(&case, &analysis, &report)?;
    report.verification = verification.clone();
    if !case.engines.is_empty()
        && let Some(inputs) = engines::inputs(&case, &model, &system, &analysis)
    {
        report.engines = engines::analyze(&case, &inputs).map_err(|(engine, message)| {
            let span = case
                .engines
                .spans
                .iter()
                .find(|(n, _)| *n == engine)
                .map_or(0..0, |(_, s)| s.start..s.start);
            Error::Input(diag::SourceError {
                path: case.path.clone(),
                source: case.source.clone(),
                diagnostics: vec![
                    diag::Diagnostic::new(span, format!("`[engine.{engine}]`: {message}"))
                        .hint("check the magnitudes and units of the engine's settings"),
                ],
            })
        })?;
    }
    let mut checks = checks::run(&case, &model, &analysis);
    if checks::description::any_stated(&case) {
        let known = checks::known::known(&case, &model, serde_json::to_value(&report).ok());
        checks::description::check(&case, &known, &mut checks);
    }
    report.set_checks(checks);
    report.set_changes(case.previous.as_ref());
    timing::mark("report");
    stage()?;
    Ok(Evaluated {
        case,
        model,
        system,
        analysis,
        derivation,
        claims,
        verification,
        report,
    })
}
