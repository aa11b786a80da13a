//! Checks of a contact law's inputs and of the values an engine or an
//! impact adds: a tangential spring in another unit or typed as its
//! inverse ratio, a Hertz radius larger than its body by far, an overlap
//! no small-strain law covers, a dashpot typed as its damping ratio, an
//! engine time constant or dissipation in another unit, a drop's gravity
//! no planet has. Thresholds are the named constants.

use super::{Checks, at, n};
use crate::case::ContactLaw;
use crate::case::{Case, Val};
use crate::model::{BodyKind, Geometry, Kind, Model};
use std::ops::Range;

/// k_t/k_n outside this band is flagged: Mindlin's 2(1−ν)/(2−ν) lies in
/// [0.67, 1] for every ν in [0, 0.5], DEM's common 2/7 is 0.29.
pub const TANGENTIAL_RATIO: (f64, f64) = (0.1, 1.5);

/// G*/E* outside this band is flagged: (1−ν)/(2(2−ν)) lies in [1/6, 1/4]
/// for one material with ν in [0, 0.5], and a pair's G*/E* is a weighted
/// mean of its two materials' values, so at most 1/3 even for ν → −1
/// (checks7a, plant p09: steel's E and G typed as E* and G* give 0.385).
pub const SHEAR_RATIO: (f64, f64) = (0.1, 1.0 / 3.0);

/// A Hertz radius R* above this multiple of its body's size is flagged (a
/// conforming groove's R* is a few tens of the ball's).
pub const HERTZ_RADIUS_SIZE: f64 = 100.0;

/// An overlap above this fraction of R* is flagged: Hertz's law is a
/// small-strain one.
pub const HERTZ_OVERLAP: f64 = 0.05;

/// A Hertz material's `density` and `radius` name the contact's body (the
/// particle of the Rayleigh time): its mass further than this fraction
/// from `4/3 π r³ ρ` (or ρ × its shape's volume) is flagged. Steels span
/// 7,750–8,050 kg/m³ (±2 %), so a ball weighed and a handbook density
/// stay inside; a radius typed as the diameter (8×), another material's
/// density or a mass for another ball do not.
pub const HERTZ_MASS_TOLERANCE: f64 = 0.02;

/// A dashpot below this damping ratio (and above zero) is flagged: a
/// damping ratio typed where c goes.
pub const DAMPING_RATIO_MIN: f64 = 1e-4;

/// Drake Hunt–Crossley dissipation above this (s/m) is flagged (it gives
/// no rebound above about 1/d m/s).
pub const DISSIPATION_MAX: f64 = 10.0;

/// A MuJoCo solref time constant above this (s) is flagged.
pub const SOLREF_TIME_MAX: f64 = 1.0;

/// A drop's gravity outside this band (m/s²) is flagged: from the Moon's
/// 1.62 to Jupiter's 24.8.
pub const GRAVITY_BAND: (f64, f64) = (1.6, 25.0);

/// Where `key = …` is written inside the table that starts at or holds
/// `from` (the table's start when the key is not found).
pub(super) fn key_in_table(case: &Case, from: usize, key: &str) -> Range<usize> {
    let src = &case.source;
    let start = src[..from.min(src.len())].rfind('\n').map_or(0, |i| i + 1);
    let mut pos = start;
    for (k, line) in src[start..].split_inclusive('\n').enumerate() {
        let t = line.trim_start();
        if k > 0 && t.starts_with('[') {
            break;
        }
        if let Some(rest) = t.strip_prefix(key)
            && rest.trim_start().starts_with('=')
        {
            let s = pos + (line.len() - t.len());
            return s..s + key.len();
        }
        pos += line.len();
    }
    from..from
}

/// Where a table headed `header` starts (`[engine.mujoco]`).
fn header(case: &Case, header: &str) -> usize {
    case.source.find(header).unwrap_or(0)
}

/// Where contact `ci`'s key is written (a scene's row when the contact is
/// not a `[[contact]]` table).
fn contact_key(case: &Case, ci: usize, key: &str) -> String {
    match case.contacts.get(ci) {
        Some(c) => at(case, &key_in_table(case, c.span.start, key)),
        None => super::scene_row(case, "contacts", ci),
    }
}

