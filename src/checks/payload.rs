//! A `[[payload]]`'s inputs against the payload itself: a position typed
//! in world coordinates (where the link is at the case's configuration)
//! for the link's own frame, and moments of inertia far too large for its
//! mass (kg·cm² typed as kg·m²: the payload reads 10⁶ times too light).

use super::robot_inputs::nth_table;
use super::{Checks, at, n};
use crate::case::{Case, Form};

/// A payload whose typed (link-frame) centre of mass lies closer than this
/// fraction of its own offset to where the link's frame is in the world is
/// flagged: the offset is the link's world position, typed where its
/// own frame's was meant.
pub const WORLD_MATCH_FRACTION: f64 = 0.25;

/// …when the offset is at least this (m; a flange-mounted tool's centre of
/// mass is a few cm out, and a link near the world's origin tells nothing).
pub const WORLD_MATCH_MIN_OFFSET: f64 = 0.2;

/// The lowest density (kg/m³) of the uniform box with a payload's principal
/// moments, below which it is flagged: an empty cardboard carton reads ≈4,
/// a solid part hundreds to thousands; kg·cm² typed as kg·m² divides it
/// by 10⁶.
pub const PAYLOAD_BOX_DENSITY_MIN: f64 = 1.0;

/// The same for a payload without such a box (a slender rod, a flat
/// plate), as the uniform sphere of its radius of gyration (a 2 m rod of
/// 1 kg reads 0.6).
pub const PAYLOAD_SPHERE_DENSITY_MIN: f64 = 0.01;

/// Every payload's position and moments.
pub(super) fn payloads(case: &Case, out: &mut Checks) {
    let Form::Robot(r) = &case.form else { return };
    let tree = &r.robot.tree;
    let q = r.configuration_with(|v| v.si);
    let kin = tree.kinematics(&q);
    let reach = super::robot_inputs::reach(r, &q);
    for (k, p) in r.payloads.iter().enumerate() {
        let body = &tree.bodies[p.body];
        let com = body.pos + body.quat * body.com;
        let table = nth_table(case, "payload", k).start;
        let key = |name: &str| at(case, &super::laws::key_in_table(case, table, name));
        let moments = crate::linalg::eig::symmetric(body.inertia)
            .map(|e| e.eigenvalues.iter().copied().collect::<Vec<f64>>());
        let rg = moments
            .as_ref()
            .map_or(0.0, |m| (m.iter().sum::<f64>() / (2.0 * p.mass)).sqrt());
        // Where the link's frame is in the world.
        let link_world = kin.xpos[p.link] + kin.origin;
        let miss = (com - link_world).norm();
        if com.norm() >= WORLD_MATCH_MIN_OFFSET && miss < WORLD_MATCH_FRACTION * com.norm() {
            out.warn(
                "payload_inputs",
                format!("payload {}: position", p.name),
                key("position"),
                format!(
                    "the centre of mass is typed {} m from the frame of link {} (in its axes), \
                     but lies only {} m from where that frame is in the world at the case's \
                     configuration ({}, {}, {} m): the link's world coordinates typed for its \
                     own frame's? The payload's own radius of gyration is {} m, so a tool \
                     centre of mass sits a few of those beyond the flange; check the position \
                     and its frame (the link's)",
                    n(com.norm()),
                    tree.bodies[p.link].name,
                    n(miss),
                    n(link_world.x),
                    n(link_world.y),
                    n(link_world.z),
                    n(rg)
                ),
            );
        }
        let Some(m) = moments else { continue };
        if !(p.mass > 0.0 && rg > 0.0) {
            continue;
        }
        let (rho, floor, how) = match super::plausible::equivalent_box_density(p.mass, &m) {
            Some(b) => (
                b,
                PAYLOAD_BOX_DENSITY_MIN,
                "the uniform box of its principal moments",
            ),
            None => {
                let rs = (5.0f64 / 3.0).sqrt() * rg;
                let v = 4.0 / 3.0 * std::f64::consts::PI * rs.powi(3);
                (
                    p.mass / v,
                    PAYLOAD_SPHERE_DENSITY_MIN,
                    "the uniform sphere of its radius of gyration",
                )
            }
        };
        if !(rho.is_finite() && rho < floor) {
            continue;
        }
        out.warn(
            "implausible_density",
            format!("payload {}: mass and inertia", p.name),
            key("inertia"),
            format!(
                "{} kg with a radius of gyration of {} m ({}× the whole model's reach, {} m) is \
                 {} kg/m³ as {how}, below {} kg/m³: no payload is that light for its size (an \
                 empty carton reads about 4); check the inertia's unit (kg·cm² typed as kg·m² \
                 reads 10⁶ times light) and the mass's",
                n(p.mass),
                n(rg),
                n(rg / reach),
                n(reach),
                n(rho),
                n(floor)
            ),
        );
    }
}
