//! Tangential rows on the large (matrix-free) path.
//!
//! A contact with a tangential spring has a normal row and one row per
//! tangent (two in 3-d, one in a planar case), along the basis the case
//! reader chose ([`crate::model::TangentialSpring::basis`], the one the
//! dense path uses too). Every row is a row of S = K^½ J M⁻¹ Jᵀ K^½ here,
//! with its own stiffness (a tangent row's `k_t`, absolute or as a ratio
//! to the contact's `k_n`), built by [`large::coupled_with`] exactly as
//! the normal rows alone are: whitened rows, S in compressed rows, its
//! fastest modes by Lanczos over every row. The rows are numbered contact
//! by contact (normal, then tangents), as on the dense path
//! ([`crate::model::ContactRows::all_rows`]); a contact's rows are stored
//! next to each other, in the contacts' storage order ([`order`]).
//!
//! What comes out is the dense path's [`Tangential`]: every row's A_ii,
//! m_eff and ω, each contact's block of A (from S), the fastest modes over
//! every row, which rows set the step (their shares of the fastest mode),
//! and the steps with and without the tangential springs. Without dashpots
//! the step is `2/ω_max` over every row (the Gershgorin bound when the
//! fastest mode did not converge); with dashpots the energy bound at
//! ω_max and the Gershgorin bound on the dashpots' rate, as for the normal
//! rows on this path. The modes over every row are the dense path's to
//! Lanczos' tolerance (tests/it/physics/tangential_large.rs: 1e-10).

use super::large::{self, Coupled, RowOrder};
use super::tangential::{ContactBlock, RowResult, Tangential};
use super::{Analysis, AnalysisError, LargeModes, StableDt, dt_undamped, order, stable};
use crate::model::{ContactRows, Direction, Model, RowOf, System};
use nalgebra::DMatrix;

/// Every contact row of a model: which contact and direction each is, and
/// the first row of each contact (one more than contacts).
pub struct Rows {
    /// Row r's contact and direction.
    pub of: Vec<RowOf>,
    /// Contact i's rows: `first[i] .. first[i + 1]` (normal first).
    pub first: Vec<usize>,
}

impl Rows {
    /// The rows of `model`'s contacts, contact by contact.
    pub fn of(model: &Model<f64>) -> Rows {
        let mut of = Vec::with_capacity(model.contacts.len());
        let mut first = Vec::with_capacity(model.contacts.len() + 1);
        for (i, c) in model.contacts.iter().enumerate() {
            first.push(of.len());
            of.push(RowOf {
                contact: i,
                direction: Direction::Normal,
            });
            let tangents = c.tangential.as_ref().map_or(0, |t| t.basis.len());
            of.extend((0..tangents).map(|k| RowOf {
                contact: i,
                direction: Direction::Tangent(k as u8),
            }));
        }
        first.push(of.len());
        Rows { of, first }
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.of.len()
    }

    /// True without rows.
    pub fn is_empty(&self) -> bool {
        self.of.is_empty()
    }

    /// The rows' storage order from the contacts' (each contact's rows
    /// together, in its own order).
    fn order(&self, contacts: Option<RowOrder>) -> Option<RowOrder> {
        let o = contacts?;
        let c = self.first.len() - 1;
        let mut rows = Vec::with_capacity(self.len());
        for r in 0..c {
            let i = o.contact(r);
            rows.extend((self.first[i]..self.first[i + 1]).map(|x| x as u32));
        }
        Some(RowOrder::new(rows))
    }
}

/// Each row's stiffness and damping (`None`: no dashpot).
fn row_values(model: &Model<f64>, rows: &Rows) -> (Vec<f64>, Vec<Option<f64>>) {
    rows.of
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
        .unzip()
}

/// S over every row of `model` (normal and tangential), stored with each
/// contact's rows together in the contacts' storage order.
pub fn coupled_rows(
    model: &Model<f64>,
    system: &System<f64>,
    rows: &Rows,
    stiffness: &[f64],
) -> Result<Coupled, AnalysisError> {
    let made = ContactRows::new(model);
    let order = rows.order(order::contact_order(model));
    let row = |r: usize, out: &mut crate::model::SparseRow<f64>| {
        let of = rows.of[r];
        match of.direction {
            Direction::Normal => made.row_into(of.contact, out),
            Direction::Tangent(k) => {
                let t = model.contacts[of.contact]
                    .tangential
                    .as_ref()
                    .expect("tangent rows come from tangential springs");
                made.direction_row_into(of.contact, &t.basis[k as usize], out)
            }
        }
    };
    large::coupled_with(system, stiffness, row, order).map_err(|e| match e {
        AnalysisError::OutOfRange { contact, what } => AnalysisError::OutOfRange {
            contact: rows.of[contact].contact,
            what: format!("row {}: {what}", rows.of[contact].direction.label(false)),
        },
        AnalysisError::TooLarge { constrained, .. } => AnalysisError::TooLarge {
            contacts: model.contacts.len(),
            constrained,
        },
        e => e,
    })
}

/// The large path's analysis `an` (normal rows) with the analysis over
/// every row added when the model has tangential springs: the step to use
/// and the guaranteed one become those over every row, as on the dense
/// path ([`super::tangential::with_tangential`]).
pub(super) fn with_tangential(
    model: &Model<f64>,
    system: &System<f64>,
    mut an: Analysis,
    want: LargeModes,
) -> Result<Analysis, AnalysisError> {
    if !super::tangential::has_tangential(model) {
        return Ok(an);
    }
    let mut t = analyze(model, system, want)?;
    t.normal_governing = an.stable_dt.governing;
    an.stable_dt.governing = t.stable_dt.governing;
    an.stable_dt.guaranteed = t.stable_dt.guaranteed;
    an.tangential = Some(t);
    Ok(an)
}

