//! One part of a scene for a distributed solve (issue 41, "past one
//! machine"): the contact Jacobian rows and the inverse mass blocks that
//! one of several processes holds when the coupled modes of
//! K^½ J M⁻¹ Jᵀ K^½ are found by a distributed eigensolver (`meff.mpi`).
//!
//! Input: a scene's columns and a range of bodies. The part owns the bodies
//! in the range and the contacts whose `body` is one of them. Output:
//! [`SceneSlice`] — those contacts' rows of J in CSR form with global
//! column indices (body `b`'s velocities are columns `size·b … size·b +
//! size − 1`, `size` 6 in 3-d and 3 in a planar scene; a fixed body's
//! columns stay empty), their stiffness and their A_ii = J_i M⁻¹ J_iᵀ,
//! and M⁻¹ of each owned body (zero for a fixed one).
//!
//! Nothing here is new physics: the part's bodies (its own and the other
//! bodies its contacts touch) and contacts are made into a [`Model`] by the
//! scene builder every scene goes through, its rows by [`ContactRows`] and
//! its mass blocks by [`assemble_without_contacts`], exactly as for the
//! whole scene; the rows' local columns are then renumbered globally.

use super::{ContactRows, Model, assemble_without_contacts, numeric_scene};
use crate::case::Space;
use crate::case::scene::{SceneData, WORLD};
use crate::linalg::{cholesky_in_place, forward};
use std::ops::Range;

/// One part's rows of J, stiffness, A_ii and inverse mass blocks.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneSlice {
    /// The bodies owned.
    pub bodies: Range<usize>,
    /// Velocities per body (6 in 3-d, 3 planar): the column stride.
    pub size: usize,
    /// Bodies and contacts in the whole scene.
    pub n_bodies: usize,
    /// Contacts in the whole scene.
    pub n_contacts: usize,
    /// The contacts owned (those whose `body` is owned), increasing.
    pub contacts: Vec<usize>,
    /// CSR starts of the rows (one more than `contacts`).
    pub row_start: Vec<usize>,
    /// Global column of each entry, increasing within a row.
    pub column: Vec<usize>,
    /// Entries of J.
    pub value: Vec<f64>,
    /// Stiffness of each owned contact (N/m).
    pub stiffness: Vec<f64>,
    /// A_ii = J_i M⁻¹ J_iᵀ of each owned contact (1/kg).
    pub a: Vec<f64>,
    /// M⁻¹ of each owned body, `size × size` row-major (zero when fixed).
    pub inverse_mass: Vec<f64>,
}

/// Why a part cannot be made.
#[derive(Clone, Debug, PartialEq)]
pub enum SliceError {
    /// The range is not within the scene's bodies.
    Range {
        /// The range asked for.
        bodies: Range<usize>,
        /// Bodies in the scene.
        n_bodies: usize,
    },
    /// The scene has tangential springs: the slice carries normal rows
    /// only, and modes without the tangential rows would be wrong.
    Tangential,
    /// A mass block is not positive definite (the readers refuse these).
    MassBlock {
        /// The body.
        body: usize,
    },
}

impl std::fmt::Display for SliceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SliceError::Range { bodies, n_bodies } => write!(
                f,
                "bodies {}..{} are not within the scene's {n_bodies} bodies",
                bodies.start, bodies.end
            ),
            SliceError::Tangential => write!(
                f,
                "the scene has tangential springs: the distributed route takes normal rows only (use meff eval)"
            ),
            SliceError::MassBlock { body } => {
                write!(f, "the mass block of body {body} is not positive definite")
            }
        }
    }
}

impl std::error::Error for SliceError {}

/// Bodies `[n·part/parts, n·(part+1)/parts)`: `parts` ranges as equal as
/// whole bodies allow, covering `0..n` in order.
pub fn body_range(n: usize, part: usize, parts: usize) -> Range<usize> {
    let at = |p: usize| (n as u128 * p as u128 / parts.max(1) as u128) as usize;
    at(part.min(parts))..at((part + 1).min(parts))
}

