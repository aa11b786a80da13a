//! A robot program as a NumPy `.npz` archive (`[motion] trajectory =
//! "program.npz"`): the same columns as the CSV table (`trajectory.rs`),
//! each a 1-d array named like the CSV column — `t`, one per joint, and
//! optionally `<joint>.v` — checked by the same rules. A problem is shown
//! at the array and sample it is in (`program.npz: array `t`, sample 4`),
//! the place a binary file has.

use super::npy::{self, Data};
use super::trajectory::{JointColumn, MAX_SAMPLES, Table};
use crate::case::RangeWarning;

/// What an array is.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    Time,
    Value(usize),
    Velocity(usize),
}

/// The most problems listed.
const MAX_PROBLEMS: usize = 20;

/// Reads the program at `path` (shown as `shown`); `Err` lists every
/// problem found, each with its array and sample.
pub(crate) fn read(
    path: &std::path::Path,
    shown: &str,
    max_bytes: u64,
    joints: &[JointColumn],
) -> Result<Table, String> {
    let roles = |name: &str| role_of(name, joints);
    let check = |shapes: &[(String, Vec<usize>)]| check_shapes(shapes, joints);
    let arrays = npy::read_npz(path, max_bytes, MAX_SAMPLES, &check)?;
    let mut problems: Vec<String> = Vec::new();
    let mut push = |p: String| {
        if problems.len() < MAX_PROBLEMS {
            problems.push(p);
        }
    };
    let mut cols: Vec<(String, Role, Vec<f64>)> = Vec::new();
    for (name, a) in arrays {
        let role = roles(&name).expect("checked above");
        let values: Vec<f64> = match a.data {
            Data::Float(v) => v,
            Data::Int(v) => v.into_iter().map(|x| x as f64).collect(),
            _ => {
                push(format!(
                    "array `{name}` holds {} values, not numbers",
                    a.kind()
                ));
                continue;
            }
        };
        if let Some(k) = values.iter().position(|x| !x.is_finite()) {
            push(format!(
                "array `{name}`, sample {} (index {k}): `{}` is not a finite number",
                k + 1,
                values[k]
            ));
        }
        cols.push((name, role, values));
    }
    finish(cols, problems, shown, joints)
}

/// What an array named `name` is, if anything.
fn role_of(name: &str, joints: &[JointColumn]) -> Option<Role> {
    if name == "t" {
        return Some(Role::Time);
    }
    if let Some(j) = joints.iter().position(|j| j.name == name) {
        return Some(Role::Value(j));
    }
    name.strip_suffix(".v")
        .and_then(|b| joints.iter().position(|j| j.name == b))
        .map(Role::Velocity)
}

/// The archive's names and shapes, before any array is decoded.
fn check_shapes(shapes: &[(String, Vec<usize>)], joints: &[JointColumn]) -> Result<(), String> {
    let roles = |name: &str| role_of(name, joints);
    {
        let mut problems = Vec::new();
        let mut len = None;
        for (name, shape) in shapes {
            if roles(name).is_none() {
                let known = std::iter::once("t").chain(joints.iter().map(|j| j.name.as_str()));
                let hint = crate::diag::closest(name.trim_end_matches(".v"), known)
                    .map_or_else(String::new, |b| format!(" (did you mean `{b}`?)"));
                problems.push(format!(
                    "array `{name}`: unknown column: the model has no joint of that name{hint}"
                ));
                continue;
            }
            if shape.len() != 1 {
                problems.push(format!(
                    "array `{name}` has shape {shape:?}: a program's arrays are 1-d, one value per sample"
                ));
                continue;
            }
            if shape[0] > MAX_SAMPLES {
                problems.push(format!("array `{name}`: more than {MAX_SAMPLES} samples"));
            }
            match len {
                None => len = Some((name.clone(), shape[0])),
                Some((ref first, n)) if n != shape[0] => problems.push(format!(
                    "array `{name}` has {} samples, array `{first}` {n}",
                    shape[0]
                )),
                Some(_) => {}
            }
        }
        if !shapes.iter().any(|(n, _)| n == "t") {
            problems.push("the archive has no time array `t`".into());
        }
        if !shapes
            .iter()
            .any(|(n, _)| matches!(roles(n), Some(Role::Value(_))))
        {
            problems.push(
                "the archive names no joint of the model (one array per joint the program moves, named by joint)"
                    .into(),
            );
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("; "))
        }
    }
}

/// The checks across arrays, then the table (SI) with its range warnings.
fn finish(
    cols: Vec<(String, Role, Vec<f64>)>,
    mut problems: Vec<String>,
    shown: &str,
    joints: &[JointColumn],
) -> Result<Table, String> {
    let mut push = |p: String| {
        if problems.len() < MAX_PROBLEMS {
            problems.push(p);
        }
    };
    let n = cols.first().map_or(0, |c| c.2.len());
    if let Some((_, _, t)) = cols.iter().find(|c| c.1 == Role::Time)
        && let Some(k) = (1..t.len()).find(|&k| t[k] <= t[k - 1])
    {
        push(format!(
            "array `t`, sample {} (index {k}): time {} s does not increase (the sample before is at {} s)",
            k + 1,
            t[k],
            t[k - 1]
        ));
    }

    if n < 2 {
        push(format!(
            "a program needs at least two samples, this one has {n}"
        ));
    }
    let with_v = cols.iter().any(|c| matches!(c.1, Role::Velocity(_)));
    for (name, role, _) in &cols {
        let has = |r: Role| cols.iter().any(|c| c.1 == r);
        match *role {
            Role::Velocity(j) if !has(Role::Value(j)) => push(format!(
                "velocity array `{name}` without an array `{}`",
                joints[j].name
            )),
            Role::Value(j) if with_v && !has(Role::Velocity(j)) => push(format!(
                "joint `{name}` has no velocity array `{name}.v` (give one for every joint array, or none)"
            )),
            _ => {}
        }
    }
    if !problems.is_empty() {
        return Err(problems
            .iter()
            .map(|p| format!("{shown}: {p}"))
            .collect::<Vec<_>>()
            .join("\n"));
    }
    let mut table = Table::default();
    let mut speeds: Vec<(usize, Vec<f64>)> = Vec::new();
    for (name, role, values) in cols {
        match role {
            Role::Time => table.time = values,
            Role::Value(j) => {
                let si: Vec<f64> = values.iter().map(|x| x * joints[j].scale).collect();
                if let Some([lo, hi]) = joints[j].range
                    && let Some(k) = si.iter().position(|x| !(lo..=hi).contains(x))
                {
                    table.warnings.push(RangeWarning {
                        joint: name.clone(),
                        location: RangeWarning::location_in(
                            shown,
                            &format!(": array `{name}`, sample {}", k + 1),
                        ),
                        place: format!("index {k}"),
                        value: si[k],
                        range: [lo, hi],
                        slide: joints[j].slide,
                        first_of_many: true,
                    });
                }
                table.joints.push(j);
                table.values.push(si);
            }
            Role::Velocity(j) => {
                speeds.push((j, values.iter().map(|x| x * joints[j].scale).collect()));
            }
        }
    }
    if with_v {
        let mut v = Vec::with_capacity(table.joints.len());
        for j in &table.joints {
            let k = speeds
                .iter()
                .position(|(i, _)| i == j)
                .expect("paired above");
            v.push(std::mem::take(&mut speeds[k].1));
        }
        table.velocities = Some(v);
    }
    Ok(table)
}
