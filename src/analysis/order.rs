//! The order in which the large path stores the contacts' rows of S.
//!
//! A product with S gathers, for each row, the vector at the contacts that
//! share a body with it. When those sit close to the row in the contact
//! list (a packing written body by body) the gathers hit the cache and
//! nearly every column fits the 16-bit offsets of [`LocalCsr`]; when a
//! simulator lists its contacts in an arbitrary order (a broad phase's
//! pair order, a shuffle) neither holds: at 10⁵ bodies a product took
//! 12 ms instead of 4.5 (benches/results/scale.md). Such a list is stored
//! in the order of its contact points along a Morton (Z-order) curve
//! instead, which puts contacts that share a body next to each other.
//!
//! The choice is made from the list itself, before S is built: the share
//! of pairs of contacts on one body that lie more than 32,767 apart (the
//! entries an `i16` offset cannot reach). Above [`FAR_SHARE`] the curve
//! order is measured the same way and taken when it does better. The given
//! order is kept otherwise, so cases written body by body are stored as
//! they are. Either way the order is a function of the case alone, and
//! every result is reported per contact as given.
//!
//! [`LocalCsr`]: super::local_csr::LocalCsr

use crate::model::{BodyKind, Geometry, Kind, Model};

/// Share of far pairs above which the curve order is tried.
pub const FAR_SHARE: f64 = 0.05;

/// Entries farther than this from the diagonal are "far".
const REACH: u32 = i16::MAX as u32;

/// A storage order of the contacts: the contact of each row and the row of
/// each contact.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowOrder {
    contact: Vec<u32>,
    row: Vec<u32>,
}

impl RowOrder {
    /// The order whose row r holds contact `contact[r]` (a permutation).
    pub fn new(contact: Vec<u32>) -> RowOrder {
        let mut row = vec![0u32; contact.len()];
        for (r, &i) in contact.iter().enumerate() {
            row[i as usize] = r as u32;
        }
        RowOrder { contact, row }
    }

    /// The contact stored as row `r`.
    pub fn contact(&self, r: usize) -> usize {
        self.contact[r] as usize
    }

    /// The row of contact `i`.
    pub fn row(&self, i: usize) -> usize {
        self.row[i] as usize
    }

    /// Per-contact values `v` in row order (row r gets `v[contact(r)]`).
    pub fn to_rows(&self, v: &[f64]) -> Vec<f64> {
        self.contact.iter().map(|&i| v[i as usize]).collect()
    }

    /// Per-row values `v` back in contact order (contact i gets
    /// `v[row(i)]`).
    pub fn to_contacts(&self, v: &[f64]) -> Vec<f64> {
        self.row.iter().map(|&r| v[r as usize]).collect()
    }
}

/// The storage order for a body-form model when it beats the given one,
/// else `None`.
pub fn contact_order(model: &Model<f64>) -> Option<RowOrder> {
    let Kind::Bodies { bodies, .. } = &model.kind else {
        return None;
    };
    let c = model.contacts.len();
    if c <= REACH as usize || c > u32::MAX as usize {
        return None;
    }
    let moving = |b: usize| !matches!(bodies[b].kind, BodyKind::Fixed);
    if !model
        .contacts
        .iter()
        .all(|k| matches!(k.geometry, Geometry::Point { .. }))
    {
        return None;
    }
    let point = |i: usize| match &model.contacts[i].geometry {
        Geometry::Point { point, .. } => point.as_slice(),
        _ => unreachable!("every contact is a point (checked above)"),
    };
    let d = point(0).len();
    let sides = |i: usize| match &model.contacts[i].geometry {
        Geometry::Point { body, other, .. } => {
            [Some(*body), *other].map(|b| b.filter(|&b| moving(b)))
        }
        _ => [None, None],
    };
    let (start, list) = body_lists(bodies.len(), &sides, c);
    let given = far_share(&start, &list, None);
    if given <= FAR_SHARE {
        return None;
    }
    let order = RowOrder::new(curve_order(c, d, point));
    (far_share(&start, &list, Some(&order.row)) < given).then_some(order)
}

/// The contacts of each of `n` bodies, increasing: body b's are
/// `list[start[b]..start[b + 1]]`; `sides(i)` is contact i's moving bodies
/// (a counting sort: at 10⁶ bodies a comparison sort of the pairs cost
/// 0.3 s).
fn body_lists(
    n: usize,
    sides: &dyn Fn(usize) -> [Option<usize>; 2],
    c: usize,
) -> (Vec<usize>, Vec<u32>) {
    let mut start = vec![0usize; n + 1];
    for i in 0..c {
        for b in sides(i).into_iter().flatten() {
            start[b + 1] += 1;
        }
    }
    for b in 0..n {
        start[b + 1] += start[b];
    }
    let mut list = vec![0u32; start[n]];
    let mut next = start.clone();
    for i in 0..c {
        for b in sides(i).into_iter().flatten() {
            list[next[b]] = i as u32;
            next[b] += 1;
        }
    }
    (start, list)
}

