//! A model link whose radius of gyration about its centre of mass is
//! longer than the link itself: the inertia taken about a joint (the
//! parallel-axis term m·d² included) rather than about the centre of mass.
//!
//! All of a body's mass within a distance R of its centre of mass gives
//! ΣI = 2∫r² dm ≤ 2mR², so √(ΣI/2m) ≤ R. The link's extent R is not in
//! the model's inertial data, but its frames are: the farthest of the
//! link's own frame and joint anchors and its children's frames from its
//! centre of mass is a length its mass must span (a housing reaches a
//! little beyond; hence the margin).

use super::{Checks, at, n};
use crate::case::{Case, Form, RobotForm};
use crate::kinematics::Tree;
use nalgebra::Vector3;

/// A link's radius of gyration above this multiple of its extent is
/// flagged. A UR5 upper arm with its inertia about the shoulder gives
/// 1.16; a housing around its two joints (a UR5 link's radius is about a
/// fifth of its length) stays well below 1.
pub const LINK_EXTENT_MARGIN: f64 = 1.05;

/// Links whose farthest frame is nearer their centre of mass than this
/// (m) are not held to their extent: a compact link's housing (a wrist, a
/// hip) reaches well beyond its joints (measured over the 20 URDF and MJCF
/// models shipped or tested: links up to 0.133 m reach 1.4× and, with
/// inertias that are themselves wrong, 12×; every link from 0.15 m stays
/// below 0.91×).
pub const LINK_EXTENT_MIN: f64 = 0.15;

/// One link whose radius of gyration exceeds its extent.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkExcess {
    /// Body index in the tree.
    pub body: usize,
    /// √(ΣI/2m) about the centre of mass (m).
    pub gyration: f64,
    /// The farthest frame or joint anchor from the centre of mass (m).
    pub extent: f64,
    /// Distance from the centre of mass to its own joint (its frame) (m).
    pub to_joint: f64,
}

/// Every link of `tree` whose radius of gyration is beyond
/// [`LINK_EXTENT_MARGIN`] times its extent. Only links with a child (a
/// leaf's extent is its geometry, which the tree does not hold), a
/// positive mass and an extent of at least [`LINK_EXTENT_MIN`].
pub fn link_excess(tree: &Tree) -> Vec<LinkExcess> {
    let mut out = Vec::new();
    for (b, body) in tree.bodies.iter().enumerate() {
        if body.mass <= 0.0 {
            continue;
        }
        let mut points: Vec<Vector3<f64>> = vec![Vector3::zeros()];
        points.extend(
            body.joints
                .iter()
                .filter_map(|&j| Some(tree.joints.get(j)?.pos)),
        );
        let mut children = 0;
        for child in tree.bodies.iter().filter(|c| c.parent == Some(b)) {
            children += 1;
            points.push(child.pos);
            points.extend(
                child
                    .joints
                    .iter()
                    .filter_map(|&j| Some(child.pos + child.quat * tree.joints.get(j)?.pos)),
            );
        }
        if children == 0 {
            continue;
        }
        let extent = points
            .iter()
            .map(|p| (p - body.com).norm())
            .fold(0.0f64, f64::max);
        let gyration = (body.inertia.trace() / (2.0 * body.mass)).sqrt();
        if extent >= LINK_EXTENT_MIN
            && gyration.is_finite()
            && gyration > LINK_EXTENT_MARGIN * extent
        {
            out.push(LinkExcess {
                body: b,
                gyration,
                extent,
                to_joint: body.com.norm(),
            });
        }
    }
    out
}

/// [`link_excess`] on a `[model]` case's links (payloads left out: their
/// inertia is the case's own, about their centre).
pub(super) fn links(case: &Case, out: &mut Checks) {
    let Form::Robot(r) = &case.form else { return };
    let tree = &r.robot.tree;
    for x in link_excess(tree) {
        if is_payload(r, x.body) {
            continue;
        }
        let body = &tree.bodies[x.body];
        let file = std::path::Path::new(&r.file)
            .file_name()
            .map_or_else(|| r.file.clone(), |f| f.to_string_lossy().into_owned());
        let about_joint = (body.inertia.trace() / 2.0 - body.mass * x.to_joint.powi(2)).max(0.0);
        out.warn(
            "link_gyration_beyond_extent",
            format!("link {}: inertia", body.name),
            at(case, &r.span),
            format!(
                "link {} of {} has {} kg with a radius of gyration about its centre of mass \
                 of {} m, beyond the link's own extent: its frames and joints lie within {} m \
                 of its centre of mass, and no mass spread over {} m has a radius of gyration \
                 above it. The inertia looks taken about the joint ({} m away; without that \
                 parallel-axis term the radius would be {} m); check <inertia> in the model file",
                body.name,
                file,
                n(body.mass),
                n(x.gyration),
                n(x.extent),
                n(x.extent),
                n(x.to_joint),
                n((about_joint / body.mass).sqrt())
            ),
        );
    }
}

fn is_payload(r: &RobotForm, b: usize) -> bool {
    r.payloads.iter().any(|p| p.body == b)
}
