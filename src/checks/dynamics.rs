//! Checks that a contact's spring, dashpot and an engine's time scales are
//! ones a body of that mass and size can have: a stiffness whose contact
//! rings faster than sound crosses the body, or so soft the body sinks
//! through it under its own weight; a dashpot many times critical; an
//! engine step or spring frequency no engine runs with; a generalized
//! case's m_eff out of all proportion to the masses it names. Thresholds
//! are the named constants, wide enough that honest inputs of any field
//! pass (a rubber pad to a steel die, a DEM grain to a crane).

use super::{Checks, at, n};
use crate::case::{Case, ContactGeometry, Form, Val};
use crate::model::{BodyKind, Geometry, Model};
use crate::units::Dim;

/// The fastest wave in any solid (m/s; diamond's longitudinal speed is
/// about 18 km/s): a contact whose half period is shorter than the time
/// such a wave takes to cross its body breaks the rigid-body model.
pub const FASTEST_WAVE: f64 = 18_000.0;

/// Standard gravity (m/s²), for the sinkage under a body's own weight.
pub const GRAVITY: f64 = 9.806_65;

/// A body whose own weight sinks it into its contacts (m g/Σk) by more
/// than this fraction of its size is flagged: a sag δ is a bounce
/// frequency √(g/δ)/2π, and 20 % of a 0.4 m body (8 cm) is already 1.8 Hz,
/// the softest air-spring isolator; honest rubber, foam and steel contacts
/// sag well under 5 % (a unit slip of 10³ moves the sag 10³ times).
pub const SINK_FRACTION: f64 = 0.2;

/// A dashpot above this multiple of critical damping (ζ = c/(2√(k m_eff)))
/// is flagged.
pub const DAMPING_RATIO_MAX: f64 = 10.0;

/// Engine steps (s) outside this band are flagged: no physics engine's
/// contact is run with a step above 0.1 s or below 1 µs.
pub const ENGINE_STEP: (f64, f64) = (1e-6, 0.1);

/// An engine's contact-spring frequency times its (sub)step above this is
/// flagged: the spring would complete many periods within one step.
pub const ENGINE_FREQUENCY_STEPS: f64 = 10.0;

/// A generalized contact's m_eff outside these multiples of the largest
/// mass the case's parameters name is flagged.
pub const GENERALIZED_MASS_RATIO: (f64, f64) = (1e-3, 10.0);

/// Where a model contact's stiffness (else its table) is written.
fn stiffness_at(case: &Case, ci: usize) -> String {
    match case.contacts.get(ci) {
        Some(c) => at(case, &c.stiffness.span),
        None => super::scene_row(case, "contacts", ci),
    }
}

/// A contact as the springs' rule reads it: its stiffness, dashpot and
/// bodies.
pub(crate) struct SpringContact {
    /// Stiffness.
    pub k: f64,
    /// Dashpot, when given.
    pub damping: Option<f64>,
    /// Its bodies (`None`: the world, or no body).
    pub sides: [Option<usize>; 2],
}

/// A body as the springs' rule reads it.
pub(crate) struct SpringBody {
    /// Its mass (`None`: fixed).
    pub mass: Option<f64>,
    /// A rigid body (a particle has no size of its own).
    pub rigid: bool,
}

/// The stiffness against the body's size and weight, and the dashpot
/// against critical damping, contact by contact.
pub(super) fn springs(
    case: &Case,
    model: &Model<f64>,
    m_eff: &[Option<f64>],
    size: &[f64],
    out: &mut Checks,
) {
    let bodies = match &model.kind {
        crate::model::Kind::Bodies { bodies, .. } => bodies.as_slice(),
        _ => &[],
    };
    let contact = |ci: usize| {
        let c = &model.contacts[ci];
        SpringContact {
            k: c.stiffness,
            damping: c.damping,
            sides: match &c.geometry {
                Geometry::Point { body, other, .. } => [Some(*body), *other],
                _ => [None, None],
            },
        }
    };
    let body = |b: usize| SpringBody {
        mass: match &bodies[b].kind {
            BodyKind::Rigid { mass, .. } | BodyKind::Particle { mass } => Some(*mass),
            BodyKind::Fixed => None,
        },
        rigid: matches!(bodies[b].kind, BodyKind::Rigid { .. }),
    };
    let m = |ci: usize| m_eff.get(ci).copied().flatten();
    let name = |b: usize| bodies[b].name.clone();
    springs_of(
        case,
        (model.contacts.len(), contact),
        (bodies.len(), body, name),
        m,
        size,
        out,
    );
}

