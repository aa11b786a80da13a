//! The pipeline's route for a large scene: read → S → coupled modes →
//! report on the scene's columns (issue 41), with no `Model` or `System`
//! alive beside S and no per-contact result structs.
//!
//! A `[scene]` case with more than [`COLUMNS_ABOVE`] contacts that takes
//! the large path ([`takes_columns`]) goes through
//! [`scene_large::analyze`](crate::analysis::scene_large::analyze): S,
//! √k and A_ii straight from the columns, the scene's geometry freed once
//! the rows are made, the per-contact results as
//! [`ContactColumns`](crate::analysis::scene_large::ContactColumns). The
//! model checks run on the columns too, in the model path's order (one
//! list, `checks::run::ORDER`) and on every core, in two halves around
//! it: the rules on the geometry before ([`checks::scene_before`]), the
//! springs' rule with A_ii and the case's rules after
//! ([`checks::scene_after`]). The report is built by
//! [`report::build`] as on the model path, reading contacts through
//! `Analysis::contact`. The numbers are the model path's: the same S bits
//! (rows stored in the order the model path would store them: `order.rs`
//! keeps a list written body by body and stores a scattered one along a
//! Morton curve of its points), hence the same modes.
//!
//! Cases with anything this route does not carry — claims, sweeps,
//! impacts, persons, engines, tolerances, a motion or a map, stated
//! numbers in descriptions, `list_dofs`, tangential springs — take the
//! model path, unchanged.

use super::{Error, Evaluated, Options, analysis_error, out_of_range};
use crate::case::{AnalysisPath, Case};
use crate::{analysis, checks, claims, control, model, number, report, symbolic, timing};

/// A scene with more contacts than this takes the columnar route (when
/// [`takes_columns`] holds otherwise): the dense analysis' limit
/// ([`DENSE_CONTACT_LIMIT`](crate::limits::DENSE_CONTACT_LIMIT)), above
/// which every path is the large one and the model checks skip their one
/// quadratic rule (two contacts with opposite normals at one point).
pub const COLUMNS_ABOVE: usize = crate::limits::DENSE_CONTACT_LIMIT;

/// Whether a scene has tangential springs: such a scene takes the model
/// path (its large path has the rows over every row, `large_rows`).
fn scene_has_tangential(scene: &crate::case::scene::SceneData) -> bool {
    scene.tangential.is_some()
}

/// Whether `case` takes the columnar route (see the module documentation).
pub(super) fn takes_columns(case: &Case, options: &Options) -> bool {
    let Some(scene) = &case.scene else {
        return false;
    };
    let s = &scene.data;
    let dim_dofs = if case.space == crate::case::Space::ThreeD {
        6
    } else {
        3
    };
    let dofs = dim_dofs * s.fixed.iter().filter(|f| !**f).count();
    s.n_contacts() > COLUMNS_ABOVE
        && case.analysis_path != AnalysisPath::Dense
        // The report prints M for a system this small: the model path.
        && dofs > report::MATRIX_LIMIT
        && !scene_has_tangential(s)
        && case.claims.is_empty()
        && case.sweeps.is_empty()
        && case.impacts.is_empty()
        && case.persons.is_empty()
        && case.engines.is_empty()
        && case.toleranced().is_empty()
        && case.motion.is_none()
        && case.map.is_none()
        && !options.list_dofs
        && !checks::description::any_stated(case)
}

/// [`super::evaluate_scoped`] for a case [`takes_columns`] accepts.
pub(super) fn evaluate(mut case: Case, options: Options) -> Result<Evaluated, Error> {
    let stage = || {
        if control::cancelled() {
            Err(Error::Cancelled)
        } else {
            Ok(())
        }
    };
    timing::mark("read");
    let space = case.space;
    // The checks but the springs', on the columns (before the geometry
    // is freed).
    let (mut checks, sizes) = match &case.scene {
        Some(scene) => checks::scene_before(&case, &scene.data),
        None => unreachable!("takes_columns holds for scenes only"),
    };
    timing::mark("checks");
    stage()?;
    let selection = options
        .contacts
        .unwrap_or_else(|| report::ContactSelection::default_for(true));
    let want = analysis::LargeModes {
        count: case.large_modes.unwrap_or(analysis::LARGE_MODES),
        shapes: selection != report::ContactSelection::None,
        path: case.analysis_path,
    };
    let Some(scene) = case.scene.as_mut() else {
        unreachable!("takes_columns holds for scenes only")
    };
    let analysis = match analysis::scene_large::analyze(&mut scene.data, space, want) {
        Ok(an) => an,
        Err(analysis::AnalysisError::Cancelled) => return Err(Error::Cancelled),
        Err(e) => return Err(analysis_error(&case, e)),
    };
    stage()?;
    if let Some(scene) = &case.scene {
        checks::scene_after(&case, &scene.data, &analysis, &sizes, &mut checks);
    }
    drop(sizes);
    timing::mark("checks-after");
    // What the report reads of the scene is its stiffness and names.
    if let Some(scene) = case.scene.as_mut() {
        scene.data.release_geometry();
    }
    // No system is assembled on this route (the report's dof count comes
    // from the columns).
    let system = model::System {
        dofs: Vec::new(),
        mass: Vec::new(),
        jacobian: Vec::new(),
        constraints: Vec::new(),
    };
    let derivation = symbolic::poly::case_budget(symbolic::CASE_WORK_BUDGET, || {
        symbolic::derive(&case, &system)
    });
    timing::mark("analysis");
    stage()?;
    let claims = claims::check(
        &case,
        &analysis,
        &[],
        options.digits.unwrap_or(number::DEFAULT_DIGITS),
    );
    let analysis::robot::CaseResults {
        robot,
        persons,
        system: robot_system,
    } = analysis::robot::case_results(&case, &analysis);
    let mut report = report::build(
        &case,
        report::Results {
            robot,
            persons,
            robot_system: robot_system.as_ref(),
            analysis: &analysis,
            claims: &claims,
            system: &system,
            list_dofs: false,
            selection,
            derivation: derivation.as_ref(),
            sensitivities: Vec::new(),
            sweeps: Vec::new(),
        },
    );
    report.set_tolerances(None);
    report.program = analysis::program::analyze(&case);
    report.map = analysis::workspace::analyze(&case);
    stage()?;
    out_of_range(&case, &analysis, &report)?;
    report.set_checks(checks);
    report.set_changes(case.previous.as_ref());
    timing::mark("report");
    stage()?;
    Ok(Evaluated {
        model: model::Model {
            space,
            kind: model::Kind::Bodies {
                bodies: Vec::new(),
                joints: Vec::new(),
            },
            contacts: Vec::new(),
            impacts: Vec::new(),
        },
        case,
        system,
        analysis,
        derivation,
        claims,
        verification: None,
        report,
    })
}
