//! Model checks: the case's inputs held against what a body of that size
//! can be, and against the geometry they describe. A sheet can be right
//! in every digit about the wrong model (a normal in the wrong frame, an
//! inertia no body inside its contacts can have); these checks do not
//! change a number, they warn, and the signer decides.
//!
//! Each check is one function below, named by the rule it applies; every
//! warning names the input and where it is written (`file:line:col`).
//! Also here: every contact's world point and normal (the world-frame
//! echo the definition prints beside the values as typed) and, for a
//! model contact against the world, the angle to each plane of the model.

pub mod description;
mod dynamics;
mod each;
mod location;
pub(crate) use location::at;
use location::{ContactField, contact_at, scene_row};
mod claimed;
pub mod known;
mod laws;
mod link_extent;
mod material;
mod normals;
mod plausible;
mod program;
mod program_inputs;
mod ranges;
mod robot_inputs;
mod rules;
mod scene_model;
// checks7a
mod hertz_inputs;
mod scene_support;
mod scene_view;
mod world_contacts;
pub use hertz_inputs::{LOAD_WEIGHT_RATIO, WAVE_SPEED};
pub use laws::SOLIMP_WIDTH_MAX;
pub use scene_support::SPEED_FACTOR;
// checks7c
mod dump_tolerance;
mod face_normal;
mod hertz_bodies;
mod payload;
mod preload;

pub use claimed::{CLAIM_REL_TOL_MAX, RANGE_SPAN_MIN};
pub use link_extent::{LINK_EXTENT_MARGIN, LINK_EXTENT_MIN, LinkExcess, link_excess};
pub use material::MATERIAL_BAND;
pub use ranges::HINGE_RANGE;
pub use rules::{RULE_RATIO, RULES, rule_words};
pub use scene_model::{DUMP_DENSITY_FLOOR, FREE_FRACTION, SUPPORT_RATIO};

mod run;
pub use dynamics::{
    DAMPING_RATIO_MAX, ENGINE_FREQUENCY_STEPS, ENGINE_STEP, FASTEST_WAVE, GENERALIZED_MASS_RATIO,
};
pub use normals::{AWAY_COS, CUT_RATIO, PARTICLE_REACH, PLANE_GAP_RATIO};
pub use plausible::{
    COMPRESSION_RATIO, DENSITY, EQUIVALENT_DENSITY, EQUIVALENT_DENSITY_PLANAR, LEVER_MASS_RATIO,
    PERSON_BANDS,
};
mod scene;
pub use run::run;
pub use run::{scene_after, scene_before};

use crate::case::{Case, ContactGeometry, Form, InertiaVal, Side, Val};
use crate::model::{BodyKind, Geometry, Inertia, Kind, Model};
use crate::number::{pretty, sig};
use nalgebra::{Matrix3, Vector3};
use serde::Serialize;
use std::ops::Range;

/// The most warnings listed (a scene of 10⁶ bodies with one fault
/// repeated gives the first ones and the count).
pub const MAX_WARNINGS: usize = 50;

/// A radius of gyration below this fraction of the farthest contact's
/// distance is flagged (a slender rod touched at its end has 0.58).
pub const FAR_CONTACT_RATIO: f64 = 0.05;

/// The radius of gyration is flagged above this multiple of the farthest
/// contact's distance (a thin ring touched on its rim has exactly 1).
pub const GYRATION_MARGIN: f64 = 1.05;

/// A model contact's normal more than this from the nearest plane's
/// normal (degrees) is flagged.
pub const PLANE_ANGLE_DEG: f64 = 10.0;

