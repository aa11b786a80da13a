//! The scene's columns checked as the case reader checks a typed case:
//! finite, positive masses and inertias, unit normals, indices in range,
//! unique names; each problem at its table, row and column.

use super::*;

/// Checks the rules every body and contact obeys (as for TOML tables).
/// Stops after [`MAX_ISSUES`] problems.
pub fn validate(s: &SceneData, space: Space) -> Vec<Issue> {
    let d = space.dim();
    let mut issues = Vec::new();
    validate_bodies(s, d, &mut issues);
    validate_contacts(s, d, &mut issues);
    validate_names(s, &mut issues);
    issues
}

/// Adds `issue` unless there are [`MAX_ISSUES`] already.
fn capped(issues: &mut Vec<Issue>, issue: Issue) {
    if issues.len() < MAX_ISSUES {
        issues.push(issue);
    }
}

/// The first entry of `v` that is not finite.
pub(super) fn not_finite(v: &[f64]) -> Option<usize> {
    v.iter().position(|x| !x.is_finite())
}

/// Bodies: finite positions; masses and inertias positive (a fixed body
/// needs none).
fn validate_bodies(s: &SceneData, d: usize, issues: &mut Vec<Issue>) {
    let mut push = |i: Issue| capped(issues, i);
    let n = s.n_bodies();
    for b in 0..n {
        if let Some(k) = not_finite(&s.position[d * b..d * b + d]) {
            push(Issue::new(
                Table::Bodies,
                Some(b),
                ["x", "y", "z"][k],
                format!("the position is {}", s.position[d * b + k]),
            ));
        }
        if s.fixed[b] {
            continue;
        }
        let m = s.mass[b];
        if !(m.is_normal() && m > 0.0) {
            push(
                Issue::new(
                    Table::Bodies,
                    Some(b),
                    "mass",
                    format!("a mass must be positive (and a normal 64-bit number), this is {m}"),
                )
                .hint("mark immovable bodies with the `fixed` column instead"),
            );
        }
        if d == 2 {
            let i = s.inertia[b];
            if !(i.is_normal() && i > 0.0) {
                push(Issue::new(
                    Table::Bodies,
                    Some(b),
                    "I",
                    format!("a moment of inertia must be positive, this is {i}"),
                ));
            }
        } else {
            let t = &s.inertia[6 * b..6 * b + 6];
            let m = [[t[0], t[3], t[4]], [t[3], t[1], t[5]], [t[4], t[5], t[2]]];
            if let Some(k) = not_finite(t) {
                push(Issue::new(
                    Table::Bodies,
                    Some(b),
                    ["Ixx", "Iyy", "Izz", "Ixy", "Ixz", "Iyz"][k],
                    format!("an inertia component is {}", t[k]),
                ));
            } else if let Some(k) = crate::case::cholesky_failure(&m) {
                push(Issue::new(
                    Table::Bodies,
                    Some(b),
                    ["Ixx", "Iyy", "Izz"][k],
                    format!(
                        "the inertia tensor is not positive definite (its leading {}×{} block is not)",
                        k + 1,
                        k + 1
                    ),
                ));
            }
        }
    }
}

/// Contacts: two different bodies, not both fixed; finite points, unit
/// normals, positive stiffnesses, dampings not negative.
fn validate_contacts(s: &SceneData, d: usize, issues: &mut Vec<Issue>) {
    let mut push = |i: Issue| capped(issues, i);
    for c in 0..s.n_contacts() {
        let (b, o) = (s.body[c], s.other[c]);
        if b == o {
            push(Issue::new(
                Table::Contacts,
                Some(c),
                "other",
                "a contact needs two different bodies",
            ));
        } else if s.fixed[b as usize] && (o == WORLD || s.fixed[o as usize]) {
            push(
                Issue::new(
                    Table::Contacts,
                    Some(c),
                    "body",
                    "this contact joins two fixed bodies (or a fixed body and the world): its gap cannot move",
                )
                .hint("put the contact on a movable body"),
            );
        }
        let p = &s.point[d * c..d * c + d];
        if let Some(k) = not_finite(p) {
            push(Issue::new(
                Table::Contacts,
                Some(c),
                ["px", "py", "pz"][k],
                format!("the contact point is {}", p[k]),
            ));
        }
        let nv = &s.normal[d * c..d * c + d];
        let len = nv.iter().map(|x| x * x).sum::<f64>().sqrt();
        let unit = (len - 1.0).abs() <= crate::case::NORMAL_TOLERANCE;
        if !unit {
            push(
                Issue::new(
                    Table::Contacts,
                    Some(c),
                    "nx",
                    format!("a normal must be a unit vector, this one has length {len}"),
                )
                .hint("a non-unit normal would rescale the gap and change the effective mass; normalise it"),
            );
        }
        let k = s.stiffness[c];
        if !(k.is_normal() && k > 0.0) {
            push(Issue::new(
                Table::Contacts,
                Some(c),
                "k",
                format!("a stiffness must be positive, this is {k}"),
            ));
        }
        if let Some(dv) = &s.damping
            && !(dv[c].is_finite() && dv[c] >= 0.0)
        {
            push(Issue::new(
                Table::Contacts,
                Some(c),
                "c",
                format!("a damping cannot be negative, this is {}", dv[c]),
            ));
        }
        if let Some(t) = &s.tangential {
            tangential::validate(t, c, &mut push);
        }
    }
}

/// Names, where given: not empty, not `world`, unique within their file.
fn validate_names(s: &SceneData, issues: &mut Vec<Issue>) {
    let mut push = |i: Issue| capped(issues, i);
    for (table, names) in [
        (Table::Bodies, &s.body_names),
        (Table::Contacts, &s.contact_names),
    ] {
        let Some(names) = names else { continue };
        let mut seen = std::collections::HashSet::with_capacity(names.len());
        for (row, name) in names.iter().enumerate() {
            let column = "name";
            if name.is_empty() {
                push(Issue::new(
                    table,
                    Some(row),
                    column,
                    "a name cannot be empty",
                ));
            } else if name == "world" {
                push(Issue::new(
                    table,
                    Some(row),
                    column,
                    "`world` is reserved for the fixed world",
                ));
            } else if !seen.insert(name.as_str()) {
                push(
                    Issue::new(table, Some(row), column, format!("duplicate name `{name}`"))
                        .hint("names must be unique"),
                );
            }
        }
    }
}

/// A body index outside `0 … n−1` (and not −1 for the world where allowed).
pub(super) fn out_of_range(row: usize, column: &str, x: i64, n: usize, world_ok: bool) -> Issue {
    let range = if world_ok { "−1 (the world) or " } else { "" };
    Issue::new(
        Table::Contacts,
        Some(row),
        column,
        format!(
            "body index {x} is out of range: {range}0 … {} expected",
            n.saturating_sub(1)
        ),
    )
}

/// Problems reported per scene before stopping.
pub const MAX_ISSUES: usize = 20;
