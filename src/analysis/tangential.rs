//! Contacts with tangential springs: the analysis over rows, not contacts.
//!
//! A contact with a tangential ("stick") spring has a normal row and one
//! row per tangent (two in 3-d, one in a planar case), all at its point
//! ([`crate::model::ContactRows::all_rows`]). Over every row, A = J M⁻¹ Jᵀ
//! is computed as for normal rows alone ([`super::delassus`]), and read as
//! per-contact blocks (3×3 in 3-d, 2×2 in a planar case): the diagonal gives
//! each row's effective mass (1/A_tt for a tangent row), the off-diagonal
//! the normal–tangential coupling inside the contact, `A_nt/√(A_nn A_tt)`
//! (a cosine: 0 uncoupled, ±1 the two rows see one motion). The coupled
//! modes are those of `S = K^½ A K^½` with K the row stiffnesses, and the
//! stable step with the tangential springs is found from them exactly as
//! for the normal rows alone (`2/ω_max`, or symplectic Euler's step map with
//! dashpots). Which rows set it: each row's share `u_i²` of the fastest
//! mode's unit eigenvector u of S.

pub use super::row_table::{BlockTable, ContactBlock, RowResult, RowTable};
use super::row_table::{RowColumns, dashpots, first_rows};
use super::{AnalysisError, Mode, StableDt, dt_undamped, modes, stable};
use crate::model::{ContactRows, Direction, Model, RowOf, System};
use nalgebra::DMatrix;

/// A row's share of the fastest mode at or above which it is named as
/// setting the step.
pub const SETTING_SHARE: f64 = 0.1;

/// The analysis over every row.
#[derive(Clone, Debug)]
pub struct Tangential {
    /// Every row, contact by contact (normal, then its tangents), as
    /// columns ([`RowTable::get`] gives a row's [`RowResult`]).
    pub rows: RowTable,
    /// The blocks of A of the contacts with a tangential spring
    /// ([`Tangential::contact_block`]).
    pub blocks: BlockTable,
    /// A over every row.
    pub delassus: DMatrix<f64>,
    /// Nonzero coupled modes over every row, fastest first.
    pub modes: Vec<Mode>,
    /// Zero modes over every row.
    pub zero_modes: usize,
    /// The stable steps over every row (`coupled`, `coupled_damped`,
    /// `guaranteed`, `governing`; `independent*` over the rows one by one).
    pub stable_dt: StableDt,
    /// The rows that set the step: (row, share of the fastest mode), the
    /// largest share first, every share ≥ [`SETTING_SHARE`].
    pub setting_rows: Vec<(usize, f64)>,
    /// The step to use over the normal rows alone (without the tangential
    /// springs), as the normal analysis gives it.
    pub normal_governing: Option<(f64, super::Governing)>,
    /// J over every row, dense (rows as [`Tangential::rows`]).
    pub jacobian: Vec<Vec<f64>>,
    /// The fastest coupled mode over every row (rad/s).
    pub omega_max: f64,
    /// `max_i ω_i` over every row, each row alone (rad/s).
    pub independent_omega_max: f64,
    /// An upper bound ω̄ ≥ ω_max over every row: the smaller of the trace
    /// bound `√(Σ k_i A_ii)` and the Gershgorin bound of `K^½ A K^½`.
    pub omega_upper_bound: f64,
    /// Which bound that is: `"trace"` or `"gershgorin"`.
    pub omega_upper_bound_kind: &'static str,
    /// An upper bound γ̄ on the dashpots' rate over every row (`None`
    /// without dashpots).
    pub damping_rate_bound: Option<f64>,
    /// On the large path, the Lanczos run over every row (the analysis'
    /// `large` is the normal rows' run); `None` on the dense path.
    pub large: Option<super::large::LargeInfo>,
}

impl Tangential {
    /// The row's name for reports: `contact.n`, `contact.t1`, … (its
    /// contact's name from `contact_name`).
    pub fn row_name<S: std::fmt::Display>(
        &self,
        contact_name: impl Fn(usize) -> S,
        row: usize,
        planar: bool,
    ) -> String {
        let of = self.rows.of(row);
        format!(
            "{}.{}",
            contact_name(of.contact),
            of.direction.label(planar)
        )
    }

    /// Contact block j (of [`Tangential::blocks`], in contact order).
    pub fn contact_block(&self, j: usize) -> ContactBlock {
        self.blocks.get(j, &self.rows)
    }

    /// Every contact block, in contact order.
    pub fn contact_blocks(&self) -> impl Iterator<Item = ContactBlock> + '_ {
        (0..self.blocks.len()).map(|j| self.contact_block(j))
    }
}

