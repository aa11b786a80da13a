//! A dump's contact-search tolerance against its spheres: a gap within
//! `tolerance` counts as a contact, so a tolerance of the spheres' own
//! size (mm typed for µm) makes every near neighbour a contact.

use super::{Checks, at, n};
use crate::case::Case;

/// A tolerance above this fraction of the smallest sphere's radius is
/// flagged: a solver's contact-detection skin is a fraction of a percent
/// (LAMMPS' granular examples: 10⁻⁶–10⁻³ of d), and a gap of a tenth of a
/// radius touches nothing.
pub const TOLERANCE_RADIUS_FRACTION: f64 = 0.1;

/// `[scene] tolerance` against the dump's smallest radius, with how many
/// of the contacts it made are gaps.
pub(super) fn dump_tolerance(case: &Case, out: &mut Checks) {
    let Some(scene) = &case.scene else { return };
    let Some(f) = &scene.dump else { return };
    let smallest = f
        .radius
        .iter()
        .copied()
        .filter(|r| *r > 0.0)
        .fold(f64::INFINITY, f64::min);
    if !(smallest.is_finite() && f.tolerance > TOLERANCE_RADIUS_FRACTION * smallest) {
        return;
    }
    let (gaps, widest, all) = scene.overlap.as_ref().map_or((0, 0.0f64, 0), |o| {
        let gaps = o.iter().filter(|x| **x < 0.0);
        (
            gaps.clone().count(),
            gaps.fold(0.0f64, |a, x| a.max(-x)),
            o.len(),
        )
    });
    let location = at(
        case,
        &super::laws::key_in_table(case, scene.span.start, "tolerance"),
    );
    out.warn(
        "dump_tolerance",
        "[scene]: tolerance".into(),
        location,
        format!(
            "the contact tolerance {} m is {} % of the smallest sphere's radius ({} m), above \
             {} %: every pair whose surfaces are closer than that counts as a contact ({} of \
             the {} contacts are gaps, up to {} m wide), so spheres that do not touch are \
             joined by springs and the modes stiffen; a detection skin is a fraction of a \
             percent of the radius; check the value and its unit (mm for µm)",
            n(f.tolerance),
            n(100.0 * f.tolerance / smallest),
            n(smallest),
            n(100.0 * TOLERANCE_RADIUS_FRACTION),
            gaps,
            all,
            n(widest)
        ),
    );
}
