//! Checks that a value is one a real body, contact or person can have:
//! densities, levers against the radius of gyration, two contacts that are
//! one slot, a person's region values, an impact's compression against the
//! body's size. Each is one function named by its rule; thresholds are
//! the named constants beside them, wide enough that honest inputs of any
//! field pass (foam to osmium, a slender rod touched at its end).

use super::{Checks, at, dist, n};
use crate::case::{Case, Form};
use crate::model::{BodyKind, Geometry, Inertia, Model};
use nalgebra::{Matrix3, Vector3};

/// Densities (kg/m³) of a body with a `shape`, m/V, outside which it is
/// flagged: lighter than twice the density of air, denser than osmium
/// (22,590) with margin.
pub const DENSITY: (f64, f64) = (2.0, 25_000.0);

/// The same for a 3-d body without a shape, taken as the uniform sphere of
/// its radius of gyration (R = √(5/3)·√(ΣI/2m)): a slender rod or a ring
/// reads far lighter than its material, so the band is wider.
pub const EQUIVALENT_DENSITY: (f64, f64) = (0.5, 1e5);

/// The same for a planar body, m/ρ³ with ρ = √(I/m) (kg/m³ for a body as
/// deep as it is wide).
pub const EQUIVALENT_DENSITY_PLANAR: (f64, f64) = (1.0, 1e6);

/// The lowest density (kg/m³) of the uniform box whose principal moments a
/// model link has, below which it is flagged: a thin-walled aluminium tube
/// reads ≈100, a sheet-metal cover ≈50; a link whose moments are those of a
/// metre-wide disc of a kilogram (ur_description's UR5 wrists, a radius of
/// 0.6 m typed for 0.06 m) reads 1.5–10. Links without such a box (a rim,
/// a flat plate: a side of zero) are not flagged from below.
pub const LINK_BOX_DENSITY_MIN: f64 = 20.0;

/// A contact whose body alone would give it less than this fraction of the
/// body's mass is flagged: its lever is ~5 radii of gyration (a slender
/// rod touched at its end gives 1/4).
pub const LEVER_MASS_RATIO: f64 = 0.04;

/// A struck contact's largest compression above this fraction of its
/// body's size is flagged: the pose the analysis freezes no longer holds.
pub const COMPRESSION_RATIO: f64 = 0.1;

/// Two contacts on the same pair of bodies closer than this (m, plus the
/// same fraction of their distance from the origin) are at one point.
const SAME_POINT: f64 = 1e-9;

/// Bands of a person's body-region values (ISO/TS 15066 Annex A's body
/// model spans 0.6–40 kg, 10–150 kN/m, 65–220 N with transients; these are
/// several times wider): (what, unit, low, high).
pub const PERSON_BANDS: [(&str, &str, f64, f64); 4] = [
    ("mass", "kg", 0.3, 75.0),
    ("stiffness", "N/m", 1e3, 5e5),
    ("force_limit", "N", 10.0, 1000.0),
    ("speed", "m/s", 0.0, 5.0),
];

/// m/V of a shaped body, or of the sphere (or square, in the plane) of its
/// radius of gyration, against what matter can be.
pub(super) fn density(case: &Case, model: &Model<f64>, out: &mut Checks) {
    let crate::model::Kind::Bodies { bodies, .. } = &model.kind else {
        return;
    };
    for (b, body) in bodies.iter().enumerate() {
        let BodyKind::Rigid { mass, inertia } = &body.kind else {
            continue;
        };
        let moments = super::principal(inertia);
        let shape = match &case.form {
            Form::Bodies { bodies, .. } => bodies.get(b).and_then(|x| x.shape.as_ref()),
            _ => None,
        };
        let who = || super::body_name_and_location(case, b, &body.name);
        density_of(&who, *mass, &moments, shape, out);
    }
}

/// What a density was computed from, for its message.
enum DensityOf<'a> {
    /// m/V of the body's shape (its name).
    Shape(&'a str),
    /// The uniform sphere of the radius of gyration `rg`, with the uniform
    /// box of the principal moments' density when there is one.
    Sphere { rg: f64, boxed: Option<f64> },
    /// m/ρ³ in the plane.
    Planar { rg: f64 },
}