/// One warning.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelCheck {
    /// Which rule: `inertia_triangle`, `gyration_beyond_contacts`,
    /// `contacts_far_from_mass`, `implausible_density`,
    /// `lever_beyond_gyration`, `normal_out_of_shape`, `opposite_normals`, `person_values`,
    /// `impact_compression`, `contact_outside_shape`,
    /// `normal_against_plane`, `body_frame_normal`, `rule_of_thumb_ratio`,
    /// `normal_away_from_centre`, `normal_not_surface`, `particle_point_far`,
    /// `point_off_plane`, `point_far_from_link`, `stiffness_for_size`,
    /// `damping_ratio`, `engine_time_scales`, `mass_out_of_proportion`,
    /// `angle_unit`, `configuration_beyond_limits`, `joint_beyond_range`,
    /// `joint_far_from_body`, `tangential_ratio`, `hertz_geometry`,
    /// `gravity_value`, `hazard_speed`, `velocity_columns`,
    /// `duplicate_contacts`, `free_bodies`, `overlap_force`, `dump_units`,
    /// `range_unit`, `contact_on_other_body`, `hertz_load`, `wave_speed`,
    /// `solimp_width`, `duplicate_bodies`, `scene_unsupported`,
    /// `dump_snapshot`,
    /// `range_unit`, `claim_tolerance`, `tolerance_span`,
    /// `program_angle_unit`, `program_start`, `sample_counter`,
    /// `link_gyration_beyond_extent`, `material_density`,
    /// `description_contradicts_result` (the list: [`RULES`]).
    pub rule: &'static str,
    /// The input it is about (`body block: inertia`, `contact tip: normal`).
    pub input: String,
    /// Where that input is written: `file:line:col`.
    pub location: String,
    /// What was found, with its numbers.
    pub message: String,
}

/// A contact's point and normal in world coordinates, and (model
/// contacts against the world) its normal's angle to each plane.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WorldContact {
    /// Point (m).
    pub point: Vec<f64>,
    /// Unit normal.
    pub normal: Vec<f64>,
    /// `(plane, angle in degrees)` between the normal and each plane's.
    pub planes: Vec<(String, f64)>,
}

/// The checks' results.
#[derive(Clone, Debug, Default)]
pub struct Checks {
    /// Per contact in case order (`None`: a generalized contact, or a
    /// scene's, which has no table to echo).
    pub world: Vec<Option<WorldContact>>,
    /// Warnings, at most [`MAX_WARNINGS`].
    pub warnings: Vec<ModelCheck>,
    /// Warnings found, listed or not.
    pub found: usize,
    /// Count the warnings without forming their texts (the first pass of
    /// a rule run on every core, `scene::each_in_parallel`).
    counting: bool,
}

impl Checks {
    fn warn(&mut self, rule: &'static str, input: String, location: String, message: String) {
        self.warn_with(rule, || (input, location, message));
    }

    /// [`Checks::warn`] with its input, location and message formed by
    /// `texts` only when the warning is listed (the first
    /// [`MAX_WARNINGS`]): a rule run over 10⁶ bodies formats no name for a
    /// body it does not list.
    fn warn_with(&mut self, rule: &'static str, texts: impl FnOnce() -> (String, String, String)) {
        self.found += 1;
        if !self.counting && self.warnings.len() < MAX_WARNINGS {
            let (input, location, message) = texts();
            self.warnings.push(ModelCheck {
                rule,
                input,
                location,
                message,
            });
        }
    }

    /// Checks that count warnings without forming them.
    fn counting() -> Checks {
        Checks {
            counting: true,
            ..Checks::default()
        }
    }

    /// No more warnings will be listed: later ones are only counted.
    fn full(&self) -> bool {
        self.counting || self.warnings.len() >= MAX_WARNINGS
    }
}

/// A body's name and where it is written (`file:line:col`, or the scene
/// file's row), formed only when a warning is listed.
type Who<'a> = &'a dyn Fn() -> (String, String);

fn n(x: f64) -> String {
    pretty(&sig(x, crate::number::DEFAULT_DIGITS))
}

/// A number with its SI unit (none when dimensionless): every number a
/// message prints carries its unit.
fn with_unit(x: f64, dim: crate::units::Dim) -> String {
    if dim == crate::units::Dim::NONE {
        n(x)
    } else {
        format!("{} {dim}", n(x))
    }
}

