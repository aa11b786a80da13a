//! Analysis: Delassus matrix, effective masses, coupled modes, bounds,
//! stable timesteps, damping and impacts (docs/physics.md).
//!
//! Input: a [`Model<f64>`] and its assembled [`System<f64>`]. Output: an
//! [`Analysis`], plain numbers with no formatting. Entry points:
//! [`analyze`] (a model) and [`analyze_model`] (a model and its system,
//! the pipeline's); which path is taken is [`takes_large_path`].
//!
//! The dense path: [`delassus`](mod@delassus) whitens J by the Cholesky factor of each
//! mass block (J̃ = J L⁻ᵀ, so A = J̃ J̃ᵀ) and, with constraints, projects J̃
//! onto the complement of the whitened constraint rows, whose orthonormal
//! basis comes from Gram–Schmidt with pivoting
//! ([`crate::linalg::row_space_basis`]: rank revealing, so redundant
//! joints are fine); `modes` diagonalises S = K^½ A K^½ and finds the
//! eigenvalues of the frozen damped system ([`damped_modes`]); [`stable`]
//! gives the stable timesteps and [`impact`] solves the `[[impact]]`s.
//! The large path ([`large`], [`lanczos`]) keeps S sparse and finds its
//! fastest modes matrix-free. [`robot`] adds a `[model]` case's robot
//! section and the `[[person]]` results; [`sweep`] re-analyses the model
//! at each sweep point. Claims are checked a stage above, in
//! [`crate::claims`].
//!
//! Linear algebra is nalgebra (dense, small matrices: the per-body blocks,
//! the c×c Delassus matrix and its eigenproblem) and [`crate::linalg`].

mod block_whiten;
mod coupled;
pub mod delassus;
pub mod hertz_contacts;
pub mod impact;
mod kernels;
pub mod lanczos;
pub mod large;
mod large_analysis;
pub mod large_rows;
mod local_csr;
mod modes;
pub mod order;
pub mod program;
pub mod robot;
mod row_table;
pub mod scene_large;
pub mod slice;
pub mod stable;
pub mod sweep;
pub mod tangential;
pub mod workspace;

pub use crate::linalg::{IMMOBILE_RATIO, row_space_basis};
pub use delassus::{Delassus, delassus, whitened_rows};
pub use large_analysis::ContactColumns;
pub(crate) use large_analysis::large_analysis;
mod value;
pub use modes::{DampedMode, Mode, ZERO_MODE_RATIO, damped_modes, modes};
pub use value::value_of;

use crate::case::AnalysisPath;
use crate::model::{self, Model, System};
use nalgebra::DMatrix;

/// Why an analysis could not be done.
#[derive(Clone, Debug, PartialEq)]
pub enum AnalysisError {
    /// A mass block is not positive definite (its dofs named).
    NotPositiveDefinite {
        /// Names of the dofs of the block.
        dofs: Vec<String>,
    },
    /// More contacts than the dense path handles, or constraints on the
    /// large-system path (which does not take them).
    TooLarge {
        /// Number of contacts.
        contacts: usize,
        /// Whether the system has constraints.
        constrained: bool,
    },
    /// A contact's inverse inertia overflowed or underflowed 64-bit floating
    /// point (inputs far outside physical ranges in SI): never reported as
    /// an immobile contact or as physics.
    OutOfRange {
        /// Index of the contact.
        contact: usize,
        /// What happened, e.g. "a = inf".
        what: String,
    },
    /// A sweep point or claim probe not analysed: the evaluation's work
    /// allowance ([`crate::control`]) was spent.
    WorkSpent,
    /// The caller's stop request ([`crate::control`]) came while the rows
    /// or S were being made (the pipeline returns `Error::Cancelled`).
    Cancelled,
}