/// [`springs`] over contacts and bodies given by number and accessor
/// (`contacts.1(ci)`, `bodies.1(b)`, a body's name `bodies.2(b)`),
/// `m_eff(ci)` each contact's effective mass: the rule for a model's
/// structs and for a large scene's columns (`pipeline::scene`) alike. The
/// contacts and the bodies are each tested on every core
/// ([`each`](super::each::each): the warnings of a serial loop, in its
/// order); each body's stiffnesses are summed in contact order.
pub(crate) fn springs_of(
    case: &Case,
    contacts: (usize, impl Fn(usize) -> SpringContact + Sync),
    bodies: (
        usize,
        impl Fn(usize) -> SpringBody + Sync,
        impl Fn(usize) -> String + Sync,
    ),
    m_eff: impl Fn(usize) -> Option<f64> + Sync,
    size: &[f64],
    out: &mut Checks,
) {
    let (nb, body, body_name) = bodies;
    let mut held = vec![0.0f64; nb];
    for ci in 0..contacts.0 {
        if m_eff(ci).is_none() {
            continue;
        }
        let SpringContact { k, sides, .. } = contacts.1(ci);
        for b in sides.into_iter().flatten() {
            if let Some(h) = held.get_mut(b) {
                *h += k;
            }
        }
    }
    super::each::each(contacts.0, out, |ci, out| {
        let Some(m) = m_eff(ci) else {
            return;
        };
        let SpringContact { k, damping, sides } = contacts.1(ci);
        // A particle has no size of its own (its contact point's distance
        // is no measure of it).
        let rigid = |b: &usize| *b < nb && body(*b).rigid;
        let length = sides
            .into_iter()
            .flatten()
            .filter(rigid)
            .filter_map(|b| size.get(b).copied())
            .fold(0.0f64, f64::max);
        let half_period = std::f64::consts::PI * (m / k).sqrt();
        if length > 0.0 && half_period < length / FASTEST_WAVE {
            out.warn_with("stiffness_for_size", || {
                (
                    format!("contact {}: stiffness", case.contact_name(ci)),
                    stiffness_at(case, ci),
                    format!(
                        "k = {} N/m on m_eff = {} kg rings with half period π√(m_eff/k) = {} s, \
                         shorter than the {} s the fastest wave in any solid ({} m/s) takes to \
                         cross the body ({} m): no rigid body is that stiff at its contact; \
                         check the stiffness's unit (N/m, not N/mm·10³) and the mass's",
                        n(k),
                        n(m),
                        n(half_period),
                        n(length / FASTEST_WAVE),
                        n(FASTEST_WAVE),
                        n(length)
                    ),
                )
            });
        }
        if let Some(cd) = damping {
            dashpot(case, ci, (cd, k, m), out);
        }
    });
    super::each::each(nb, out, |b, out| {
        let SpringBody { mass, rigid } = body(b);
        let Some(mass) = mass else {
            return;
        };
        let s = if rigid {
            size.get(b).copied().unwrap_or(0.0)
        } else {
            0.0
        };
        let k = held[b];
        let sink = mass * GRAVITY / k;
        if k > 0.0 && s > 0.0 && sink > SINK_FRACTION * s {
            out.warn_with("stiffness_for_size", || {
                let (name, location) = super::body_name_and_location(case, b, &body_name(b));
                (
                    format!("body {name}: contact stiffness"),
                    location,
                    format!(
                        "its contacts' stiffnesses sum to {} N/m: under its own weight ({} kg × \
                         g) the body would sink m g/Σk = {} m into them, {} % of its size ({} m; \
                         more than {} %): a sag that deep (a bounce at √(g/δ)/2π = {} Hz) is an air spring's, \
                         not a pad's or a foot's; check the stiffnesses' \
                         unit (N/m, not N/mm)",
                        n(k),
                        n(mass),
                        n(sink),
                        n(100.0 * sink / s),
                        n(s),
                        n(100.0 * SINK_FRACTION),
                        n((GRAVITY / sink).sqrt() / (2.0 * std::f64::consts::PI))
                    ),
                )
            });
        }
    });
}

/// Contact `ci`'s dashpot `c` on stiffness `k` and effective mass `m`
/// against critical damping: the floor (a typed dashpot) and the ceiling.
fn dashpot(case: &Case, ci: usize, (cd, k, m): (f64, f64, f64), out: &mut Checks) {
    let zeta = cd / (2.0 * (k * m).sqrt());
    // An engine's dashpot (`fill_from_engine` gives it the stiffness's
    // span): located where the engine's damping is typed.
    let engine_dashpot = case.contacts.get(ci).is_some_and(|c| {
        c.from_engine
            && c.damping
                .as_ref()
                .is_none_or(|d| d.span == c.stiffness.span)
    });
    let location = || match case.contacts.get(ci).and_then(|c| c.damping.as_ref()) {
        _ if engine_dashpot => super::laws::engine_damping_at(case),
        Some(v) => at(case, &v.span),
        None => stiffness_at(case, ci),
    };
    // The floor holds for an engine's dashpot too (checks7a, plant p30:
    // Bullet's contactDamping typed as the ratio 0.1).
    super::laws::damping_floor(case, ci, (cd, k, m), &location, out);
    if zeta > DAMPING_RATIO_MAX {
        out.warn_with("damping_ratio", || {
            (
                format!("contact {}: damping", case.contact_name(ci)),
                location(),
                format!(
                    "c = {} N s/m is ζ = c/(2√(k m_eff)) = {} times critical damping for \
                     k = {} N/m and m_eff = {} kg: the contact creeps instead of ringing, and \
                     its dashpot, not its spring, sets the step; check the value and its \
                     unit (N s/m)",
                    n(cd),
                    n(zeta),
                    n(k),
                    n(m)
                ),
            )
        });
    }
}