/// Entries below 10⁻¹² of a vector's largest are round-off of a zero (a
/// turned normal's 6·10⁻¹⁷): printed and kept as 0.
fn chop(v: Vec<f64>) -> Vec<f64> {
    let top = v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    v.into_iter()
        .map(|x| if x.abs() < 1e-12 * top { 0.0 } else { x })
        .collect()
}

/// Every contact's world point and normal, and the rules on a `[model]`
/// case's contacts (planes, body-frame normals, the rule of thumb).
fn world_and_model_contacts(
    case: &Case,
    model: &Model<f64>,
    m_eff: &[Option<f64>],
    out: &mut Checks,
) {
    match &case.form {
        Form::Robot(r) => robot_contacts(case, r, m_eff, out),
        _ => {
            out.world = model
                .contacts
                .iter()
                .map(|c| match &c.geometry {
                    Geometry::Point { point, normal, .. } if case.scene.is_none() => {
                        Some(WorldContact {
                            point: point.clone(),
                            normal: normal.clone(),
                            planes: Vec::new(),
                        })
                    }
                    _ => None,
                })
                .collect();
        }
    }
}

/// The rules on each body's inertia: the triangle inequality, the
/// contacts against the radius of gyration or the shape.
fn body_rules(case: &Case, model: &Model<f64>, out: &mut Checks) {
    if let Kind::Bodies { bodies, .. } = &model.kind {
        body_checks(case, model, bodies, out);
    }
}

/// Principal moments of a body's inertia (one value in the plane).
fn principal(inertia: &Inertia<f64>) -> Vec<f64> {
    let (m, len) = principal_moments(inertia);
    m[..len].to_vec()
}

/// [`principal`] without an allocation: the moments in the first `len`
/// entries (3, or 1 in the plane).
fn principal_moments(inertia: &Inertia<f64>) -> ([f64; 3], usize) {
    match inertia {
        Inertia::Scalar(i) => ([*i, 0.0, 0.0], 1),
        Inertia::Diagonal(d) => (*d, 3),
        Inertia::Full(t) => {
            let m = Matrix3::from_fn(|i, j| t[i][j]);
            // Bounded (analysis::eig); NaN if it cannot be had.
            let e = crate::linalg::eig::symmetric(m).map_or([f64::NAN; 3], |e| {
                [e.eigenvalues[0], e.eigenvalues[1], e.eigenvalues[2]]
            });
            (e, 3)
        }
    }
}

/// Where a body's inertia is written, and its name.
fn body_input(case: &Case, b: usize) -> Option<(String, String, Option<Range<usize>>)> {
    let Form::Bodies { bodies, .. } = &case.form else {
        return None;
    };
    let body = bodies.get(b)?;
    let span = match &body.kind {
        crate::case::BodyKind::Rigid { inertia, .. } => Some(match inertia {
            InertiaVal::Scalar(v) => v.span.clone(),
            InertiaVal::Diagonal(v) => v[0].span.clone(),
            InertiaVal::Full(v) => v[0][0].span.clone(),
        }),
        _ => None,
    };
    Some((
        body.name.clone(),
        at(case, span.as_ref().unwrap_or(&body.span)),
        span,
    ))
}

/// The input rules (inertia, density, levers and, with `springs`, the
/// springs and dashpots against that point's m_eff) with some parameters
/// set to other values: a sweep's end, a tolerance box's corner.
fn input_rules_at(case: &Case, overrides: &[(usize, f64)], springs: bool) -> Option<Checks> {
    let env = crate::case::Env::with_overrides(case, overrides).ok()?;
    let (model, laws) = crate::model::build_at(case, &env)?;
    let mut here = Checks::default();
    if let Kind::Bodies { bodies, .. } = &model.kind {
        body_checks(case, &model, bodies, &mut here);
    }
    plausible::density(case, &model, &mut here);
    plausible::lever(case, &model, &mut here);
    // The springs and dashpots need that point's m_eff: an analysis of
    // it (small cases; from the allowance).
    if springs
        && model.contacts.len() <= 2000
        && let Ok(an) = crate::analysis::analyze_for(case, &model, &laws, &[])
    {
        let m_eff: Vec<Option<f64>> = an.contacts.iter().map(|r| r.m_eff).collect();
        dynamics::springs(case, &model, &m_eff, &body_sizes(case, &model), &mut here);
    }
    Some(here)
}