impl DensityOf<'_> {
    fn text(&self) -> String {
        match self {
            DensityOf::Shape(name) => format!("m/V of its {name}"),
            DensityOf::Sphere { rg, boxed } => format!(
                "the density of the uniform sphere with its radius of gyration ({} m){}",
                n(*rg),
                boxed.map_or_else(String::new, |b| format!(
                    " (of the uniform box with its principal moments, {} kg/m³)",
                    n(b)
                ))
            ),
            DensityOf::Planar { rg } => {
                format!("m/ρ³ with its radius of gyration ρ = √(I/m) = {} m", n(*rg))
            }
        }
    }
}

/// [`density`] for a body (`who`: its name and location, formed only if
/// it is listed) of mass `mass`, principal moments `moments` and shape
/// `shape`.
pub(super) fn density_of(
    who: super::Who<'_>,
    mass: f64,
    moments: &[f64],
    shape: Option<&crate::case::pose::ShapeGeom>,
    out: &mut Checks,
) {
    let mass = &mass;
    let (rho_v, band, how) = match (shape.and_then(|s| s.kind.volume(&s.size)), moments.len()) {
        (Some(v), _) => (
            mass / v,
            DENSITY,
            DensityOf::Shape(shape.map_or("", |s| s.kind.name())),
        ),
        (None, 3) => {
            let rg = (moments.iter().sum::<f64>() / (2.0 * mass)).sqrt();
            let r = (5.0f64 / 3.0).sqrt() * rg;
            let sphere = mass / (4.0 / 3.0 * std::f64::consts::PI * r.powi(3));
            // A slender rod or a flat plate reads far lighter as a
            // sphere: it is flagged only if the uniform box of its
            // principal moments is implausible too.
            let boxed = equivalent_box_density(*mass, moments);
            let inside = |x: f64| (EQUIVALENT_DENSITY.0..=EQUIVALENT_DENSITY.1).contains(&x);
            if !inside(sphere) && boxed.is_some_and(inside) {
                return;
            }
            (sphere, EQUIVALENT_DENSITY, DensityOf::Sphere { rg, boxed })
        }
        (None, _) => {
            let rg = (moments[0] / mass).sqrt();
            (
                mass / rg.powi(3),
                EQUIVALENT_DENSITY_PLANAR,
                DensityOf::Planar { rg },
            )
        }
    };
    if !rho_v.is_finite() || (rho_v >= band.0 && rho_v <= band.1) {
        return;
    }
    out.warn_with("implausible_density", || {
        let (name, location) = who();
        (
            format!("body {name}: mass and size"),
            location,
            format!(
                "{} is {} kg/m³, {} {} kg/m³: no solid body is that {}; check the units of \
                 the mass, the inertia and the size (g for kg, mm for m, g·cm² for kg·m²)",
                how.text(),
                n(rho_v),
                if rho_v < band.0 { "below" } else { "above" },
                n(if rho_v < band.0 { band.0 } else { band.1 }),
                if rho_v < band.0 { "light" } else { "dense" }
            ),
        )
    });
}

/// The sides of the uniform box whose principal moments are `moments`
/// (`√(6(I_j + I_k − I_i)/m)`), `None` as [`equivalent_box_density`].
pub(super) fn equivalent_box(mass: f64, moments: &[f64]) -> Option<[f64; 3]> {
    let [a, b, c] = moments else { return None };
    let side = |i: f64, j: f64, k: f64| {
        let s2 = 6.0 * (j + k - i) / mass;
        (s2 > 0.0).then(|| s2.sqrt())
    };
    Some([side(*a, *b, *c)?, side(*b, *a, *c)?, side(*c, *a, *b)?])
}

/// m/V of the uniform box whose principal moments are `moments`: sides
/// `√(6(I_j + I_k − I_i)/m)`; `None` if the moments break the triangle
/// inequality (another rule's) or give a side of zero.
pub(super) fn equivalent_box_density(mass: f64, moments: &[f64]) -> Option<f64> {
    let [x, y, z] = equivalent_box(mass, moments)?;
    Some(mass / (x * y * z))
}

