//! The large path straight from a scene's columns (issue 41): S, √k and
//! A_ii built from the bodies' masses and inertias and the contacts'
//! points and normals, with no `Model`, no `System` and no whitened copy
//! of J by rows.
//!
//! The pipeline's large path builds a `Model` (a `Body` and a `Contact`
//! object each, ≈0.87 KB a body at three contacts a body) and a `System`
//! (six named velocities and a 6×6 mass block a body, ≈0.64 KB) before the
//! rows are made; here a row is made from the columns, whitened by its
//! bodies' compact mass forms (√m three times, then √I or the 3×3 factor
//! of the inertia; [`block_whiten`](super::block_whiten)) and written
//! straight into its bodies' segments, from which [`Segments::gram`]
//! forms S as the pipeline does. The arithmetic is the pipeline's, step
//! for step (the Jacobian entries of `model::assemble`'s `point_rate`,
//! the whitening, the sum for A_ii in column order), so S has the same
//! bits (tested on a packing against the pipeline's path). Rows are
//! stored in the order the model path would store them (`order.rs`: the
//! given order, or along a Morton curve of the points when the given list
//! is scattered), so the two paths agree on scattered lists too.
//!
//! What stays in memory is the scene's columns (81 B a body, 64 B a
//! contact), the segments (96 B a contact in 3-d) and S: the scale
//! benchmark's core at 10⁷ bodies (`benches/scale_core.rs`).

use super::block_whiten::substitute;
use super::coupled::Coupled;
use super::large::Segments;
use super::large_analysis::{ContactColumns, velocities};
use super::order::{RowOrder, scene_order};
use super::{Analysis, AnalysisError, LargeModes};
use crate::case::Space;
use crate::case::scene::{SceneData, WORLD};
use crate::linalg::cholesky_in_place;

/// Body `b`'s side of contact `i`'s whitened row into `x` (its
/// velocities), negated for the contact's `other` body.
pub(super) fn whitened_side(
    s: &SceneData,
    space: Space,
    i: usize,
    b: usize,
    negate: bool,
    x: &mut [f64],
) {
    let d = space.dim();
    let sign = |v: f64| if negate { -v } else { v };
    let n = &s.normal[d * i..d * i + d];
    // Across a periodic boundary the other body's lever arm is to its
    // image: the point less the shift (as `model::assemble` does; a zero
    // shift leaves the point's bits).
    let mut p = [0.0f64; 3];
    p[..d].copy_from_slice(&s.point[d * i..d * i + d]);
    if negate && let Some(image) = &s.image {
        for k in 0..d {
            p[k] -= image[d * i + k];
        }
    }
    let c = &s.position[d * b..d * b + d];
    // `0.0 + v` as the pipeline accumulates a row into a zeroed block.
    for k in 0..d {
        x[k] = 0.0 + sign(n[k]);
    }
    let r: [f64; 3] = std::array::from_fn(|k| if k < d { p[k] - c[k] } else { 0.0 });
    let m = s.mass[b];
    if space == Space::ThreeD {
        let rxn = [
            r[1] * n[2] - r[2] * n[1],
            r[2] * n[0] - r[0] * n[2],
            r[0] * n[1] - r[1] * n[0],
        ];
        for k in 0..3 {
            x[3 + k] = 0.0 + sign(rxn[k]);
        }
        for v in &mut x[..3] {
            *v /= m.sqrt();
        }
        let t = &s.inertia[6 * b..6 * b + 6];
        if t[3] == 0.0 && t[4] == 0.0 && t[5] == 0.0 {
            for k in 0..3 {
                x[3 + k] /= t[k].sqrt();
            }
        } else {
            let mut l = [t[0], t[3], t[4], t[3], t[1], t[5], t[4], t[5], t[2]];
            cholesky_in_place(&mut l, 3);
            substitute(&l, 3, &mut x[3..6]);
        }
    } else {
        x[2] = 0.0 + sign(r[0] * n[1] - r[1] * n[0]);
        x[0] /= m.sqrt();
        x[1] /= m.sqrt();
        x[2] /= s.inertia[b].sqrt();
    }
}

/// S, √k and A_ii of a scene on the large path (contacts in the scene's
/// order). Errors as the pipeline's: a mass block that is not positive
/// definite (the scene reader has refused those already), a row or an
/// entry of S out of range.
pub fn coupled(s: &SceneData, space: Space) -> Result<Coupled, AnalysisError> {
    let order = scene_order(s);
    let (segments, diag) = ordered_segments(s, space, order.as_ref())?;
    finish(segments, diag, &s.stiffness, order)
}

/// [`coupled`], freeing the scene's geometry and mass columns
/// ([`SceneData::release_geometry`]) once the rows are made, before S is
/// formed: at 10⁷ bodies that is 2.5 GB less at the peak.
pub fn coupled_releasing(s: &mut SceneData, space: Space) -> Result<Coupled, AnalysisError> {
    let order = scene_order(s);
    let (segments, diag) = ordered_segments(s, space, order.as_ref())?;
    s.release_geometry();
    finish(segments, diag, &s.stiffness, order)
}

/// [`segments`] with rows in `order`; on an error, the first failing
/// contact in contact order (as the model path reports it: failures are
/// rare, so look again in contact order).
fn ordered_segments(
    s: &SceneData,
    space: Space,
    order: Option<&RowOrder>,
) -> Result<(Segments, Vec<f64>), AnalysisError> {
    match segments(s, space, order) {
        Err(AnalysisError::Cancelled) => Err(AnalysisError::Cancelled),
        Err(_) if order.is_some() => segments(s, space, None),
        done => done,
    }
}

