//! Checks of a contact's point and normal against the body they act on:
//! a normal that points away from an unshaped body's centre (a flipped
//! sign, or a body hanging from the contact), a normal that is not the
//! surface's at a shaped body's surface point, a point off the shape, a
//! normal typed in a turned body's axes that lands off every world axis,
//! a particle's point far from the particle, and a model contact's point
//! far from its link or from the plane it touches.

use super::{Checks, ContactField, PLANE_ANGLE_DEG, at, contact_at, dist, n};
use crate::case::{Case, Form};
use crate::model::{BodyKind, Geometry, Model};
use nalgebra::Vector3;

/// A normal within this cosine of pointing straight away from an
/// unshaped body's centre is flagged (60°).
pub const AWAY_COS: f64 = 0.5;

/// A point within this fraction of a shape's circumradius of its surface
/// is on the surface.
pub const ON_SURFACE: f64 = 0.02;

/// A surface point's normal whose plane cuts deeper than this fraction of
/// the shape's circumradius into the body is flagged (about 10° off a
/// box's face, 25° off a sphere's radius).
pub const CUT_RATIO: f64 = 0.1;

/// A particle's contact point farther than this multiple of the case's
/// length scale (and 1 m) from the particle is flagged.
pub const PARTICLE_REACH: f64 = 10.0;

/// A model contact's point farther from the plane it touches than this
/// fraction of the model's reach is flagged.
pub const PLANE_GAP_RATIO: f64 = 0.1;

/// A point or normal of 1, 2 or 3 components as a 3-vector.
pub(super) fn v3(v: &[f64]) -> Vector3<f64> {
    let c = |i: usize| v.get(i).copied().unwrap_or(0.0);
    Vector3::new(c(0), c(1), c(2))
}

/// A body's rotation (body axes → world) as a matrix; identity if none.
pub(super) fn rotation(case: &Case, b: usize) -> nalgebra::Matrix3<f64> {
    let Form::Bodies { bodies, .. } = &case.form else {
        return nalgebra::Matrix3::identity();
    };
    bodies
        .get(b)
        .and_then(|x| x.rotation.as_ref())
        .map_or_else(nalgebra::Matrix3::identity, |r| {
            nalgebra::Matrix3::from_fn(|i, j| r.num[i][j])
        })
}

/// The body-frame rule's message when a normal typed in a turned body's
/// axes lands off every world axis (`None`: it does not). Shared by bodies
/// and model contacts.
pub(super) fn body_frame_landing(
    world: &Vector3<f64>,
    typed: &Vector3<f64>,
    dims: usize,
) -> Option<String> {
    let angle = |a: &Vector3<f64>| world.angle(a).to_degrees();
    let turn = angle(typed);
    let axis = [Vector3::x(), Vector3::y(), Vector3::z()]
        .iter()
        .take(dims)
        .map(|a| angle(a).min(180.0 - angle(a)))
        .fold(f64::INFINITY, f64::min);
    (turn > PLANE_ANGLE_DEG && axis > PLANE_ANGLE_DEG).then(|| {
        let comps: Vec<String> = world.iter().take(dims).map(|x| n(*x)).collect();
        format!(
            "typed in the body's axes, the normal points along world ({}), {}° from the same \
             numbers read in world axes and {}° from the nearest world axis; the normal of a \
             fixed surface (a floor, a wall) or of a corner's contact is the surface's, usually \
             typed in world axes",
            comps.join(", "),
            crate::number::pretty(&crate::number::sig(turn, 3)),
            crate::number::pretty(&crate::number::sig(axis, 3))
        )
    })
}