/// Checks that a contact's unconstrained inverse inertia (the sum of its
/// squared whitened Jacobian entries) and its Delassus entries are
/// representable: finite, and not zero or subnormal when the row is not
/// zero. Overflow or underflow there would otherwise read as an immobile
/// contact.
pub fn check_range(
    contact: usize,
    row: &[(usize, f64)],
    unconstrained: f64,
    entries: impl IntoIterator<Item = f64>,
) -> Result<(), AnalysisError> {
    let fail = |what: String| Err(AnalysisError::OutOfRange { contact, what });
    if let Some((_, v)) = row.iter().find(|(_, v)| !v.is_finite()) {
        return fail(format!("a Jacobian entry scaled by the mass is {v}"));
    }
    if !unconstrained.is_finite() {
        return fail(format!("J M⁻¹ Jᵀ overflows ({unconstrained})"));
    }
    let nonzero_row = row.iter().any(|(_, v)| *v != 0.0);
    if nonzero_row && !unconstrained.is_normal() {
        return fail(format!("J M⁻¹ Jᵀ underflows ({unconstrained:e})"));
    }
    if let Some(v) = entries.into_iter().find(|v| !v.is_finite()) {
        return fail(format!("an entry of the Delassus matrix is {v}"));
    }
    Ok(())
}

impl std::fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnalysisError::NotPositiveDefinite { dofs } => {
                write!(
                    f,
                    "the mass matrix is not positive definite over ({})",
                    dofs.join(", ")
                )
            }
            AnalysisError::OutOfRange { contact, what } => write!(
                f,
                "contact {}: {what}: the values are outside what 64-bit floating point represents (inputs far from physical ranges in SI units?)",
                contact + 1
            ),
            AnalysisError::TooLarge {
                contacts,
                constrained: true,
            } => write!(
                f,
                "{contacts} contacts with constraints (joints or constraint rows): the large-system path does not take constraints yet, and the dense analysis handles at most {DENSE_CONTACT_LIMIT} contacts"
            ),
            AnalysisError::TooLarge {
                contacts,
                constrained: false,
            } => write!(
                f,
                "{contacts} contacts is more than the dense analysis handles ({DENSE_CONTACT_LIMIT}); `[analysis] path = \"auto\"` (the default) or `\"large\"` takes the large-system path"
            ),
            AnalysisError::WorkSpent => write!(
                f,
                "not analysed: the evaluation's work allowance for impacts, sweeps and claim probes was spent"
            ),
            AnalysisError::Cancelled => write!(f, "the evaluation was cancelled"),
        }
    }
}

impl std::error::Error for AnalysisError {}

/// Results for one contact.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactResult {
    /// Inverse effective mass `A_ii` (0 when immobile).
    pub a: f64,
    /// `J_i M⁻¹ J_iᵀ` without constraints.
    pub a_unconstrained: f64,
    /// True when the contact cannot move (docs/physics.md).
    pub immobile: bool,
    /// Effective mass, `None` when immobile.
    pub m_eff: Option<f64>,
    /// Stiffness.
    pub stiffness: f64,
    /// `sqrt(k a)`.
    pub omega: f64,
    /// Naive mass (body form only).
    pub naive_mass: Option<f64>,
    /// `sqrt(k / naive_mass)`.
    pub omega_naive: Option<f64>,
    /// Damping coefficient, when given.
    pub damping: Option<f64>,
    /// Damping ratio `c / (2 sqrt(k m_eff))`, when damping is given and the
    /// contact moves.
    pub zeta: Option<f64>,
}

/// Stable explicit timesteps (docs/physics.md).
#[derive(Clone, Debug, PartialEq)]
pub struct StableDt {
    /// `2/ω_max` from the coupled modes (`None` when nothing moves).
    pub coupled: Option<f64>,
    /// `2/max ω_i` from the independent estimate.
    pub independent: Option<f64>,
    /// Coupled limit with explicit damping, when damping is given: the
    /// largest step at which symplectic Euler with the dashpot force from
    /// the step's start velocity is stable (the step map's spectral radius,
    /// `stable.rs`); `None` above `stable::EXACT_LIMIT` contacts.
    pub coupled_damped: Option<f64>,
    /// Independent limit with explicit damping, when damping is given.
    pub independent_damped: Option<f64>,
    /// A step stable whatever the modes, from bounds alone: `2/ω̄` without
    /// dashpots (ω̄ the trace or Gershgorin bound on ω_max); with dashpots
    /// the energy bound [`stable::energy_bound`] at ω̄ and an upper bound
    /// on the dashpots' rate `γ̄ ≥ λ_max(C^½ A C^½)`.
    pub guaranteed: Option<f64>,
    /// The step the case's headline tells the user to use, and what set it
    /// ([`Governing`]): the exact coupled limit of the system as given —
    /// the damped one when there are dashpots.
    pub governing: Option<(f64, Governing)>,
}

