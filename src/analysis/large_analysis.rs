//! The large path's analysis once S is built: the fastest modes, the
//! bounds and the stable steps, for the model path's per-contact results
//! and for a large scene's columns alike.

use super::{
    Analysis, ContactResult, LargeModes, StableDt, dt_undamped, large, stable, upper_bound_of,
};
use crate::case::Space;
use crate::case::scene::{SceneData, WORLD};
use nalgebra::DMatrix;

/// The large path's analysis from S: the fastest modes, the bounds and
/// the steps. The per-contact results are `contacts`, or, on the columnar
/// path of a large scene, formed from `columns` (`contacts` empty);
/// `damping`: every contact's dashpot (0 for none) when any has one (the
/// columns' own when `None`).
pub(crate) fn large_analysis(
    coupled: large::Coupled,
    contacts: Vec<ContactResult>,
    columns: Option<ContactColumns>,
    damping: Option<&[f64]>,
    want: LargeModes,
) -> Analysis {
    let (modes, info) = large::fastest_modes(&coupled, want.count, want.shapes);
    crate::timing::mark("lanczos");
    let result = |i: usize| match &columns {
        Some(c) => std::borrow::Cow::Owned(c.result(i, coupled.diag[i])),
        None => std::borrow::Cow::Borrowed(&contacts[i]),
    };
    let c = coupled.diag.len();
    let independent_omega_max = (0..c).map(|i| result(i).omega).fold(0.0, f64::max);
    // Never an unconverged Lanczos value: the Gershgorin bound is safe.
    let coupled_omega_max = modes.first().map_or(info.gershgorin_omega, |m| m.omega);
    let (coupled_omega_upper_bound, coupled_omega_upper_bound_kind) = upper_bound_of(
        (0..c).map(|i| {
            let r = result(i);
            r.stiffness * r.a
        }),
        info.gershgorin_omega,
    );
    // Dashpots on the large path: C^½ A C^½ = D S D with D = diag √(c/k),
    // bounded by Gershgorin on D S D (one more pass over S).
    let gamma_bound = damping
        .or_else(|| columns.as_ref().and_then(|c| c.damping.as_deref()))
        .map(|c| coupled.gershgorin_damped(c));
    let governing = stable::governing(coupled_omega_max, modes.is_empty(), None, gamma_bound);
    Analysis {
        stable_dt: StableDt {
            coupled: dt_undamped(coupled_omega_max),
            independent: dt_undamped(independent_omega_max),
            coupled_damped: None,
            independent_damped: None,
            guaranteed: stable::guaranteed(coupled_omega_upper_bound, gamma_bound, governing),
            governing,
        },
        contacts,
        delassus: DMatrix::zeros(0, 0),
        coupled: Some(coupled),
        large: Some(info),
        constraint_rank: 0,
        constraint_rows: 0,
        modes,
        zero_modes: None,
        independent_omega_max,
        coupled_omega_max,
        coupled_omega_upper_bound,
        coupled_omega_upper_bound_kind,
        damped_modes: None,
        impacts: Vec::new(),
        tangential: None,
        hertz_peak: None,
        columns,
    }
}

/// The per-contact inputs of a large scene's results, kept as columns
/// (8–24 bytes a contact) instead of a `ContactResult` each (120 bytes):
/// [`ContactColumns::result`] forms contact i's from these and `A_ii`,
/// with the arithmetic of the model path's results.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactColumns {
    /// Stiffness per contact.
    pub stiffness: Vec<f64>,
    /// Damping per contact, when the scene gives it.
    pub damping: Option<Vec<f64>>,
    /// `m₁m₂/(m₁+m₂)` (or the one moving body's mass) per contact; NaN
    /// when neither body moves.
    pub naive_mass: Vec<f64>,
    /// Generalized velocities of the scene (six a moving body in 3-d,
    /// three in the plane).
    pub dofs: usize,
}

impl ContactColumns {
    /// The columns of scene `s` (before its geometry is released).
    pub fn of(s: &SceneData, space: Space) -> ContactColumns {
        let mass = |b: u32| (b != WORLD && !s.fixed[b as usize]).then(|| s.mass[b as usize]);
        use rayon::prelude::*;
        let naive_mass = s
            .body
            .par_iter()
            .zip(&s.other)
            .with_min_len(1 << 14)
            .map(|(&b, &o)| match (mass(b), mass(o)) {
                (Some(a), Some(b)) => a * b / (a + b),
                (Some(a), None) | (None, Some(a)) => a,
                (None, None) => f64::NAN,
            })
            .collect();
        ContactColumns {
            stiffness: s.stiffness.clone(),
            damping: s.damping.clone(),
            naive_mass,
            dofs: velocities(space) * s.fixed.iter().filter(|f| !**f).count(),
        }
    }

    /// Contact `i`'s results for `A_ii = a` (as `analysis::contact_results`
    /// forms them from a model).
    pub fn result(&self, i: usize, a: f64) -> ContactResult {
        let k = self.stiffness[i];
        let immobile = a <= 0.0;
        let naive = Some(self.naive_mass[i]).filter(|m| !m.is_nan());
        let damping = self.damping.as_ref().map(|d| d[i]);
        ContactResult {
            a,
            a_unconstrained: a,
            immobile,
            m_eff: (!immobile).then(|| 1.0 / a),
            stiffness: k,
            omega: (k * a).sqrt(),
            naive_mass: naive,
            omega_naive: naive.map(|m| (k / m).sqrt()),
            damping,
            zeta: match (damping, immobile) {
                (Some(cd), false) => Some(cd * a.sqrt() / (2.0 * k.sqrt())),
                _ => None,
            },
        }
    }
}

/// Velocities of a body that is not fixed.
pub(super) fn velocities(space: Space) -> usize {
    if space == Space::ThreeD { 6 } else { 3 }
}