/// Tangential springs and Hertz inputs, contact by contact.
pub(super) fn contact_laws(case: &Case, model: &Model<f64>, size: &[f64], out: &mut Checks) {
    let bodies = match &model.kind {
        Kind::Bodies { bodies, .. } => Some(bodies),
        Kind::Generalized { .. } => None,
    };
    for (ci, c) in model.contacts.iter().enumerate() {
        let name = case.contact_name(ci);
        if let Some(t) = &c.tangential
            && c.stiffness > 0.0
        {
            let kt = t.stiffness.of(&c.stiffness);
            let ratio = kt / c.stiffness;
            let hertz_kt = matches!(
                case.contacts.get(ci).map(|c| &c.law),
                Some(ContactLaw::Hertz(h)) if h.shear_modulus.is_some()
            );
            if !(TANGENTIAL_RATIO.0..=TANGENTIAL_RATIO.1).contains(&ratio) && !hertz_kt {
                let location = match case.contacts.get(ci).and_then(|c| c.tangential.as_ref()) {
                    Some(t) => at(case, &t.span),
                    None => super::scene_row(case, "contacts", ci),
                };
                out.warn(
                    "tangential_ratio",
                    format!("contact {name}: tangential stiffness"),
                    location,
                    format!(
                        "k_t = {} N/m is {}× the normal k_n = {} N/m, outside {}–{}: Mindlin's \
                         elastic ratio is 0.67–1 and DEM's common one 2/7; check the value, its \
                         unit (N/m, not N/mm) and whether a ratio was typed inverted",
                        n(kt),
                        n(ratio),
                        n(c.stiffness),
                        TANGENTIAL_RATIO.0,
                        TANGENTIAL_RATIO.1
                    ),
                );
            }
        }
        let Some(ContactLaw::Hertz(h)) = case.contacts.get(ci).map(|c| &c.law) else {
            continue;
        };
        if let (Some(g), Some(e)) = (h.shear_modulus, h.modulus)
            && !(SHEAR_RATIO.0..=SHEAR_RATIO.1).contains(&(g / e))
        {
            out.warn(
                "tangential_ratio",
                format!("contact {name}: shear_modulus"),
                contact_key(case, ci, "shear_modulus"),
                format!(
                    "G* = {} Pa is {}× E* = {} Pa, outside {}–1/3: for isotropic materials \
                     G*/E* is a weighted mean of (1−ν)/(2(2−ν)), 1/6–1/4 for ν in 0–0.5 and \
                     below 1/3 for any ν, so no pair of materials gives this (Mindlin's k_t \
                     would be {}× k_n); a material's own E and G typed for the effective E* \
                     = E/(2(1−ν²)) and G* = G/(2(2−ν)) of a like pair? check the values and \
                     their units (MPa for GPa)",
                    n(g),
                    n(g / e),
                    n(e),
                    SHEAR_RATIO.0,
                    n(4.0 * g / e)
                ),
            );
        }
        let Some(r) = h.radius else { continue };
        let length = match (&c.geometry, bodies) {
            (Geometry::Point { body, other, .. }, Some(bodies)) => [Some(*body), *other]
                .into_iter()
                .flatten()
                .filter(|b| matches!(bodies[*b].kind, BodyKind::Rigid { .. }))
                .filter_map(|b| size.get(b).copied())
                .fold(0.0f64, f64::max),
            _ => 0.0,
        };
        if length > 0.0 && r > HERTZ_RADIUS_SIZE * length {
            out.warn(
                "hertz_geometry",
                format!("contact {name}: radius"),
                contact_key(case, ci, "radius"),
                format!(
                    "R* = {} m is {}× the size of its body ({} m), above {}×: no surface of \
                     that body curves that gently (a conforming groove gives a few tens); check \
                     the value and its unit (m for mm)",
                    n(r),
                    n(r / length),
                    n(length),
                    HERTZ_RADIUS_SIZE
                ),
            );
        }
        if r > 0.0 && h.overlap > HERTZ_OVERLAP * r {
            let key = if h.load.is_some() { "load" } else { "overlap" };
            out.warn(
                "hertz_geometry",
                format!("contact {name}: {key}"),
                contact_key(case, ci, key),
                format!(
                    "the overlap δ = {} m is {} % of R* = {} m, above {} %: Hertz's law holds \
                     for small strains only, and the stiffness 3/2 K √δ it is linearised to \
                     is far from the contact's; check the value and its unit (mm for µm)",
                    n(h.overlap),
                    n(100.0 * h.overlap / r),
                    n(r),
                    100.0 * HERTZ_OVERLAP
                ),
            );
        }
    }
    material_masses(case, model, out);
}

