//! Checks of a `[model]` case's program, map and links: a hazard point
//! that never moves (pasted onto the base), a program whose fastest
//! hazard crawls (a time column in ms), velocity columns that disagree
//! with the positions they come with (rad/s beside degrees), a map grid
//! beyond the joints' limits, a link denser than matter (a mass in
//! grams), a region's energy, area or name no person's region has.

use super::{Checks, at, n};
use crate::case::Velocities;
use crate::case::{Case, Form, RobotForm};
use crate::kinematics::JointKind;
use std::f64::consts::PI;

/// The fastest hazard point of a program below this speed (m/s) is
/// flagged: no program a person must be guarded from moves that slowly.
pub const SLOWEST_HAZARD: f64 = 0.01;

/// A program's velocity columns whose rms is outside this multiple of
/// the positions' central differences' are flagged.
pub const VELOCITY_COLUMNS: (f64, f64) = (0.5, 2.0);

/// Samples a program's hazard points are followed at, at most (evenly
/// strided beyond: bounded work on a long program).
const MAX_SAMPLES: usize = 20_000;

/// Everything a `[model]` case's program, map and links can show.
pub(super) fn program(case: &Case, out: &mut Checks) {
    let Form::Robot(r) = &case.form else { return };
    links(case, r, out);
    if let Some(map) = &case.map {
        map_limits(case, r, map, out);
        for (k, g) in map.regions.iter().enumerate() {
            let location = at(case, &super::robot_inputs::nth_table(case, "region", k));
            super::plausible::region_limits(&g.name, g.energy_limit, g.area, &location, out);
        }
    }
    let Some(motion) = &case.motion else { return };
    if case.map.is_none() {
        for (k, g) in motion.regions.iter().enumerate() {
            let location = at(case, &super::robot_inputs::nth_table(case, "region", k));
            super::plausible::region_limits(&g.name, g.energy_limit, g.area, &location, out);
        }
    }
    hazard_speeds(case, r, motion, out);
    velocity_columns(case, r, motion, out);
}

/// Where `[motion]`'s program is named (its `trajectory`, else the table).
pub(super) fn motion_at(case: &Case, motion: &crate::case::Motion) -> String {
    at(
        case,
        &super::laws::key_in_table(case, motion.span.start, "trajectory"),
    )
}

/// Each hazard point's speed over the program, from its positions.
fn hazard_speeds(case: &Case, r: &RobotForm, motion: &crate::case::Motion, out: &mut Checks) {
    let samples = motion.time.len();
    if samples < 2 || motion.hazards.is_empty() || !motion.q.len().is_multiple_of(samples) {
        return;
    }
    let nq = motion.q.len() / samples;
    let stride = samples.div_ceil(MAX_SAMPLES).max(1);
    let rows: Vec<usize> = (0..samples).step_by(stride).chain([samples - 1]).collect();
    let tree = &r.robot.tree;
    let mut path: Vec<Vec<nalgebra::Vector3<f64>>> = vec![Vec::new(); motion.hazards.len()];
    for &i in &rows {
        let kin = tree.kinematics(&motion.q[i * nq..(i + 1) * nq]);
        for (h, p) in motion.hazards.iter().zip(&mut path) {
            let x = kin.xpos[h.body] + kin.xrot[h.body] * nalgebra::Vector3::from(h.point);
            p.push(x);
        }
    }
    let mut fastest: Option<(f64, &str)> = None;
    for (k, (h, p)) in motion.hazards.iter().zip(&path).enumerate() {
        let moved = p.iter().map(|x| (x - p[0]).norm()).fold(0.0f64, f64::max);
        if moved <= 1e-9 {
            out.warn(
                "hazard_speed",
                format!("hazard {}: body", h.name),
                at(case, &super::robot_inputs::nth_table(case, "hazard", k)),
                format!(
                    "the point does not move during the program (its speed is 0 at every \
                     sample): on link {} nothing can strike, and the verdict \"within\" says \
                     nothing; check the link the point is on",
                    tree.bodies[h.body].name
                ),
            );
            continue;
        }
        let speed = rows
            .windows(2)
            .zip(p.windows(2))
            .map(|(i, x)| (x[1] - x[0]).norm() / (motion.time[i[1]] - motion.time[i[0]]))
            .filter(|v| v.is_finite())
            .fold(0.0f64, f64::max);
        if fastest.is_none_or(|(v, _)| speed > v) {
            fastest = Some((speed, &h.name));
        }
    }
    if let Some((v, name)) = fastest
        && v < SLOWEST_HAZARD
    {
        out.warn(
            "hazard_speed",
            "motion: time".into(),
            motion_at(case, motion),
            format!(
                "the fastest hazard point ({name}) moves at most {} m/s over a program of {} s, \
                 below {} m/s: no program a person must be guarded from is that slow; check the \
                 time column's unit (ms read as s)",
                n(v),
                n(motion.time[samples - 1] - motion.time[0]),
                SLOWEST_HAZARD
            ),
        );
    }
}

