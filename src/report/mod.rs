//! Report data: the results of one case as a serializable document.
//!
//! Input: a [`Case`], its [`Analysis`] and claim results. Output: a
//! [`Report`] whose serde form *is* the JSON output of docs/json.md (keys fixed;
//! all values SI; `null` for what does not exist, such as the effective mass
//! of an immobile contact). Renderers format it; they compute nothing.

use crate::analysis::{Analysis, DampedMode, Mode};
use crate::case::Case;
use crate::claims::ClaimResult;
use serde::Serialize;

mod changes;
pub mod claims;
mod symbolic;
mod tolerance;
pub use changes::Changes;
pub use symbolic::SymbolicReport;
use symbolic::{form, symbolic_report};
pub mod definition;
pub mod hertz_state;
mod histogram;
pub mod impact;
pub mod near;
pub mod selection;
pub mod sketch;
mod stable;
pub use stable::{DampedModeReport, ModeReport, StableDtReport, step_excess};
pub mod tangential;
pub mod value;
pub use histogram::{Histogram, histogram};

pub use claims::{ClaimReport, ParameterValue, impact_symbol};
pub use selection::{ContactSelection, fastest_by};

/// Contacts whose spring is their engine's (no `stiffness` in the case).
#[derive(Clone, Debug, Serialize)]
pub struct StiffnessFromEngine {
    /// The engine (serialised as its key: `mujoco`, `box2d`, …).
    pub engine: crate::case::Engine,
    /// Its name for people.
    pub name: &'static str,
    /// The contacts whose stiffness is the engine's.
    pub contacts: Vec<String>,
}