/// The part of `s` that owns `bodies` (see the module's documentation).
pub fn scene_slice(
    s: &SceneData,
    space: Space,
    bodies: Range<usize>,
) -> Result<SceneSlice, SliceError> {
    if s.tangential.is_some() {
        return Err(SliceError::Tangential);
    }
    let n = s.n_bodies();
    if bodies.start > bodies.end || bodies.end > n {
        return Err(SliceError::Range {
            bodies,
            n_bodies: n,
        });
    }
    let contacts: Vec<usize> = (0..s.n_contacts())
        .filter(|&i| bodies.contains(&(s.body[i] as usize)))
        .collect();
    // The part's bodies: its own, then the others its contacts touch.
    let mut local = vec![u32::MAX; n];
    let mut global: Vec<usize> = bodies.clone().collect();
    for (j, b) in bodies.clone().enumerate() {
        local[b] = j as u32;
    }
    for &i in &contacts {
        let o = s.other[i];
        if o != WORLD && local[o as usize] == u32::MAX {
            local[o as usize] = global.len() as u32;
            global.push(o as usize);
        }
    }
    let part = sub_scene(s, space, &global, &local, &contacts);
    drop(local);
    let model = numeric_scene(space, &part);
    let size = if space == Space::ThreeD { 6 } else { 3 };
    // Local velocity → global column, and each local body's inverse block.
    let system = assemble_without_contacts(&model);
    let mut column_of = Vec::with_capacity(system.dofs.len());
    let mut inverse = vec![None; global.len()];
    let mut blocks = system.mass.iter();
    for (j, &g) in global.iter().enumerate() {
        if part.fixed[j] {
            continue;
        }
        let block = blocks.next().expect("a mass block per moving body");
        debug_assert_eq!(block.size, size);
        column_of.extend((0..size).map(|k| (size * g + k, j)));
        inverse[j] = Some(invert(&block.matrix, size).ok_or(SliceError::MassBlock { body: g })?);
    }
    let owned = bodies.len();
    let mut inverse_mass = vec![0.0; owned * size * size];
    for (j, m) in inverse[..owned].iter().enumerate() {
        if let Some(m) = m {
            inverse_mass[j * size * size..(j + 1) * size * size].copy_from_slice(m);
        }
    }
    let (row_start, column, value, a) = rows(&model, &column_of, &inverse, size);
    Ok(SceneSlice {
        bodies,
        size,
        n_bodies: n,
        n_contacts: s.n_contacts(),
        stiffness: contacts.iter().map(|&i| s.stiffness[i]).collect(),
        contacts,
        row_start,
        column,
        value,
        a,
        inverse_mass,
    })
}

/// The scene of the part's `global` bodies (local numbering `local`) and
/// its `contacts`, columns copied as they are.
fn sub_scene(
    s: &SceneData,
    space: Space,
    global: &[usize],
    local: &[u32],
    contacts: &[usize],
) -> SceneData {
    let d = space.dim();
    let per = |v: &[f64], k: usize, rows: &[usize]| -> Vec<f64> {
        rows.iter()
            .flat_map(|&r| v[k * r..k * r + k].iter().copied())
            .collect()
    };
    let inertia_width = if d == 3 { 6 } else { 1 };
    SceneData {
        mass: global.iter().map(|&b| s.mass[b]).collect(),
        position: per(&s.position, d, global),
        inertia: per(&s.inertia, inertia_width, global),
        fixed: global.iter().map(|&b| s.fixed[b]).collect(),
        body_names: None,
        body: contacts
            .iter()
            .map(|&i| local[s.body[i] as usize])
            .collect(),
        other: contacts
            .iter()
            .map(|&i| match s.other[i] {
                WORLD => WORLD,
                o => local[o as usize],
            })
            .collect(),
        point: per(&s.point, d, contacts),
        normal: per(&s.normal, d, contacts),
        stiffness: contacts.iter().map(|&i| s.stiffness[i]).collect(),
        damping: None,
        tangential: None,
        contact_names: None,
        image: s.image.as_ref().map(|v| per(v, d, contacts)),
    }
}

/// `M⁻¹` of a positive-definite `size × size` block: `L⁻ᵀ L⁻¹`.
fn invert(m: &[f64], size: usize) -> Option<Vec<f64>> {
    let mut l = m.to_vec();
    if !cholesky_in_place(&mut l, size) {
        return None;
    }
    // Column j of L⁻¹ into row j of `li` (so `li` holds (L⁻¹)ᵀ).
    let mut li = vec![0.0; size * size];
    for j in 0..size {
        let col = &mut li[j * size..(j + 1) * size];
        col[j] = 1.0;
        forward(&l, size, col);
    }
    let mut out = vec![0.0; size * size];
    for i in 0..size {
        for j in 0..size {
            out[i * size + j] = (0..size).map(|k| li[i * size + k] * li[j * size + k]).sum();
        }
    }
    Some(out)
}