/// The storage order for a scene's columns when it beats the given one,
/// else `None`: [`contact_order`]'s rule on the columns (the pipeline's
/// columnar route, `scene_large.rs`), so a scene gets the order its model
/// would get.
pub fn scene_order(s: &crate::case::scene::SceneData) -> Option<RowOrder> {
    use crate::case::scene::WORLD;
    let c = s.n_contacts();
    if c <= REACH as usize || c > u32::MAX as usize {
        return None;
    }
    let moving = |b: u32| (b != WORLD && !s.fixed[b as usize]).then_some(b as usize);
    let sides = |i: usize| [moving(s.body[i]), moving(s.other[i])];
    let (start, list) = body_lists(s.n_bodies(), &sides, c);
    let given = far_share(&start, &list, None);
    if given <= FAR_SHARE {
        return None;
    }
    let d = s.point.len() / c;
    let order = RowOrder::new(curve_order(c, d, |i| &s.point[d * i..d * i + d]));
    (far_share(&start, &list, Some(&order.row)) < given).then_some(order)
}

/// The share of pairs of contacts on one body whose rows are more than
/// [`REACH`] apart: body b's contacts are `list[start[b]..start[b + 1]]`
/// (increasing), row `rank[i]` of contact i (i itself without a rank).
/// Linear in the contacts per body, by two pointers over each sorted list.
fn far_share(start: &[usize], list: &[u32], rank: Option<&[u32]>) -> f64 {
    let (mut far, mut pairs) = (0u64, 0u64);
    let mut ranked: Vec<u32> = Vec::new();
    for w in start.windows(2) {
        let rows: &[u32] = match rank {
            None => &list[w[0]..w[1]],
            Some(r) => {
                ranked.clear();
                ranked.extend(list[w[0]..w[1]].iter().map(|&i| r[i as usize]));
                ranked.sort_unstable();
                &ranked
            }
        };
        let n = rows.len() as u64;
        pairs += n * n.saturating_sub(1) / 2;
        let mut lo = 0;
        for q in 0..rows.len() {
            while rows[q] - rows[lo] > REACH {
                lo += 1;
            }
            far += lo as u64;
        }
    }
    if pairs == 0 {
        0.0
    } else {
        far as f64 / pairs as f64
    }
}

/// The `n` contacts sorted by the Morton key of their points (`point(i)`,
/// `d` coordinates; scaled to the points' bounding box), ties in list
/// order.
fn curve_order<'a>(n: usize, d: usize, point: impl Fn(usize) -> &'a [f64]) -> Vec<u32> {
    let d = d.clamp(1, 3);
    let bits = 63 / d as u32;
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    for p in (0..n).map(&point) {
        for k in 0..d {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let top = ((1u64 << bits) - 1) as f64;
    let mut keyed: Vec<(u64, u32)> = (0..n)
        .map(|i| {
            let p = point(i);
            let mut key = 0u64;
            for k in 0..d {
                let span = hi[k] - lo[k];
                let t = if span > 0.0 {
                    (p[k] - lo[k]) / span
                } else {
                    0.0
                };
                let q = (t * top).clamp(0.0, top) as u64;
                for b in 0..bits {
                    key |= ((q >> b) & 1) << (d as u32 * b + k as u32);
                }
            }
            (key, i as u32)
        })
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, i)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn far_pairs_are_counted_per_body() {
        // Body 0: contacts at rows 0, 10, 40,000 (two far pairs of three);
        // body 1: rows 5, 6 (none).
        let (start, list) = (vec![0, 3, 5], vec![0, 1, 2, 3, 4]);
        let rank = vec![40_000, 0, 10, 5, 6];
        assert_eq!(far_share(&start, &list, Some(&rank)), 2.0 / 4.0);
        assert_eq!(far_share(&start, &list, None), 0.0);
        let (start, list) = (vec![0, 2], vec![1, 50_000]);
        assert_eq!(far_share(&start, &list, None), 1.0);
    }

    #[test]
    fn the_curve_puts_near_points_together() {
        // Points on a line in shuffled list order come out sorted.
        let xs = [5.0, 1.0, 4.0, 0.0, 3.0, 2.0];
        let pts: Vec<Vec<f64>> = xs.iter().map(|&x| vec![x, 0.0, 0.0]).collect();
        let order = curve_order(pts.len(), 3, |i| pts[i].as_slice());
        assert_eq!(order, vec![3, 1, 5, 4, 2, 0]);
    }
}
