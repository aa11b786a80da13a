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
//! and the steps with and without the tangential springs, kept as columns
//! (`row_table.rs`: about 42 bytes a row and 24 a block, where a struct a
//! row and nested vectors a block took 1.2 + 0.8 GB at 9·10⁶ rows); S is
//! freed before the rows' table is made. Without dashpots
//! the step is `2/ω_max` over every row (the Gershgorin bound when the
//! fastest mode did not converge); with dashpots the energy bound at
//! ω_max and the Gershgorin bound on the dashpots' rate, as for the normal
//! rows on this path. The modes over every row are the dense path's to
//! Lanczos' tolerance (tests/it/physics/tangential_large.rs: 1e-10).

use super::large::{self, Coupled, RowOrder};
use super::row_table::{BlockTable, RowColumns, RowTable, dashpots};
use super::tangential::Tangential;
use super::{Analysis, AnalysisError, StableDt, dt_undamped, order, stable};
use crate::model::{ContactRows, Direction, Model, RowOf, System};
use nalgebra::DMatrix;

/// Every contact row of a model: which contact each is (its direction is
/// its place among the contact's rows), and the first row of each contact
/// (one more than contacts).
pub struct Rows {
    /// Row r's contact.
    contact: Vec<u32>,
    /// Contact i's rows: `first[i] .. first[i + 1]` (normal first).
    pub first: Vec<usize>,
}

impl Rows {
    /// The rows of `model`'s contacts, contact by contact.
    pub fn of(model: &Model<f64>) -> Rows {
        let mut contact = Vec::with_capacity(model.contacts.len());
        let mut first = Vec::with_capacity(model.contacts.len() + 1);
        for (i, c) in model.contacts.iter().enumerate() {
            first.push(contact.len());
            let tangents = c.tangential.as_ref().map_or(0, |t| t.basis.len());
            contact.extend(std::iter::repeat_n(i as u32, 1 + tangents));
        }
        first.push(contact.len());
        Rows { contact, first }
    }

    /// Row r's contact and direction.
    pub fn row_of(&self, r: usize) -> RowOf {
        let contact = self.contact[r] as usize;
        RowOf {
            contact,
            direction: match r - self.first[contact] {
                0 => Direction::Normal,
                k => Direction::Tangent((k - 1) as u8),
            },
        }
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.contact.len()
    }

