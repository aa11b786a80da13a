//! The large path's analysis once S is built: the fastest modes, the
//! bounds and the stable steps, for the model path's per-contact results
//! and for a large scene's columns alike.

use super::{
    Analysis, ContactColumns, ContactResult, LargeModes, StableDt, dt_undamped, large, stable,
    upper_bound_of,
};
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
        columns,
    }
}
