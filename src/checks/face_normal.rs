//! Whether a normal typed in a turned body's axes is that body's own
//! surface normal where its contacts sit: a block resting face down on an
//! incline has the incline's normal, which is its own face's, whatever
//! the tilt (the body-axes frame is the right one to type it in). A face
//! counts when the contacts with that normal on it are not all on one of
//! its edges (a tilted block on a level floor touches it along an edge or
//! at corners, where the face's normal is not the floor's); a ball's
//! surface is smooth everywhere.

use crate::case::{Case, Form};
use crate::kinematics::shape::Shape;
use crate::model::{Geometry, Model};
use nalgebra::Vector3;

/// A point within this fraction of the shape's circumradius of a face is
/// on it; of an edge's line, on that edge.
const ON_SURFACE: f64 = 0.02;

/// A normal within this angle (degrees) of a face's is that face's.
const FACE_ANGLE_DEG: f64 = 10.0;

/// The typed (body-axes) point and normal of a body-frame contact on
/// `body`, in the body's axes relative to its centre.
fn body_axes(
    case: &Case,
    model: &Model<f64>,
    ci: usize,
) -> Option<(usize, Vector3<f64>, Vector3<f64>)> {
    let Geometry::Point {
        body,
        point,
        normal,
        ..
    } = &model.contacts.get(ci)?.geometry
    else {
        return None;
    };
    if !case.contacts.get(ci).is_some_and(|c| c.body_frame) {
        return None;
    }
    let crate::model::Kind::Bodies { bodies, .. } = &model.kind else {
        return None;
    };
    let Form::Bodies { bodies: typed, .. } = &case.form else {
        return None;
    };
    let r = typed
        .get(*body)?
        .rotation
        .as_ref()
        .map_or_else(nalgebra::Matrix3::identity, |r| {
            nalgebra::Matrix3::from_fn(|i, j| r.num[i][j])
        });
    let v = |x: &[f64]| Vector3::from_fn(|i, _| x.get(i).copied().unwrap_or(0.0));
    let p = r.transpose() * (v(point) - v(&bodies[*body].position));
    let nb = r.transpose() * v(normal);
    Some((*body, p, nb))
}

/// Whether body-frame contact `ci`'s normal is its body's own surface
/// normal at its point (a box's face that its contacts with that normal
/// span, or a ball's surface).
pub(super) fn on_own_face(case: &Case, model: &Model<f64>, ci: usize) -> bool {
    let Some((b, p, nb)) = body_axes(case, model, ci) else {
        return false;
    };
    let Form::Bodies { bodies: typed, .. } = &case.form else {
        return false;
    };
    let Some(shape) = typed.get(b).and_then(|t| t.shape.as_ref()) else {
        return false;
    };
    let Some(reach) = shape.kind.circumradius(&shape.size) else {
        return false;
    };
    let tol = ON_SURFACE * reach;
    let cos = FACE_ANGLE_DEG.to_radians().cos();
    match shape.kind {
        Shape::Sphere => {
            // The push is inward: along −p̂ at a point on the surface.
            let r = shape.size.first().copied().unwrap_or(0.0);
            (p.norm() - r).abs() <= tol && nb.dot(&-p) >= cos * nb.norm() * p.norm()
        }
        Shape::Box if shape.size.len() == 3 => {
            let half = Vector3::from_fn(|i, _| shape.size[i] / 2.0);
            // The face whose outward normal is −nb.
            let Some(axis) = (0..3).find(|&i| (-nb[i]).abs() >= cos * nb.norm()) else {
                return false;
            };
            let side = -nb[axis].signum();
            let on_face = |p: &Vector3<f64>| (p[axis] - side * half[axis]).abs() <= tol;
            if !on_face(&p) {
                return false;
            }
            // The points of this body's body-frame contacts with the same
            // normal on that face.
            let pts: Vec<Vector3<f64>> = (0..model.contacts.len())
                .filter_map(|cj| body_axes(case, model, cj))
                .filter(|(bj, pj, nj)| {
                    *bj == b && on_face(pj) && nj.angle(&nb) <= FACE_ANGLE_DEG.to_radians()
                })
                .map(|(_, pj, _)| pj)
                .collect();
            // All on one edge's line: a tilted body touching along an edge.
            let one_edge = (0..3).filter(|&i| i != axis).any(|i| {
                [-1.0, 1.0]
                    .iter()
                    .any(|s| pts.iter().all(|q| (q[i] - s * half[i]).abs() <= tol))
            });
            !one_edge
        }
        _ => false,
    }
}
