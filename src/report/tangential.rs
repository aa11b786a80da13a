//! The tangential rows' section of the report: per row its effective
//! mass, per contact its block's couplings, the coupled modes over every
//! row and the step with and without the tangential springs.

use crate::analysis::tangential::Tangential;
use crate::case::Case;
use serde::Serialize;

/// Most modes over every row listed (fastest first).
pub const MODES_LISTED: usize = 6;

/// Most rows whose damped modes are formed (a dense eigenproblem of twice
/// the rows).
pub const DAMPED_ROWS: usize = 384;

/// The tangential rows (`null` in the JSON without tangential springs).
#[derive(Clone, Debug, Serialize)]
pub struct TangentialReport {
    /// Every contact row, contact by contact: the normal row, then the
    /// contact's tangent rows.
    pub rows: Vec<RowReport>,
    /// The contacts with a tangential spring: their blocks of A.
    pub contacts: Vec<TangentialContactReport>,
    /// The fastest coupled modes over every row (at most six).
    pub modes: Vec<RowModeReport>,
    /// Nonzero modes over every row.
    pub modes_total: usize,
    /// The damped coupled modes over every row (at most six, fastest
    /// first); `None` without dashpots or above [`DAMPED_ROWS`] rows.
    pub damped_modes: Option<Vec<super::DampedModeReport>>,
    /// Zero modes over every row.
    pub zero_modes: usize,
    /// The step to use with the tangential springs (over every row).
    pub dt_with: Option<f64>,
    /// What sets it (as `stable_dt.governing_by`).
    pub dt_with_by: Option<&'static str>,
    /// The step to use over the normal rows alone.
    pub dt_without: Option<f64>,
    /// The fastest coupled mode over the normal rows alone (rad/s);
    /// `coupled_omega_max` is over every row.
    pub normal_omega_max: f64,
    /// `dt_with / dt_without`.
    pub dt_ratio: Option<f64>,
    /// `2/ω_max` over every row (no dashpots).
    pub dt_undamped: Option<f64>,
    /// The rows that set the step, with their share of the fastest mode
    /// (u_i² of its unit eigenvector of K^½ A K^½), largest first.
    pub setting_rows: Vec<SettingRow>,
}

/// One contact row.
#[derive(Clone, Debug, Serialize)]
pub struct RowReport {
    /// `contact.n`, `contact.t1`, `contact.t2` (`contact.t` in a planar case).
    pub name: String,
    /// The contact.
    pub contact: String,
    /// `n`, `t1`, `t2` or `t`.
    pub direction: &'static str,
    /// Unit direction in world axes.
    pub direction_vector: Vec<f64>,
    /// Row stiffness (N/m).
    pub stiffness: f64,
    /// Row damping (N·s/m), if any.
    pub damping: Option<f64>,
    /// `A_ii` (1/kg).
    pub a: f64,
    /// `1/A_ii` (kg), `null` when the row cannot move.
    pub m_eff: Option<f64>,
    /// `√(k A_ii)` (rad/s).
    pub omega: f64,
}

/// A contact with a tangential spring.
#[derive(Clone, Debug, Serialize)]
pub struct TangentialContactReport {
    /// The contact.
    pub contact: String,
    /// Normal effective mass (kg).
    pub m_n: Option<f64>,
    /// Per tangent: its effective mass 1/A_tt (kg).
    pub m_t: Vec<Option<f64>>,
    /// Per tangent: `m_t / m_n`.
    pub m_t_over_m_n: Vec<Option<f64>>,
    /// Per tangent: the normal–tangential coupling `A_nt/√(A_nn A_tt)`.
    pub coupling: Vec<f64>,
    /// The block of A over the contact's rows (normal first), 1/kg.
    pub block: Vec<Vec<f64>>,
    /// Whether the first tangent was given (`tangent`) or chosen by the
    /// default rule (docs/case-format.md).
    pub tangent_given: bool,
}

