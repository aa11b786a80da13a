//! The order the checks run in ([`run`]); `scene.rs` runs the same rules
//! in the same order on a large scene's columns.

use super::Checks;
use crate::case::Case;
use crate::model::Model;

/// Runs every check on a case, its numeric model and its analysis.
pub fn run(case: &Case, model: &Model<f64>, an: &crate::analysis::Analysis) -> Checks {
    let m_eff: Vec<Option<f64>> = (0..an.n_contacts()).map(|i| an.contact(i).m_eff).collect();
    let (mut out, sizes) = before_springs(case, model, &m_eff, Some(an));
    super::dynamics::springs(case, model, &m_eff, &sizes, &mut out);
    super::laws::contact_laws(case, model, &sizes, &mut out);
    after_springs(case, &m_eff, &mut out);
    out
}

/// [`run`] up to the springs' rule, and the bodies' sizes.
pub(super) fn before_springs(
    case: &Case,
    model: &Model<f64>,
    m_eff: &[Option<f64>],
    an: Option<&crate::analysis::Analysis>,
) -> (Checks, Vec<f64>) {
    let mut out = super::run_checks(case, model, m_eff);
    super::plausible::density(case, model, &mut out);
    super::plausible::lever(case, model, &mut out);
    super::plausible::opposite_normals(case, model, &mut out);
    super::plausible::normal_out_of_shape(case, model, &mut out);
    super::plausible::person(case, &mut out);
    super::plausible::person_region(case, &mut out);
    let sizes = super::body_sizes(case, model);
    if let Some(an) = an {
        super::plausible::impact_compression(case, model, an, &sizes, &mut out);
    }
    super::normals::bodies(case, model, &mut out);
    super::normals::joints(case, model, &sizes, &mut out);
    super::scene_model::on_model(case, model, &mut out);
    (out, sizes)
}

/// [`run`] after the springs' rule (and the contact laws', which need
/// the model).
pub(super) fn after_springs(case: &Case, m_eff: &[Option<f64>], out: &mut Checks) {
    super::dynamics::engine_scales(case, out);
    super::dynamics::generalized_mass(case, m_eff, out);
    super::laws::engine_and_drop(case, out);
    super::robot_inputs::angles(case, out);
    super::robot_inputs::trig_parameters(case, out);
    super::robot_inputs::model_inputs(case, out);
    super::ranges::joint_ranges(case, out);
    super::program::program(case, out);
    super::sweep_ends(case, out);
    super::tolerance_corners(case, out);
    super::robot_inputs::sweep_angles(case, out);
    for w in case.motion.iter().flat_map(|m| &m.warnings) {
        super::robot_inputs::joint_beyond_range(w, out);
    }
    for w in out.world.iter_mut().flatten() {
        w.point = super::chop(std::mem::take(&mut w.point));
        w.normal = super::chop(std::mem::take(&mut w.normal));
    }
}