/// A contact that its own body alone would give a small fraction of the
/// body's mass: `1/(1/m + (r×n)ᵀ I⁻¹ (r×n))` against `m`.
pub(super) fn lever(case: &Case, model: &Model<f64>, out: &mut Checks) {
    let crate::model::Kind::Bodies { bodies, .. } = &model.kind else {
        return;
    };
    for (ci, c) in model.contacts.iter().enumerate() {
        let Geometry::Point {
            body,
            point,
            normal,
            ..
        } = &c.geometry
        else {
            continue;
        };
        let b = &bodies[*body];
        let BodyKind::Rigid { mass, inertia } = &b.kind else {
            continue;
        };
        let r: Vec<f64> = point.iter().zip(&b.position).map(|(p, x)| p - x).collect();
        lever_of(
            case,
            ci,
            &|| b.name.clone(),
            (*mass, inertia),
            &r,
            normal,
            out,
        );
    }
}

/// [`lever`] for contact `ci` on a body named `body_name()` (formed only
/// if it is listed) of mass and inertia `body`, lever arm `r` and normal
/// `normal`.
pub(super) fn lever_of(
    case: &Case,
    ci: usize,
    body_name: &dyn Fn() -> String,
    body: (f64, &Inertia<f64>),
    r: &[f64],
    normal: &[f64],
    out: &mut Checks,
) {
    let (mass, inertia) = body;
    let mass = &mass;
    let a_rot = match inertia {
        Inertia::Scalar(i) if r.len() == 2 => {
            let t = r[0] * normal[1] - r[1] * normal[0];
            t * t / i
        }
        Inertia::Diagonal(_) | Inertia::Full(_) if r.len() == 3 => {
            let t = Vector3::new(r[0], r[1], r[2])
                .cross(&Vector3::new(normal[0], normal[1], normal[2]));
            let m = match inertia {
                Inertia::Diagonal(d) => Matrix3::from_diagonal(&Vector3::new(d[0], d[1], d[2])),
                Inertia::Full(f) => Matrix3::from_fn(|i, j| f[i][j]),
                Inertia::Scalar(_) => return,
            };
            let Some(inv) = m.try_inverse() else { return };
            t.dot(&(inv * t))
        }
        _ => return,
    };
    let alone = 1.0 / (1.0 / mass + a_rot);
    if !(alone.is_finite() && alone < LEVER_MASS_RATIO * mass) {
        return;
    }
    out.warn_with("lever_beyond_gyration", || {
        let cname = case.contact_name(ci);
        (
            format!("contact {cname}: point"),
            super::contact_at(case, ci, super::ContactField::Point),
            format!(
                "body {} alone gives this contact m_eff = {} kg, 1/{} of its {} kg: the \
                 contact's lever is {} times its radius of gyration about that axis. Right for \
                 a long thin body touched far out; otherwise the inertia is too small or the \
                 point too far (a unit)",
                body_name(),
                n(alone),
                n(mass / alone),
                n(*mass),
                n((mass * a_rot).sqrt())
            ),
        )
    });
}

/// A point contact: body, other body, point, normal.
type PointContact<'a> = (usize, Option<usize>, &'a Vec<f64>, &'a Vec<f64>);

/// Two contacts on the same pair of bodies at one point with opposite
/// normals: a slot of zero width, analysed as one two-sided spring.
pub(super) fn opposite_normals(case: &Case, model: &Model<f64>, out: &mut Checks) {
    let points: Vec<PointContact> = model
        .contacts
        .iter()
        .filter_map(|c| match &c.geometry {
            Geometry::Point {
                body,
                other,
                point,
                normal,
                ..
            } => Some((*body, *other, point, normal)),
            _ => None,
        })
        .collect();
    if points.len() != model.contacts.len() || points.len() > 2000 {
        return; // scenes of many contacts: left out (quadratic)
    }
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            let (bi, oi, pi, ni) = points[i];
            let (bj, oj, pj, nj) = points[j];
            let same_pair = (bi, oi) == (bj, oj) || (Some(bi), oi) == (oj, Some(bj));
            let scale: f64 = pi.iter().map(|x| x.abs()).sum::<f64>() + 1.0;
            let cos: f64 = ni.iter().zip(nj).map(|(a, b)| a * b).sum();
            if same_pair && dist(pi, pj) <= SAME_POINT * scale && cos < -0.99 {
                out.warn(
                    "opposite_normals",
                    format!(
                        "contacts {} and {}",
                        case.contact_name(i),
                        case.contact_name(j)
                    ),
                    super::contact_at(case, j, super::ContactField::Table),
                    "the two contacts are at one point with opposite normals: a slot of zero \
                     width, which the analysis takes as one spring acting both ways; a real \
                     slot has two faces apart"
                        .into(),
                );
            } else if same_pair && dist(pi, pj) <= SAME_POINT * scale && cos > 0.99 {
                out.warn(
                    "duplicate_contacts",
                    format!(
                        "contacts {} and {}",
                        case.contact_name(i),
                        case.contact_name(j)
                    ),
                    super::contact_at(case, j, super::ContactField::Table),
                    "the two contacts are at one point with the same normal: one contact \
                     typed twice, whose springs add (twice the stiffness there, and a \
                     Delassus matrix of rank one for the pair); a real second contact sits \
                     elsewhere"
                        .into(),
                );
            }
        }
    }
}