/// Adds the warnings found at another point that the case itself does
/// not already have, located at `location` with `what` before each.
fn add_new(out: &mut Checks, here: Checks, location: &str, what: &str) {
    for w in here.warnings {
        let known = out
            .warnings
            .iter()
            .any(|k| k.rule == w.rule && k.input == w.input);
        if !known {
            out.warn(
                w.rule,
                w.input,
                location.to_string(),
                format!("{what}: {}", w.message),
            );
        }
    }
}

/// The input rules at each sweep's two ends: a sweep can carry a
/// plausible case into values no body has (a lever from 0 to 50 m, a mass
/// from 1 g to 10 t). A warning there is located at the sweep's end value
/// and says which end; one the case itself already has is not repeated.
fn sweep_ends(case: &Case, out: &mut Checks) {
    for sweep in &case.sweeps {
        let name = &case.parameters[sweep.parameter].name;
        for (end, val) in [("start", &sweep.from), ("end", &sweep.to)] {
            let Some(here) = input_rules_at(case, &[(sweep.parameter, val.si)], true) else {
                continue;
            };
            let what = format!("at the sweep's {end}, {name} = {}", val.text.trim());
            add_new(out, here, &at(case, &val.span), &what);
        }
    }
}

/// Toleranced parameters up to this many are checked at every corner of
/// their box; beyond, each at its two ends with the others nominal.
const TOLERANCE_CORNERS: usize = 6;

/// The input rules at each toleranced parameter's two ends and at the
/// tolerance box's corners: `r = "0.08 m ± 5 cm"` (±5 mm meant) puts a
/// pad off its body. A warning is located at the tolerance of the
/// parameter at an end (the first one, at a corner), and says which
/// point; one the case itself already has is not repeated.
fn tolerance_corners(case: &Case, out: &mut Checks) {
    let tol: Vec<(usize, &crate::case::Tolerance)> = case
        .parameters
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((i, p.tolerance.as_ref()?)))
        .collect();
    if tol.is_empty() {
        return;
    }
    // Each parameter at its two ends first (a warning found there is
    // located at that parameter's tolerance), then the box's corners.
    let mut corners: Vec<Vec<(usize, f64)>> = tol
        .iter()
        .flat_map(|(i, t)| [vec![(*i, t.lo)], vec![(*i, t.hi)]])
        .collect();
    if tol.len() <= TOLERANCE_CORNERS && tol.len() > 1 {
        corners.extend((0..1usize << tol.len()).map(|bits| {
            tol.iter()
                .enumerate()
                .map(|(k, (i, t))| (*i, if bits >> k & 1 == 1 { t.hi } else { t.lo }))
                .collect()
        }));
    }
    for corner in corners {
        let Some(here) = input_rules_at(case, &corner, false) else {
            continue;
        };
        let words: Vec<String> = corner
            .iter()
            .map(|(i, v)| {
                let p = &case.parameters[*i];
                format!("{} = {}", p.name, with_unit(*v, p.value.dim))
            })
            .collect();
        let first = tol.iter().find(|(i, _)| *i == corner[0].0).map(|(_, t)| t);
        let location = at(case, &first.map_or(0..0, |t| t.span.clone()));
        add_new(
            out,
            here,
            &location,
            &format!("at the tolerance corner {}", words.join(", ")),
        );
    }
}

/// A body's name and where its inertia (else its table) is written; a
/// scene's body by its number.
fn body_name_and_location(case: &Case, b: usize, name: &str) -> (String, String) {
    match body_input(case, b) {
        Some((name, loc, _)) => (name, loc),
        None => (name.to_string(), scene_row(case, "bodies", b)),
    }
}

