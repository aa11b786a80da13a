//! The step of a dump scene with its near contacts closed
//! (`report::near`): a second analysis of the small scene on the model
//! path, the same contact law on every contact.

use crate::{analysis, case, model, report};

/// Fills `report.near`'s step from the scene with the near contacts
/// closed, when the case has one (small scenes: `from_dump::Near`).
pub fn closed_step(case: &case::Case, report: &mut report::Report) {
    let Some(near) = report.near.as_mut() else {
        return;
    };
    let Some(closed) = case
        .scene
        .as_ref()
        .and_then(|s| s.near.as_ref())
        .and_then(|n| n.closed.as_ref())
    else {
        return;
    };
    let mut other = case.clone();
    if let Some(scene) = other.scene.as_mut() {
        scene.data = (**closed).clone();
        scene.near = None;
    }
    let model = model::numeric(&other);
    if analysis::takes_large_path(&model, other.analysis_path) {
        return;
    }
    let system = analysis::system_for(&model, false);
    let modes = analysis::LargeModes {
        count: analysis::LARGE_MODES,
        shapes: false,
        path: other.analysis_path,
    };
    if let Ok(an) = analysis::analyze_model(&model, &system, modes) {
        let dt = report::tangential::stable_dt_report(&an);
        near.set_closed(dt.governing, dt.governing_by, report.stable_dt.governing);
    }
}