/// Each engine's step and contact-spring frequency against the band
/// engines run in.
pub(super) fn engine_scales(case: &Case, out: &mut Checks) {
    let e = &case.engines;
    let steps: Vec<(&str, &Val, usize, Option<&Val>)> = [
        e.mujoco.as_ref().map(|s| ("mujoco", &s.timestep, 1, None)),
        e.box2d
            .as_ref()
            .map(|s| ("box2d", &s.timestep, s.substeps, Some(&s.contact_hertz))),
        e.bullet.as_ref().map(|s| ("bullet", &s.timestep, 1, None)),
        e.drake.as_ref().map(|s| ("drake", &s.timestep, 1, None)),
        e.rapier.as_ref().map(|s| {
            (
                "rapier",
                &s.timestep,
                s.substeps,
                Some(&s.contact_natural_frequency),
            )
        }),
    ]
    .into_iter()
    .flatten()
    .collect();
    for (engine, h, substeps, freq) in steps {
        if h.si < ENGINE_STEP.0 || h.si > ENGINE_STEP.1 {
            out.warn(
                "engine_time_scales",
                format!("[engine.{engine}]: timestep"),
                at(case, &h.span),
                format!(
                    "a step of {} s is outside {}–{} s, the band physics engines run contacts \
                     in: check the value and its unit",
                    n(h.si),
                    n(ENGINE_STEP.0),
                    n(ENGINE_STEP.1)
                ),
            );
        }
        let sub = h.si / substeps.max(1) as f64;
        if let Some(f) = freq
            && f.si * sub > ENGINE_FREQUENCY_STEPS
        {
            out.warn(
                "engine_time_scales",
                format!("[engine.{engine}]: contact frequency"),
                at(case, &f.span),
                format!(
                    "a contact spring of {} Hz completes {} periods within one (sub)step of {} s: \
                     the engine cannot resolve it (and clamps or ignores it); check the value \
                     and its unit (Hz)",
                    n(f.si),
                    n(f.si * sub),
                    n(sub)
                ),
            );
        }
    }
}

/// A generalized case's m_eff against the masses it names: its
/// `[parameters]` that are masses and the mass matrix's diagonal entries
/// for coordinates in metres (a gearbox's reflected rotor inertia is a
/// mass the matrix builds, not one a parameter names).
pub(super) fn generalized_mass(case: &Case, m_eff: &[Option<f64>], out: &mut Checks) {
    let Form::Generalized {
        coordinates,
        mass_matrix,
        ..
    } = &case.form
    else {
        return;
    };
    let named = case
        .parameters
        .iter()
        .filter(|p| p.value.dim == Dim::MASS && p.value.si > 0.0)
        .map(|p| (p.name.clone(), p.value.si));
    let diagonal = coordinates.iter().enumerate().filter_map(|(i, c)| {
        let v = mass_matrix.get(i)?.get(i)?;
        (c.dim == Dim::LENGTH && v.si > 0.0).then(|| {
            (
                format!("the mass matrix's M[{}][{}] ({})", i + 1, i + 1, c.name),
                v.si,
            )
        })
    });
    let Some((what, big)) = named.chain(diagonal).max_by(|a, b| a.1.total_cmp(&b.1)) else {
        return;
    };
    for (ci, c) in case.contacts.iter().enumerate() {
        let Some(Some(m)) = m_eff.get(ci) else {
            continue;
        };
        let ratio = m / big;
        if ratio >= GENERALIZED_MASS_RATIO.0 && ratio <= GENERALIZED_MASS_RATIO.1 {
            continue;
        }
        let span = match &c.geometry {
            ContactGeometry::Jacobian(row) => {
                row.first().map_or(c.span.clone(), |v| v.span.clone())
            }
            _ => c.span.clone(),
        };
        out.warn(
            "mass_out_of_proportion",
            format!("contact {}: jacobian", c.name),
            at(case, &span),
            format!(
                "m_eff = {} kg is {}× the largest mass the case names ({what} = {} kg): a lever \
                 or a mass-matrix entry in another unit (mm for m, g for kg) gives this; check \
                 the Jacobian row against the mass matrix",
                n(*m),
                n(ratio),
                n(big)
            ),
        );
    }
}