/// Each Hertz material with a `density` and a `radius` against the mass
/// of the body it names: the contact's body for `material`, the other
/// body for `other_material` (its sphere `4/3 π r³ ρ`, and ρ × its shape's
/// volume where it has a shape).
fn material_masses(case: &Case, model: &Model<f64>, out: &mut Checks) {
    use crate::case::Counterpart;
    let (Kind::Bodies { bodies, .. }, crate::case::Form::Bodies { bodies: typed, .. }) =
        (&model.kind, &case.form)
    else {
        return;
    };
    for (ci, c) in case.contacts.iter().enumerate() {
        let (ContactLaw::Hertz(h), Some(mc)) = (&c.law, model.contacts.get(ci)) else {
            continue;
        };
        let (Some(m), Geometry::Point { body, other, .. }) = (&h.materials, &mc.geometry) else {
            continue;
        };
        let other_material = match &m.other {
            Counterpart::Elastic(o) => Some(&**o),
            Counterpart::Rigid => None,
        };
        for (key, material, b) in [
            ("material", Some(&m.body), Some(*body)),
            ("other_material", other_material, *other),
        ] {
            let (Some(material), Some(b)) = (material, b) else {
                continue;
            };
            let (Some(rho), Some(mass)) = (material.density, bodies[b].mass()) else {
                continue;
            };
            let sphere = material.radius.map(|r| {
                (
                    4.0 / 3.0 * std::f64::consts::PI * r.powi(3),
                    format!("the sphere of its radius {} m", n(r)),
                )
            });
            let shape = typed.get(b).and_then(|t| t.shape.as_ref()).and_then(|s| {
                Some((
                    s.kind.volume(&s.size)?,
                    format!("body {}'s {}", bodies[b].name, s.kind.name()),
                ))
            });
            for (volume, of) in [sphere, shape].into_iter().flatten() {
                let named = rho * volume;
                if (mass / named - 1.0).abs() <= HERTZ_MASS_TOLERANCE {
                    continue;
                }
                out.warn(
                    "hertz_geometry",
                    format!("contact {}: {key}", c.name),
                    at(case, &key_in_table(case, c.span.start, key)),
                    format!(
                        "the {key}'s density {} kg/m³ and {of} make {} kg, but body {} has {} kg \
                         ({}×), beyond ±{} %: the material names another body than the one \
                         simulated (the Rayleigh time uses the material's); check the density, \
                         the radius (not the diameter) and the mass; a hollow or composite ball \
                         is the exception the signer judges",
                        n(rho),
                        n(named),
                        bodies[b].name,
                        n(mass),
                        n(mass / named),
                        100.0 * HERTZ_MASS_TOLERANCE
                    ),
                );
            }
        }
    }
}

/// A dashpot whose damping ratio is below [`DAMPING_RATIO_MIN`].
pub(super) fn damping_floor(
    case: &Case,
    ci: usize,
    (c, k, m): (f64, f64, f64),
    location: &dyn Fn() -> String,
    out: &mut Checks,
) {
    let zeta = c / (2.0 * (k * m).sqrt());
    if c > 0.0 && zeta < DAMPING_RATIO_MIN {
        out.warn_with("damping_ratio", || {
            (
                format!("contact {}: damping", case.contact_name(ci)),
                location(),
                format!(
                    "c = {} N s/m is ζ = c/(2√(k m_eff)) = {} of critical damping for k = {} \
                     N/m and m_eff = {} kg, below {}: the dashpot does nothing; a damping ratio \
                     typed where c goes (ζ = 0.05 is c = {} N s/m here)? check the value and \
                     its unit",
                    n(c),
                    n(zeta),
                    n(k),
                    n(m),
                    DAMPING_RATIO_MIN,
                    n(0.1 * (k * m).sqrt())
                ),
            )
        });
    }
}

