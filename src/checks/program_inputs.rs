//! Checks of a `[model]` case's program file as read: radians typed under
//! `angle_unit = "deg"` (and degrees under radians), two joint columns
//! exchanged (the first sample is the case's configuration with two
//! values swapped), and a time column that is a sample counter.

use super::{Checks, at, n};
use crate::case::{Case, Form, Motion, Program, RobotForm};
use crate::kinematics::JointKind;
use std::f64::consts::PI;

/// Fewest samples a time column must have to be read as a counter.
const COUNTER_SAMPLES: usize = 10;

/// Joint values closer than this (rad or m) are the same.
const SAME_VALUE: f64 = 1e-3;

/// Everything a program file's columns can show.
pub(super) fn program_file(case: &Case, out: &mut Checks) {
    let (Form::Robot(r), Some(motion)) = (&case.form, &case.motion) else {
        return;
    };
    if !matches!(motion.program, Program::Trajectory(_)) {
        return;
    }
    let samples = motion.time.len();
    if samples == 0 || !motion.q.len().is_multiple_of(samples) {
        return;
    }
    angle_unit(case, r, motion, out);
    swapped_columns(case, r, motion, out);
    sample_counter(case, motion, out);
}

/// The `[motion]` table's `angle_unit` as typed (`"rad"` when absent).
fn typed_angle_unit(case: &Case) -> Option<String> {
    let table = case.source.parse::<toml::Table>().ok()?;
    let motion = table.get("motion")?.as_table()?;
    Some(match motion.get("angle_unit") {
        Some(v) => v.as_str()?.to_string(),
        None => "rad".into(),
    })
}

/// Each hinge the program moves: its name and its values in rad.
fn hinge_values<'a>(r: &'a RobotForm, motion: &Motion) -> Vec<(&'a str, Vec<f64>)> {
    let samples = motion.time.len();
    let nq = motion.q.len() / samples;
    let tree = &r.robot.tree;
    motion
        .joints
        .iter()
        .filter_map(|&j| {
            let joint = tree.joints.get(j)?;
            (joint.kind == JointKind::Hinge && joint.qpos_adr < nq).then(|| {
                let v = (0..samples)
                    .map(|i| motion.q[i * nq + joint.qpos_adr])
                    .collect();
                (joint.name.as_str(), v)
            })
        })
        .collect()
}

/// A degree program whose every hinge value is within a turn read as
/// degrees (radians typed), or a radian program whose hinges mostly
/// exceed a turn (degrees typed).
fn angle_unit(case: &Case, r: &RobotForm, motion: &Motion, out: &mut Checks) {
    let Some(unit) = typed_angle_unit(case) else {
        return;
    };
    let hinges = hinge_values(r, motion);
    if hinges.is_empty() {
        return;
    }
    let peak = |v: &[f64]| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let turn = 2.0 * PI * (1.0 + 1e-9);
    let location = at(
        case,
        &super::laws::key_in_table(case, motion.span.start, "angle_unit"),
    );
    if unit == "deg" {
        // As typed in the file, in the unit written.
        let typed: Vec<f64> = hinges.iter().map(|(_, v)| peak(v).to_degrees()).collect();
        let top = typed.iter().fold(0.0f64, |m, x| m.max(*x));
        if top > turn || top < 1.0 {
            return;
        }
        let quarter = hinges.iter().any(|(_, v)| {
            v.iter()
                .any(|x| (x.to_degrees().abs() - PI / 2.0).abs() < SAME_VALUE)
        });
        out.warn(
            "program_angle_unit",
            "motion: angle_unit".into(),
            location,
            format!(
                "angle_unit = \"deg\", but every hinge value of the program lies within \
                 ±{} (at most {} \"degrees\" over {} hinges{}): a program read in degrees \
                 that never leaves ±6.3° of zero; these look like radians. Read as \
                 degrees, every speed is 57× too low; check the file's unit",
                n(2.0 * PI),
                n(top),
                hinges.len(),
                if quarter {
                    ", some at ±1.5708 = π/2"
                } else {
                    ""
                }
            ),
        );
    } else if unit == "rad" {
        let beyond: Vec<&str> = hinges
            .iter()
            .filter(|(_, v)| peak(v) > turn)
            .map(|(name, _)| *name)
            .collect();
        if hinges.len() < 2 || 2 * beyond.len() < hinges.len() {
            return;
        }
        let top = hinges.iter().fold(0.0f64, |m, (_, v)| m.max(peak(v)));
        out.warn(
            "program_angle_unit",
            "motion: angle_unit".into(),
            location,
            format!(
                "the program is read in radians, but {} of its {} hinges ({}) go beyond a \
                 turn (up to {} rad = {}°): these look like degrees; if so, add \
                 angle_unit = \"deg\" to [motion]",
                beyond.len(),
                hinges.len(),
                beyond.join(", "),
                n(top),
                n(top.to_degrees())
            ),
        );
    }
}

