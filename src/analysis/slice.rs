//! One part of a scene for a distributed solve (issue 41, "past one
//! machine"): the rows of J̃ = J L⁻ᵀ (M = L Lᵀ) that one of several
//! processes holds when the coupled modes of S = K^½ J̃ J̃ᵀ K^½ are found
//! by a distributed eigensolver (`meff.mpi`).
//!
//! Input: a case loaded with [`crate::case::load_part`] (an NPZ scene's
//! part read by itself, [`crate::case::scene::part`]) or whole (a CSV or
//! dump scene, cut here by the same rule). The part owns the bodies of its
//! range and the contacts whose `body` is one of them. Output:
//! [`SceneSlice`] — those contacts' whitened rows in CSR form with global
//! columns (body `b`'s velocities are columns `size·b … size·b + size − 1`,
//! `size` 6 in 3-d and 3 planar; a fixed body's columns stay empty), their
//! stiffness and A_ii = |J̃_i|².
//!
//! Nothing here is new physics: each row is made from the part's columns
//! by [`scene_large`](super::scene_large)'s `whitened_side`, the rule the
//! single-process large path uses (no `Model`, no `System`), its entries
//! in the same order and A_ii summed in the same order, so a part's rows
//! and A_ii have the bits of the whole scene's.

use super::scene_large::whitened_side;
use super::{AnalysisError, check_range, large_analysis::velocities};
use crate::case::Case;
use crate::case::Space;
use crate::case::scene::part::{self, PartMap, PartRequest};
use crate::case::scene::{SceneData, WORLD};
use std::ops::Range;

/// One part's rows of J̃, stiffness and A_ii.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneSlice {
    /// The bodies owned.
    pub bodies: Range<usize>,
    /// Velocities per body (6 in 3-d, 3 planar): the column stride.
    pub size: usize,
    /// Bodies in the whole scene.
    pub n_bodies: usize,
    /// Contacts in the whole scene.
    pub n_contacts: usize,
    /// Bodies the part read (its own and the others its contacts touch).
    pub bodies_read: usize,
    /// Whether the part was read by itself (an NPZ scene) rather than cut
    /// from the whole scene read (CSV, dump).
    pub read_alone: bool,
    /// The contacts owned (those whose `body` is owned), increasing.
    pub contacts: Vec<usize>,
    /// CSR starts of the rows (one more than `contacts`).
    pub row_start: Vec<usize>,
    /// Global column of each entry, increasing within a row.
    pub column: Vec<usize>,
    /// Entries of J̃ (zeros left out).
    pub value: Vec<f64>,
    /// Stiffness of each owned contact (N/m).
    pub stiffness: Vec<f64>,
    /// A_ii = |J̃_i|² of each owned contact (1/kg).
    pub a: Vec<f64>,
}

/// Why a part cannot be made.
#[derive(Clone, Debug, PartialEq)]
pub enum SliceError {
    /// The case has no `[scene]`.
    NoScene,
    /// The scene has tangential springs: the slice carries normal rows
    /// only, and modes without the tangential rows would be wrong.
    Tangential,
    /// A row out of range (the large path's check, at the scene's contact).
    Rows(AnalysisError),
}