/// A program's `.v` columns against the central differences of its
/// positions: rad/s beside degrees, or a column of another joint.
fn velocity_columns(case: &Case, r: &RobotForm, motion: &crate::case::Motion, out: &mut Checks) {
    let samples = motion.time.len();
    if motion.velocities != Velocities::Columns
        || samples < 3
        || !motion.q.len().is_multiple_of(samples)
        || !motion.qd.len().is_multiple_of(samples)
    {
        return;
    }
    let (nq, nv) = (motion.q.len() / samples, motion.qd.len() / samples);
    let tree = &r.robot.tree;
    for &j in &motion.joints {
        let joint = &tree.joints[j];
        if joint.qpos_adr >= nq || joint.dof_adr >= nv {
            continue;
        }
        let x: Vec<f64> = (0..samples)
            .map(|i| motion.q[i * nq + joint.qpos_adr])
            .collect();
        let v: Vec<f64> = (0..samples)
            .map(|i| motion.qd[i * nv + joint.dof_adr])
            .collect();
        let d = crate::case::central_difference(&motion.time, &x);
        let rms = |s: &[f64]| (s.iter().map(|x| x * x).sum::<f64>() / s.len() as f64).sqrt();
        let (rv, rd) = (rms(&v), rms(&d));
        // A joint that hardly moves says nothing of its column's unit.
        if rd <= 1e-6 {
            continue;
        }
        let ratio = rv / rd;
        if (VELOCITY_COLUMNS.0..=VELOCITY_COLUMNS.1).contains(&ratio) {
            continue;
        }
        let unit = if (ratio * 180.0 / PI - 1.0).abs() < 0.05 {
            " (π/180: the column in rad/s beside positions in degrees)"
        } else if (ratio * PI / 180.0 - 1.0).abs() < 0.05 {
            " (180/π: the column in deg/s read as rad/s)"
        } else {
            ""
        };
        let per = if joint.kind == JointKind::Slide {
            "m/s"
        } else {
            "rad/s"
        };
        out.warn(
            "velocity_columns",
            format!("motion: {}.v", joint.name),
            motion_at(case, motion),
            format!(
                "the column {}.v has rms {} {per}, {}× the rms {} {per} of the positions' \
                 central differences{unit}: the speeds the check uses come from this column; \
                 check its unit and that it is this joint's",
                joint.name,
                n(rv),
                n(ratio),
                n(rd)
            ),
        );
        return;
    }
}

