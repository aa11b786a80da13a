//! Checks of the inputs a `[model]` case adds to its model file, and of
//! every angle a case types: a configuration beyond a joint's limits, an
//! angle of more than a turn (degrees typed as radians), a payload or a
//! hazard point farther from its link than the whole arm reaches, a
//! payload denser than matter, a `[[region]]`'s values outside any body's
//! or far from the bundled table's.

use super::{Checks, at, n};
use crate::case::{Case, Form, RobotForm};
use crate::kinematics::JointKind;
use std::f64::consts::PI;
use std::ops::Range;

/// Where the `k`-th `[[name]]` table of the case file starts (its header
/// line); the file's start if the tables are written another way.
fn nth_table(case: &Case, name: &str, k: usize) -> Range<usize> {
    let header = format!("[[{name}]]");
    let mut pos = 0usize;
    let mut seen = 0usize;
    for line in case.source.split_inclusive('\n') {
        if line.trim_start().starts_with(&header) {
            if seen == k {
                let start = pos + (line.len() - line.trim_start().len());
                return start..start + header.len();
            }
            seen += 1;
        }
        pos += line.len();
    }
    0..0
}

/// A typed angle of more than a turn: degrees written as radians.
pub(super) fn angles(case: &Case, out: &mut Checks) {
    for v in &case.angles {
        if v.si.abs() > 2.0 * PI * (1.0 + 1e-12) {
            out.warn(
                "angle_unit",
                "an orientation angle".into(),
                at(case, &v.span),
                format!(
                    "`{}` is {} rad, {} turns: no orientation needs more than one; an angle in \
                     degrees needs its unit (`{} deg`)",
                    v.text.trim(),
                    n(v.si),
                    n(v.si / (2.0 * PI)),
                    v.text.trim().trim_end_matches("rad").trim()
                ),
            );
        }
    }
}

/// The model's reach: the farthest body frame from the base at `q`.
fn reach(r: &RobotForm, q: &[f64]) -> f64 {
    let kin = r.robot.tree.kinematics(q);
    kin.xpos
        .iter()
        .map(|x| x.norm())
        .fold(0.0f64, f64::max)
        .max(0.1)
}

/// A `[model]` case's configuration, payloads, hazard points and regions.
pub(super) fn model_inputs(case: &Case, out: &mut Checks) {
    let Form::Robot(r) = &case.form else { return };
    let tree = &r.robot.tree;
    for (j, v) in &r.configuration {
        let joint = &tree.joints[*j];
        if joint.kind == JointKind::Hinge && v.si.abs() > 2.0 * PI * (1.0 + 1e-12) {
            out.warn(
                "angle_unit",
                format!("configuration: {}", joint.name),
                at(case, &v.span),
                format!(
                    "`{}` is {} rad, {} turns of joint {}: degrees written as radians? \
                     (`{} deg`)",
                    v.text.trim(),
                    n(v.si),
                    n(v.si / (2.0 * PI)),
                    joint.name,
                    v.text.trim().trim_end_matches("rad").trim()
                ),
            );
        } else if let Some([lo, hi]) = tree.ranges.get(*j).copied().flatten()
            && (v.si < lo - 1e-9 * (1.0 + lo.abs()) || v.si > hi + 1e-9 * (1.0 + hi.abs()))
        {
            out.warn(
                "configuration_beyond_limits",
                format!("configuration: {}", joint.name),
                at(case, &v.span),
                format!(
                    "joint {} at {} is outside the model's range [{}, {}] ({}): the arm \
                     cannot reach this pose; check the value and its unit",
                    joint.name,
                    n(v.si),
                    n(lo),
                    n(hi),
                    if joint.kind == JointKind::Slide {
                        "m"
                    } else {
                        "rad"
                    }
                ),
            );
        }
    }
    let q = r.configuration_with(|v| v.si);
    let reach = reach(r, &q);
    for (k, p) in r.payloads.iter().enumerate() {
        let body = &tree.bodies[p.body];
        let com = body.pos + body.quat * body.com;
        let location = at(case, &nth_table(case, "payload", k));
        if com.norm() > reach {
            out.warn(
                "point_far_from_link",
                format!("payload {}: position", p.name),
                location.clone(),
                format!(
                    "its centre of mass is {} m from the frame of link {}, farther than the \
                     whole model reaches ({} m): check the position's unit",
                    n(com.norm()),
                    tree.bodies[p.link].name,
                    n(reach)
                ),
            );
        }
        let i = body.inertia;
        let moments = crate::linalg::eig::symmetric(i)
            .map(|e| e.eigenvalues.iter().copied().collect::<Vec<f64>>());
        if let Some(m) = moments
            && p.mass > 0.0
        {
            let rg = (m.iter().sum::<f64>() / (2.0 * p.mass)).sqrt();
            let rs = (5.0f64 / 3.0).sqrt() * rg;
            let rho = p.mass / (4.0 / 3.0 * PI * rs.powi(3));
            let band = super::EQUIVALENT_DENSITY;
            if rho.is_finite() && rho > band.1 {
                out.warn(
                    "implausible_density",
                    format!("payload {}: mass and inertia", p.name),
                    location,
                    format!(
                        "{} kg with a radius of gyration of {} m is {} kg/m³ as the uniform \
                         sphere of that radius, above {} kg/m³: check the mass's unit (g for \
                         kg) and the inertia",
                        n(p.mass),
                        n(rg),
                        n(rho),
                        n(band.1)
                    ),
                );
            }
        }
    }
    let Some(motion) = &case.motion else { return };
    for (k, h) in motion.hazards.iter().enumerate() {
        let d = nalgebra::Vector3::from(h.point).norm();
        if d > reach {
            out.warn(
                "point_far_from_link",
                format!("hazard {}: point", h.name),
                at(case, &nth_table(case, "hazard", k)),
                format!(
                    "the point is {} m from the frame of link {}, farther than the whole model \
                     reaches ({} m): check the point's unit",
                    n(d),
                    tree.bodies[h.body].name,
                    n(reach)
                ),
            );
        }
    }
    for (k, g) in motion.regions.iter().enumerate() {
        let location = at(case, &nth_table(case, "region", k));
        let values = [Some(g.mass), Some(g.stiffness), g.force_limit];
        super::plausible::region_values(&g.name, &values, &location, out);
    }
}