/// A `[[person]]`'s body-region values against [`PERSON_BANDS`].
pub(super) fn person(case: &Case, out: &mut Checks) {
    for p in &case.persons {
        let values = [
            Some(&p.mass),
            Some(&p.stiffness),
            p.force_limit.as_ref(),
            p.speed.as_ref(),
        ];
        for (v, (what, unit, lo, hi)) in values.into_iter().zip(PERSON_BANDS) {
            let Some(v) = v else { continue };
            if v.si >= lo && v.si <= hi {
                continue;
            }
            out.warn(
                "person_values",
                format!(
                    "person {} at {}: {what}",
                    p.region,
                    case.contact_name(p.contact)
                ),
                at(case, &v.span),
                format!(
                    "{what} = {} {unit} is outside {}–{} {unit}, several times wider than the \
                     range of ISO/TS 15066 Annex A's body model: check the value and its unit",
                    n(v.si),
                    n(lo),
                    n(hi)
                ),
            );
        }
    }
}

/// An impact whose largest compression is a large part of its body: the
/// analysis holds the pose still during the contact.
pub(super) fn impact_compression(
    case: &Case,
    model: &Model<f64>,
    an: &crate::analysis::Analysis,
    size: &[f64],
    out: &mut Checks,
) {
    for (imp, r) in case.impacts.iter().zip(&an.impacts) {
        let Ok(resp) = &r.response else { continue };
        for (k, &c) in r.contacts.iter().take(r.struck).enumerate() {
            let (Some(cr), Some(Geometry::Point { body, .. })) = (
                resp.contacts.get(k),
                model.contacts.get(c).map(|x| &x.geometry),
            ) else {
                continue;
            };
            let s = size.get(*body).copied().unwrap_or(0.0);
            if s > 0.0 && cr.compression > COMPRESSION_RATIO * s {
                out.warn(
                    "impact_compression",
                    format!("impact {}: speed", imp.name),
                    at(case, &imp.speed.span),
                    format!(
                        "contact {} compresses {} m, {} % of its body's size ({} m): the \
                         analysis holds the pose and J still and the spring linear during the \
                         contact, which a compression this large may no longer allow (J stays \
                         for a strike through a round body's centre; the linear spring does not); \
                         check the speed, the drop and the stiffness",
                        case.contact_name(c),
                        n(cr.compression),
                        n(100.0 * cr.compression / s),
                        n(s)
                    ),
                );
            }
        }
    }
}

/// A contact on a shaped body whose normal pulls the body outward: every
/// shape is convex, so the surface that touches it pushes it inward,
/// `n · (x − p) > 0` (x its centre, p the point; reversed for the other
/// body of a contact between two). A ring on a peg has no shape here.
pub(super) fn normal_out_of_shape(case: &Case, model: &Model<f64>, out: &mut Checks) {
    let (crate::model::Kind::Bodies { bodies, .. }, Form::Bodies { bodies: typed, .. }) =
        (&model.kind, &case.form)
    else {
        return;
    };
    for (ci, c) in model.contacts.iter().enumerate() {
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
        for (b, sign) in [(Some(*body), 1.0), (*other, -1.0)] {
            let Some(b) = b else { continue };
            let Some(shape) = typed.get(b).and_then(|x| x.shape.as_ref()) else {
                continue;
            };
            let to_centre: Vec<f64> = bodies[b]
                .position
                .iter()
                .zip(point.iter())
                .map(|(x, p)| x - p)
                .collect();
            let d = dist(&bodies[b].position, point);
            let along: f64 = sign
                * normal
                    .iter()
                    .zip(&to_centre)
                    .map(|(n, t)| n * t)
                    .sum::<f64>();
            if d <= 1e-9 || along >= -0.1 * d {
                continue;
            }
            out.warn(
                "normal_out_of_shape",
                format!("contact {}: normal", case.contact_name(ci)),
                super::contact_at(case, ci, super::ContactField::Normal),
                format!(
                    "the normal pulls body {} ({}) away from its centre: a {} is convex, so \
                     whatever touches it pushes it inward; the normal's sign is likely flipped \
                     (it points the way the gap opens, from the other side into this body); \
                     right only for a body hanging from or pulled by this contact (a lamp on a \
                     hook)",
                    bodies[b].name, shape.kind, shape.kind
                ),
            );
        }
    }
}

