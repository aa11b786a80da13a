//! A contact with the world whose point lies on another shaped body
//! (checks7a, issue 36's plant p02): a lid's contacts typed at the top of
//! the box it sits on, with `other` forgotten, push the lid against the
//! world instead of the box. The point is on that body's face that looks
//! along the normal (the face that would push this body), or inside it.

use super::location::{ContactField, contact_at};
use super::normals::{rotation, v3};
use super::{Checks, n};
use crate::case::{Case, Form};
use crate::model::{BodyKind, Geometry, Kind, Model};

/// A point within this fraction of a shape's circumradius of its surface
/// is on it.
pub const ON_SURFACE: f64 = 1e-3;

/// Each world contact of a body against every other movable shaped body.
pub(super) fn other_forgotten(case: &Case, model: &Model<f64>, out: &mut Checks) {
    let (Kind::Bodies { bodies, .. }, Form::Bodies { bodies: typed, .. }) =
        (&model.kind, &case.form)
    else {
        return;
    };
    let planar = case.space.dim() == 2;
    // The movable shaped bodies (a fixed body's surface is the world's).
    let shaped: Vec<usize> = (0..bodies.len())
        .filter(|&b| !matches!(bodies[b].kind, BodyKind::Fixed))
        .filter(|&b| typed.get(b).is_some_and(|t| t.shape.is_some()))
        .collect();
    if shaped.is_empty() {
        return;
    }
    for (ci, c) in model.contacts.iter().enumerate() {
        let Geometry::Point {
            body,
            other: None,
            point,
            normal,
            ..
        } = &c.geometry
        else {
            continue;
        };
        for &o in shaped.iter().filter(|&&o| o != *body) {
            let Some(shape) = typed[o].shape.as_ref() else {
                continue;
            };
            let Some(r) = shape.kind.circumradius(&shape.size) else {
                continue;
            };
            let rot = rotation(case, o);
            let pb = rot.transpose() * (v3(point) - v3(&bodies[o].position));
            let nb = rot.transpose() * v3(normal);
            let (Some(depth), Some(support)) = (
                shape.kind.depth(&shape.size, [pb.x, pb.y, pb.z], planar),
                shape.kind.support(&shape.size, [nb.x, nb.y, nb.z]),
            ) else {
                continue;
            };
            let tol = ON_SURFACE * r;
            let inside = depth > tol;
            let facing = depth >= -tol && (support - pb.dot(&nb)).abs() <= tol;
            if !(inside || facing) {
                continue;
            }
            let (this, that) = (&bodies[*body].name, &bodies[o].name);
            out.warn(
                "contact_on_other_body",
                format!("contact {}: other", case.contact_name(ci)),
                contact_at(case, ci, ContactField::Point),
                format!(
                    "this contact pushes body {this} against the world, but its point lies {} \
                     body {that}'s {} ({} m from its centre){}: the contact is likely between \
                     {this} and {that}, with `other = \"{that}\"` forgotten (against the world \
                     the contact sees only {this}'s mass, and the sheet's m_eff and step are \
                     too large)",
                    if inside { "inside" } else { "on the face of" },
                    shape.kind,
                    n(pb.norm()),
                    if inside {
                        String::new()
                    } else {
                        " that faces along the normal, toward this body".to_string()
                    },
                ),
            );
            break;
        }
    }
}