/// What sets the step a sheet tells the user to use (`StableDt::governing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Governing {
    /// No dashpots: `2/ω_max` of the fastest coupled mode.
    CoupledMode,
    /// No dashpots, the fastest mode not converged (large path): `2/ω̄`
    /// from the Gershgorin bound.
    UpperBound,
    /// Dashpots: the exact limit of symplectic Euler's step map.
    DampedStepMap,
    /// Dashpots where the step map is not formed (above
    /// `stable::EXACT_LIMIT` contacts, or the large path): the energy
    /// bound at ω_max and the dashpots' rate bound.
    DampedEnergyBound,
}

impl Governing {
    /// The JSON name.
    pub fn key(self) -> &'static str {
        match self {
            Governing::CoupledMode => "coupled_mode",
            Governing::UpperBound => "upper_bound",
            Governing::DampedStepMap => "damped_step_map",
            Governing::DampedEnergyBound => "damped_energy_bound",
        }
    }
}

/// Everything the numeric analysis finds.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Per contact, in case order.
    pub contacts: Vec<ContactResult>,
    /// The Delassus matrix A (c×c); empty (0×0) on the large-system path,
    /// where [`Analysis::coupled`] gives it.
    pub delassus: DMatrix<f64>,
    /// `K^½ A K^½` in compressed rows (large-system path only).
    pub coupled: Option<large::Coupled>,
    /// Facts about the large-system path, when it was taken.
    pub large: Option<large::LargeInfo>,
    /// Rank of the constraint rows (0 without constraints).
    pub constraint_rank: usize,
    /// Number of constraint rows.
    pub constraint_rows: usize,
    /// Nonzero coupled modes, fastest first.
    pub modes: Vec<Mode>,
    /// Modes with zero frequency (more contacts than independent motions);
    /// `None` when the rank was not computed (large-system path).
    pub zero_modes: Option<usize>,
    /// `max_i ω_i`.
    pub independent_omega_max: f64,
    /// Fastest coupled mode.
    pub coupled_omega_max: f64,
    /// An upper bound on ω_max: the smaller of the trace bound
    /// `sqrt(Σ k_i a_i)` and the Gershgorin bound `sqrt(max_i Σ_j |S_ij|)`.
    pub coupled_omega_upper_bound: f64,
    /// Which bound that is: `"trace"` or `"gershgorin"`.
    pub coupled_omega_upper_bound_kind: &'static str,
    /// Stable timesteps.
    pub stable_dt: StableDt,
    /// Damped coupled modes, when any damping is given.
    pub damped_modes: Option<Vec<DampedMode>>,
    /// `[[impact]]` responses, in case order.
    pub impacts: Vec<impact::ImpactResult>,
    /// With tangential springs: the analysis over every row (normal and
    /// tangential); `stable_dt.governing` and `stable_dt.guaranteed` are
    /// then this one's. `None` without tangential springs.
    pub tangential: Option<tangential::Tangential>,
    /// With a Hertz impact: the step at its peak (the step to use and the
    /// guaranteed one are then at most its). `None` without one.
    pub hertz_peak: Option<hertz_contacts::PeakStep>,
    /// On the columnar path of a large scene ([`scene_large::analyze`]):
    /// the per-contact inputs of the results, as columns; `contacts` is
    /// then empty and [`Analysis::contact`] forms a contact's result from
    /// these and `coupled.diag`. `None` otherwise.
    pub columns: Option<large_analysis::ContactColumns>,
}

/// Default number of fastest modes found on the large-system path.
pub const LARGE_MODES: usize = 6;

pub use crate::limits::{DENSE_CONTACT_LIMIT, LARGE_PATH_ABOVE};

impl Analysis {
    /// Number of contacts (of `contacts`, or of the columns).
    pub fn n_contacts(&self) -> usize {
        match &self.columns {
            Some(c) => c.stiffness.len(),
            None => self.contacts.len(),
        }
    }

    /// Contact `i`'s results: stored, or formed from the columns.
    pub fn contact(&self, i: usize) -> std::borrow::Cow<'_, ContactResult> {
        match (&self.columns, &self.coupled) {
            (Some(c), Some(cp)) => std::borrow::Cow::Owned(c.result(i, cp.diag[i])),
            _ => std::borrow::Cow::Borrowed(&self.contacts[i]),
        }
    }

    /// Entry (i, j) of A, from the dense or the sparse matrix.
    pub fn a(&self, i: usize, j: usize) -> f64 {
        match &self.coupled {
            Some(w) => w.a(i, j),
            None => self.delassus[(i, j)],
        }
    }
}