/// Each body's size: the farthest of its contacts from its centre, its
/// shape's reach and its radius of gyration, whichever is largest (0 for
/// a body nothing describes).
fn body_sizes(case: &Case, model: &Model<f64>) -> Vec<f64> {
    let Kind::Bodies { bodies, .. } = &model.kind else {
        return Vec::new();
    };
    let mut size: Vec<f64> = bodies
        .iter()
        .enumerate()
        .map(|(b, body)| {
            let reach = match &case.form {
                Form::Bodies { bodies, .. } => bodies
                    .get(b)
                    .and_then(|x| x.shape.as_ref())
                    .and_then(|s| s.kind.circumradius(&s.size)),
                _ => None,
            };
            let gyration = match &body.kind {
                BodyKind::Rigid { mass, inertia } => radius_of_gyration(*mass, &principal(inertia)),
                _ => 0.0,
            };
            reach
                .unwrap_or(0.0)
                .max(if gyration.is_finite() { gyration } else { 0.0 })
        })
        .collect();
    for c in &model.contacts {
        if let Geometry::Point {
            body,
            other,
            point,
            image,
            ..
        } = &c.geometry
        {
            let sides = crate::model::side_points(point, image);
            for (b, point) in [Some(*body), *other].into_iter().flatten().zip(&sides) {
                size[b] = size[b].max(dist(point, &bodies[b].position));
            }
        }
    }
    size
}

fn body_checks(
    case: &Case,
    model: &Model<f64>,
    bodies: &[crate::model::Body<f64>],
    out: &mut Checks,
) {
    // The farthest contact point from each body's centre of mass.
    let mut far = vec![0.0f64; bodies.len()];
    let mut far_contact = vec![usize::MAX; bodies.len()];
    let mut count = vec![0usize; bodies.len()];
    for (ci, c) in model.contacts.iter().enumerate() {
        let Geometry::Point {
            body,
            other,
            point,
            image,
            ..
        } = &c.geometry
        else {
            continue;
        };
        let sides = crate::model::side_points(point, image);
        for (b, point) in [Some(*body), *other].into_iter().flatten().zip(&sides) {
            count[b] += 1;
            let d = dist(point, &bodies[b].position);
            if d > far[b] {
                far[b] = d;
                far_contact[b] = ci;
            }
        }
    }
    for (b, body) in bodies.iter().enumerate() {
        let BodyKind::Rigid { mass, inertia } = &body.kind else {
            continue;
        };
        let who = || body_name_and_location(case, b, &body.name);
        let moments = principal(inertia);
        if moments.len() == 3 {
            triangle(&who, &moments, out);
        }
        let rho = radius_of_gyration(*mass, &moments);
        let shape = match &case.form {
            Form::Bodies { bodies, .. } => bodies.get(b).and_then(|x| x.shape.as_ref()),
            _ => None,
        };
        if let Some(s) = shape {
            outside_shape(case, model, b, &who().0, s, bodies, out);
        } else if far_contact[b] != usize::MAX && rho.is_finite() {
            // One contact says nothing of the body's size (a plate on a
            // central pad, a ring on a peg): the rule needs two.
            gyration(
                case,
                moments.len() == 1,
                &who,
                rho,
                (far[b], far_contact[b]),
                count[b] >= 2,
                out,
            );
        }
    }
}

/// The rms distance of the mass from the centre of mass: `√(ΣI/2m)` from
/// three principal moments, `√(I/m)` from one.
fn radius_of_gyration(mass: f64, moments: &[f64]) -> f64 {
    if moments.len() == 3 {
        (moments.iter().sum::<f64>() / (2.0 * mass)).sqrt()
    } else {
        (moments[0] / mass).sqrt()
    }
}

fn dist(p: &[f64], q: &[f64]) -> f64 {
    p.iter()
        .zip(q)
        .map(|(a, b)| (a - b) * (a - b))
        .sum::<f64>()
        .sqrt()
}