/// The bundled table of body-region values (the one file that holds
/// them; the check names it in its message).
const REGION_TABLE: &str = include_str!("../../cases/regions/iso-ts-15066-annex-a.toml");

/// A person's values more than this factor from the bundled table's for
/// a region of the same name are flagged.
pub const REGION_FACTOR: f64 = 3.0;

/// `"50 N/mm"` in SI (`None` for anything else).
fn table_si(text: &str) -> Option<f64> {
    let (num, unit) = text.trim().split_once(' ')?;
    let u = crate::units::parse_unit(unit, false).ok()?;
    Some(num.parse::<f64>().ok()? * u.scale.to_f64())
}

/// The bundled table's (name, mass, stiffness, force limit, energy
/// limit) rows.
fn region_table() -> Vec<(String, [Option<f64>; 4])> {
    let Ok(doc) = REGION_TABLE.parse::<toml::Table>() else {
        return Vec::new();
    };
    let Some(rows) = doc.get("region").and_then(|r| r.as_array()) else {
        return Vec::new();
    };
    rows.iter()
        .filter_map(|r| {
            let s = |k: &str| r.get(k).and_then(|v| v.as_str()).and_then(table_si);
            Some((
                r.get("name")?.as_str()?.to_lowercase(),
                [
                    s("mass"),
                    s("stiffness"),
                    s("force_limit"),
                    s("energy_limit"),
                ],
            ))
        })
        .collect()
}

/// A `[[person]]` whose region the bundled table names, held against the
/// table's values: a person's 60 kg hand is inside the general bands but
/// 100 times the hand's.
pub(super) fn person_region(case: &Case, out: &mut Checks) {
    if case.persons.is_empty() {
        return;
    }
    let table = region_table();
    for p in &case.persons {
        let Some((name, values)) = table_row(&table, &p.region) else {
            continue;
        };
        let typed = [Some(&p.mass), Some(&p.stiffness), p.force_limit.as_ref()];
        for ((v, t), (what, unit)) in typed.into_iter().zip(values).zip([
            ("mass", "kg"),
            ("stiffness", "N/m"),
            ("force_limit", "N"),
        ]) {
            let (Some(v), Some(t)) = (v, t) else { continue };
            let ratio = v.si / t;
            let input = format!(
                "person {} at {}: {what}",
                p.region,
                case.contact_name(p.contact)
            );
            // The general bands said it already: one warning an input.
            let known = out.warnings.iter().any(|w| w.input == input);
            if known || ratio.is_finite() && (1.0 / REGION_FACTOR..=REGION_FACTOR).contains(&ratio)
            {
                continue;
            }
            out.warn(
                "person_values",
                input,
                at(case, &v.span),
                table_message(what, unit, v.si, *t, name),
            );
        }
    }
}

/// The row of the bundled table a region's name names (itself, or as
/// whole words of a longer name: `left hand` → `hand`).
fn table_row<'t>(
    table: &'t [(String, [Option<f64>; 4])],
    region: &str,
) -> Option<&'t (String, [Option<f64>; 4])> {
    let region = region.to_lowercase();
    let words: Vec<&str> = region
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    table.iter().find(|(name, _)| {
        *name == region
            || words
                .windows(name.split(' ').count())
                .any(|w| w.join(" ") == *name)
    })
}