/// The stable explicit timestep of an undamped mode, `2/ω`.
pub fn dt_undamped(omega: f64) -> Option<f64> {
    (omega > 0.0).then(|| 2.0 / omega)
}

/// The stable explicit timestep with damping applied explicitly:
/// `(2/ω)(√(1+ζ²) − ζ)`, evaluated as `(1/ω) / ((√(1+ζ²) + ζ)/2)` — the
/// difference cancels (to 0 s at ζ = 10⁸) and ζ² overflows (to ∞ at
/// ζ = 10¹⁵⁵), the quotient does neither.
pub fn dt_damped(omega: f64, zeta: f64) -> Option<f64> {
    (omega > 0.0).then(|| (1.0 / omega) / (0.5 * zeta.hypot(1.0) + 0.5 * zeta))
}

/// Runs the numeric analysis of a model (assembled here, the path chosen
/// by size). Public on purpose: with [`analyze_model`] the library's two
/// entry points below the pipeline (`meff::evaluate_with`), for callers
/// that build or change a model themselves (benchmarks, the Python
/// `Scene`).
pub fn analyze(model: &Model<f64>) -> Result<Analysis, AnalysisError> {
    let system = model::assemble(model);
    analyze_system(model, &system)
}

/// Runs the numeric analysis of an assembled system.
pub(crate) fn analyze_system(
    model: &Model<f64>,
    system: &System<f64>,
) -> Result<Analysis, AnalysisError> {
    analyze_system_with(model, system, LargeModes::default())
}

/// What the large-system path looks for: how many of the fastest modes,
/// and whether their shapes are wanted (forming them replays the Lanczos
/// recurrence: about twice the products).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LargeModes {
    /// Fastest modes sought.
    pub count: usize,
    /// Mode shapes wanted.
    pub shapes: bool,
    /// Which path the case asks for.
    pub path: AnalysisPath,
}

impl Default for LargeModes {
    fn default() -> Self {
        LargeModes {
            count: LARGE_MODES,
            shapes: true,
            path: AnalysisPath::Auto,
        }
    }
}

/// The numeric analysis; `large` says what is sought on the large-system
/// path.
fn analyze_system_with(
    model: &Model<f64>,
    system: &System<f64>,
    large: LargeModes,
) -> Result<Analysis, AnalysisError> {
    analyze_dense_or_large(model, system, large)
        .and_then(|an| match an.large {
            Some(_) => large_rows::with_tangential(model, system, an),
            None => tangential::with_tangential(model, system, an),
        })
        .map(|an| with_impacts(model, an, true, None))
}

/// The model's `[[impact]]`s solved with the analysis' A (`check`: with
/// the error estimate, a second solve at half the step).
fn with_impacts(
    model: &Model<f64>,
    mut an: Analysis,
    check: bool,
    wanted: Option<&[usize]>,
) -> Analysis {
    if !model.impacts.is_empty() {
        an.impacts = impact::run(model, &an, check, wanted);
    }
    an
}

