//! Checks of what a case claims and how wide it lets its inputs be: a
//! claim whose relative tolerance accepts nearly anything (`rel_tol = 5`
//! typed for "5 %"), and a parameter's tolerance wider than the value
//! itself (`"[0.8 cm, 12 cm]"` typed for 8–12 cm, a `±` larger than the
//! nominal value).

use super::{Checks, at, n, with_unit};
use crate::case::{Case, ToleranceKind};

/// A claim's `rel_tol` at or above this is flagged: at 0.5 a claim
/// already passes anything from half to 1.5 times its value, a hand
/// estimate "within a factor of two" at best (the planter's honest rough
/// estimate used 0.3).
pub const CLAIM_REL_TOL_MAX: f64 = 0.5;

/// A range tolerance whose ends' ratio (smaller over larger, same sign)
/// is below this is flagged: it spans more than a decade (an honest
/// measured range such as 4–12 cm spans 3×).
pub const RANGE_SPAN_MIN: f64 = 0.1;

/// A claim's `rel_tol` far beyond a fraction: a percentage typed as a
/// fraction.
pub(super) fn claims(case: &Case, out: &mut Checks) {
    for (k, claim) in case.claims.iter().enumerate() {
        let Some(tol) = claim.rel_tol else { continue };
        if !tol.is_finite() || tol < CLAIM_REL_TOL_MAX {
            continue;
        }
        let table = super::robot_inputs::nth_table(case, "claim", k);
        let from = if table.is_empty() {
            claim.equals_span.start
        } else {
            table.start
        };
        let location = at(case, &super::laws::key_in_table(case, from, "rel_tol"));
        let hint = if tol >= 1.0 {
            format!(
                "; if {} % was meant, write rel_tol = {}",
                n(tol),
                n(tol / 100.0)
            )
        } else {
            String::new()
        };
        out.warn(
            "claim_tolerance",
            format!("claim on {}: rel_tol", claim.of_text),
            location,
            format!(
                "rel_tol = {} accepts any computed value from {} to {}× the claimed {} \
                 ({}): such a claim can hardly fail and checks nothing{hint}",
                n(tol),
                n((1.0 - tol).max(0.0)),
                n(1.0 + tol),
                claim.equals_text.trim(),
                claim.of_text
            ),
        );
    }
}

/// A parameter's tolerance that spans more than a decade, or lets its
/// value change sign.
pub(super) fn tolerances(case: &Case, out: &mut Checks) {
    for p in &case.parameters {
        let Some(t) = &p.tolerance else { continue };
        let (lo, hi, nominal) = (t.lo, t.hi, p.value.si);
        let dim = p.value.dim;
        let what = format!("parameter {}: tolerance", p.name);
        let location = at(case, &t.span);
        match t.kind {
            ToleranceKind::Range if lo * hi > 0.0 => {
                let ratio = lo.abs().min(hi.abs()) / lo.abs().max(hi.abs());
                if ratio < RANGE_SPAN_MIN {
                    out.warn(
                        "tolerance_span",
                        what,
                        location,
                        format!(
                            "the range {} spans {}× (from {} to {}), more than the {}× \
                             a measured or specified range has; its nominal value, the \
                             midpoint {}, is the one every result uses. Check each end's \
                             digits and unit (0.8 cm for 8 cm)",
                            t.written.trim(),
                            n(1.0 / ratio),
                            with_unit(lo, dim),
                            with_unit(hi, dim),
                            n(1.0 / RANGE_SPAN_MIN),
                            with_unit(nominal, dim)
                        ),
                    );
                }
            }
            ToleranceKind::Percent | ToleranceKind::PlusMinus
                if nominal != 0.0 && t.half_width() > nominal.abs() * (1.0 + 1e-12) =>
            {
                out.warn(
                    "tolerance_span",
                    what,
                    location,
                    format!(
                        "the tolerance of {} is ± {}, more than the value {} itself: the \
                         interval [{}, {}] lets the value change sign. Check the \
                         tolerance's digits and unit (± 5 mm for ± 5 cm)",
                        p.name,
                        with_unit(t.half_width(), dim),
                        with_unit(nominal, dim),
                        n(lo),
                        n(hi)
                    ),
                );
            }
            _ => {}
        }
    }
}
