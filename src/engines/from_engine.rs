//! Contacts without a stiffness take their engine's spring.
//!
//! A case with an `[engine.*]` table may leave out a contact's `stiffness`:
//! the engine's settings already say what spring (and dashpot) the contact
//! is. A placeholder stands in while the case is read; here the engine is
//! translated once with the exact Delassus matrix (which no stiffness
//! enters), and each such contact gets the spring `k` and dashpot `c` the
//! engine's law amounts to at it (the `k`, `c` of its engine section), so
//! that the whole analysis — frequencies, modes, stable steps,
//! verification — is the engine's contact. Where the engine's contact is
//! rigid there is no spring to analyse, and the case must give one.

use crate::case::{Case, Val};
use crate::diag::{Diagnostic, SourceError};
use crate::units::Dim;

/// Fills in the engine's springs for the contacts that gave none.
pub fn fill_from_engine(mut case: Case) -> Result<Case, SourceError> {
    let need: Vec<usize> = (0..case.contacts.len())
        .filter(|&i| case.contacts[i].from_engine)
        .collect();
    if need.is_empty() {
        return Ok(case);
    }
    let error = |case: &Case, i: usize, message: String, hint: &str| SourceError {
        path: case.path.clone(),
        source: case.source.clone(),
        diagnostics: vec![
            Diagnostic::new(
                case.contacts[i].span.start..case.contacts[i].span.start,
                message,
            )
            .hint(hint),
        ],
    };
    let engines: Vec<crate::case::Engine> = case.engines.spans.iter().map(|(e, _)| *e).collect();
    let first = need[0];
    if engines.len() != 1 {
        return Err(error(
            &case,
            first,
            format!(
                "contact `{}` has no `stiffness`, and the case has {} engine tables: whose spring it is cannot be told",
                case.contacts[first].name,
                engines.len()
            ),
            "give the contact a `stiffness`, or keep one `[engine.*]` table",
        ));
    }
    let model = crate::model::numeric(&case);
    let system = crate::model::assemble(&model);
    let analysis = crate::analysis::analyze(&model).map_err(|e| {
        error(
            &case,
            first,
            format!("the engine's spring cannot be found: {e}"),
            "give the contact a `stiffness`",
        )
    })?;
    let Some(inputs) = super::inputs(&case, &model, &system, &analysis) else {
        return Err(error(
            &case,
            first,
            "the engine's spring needs the dense analysis, which this case does not take".into(),
            "give the contact a `stiffness`",
        ));
    };
    let reports = super::analyze(&case, &inputs)
        .map_err(|(_, m)| error(&case, first, m, "check the engine's settings"))?;
    let engine = &reports[0];
    for &i in &need {
        let c = &engine.contacts[i];
        let Some(k) = c.k.filter(|k| k.is_finite() && *k > 0.0) else {
            return Err(error(
                &case,
                i,
                format!(
                    "contact `{}` has no `stiffness`, and {}'s contact is rigid (no spring to analyse)",
                    case.contacts[i].name, engine.name
                ),
                "give the contact a `stiffness`, or settings that make the engine's contact soft",
            ));
        };
        let span = case.contacts[i].stiffness.span.clone();
        case.contacts[i].stiffness = literal(k, "N/m", Dim::STIFFNESS, &span);
        if case.contacts[i].damping.is_none()
            && let Some(d) = c.c.filter(|d| d.is_finite() && *d > 0.0)
        {
            case.contacts[i].damping = Some(literal(d, "N*s/m", Dim::DAMPING, &span));
        }
    }
    case.stiffness_from = Some(engine.engine);
    Ok(case)
}

/// A value as if written `"<x> <unit>"` (shortest round-trip decimal).
fn literal(x: f64, unit: &str, dim: Dim, span: &std::ops::Range<usize>) -> Val {
    let text = format!("{x:e} {unit}");
    let expr = crate::expr::parse(&text).expect("a number and a unit parse");
    Val {
        text,
        expr,
        span: span.clone(),
        si: x,
        dim,
    }
}
