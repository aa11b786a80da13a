//! An engine's preload (the normal force each of its contacts carries at
//! rest) against the weight it must hold up: a free body resting on n of
//! the engine's contacts, and nothing else, needs P Σ cos θᵢ = m g, so
//! P ≥ m g/n whatever the normals' tilt. A preload below that share is
//! usually the mass number typed as the force (2 kg → "2 N").

use super::{Checks, at, n};
use crate::case::{Case, Form, Val};
use crate::model::{BodyKind, Geometry, Kind, Model};

/// A preload below this fraction of the weight share m g/n is flagged
/// (one-sided: a clamp presses far harder than the weight, and is honest;
/// the margin is round-off of a typed share).
pub const PRELOAD_WEIGHT_RATIO: f64 = 0.9;

/// The engines' preloads, with the engine's name: one per contact the
/// engine gives its spring to.
fn preloads(case: &Case) -> Vec<(&'static str, &Val)> {
    let mut out = Vec::new();
    if let Some(p) = case.engines.drake.as_ref().and_then(|d| d.preload.as_ref()) {
        out.push(("drake", p));
    }
    out
}

/// Each engine's preload against the weight share of every free body that
/// rests on the engine's contacts alone (no joint, no contact with a
/// spring of its own).
pub(super) fn engine_preload(case: &Case, model: &Model<f64>, out: &mut Checks) {
    let Kind::Bodies { bodies, .. } = &model.kind else {
        return;
    };
    let joints: &[crate::case::Joint] = match &case.form {
        Form::Bodies { joints, .. } => joints,
        _ => &[],
    };
    for (engine, p) in preloads(case) {
        // Each body's count of contacts, and whether one of them is not
        // the engine's (then the engine's preload is not its whole
        // support).
        let mut count = vec![0usize; bodies.len()];
        let mut other_support = vec![false; bodies.len()];
        for (ci, c) in model.contacts.iter().enumerate() {
            let Geometry::Point { body, other, .. } = &c.geometry else {
                continue;
            };
            let engine_spring = case.contacts.get(ci).is_some_and(|c| c.from_engine);
            for b in [Some(*body), *other].into_iter().flatten() {
                count[b] += 1;
                other_support[b] |= !engine_spring;
            }
        }
        for j in joints {
            for b in [Some(j.body), j.other].into_iter().flatten() {
                if let Some(o) = other_support.get_mut(b) {
                    *o = true;
                }
            }
        }
        for (b, body) in bodies.iter().enumerate() {
            let BodyKind::Rigid { mass, .. } = &body.kind else {
                continue;
            };
            if count[b] == 0 || other_support[b] {
                continue;
            }
            let share = mass * super::dynamics::GRAVITY / count[b] as f64;
            if p.si >= PRELOAD_WEIGHT_RATIO * share {
                continue;
            }
            out.warn(
                "engine_preload",
                format!("[engine.{engine}]: preload"),
                at(case, &p.span),
                format!(
                    "the preload {} N per contact is {}× the share of the weight m g/n = {} N \
                     of body {} ({} kg on its n = {} contacts, which hold it alone): at rest \
                     P Σ cos θ = m g, so every contact carries at least m g/n whatever its \
                     normal's tilt, and the engine's dashpot d·P is that much too weak; the \
                     mass number typed as the force ({} kg → {} N)? check the value and its \
                     unit (a preload above the share is a clamp, and honest)",
                    n(p.si),
                    n(p.si / share),
                    n(share),
                    body.name,
                    n(*mass),
                    count[b],
                    n(*mass),
                    n(share)
                ),
            );
        }
    }
}