/// One case's results.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Case title.
    pub title: String,
    /// `[document]`: the title block (project, number, revision, date,
    /// prepared, checked, approved, references), as typed; `null` fields
    /// are not given.
    pub document: crate::case::Document,
    /// The model as the case defines it (values as typed and in SI,
    /// descriptions); `null` for a scene or above 200 bodies or contacts.
    pub definition: Option<definition::Definition>,
    /// A `[scene]` case's files (CSV bodies and contacts, NPZ, dump) as
    /// named in the case, each with its SHA-256; empty for other cases.
    pub scene_files: Vec<definition::SceneFile>,
    /// The geometry of the model sketch (drawn into the sheets, not part
    /// of the JSON report).
    #[serde(skip)]
    pub sketch: Option<sketch::Sketch>,
    /// Markdown description.
    pub description: String,
    /// Model checks: inputs that look implausible (at most
    /// `checks::MAX_WARNINGS`), each naming the input and its location.
    /// The numbers are unaffected; the signer decides.
    pub model_checks: Vec<crate::checks::ModelCheck>,
    /// Warnings found, listed or not.
    pub model_checks_found: usize,
    /// `line`, `planar`, `3d` or `generalized`.
    pub space: String,
    /// Number of generalized velocities.
    pub dofs: usize,
    /// Display units for the Markdown and HTML reports (values here are SI).
    pub display: crate::case::Display,
    /// SHA-256 of the case file's bytes (identifies the input of a report).
    pub case_sha256: String,
    /// The parameters as typed, with their SI values.
    pub inputs: Vec<InputReport>,
    /// A scene's `[scene]` settings as typed, with their SI values and
    /// where they are written; absent from the JSON for other cases.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scene_inputs: Vec<SceneInputReport>,
    /// Per contact: every contact, or the selection `contacts_selection`
    /// names (`--contacts`).
    pub contacts: Vec<ContactReport>,
    /// Number of contacts in the case (whatever `contacts` lists).
    pub contacts_total: usize,
    /// Contacts that gave no stiffness and took their engine's spring (and
    /// dashpot, where they gave none); `null` when every contact gave its
    /// own.
    pub stiffness_from_engine: Option<StiffnessFromEngine>,
    /// Which contacts `contacts` lists: `all`, `none` or `worst:N` (the N
    /// with the highest independent ω, fastest first).
    pub contacts_selection: String,
    /// The Delassus matrix.
    pub delassus: DelassusReport,
    /// Nonzero coupled modes, fastest first.
    pub modes: Vec<ModeReport>,
    /// Number of zero modes; `null` when the rank was not computed (large
    /// systems).
    pub zero_modes: Option<usize>,
    /// The large-system path: how the modes were found, and distributions
    /// instead of matrices. `null` for ordinary systems.
    pub large: Option<LargeReport>,
    /// `max_i ω_i`.
    pub independent_omega_max: f64,
    /// Fastest coupled mode.
    pub coupled_omega_max: f64,
    /// An upper bound on ω_max: the smaller of the trace bound
    /// `sqrt(Σ k_i a_i)` and the Gershgorin bound `sqrt(max_i Σ_j |S_ij|)`.
    pub coupled_omega_upper_bound: f64,
    /// Which bound: `"trace"` (√(Σ k_i a_i)) or `"gershgorin"`
    /// (√(max_i Σ_j |S_ij|)), whichever is smaller.
    pub coupled_omega_upper_bound_kind: String,
    /// `coupled_omega_max / independent_omega_max` (≥ 1).
    pub coupled_to_independent_ratio: Option<f64>,
    /// Stable explicit timesteps.
    pub stable_dt: StableDtReport,
    /// A dump scene's near contacts and the step with them closed
    /// (`null` for other cases).
    pub near: Option<near::NearReport>,
    /// Damped coupled modes (only when damping is given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damped_modes: Option<Vec<DampedModeReport>>,
    /// Constraint rows and their rank.
    pub constraints: ConstraintReport,
    /// The assembled model, numerically (small systems).
    pub model: ModelReport,
    /// Closed forms from the symbolic engine, or why there are none.
    pub symbolic: SymbolicReport,
    /// Sweeps (`[[sweep]]`).
    pub sweeps: Vec<crate::analysis::sweep::SweepResult>,
    /// Claims.
    pub claims: Vec<ClaimReport>,
    /// A `[model]` case's robot results (armature, rule of thumb, ellipsoids).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub robot: Option<crate::analysis::robot::RobotReport>,
    /// `[[person]]` transient contacts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub persons: Vec<crate::analysis::robot::PersonReport>,
    /// `[motion]`: a program checked against body regions (collaborative
    /// robots); set by the pipeline from `analysis::program`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub program: Option<crate::analysis::program::ProgramReport>,
    /// `[map]`: permissible speeds over a grid of two joints; set by the
    /// pipeline from `analysis::workspace`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub map: Option<crate::analysis::workspace::MapReport>,
    /// Results bounded over the inputs' tolerances; set by the pipeline
    /// from `tolerance::bound`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerances: Option<crate::tolerance::Tolerances>,
    /// What changed since the previous revision the case names
    /// (`[revision] previous`); set by the pipeline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changes: Option<Changes>,
    /// `[[impact]]`s: contacts struck at a speed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub impacts: Vec<impact::ImpactReport>,
    /// `[engine.*]`: each simulator's settings through the exact A.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub engines: Vec<crate::engines::EngineReport>,
    /// Verification by simulation, when run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification: Option<crate::verify::Verification>,
    /// Contacts with tangential springs: every row (normal and tangential),
    /// the per-contact blocks, the modes over every row and the step with
    /// and without the tangential springs (absent without them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tangential: Option<tangential::TangentialReport>,
    /// Hertz contacts (`law = "hertz"`): the linearised stiffness, the
    /// closed-form impact with the exact m_eff, the Hertz-time factor.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hertz: Vec<crate::analysis::hertz_contacts::HertzResult>,
    /// With a Hertz impact: the step at its peak, which the step to use
    /// holds at (`null` without one).
    pub hertz_peak: Option<crate::analysis::hertz_contacts::PeakStep>,
    /// With Hertz contacts: the state (static, at the peak) of each
    /// fastest mode and step, and which governs ([`hertz_state`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hertz_states: Option<hertz_state::HertzStates>,
}

/// The assembled matrices, numerically.
#[derive(Clone, Debug, Serialize)]
pub struct ModelReport {
    /// Generalized velocities: name and coordinate unit.
    pub dofs: Vec<DofReport>,
    /// M (row-major), when there are at most [`MATRIX_LIMIT`] velocities.
    pub mass: Option<Vec<Vec<f64>>>,
    /// J (one row per contact; with tangential springs one per contact
    /// row, normal and tangential), when it has at most [`MATRIX_LIMIT`]
    /// rows and columns.
    pub jacobian: Option<Vec<Vec<f64>>>,
    /// The name of each row of `jacobian`: the contact, or with tangential
    /// springs `contact.n`, `contact.t1`, `contact.t2` (`contact.t` planar).
    pub jacobian_rows: Vec<String>,
}