/// The part's rows in CSR with global columns, and each row's A_ii;
/// `column_of` maps a local velocity to its global column and local body.
fn rows(
    model: &Model<f64>,
    column_of: &[(usize, usize)],
    inverse: &[Option<Vec<f64>>],
    size: usize,
) -> (Vec<usize>, Vec<usize>, Vec<f64>, Vec<f64>) {
    let rows = ContactRows::new(model);
    let mut row_start = Vec::with_capacity(rows.len() + 1);
    row_start.push(0);
    let (mut column, mut value, mut a) = (Vec::new(), Vec::new(), Vec::new());
    let (mut row, mut entries) = (Vec::new(), Vec::new());
    for i in 0..rows.len() {
        rows.row_into(i, &mut row);
        // Local columns increase with the local body, so do global ones
        // within a body; sort the (at most two) bodies' runs globally.
        entries.clear();
        entries.extend(row.iter().map(|&(c, v)| (column_of[c], v)));
        entries.sort_by_key(|&((c, _), _)| c);
        let mut aii = 0.0;
        for run in entries.chunk_by(|x, y| x.0.1 == y.0.1) {
            let m = inverse[run[0].0.1].as_ref().expect("a moving body's block");
            for &((ci, _), vi) in run {
                for &((cj, _), vj) in run {
                    aii += vi * m[(ci % size) * size + cj % size] * vj;
                }
            }
        }
        a.push(aii);
        column.extend(entries.iter().map(|e| e.0.0));
        value.extend(entries.iter().map(|e| e.1));
        row_start.push(column.len());
    }
    (row_start, column, value, a)
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

    #[test]
    fn parts_cover_the_scene_and_give_the_whole_scenes_rows_and_a() {
        let s = scene();
        let whole = scene_slice(&s, Space::ThreeD, 0..4).unwrap();
        // A_ii from the whole model's dense mass matrix, independently.
        let model = numeric_scene(Space::ThreeD, &s);
        let system = super::super::assemble(&model);
        let m = nalgebra::DMatrix::from_row_slice(18, 18, &system.dense_mass().concat());
        let minv = m.try_inverse().unwrap();
        for (k, &i) in whole.contacts.iter().enumerate() {
            let j = nalgebra::DVector::from_vec(system.dense_row(&system.jacobian[i]));
            let want = (j.transpose() * &minv * &j)[0];
            assert!(
                (whole.a[k] - want).abs() < 1e-13 * want,
                "{} {want}",
                whole.a[k]
            );
        }
        let mut seen = Vec::new();
        for p in 0..3 {
            let part = scene_slice(&s, Space::ThreeD, body_range(4, p, 3)).unwrap();
            for (k, &i) in part.contacts.iter().enumerate() {
                let w = whole.contacts.iter().position(|&x| x == i).unwrap();
                let r = part.row_start[k]..part.row_start[k + 1];
                let rw = whole.row_start[w]..whole.row_start[w + 1];
                assert_eq!(part.column[r.clone()], whole.column[rw.clone()]);
                assert_eq!(part.value[r], whole.value[rw]);
                assert_eq!(part.a[k], whole.a[w]);
                seen.push(i);
            }
            let owned = part.bodies.clone();
            let block = 36;
            assert_eq!(
                part.inverse_mass[..],
                whole.inverse_mass[owned.start * block..owned.end * block]
            );
        }
        seen.sort();
        assert_eq!(seen, vec![0, 1, 2, 3]);
        // The fixed body: no columns, a zero block.
        assert!(whole.column.iter().all(|&c| c / 6 != 3));
        assert!(whole.inverse_mass[3 * 36..].iter().all(|&v| v == 0.0));
        // M⁻¹ M = I for the full tensor.
        let b = &whole.inverse_mass[36..72];
        let mb = &system.mass[1].matrix;
        for i in 0..6 {
            for j in 0..6 {
                let v: f64 = (0..6).map(|k| b[i * 6 + k] * mb[k * 6 + j]).sum();
                assert!((v - f64::from(i == j)).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn ranges_split_evenly_and_bad_ranges_are_refused() {
        let r: Vec<_> = (0..3).map(|p| body_range(10, p, 3)).collect();
        assert_eq!(r, vec![0..3, 3..6, 6..10]);
        assert_eq!(body_range(2, 3, 4), 1..2);
        let e = scene_slice(&scene(), Space::ThreeD, 2..9).unwrap_err();
        assert_eq!(
            e.to_string(),
            "bodies 2..9 are not within the scene's 4 bodies"
        );
    }
}