/// A first sample that is the case's `[model]` configuration with two
/// joints' values exchanged: the two columns' headers swapped. (A program
/// that merely starts at another pose says nothing: the configuration is
/// the contact's pose, not necessarily the program's start.)
fn swapped_columns(case: &Case, r: &RobotForm, motion: &Motion, out: &mut Checks) {
    let samples = motion.time.len();
    let nq = motion.q.len() / samples;
    let tree = &r.robot.tree;
    let pose = r.configuration_with(|v| v.si);
    let cols: Vec<(usize, &str)> = motion
        .joints
        .iter()
        .filter_map(|&j| {
            let joint = tree.joints.get(j)?;
            let one = matches!(joint.kind, JointKind::Hinge | JointKind::Slide);
            (one && joint.qpos_adr < nq && joint.qpos_adr < pose.len())
                .then_some((joint.qpos_adr, joint.name.as_str()))
        })
        .collect();
    let same = |a: f64, b: f64| (a - b).abs() <= SAME_VALUE;
    let differ: Vec<&(usize, &str)> = cols
        .iter()
        .filter(|(a, _)| !same(motion.q[*a], pose[*a]))
        .collect();
    let [(a, name_a), (b, name_b)] = differ[..] else {
        return;
    };
    let (qa, qb) = (motion.q[*a], motion.q[*b]);
    if !(same(qa, pose[*b]) && same(qb, pose[*a])) || same(qa, qb) {
        return;
    }
    out.warn(
        "program_start",
        format!("motion: columns {name_a} and {name_b}"),
        super::program::motion_at(case, motion),
        format!(
            "the program's first sample has {name_a} = {} and {name_b} = {}, the [model] \
             configuration's {name_b} and {name_a} exchanged ({name_a} = {}, {name_b} = {}); \
             every other joint starts at the configuration: the two columns' headers are \
             likely swapped, which moves the arm along another path",
            n(qa),
            n(qb),
            n(pose[*a]),
            n(pose[*b])
        ),
    );
}

/// A time column that counts 0, 1, 2, …: a sample index, not seconds.
fn sample_counter(case: &Case, motion: &Motion, out: &mut Checks) {
    let t = &motion.time;
    if t.len() < COUNTER_SAMPLES
        || t.iter()
            .enumerate()
            .any(|(i, x)| (x - i as f64).abs() > 1e-9)
    {
        return;
    }
    let last = t.len() - 1;
    out.warn(
        "sample_counter",
        "motion: time".into(),
        super::program::motion_at(case, motion),
        format!(
            "the time column counts 0, 1, 2, … {last}: consecutive integers from 0, a sample \
             index rather than seconds; read as seconds the program samples at 1 Hz and lasts \
             {last} s, and every speed is the true one divided by the logging rate (at 125 Hz \
             the program would last {} s). Give the time in seconds",
            n(last as f64 / 125.0)
        ),
    );
}