fn analyze_dense_or_large(
    model: &Model<f64>,
    system: &System<f64>,
    large: LargeModes,
) -> Result<Analysis, AnalysisError> {
    if takes_large_path(model, large.path) {
        return analyze_large(model, system, large);
    }
    let d = delassus(system)?;
    let c = model.contacts.len();
    let a = &d.matrix;
    let mut contacts = Vec::with_capacity(c);
    for (i, contact) in model.contacts.iter().enumerate() {
        let k = contact.stiffness;
        let ai = a[(i, i)];
        let immobile = d.immobile[i];
        let naive = model.naive_mass(i);
        let zeta = match (contact.damping, immobile) {
            (Some(cd), false) => Some(cd * ai.sqrt() / (2.0 * k.sqrt())),
            _ => None,
        };
        // k·a_i and the damping's c²·a_i/k must be representable: an
        // overflow would show ω = ∞ and a coupled ω_max of 0 ("nothing
        // moves"), an underflow a mobile contact with ω = 0.
        let omega = (k * ai).sqrt();
        if !immobile && !omega.is_normal() {
            return Err(AnalysisError::OutOfRange {
                contact: i,
                what: format!("ω = √(k/m_eff) = √({k:e} N/m × {ai:e} 1/kg) is not a normal number"),
            });
        }
        if let Some(z) = zeta
            && !z.is_finite()
        {
            return Err(AnalysisError::OutOfRange {
                contact: i,
                what: "the damping ratio c/(2√(k m_eff)) is not finite".into(),
            });
        }
        contacts.push(ContactResult {
            a: ai,
            a_unconstrained: d.unconstrained[i],
            immobile,
            m_eff: (!immobile).then(|| 1.0 / ai),
            stiffness: k,
            omega,
            naive_mass: naive,
            omega_naive: naive.map(|m| (k / m).sqrt()),
            damping: contact.damping,
            zeta,
        });
    }
    let stiffness: Vec<f64> = contacts.iter().map(|r| r.stiffness).collect();
    let (modes, zero_modes) = modes(a, &stiffness);
    let zero_modes = Some(zero_modes);
    let independent_omega_max = contacts.iter().map(|r| r.omega).fold(0.0, f64::max);
    let coupled_omega_max = modes.first().map_or(0.0, |m| m.omega);
    let gershgorin = (0..c)
        .map(|i| {
            (0..c)
                .map(|j| (stiffness[i] * stiffness[j]).sqrt() * a[(i, j)].abs())
                .sum::<f64>()
        })
        .fold(0.0, f64::max)
        .sqrt();
    let (coupled_omega_upper_bound, coupled_omega_upper_bound_kind) =
        upper_bound(&contacts, gershgorin);
    let any_damping = model.contacts.iter().any(|c| c.damping.is_some());
    let damping: Vec<f64> = model
        .contacts
        .iter()
        .map(|c| c.damping.unwrap_or(0.0))
        .collect();
    let damped = any_damping.then(|| {
        let undamped: Vec<f64> = modes.iter().map(|m| m.omega).collect();
        damped_modes(a, &stiffness, &damping, &undamped)
    });
    let gamma_bound = any_damping.then(|| tangential::damping_rate_bound(a, &damping));
    // From the step map (stable.rs): mode by mode was unsafe with
    // dashpots not proportional to the springs.
    let coupled_damped = any_damping
        .then(|| {
            dt_undamped(coupled_omega_max)
                .and_then(|h| stable::symplectic_euler_damped(a, &stiffness, &damping, h))
        })
        .flatten();
    let governing = stable::governing(coupled_omega_max, false, coupled_damped, gamma_bound);
    let stable_dt = StableDt {
        coupled: dt_undamped(coupled_omega_max),
        independent: dt_undamped(independent_omega_max),
        coupled_damped,
        independent_damped: any_damping
            .then(|| {
                contacts
                    .iter()
                    .filter_map(|r| dt_damped(r.omega, r.zeta.unwrap_or(0.0)))
                    .min_by(f64::total_cmp)
            })
            .flatten(),
        guaranteed: stable::guaranteed(coupled_omega_upper_bound, gamma_bound, governing),
        governing,
    };
    Ok(Analysis {
        contacts,
        delassus: d.matrix,
        coupled: None,
        large: None,
        constraint_rank: d.constraint_rank,
        constraint_rows: system.constraints.len(),
        modes,
        zero_modes,
        independent_omega_max,
        coupled_omega_max,
        coupled_omega_upper_bound,
        coupled_omega_upper_bound_kind,
        stable_dt,
        damped_modes: damped,
        impacts: Vec::new(),
        tangential: None,
        hertz_peak: None,
        columns: None,
    })
}

fn contact_results(
    model: &Model<f64>,
    a_diag: &[f64],
    unconstrained: &[f64],
    immobile: &[bool],
) -> Vec<ContactResult> {
    model
        .contacts
        .iter()
        .enumerate()
        .map(|(i, contact)| {
            let k = contact.stiffness;
            let ai = a_diag[i];
            let naive = model.naive_mass(i);
            ContactResult {
                a: ai,
                a_unconstrained: unconstrained[i],
                immobile: immobile[i],
                m_eff: (!immobile[i]).then(|| 1.0 / ai),
                stiffness: k,
                omega: (k * ai).sqrt(),
                naive_mass: naive,
                omega_naive: naive.map(|m| (k / m).sqrt()),
                damping: contact.damping,
                zeta: match (contact.damping, immobile[i]) {
                    (Some(cd), false) => Some(cd * ai.sqrt() / (2.0 * k.sqrt())),
                    _ => None,
                },
            }
        })
        .collect()
}

