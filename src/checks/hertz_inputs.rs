//! Checks of a Hertz contact's inputs against its body (checks7a, issue
//! 36's round-6 plants): a `load` far below the weight of the body it
//! alone holds up (a mass number typed as a force), a material whose bar
//! wave speed √(E/ρ) no solid has (another material's modulus), and an
//! R* that is exactly a ball's diameter where it touches a flat (R* of a
//! ball on a plane is its radius). Thresholds are the named constants.

use super::{Checks, at, n};
use crate::case::{Case, ContactLaw, Form, HertzLaw};
use crate::kinematics::shape::Shape;
use crate::model::{BodyKind, Geometry, Kind, Model};

/// A Hertz `load` below this fraction of the weight m g of the free body
/// it alone holds up is flagged (one-sided: a preload above the weight is
/// a clamp or a spring, and honest; the mass number typed as the load
/// gives 1/g ≈ 0.10).
pub const LOAD_WEIGHT_RATIO: f64 = 0.5;

/// A contact "holds a body up" when the normal pushing it is within this
/// angle (degrees) of straight up (+z; +y in the plane).
pub const UP_ANGLE_DEG: f64 = 30.0;

/// A Hertz material's bar wave speed √(E/ρ) outside this band (m/s) is
/// flagged: soft silicone rubbers reach about 10 m/s, and among
/// engineering solids only beryllium and diamond exceed 13 km/s (steel
/// 5.2, aluminium 5.1, nylon 1.5 km/s).
pub const WAVE_SPEED: (f64, f64) = (10.0, 13_000.0);

/// R* within this relative difference of a ball's diameter is "exactly"
/// it.
const EXACT: f64 = 1e-9;

/// The three rules, Hertz contact by Hertz contact.
pub(super) fn hertz_inputs(case: &Case, model: &Model<f64>, out: &mut Checks) {
    let Kind::Bodies { bodies, .. } = &model.kind else {
        return;
    };
    // How many contacts each body has (the load rule wants one).
    let mut count = vec![0usize; bodies.len()];
    for c in &model.contacts {
        if let Geometry::Point { body, other, .. } = &c.geometry {
            for b in [Some(*body), *other].into_iter().flatten() {
                count[b] += 1;
            }
        }
    }
    let movable = |b: Option<usize>| b.filter(|&b| !matches!(bodies[b].kind, BodyKind::Fixed));
    for (ci, c) in model.contacts.iter().enumerate() {
        let Some(ContactLaw::Hertz(h)) = case.contacts.get(ci).map(|c| &c.law) else {
            continue;
        };
        let Geometry::Point {
            body,
            other,
            normal,
            ..
        } = &c.geometry
        else {
            continue;
        };
        // The sides and the normal that pushes each.
        let sides = [(Some(*body), *other, 1.0), (*other, Some(*body), -1.0)];
        for (me, opposite, sign) in sides {
            let Some(b) = movable(me) else { continue };
            if movable(opposite).is_some() {
                continue;
            }
            let up = sign * normal.last().copied().unwrap_or(0.0);
            if let BodyKind::Rigid { mass, .. } = &bodies[b].kind
                && count[b] == 1
                && up >= UP_ANGLE_DEG.to_radians().cos()
            {
                load(case, ci, h, (&bodies[b].name, *mass), out);
            }
            diameter(case, ci, h, b, out);
        }
        wave_speed(case, ci, h, out);
    }
}

/// A Hertz `load` below [`LOAD_WEIGHT_RATIO`] of the weight of the body
/// that rests on this contact alone.
fn load(case: &Case, ci: usize, h: &HertzLaw, (name, mass): (&str, f64), out: &mut Checks) {
    let (Some(w), Some(v)) = (h.load, &h.inputs.load) else {
        return;
    };
    let weight = mass * super::dynamics::GRAVITY;
    if w >= LOAD_WEIGHT_RATIO * weight {
        return;
    }
    out.warn(
        "hertz_load",
        format!("contact {}: load", case.contact_name(ci)),
        at(case, &v.span),
        format!(
            "the load {} N is {}× the weight m g = {} N of body {name} ({} kg), which rests \
             on this contact alone (its normal within {}° of straight up): at rest the \
             contact carries the weight, and the overlap and the stiffness go as the load's \
             cube root ({}× here); the mass number typed as the force ({} kg → {} N)? check \
             the value and its unit (a preload above the weight is a clamp, and honest)",
            n(w),
            n(w / weight),
            n(weight),
            n(mass),
            UP_ANGLE_DEG,
            n((w / weight).cbrt()),
            n(mass),
            n(weight)
        ),
    );
}

/// R* exactly the diameter of the ball whose contact with a flat (the
/// world or a fixed body) it describes.
fn diameter(case: &Case, ci: usize, h: &HertzLaw, b: usize, out: &mut Checks) {
    let (Some(r_star), Some(v)) = (h.radius, &h.inputs.radius) else {
        return;
    };
    let Form::Bodies { bodies, .. } = &case.form else {
        return;
    };
    let Some(shape) = bodies.get(b).and_then(|x| x.shape.as_ref()) else {
        return;
    };
    let [r] = shape.size[..] else { return };
    if shape.kind != Shape::Sphere || (r_star - 2.0 * r).abs() > EXACT * 2.0 * r {
        return;
    }
    out.warn(
        "hertz_geometry",
        format!("contact {}: radius", case.contact_name(ci)),
        at(case, &v.span),
        format!(
            "R* = {} m is the diameter of body {}'s sphere (r = {} m), whose contact here is \
             with a flat (the world or a fixed body): R* is the ball's diameter; a ball on a \
             flat has R* = r (1/R* = 1/R₁ + 1/R₂ with a flat's 1/R₂ = 0), and R* = 2r makes \
             the stiffness √2× too high; right only for a conforming seat of radius −2r \
             (then say so)",
            n(r_star),
            bodies[b].name,
            n(r)
        ),
    );
}

/// A Hertz material's bar wave speed √(E/ρ) against [`WAVE_SPEED`].
fn wave_speed(case: &Case, ci: usize, h: &HertzLaw, out: &mut Checks) {
    let Some(m) = &h.materials else { return };
    let mat = &m.body;
    let (Some(rho), Some(e_val)) = (mat.density, &mat.inputs.youngs_modulus) else {
        return;
    };
    let c = (mat.youngs_modulus / rho).sqrt();
    if !c.is_finite() || (WAVE_SPEED.0..=WAVE_SPEED.1).contains(&c) {
        return;
    }
    out.warn(
        "wave_speed",
        format!("contact {}: material youngs_modulus", case.contact_name(ci)),
        at(case, &e_val.span),
        format!(
            "the material's bar wave speed √(E/ρ) = √({} Pa / {} kg/m³) = {} m/s is outside \
             {}–{} m/s, the range of solids (soft silicone about 10 m/s, nylon 1,500, steel \
             5,200; only beryllium and diamond above 13,000): the modulus and the density \
             are of different materials, or one is in another unit; the Rayleigh time and the \
             step scale with it",
            n(mat.youngs_modulus),
            n(rho),
            n(c),
            n(WAVE_SPEED.0),
            n(WAVE_SPEED.1)
        ),
    );
}