/// The analysis over every row of a model on the large path (its
/// `normal_governing` left `None`, as [`super::tangential::analyze`]
/// leaves it).
pub fn analyze(
    model: &Model<f64>,
    system: &System<f64>,
    want: LargeModes,
) -> Result<Tangential, AnalysisError> {
    let rows = Rows::of(model);
    let (k, c) = row_values(model, &rows);
    let coupled = coupled_rows(model, system, &rows, &k)?;
    crate::timing::mark("whiten-rows-tangential");
    // Shapes always: which rows set the step (the headline's) are read
    // from the fastest mode's vector.
    let units: usize = rows.first.windows(2).map(|w| (w[1] - w[0]).pow(2)).sum();
    let (modes, info) = super::lanczos::fastest_modes_over_rows(&coupled, want.count, true, units);
    crate::timing::detail(&format!(
        "tangential rows={} stored={} nnz={} steps={} converged={}",
        rows.len(),
        info.stored,
        info.nnz,
        info.lanczos_steps,
        info.modes_converged
    ));
    crate::timing::mark("lanczos-tangential");
    let results: Vec<RowResult> = rows
        .of
        .iter()
        .enumerate()
        .map(|(r, of)| {
            let a = coupled.diag[r];
            RowResult {
                of: *of,
                direction: super::tangential::direction_of(model, of),
                stiffness: k[r],
                damping: c[r],
                a,
                m_eff: (a > 0.0).then(|| 1.0 / a),
                omega: (k[r] * a).sqrt(),
            }
        })
        .collect();
    let contacts = blocks(model, &rows, &coupled);
    let stable_dt = steps(&results, &coupled, &modes, info.gershgorin_omega);
    let setting_rows = super::tangential::setting_rows(&modes, &k);
    let trace = results
        .iter()
        .map(|r| r.stiffness * r.a)
        .sum::<f64>()
        .sqrt();
    let (omega_upper_bound, omega_upper_bound_kind) = if info.gershgorin_omega < trace {
        (info.gershgorin_omega, "gershgorin")
    } else {
        (trace, "trace")
    };
    let damping_rate_bound = results.iter().any(|r| r.damping.is_some()).then(|| {
        let c: Vec<f64> = results.iter().map(|r| r.damping.unwrap_or(0.0)).collect();
        coupled.gershgorin_damped(&c)
    });
    Ok(Tangential {
        // J over every row is not kept on the large path (not printed).
        jacobian: Vec::new(),
        omega_max: modes.first().map_or(info.gershgorin_omega, |m| m.omega),
        independent_omega_max: results.iter().map(|r| r.omega).fold(0.0, f64::max),
        omega_upper_bound,
        omega_upper_bound_kind,
        damping_rate_bound,
        rows: results,
        contacts,
        delassus: DMatrix::zeros(0, 0),
        modes,
        // Not counted on the large path (no rank is computed).
        zero_modes: 0,
        stable_dt,
        setting_rows,
        normal_governing: None,
    })
}

/// The blocks of A of the contacts with a tangential spring, read from S.
fn blocks(model: &Model<f64>, rows: &Rows, cp: &Coupled) -> Vec<ContactBlock> {
    model
        .contacts
        .iter()
        .enumerate()
        .filter(|(_, c)| c.tangential.is_some())
        .map(|(i, _)| {
            let r = rows.first[i]..rows.first[i + 1];
            let block: Vec<Vec<f64>> = r
                .clone()
                .map(|p| r.clone().map(|q| cp.a(p, q)).collect())
                .collect();
            let n = r.start;
            let coupling = (r.start + 1..r.end)
                .map(|t| {
                    let den = (cp.diag[n] * cp.diag[t]).sqrt();
                    if den > 0.0 { cp.a(n, t) / den } else { 0.0 }
                })
                .collect();
            ContactBlock {
                contact: i,
                first_row: n,
                block,
                coupling,
            }
        })
        .collect()
}

/// The stable steps over every row on the large path (see the module
/// notes): no step map (`coupled_damped`, `independent_damped` are
/// `None`), the guaranteed step from the smaller of the trace and
/// Gershgorin bounds.
fn steps(rows: &[RowResult], cp: &Coupled, modes: &[super::Mode], gershgorin: f64) -> StableDt {
    let omega_max = modes.first().map_or(gershgorin, |m| m.omega);
    let any_damping = rows.iter().any(|r| r.damping.is_some());
    let gamma = any_damping.then(|| {
        let c: Vec<f64> = rows.iter().map(|r| r.damping.unwrap_or(0.0)).collect();
        cp.gershgorin_damped(&c)
    });
    let governing = stable::governing(omega_max, modes.is_empty(), None, gamma);
    let trace = rows.iter().map(|r| r.stiffness * r.a).sum::<f64>().sqrt();
    let independent = rows.iter().map(|r| r.omega).fold(0.0, f64::max);
    StableDt {
        coupled: dt_undamped(omega_max),
        independent: dt_undamped(independent),
        coupled_damped: None,
        independent_damped: None,
        guaranteed: stable::guaranteed(trace.min(gershgorin), gamma, governing),
        governing,
    }
}

/// Contact rows of a model: one a contact, plus one per tangent of a
/// tangential spring.
pub fn row_count(model: &Model<f64>) -> usize {
    model
        .contacts
        .iter()
        .map(|c| 1 + c.tangential.as_ref().map_or(0, |t| t.basis.len()))
        .sum()
}