/// Every real body has `I₁ + I₂ ≥ I₃` for its principal moments (`m`:
/// three).
fn triangle(who: Who<'_>, m: &[f64], out: &mut Checks) {
    let mut s = [m[0], m[1], m[2]];
    s.sort_by(f64::total_cmp);
    if s[0] + s[1] < s[2] * (1.0 - 1e-9) {
        out.warn_with("inertia_triangle", || {
            let (name, location) = who();
            (
                format!("body {name}: inertia"),
                location,
                format!(
                    "principal moments {}, {}, {} kg m² break the triangle inequality: \
                     I₁ + I₂ = {} < I₃ = {}, which no distribution of mass can give \
                     (check the values and the axes they are given in)",
                    n(s[0]),
                    n(s[1]),
                    n(s[2]),
                    n(s[0] + s[1]),
                    n(s[2])
                ),
            )
        });
    }
}

/// The radius of gyration against the contacts' distances: `far` is the
/// farthest contact's distance and its number.
fn gyration(
    case: &Case,
    planar: bool,
    who: Who<'_>,
    rho: f64,
    far: (f64, usize),
    spread: bool,
    out: &mut Checks,
) {
    let (far, contact) = far;
    let formula = if planar { "√(I/m)" } else { "√(ΣI/2m)" };
    // 5 % over: a thin ring's radius of gyration is its radius, and
    // rounding in the inputs must not make it a warning.
    if spread && rho > far * GYRATION_MARGIN {
        out.warn_with("gyration_beyond_contacts", || {
            let (name, location) = who();
            let cname = case.contact_name(contact);
            (
                format!("body {name}: inertia"),
                location,
                format!(
                    "the radius of gyration {formula} = {} m (the rms distance of the mass from \
                     the centre of mass) is larger than the distance {} m to the farthest \
                     contact ({cname}): the mass would lie, on average, beyond every contact \
                     point. Right for a body that reaches well beyond its contacts; otherwise \
                     the inertia is too large (a unit, or taken about another point)",
                    n(rho),
                    n(far)
                ),
            )
        });
    } else if rho < FAR_CONTACT_RATIO * far {
        out.warn_with("contacts_far_from_mass", || {
            let (name, location) = who();
            let cname = case.contact_name(contact);
            (
                format!("body {name}: inertia"),
                location,
                format!(
                    "the radius of gyration {} m is below {} of the distance {} m to contact \
                     {cname}: the mass sits at the centre of a body that reaches far; \
                     check the inertia and the contact point",
                    n(rho),
                    FAR_CONTACT_RATIO,
                    n(far)
                ),
            )
        });
    }
}

/// A contact point farther from a shaped body's centre than any point
/// of the shape.
fn outside_shape(
    case: &Case,
    model: &Model<f64>,
    b: usize,
    name: &str,
    s: &crate::case::pose::ShapeGeom,
    bodies: &[crate::model::Body<f64>],
    out: &mut Checks,
) {
    let Some(r) = s.kind.circumradius(&s.size) else {
        return;
    };
    for (ci, c) in model.contacts.iter().enumerate() {
        let Geometry::Point {
            body, other, point, ..
        } = &c.geometry
        else {
            continue;
        };
        if *body != b && *other != Some(b) {
            continue;
        }
        let d = dist(point, &bodies[b].position);
        if d > r * (1.0 + 1e-6) {
            let span = match &case.contacts[ci].geometry {
                ContactGeometry::Point { point, .. } => point[0].span.clone(),
                _ => case.contacts[ci].span.clone(),
            };
            out.warn(
                "contact_outside_shape",
                format!("contact {}: point", case.contact_name(ci)),
                at(case, &span),
                format!(
                    "the point is {} m from the centre of body {name}, whose {} reaches at \
                     most {} m from it: the contact is not on the body it acts on",
                    n(d),
                    s.kind,
                    n(r)
                ),
            );
        }
    }
}

