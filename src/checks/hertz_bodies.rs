//! Checks of a Hertz contact's inputs against the bodies it joins: an
//! effective radius R* larger than its own ball's radius while the other
//! side is convex (r1 + r2 typed for r1 r2/(r1 + r2)), and a material's
//! density outside what matter can be (a g/cm³ number typed in kg/m³).

use super::{Checks, at, n};
use crate::case::{Case, ContactLaw, Form, Val};
use crate::kinematics::shape::Shape;
use crate::model::{Geometry, Kind, Model};

/// R* above its ball's radius by more than this fraction is flagged (a
/// flat counterpart gives R* = r exactly; the margin is round-off of a
/// typed value).
pub const HERTZ_RADIUS_OVER_BALL: f64 = 0.01;

/// An unshaped counterpart reads as a convex ball about its position when
/// the contact's normal is within this angle (degrees) of the line from
/// its position through the point…
const RADIAL_DEGREES: f64 = 5.0;

/// …and the point is at least this fraction of the ball's radius from it
/// (a floor's origin under the point is no ball).
const RADIAL_MIN_DISTANCE: f64 = 0.5;

/// A Hertz contact's R* against the sphere shape of either of its bodies,
/// when the other side is convex: for two convex bodies 1/R* = 1/r1 + 1/r2,
/// so R* ≤ min(r1, r2); only a concave counterpart (a groove, a cup) gives
/// more.
pub(super) fn radius_against_ball(case: &Case, model: &Model<f64>, out: &mut Checks) {
    let (Form::Bodies { bodies, .. }, Kind::Bodies { bodies: mb, .. }) = (&case.form, &model.kind)
    else {
        return;
    };
    let ball = |b: usize| {
        let s = bodies.get(b)?.shape.as_ref()?;
        (s.kind == Shape::Sphere).then(|| s.size.first().copied())?
    };
    for (ci, c) in model.contacts.iter().enumerate() {
        let Some(ContactLaw::Hertz(h)) = case.contacts.get(ci).map(|c| &c.law) else {
            continue;
        };
        let (Some(r), Some(typed)) = (h.radius, h.inputs.radius.as_ref()) else {
            continue;
        };
        let Geometry::Point {
            body,
            other,
            point,
            normal,
            ..
        } = &c.geometry
        else {
            continue;
        };
        // Each side that is a ball, with the other side and the normal's
        // sign pointing from that other side into it.
        for (side, facing, sign) in [(Some(*body), *other, 1.0), (*other, Some(*body), -1.0)] {
            let (Some(side), Some(facing)) = (side, facing) else {
                continue;
            };
            let Some(rs) = ball(side) else { continue };
            if !(rs > 0.0 && r > (1.0 + HERTZ_RADIUS_OVER_BALL) * rs) {
                continue;
            }
            let convex = if bodies.get(facing).is_some_and(|b| b.shape.is_some()) {
                Some(format!(
                    "{} has a shape (every shape is convex)",
                    mb[facing].name
                ))
            } else {
                let u: Vec<f64> = point
                    .iter()
                    .zip(&mb[facing].position)
                    .map(|(p, x)| p - x)
                    .collect();
                let d = u.iter().map(|x| x * x).sum::<f64>().sqrt();
                let cos = sign * u.iter().zip(normal).map(|(a, b)| a * b).sum::<f64>() / d;
                (d >= RADIAL_MIN_DISTANCE * rs && cos >= RADIAL_DEGREES.to_radians().cos()).then(
                    || {
                        format!(
                            "the point lies {} m from {}'s position along the normal: a convex \
                             ball of that radius would give R* = r1 r2/(r1 + r2) = {} m",
                            n(d),
                            mb[facing].name,
                            n(rs * d / (rs + d))
                        )
                    },
                )
            };
            let Some(why) = convex else { continue };
            out.warn(
                "hertz_geometry",
                format!("contact {}: radius", case.contact_name(ci)),
                at(case, &typed.span),
                format!(
                    "R* = {} m is {}× the radius of {}'s sphere ({} m), while the other side is \
                     convex ({why}): for two convex bodies 1/R* = 1/r1 + 1/r2, so R* is at most \
                     the smaller radius; only a groove or cup around the ball gives more. Was \
                     r1 + r2 typed for r1 r2/(r1 + r2)? Check the value and its unit",
                    n(r),
                    n(r / rs),
                    mb[side].name,
                    n(rs)
                ),
            );
        }
    }
}

/// The band (kg/m³) of a Hertz material's typed density: an elastic solid
/// from a rigid foam (EPS is 15–35) to osmium (22,590). Every solid's
/// g/cm³ number is below 22.6, so a g/cm³ number typed with kg/m³ reads
/// below the floor (steel's 7.85, tungsten carbide's 15.6).
pub const MATERIAL_DENSITY: (f64, f64) = (20.0, 25_000.0);

/// A Hertz contact's material densities (`material.density`,
/// `other_material.density`) against [`MATERIAL_DENSITY`]: it sets the
/// Rayleigh time √ρ, and no stiffness shows the slip.
pub(super) fn material_density(case: &Case, out: &mut Checks) {
    let band = MATERIAL_DENSITY;
    for (ci, c) in case.contacts.iter().enumerate() {
        let ContactLaw::Hertz(h) = &c.law else {
            continue;
        };
        let Some(m) = &h.inputs.materials else {
            continue;
        };
        let mut typed: Vec<(&str, &Val)> = Vec::new();
        if let Some(v) = &m.body.inputs.density {
            typed.push(("material", v));
        }
        if let crate::case::Counterpart::Elastic(o) = &m.other
            && let Some(v) = &o.inputs.density
        {
            typed.push(("other_material", v));
        }
        for (key, v) in typed {
            let rho = v.si;
            if !rho.is_finite() || (band.0..=band.1).contains(&rho) {
                continue;
            }
            let low = rho < band.0;
            out.warn(
                "implausible_density",
                format!("contact {}: {key}.density", case.contact_name(ci)),
                at(case, &v.span),
                format!(
                    "a material density of {} kg/m³ is {} {} kg/m³: no elastic solid is that {} \
                     (steel is 7850, polymers 900–2200, a rigid foam 20–200), and the Rayleigh time it sets goes as √ρ; \
                     check the unit ({})",
                    n(rho),
                    if low { "below" } else { "above" },
                    n(if low { band.0 } else { band.1 }),
                    if low { "light" } else { "dense" },
                    if low {
                        "a g/cm³ number typed as kg/m³: 7.85 g/cm³ is 7850 kg/m³"
                    } else {
                        "kg/m³, not g/m³ or g/cm³·10⁶"
                    }
                ),
            );
        }
    }
}