/// A `[[region]]`'s mass, stiffness and force limit (SI) against the
/// general bands and, for a region the bundled table names, its values.
pub(super) fn region_values(
    region: &str,
    values: &[Option<f64>; 3],
    location: &str,
    out: &mut Checks,
) {
    let table = region_table();
    let row = table_row(&table, region);
    for (k, (what, unit, lo, hi)) in PERSON_BANDS.iter().take(3).enumerate() {
        let Some(v) = values[k] else { continue };
        let input = format!("region {region}: {what}");
        if !(*lo..=*hi).contains(&v) {
            out.warn(
                "person_values",
                input,
                location.to_string(),
                format!(
                    "{what} = {} {unit} is outside {}–{} {unit}, several times wider than the \
                     range of ISO/TS 15066 Annex A's body model: check the value and its unit",
                    n(v),
                    n(*lo),
                    n(*hi)
                ),
            );
            continue;
        }
        let Some((name, t)) = row else { continue };
        let Some(t) = t[k] else { continue };
        let ratio = v / t;
        if (1.0 / REGION_FACTOR..=REGION_FACTOR).contains(&ratio) {
            continue;
        }
        out.warn(
            "person_values",
            input,
            location.to_string(),
            table_message(what, unit, v, t, name),
        );
    }
}

/// The warning of a value `v` far from the bundled table's `t`.
fn table_message(what: &str, unit: &str, v: f64, t: f64, name: &str) -> String {
    format!(
        "{what} = {} {unit} is {}× the {} {unit} that the table of values commonly quoted from \
         ISO/TS 15066 Annex A (cases/regions/iso-ts-15066-annex-a.toml) gives the region \
         `{name}`: check the value, its unit and the region",
        n(v),
        n(v / t),
        n(t)
    )
}

/// A transferred-energy limit outside this band (J) is flagged (Annex A's
/// values span 0.11–2.5 J).
pub const ENERGY_BAND: (f64, f64) = (0.02, 20.0);

/// A contact area outside this band (m²) is flagged: 0.1 mm² to 100 cm²
/// (a sharp edge to a palm).
pub const AREA_BAND: (f64, f64) = (1e-7, 1e-2);

/// Region names Annex A allows no transient contact with.
const NO_TRANSIENT: [&str; 4] = ["face", "skull", "forehead", "head"];

/// A region's energy limit against its band and the bundled table's row,
/// its area against [`AREA_BAND`], and a region Annex A allows no transient
/// contact with (`energy`, `area` in SI).
pub(super) fn region_limits(
    region: &str,
    energy: Option<f64>,
    area: Option<f64>,
    location: &str,
    out: &mut Checks,
) {
    let table = region_table();
    if let Some(e) = energy {
        let input = format!("region {region}: energy_limit");
        let row = table_row(&table, region).and_then(|(name, t)| Some((name, t[3]?)));
        if !(ENERGY_BAND.0..=ENERGY_BAND.1).contains(&e) {
            out.warn(
                "person_values",
                input,
                location.to_string(),
                format!(
                    "energy_limit = {} J is outside {}–{} J, several times wider than the \
                     values of ISO/TS 15066 Annex A (0.11–2.5 J): check the value and its unit \
                     (mJ for J)",
                    n(e),
                    n(ENERGY_BAND.0),
                    n(ENERGY_BAND.1)
                ),
            );
        } else if let Some((name, t)) = row
            && !(1.0 / REGION_FACTOR..=REGION_FACTOR).contains(&(e / t))
        {
            out.warn(
                "person_values",
                input,
                location.to_string(),
                table_message("energy_limit", "J", e, t, name),
            );
        }
    }
    if let Some(a) = area
        && !(AREA_BAND.0..=AREA_BAND.1).contains(&a)
    {
        out.warn(
            "person_values",
            format!("region {region}: area"),
            location.to_string(),
            format!(
                "area = {} m² ({} cm²) is outside 0.1 mm²–100 cm², from a sharp edge to a \
                 palm: the pressure limit would never (or always) govern; check the value and \
                 its unit (cm² for m²)",
                n(a),
                n(a * 1e4)
            ),
        );
    }
    let lower = region.to_lowercase();
    if let Some(word) = lower
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| NO_TRANSIENT.contains(w))
    {
        out.warn(
            "person_values",
            format!("region {region}"),
            location.to_string(),
            format!(
                "a region named `{word}`: ISO/TS 15066 Annex A allows no transient contact with \
                 the skull, forehead or face, so no transient limit (force, energy or speed) \
                 can pass it; the bundled table leaves them out. Keep the robot away from the \
                 head, or justify the values"
            ),
        );
    }
}