/// World points and normals of a `[model]` case's contacts, the planes'
/// angles, and the checks that need them.
fn robot_contacts(
    case: &Case,
    r: &crate::case::RobotForm,
    m_eff: &[Option<f64>],
    out: &mut Checks,
) {
    let Ok(sys) = crate::model::robot::robot_system(
        case,
        r,
        &mut |v: &Val| Ok::<f64, std::convert::Infallible>(v.si),
        r.armature,
    );
    let tree = &r.robot.tree;
    let kin = tree.kinematics(&sys.q);
    // The sheet's one rule of thumb, m_mov/2 + m_L.
    let (moving, payload) = crate::analysis::robot::rule_masses(r);
    for (i, c) in case.contacts.iter().enumerate() {
        let (p, nrm) = sys.points[i];
        // World coordinates (the system's points are about its origin).
        let p = sys.origin + p;
        let nrm = {
            let c = chop(nrm.iter().copied().collect());
            Vector3::new(c[0], c[1], c[2])
        };
        let ContactGeometry::Link {
            body,
            other,
            normal_world,
            normal,
            ..
        } = &c.geometry
        else {
            out.world.push(None);
            continue;
        };
        let against_world = other.is_none();
        let angle = |a: &Vector3<f64>| nrm.angle(a).to_degrees();
        let planes: Vec<(String, f64)> = if against_world {
            r.robot
                .planes
                .iter()
                .map(|pl| (pl.name.clone(), angle(&pl.normal)))
                .collect()
        } else {
            Vec::new()
        };
        let input = format!("contact {}: normal", c.name);
        let location = at(case, &normal[0].span);
        // The plane the point is nearest.
        let nearest = r
            .robot
            .planes
            .iter()
            .filter(|_| against_world)
            .min_by(|a, b| {
                let d = |pl: &crate::robot::Plane| (p - pl.point).dot(&pl.normal).abs();
                d(a).total_cmp(&d(b))
            });
        if let Some(pl) = nearest
            && angle(&pl.normal) > PLANE_ANGLE_DEG
        {
            out.warn(
                "normal_against_plane",
                input.clone(),
                location.clone(),
                format!(
                    "the normal points along world ({}, {}, {}) at this configuration, {}° from \
                     the normal of the model's plane `{}` ({}, {}, {}) nearest the point: \
                     this contact is not the one with that plane{}",
                    n(nrm.x),
                    n(nrm.y),
                    n(nrm.z),
                    pretty(&sig(angle(&pl.normal), 3)),
                    pl.name,
                    n(pl.normal.x),
                    n(pl.normal.y),
                    n(pl.normal.z),
                    if *normal_world {
                        ""
                    } else {
                        " (the normal is typed in the body's axes: `frame = \"body\"`; \
                         a floor's normal is usually typed in world axes)"
                    }
                ),
            );
        } else if nearest.is_none() && !*normal_world && against_world {
            // No plane to compare with: the same numbers read as world axes.
            let typed = Vector3::new(normal[0].si, normal[1].si, normal[2].si);
            if let Some(msg) = normals::body_frame_landing(&nrm, &typed, 3) {
                out.warn("body_frame_normal", input.clone(), location.clone(), msg);
            }
        }
        let link = match body {
            Side::Model(b) => Some(*b),
            Side::Case(_) => None,
        };
        normals::model_contact(case, i, &r.robot, &kin, link, against_world, p, nrm, out);
        if matches!(body, Side::Model(_)) && moving > 0.0 {
            let rule = 0.5 * moving + payload;
            if let Some(Some(m)) = m_eff.get(i)
                && (*m < RULE_RATIO.0 * rule || *m > RULE_RATIO.1 * rule)
            {
                let advice =
                    robot_inputs::armature_advice(case, m_eff, i, rule).unwrap_or_else(|| {
                        "check the point, the normal and the configuration (near a singular \
                         pose m_eff grows without bound)"
                            .to_string()
                    });
                out.warn(
                    "rule_of_thumb_ratio",
                    format!("contact {}", c.name),
                    at(case, &c.span),
                    format!(
                        "m_eff = {} kg is {}× the rule of thumb (m_mov/2 + m_L, {} kg): \
                         {advice}",
                        n(*m),
                        n(m / rule),
                        n(rule)
                    ),
                );
            }
        }
        out.world.push(Some(WorldContact {
            point: p.iter().copied().collect(),
            normal: nrm.iter().copied().collect(),
            planes,
        }));
    }
}
