//! The order the checks run in: one list, [`ORDER`], drives the model
//! path ([`run`]) and a large scene's columns (`scene.rs`) alike, so the
//! warnings come in the same order on both routes and a new rule is one
//! entry here (with what the columnar route does for it).

use super::scene::{Geometry, Results};
use super::{
    Checks, claimed, dump_tolerance, dynamics, hertz_bodies, hertz_inputs, laws, link_extent,
    material, normals, payload, plausible, preload, program, program_inputs, ranges, robot_inputs,
    scene_model, world_contacts,
};
use crate::case::Case;
use crate::model::Model;

/// What a rule on a case's model reads.
pub(super) struct OnModel<'a> {
    pub case: &'a Case,
    pub model: &'a Model<f64>,
    /// Each contact's effective mass.
    pub m_eff: &'a [Option<f64>],
    pub an: &'a crate::analysis::Analysis,
    /// Each body's size ([`body_sizes`](super::body_sizes)).
    pub sizes: &'a [f64],
}

/// One entry of [`ORDER`].
pub(super) enum Step {
    /// A rule that reads the case alone: the same call on both routes.
    Case(fn(&Case, &mut Checks)),
    /// A rule that reads the model, and what the columnar route runs for
    /// it.
    Model(fn(&OnModel<'_>, &mut Checks), OnColumns),
}

/// What a large scene's columnar route runs for a rule of the model.
pub(super) enum OnColumns {
    /// Before the analysis, on the scene's geometry.
    Geometry(fn(&Geometry<'_>, &mut Checks)),
    /// After it, with its effective masses (the geometry is freed then:
    /// every `Geometry` step comes before the first of these, which is
    /// checked when meff is compiled).
    Results(fn(&Results<'_>, &mut Checks)),
    /// Nothing, and why: what the route does not take, or what a scene
    /// cannot have (documentation, read by the tests only).
    Never(#[allow(dead_code)] &'static str),
}

use OnColumns::{Geometry as OnGeometry, Never, Results as OnResults};

/// The checks, in the order they run and their warnings are listed.
pub(super) const ORDER: &[Step] = &[
    Step::Model(
        |m, out| super::world_and_model_contacts(m.case, m.model, m.m_eff, out),
        Never("a scene has no model contacts, and no world echo: it prints no definition"),
    ),
    Step::Model(
        |m, out| super::body_rules(m.case, m.model, out),
        OnGeometry(super::scene::bodies),
    ),
    Step::Model(
        |m, out| plausible::density(m.case, m.model, out),
        OnGeometry(super::scene::density),
    ),
    Step::Model(
        |m, out| plausible::lever(m.case, m.model, out),
        OnGeometry(super::scene::lever),
    ),
    Step::Model(
        |m, out| plausible::opposite_normals(m.case, m.model, out),
        Never("quadratic: left out above 2000 contacts on every route"),
    ),
    Step::Model(
        |m, out| plausible::normal_out_of_shape(m.case, m.model, out),
        Never("a scene's bodies have no shapes"),
    ),
    Step::Case(plausible::person),
    Step::Case(plausible::person_region),
    Step::Model(
        |m, out| plausible::impact_compression(m.case, m.model, m.an, m.sizes, out),
        Never("the route takes no impacts"),
    ),
    Step::Model(
        |m, out| normals::bodies(m.case, m.model, out),
        OnGeometry(super::scene::normals),
    ),
    Step::Model(
        |m, out| normals::joints(m.case, m.model, m.sizes, out),
        Never("a scene has no joints"),
    ),
    Step::Model(
        |m, out| scene_model::on_model(m.case, m.model, out),
        OnGeometry(super::scene::scene_model),
    ),
    Step::Model(
        |m, out| dynamics::springs(m.case, m.model, m.m_eff, m.sizes, out),
        OnResults(super::scene::springs),
    ),
    Step::Model(
        |m, out| laws::contact_laws(m.case, m.model, m.sizes, out),
        Never("the route takes no tangential springs, and a scene has no contact tables"),
    ),
    Step::Case(dynamics::engine_scales),
    Step::Model(
        |m, out| dynamics::generalized_mass(m.case, m.m_eff, out),
        Never("a scene is not a generalized case"),
    ),
    Step::Case(laws::engine_and_drop),
    Step::Case(robot_inputs::angles),
    Step::Case(robot_inputs::trig_parameters),
    Step::Case(robot_inputs::model_inputs),
    Step::Case(ranges::joint_ranges),
    Step::Case(program::program),
    Step::Case(super::sweep_ends),
    Step::Case(super::tolerance_corners),
    Step::Case(robot_inputs::sweep_angles),
    Step::Case(|case, out| {
        for w in case.motion.iter().flat_map(|m| &m.warnings) {
            robot_inputs::joint_beyond_range(w, out);
        }
    }),
    // checks7a
    Step::Model(
        |m, out| world_contacts::other_forgotten(m.case, m.model, out),
        Never("a scene's bodies have no shapes"),
    ),
    Step::Model(
        |m, out| hertz_inputs::hertz_inputs(m.case, m.model, out),
        Never("a scene's contacts are linear springs (no Hertz inputs)"),
    ),
    Step::Case(laws::solimp_width),
    // checks7c
    Step::Model(
        |m, out| hertz_bodies::radius_against_ball(m.case, m.model, out),
        Never("a scene has no contact tables, so no Hertz radius"),
    ),
    Step::Case(hertz_bodies::material_density),
    Step::Model(
        |m, out| preload::engine_preload(m.case, m.model, out),
        Never("an engine's spring is not given to a scene's contacts (they carry their own)"),
    ),
    Step::Case(dump_tolerance::dump_tolerance),
    Step::Case(payload::payloads),
    // checks7b
    Step::Case(claimed::claims),
    Step::Case(claimed::tolerances),
    Step::Case(program_inputs::program_file),
    Step::Case(link_extent::links),
    Step::Model(
        |m, out| material::check(m.case, m.model, out),
        Never("a scene's bodies have no shapes"),
    ),
];

/// The first step the columnar route runs after the analysis.
const COLUMNS_AFTER: usize = {
    let mut i = 0;
    while i < ORDER.len() && !matches!(ORDER[i], Step::Model(_, OnResults(_))) {
        i += 1;
    }
    i
};

// The columnar route frees the scene's geometry during the analysis.
const _: () = {
    let mut i = COLUMNS_AFTER;
    while i < ORDER.len() {
        assert!(
            !matches!(ORDER[i], Step::Model(_, OnGeometry(_))),
            "a rule on a scene's geometry after one on the analysis' results"
        );
        i += 1;
    }
};

/// Runs every check on a case, its numeric model and its analysis.
pub fn run(case: &Case, model: &Model<f64>, an: &crate::analysis::Analysis) -> Checks {
    let m_eff: Vec<Option<f64>> = (0..an.n_contacts()).map(|i| an.contact(i).m_eff).collect();
    let sizes = super::body_sizes(case, model);
    let on = OnModel {
        case,
        model,
        m_eff: &m_eff,
        an,
        sizes: &sizes,
    };
    let mut out = Checks::default();
    for step in ORDER {
        match step {
            Step::Case(rule) => rule(case, &mut out),
            Step::Model(rule, _) => rule(&on, &mut out),
        }
    }
    finish(&mut out);
    out
}

/// The columnar route's checks before the analysis, on `geometry`.
pub(super) fn before_analysis(case: &Case, geometry: &Geometry<'_>, out: &mut Checks) {
    for step in &ORDER[..COLUMNS_AFTER] {
        match step {
            Step::Case(rule) => rule(case, out),
            Step::Model(_, OnGeometry(rule)) => rule(geometry, out),
            Step::Model(_, Never(_) | OnResults(_)) => {}
        }
    }
}

/// The columnar route's checks after the analysis, with `results`.
pub(super) fn after_analysis(case: &Case, results: &Results<'_>, out: &mut Checks) {
    for step in &ORDER[COLUMNS_AFTER..] {
        match step {
            Step::Case(rule) => rule(case, out),
            Step::Model(_, OnResults(rule)) => rule(results, out),
            // None after COLUMNS_AFTER (checked when compiled).
            Step::Model(_, Never(_) | OnGeometry(_)) => {}
        }
    }
    finish(out);
}

/// World echoes' round-off of a zero printed as 0.
fn finish(out: &mut Checks) {
    for w in out.world.iter_mut().flatten() {
        w.point = super::chop(std::mem::take(&mut w.point));
        w.normal = super::chop(std::mem::take(&mut w.normal));
    }
}

/// The checks before the analysis (all but the springs', in [`ORDER`]'s
/// order), on a large scene's columns, and each body's size (for
/// [`scene_after`]). The scene's positions, inertias, points and normals
/// must be there.
pub fn scene_before(case: &Case, s: &crate::case::scene::SceneData) -> (Checks, Vec<f64>) {
    let mut out = Checks::default();
    let sizes = super::scene::with_geometry(case, s, |g| before_analysis(case, g, &mut out));
    (out, sizes)
}

/// The checks after the analysis: the springs' rule over the scene's
/// columns (stiffness, damping, bodies, masses; the positions may be
/// freed) with `an`'s effective masses, then the rest of [`ORDER`].
pub fn scene_after(
    case: &Case,
    scene: &crate::case::scene::SceneData,
    an: &crate::analysis::Analysis,
    sizes: &[f64],
    out: &mut Checks,
) {
    after_analysis(case, &super::scene::results(case, scene, an, sizes), out);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The columnar route splits the list at the springs' rule, says why
    /// for every rule it leaves out, and leaves out none of the rules a
    /// scene's columns can feed.
    #[test]
    fn the_columnar_route_runs_the_list_in_two_halves_around_the_springs() {
        assert!(matches!(ORDER[COLUMNS_AFTER], Step::Model(_, OnResults(_))));
        let mut geometry = 0;
        for (i, step) in ORDER.iter().enumerate() {
            match step {
                Step::Model(_, Never(why)) => assert!(why.len() > 10, "step {i}"),
                Step::Model(_, OnGeometry(_)) => {
                    assert!(i < COLUMNS_AFTER);
                    geometry += 1;
                }
                _ => {}
            }
        }
        assert_eq!(
            geometry, 5,
            "bodies, density, lever, normals, the scene as a whole"
        );
    }
}
