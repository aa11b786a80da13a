//! Model checks of a scene as a whole, added for issue 36's round-6
//! plants (checks7a): bodies exported twice (identical mass, inertia and
//! centre), a scene with nothing holding it up (a wall asked for by name
//! that no sphere touches; no contact with the world or a fixed body in a
//! scene said to rest), and a dump snapshot taken in motion (its velocity
//! columns) or before the file's last one. Each reads the scene through
//! [`SceneView`], so the model path and the columnar route run the same
//! code, in O(n log n) at most and in parallel where it is per body.

use super::scene_view::{SceneView, said_at_rest};
use super::{Checks, at, n};
use crate::case::Case;
use crate::case::scene::{DumpFacts, Scene};
use rayon::prelude::*;

/// The duplicated pairs a warning names.
pub const DUPLICATES_NAMED: usize = 3;

/// A dump sphere faster than this multiple of √(g r) is in motion (a
/// grain dropped from 4.5 radii; a settled pile's spheres creep at far
/// less): the snapshot is not of spheres at rest.
pub const SPEED_FACTOR: f64 = 3.0;

/// Standard gravity (m/s²).
const G: f64 = super::dynamics::GRAVITY;

pub(super) fn rules(case: &Case, scene: &Scene, v: &SceneView, out: &mut Checks) {
    duplicate_bodies(case, v, out);
    unsupported(case, scene, v, out);
    if let Some(facts) = &scene.dump {
        snapshot(case, scene, facts, out);
    }
}

/// A scene's mass, centre and inertia accessors (shared by the threads).
type Parts<'a> = (
    &'a (dyn Fn(usize) -> Option<f64> + Sync),
    &'a (dyn Fn(usize) -> [f64; 3] + Sync),
    &'a (dyn Fn(usize) -> [f64; 6] + Sync),
);

/// A movable body's mass, centre and inertia, as the bits compared (−0
/// read as 0).
fn key(v: &Parts, b: usize) -> Option<[u64; 10]> {
    let m = (v.0)(b)?;
    let x = (v.1)(b);
    let i = (v.2)(b);
    let mut k = [0u64; 10];
    for (slot, value) in k.iter_mut().zip(std::iter::once(m).chain(x).chain(i)) {
        *slot = (value + 0.0).to_bits();
    }
    Some(k)
}

/// Two movable bodies with the same mass, inertia and centre: one body
/// written twice (a scene exported twice, its copy's indices shifted),
/// which interpenetrates itself. O(n log n): a hash of each body's key,
/// sorted in parallel, equal hashes compared in full.
fn duplicate_bodies(case: &Case, v: &SceneView, out: &mut Checks) {
    use std::hash::{Hash, Hasher};
    let parts: Parts = (v.mass, v.position, v.inertia);
    let mut hashed: Vec<(u64, u32)> = (0..v.n_bodies)
        .into_par_iter()
        .with_min_len(1 << 12)
        .filter_map(|b| {
            let k = key(&parts, b)?;
            let mut h = std::collections::hash_map::DefaultHasher::new();
            k.hash(&mut h);
            Some((h.finish(), b as u32))
        })
        .collect();
    hashed.par_sort_unstable();
    // Pairs (first, copy) in the order of the copies' rows.
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut copies = 0usize;
    let mut i = 0;
    while i < hashed.len() {
        let mut j = i + 1;
        while j < hashed.len() && hashed[j].0 == hashed[i].0 {
            j += 1;
        }
        if j - i > 1 {
            let group = &hashed[i..j];
            // The run is sorted by body number: each later body against
            // the earliest body with the same key.
            for (k, &(_, b)) in group.iter().enumerate().skip(1) {
                let first = group[..k]
                    .iter()
                    .find(|(_, a)| key(&parts, *a as usize) == key(&parts, b as usize));
                if let Some(&(_, a)) = first {
                    copies += 1;
                    if pairs.len() < DUPLICATES_NAMED {
                        pairs.push((a as usize, b as usize));
                    }
                }
            }
        }
        i = j;
    }
    if copies == 0 {
        return;
    }
    pairs.sort_unstable_by_key(|p| p.1);
    let listed: Vec<String> = pairs
        .iter()
        .map(|&(a, b)| {
            format!(
                "{} (bodies row {}) and {} (row {})",
                (v.name)(a),
                a + 1,
                (v.name)(b),
                b + 1
            )
        })
        .collect();
    out.warn(
        "duplicate_bodies",
        "scene: bodies".to_string(),
        super::scene_row(case, "bodies", pairs[0].1),
        format!(
            "{copies} of the scene's bodies have the same mass, inertia and centre as an \
             earlier one: {}{}. Two bodies cannot fill the same space: the scene (or part of \
             it) was written twice, and its contacts and modes are counted twice; remove the \
             copies",
            listed.join("; "),
            if copies > listed.len() { "; …" } else { "" }
        ),
    );
}