/// An engine's time constant and dissipation, and a drop's gravity.
pub(super) fn engine_and_drop(case: &Case, out: &mut Checks) {
    if let Some(s) = &case.engines.mujoco
        && s.solref[0] > SOLREF_TIME_MAX
    {
        let from = header(case, "[engine.mujoco]");
        out.warn(
            "engine_time_scales",
            "[engine.mujoco]: solref".into(),
            at(case, &key_in_table(case, from, "solref")),
            format!(
                "solref's time constant {} s is above {} s: MuJoCo's contact would take that \
                 long to settle (its default is 0.02 s); check the unit (ms for s)",
                n(s.solref[0]),
                n(SOLREF_TIME_MAX)
            ),
        );
    }
    if let Some(s) = &case.engines.drake
        && s.dissipation.si > DISSIPATION_MAX
    {
        out.warn(
            "engine_time_scales",
            "[engine.drake]: dissipation".into(),
            at(case, &s.dissipation.span),
            format!(
                "a Hunt–Crossley dissipation of {} s/m is above {} s/m: the contact stops dead \
                 at any approach speed above {} m/s (Drake's examples use 0.1–5 s/m); check the \
                 value",
                n(s.dissipation.si),
                n(DISSIPATION_MAX),
                n(1.0 / s.dissipation.si)
            ),
        );
    }
    for imp in &case.impacts {
        let Some((_, g)) = &imp.drop else { continue };
        gravity(case, &imp.name, g, out);
    }
}

fn gravity(case: &Case, impact: &str, g: &Val, out: &mut Checks) {
    if (GRAVITY_BAND.0..=GRAVITY_BAND.1).contains(&g.si) {
        return;
    }
    out.warn(
        "gravity_value",
        format!("impact {impact}: gravity"),
        at(case, &g.span),
        format!(
            "g = {} m/s² is outside {}–{} m/s² (the Moon to Jupiter): check the value and its \
             unit (32.2 is ft/s²)",
            n(g.si),
            GRAVITY_BAND.0,
            GRAVITY_BAND.1
        ),
    );
}

/// Where the case's engine gives its contacts' dashpot (the key of its
/// table that sets it; the table when the dashpot is the engine's
/// default): the location of a warning on a dashpot from an engine.
pub(super) fn engine_damping_at(case: &Case) -> String {
    use crate::case::Engine;
    let Some((engine, span)) = case.engines.spans.first() else {
        return at(case, &(0..0));
    };
    let key = match engine {
        Engine::Mujoco => "solref",
        Engine::Box2d | Engine::Rapier => "contact_damping_ratio",
        Engine::Bullet => "damping",
        Engine::Drake => "dissipation",
    };
    at(case, &key_in_table(case, span.start, key))
}

/// A MuJoCo `solimp` width (its third value, the penetration over which
/// the impedance goes from dmin to dmax) above this (m) is flagged:
/// MuJoCo's default is 1 mm, and a width of metres is millimetres typed
/// as metres (checks7a, plant p31).
pub const SOLIMP_WIDTH_MAX: f64 = 0.1;

/// MuJoCo's `solimp` width against [`SOLIMP_WIDTH_MAX`].
pub(super) fn solimp_width(case: &Case, out: &mut Checks) {
    let Some(s) = &case.engines.mujoco else {
        return;
    };
    let width = s.solimp[2];
    if width <= SOLIMP_WIDTH_MAX {
        return;
    }
    let from = header(case, "[engine.mujoco]");
    out.warn(
        "solimp_width",
        "[engine.mujoco]: solimp".into(),
        at(case, &key_in_table(case, from, "solimp")),
        format!(
            "solimp's width (its third value) is {} m, above {} m: the impedance would rise \
             from dmin to dmax over that much penetration, more than any contact sinks (MuJoCo's \
             default is 0.001 m), so at a penetration of millimetres it stays near dmin; a width \
             in millimetres typed as metres? MuJoCo reads it in the model's length unit (m)",
            n(width),
            n(SOLIMP_WIDTH_MAX)
        ),
    );
}