/// Every bodies-case check of this file.
pub(super) fn bodies(case: &Case, model: &Model<f64>, out: &mut Checks) {
    let (crate::model::Kind::Bodies { bodies, .. }, Form::Bodies { bodies: typed, .. }) =
        (&model.kind, &case.form)
    else {
        return;
    };
    let planar = case.space.dim() == 2;
    let scale = length_scale(model);
    for (ci, c) in model.contacts.iter().enumerate() {
        let Geometry::Point {
            body,
            other,
            point,
            normal,
            image,
        } = &c.geometry
        else {
            continue;
        };
        // Across a periodic boundary the other body sees the point at
        // its image.
        let seen = crate::model::side_points(point, image);
        let nw = v3(normal);
        // A normal that is the body's own face's (a block face down on an
        // incline) is right in body axes whatever the tilt.
        if case.contacts.get(ci).is_some_and(|c| c.body_frame)
            && !super::face_normal::on_own_face(case, model, ci)
        {
            let r = rotation(case, *body);
            if let Some(msg) = body_frame_landing(&nw, &(r.transpose() * nw), case.space.dim()) {
                out.warn(
                    "body_frame_normal",
                    format!("contact {}: normal", case.contact_name(ci)),
                    contact_at(case, ci, ContactField::Normal),
                    msg,
                );
            }
        }
        for (b, sign, p) in [(Some(*body), 1.0, &seen[0]), (*other, -1.0, &seen[1])] {
            let Some(b) = b else { continue };
            let (x, p) = (v3(&bodies[b].position), v3(p));
            let inward = sign * nw;
            match (&bodies[b].kind, typed.get(b).and_then(|t| t.shape.as_ref())) {
                (BodyKind::Rigid { .. }, Some(shape)) => {
                    let r = rotation(case, b);
                    let pb = r.transpose() * (p - x);
                    let nb = r.transpose() * inward;
                    shaped(case, ci, &bodies[b].name, shape, pb, nb, planar, out);
                }
                (BodyKind::Rigid { .. }, None) => {
                    let name = || bodies[b].name.clone();
                    away_from_centre(case, ci, &name, (x, p, inward), out);
                }
                (BodyKind::Fixed, _) => {}
                (BodyKind::Particle { .. }, _) => {
                    let d = (p - x).norm();
                    let reach = typed
                        .get(b)
                        .and_then(|t| t.shape.as_ref())
                        .and_then(|s| s.kind.circumradius(&s.size))
                        .unwrap_or(0.0);
                    let limit = (PARTICLE_REACH * scale).max(1.0).max(2.0 * reach);
                    if d > limit {
                        out.warn(
                            "particle_point_far",
                            format!("contact {}: point", case.contact_name(ci)),
                            contact_at(case, ci, ContactField::Point),
                            format!(
                                "the point is {} m from particle {}, beyond {} m ({}× the \
                                 case's length scale, {} m, and at least 1 m): a particle's \
                                 contact is at its surface; the point changes no m_eff, but \
                                 the sketch and the world echo place the contact there",
                                n(d),
                                bodies[b].name,
                                n(limit),
                                n(PARTICLE_REACH),
                                n(scale)
                            ),
                        );
                    }
                }
            }
        }
    }
}

/// A shapeless rigid body's side of contact `ci` (the body named `name()`,
/// formed only if it is listed; `(x, p, inward)`: its centre, the point,
/// the normal into it): a normal pulling it away from its centre is likely
/// flipped.
pub(super) fn away_from_centre(
    case: &Case,
    ci: usize,
    name: &dyn Fn() -> String,
    (x, p, inward): (Vector3<f64>, Vector3<f64>, Vector3<f64>),
    out: &mut Checks,
) {
    let d = (x - p).norm();
    let along = inward.dot(&(x - p));
    if d > 1e-12 * (1.0 + p.norm()) && along < -AWAY_COS * d {
        out.warn_with("normal_away_from_centre", || {
            (
                format!("contact {}: normal", case.contact_name(ci)),
                contact_at(case, ci, ContactField::Normal),
                format!(
                    "the normal pulls body {} away from its centre of mass ({}° from \
                     the line from the point to the centre): whatever touches a body \
                     from outside pushes it inward, so the sign is likely flipped \
                     (the normal points the way the gap opens, from the other side \
                     into this body); right only for a body hanging from or pulled \
                     by this contact (a hook, a ring on a peg)",
                    name(),
                    crate::number::pretty(&crate::number::sig(
                        (-along / d).clamp(-1.0, 1.0).acos().to_degrees(),
                        3
                    ))
                ),
            )
        });
    }
}

