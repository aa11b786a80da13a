//! A robot model's own joint ranges against the unit its format reads
//! them in: URDF `<limit lower upper>` is in radians for a revolute
//! joint, MJCF `range` in the compiler's `angle` (degrees unless
//! `angle="radian"`, already turned into radians when read). A hinge range
//! beyond a turn each way (±2π) is degrees in a radian field: the
//! configuration, map and program checks read against it pass poses the
//! joint cannot reach. The other way round, an MJCF range in degrees
//! ending at 1.57, 3.14 or 6.28 is radians in a degree field.

use super::{Checks, n};
use crate::case::{Case, Form};
use crate::kinematics::JointKind;
use crate::robot::Format;
use std::f64::consts::PI;

/// A hinge's range end beyond this (rad) is flagged: a turn each way.
pub const HINGE_RANGE: f64 = 2.0 * PI;

/// Whether `x` is, to the 3 digits people type, ±π/2, ±π or ±2π: a
/// number of radians.
fn radian_number(x: f64) -> bool {
    [0.5, 1.0, 2.0]
        .iter()
        .any(|t| (x.abs() - t * PI).abs() <= 2e-3 * t * PI)
}

/// Each hinge's range of a `[model]` case against a turn each way (and,
/// for MJCF in degrees, against radian numbers).
pub(super) fn joint_ranges(case: &Case, out: &mut Checks) {
    let Form::Robot(r) = &case.form else { return };
    let tree = &r.robot.tree;
    let file = std::path::Path::new(&r.file)
        .file_name()
        .map_or_else(|| r.file.clone(), |f| f.to_string_lossy().into_owned());
    let (element, reads) = match r.robot.format {
        Format::Urdf => (
            "<limit lower upper>",
            "URDF reads a revolute joint's limits in radians",
        ),
        Format::Mjcf => (
            "range",
            "the MJCF compiler reads ranges in its `angle` unit (here radians: `angle=\"radian\"`)",
        ),
    };
    for (j, joint) in tree.joints.iter().enumerate() {
        let Some([lo, hi]) = tree.ranges.get(j).copied().flatten() else {
            continue;
        };
        if joint.kind != JointKind::Hinge {
            continue;
        }
        if r.robot.format == Format::Mjcf
            && let Some(x) = [lo, hi].into_iter().find(|x| radian_number(x.to_degrees()))
        {
            out.warn(
                "range_unit",
                format!("model: joint {} range", joint.name),
                format!("{file}: joint {} range", joint.name),
                format!(
                    "the range [{}°, {}°] ends at {}°, the number of radians of a quarter, \
                     half or whole turn: radians typed where the MJCF compiler reads degrees \
                     (its default `angle=\"degree\"`), a range of a few degrees instead of \
                     [{}, {}] rad; poses and programs are checked against it",
                    n(lo.to_degrees()),
                    n(hi.to_degrees()),
                    n(x.to_degrees()),
                    n(lo.to_degrees()),
                    n(hi.to_degrees())
                ),
            );
            continue;
        }
        if lo.abs().max(hi.abs()) <= HINGE_RANGE * (1.0 + 1e-9) {
            continue;
        }
        // Shown in the format's own numbers (MJCF in degrees reads
        // ranges past a turn only if they pass 360).
        out.warn(
            "range_unit",
            format!("model: joint {} range", joint.name),
            format!("{file}: joint {} {element}", joint.name),
            format!(
                "the range [{}, {}] rad reaches {} turns from zero, more than a hinge turns \
                 one way: {reads}, so these look like degrees ([{}°, {}°] would be [{}, {}] \
                 rad); poses and programs are checked against this range, and pass where the \
                 joint cannot go",
                n(lo),
                n(hi),
                n(lo.abs().max(hi.abs()) / (2.0 * PI)),
                n(lo),
                n(hi),
                n(lo.to_radians()),
                n(hi.to_radians())
            ),
        );
    }
}