/// A generalized velocity.
#[derive(Clone, Debug, Serialize)]
pub struct DofReport {
    /// Name.
    pub name: String,
    /// Coordinate unit.
    pub unit: String,
}

/// Largest matrix dimension written out in full.
pub const MATRIX_LIMIT: usize = 12;

/// A parameter of the case.
#[derive(Clone, Debug, Serialize)]
pub struct InputReport {
    /// Name.
    pub name: String,
    /// Value as typed.
    pub value: String,
    /// SI value.
    pub si: f64,
    /// SI unit of the value.
    pub si_unit: String,
    /// Description, when given.
    pub description: Option<String>,
    /// LaTeX symbol (the case's `symbol`, or derived from the name), with
    /// a tilde where it collides with a symbol the sheet reserves.
    pub symbol_latex: String,
    /// The reserved symbol it collides with and that symbol's meaning.
    pub collides_with: Option<(String, String)>,
}

/// One `[scene]` setting as typed (a key, or a key of an inline table).
#[derive(Clone, Debug, Serialize)]
pub struct SceneInputReport {
    /// The key: `tolerance`, `contact.stiffness`, `walls`.
    pub key: String,
    /// The value as typed.
    pub typed: String,
    /// Its SI value; `null` for a name, a list or a snapshot number.
    pub si: Option<f64>,
    /// The SI unit of `si` (empty when dimensionless).
    pub si_unit: String,
    /// Where it is written: `case.toml:line:col`.
    pub location: String,
}

/// What a contact's naive mass is (closed set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NaiveKind {
    /// The total mass of the one moving body.
    Total,
    /// The reduced mass m₁m₂/(m₁ + m₂) of two bodies' total masses.
    Reduced,
    /// A scene's row: the total mass against a fixed body, the reduced
    /// mass between two movable ones (the rows are not kept per contact).
    Either,
}

/// A contact's results.
#[derive(Clone, Debug, Serialize)]
pub struct ContactReport {
    /// Position of the contact in the case (0-based).
    pub index: usize,
    /// Name.
    pub name: String,
    /// Inverse effective mass (1/kg).
    pub a: f64,
    /// Effective mass (kg); `null` when immobile.
    pub m_eff: Option<f64>,
    /// True when the contact cannot move.
    pub immobile: bool,
    /// Stiffness (N/m).
    pub stiffness: f64,
    /// `sqrt(k a)` (rad/s).
    pub omega: f64,
    /// Naive mass (kg); `null` in generalized form.
    pub naive_mass: Option<f64>,
    /// `sqrt(k/naive_mass)` (rad/s).
    pub omega_naive: Option<f64>,
    /// `m_eff / naive_mass`.
    pub mass_ratio: Option<f64>,
    /// What the naive mass is: `total` (the one moving body's total mass)
    /// or `reduced` (two bodies' total masses in series); `null` without
    /// a naive mass. The sheet's words divide by what they name. Not in
    /// the JSON: a scene read as columns and as TOML give one report.
    #[serde(skip)]
    pub naive_kind: Option<NaiveKind>,
    /// Damping (N s/m), when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damping: Option<f64>,
    /// Damping ratio, when damping is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zeta: Option<f64>,
    /// Closed form of `a` (filled by the symbolic engine).
    pub a_symbolic: Option<SymbolicForm>,
}