/// The map grid's ends against the joints' ranges.
fn map_limits(case: &Case, r: &RobotForm, map: &crate::case::WorkspaceMap, out: &mut Checks) {
    let tree = &r.robot.tree;
    for (axis, &j) in map.axes.iter().zip(&map.joints) {
        let Some([lo, hi]) = tree.ranges.get(j).copied().flatten() else {
            continue;
        };
        let joint = &tree.joints[j];
        let unit = if joint.kind == JointKind::Slide {
            "m"
        } else {
            "rad"
        };
        for (key, v) in [("from", axis.first()), ("to", axis.last())] {
            let Some(&v) = v else { continue };
            if v >= lo - 1e-9 * (1.0 + lo.abs()) && v <= hi + 1e-9 * (1.0 + hi.abs()) {
                continue;
            }
            let outside = axis.iter().filter(|x| **x < lo || **x > hi).count();
            out.warn(
                "configuration_beyond_limits",
                format!("map: {} {key}", joint.name),
                at(case, &super::laws::key_in_table(case, map.span.start, key)),
                format!(
                    "the grid's {key} value of joint {} is {} {unit}, outside the model's range \
                     [{}, {}] {unit}: {outside} of its {} grid values are poses the arm cannot \
                     reach; check the values and their unit",
                    joint.name,
                    n(v),
                    n(lo),
                    n(hi),
                    axis.len()
                ),
            );
        }
    }
}

/// A model link's density as the uniform sphere of its radius of gyration
/// (from above: a wrist link is honestly light as a sphere), and as the
/// uniform box of its principal moments (from below,
/// [`LINK_BOX_DENSITY_MIN`](super::plausible::LINK_BOX_DENSITY_MIN): moments
/// too large for the link's mass, as a radius typed 10× gives).
fn links(case: &Case, r: &RobotForm, out: &mut Checks) {
    let tree = &r.robot.tree;
    let payload = |b: usize| r.payloads.iter().any(|p| p.body == b);
    let band = super::EQUIVALENT_DENSITY;
    let file = std::path::Path::new(&r.file)
        .file_name()
        .map_or_else(|| r.file.clone(), |f| f.to_string_lossy().into_owned());
    for (b, body) in tree.bodies.iter().enumerate() {
        if body.mass <= 0.0 || payload(b) {
            continue;
        }
        let Some(e) = crate::linalg::eig::symmetric(body.inertia) else {
            continue;
        };
        let moments: Vec<f64> = e.eigenvalues.iter().copied().collect();
        let rg = (moments.iter().sum::<f64>() / (2.0 * body.mass)).sqrt();
        let rs = (5.0f64 / 3.0).sqrt() * rg;
        let rho = body.mass / (4.0 / 3.0 * PI * rs.powi(3));
        let what = format!("link {}: mass and inertia", body.name);
        if rho.is_finite() && rho > band.1 {
            out.warn(
                "implausible_density",
                what,
                at(case, &r.span),
                format!(
                    "link {} of {} has {} kg with a radius of gyration of {} m: {} kg/m³ as the \
                     uniform sphere of that radius, above {} kg/m³; check its mass's unit (g \
                     for kg) and its inertia in the model file",
                    body.name,
                    file,
                    n(body.mass),
                    n(rg),
                    n(rho),
                    n(band.1)
                ),
            );
            continue;
        }
        let min = super::plausible::LINK_BOX_DENSITY_MIN;
        if let Some(sides) = super::plausible::equivalent_box(body.mass, &moments)
            && let v = sides.iter().product::<f64>()
            && body.mass / v < min
        {
            let mut sides = sides;
            sides.sort_by(|a, b| b.total_cmp(a));
            out.warn(
                "implausible_density",
                what,
                at(case, &r.span),
                format!(
                    "link {} of {} has {} kg with principal moments {} kg·m²: those of a \
                     uniform box {} × {} × {} m of {} kg/m³, below {} kg/m³: no link of that \
                     mass is that large. Check the inertia in the model file (a radius or \
                     length typed 10×, kg·mm² or g·cm² read as kg·m², an inertia about the \
                     joint instead of the centre of mass)",
                    body.name,
                    file,
                    n(body.mass),
                    moments.iter().map(|m| n(*m)).collect::<Vec<_>>().join(", "),
                    n(sides[0]),
                    n(sides[1]),
                    n(sides[2]),
                    n(body.mass / v),
                    n(min)
                ),
            );
        }
    }
}