/// Whether the system has constraint rows (joints, generalized or model
/// constraints): the large-system path does not take them.
pub fn has_constraints(model: &Model<f64>) -> bool {
    match &model.kind {
        crate::model::Kind::Bodies { joints, .. } => !joints.is_empty(),
        crate::model::Kind::Generalized { constraints, .. } => !constraints.is_empty(),
    }
}

/// Whether a model takes the large-system path: as asked, or by size
/// ([`LARGE_PATH_ABOVE`] without constraints, [`DENSE_CONTACT_LIMIT`] in
/// any case) when the path is `auto`.
///
/// With tangential springs the rows are counted, not the contacts (a
/// contact has up to three): `auto` takes the large path for more than
/// [`LARGE_PATH_ABOVE`] rows, and both paths give every row
/// ([`tangential`] dense, [`large_rows`] matrix-free).
pub fn takes_large_path(model: &Model<f64>, path: AnalysisPath) -> bool {
    let c = large_rows::row_count(model);
    match path {
        AnalysisPath::Dense => false,
        AnalysisPath::Large => true,
        AnalysisPath::Auto => {
            c > DENSE_CONTACT_LIMIT || (c > LARGE_PATH_ABOVE && !has_constraints(model))
        }
    }
}

/// The analysis of a model rebuilt from `case` (sweeps, claim probes): the
/// path the case asks for.
///
/// `impacts`: the `[[impact]]`s solved (those a quantity read at the
/// point names; the others are left unsolved). Each point draws on the evaluation's
/// work allowance ([`crate::control`]): its analysis ([`point_cost`]) up front, its
/// impacts by their steps.
pub(crate) fn analyze_for(
    case: &crate::case::Case,
    model: &Model<f64>,
    laws: &[(usize, crate::case::HertzLaw)],
    impacts: &[usize],
) -> Result<Analysis, AnalysisError> {
    if !crate::control::charge(point_cost(model)) {
        return Err(AnalysisError::WorkSpent);
    }
    let system = model::assemble(model);
    let large = LargeModes {
        path: case.analysis_path,
        ..LargeModes::default()
    };
    // Impacts once per point: sweeps and probes report no error estimate.
    analyze_dense_or_large(model, &system, large)
        // The step to use over every row (on the path taken), and at the
        // peak of a Hertz impact with the point's laws, at every point as
        // in the pipeline.
        .and_then(|an| match an.large {
            Some(_) => large_rows::with_tangential(model, &system, an),
            None => tangential::with_tangential(model, &system, an),
        })
        .and_then(|an| hertz_contacts::with_impact_peaks(laws, model, an))
        .map(|an| {
            if !impacts.is_empty() {
                with_impacts(model, an, false, Some(impacts))
            } else {
                an
            }
        })
}

/// The work units ([`crate::control`]) of one sweep point's or probe's analysis:
/// the dense eigenproblem's c³ (with all its vectors; on
/// the large path a few thousand per contact), the mass blocks' n², and a
/// floor for building the model.
pub fn point_cost(model: &Model<f64>) -> u64 {
    let c = model.contacts.len() as u64;
    let n = match &model.kind {
        crate::model::Kind::Bodies { bodies, .. } => 6 * bodies.len(),
        crate::model::Kind::Generalized { coordinates, .. } => coordinates.len(),
    } as u64;
    let eigen = if c > LARGE_PATH_ABOVE as u64 {
        5_000 * c
    } else {
        c.pow(3)
    };
    eigen + (n + 1).pow(2) + 10_000
}

/// Where the contact rows come from: the assembled system's Jacobian, or,
/// for a system assembled without them
/// ([`assemble_without_contacts`](crate::model::assemble_without_contacts),
/// which the pipeline uses on the large path), the model, generated in
/// parallel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContactRows {
    /// `system.jacobian` holds a row per contact.
    Assembled,
    /// `system.jacobian` lacks the contact rows: they come from the model.
    FromModel,
}

impl ContactRows {
    /// Which one `system` is (a system with fewer Jacobian rows than the
    /// model has contacts was assembled without them).
    pub fn of(model: &Model<f64>, system: &System<f64>) -> ContactRows {
        if system.jacobian.len() < model.contacts.len() {
            ContactRows::FromModel
        } else {
            ContactRows::Assembled
        }
    }
}