/// Summaries of a large system.
#[derive(Clone, Debug, Serialize)]
pub struct LargeReport {
    /// Steps of the Lanczos recurrence (the Krylov dimension).
    pub lanczos_steps: usize,
    /// Products with S in all (the replay that forms mode shapes and the
    /// residual checks included).
    pub products: usize,
    /// Largest relative residual of a listed mode, over θ_max: the true
    /// `|S y − θ y|` when the shapes were formed, else the Ritz estimate.
    pub max_residual: f64,
    /// `true` or `estimate`: which residual `max_residual` is.
    pub residual_kind: &'static str,
    /// Largest bound on a listed ω²'s distance to its eigenvalue, over
    /// θ_max (what convergence was judged by).
    pub max_value_error: f64,
    /// Fastest modes asked for.
    pub modes_requested: usize,
    /// Of those, converged (only converged modes are listed).
    pub modes_converged: usize,
    /// Gershgorin upper bound on ω_max (rad/s).
    pub gershgorin_omega: f64,
    /// True when ω_max is the Gershgorin bound (the fastest mode did not
    /// converge); the stable timestep is then conservative.
    pub omega_max_is_bound: bool,
    /// Nonzero entries of the sparse `K^½ A K^½` (both triangles).
    pub nnz: usize,
    /// Entries actually stored (a coupling between nearby rows once).
    pub stored: usize,
    /// Distribution of m_eff / naive over the contacts.
    pub mass_ratio: Histogram,
    /// Distribution of the single-contact ω over the contacts (rad/s).
    pub omega: Histogram,
    /// The contacts with the lowest m_eff / naive (up to 10).
    pub most_affected: Vec<ContactReport>,
    /// With tangential springs, the run over every row (normal and
    /// tangential), which sets ω_max and the step; the fields above are
    /// the normal rows' run. `null` without tangential springs.
    pub rows: Option<tangential::RowsLargeReport>,
}

/// A closed form as text and LaTeX.
#[derive(Clone, Debug, Serialize)]
pub struct SymbolicForm {
    /// Plain text meff parses back.
    pub text: String,
    /// LaTeX.
    pub latex: String,
}

/// The Delassus matrix.
#[derive(Clone, Debug, Serialize)]
pub struct DelassusReport {
    /// Contact names (row and column order).
    pub contacts: Vec<String>,
    /// A (1/kg), row-major; `null` for large systems.
    pub matrix: Option<Vec<Vec<f64>>>,
    /// Why the matrix is left out (`"size"`, or `"selection"` when only
    /// some contacts are listed), when it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omitted: Option<&'static str>,
    /// Coupling coefficients `A_ij / sqrt(A_ii A_jj)` (0 where a contact is
    /// immobile).
    pub coupling: Option<Vec<Vec<f64>>>,
}

/// Constraint bookkeeping.
#[derive(Clone, Debug, Serialize)]
pub struct ConstraintReport {
    /// Constraint rows (joint equations or `[[constraint]]` rows).
    pub rows: usize,
    /// Their rank; `rows − rank` are redundant.
    pub rank: usize,
}

impl Report {
    /// True when any claim did not pass: failed, or could not be decided
    /// (an undetermined claim is not a pass).
    pub fn any_claim_failed(&self) -> bool {
        self.claims.iter().any(|c| c.passed != Some(true))
    }
}

/// Builds the report of a case.
/// The results the report is built from, beside the case.
pub struct Results<'a> {
    /// Numeric analysis.
    pub analysis: &'a Analysis,
    /// Claim verdicts, in case order.
    pub claims: &'a [ClaimResult],
    /// The assembled system.
    pub system: &'a crate::model::System<f64>,
    /// The symbolic derivation, or why there is none.
    pub derivation: Result<&'a crate::symbolic::Derivation, &'a crate::symbolic::Unsupported>,
    /// Elasticities (empty without a derivation).
    pub sensitivities: Vec<crate::symbolic::Sensitivity>,
    /// Evaluated sweeps, in case order.
    pub sweeps: Vec<crate::analysis::sweep::SweepResult>,
    /// List the generalized velocities even on the large-system path.
    pub list_dofs: bool,
    /// Which contacts are listed one by one.
    pub selection: ContactSelection,
    /// The robot section of a `[model]` case (computed by the analysis
    /// stage: [`crate::analysis::robot::case_results`]).
    pub robot: Option<crate::analysis::robot::RobotReport>,
    /// The `[[person]]` results, in case order (likewise).
    pub persons: Vec<crate::analysis::robot::PersonReport>,
    /// A `[model]` case's numbers at its configuration (likewise), which
    /// the sketch draws.
    pub robot_system: Option<&'a crate::model::robot::RobotSystem>,
}

