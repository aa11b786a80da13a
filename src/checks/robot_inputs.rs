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
pub(super) fn nth_table(case: &Case, name: &str, k: usize) -> Range<usize> {
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
pub(super) fn reach(r: &RobotForm, q: &[f64]) -> f64 {
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

/// A program's joint value beyond the model's range, as the case reader
/// found it (its message with units; a hinge past a turn names degrees).
pub(super) fn joint_beyond_range(w: &crate::case::RangeWarning, out: &mut Checks) {
    let degrees = !w.slide && w.value.abs() > 2.0 * PI * (1.0 + 1e-12);
    out.warn(
        "joint_beyond_range",
        format!("motion: joint {}", w.joint),
        w.location.clone(),
        format!(
            "{}{}",
            w.message(),
            if degrees {
                ": more than a turn, degrees read as radians? (`angle_unit = \"deg\"`)"
            } else {
                ""
            }
        ),
    );
}

/// The parameters a case uses inside `sin`, `cos` or `tan` (its
/// generalized matrices, contacts' points, normals and rows, parameters'
/// expressions) and, second, those its orientation angles name.
fn angle_parameters(case: &Case) -> (Vec<String>, Vec<String>) {
    use crate::expr::{Expr, ExprKind, Func};
    fn walk(e: &Expr, inside: bool, found: &mut Vec<String>) {
        match &e.kind {
            ExprKind::Param(p) if inside && !found.contains(p) => found.push(p.clone()),
            ExprKind::Neg(a) => walk(a, inside, found),
            ExprKind::Binary(_, a, b) => {
                walk(a, inside, found);
                walk(b, inside, found);
            }
            ExprKind::Call(f, a) => {
                walk(
                    a,
                    inside || matches!(f, Func::Sin | Func::Cos | Func::Tan),
                    found,
                );
            }
            _ => {}
        }
    }
    let mut vals: Vec<&crate::case::Val> = Vec::new();
    if let Form::Generalized {
        mass_matrix,
        constraints,
        ..
    } = &case.form
    {
        vals.extend(mass_matrix.iter().flatten());
        vals.extend(constraints.iter().flatten());
    }
    for c in &case.contacts {
        match &c.geometry {
            crate::case::ContactGeometry::Jacobian(row) => vals.extend(row),
            crate::case::ContactGeometry::Point { point, normal, .. }
            | crate::case::ContactGeometry::Link { point, normal, .. } => {
                vals.extend(point);
                vals.extend(normal);
            }
        }
    }
    vals.extend(case.parameters.iter().map(|p| &p.value));
    let mut trig = Vec::new();
    for v in vals {
        walk(&v.expr, false, &mut trig);
    }
    let mut named = Vec::new();
    for v in &case.angles {
        walk(&v.expr, true, &mut named);
    }
    (trig, named)
}

/// The parameters a case uses as angles (inside `sin`, `cos` or `tan`)
/// whose value is more than a turn: `q1 = "30"` read as 30 rad.
pub(super) fn trig_parameters(case: &Case, out: &mut Checks) {
    let (trig, _) = angle_parameters(case);
    for p in case.parameters.iter().filter(|p| trig.contains(&p.name)) {
        let v = &p.value;
        if v.dim != crate::units::Dim::NONE || v.si.abs() <= 2.0 * PI * (1.0 + 1e-12) {
            continue;
        }
        if out
            .warnings
            .iter()
            .any(|w| w.rule == "angle_unit" && w.location == at(case, &v.span))
        {
            continue;
        }
        out.warn(
            "angle_unit",
            format!("parameter {}", p.name),
            at(case, &v.span),
            format!(
                "{} is used as an angle (inside sin, cos or tan) and is {} rad, {} turns: \
                 degrees written without their unit? (`{} deg`)",
                p.name,
                n(v.si),
                n(v.si / (2.0 * PI)),
                v.text.trim()
            ),
        );
    }
}

/// A sweep's end of a parameter used as an angle (inside sin, cos or tan,
/// or as an orientation angle) past a turn: a tilt swept `0` to `30`
/// without its unit is swept to 30 rad.
pub(super) fn sweep_angles(case: &Case, out: &mut Checks) {
    let (trig, named) = angle_parameters(case);
    for sweep in &case.sweeps {
        let name = &case.parameters[sweep.parameter].name;
        if !trig.contains(name) && !named.contains(name) {
            continue;
        }
        for (end, val) in [("start", &sweep.from), ("end", &sweep.to)] {
            if val.dim != crate::units::Dim::NONE || val.si.abs() <= 2.0 * PI * (1.0 + 1e-12) {
                continue;
            }
            out.warn(
                "angle_unit",
                format!("sweep {name}: {end}"),
                at(case, &val.span),
                format!(
                    "the sweep's {end}, {name} = `{}`, is {} rad, {} turns of an angle: degrees \
                     written without their unit? (`{} deg`)",
                    val.text.trim(),
                    n(val.si),
                    n(val.si / (2.0 * PI)),
                    val.text.trim()
                ),
            );
        }
    }
}

/// A model contact's rule-of-thumb advice when its m_eff without the
/// joints' armature is inside the band and with it is not: the armature
/// (a gear ratio typed for a rotor inertia) is what to check.
pub(super) fn armature_advice(
    case: &Case,
    m_eff: &[Option<f64>],
    contact: usize,
    rule: f64,
) -> Option<String> {
    let Form::Robot(r) = &case.form else {
        return None;
    };
    if !r.armature {
        return None;
    }
    let report = crate::analysis::robot::analyze(case, m_eff)?;
    if report.armature_total <= 0.0 {
        return None;
    }
    let name = &case.contacts.get(contact)?.name;
    let c = report.contacts.iter().find(|c| &c.name == name)?;
    let without = c.m_eff_without_armature?;
    let (lo, hi) = super::RULE_RATIO;
    ((lo * rule..=hi * rule).contains(&without)).then(|| {
        let joints: Vec<String> = r
            .robot
            .tree
            .joints
            .iter()
            .filter(|j| j.armature > 0.0)
            .map(|j| format!("{} {} kg m²", j.name, n(j.armature)))
            .collect();
        format!(
            "without the joints' armature it is {} kg, inside the band: the armature ({}) sets \
             it; check those values and their unit (a gear ratio typed for a rotor inertia?)",
            n(without),
            joints.join(", ")
        )
    })
}