/// A coupled mode over every row.
#[derive(Clone, Debug, Serialize)]
pub struct RowModeReport {
    /// Angular frequency (rad/s).
    pub omega: f64,
    /// The row with the largest share of the mode.
    pub leading_row: String,
    /// That row's share (u_i²).
    pub share: f64,
}

/// A row that sets the step.
#[derive(Clone, Debug, Serialize)]
pub struct SettingRow {
    /// Row name.
    pub row: String,
    /// Share of the fastest mode.
    pub share: f64,
}

/// The large path's run over every contact row (tangential springs).
#[derive(Clone, Debug, Serialize)]
pub struct RowsLargeReport {
    /// Rows (normal and tangential).
    pub rows: usize,
    /// Steps of the Lanczos recurrence.
    pub lanczos_steps: usize,
    /// Products with S over every row in all.
    pub products: usize,
    /// Fastest modes asked for.
    pub modes_requested: usize,
    /// Of those, converged.
    pub modes_converged: usize,
    /// Gershgorin upper bound on ω_max over every row (rad/s).
    pub gershgorin_omega: f64,
    /// True when ω_max over every row is that Gershgorin bound (the
    /// fastest mode did not converge): the step printed is then 2/ω̄.
    pub omega_max_is_bound: bool,
    /// Nonzero entries of S over every row (both triangles).
    pub nnz: usize,
    /// Entries of it stored.
    pub stored: usize,
}

/// The large path's run over every row, when the analysis has one.
pub(super) fn rows_large(an: &crate::analysis::Analysis) -> Option<RowsLargeReport> {
    let t = an.tangential.as_ref()?;
    t.large.as_ref().map(|l| RowsLargeReport {
        rows: t.rows.len(),
        lanczos_steps: l.lanczos_steps,
        products: l.products,
        modes_requested: l.modes_requested,
        modes_converged: l.modes_converged,
        gershgorin_omega: l.gershgorin_omega,
        omega_max_is_bound: t.modes.is_empty(),
        nnz: l.nnz,
        stored: l.stored,
    })
}