impl Report {
    /// Attaches the model checks: the warnings, and each contact's world
    /// point and normal beside its definition.
    pub fn set_checks(&mut self, checks: crate::checks::Checks) {
        self.model_checks = checks.warnings;
        self.model_checks_found = checks.found;
        if let Some(def) = self.definition.as_mut() {
            for (c, w) in def.contacts.iter_mut().zip(checks.world) {
                c.world = w;
            }
        }
    }
}

/// Builds the report of a case from results computed elsewhere: it
/// selects and formats, and computes no physics.
pub fn build(case: &Case, results: Results) -> Report {
    let Results {
        analysis: an,
        claims,
        system,
        derivation,
        sensitivities,
        sweeps,
        list_dofs,
        selection,
        robot,
        persons,
        robot_system,
    } = results;
    let c = an.n_contacts();
    let impact_naives: Vec<Option<f64>> = if case.impacts.is_empty() {
        Vec::new()
    } else {
        (0..c).map(|i| an.contact(i).naive_mass).collect()
    };
    // Only the listed contacts are turned into report rows (at 10⁶
    // contacts the full list would be the largest thing in memory).
    let keep: Vec<usize> = match selection {
        ContactSelection::All => (0..c).collect(),
        ContactSelection::None => Vec::new(),
        ContactSelection::Worst(n) => fastest_by(c, |i| an.contact(i).omega, n),
    };
    let all = selection == ContactSelection::All;
    let contacts: Vec<ContactReport> = keep
        .iter()
        .map(|&i| contact_report(case, an, derivation, i))
        .collect();
    let (independent_omega_max, coupled_omega_max, omega_bound, omega_bound_kind) =
        tangential::omega_figures(an);
    let ratio = (independent_omega_max > 0.0).then(|| coupled_omega_max / independent_omega_max);
    Report {
        stiffness_from_engine: stiffness_from_engine(case),
        title: case.title.clone(),
        document: case.document.clone(),
        definition: definition::definition(case),
        sketch: sketch::sketch(case, robot_system),
        description: case.description.clone(),
        model_checks: Vec::new(),
        model_checks_found: 0,
        space: if case.is_generalized() {
            "generalized".into()
        } else {
            case.space.name().into()
        },
        dofs: n_dofs(an, system),
        model: model_report(case, an, system, list_dofs, all),
        sweeps,
        display: case.display.clone(),
        case_sha256: {
            use sha2::Digest;
            sha2::Sha256::digest(case.source.as_bytes())
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect()
        },
        inputs: inputs(case),
        scene_inputs: scene_inputs(case),
        contacts,
        contacts_total: c,
        contacts_selection: selection.to_string(),
        delassus: delassus_report(case, an, &keep, all),
        modes: an
            .modes
            .iter()
            .map(|Mode { omega, shape }| ModeReport {
                omega: *omega,
                frequency: omega / std::f64::consts::TAU,
                shape: if shape.len() == c {
                    keep.iter().map(|&i| shape[i]).collect()
                } else {
                    Vec::new()
                },
            })
            .collect(),
        zero_modes: an.zero_modes,
        large: large_report(case, an, derivation),
        independent_omega_max,
        coupled_omega_max,
        coupled_omega_upper_bound: omega_bound,
        coupled_omega_upper_bound_kind: omega_bound_kind.into(),
        coupled_to_independent_ratio: ratio,
        stable_dt: tangential::stable_dt_report(an),
        near: near::of_case(case),
        scene_files: definition::scene_files(case),
        damped_modes: an.damped_modes.as_ref().map(|ms| {
            ms.iter()
                .map(|DampedMode { omega, zeta }| DampedModeReport {
                    omega: *omega,
                    zeta: *zeta,
                })
                .collect()
        }),
        constraints: ConstraintReport {
            rows: an.constraint_rows,
            rank: an.constraint_rank,
        },
        symbolic: symbolic_report(derivation, &keep, all, sensitivities),
        robot,
        persons,
        program: None,
        map: None,
        tolerances: None,
        changes: None,
        impacts: impact::impacts(case, &an.impacts, &impact_naives),
        engines: Vec::new(),
        verification: None,
        claims: claims::claim_reports(case, claims),
        tangential: an
            .tangential
            .as_ref()
            .map(|t| tangential::report(case, an, t, &keep, all)),
        hertz: crate::analysis::hertz_contacts::results(case, an),
        hertz_peak: an.hertz_peak.clone(),
        hertz_states: hertz_state::states(an, !case.hertz_laws().is_empty()),
    }
}