impl std::fmt::Display for SliceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SliceError::NoScene => write!(
                f,
                "the case has no [scene]; meff.mpi works on scenes (docs/case-format.md)"
            ),
            SliceError::Tangential => write!(
                f,
                "the scene has tangential springs: the distributed route takes normal rows only (use meff eval)"
            ),
            SliceError::Rows(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SliceError {}

/// The part `request` of `case`'s scene (see the module's documentation).
pub fn scene_slice(case: &Case, request: PartRequest) -> Result<SceneSlice, SliceError> {
    let scene = case.scene.as_ref().ok_or(SliceError::NoScene)?;
    let cut;
    let (data, map) = match &scene.part {
        Some(map) => (&scene.data, map.as_ref()),
        None => {
            cut = part::cut(&scene.data, case.space, request);
            (&cut.0, &cut.1)
        }
    };
    if data.tangential.is_some() {
        return Err(SliceError::Tangential);
    }
    let (row_start, column, value, a) = rows(data, map, case.space).map_err(SliceError::Rows)?;
    Ok(SceneSlice {
        bodies: map.bodies.clone(),
        size: velocities(case.space),
        n_bodies: map.n_bodies,
        n_contacts: map.n_contacts,
        bodies_read: map.global.len(),
        read_alone: scene.part.is_some(),
        contacts: map.contacts.clone(),
        row_start,
        column,
        value,
        stiffness: data.stiffness.clone(),
        a,
    })
}

type Rows = (Vec<usize>, Vec<usize>, Vec<f64>, Vec<f64>);

/// The part's rows in CSR with global columns, and each row's A_ii. The
/// caller's stop request is read every 2¹⁶ rows.
fn rows(s: &SceneData, map: &PartMap, space: Space) -> Result<Rows, AnalysisError> {
    let size = velocities(space);
    let c = s.n_contacts();
    let mut row_start = Vec::with_capacity(c + 1);
    row_start.push(0);
    let (mut column, mut value) = (
        Vec::with_capacity(2 * size * c),
        Vec::with_capacity(2 * size * c),
    );
    let mut a = Vec::with_capacity(c);
    let mut row: Vec<(usize, f64)> = Vec::with_capacity(2 * size);
    let mut x = [0.0f64; 6];
    let moving = |b: u32| b != WORLD && !s.fixed[b as usize];
    for i in 0..c {
        if i % (1 << 16) == 0 && crate::control::cancelled() {
            return Err(AnalysisError::Cancelled);
        }
        // The sides in increasing body order (the part's bodies increase
        // with the scene's), as the large path takes them.
        let (b, o) = (s.body[i], s.other[i]);
        let mut sides = [(b, false), (o, true)];
        if o != WORLD && o < b {
            sides.swap(0, 1);
        }
        row.clear();
        for (body, negate) in sides {
            if !moving(body) {
                continue;
            }
            let x = &mut x[..size];
            whitened_side(s, space, i, body as usize, negate, x);
            let base = size * map.global[body as usize];
            row.extend(
                x.iter()
                    .enumerate()
                    .filter(|(_, v)| **v != 0.0)
                    .map(|(k, v)| (base + k, *v)),
            );
        }
        let d: f64 = row.iter().map(|(_, v)| v * v).sum();
        check_range(map.contacts[i], &row, d, std::iter::empty())?;
        a.push(d);
        column.extend(row.iter().map(|e| e.0));
        value.extend(row.iter().map(|e| e.1));
        row_start.push(column.len());
    }
    Ok((row_start, column, value, a))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three spheres on a line and the world, contact points off the line
    /// of centres (rotations enter), a full inertia tensor, a fixed body.
    fn scene() -> SceneData {
        SceneData {
            mass: vec![1.0, 2.0, 3.0, 1.0],
            position: vec![0., 0., 0., 1., 0., 0., 2., 0., 0., 3., 0., 0.],
            inertia: vec![
                0.1, 0.2, 0.3, 0.0, 0.0, 0.0, //
                0.4, 0.5, 0.6, 0.01, 0.02, 0.03, //
                0.2, 0.2, 0.2, 0.0, 0.0, 0.0, //
                0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
            ],
            fixed: vec![false, false, false, true],
            body_names: None,
            body: vec![1, 2, 0, 2],
            other: vec![0, 1, WORLD, 3],
            point: vec![0.5, 0.1, 0.0, 1.5, 0.0, 0.2, 0.0, -0.5, 0.1, 2.5, 0.1, 0.1],
            normal: vec![1., 0., 0., 1., 0., 0., 0., 1., 0., -1., 0., 0.],
            stiffness: vec![10.0, 20.0, 30.0, 40.0],
            damping: None,
            tangential: None,
            contact_names: None,
            image: None,
        }
    }

    fn case_of(s: SceneData) -> Case {
        crate::case::case_from_columns("t", "title = \"t\"\nspace = \"3d\"\n", s).unwrap()
    }

    /// J̃_i · J̃_j from a part's CSR rows (global columns).
    fn dot(p: &SceneSlice, i: usize, q: &SceneSlice, j: usize) -> f64 {
        fn r(s: &SceneSlice, k: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
            (s.row_start[k]..s.row_start[k + 1]).map(move |e| (s.column[e], s.value[e]))
        }
        r(p, i)
            .map(|(c, v)| r(q, j).filter(|e| e.0 == c).map(|e| e.1 * v).sum::<f64>())
            .sum()
    }

    #[test]
    fn parts_cover_the_scene_and_give_the_large_paths_a() {
        let s = scene();
        let case = case_of(s.clone());
        let large = crate::analysis::scene_large::coupled(&s, Space::ThreeD).unwrap();
        // A_ii from the whole model's dense mass matrix, independently.
        let model = crate::model::numeric(&case);
        let system = crate::model::assemble(&model);
        let m = nalgebra::DMatrix::from_row_slice(18, 18, &system.dense_mass().concat());
        let minv = m.try_inverse().unwrap();
        let parts: Vec<SceneSlice> = (0..3)
            .map(|p| scene_slice(&case, PartRequest::new(p, 3).unwrap()).unwrap())
            .collect();
        let mut owner = [None; 4];
        for (p, part) in parts.iter().enumerate() {
            assert!(!part.read_alone);
            for (k, &i) in part.contacts.iter().enumerate() {
                assert!(
                    owner[i].replace((p, k)).is_none(),
                    "contact {i} in two parts"
                );
                assert!(part.bodies.contains(&(s.body[i] as usize)));
                // Bit for bit the large path's A_ii.
                assert_eq!(part.a[k], large.diag[i]);
                assert_eq!(part.stiffness[k], s.stiffness[i]);
                let j = nalgebra::DVector::from_vec(system.dense_row(&system.jacobian[i]));
                let want = (j.transpose() * &minv * &j)[0];
                assert!(
                    (part.a[k] - want).abs() < 1e-13 * want,
                    "{} {want}",
                    part.a[k]
                );
            }
        }
        // Every off-diagonal entry of A across parts: the large path's.
        for i in 0..4 {
            for j in 0..4 {
                let (p, k) = owner[i].unwrap();
                let (q, l) = owner[j].unwrap();
                let got = dot(&parts[p], k, &parts[q], l);
                let want = large.a(i, j);
                assert!((got - want).abs() <= 1e-14 * want.abs().max(1.0), "{i} {j}");
            }
        }
        // The fixed body 3 has no columns.
        assert!(parts.iter().all(|p| p.column.iter().all(|&c| c / 6 != 3)));
    }

    #[test]
    fn ranges_split_evenly_and_tangential_scenes_are_refused() {
        let r: Vec<_> = (0..3).map(|p| part::body_range(10, p, 3)).collect();
        assert_eq!(r, vec![0..3, 3..6, 6..10]);
        assert_eq!(part::body_range(2, 3, 4), 1..2);
        assert_eq!(PartRequest::new(2, 2), None);
        let mut s = scene();
        s.tangential = Some(crate::case::scene::TangentialColumns {
            stiffness: vec![1.0; 4],
            ratio: false,
            damping: None,
        });
        let e = scene_slice(&case_of(s), PartRequest::new(0, 1).unwrap()).unwrap_err();
        assert_eq!(e, SliceError::Tangential);
    }
}