/// J̃ by mass blocks (row r is contact `order[r]`), and A_ii in contact
/// order.
fn segments(
    s: &SceneData,
    space: Space,
    order: Option<&RowOrder>,
) -> Result<(Segments, Vec<f64>), AnalysisError> {
    let contact = |r: usize| order.map_or(r, |o| o.contact(r));
    let (nbody, c) = (s.n_bodies(), s.n_contacts());
    let size = velocities(space);
    // Each moving body's block (u32::MAX: fixed).
    let mut block = vec![u32::MAX; nbody];
    let mut nb = 0usize;
    for (b, slot) in block.iter_mut().enumerate() {
        if !s.fixed[b] {
            *slot = nb as u32;
            nb += 1;
        }
    }
    // A contact's sides as (block, body, negate), blocks increasing.
    let sides = |i: usize| {
        let one = |b: u32, negate: bool| {
            (b != WORLD && block[b as usize] != u32::MAX)
                .then(|| (block[b as usize], b as usize, negate))
        };
        let (a, o) = (one(s.body[i], false), one(s.other[i], true));
        let mut out = [a, o];
        if let [Some(x), Some(y)] = out
            && y.0 < x.0
        {
            out = [Some(y), Some(x)];
        }
        out.into_iter().flatten()
    };
    let mut row_start = Vec::with_capacity(c + 1);
    row_start.push(0usize);
    let mut row_block: Vec<u32> = Vec::with_capacity(2 * c);
    let mut bstart = vec![0usize; nb + 1];
    for i in (0..c).map(contact) {
        for (bl, _, _) in sides(i) {
            row_block.push(bl);
            bstart[bl as usize + 1] += 1;
        }
        row_start.push(row_block.len());
    }
    for b in 0..nb {
        bstart[b + 1] += bstart[b];
    }
    let voff: Vec<usize> = bstart.iter().map(|&k| k * size).collect();
    let mut seg_row = vec![0u32; bstart[nb]];
    let mut vals = vec![0.0f64; voff[nb]];
    let mut next = bstart.clone();
    let mut diag = Vec::with_capacity(c);
    let mut row: Vec<(usize, f64)> = Vec::with_capacity(2 * size);
    let mut x = [0.0f64; 6];
    for r in 0..c {
        // The caller's stop request, every 2¹⁶ rows (≈1 ms of this loop).
        if r % (1 << 16) == 0 && crate::control::cancelled() {
            return Err(AnalysisError::Cancelled);
        }
        let i = contact(r);
        row.clear();
        for (bl, b, negate) in sides(i) {
            let bl = bl as usize;
            let x = &mut x[..size];
            whitened_side(s, space, i, b, negate, x);
            let at = next[bl];
            next[bl] += 1;
            seg_row[at] = r as u32;
            let v = voff[bl] + (at - bstart[bl]) * size;
            vals[v..v + size].copy_from_slice(x);
            row.extend(
                x.iter()
                    .enumerate()
                    .filter(|(_, v)| **v != 0.0)
                    .map(|(k, v)| (bl * size + k, *v)),
            );
        }
        let d: f64 = row.iter().map(|(_, v)| v * v).sum();
        super::check_range(i, &row, d, std::iter::empty())?;
        diag.push(d);
    }
    drop(next);
    // A_ii back in contact order.
    if let Some(o) = order {
        diag = o.to_contacts(&diag);
    }
    crate::timing::mark("whiten-rows");
    let segments = Segments {
        row_start,
        row_block,
        bstart,
        voff,
        seg_row,
        vals,
        size_of: vec![size as u32; nb],
    };
    Ok((segments, diag))
}

/// S from the segments (rows in `order`), with √k.
fn finish(
    segments: Segments,
    diag: Vec<f64>,
    stiffness: &[f64],
    order: Option<RowOrder>,
) -> Result<Coupled, AnalysisError> {
    let sqrt_k: Vec<f64> = stiffness.iter().map(|k| k.sqrt()).collect();
    let contact = |r: usize| order.as_ref().map_or(r, |o| o.contact(r));
    let s = match &order {
        None => segments.gram(&sqrt_k),
        Some(o) => segments.gram(&o.to_rows(&sqrt_k)),
    };
    crate::timing::mark("gram");
    if let Some((r, v)) = s.first_non_finite() {
        return Err(AnalysisError::OutOfRange {
            contact: contact(r),
            what: format!("an entry of K^½ A K^½ is {v}"),
        });
    }
    Ok(Coupled {
        s,
        sqrt_k,
        diag,
        order,
    })
}

/// The large path's analysis of a scene straight from its columns (the
/// pipeline's route for large scenes, `pipeline::scene`): S, √k and A_ii
/// as [`coupled`] makes them, the fastest modes, bounds and steps as the
/// model path's, the per-contact results as [`ContactColumns`]. The
/// scene's positions, inertias, points, normals and images are freed once
/// the rows are made (masses, bodies, stiffness and damping stay: the
/// springs' check reads them). The caller's stop request is read every
/// 2¹⁶ rows, before and after S is formed and at every Lanczos step.
pub fn analyze(
    s: &mut SceneData,
    space: Space,
    want: LargeModes,
) -> Result<Analysis, AnalysisError> {
    let stop = || {
        if crate::control::cancelled() {
            Err(AnalysisError::Cancelled)
        } else {
            Ok(())
        }
    };
    let columns = ContactColumns::of(s, space);
    let order = scene_order(s);
    crate::timing::mark("order");
    let (segments, diag) = ordered_segments(s, space, order.as_ref())?;
    for v in [&mut s.position, &mut s.inertia, &mut s.point, &mut s.normal] {
        *v = Vec::new();
    }
    s.image = None;
    stop()?;
    let coupled = finish(segments, diag, &s.stiffness, order)?;
    stop()?;
    let an = super::large_analysis(coupled, Vec::new(), Some(columns), None, want);
    stop()?;
    Ok(an)
}