/// One contact's row.
fn contact_report(
    case: &Case,
    an: &Analysis,
    derivation: Result<&crate::symbolic::Derivation, &crate::symbolic::Unsupported>,
    i: usize,
) -> ContactReport {
    let r = an.contact(i);
    ContactReport {
        index: i,
        name: case.contact_name(i).into_owned(),
        a: r.a,
        m_eff: r.m_eff,
        immobile: r.immobile,
        stiffness: r.stiffness,
        omega: r.omega,
        naive_mass: r.naive_mass,
        omega_naive: r.omega_naive,
        mass_ratio: r.m_eff.zip(r.naive_mass).map(|(m, n)| m / n),
        naive_kind: r
            .naive_mass
            .map(|_| match case.contacts.get(i).map(|c| &c.geometry) {
                Some(crate::case::ContactGeometry::Point { other: Some(_), .. }) => {
                    NaiveKind::Reduced
                }
                Some(_) => NaiveKind::Total,
                None => NaiveKind::Either,
            }),
        damping: r.damping,
        zeta: r.zeta,
        a_symbolic: derivation.ok().map(|d| form(&d.contacts[i].a)),
    }
}

/// Where the contacts that take their stiffness from an engine say so.
fn stiffness_from_engine(case: &Case) -> Option<StiffnessFromEngine> {
    case.stiffness_from.map(|engine| StiffnessFromEngine {
        engine,
        name: engine.name(),
        contacts: case
            .contacts
            .iter()
            .filter(|c| c.from_engine)
            .map(|c| c.name.clone())
            .collect(),
    })
}

/// Generalized velocities: the system's, or on the columnar path of a
/// large scene (no system assembled) the scene's count.
fn n_dofs(an: &Analysis, system: &crate::model::System<f64>) -> usize {
    an.columns.as_ref().map_or(system.n_dofs(), |c| c.dofs)
}

/// The model section: velocities, M and J (when small enough).
fn model_report(
    case: &Case,
    an: &Analysis,
    system: &crate::model::System<f64>,
    list_dofs: bool,
    all: bool,
) -> ModelReport {
    let n = n_dofs(an, system);
    let c = an.n_contacts();
    ModelReport {
        dofs: system
            .dofs
            .iter()
            .take(if list_dofs || an.large.is_none() {
                n
            } else {
                0
            })
            .map(|d| DofReport {
                name: d.name(),
                unit: d.unit.to_string(),
            })
            .collect(),
        mass: (n <= MATRIX_LIMIT).then(|| system.dense_mass()),
        jacobian: match &an.tangential {
            Some(t) => (all && n <= MATRIX_LIMIT && t.rows.len() <= MATRIX_LIMIT)
                .then(|| t.jacobian.clone()),
            None => (all && n <= MATRIX_LIMIT && c <= MATRIX_LIMIT).then(|| {
                system
                    .jacobian
                    .iter()
                    .map(|r| system.dense_row(r))
                    .collect()
            }),
        },
        jacobian_rows: match &an.tangential {
            // A name a row only for a J small enough to print (a String
            // each of 9·10⁶ rows was 0.5 GB at 10⁶ spheres).
            Some(t) if n <= MATRIX_LIMIT && t.rows.len() <= MATRIX_LIMIT => {
                let planar = case.space == crate::case::Space::Planar;
                let names: Vec<String> =
                    (0..c).map(|i| case.contact_name(i).into_owned()).collect();
                (0..t.rows.len())
                    .map(|i| t.row_name(|c| &names[c], i, planar))
                    .collect()
            }
            None if all && c <= MATRIX_LIMIT => {
                (0..c).map(|i| case.contact_name(i).into_owned()).collect()
            }
            _ => Vec::new(),
        },
    }
}

/// A scene's settings as typed, with their SI values and locations.
fn scene_inputs(case: &Case) -> Vec<SceneInputReport> {
    case.scene.as_ref().map_or_else(Vec::new, |sc| {
        sc.settings
            .iter()
            .map(|s| SceneInputReport {
                key: s.key.clone(),
                typed: s.typed.clone(),
                si: s.si,
                si_unit: s.si_unit.clone(),
                location: crate::checks::at(case, &s.span),
            })
            .collect()
    })
}