/// The case's length scale: the spread of the bodies' centres and the
/// farthest contact of a rigid body from its centre.
fn length_scale(model: &Model<f64>) -> f64 {
    let crate::model::Kind::Bodies { bodies, .. } = &model.kind else {
        return 0.0;
    };
    let dims = bodies.first().map_or(0, |b| b.position.len());
    let mut spread = 0.0f64;
    for i in 0..dims {
        let (lo, hi) = bodies
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), b| {
                (l.min(b.position[i]), h.max(b.position[i]))
            });
        if hi > lo {
            spread = spread.hypot(hi - lo);
        }
    }
    for c in &model.contacts {
        if let Geometry::Point {
            body, other, point, ..
        } = &c.geometry
        {
            for b in [Some(*body), *other].into_iter().flatten() {
                if matches!(bodies[b].kind, BodyKind::Rigid { .. }) {
                    spread = spread.max(dist(point, &bodies[b].position));
                }
            }
        }
    }
    spread
}

/// A shaped body's contact: the point on the shape's surface (else how far
/// off it), and the normal a surface normal there.
#[allow(clippy::too_many_arguments)]
fn shaped(
    case: &Case,
    ci: usize,
    name: &str,
    shape: &crate::case::pose::ShapeGeom,
    pb: Vector3<f64>,
    nb: Vector3<f64>,
    planar: bool,
    out: &mut Checks,
) {
    let (kind, size) = (shape.kind, &shape.size);
    let (Some(r), Some(depth)) = (
        kind.circumradius(size),
        kind.depth(size, [pb.x, pb.y, pb.z], planar),
    ) else {
        return;
    };
    let d = pb.norm();
    if depth < -CUT_RATIO * r && d <= r * (1.0 + 1e-6) {
        // Beyond the circumradius is `contact_outside_shape` already.
        out.warn(
            "contact_outside_shape",
            format!("contact {}: point", case.contact_name(ci)),
            contact_at(case, ci, ContactField::Point),
            format!(
                "the point lies at least {} m outside body {name}'s {kind} (in the body's axes \
                 from its centre: ({})): the contact is not on the body it acts on",
                n(-depth),
                pb.iter()
                    .take(if planar { 2 } else { 3 })
                    .map(|x| n(*x))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
        return;
    }
    // A flipped normal is `normal_out_of_shape`'s; a point deep inside is
    // the same line of action as the surface point it leads to.
    if depth.abs() > ON_SURFACE * r || nb.dot(&(-pb)) < -0.1 * d {
        return;
    }
    let Some(h) = kind.support(size, [-nb.x, -nb.y, -nb.z]) else {
        return;
    };
    let cut = pb.dot(&nb) + h;
    if cut > CUT_RATIO * r {
        out.warn(
            "normal_not_surface",
            format!("contact {}: normal", case.contact_name(ci)),
            contact_at(case, ci, ContactField::Normal),
            format!(
                "the point is on the surface of body {name}'s {kind}, but the plane through it \
                 with this normal cuts {} m into the body: the normal is not the surface's there \
                 (a frictionless contact pushes along the surface normal; at an edge or corner, \
                 within their cone); check the normal and the point",
                n(cut)
            ),
        );
    }
}

/// A `[model]` contact's point against its link and the plane it
/// touches, and its normal against the link's centre of mass.
#[allow(clippy::too_many_arguments)]
pub(super) fn model_contact(
    case: &Case,
    ci: usize,
    robot: &crate::robot::Robot,
    kin: &crate::kinematics::Kinematics,
    link: Option<usize>,
    against_world: bool,
    p: Vector3<f64>,
    nrm: Vector3<f64>,
    out: &mut Checks,
) {
    let tree = &robot.tree;
    let origin = kin.origin;
    let reach = kin
        .xpos
        .iter()
        .map(|x| x.norm())
        .fold(0.0f64, f64::max)
        .max(0.1);
    let cname = case.contact_name(ci);
    if against_world
        && let Some((pl, gap)) = robot
            .planes
            .iter()
            .map(|pl| (pl, (p - pl.point).dot(&pl.normal)))
            .min_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))
        && gap.abs() > PLANE_GAP_RATIO * reach
    {
        out.warn(
            "point_off_plane",
            format!("contact {cname}: point"),
            contact_at(case, ci, ContactField::Point),
            format!(
                "the point is {} m {} the model's plane `{}` nearest it, {} % of the model's \
                 reach ({} m): a contact with that plane has its point on it (or within the \
                 radius of the geom that touches it); check the point and its frame",
                n(gap.abs()),
                if gap > 0.0 { "above" } else { "below" },
                pl.name,
                n(100.0 * gap.abs() / reach),
                n(reach)
            ),
        );
    }
    let Some(b) = link else { return };
    let frame = origin + kin.xpos[b];
    let far = (p - frame).norm();
    if far > reach {
        out.warn(
            "point_far_from_link",
            format!("contact {cname}: point"),
            contact_at(case, ci, ContactField::Point),
            format!(
                "the point is {} m from the frame of link {}, farther than the whole model \
                 reaches from its base ({} m): a tool that long is not in the model; check the \
                 point's unit and frame",
                n(far),
                tree.bodies[b].name,
                n(reach)
            ),
        );
        return;
    }
    // The nearest body up the chain that has mass: its centre.
    let mut c = Some(b);
    while let Some(i) = c
        && tree.bodies[i].mass <= 0.0
    {
        c = tree.bodies[i].parent;
    }
    let Some(i) = c else { return };
    let centre = origin + kin.xpos[i] + kin.xrot[i] * tree.bodies[i].com;
    let d = (centre - p).norm();
    let along = nrm.dot(&(centre - p));
    if d > 1e-3 * reach && along < -AWAY_COS * d {
        out.warn(
            "normal_away_from_centre",
            format!("contact {cname}: normal"),
            contact_at(case, ci, ContactField::Normal),
            format!(
                "the normal pulls link {} away from the centre of mass of {} ({}° from the line \
                 from the point to it): whatever touches a link from outside pushes it inward, so \
                 the sign is likely flipped (the normal points the way the gap opens, into the \
                 link); right only for a link hanging from or pulled by this contact",
                tree.bodies[b].name,
                tree.bodies[i].name,
                crate::number::pretty(&crate::number::sig(
                    (-along / d).clamp(-1.0, 1.0).acos().to_degrees(),
                    3
                ))
            ),
        );
    }
}