/// A scene nothing holds up: a wall or plane asked for by name that no
/// sphere touches (a misnamed wall), or, in a scene said to rest (or one
/// whose dump names walls), no contact with the world or a fixed body.
fn unsupported(case: &Case, scene: &Scene, v: &SceneView, out: &mut Checks) {
    let named = scene.dump.as_ref().map_or(&[][..], |f| &f.named_planes[..]);
    let walls_at = || {
        let key = if named.iter().any(|(p, _)| !p.starts_with("plane")) {
            "walls"
        } else {
            "planes"
        };
        at(
            case,
            &super::laws::key_in_table(case, scene.span.start, key),
        )
    };
    for (name, touching) in named {
        if *touching == 0 {
            out.warn(
                "scene_unsupported",
                format!("scene: {name}"),
                walls_at(),
                format!(
                    "no sphere touches `{name}`, which the case asks for: a wall or plane \
                     named for the floor is misnamed (zlo is the bottom of the box, zhi the \
                     top), or the snapshot is of spheres not yet resting on it; without it \
                     the spheres rest on nothing"
                ),
            );
        }
    }
    let supported = (0..v.n_contacts).any(|ci| {
        let c = (v.contact)(ci);
        c.sides[0].is_none() || c.sides[1].is_none()
    });
    let movable = (0..v.n_bodies).any(|b| (v.mass)(b).is_some());
    let reason = said_at_rest(case)
        .map(|p| format!("the case says the scene is {p}"))
        .or_else(|| (!named.is_empty()).then(|| "the case names walls".to_string()));
    let warned = named.iter().any(|(_, k)| *k == 0);
    if supported || warned || !movable || v.n_contacts == 0 {
        return;
    }
    let Some(reason) = reason else { return };
    out.warn(
        "scene_unsupported",
        "scene: contacts".to_string(),
        if named.is_empty() {
            at(case, &scene.span)
        } else {
            walls_at()
        },
        format!(
            "{reason}, but none of its {} contacts is with the world or a fixed body: under \
             gravity nothing holds the bodies up (their contacts only push them against each \
             other), and the lowest modes are the whole scene moving freely; a floor, wall or \
             plane is missing or misnamed",
            v.n_contacts
        ),
    );
}

/// A dump's snapshot in motion (spheres faster than [`SPEED_FACTOR`]
/// √(g r)), or one with later snapshots in the file.
fn snapshot(case: &Case, scene: &Scene, f: &DumpFacts, out: &mut Checks) {
    let location = || {
        at(
            case,
            &super::laws::key_in_table(case, scene.span.start, "timestep"),
        )
    };
    let (step, later, last) = f.snapshot;
    let moving = f
        .speed
        .iter()
        .zip(&f.radius)
        .filter(|(s, r)| **s > SPEED_FACTOR * (G * **r).sqrt())
        .count();
    if moving > 0 {
        let (fastest, at_r) = f
            .speed
            .iter()
            .zip(&f.radius)
            .fold(
                (0.0f64, 0.0f64),
                |m, (s, r)| if *s > m.0 { (*s, *r) } else { m },
            );
        out.warn(
            "dump_snapshot",
            "scene: dump timestep".to_string(),
            location(),
            format!(
                "the snapshot (timestep {step}) is in motion: its velocity columns give {moving} \
                 of {} spheres a speed above {SPEED_FACTOR} √(g r) (the fastest {} m/s, against \
                 √(g r) = {} m/s for its radius {} m); a pile still pouring has fewer contacts \
                 than the settled one, and its overlaps are not those of rest{}",
                f.speed.len(),
                n(fastest),
                n((G * at_r).sqrt()),
                n(at_r),
                if later > 0 {
                    format!(
                        "; the file holds {later} later snapshot(s), the last at timestep {last}"
                    )
                } else {
                    String::new()
                }
            ),
        );
    } else if later > 0 {
        out.warn(
            "dump_snapshot",
            "scene: dump timestep".to_string(),
            location(),
            format!(
                "the snapshot read (timestep {step}) is not the file's last: {later} later \
                 snapshot(s) follow, the last at timestep {last}. Right for a chosen instant; \
                 for the settled state leave `timestep` out (the last is read)"
            ),
        );
    }
}