/// The report of the rows of `t` (`case`: names, planar or not): the rows
/// and blocks of the contacts `keep` (the report's contact selection, in
/// its order; every contact when `all`).
pub fn report(
    case: &Case,
    an: &crate::analysis::Analysis,
    t: &Tangential,
    keep: &[usize],
    all: bool,
) -> TangentialReport {
    let planar = case.space == crate::case::Space::Planar;
    // Names as they are needed (a String each of 3·10⁶ contacts is not).
    let name = |c: usize| case.contact_name(c).into_owned();
    let row_name = |i: usize| t.row_name(|c| case.contact_name(c), i, planar);
    let listed: Vec<usize> = if all {
        (0..t.rows.len()).collect()
    } else {
        keep.iter().flat_map(|&c| t.rows.rows_of(c)).collect()
    };
    let mut is_kept = vec![all; case.n_contacts()];
    for &c in keep {
        is_kept[c] = true;
    }
    let kept = |c: usize| is_kept[c];
    let rows = listed
        .iter()
        .map(|&i| (i, t.rows.get(i)))
        .map(|(i, r)| RowReport {
            name: row_name(i),
            contact: name(r.of.contact),
            direction: r.of.direction.label(planar),
            direction_vector: r.direction,
            stiffness: r.stiffness,
            damping: r.damping,
            a: r.a,
            m_eff: r.m_eff,
            omega: r.omega,
        })
        .collect();
    let contacts = (0..t.blocks.len())
        .filter(|&j| kept(t.blocks.contact(j)))
        .map(|j| t.contact_block(j))
        .map(|b| {
            let m_n = t.rows.m_eff(b.first_row);
            let m_t: Vec<Option<f64>> = (1..b.block.len())
                .map(|k| t.rows.m_eff(b.first_row + k))
                .collect();
            TangentialContactReport {
                contact: name(b.contact),
                m_n,
                m_t_over_m_n: m_t.iter().map(|m| m.zip(m_n).map(|(t, n)| t / n)).collect(),
                m_t,
                coupling: b.coupling,
                block: b.block,
                // A scene's tangents are never given.
                tangent_given: case
                    .contacts
                    .get(b.contact)
                    .and_then(|c| c.tangential.as_ref())
                    .is_some_and(|x| x.given_tangent),
            }
        })
        .collect();
    let k = t.rows.stiffness();
    let modes = t
        .modes
        .iter()
        .take(MODES_LISTED)
        .map(|m| {
            let u: Vec<f64> = m.shape.iter().zip(k).map(|(s, k)| s * k.sqrt()).collect();
            let norm: f64 = u.iter().map(|x| x * x).sum();
            let (i, share) = u
                .iter()
                .enumerate()
                .map(|(i, x)| (i, x * x / norm))
                .fold((0, -1.0), |b, x| if x.1 > b.1 { x } else { b });
            RowModeReport {
                omega: m.omega,
                leading_row: row_name(i),
                share,
            }
        })
        .collect();
    let damping: Vec<f64> = t.rows.iter().map(|r| r.damping.unwrap_or(0.0)).collect();
    // The large path keeps no dense A over the rows: no damped modes.
    let damped_modes = (t.rows.iter().any(|r| r.damping.is_some())
        && t.rows.len() <= DAMPED_ROWS
        && t.delassus.nrows() == t.rows.len())
    .then(|| {
        let undamped: Vec<f64> = t.modes.iter().map(|m| m.omega).collect();
        crate::analysis::damped_modes(&t.delassus, k, &damping, &undamped)
            .into_iter()
            .take(MODES_LISTED)
            .map(|m| super::DampedModeReport {
                omega: m.omega,
                zeta: m.zeta,
            })
            .collect()
    });
    let dt_with = t.stable_dt.governing.map(|(h, _)| h);
    let dt_without = t.normal_governing.map(|(h, _)| h);
    TangentialReport {
        rows,
        contacts,
        modes,
        modes_total: t.modes.len(),
        damped_modes,
        zero_modes: t.zero_modes,
        dt_with,
        dt_with_by: t.stable_dt.governing.map(|(_, g)| g.key()),
        dt_without,
        normal_omega_max: an.coupled_omega_max,
        dt_ratio: dt_with.zip(dt_without).map(|(a, b)| a / b),
        dt_undamped: t.stable_dt.coupled,
        setting_rows: t
            .setting_rows
            .iter()
            .map(|&(i, share)| SettingRow {
                row: row_name(i),
                share,
            })
            .collect(),
    }
}

/// `max_i ω_i`, ω_max, ω̄ and which bound ω̄ is: over every row, normal
/// and tangential, when the case has tangential springs (the sheet's step
/// is over every row), else over the contacts' normal rows.
pub(super) fn omega_figures(an: &crate::analysis::Analysis) -> (f64, f64, f64, &'static str) {
    match &an.tangential {
        Some(t) => (
            t.independent_omega_max,
            t.omega_max,
            t.omega_upper_bound,
            t.omega_upper_bound_kind,
        ),
        None => (
            an.independent_omega_max,
            an.coupled_omega_max,
            an.coupled_omega_upper_bound,
            an.coupled_omega_upper_bound_kind,
        ),
    }
}

/// The stable timesteps (over every row with tangential springs).
pub fn stable_dt_report(an: &crate::analysis::Analysis) -> super::StableDtReport {
    let dt = an
        .tangential
        .as_ref()
        .map_or(&an.stable_dt, |t| &t.stable_dt);
    super::StableDtReport {
        // The analysis' own: over every row, and at the peak of a Hertz
        // impact where one sets the step.
        guaranteed: an.stable_dt.guaranteed,
        governing: an.stable_dt.governing.map(|(h, _)| h),
        governing_by: an.stable_dt.governing.map(|(_, g)| g.key()),
        nominal_governing: None,
        nominal_guaranteed: None,
        governing_corners: None,
        coupled: dt.coupled,
        independent: dt.independent,
        independent_over_coupled: dt.independent.zip(dt.coupled).map(|(i, c)| i / c),
        coupled_damped: dt.coupled_damped,
        independent_damped: dt.independent_damped,
    }
}