    /// True without rows.
    pub fn is_empty(&self) -> bool {
        self.contact.is_empty()
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
    (0..rows.len())
        .map(|r| {
            let r = rows.row_of(r);
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
        let of = rows.row_of(r);
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
            contact: rows.row_of(contact).contact,
            what: format!(
                "row {}: {what}",
                rows.row_of(contact).direction.label(false)
            ),
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
) -> Result<Analysis, AnalysisError> {
    if !super::tangential::has_tangential(model) {
        return Ok(an);
    }
    let mut t = analyze(model, system)?;
    t.normal_governing = an.stable_dt.governing;
    an.stable_dt.governing = t.stable_dt.governing;
    an.stable_dt.guaranteed = t.stable_dt.guaranteed;
    an.tangential = Some(t);
    Ok(an)
}

/// The analysis over every row of a model on the large path (its
/// `normal_governing` left `None`, as [`super::tangential::analyze`]
/// leaves it). Its modes are the fastest one alone, whatever the case asks
/// of the normal rows ([`super::lanczos::fastest_mode_over_rows`]).
pub fn analyze(model: &Model<f64>, system: &System<f64>) -> Result<Tangential, AnalysisError> {
    let rows = Rows::of(model);
    let (k, c) = row_values(model, &rows);
    let c = dashpots(c);
    let coupled = coupled_rows(model, system, &rows, &k)?;
    crate::timing::mark("whiten-rows-tangential");
    // The fastest mode only, with its shape: ω_max sets the step and
    // which rows set it (the headline's) are read from its vector.
    let units: usize = rows.first.windows(2).map(|w| (w[1] - w[0]).pow(2)).sum();
    let (modes, info) = super::lanczos::fastest_mode_over_rows(&coupled, units);
    crate::timing::detail(&format!(
        "tangential rows={} stored={} nnz={} steps={} converged={}",
        rows.len(),
        info.stored,
        info.nnz,
        info.lanczos_steps,
        info.modes_converged
    ));
    crate::timing::mark("lanczos-tangential");
    let blocks = BlockTable::new(&rows.first, |p, q| coupled.a(p, q));
    let gamma = c.as_ref().map(|c| {
        let c: Vec<f64> = c.iter().map(|x| x.unwrap_or(0.0)).collect();
        coupled.gershgorin_damped(&c)
    });
    // S is freed before the rows' table is made: A_ii is all it keeps of it.
    let Coupled { diag, .. } = coupled;
    let Rows { contact, first } = rows;
    drop(contact);
    let rows = RowTable::new(
        RowColumns {
            first,
            mobile: diag.iter().map(|&a| a > 0.0).collect(),
            a: diag,
            stiffness: k,
            damping: c,
        },
        |of| super::tangential::direction_of(model, &of),
    );
    let stable_dt = steps(&rows, &modes, info.gershgorin_omega, gamma);
    let setting_rows = super::tangential::setting_rows(&modes, rows.stiffness());
    let trace = trace(&rows);
    let (omega_upper_bound, omega_upper_bound_kind) = if info.gershgorin_omega < trace {
        (info.gershgorin_omega, "gershgorin")
    } else {
        (trace, "trace")
    };
    Ok(Tangential {
        // J over every row is not kept on the large path (not printed).
        jacobian: Vec::new(),
        omega_max: modes.first().map_or(info.gershgorin_omega, |m| m.omega),
        independent_omega_max: super::tangential::independent_omega_max(&rows),
        omega_upper_bound,
        omega_upper_bound_kind,
        damping_rate_bound: gamma,
        rows,
        blocks,
        delassus: DMatrix::zeros(0, 0),
        modes,
        // Not counted on the large path (no rank is computed).
        zero_modes: 0,
        stable_dt,
        setting_rows,
        normal_governing: None,
        large: Some(info),
    })
}

/// The trace bound `√(Σ k_i A_ii)` over every row.
fn trace(rows: &RowTable) -> f64 {
    rows.stiffness()
        .iter()
        .zip(rows.a())
        .map(|(k, a)| k * a)
        .sum::<f64>()
        .sqrt()
}

/// The stable steps over every row on the large path (see the module
/// notes): no step map (`coupled_damped`, `independent_damped` are
/// `None`), the guaranteed step from the smaller of the trace and
/// Gershgorin bounds; `gamma` the Gershgorin bound on the dashpots' rate.
fn steps(rows: &RowTable, modes: &[super::Mode], gershgorin: f64, gamma: Option<f64>) -> StableDt {
    let omega_max = modes.first().map_or(gershgorin, |m| m.omega);
    let governing = stable::governing(omega_max, modes.is_empty(), None, gamma);
    StableDt {
        coupled: dt_undamped(omega_max),
        independent: dt_undamped(super::tangential::independent_omega_max(rows)),
        coupled_damped: None,
        independent_damped: None,
        guaranteed: stable::guaranteed(trace(rows).min(gershgorin), gamma, governing),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A jittered 4×3×2 packing of spheres (radius 5 mm) on a floor, its
    /// neighbours in contact at their mid-points: most contacts with a
    /// tangential spring (a ratio or absolute), some with dashpots.
    fn packing() -> String {
        packing_of([4, 3, 2])
    }

    /// [`packing`] with `n` spheres along x, y and z.
    fn packing_of(n: [usize; 3]) -> String {
        let r = 0.005f64;
        let jitter = |i: usize, k: usize| {
            let x = ((i * 7 + k * 13) as f64 * 0.618_033_988_749_895).fract();
            0.02 * r * (x - 0.5)
        };
        let mut s = String::from("space = \"3d\"\n");
        let mut pos = Vec::new();
        for z in 0..n[2] {
            for y in 0..n[1] {
                for x in 0..n[0] {
                    let b = pos.len();
                    let p = [
                        2.0 * r * x as f64 + jitter(b, 0),
                        2.0 * r * y as f64 + jitter(b, 1),
                        r + 2.0 * r * z as f64 + jitter(b, 2).abs(),
                    ];
                    let m = 1e-3 * (1.0 + 0.1 * (b % 3) as f64);
                    let i = 0.4 * m * r * r;
                    s += &format!(
                        "[[body]]\nname = \"s{b}\"\ntype = \"rigid\"\nmass = \"{m:e} kg\"\ninertia = [\"{i:e} kg m^2\", \"{i:e} kg m^2\", \"{i:e} kg m^2\"]\nposition = [\"{:e} m\", \"{:e} m\", \"{:e} m\"]\n",
                        p[0], p[1], p[2]
                    );
                    pos.push(p);
                }
            }
        }
        let mut c = 0;
        let mut contact = |s: &mut String,
                           a: usize,
                           b: Option<usize>,
                           p: [f64; 3],
                           nrm: [f64; 3]| {
            s.push_str(&format!(
                "[[contact]]\nname = \"c{c}\"\nbody = \"s{a}\"\n{}point = [\"{:e} m\", \"{:e} m\", \"{:e} m\"]\nnormal = [{:?}, {:?}, {:?}]\nstiffness = \"{:e} N/m\"\n",
                b.map_or(String::new(), |b| format!("other = \"s{b}\"\n")),
                p[0], p[1], p[2], nrm[0], nrm[1], nrm[2],
                1e5 * (1.0 + 0.5 * (c % 4) as f64)
            ));
            match c % 5 {
                0 => {}
                1 => s.push_str("tangential_stiffness = \"6e4 N/m\"\n"),
                2 => s.push_str("damping = \"0.5 N s/m\"\ntangential_ratio = 0.8\ntangential_damping = \"0.3 N s/m\"\n"),
                _ => s.push_str("tangential_ratio = 0.8\n"),
            }
            c += 1;
        };
        for a in 0..pos.len() {
            if pos[a][2] < 1.5 * r {
                let p = pos[a];
                contact(&mut s, a, None, [p[0], p[1], 0.0], [0.0, 0.0, 1.0]);
            }
            for b in a + 1..pos.len() {
                let d: Vec<f64> = (0..3).map(|k| pos[a][k] - pos[b][k]).collect();
                let l = d.iter().map(|x| x * x).sum::<f64>().sqrt();
                if l < 2.2 * r {
                    let mid = std::array::from_fn(|k| 0.5 * (pos[a][k] + pos[b][k]));
                    contact(&mut s, a, Some(b), mid, std::array::from_fn(|k| d[k] / l));
                }
            }
        }
        s
    }

    /// The table gives, bit for bit, what one struct a row and nested
    /// vectors a block held: each row's A_ii, m_eff, ω, contact, direction,
    /// k and c from S and the model, each block of A and its couplings
    /// read from S; and the modes are those of S (not changed by the
    /// table: the same S, the same recurrence).
    #[test]
    fn the_compact_rows_and_blocks_are_those_read_from_s() {
        let case = crate::case::parse_case("packing.toml", &packing()).expect("packing");
        let model = crate::model::numeric(&case);
        let system = crate::model::assemble_without_contacts(&model);
        let t = analyze(&model, &system).expect("analysis");
        let rows = Rows::of(&model);
        let (k, c) = row_values(&model, &rows);
        let cp = coupled_rows(&model, &system, &rows, &k).expect("S");
        // Rows as the struct-per-row code numbered them.
        let mut of = Vec::new();
        for (i, x) in model.contacts.iter().enumerate() {
            of.push(RowOf {
                contact: i,
                direction: Direction::Normal,
            });
            for k in 0..x.tangential.as_ref().map_or(0, |t| t.basis.len()) {
                of.push(RowOf {
                    contact: i,
                    direction: Direction::Tangent(k as u8),
                });
            }
        }
        assert!(of.len() > 2 * model.contacts.len(), "{} rows", of.len());
        assert!(c.iter().any(Option::is_some) && c.iter().any(Option::is_none));
        assert_eq!(t.rows.len(), of.len());
        for (r, want) in of.iter().enumerate() {
            let got = t.rows.get(r);
            let a = cp.diag[r];
            assert_eq!(got.of, *want);
            assert_eq!(
                got.direction,
                super::super::tangential::direction_of(&model, want)
            );
            assert_eq!(got.stiffness.to_bits(), k[r].to_bits());
            assert_eq!(got.damping.map(f64::to_bits), c[r].map(f64::to_bits));
            assert_eq!(got.a.to_bits(), a.to_bits());
            assert_eq!(
                got.m_eff.map(f64::to_bits),
                (a > 0.0).then(|| (1.0 / a).to_bits())
            );
            assert_eq!(got.omega.to_bits(), (k[r] * a).sqrt().to_bits());
        }
        let with: Vec<usize> = (0..model.contacts.len())
            .filter(|&i| model.contacts[i].tangential.is_some())
            .collect();
        assert_eq!(t.blocks.len(), with.len());
        for (j, &i) in with.iter().enumerate() {
            let b = t.contact_block(j);
            let first = rows.first[i];
            assert_eq!((b.contact, b.first_row), (i, first));
            let m = rows.first[i + 1] - first;
            for p in 0..m {
                for q in 0..m {
                    assert_eq!(
                        b.block[p][q].to_bits(),
                        cp.a(first + p, first + q).to_bits()
                    );
                }
            }
            for tr in 1..m {
                let den = (cp.diag[first] * cp.diag[first + tr]).sqrt();
                let want = if den > 0.0 {
                    cp.a(first, first + tr) / den
                } else {
                    0.0
                };
                assert_eq!(b.coupling[tr - 1].to_bits(), want.to_bits());
            }
        }
        let units: usize = rows.first.windows(2).map(|w| (w[1] - w[0]).pow(2)).sum();
        let (modes, _) = super::super::lanczos::fastest_mode_over_rows(&cp, units);
        assert!(!modes.is_empty());
        assert_eq!(modes, t.modes);
        assert_eq!(t.omega_max.to_bits(), modes[0].omega.to_bits());
    }

    /// The run over every row seeks the fastest mode alone and stops at
    /// the first check where it has converged: one replay of the
    /// recurrence for its shape and one product for its true residual
    /// (2·steps products), at most half of what six modes with shapes take
    /// on the same S, with the same ω_max and the same rows setting the
    /// step. Products are deterministic (fixed start, fixed summation
    /// order).
    #[test]
    fn the_run_over_every_row_converges_the_fastest_mode_alone() {
        let case =
            crate::case::parse_case("packing.toml", &packing_of([9, 8, 5])).expect("packing");
        let model = crate::model::numeric(&case);
        let system = crate::model::assemble_without_contacts(&model);
        let rows = Rows::of(&model);
        let (k, _) = row_values(&model, &rows);
        let cp = coupled_rows(&model, &system, &rows, &k).expect("S");
        let units: usize = rows.first.windows(2).map(|w| (w[1] - w[0]).pow(2)).sum();
        let (one, info) = super::super::lanczos::fastest_mode_over_rows(&cp, units);
        let (six, six_info) = super::super::lanczos::fastest_modes(&cp, 6, true);
        assert_eq!(six_info.modes_converged, 6, "{six_info:?}");
        assert_eq!(
            (info.modes_requested, info.modes_converged, one.len()),
            (1, 1, 1),
            "{info:?}"
        );
        assert_eq!(info.products, 2 * info.lanczos_steps, "{info:?}");
        assert!(
            2 * info.products <= six_info.products,
            "{} products for the fastest mode, {} for six",
            info.products,
            six_info.products
        );
        assert!(
            info.max_residual <= super::super::lanczos::TOLERANCE,
            "{info:?}"
        );
        assert!((one[0].omega - six[0].omega).abs() <= 1e-12 * six[0].omega);
        let (a, b) = (
            super::super::tangential::setting_rows(&one, &k),
            super::super::tangential::setting_rows(&six[..1], &k),
        );
        assert!(!a.is_empty());
        assert_eq!(
            a.iter().map(|x| x.0).collect::<Vec<_>>(),
            b.iter().map(|x| x.0).collect::<Vec<_>>()
        );
        for (x, y) in a.iter().zip(&b) {
            assert!((x.1 - y.1).abs() <= 1e-8, "{x:?} vs {y:?}");
        }
        eprintln!("over every row: {info:?}\nsix modes: {six_info:?}");
    }
}