/// The system the pipeline assembles for `model` on its path (`large`:
/// [`takes_large_path`]): without per-contact Jacobian rows on the large
/// path (see [`analyze_model`]), with them otherwise.
pub fn system_for(model: &Model<f64>, large: bool) -> System<f64> {
    if large {
        model::assemble_without_contacts(model)
    } else {
        model::assemble(model)
    }
}

/// The numeric half of the pipeline ([`crate::pipeline::evaluate`]) for a model
/// alone: the path the case asks for ([`takes_large_path`]), the system
/// assembled for it ([`system_for`]) and the analysis ([`analyze_model`]).
/// The Python package's `Scene.analyze` is this; `evaluate` runs the same
/// steps with its cancellation stages and timing marks between them.
pub fn analyze_numeric(model: &Model<f64>, modes: LargeModes) -> Result<Analysis, AnalysisError> {
    let large = takes_large_path(model, modes.path);
    let system = system_for(model, large);
    analyze_model(model, &system, modes)
}

/// The numeric analysis of a model and its assembled system, the path as
/// `large.path` asks ([`takes_large_path`]). On the large-system path with
/// a system assembled without its contact rows ([`ContactRows::FromModel`])
/// the rows are generated from the model (in parallel) and only their
/// whitened form, then S, is kept (one allocation per contact would be the
/// largest thing in memory). Public on purpose (the pipeline's and the
/// Python `Scene`'s analysis).
pub fn analyze_model(
    model: &Model<f64>,
    system: &System<f64>,
    large: LargeModes,
) -> Result<Analysis, AnalysisError> {
    if takes_large_path(model, large.path)
        && ContactRows::of(model, system) == ContactRows::FromModel
    {
        let stiffness: Vec<f64> = model.contacts.iter().map(|c| c.stiffness).collect();
        let rows = crate::model::ContactRows::new(model);
        let order = order::contact_order(model);
        crate::timing::mark("order");
        let coupled =
            large::coupled_with(system, &stiffness, |i, out| rows.row_into(i, out), order)?;
        crate::timing::mark("whiten");
        return analyze_coupled(model, coupled, large)
            .and_then(|an| large_rows::with_tangential(model, system, an))
            .map(|an| with_impacts(model, an, true, None));
    }
    analyze_system_with(model, system, large)
}

fn coupled_of(model: &Model<f64>, system: &System<f64>) -> Result<large::Coupled, AnalysisError> {
    let stiffness: Vec<f64> = model.contacts.iter().map(|c| c.stiffness).collect();
    let coupled = large::coupled(system, &stiffness)?;
    crate::timing::mark("whiten");
    Ok(coupled)
}

/// The large-system path: sparse A, matrix-free fastest modes, Gershgorin
/// bound (see [`large`]).
fn analyze_large(
    model: &Model<f64>,
    system: &System<f64>,
    want: LargeModes,
) -> Result<Analysis, AnalysisError> {
    analyze_coupled(model, coupled_of(model, system)?, want)
}

fn analyze_coupled(
    model: &Model<f64>,
    coupled: large::Coupled,
    want: LargeModes,
) -> Result<Analysis, AnalysisError> {
    let diag = &coupled.diag;
    let immobile: Vec<bool> = diag.iter().map(|a| *a <= 0.0).collect();
    let contacts = contact_results(model, diag, diag, &immobile);
    let damping: Option<Vec<f64>> = model.contacts.iter().any(|c| c.damping.is_some()).then(|| {
        model
            .contacts
            .iter()
            .map(|c| c.damping.unwrap_or(0.0))
            .collect()
    });
    Ok(large_analysis(
        coupled,
        contacts,
        None,
        damping.as_deref(),
        want,
    ))
}

/// The tighter of the trace bound and the Gershgorin bound on ω_max, and
/// its name.
fn upper_bound(contacts: &[ContactResult], gershgorin_omega: f64) -> (f64, &'static str) {
    upper_bound_of(contacts.iter().map(|r| r.stiffness * r.a), gershgorin_omega)
}

/// [`upper_bound`] from the contacts' `k_i a_i` in contact order.
pub(crate) fn upper_bound_of(
    k_a: impl Iterator<Item = f64>,
    gershgorin_omega: f64,
) -> (f64, &'static str) {
    let trace = k_a.sum::<f64>().sqrt();
    if gershgorin_omega < trace {
        (gershgorin_omega, "gershgorin")
    } else {
        (trace, "trace")
    }
}