/// The parameters as typed, with their SI values and symbols.
fn inputs(case: &Case) -> Vec<InputReport> {
    case.parameters
        .iter()
        .map(|p| InputReport {
            name: p.name.clone(),
            // As typed, with its tolerance.
            value: p
                .tolerance
                .as_ref()
                .map_or_else(|| p.value.text.clone(), |t| t.written.trim().to_string()),
            si: p.value.si,
            si_unit: if p.value.dim.is_none() {
                // An angle keeps its unit in every column.
                let typed = p.value.text.to_ascii_lowercase();
                if ["deg", "rad"].iter().any(|u| typed.contains(u)) {
                    "rad".to_string()
                } else {
                    String::new()
                }
            } else {
                p.value.dim.to_string()
            },
            description: p.description.clone(),
            symbol_latex: p.symbol_latex(),
            collides_with: p.collision().map(|r| (r.latex.into(), r.meaning.into())),
        })
        .collect()
}

/// The Delassus matrix and its coupling coefficients (dense, every contact
/// listed), or why they are left out.
fn delassus_report(case: &Case, an: &Analysis, keep: &[usize], all: bool) -> DelassusReport {
    let c = an.n_contacts();
    let a = &an.delassus;
    let dense = an.coupled.is_none() && all;
    let matrix: Vec<Vec<f64>> = (0..if dense { c } else { 0 })
        .map(|i| (0..c).map(|j| a[(i, j)]).collect())
        .collect();
    let coupling: Vec<Vec<f64>> = (0..if dense { c } else { 0 })
        .map(|i| {
            (0..c)
                .map(|j| {
                    let d = (a[(i, i)] * a[(j, j)]).sqrt();
                    if d > 0.0 { a[(i, j)] / d } else { 0.0 }
                })
                .collect()
        })
        .collect();
    DelassusReport {
        contacts: keep
            .iter()
            .map(|&i| case.contact_name(i).into_owned())
            .collect(),
        matrix: dense.then_some(matrix),
        omitted: if an.coupled.is_some() {
            Some("size")
        } else if !all {
            Some("selection")
        } else {
            None
        },
        coupling: dense.then_some(coupling),
    }
}

/// The large-system path's figures, histograms and most affected contacts.
fn large_report(
    case: &Case,
    an: &Analysis,
    derivation: Result<&crate::symbolic::Derivation, &crate::symbolic::Unsupported>,
) -> Option<LargeReport> {
    let c = an.n_contacts();
    an.large.as_ref().map(|info| {
        let ratios: Vec<f64> = (0..c)
            .map(|i| {
                let r = an.contact(i);
                r.m_eff.zip(r.naive_mass).map_or(f64::NAN, |(m, n)| m / n)
            })
            .collect();
        // The ten smallest ratios, ties by position: selected, then the
        // ten sorted (not all of them: a sort of 3·10⁶ contacts).
        let by = |x: &usize, y: &usize| ratios[*x].total_cmp(&ratios[*y]).then(x.cmp(y));
        let mut order: Vec<usize> = (0..c).filter(|&i| ratios[i].is_finite()).collect();
        if order.len() > 10 {
            order.select_nth_unstable_by(10, by);
            order.truncate(10);
        }
        order.sort_by(by);
        LargeReport {
            lanczos_steps: info.lanczos_steps,
            products: info.products,
            max_residual: info.max_residual,
            residual_kind: info.residual_kind,
            max_value_error: info.max_value_error,
            modes_requested: info.modes_requested,
            modes_converged: info.modes_converged,
            gershgorin_omega: info.gershgorin_omega,
            omega_max_is_bound: an.modes.is_empty(),
            nnz: info.nnz,
            stored: info.stored,
            mass_ratio: histogram(&ratios),
            omega: histogram(&(0..c).map(|i| an.contact(i).omega).collect::<Vec<_>>()),
            most_affected: order
                .iter()
                .take(10)
                .map(|&i| contact_report(case, an, derivation, i))
                .collect(),
            rows: tangential::rows_large(an),
        }
    })
}