/// A joint between two bodies more than this multiple of a body's size
/// (its radius of gyration, shape or farthest contact) from its centre is
/// flagged: the joint does not lie on the body it holds.
pub const JOINT_REACH: f64 = 5.0;

/// Each joint between two bodies against both bodies' sizes.
pub(super) fn joints(case: &Case, model: &Model<f64>, size: &[f64], out: &mut Checks) {
    let (crate::model::Kind::Bodies { bodies, .. }, Form::Bodies { joints, .. }) =
        (&model.kind, &case.form)
    else {
        return;
    };
    for j in joints {
        let Some(other) = j.other else { continue };
        let point: Vec<f64> = j.point.iter().map(|v| v.si).collect();
        for b in [j.body, other] {
            let s = size.get(b).copied().unwrap_or(0.0);
            let d = dist(&point, &bodies[b].position);
            if s > 0.0 && d > JOINT_REACH * s {
                out.warn(
                    "joint_far_from_body",
                    format!("joint of {}: point", bodies[b].name),
                    at(
                        case,
                        &j.point.first().map_or(j.span.clone(), |v| v.span.clone()),
                    ),
                    format!(
                        "the joint is {} m from the centre of body {}, {} times its size ({} m: \
                         its radius of gyration, shape or farthest contact): a joint between two \
                         bodies lies on both; check the point's unit",
                        n(d),
                        bodies[b].name,
                        n(d / s),
                        n(s)
                    ),
                );
            }
        }
    }
}