/// The analysis over every row when the model has tangential springs
/// ([`tangential`]): the step to use and the guaranteed one become those
/// over every row (the normal-only ones stay in `coupled`,
/// `coupled_damped`, `independent*`).
pub(super) fn with_tangential(
    model: &Model<f64>,
    system: &System<f64>,
    mut an: super::Analysis,
) -> Result<super::Analysis, AnalysisError> {
    let mut t = analyze(model, system)?;
    if let Some(t) = &mut t {
        t.normal_governing = an.stable_dt.governing;
        an.stable_dt.governing = t.stable_dt.governing;
        an.stable_dt.guaranteed = t.stable_dt.guaranteed;
    }
    an.tangential = t;
    Ok(an)
}

/// An upper bound on the dashpots' rate λ_max(C^½ A C^½): the smaller of
/// its trace and Gershgorin bounds (`c`: the dashpot of each row).
pub(crate) fn damping_rate_bound(a: &DMatrix<f64>, c: &[f64]) -> f64 {
    let n = c.len();
    let trace: f64 = (0..n).map(|i| c[i] * a[(i, i)]).sum();
    let gershgorin = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| (c[i] * c[j]).sqrt() * a[(i, j)].abs())
                .sum::<f64>()
        })
        .fold(0.0, f64::max);
    trace.min(gershgorin)
}

/// Whether any contact of the model has a tangential spring.
pub fn has_tangential(model: &Model<f64>) -> bool {
    model.contacts.iter().any(|c| c.tangential.is_some())
}

/// The analysis over every row of a model with tangential springs (`None`
/// without them). `system`: the model's assembled system (its normal rows
/// are replaced by every row here).
pub fn analyze(
    model: &Model<f64>,
    system: &System<f64>,
) -> Result<Option<Tangential>, AnalysisError> {
    if !has_tangential(model) {
        return Ok(None);
    }
    let (rows, of) = ContactRows::new(model).all_rows();
    let mut all = System {
        dofs: system.dofs.clone(),
        mass: system.mass.clone(),
        jacobian: rows,
        constraints: system.constraints.clone(),
    };
    let d = super::delassus(&all).map_err(|e| match e {
        AnalysisError::OutOfRange { contact, what } => AnalysisError::OutOfRange {
            contact: of[contact].contact,
            what: format!("row {}: {what}", of[contact].direction.label(false)),
        },
        e => e,
    })?;
    let jacobian: Vec<Vec<f64>> = all.jacobian.iter().map(|r| all.dense_row(r)).collect();
    all.jacobian = Vec::new();
    let a = d.matrix;
    let (k, c): (Vec<f64>, Vec<Option<f64>>) = of
        .iter()
        .map(|r| {
            let contact = &model.contacts[r.contact];
            match r.direction {
                Direction::Normal => (contact.stiffness, contact.damping),
                Direction::Tangent(_) => contact
                    .tangential_values()
                    .expect("tangent rows come from tangential springs"),
            }
        })
        .unzip();
    let first = first_rows(of.iter().copied());
    let blocks = BlockTable::new(&first, |p, q| a[(p, q)]);
    let rows = RowTable::new(
        RowColumns {
            first,
            a: (0..of.len()).map(|i| a[(i, i)]).collect(),
            mobile: d.immobile.iter().map(|x| !x).collect(),
            stiffness: k,
            damping: dashpots(c),
        },
        |r| direction_of(model, &r),
    );
    let (modes, zero_modes) = modes(&a, rows.stiffness());
    let bounds = bounds(&a, &rows);
    let stable_dt = steps(&a, &rows, &modes, &bounds);
    let setting_rows = setting_rows(&modes, rows.stiffness());
    Ok(Some(Tangential {
        jacobian,
        omega_max: modes.first().map_or(0.0, |m| m.omega),
        independent_omega_max: independent_omega_max(&rows),
        omega_upper_bound: bounds.omega,
        omega_upper_bound_kind: bounds.kind,
        damping_rate_bound: bounds.gamma,
        rows,
        blocks,
        delassus: a,
        modes,
        zero_modes,
        stable_dt,
        setting_rows,
        normal_governing: None,
        large: None,
    }))
}

/// Bounds over every row: ω̄ ≥ ω_max and γ̄ ≥ λ_max(C^½ A C^½).
struct Bounds {
    omega: f64,
    kind: &'static str,
    gamma: Option<f64>,
}

/// ω̄ (the smaller of the trace and Gershgorin bounds of `K^½ A K^½`) and
/// γ̄ ([`damping_rate_bound`]) over every row, normal and tangential.
fn bounds(a: &DMatrix<f64>, rows: &RowTable) -> Bounds {
    let n = rows.len();
    let k = rows.stiffness();
    let trace = (0..n).map(|r| k[r] * rows.a()[r]).sum::<f64>().sqrt();
    let gershgorin = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| (k[i] * k[j]).sqrt() * a[(i, j)].abs())
                .sum::<f64>()
        })
        .fold(0.0, f64::max)
        .sqrt();
    let (omega, kind) = if gershgorin < trace {
        (gershgorin, "gershgorin")
    } else {
        (trace, "trace")
    };
    let any_damping = rows.any_damping();
    let c: Vec<f64> = (0..n).map(|r| rows.damping(r).unwrap_or(0.0)).collect();
    Bounds {
        omega,
        kind,
        gamma: any_damping.then(|| damping_rate_bound(a, &c)),
    }
}

/// The stable steps over every row, as [`super::analyze`] finds them for
/// the normal rows; `guaranteed` from `bounds` alone (over every row).
fn steps(a: &DMatrix<f64>, rows: &RowTable, modes: &[Mode], bounds: &Bounds) -> StableDt {
    let k = rows.stiffness();
    let omega_max = modes.first().map_or(0.0, |m| m.omega);
    let any_damping = bounds.gamma.is_some();
    let c: Vec<f64> = (0..rows.len())
        .map(|r| rows.damping(r).unwrap_or(0.0))
        .collect();
    let gamma = bounds.gamma;
    let damped = any_damping
        .then(|| dt_undamped(omega_max).and_then(|h| stable::symplectic_euler_damped(a, k, &c, h)))
        .flatten();
    let governing = stable::governing(omega_max, false, damped, gamma);
    StableDt {
        coupled: dt_undamped(omega_max),
        independent: dt_undamped(independent_omega_max(rows)),
        coupled_damped: damped,
        independent_damped: any_damping.then(|| independent_damped(rows)).flatten(),
        guaranteed: stable::guaranteed(bounds.omega, gamma, governing),
        governing,
    }
}

/// `max_i ω_i` over every row, each row alone.
pub(super) fn independent_omega_max(rows: &RowTable) -> f64 {
    (0..rows.len()).map(|r| rows.omega(r)).fold(0.0, f64::max)
}

/// The smallest step of the rows one by one with their dashpots (rows
/// that can move).
fn independent_damped(rows: &RowTable) -> Option<f64> {
    (0..rows.len())
        .filter(|&r| rows.m_eff(r).is_some())
        .filter_map(|r| {
            let (k, a) = (rows.stiffness()[r], rows.a()[r]);
            let zeta = rows.damping(r).unwrap_or(0.0) * a.sqrt() / (2.0 * k.sqrt());
            super::dt_damped(rows.omega(r), zeta)
        })
        .min_by(f64::total_cmp)
}

/// Modes this close (relatively) to the fastest are one degenerate
/// fastest mode: their shares are pooled, so which vector of the
/// degenerate space the eigensolver returned does not matter.
const DEGENERATE: f64 = 1e-9;

/// The rows whose share of the fastest mode (the unit eigenvector u of S,
/// `u = K^½ shape / |K^½ shape|`; over a degenerate fastest mode the mean
/// of its vectors' shares) is at least [`SETTING_SHARE`].
pub(super) fn setting_rows(modes: &[Mode], k: &[f64]) -> Vec<(usize, f64)> {
    let Some(first) = modes.first() else {
        return Vec::new();
    };
    let fastest: Vec<&Mode> = modes
        .iter()
        .take_while(|m| m.omega >= first.omega * (1.0 - DEGENERATE))
        .collect();
    let mut share = vec![0.0; k.len()];
    for m in &fastest {
        let u: Vec<f64> = m.shape.iter().zip(k).map(|(s, k)| s * k.sqrt()).collect();
        let norm: f64 = u.iter().map(|x| x * x).sum();
        for (s, x) in share.iter_mut().zip(&u) {
            *s += x * x / norm / fastest.len() as f64;
        }
    }
    let mut out: Vec<(usize, f64)> = share
        .into_iter()
        .enumerate()
        .filter(|(_, s)| *s >= SETTING_SHARE)
        .collect();
    out.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
    out
}

/// The unit direction of a row in world axes (empty for a Jacobian row).
pub(super) fn direction_of(model: &Model<f64>, r: &RowOf) -> Vec<f64> {
    let c = &model.contacts[r.contact];
    match (r.direction, &c.geometry) {
        (Direction::Normal, crate::model::Geometry::Point { normal, .. }) => normal.clone(),
        (Direction::Tangent(k), _) => c
            .tangential
            .as_ref()
            .map(|t| t.basis[k as usize].clone())
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}
