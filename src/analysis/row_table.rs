//! Every contact row's results and every tangential contact's block of A,
//! kept as columns.
//!
//! One [`RowResult`] a row (with its direction on the heap) and one
//! [`ContactBlock`] a contact (nested vectors) were about 130 and 270
//! bytes: 1.2 GB and 0.8 GB for a packing of 10⁶ spheres with tangential
//! springs (3·10⁶ contacts, 9·10⁶ rows), more than the answer itself. Here
//! a row keeps what cannot be derived — its direction, stiffness, dashpot
//! (only when some row has one), `A_ii` and whether it can move — about
//! 42 bytes; a contact its first row; a block its strictly upper entries
//! (the diagonal is the rows' `A_ii`; A is exactly symmetric on both
//! paths). `m_eff = 1/A_ii`, `ω = √(k A_ii)` and the couplings
//! `A_nt/√(A_nn A_tt)` are formed when asked, by the formulas the structs
//! were filled with, so the bits are those of the structs.

use crate::model::{Direction, RowOf};
use std::ops::Range;

/// One contact row.
#[derive(Clone, Debug, PartialEq)]
pub struct RowResult {
    /// Contact and direction.
    pub of: RowOf,
    /// The row's unit direction in world axes.
    pub direction: Vec<f64>,
    /// Stiffness of the row.
    pub stiffness: f64,
    /// Damping of the row, if any.
    pub damping: Option<f64>,
    /// `A_ii` of the row.
    pub a: f64,
    /// `1/A_ii`, `None` when the row cannot move.
    pub m_eff: Option<f64>,
    /// `√(k A_ii)`.
    pub omega: f64,
}

/// A contact with a tangential spring: its block of A.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactBlock {
    /// Contact index.
    pub contact: usize,
    /// Index of its normal row in `Tangential::rows`; its tangent rows
    /// follow.
    pub first_row: usize,
    /// The block of A over its rows (normal first), row-major.
    pub block: Vec<Vec<f64>>,
    /// Per tangent row: `A_nt / √(A_nn A_tt)` (0 when either row is immobile).
    pub coupling: Vec<f64>,
}

/// Every row, contact by contact (normal, then its tangents).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowTable {
    /// Contact i's rows: `first[i] .. first[i + 1]` (one more than contacts).
    first: Vec<usize>,
    /// Each row's unit direction in world axes (its first
    /// `direction_len` components).
    direction: Vec<[f64; 3]>,
    direction_len: Vec<u8>,
    stiffness: Vec<f64>,
    /// Each row's dashpot; `None` when no row has one.
    damping: Option<Vec<Option<f64>>>,
    a: Vec<f64>,
    /// `false`: the row cannot move (`m_eff` is `None`).
    mobile: Vec<bool>,
}

/// The columns a [`RowTable`] is made from, each a row (contact by
/// contact).
pub struct RowColumns {
    /// Contact i's rows: `first[i] .. first[i + 1]`.
    pub first: Vec<usize>,
    /// Each row's stiffness.
    pub stiffness: Vec<f64>,
    /// Each row's dashpot (`None` when no row has one: see [`dashpots`]).
    pub damping: Option<Vec<Option<f64>>>,
    /// Each row's `A_ii`.
    pub a: Vec<f64>,
    /// Whether each row can move.
    pub mobile: Vec<bool>,
}

/// Each row's dashpot, or `None` when no row has one.
pub fn dashpots(c: Vec<Option<f64>>) -> Option<Vec<Option<f64>>> {
    c.iter().any(Option::is_some).then_some(c)
}

/// The first row of each contact (one more than contacts) from the rows'
/// contacts (contact by contact, every contact at least one row).
pub fn first_rows(of: impl Iterator<Item = RowOf>) -> Vec<usize> {
    let mut first = Vec::new();
    let mut n = 0;
    for (r, o) in of.enumerate() {
        if o.contact == first.len() {
            first.push(r);
        }
        debug_assert_eq!(o.contact + 1, first.len(), "rows contact by contact");
        n = r + 1;
    }
    first.push(n);
    first
}

impl RowTable {
    /// The table of `columns`, with row r's direction `direction(of(r))`
    /// (at most three components).
    pub fn new(columns: RowColumns, direction: impl Fn(RowOf) -> Vec<f64>) -> RowTable {
        let RowColumns {
            first,
            stiffness,
            damping,
            a,
            mobile,
        } = columns;
        let n = a.len();
        assert!(
            stiffness.len() == n && mobile.len() == n && first.last() == Some(&n),
            "one value a row"
        );
        let mut table = RowTable {
            first,
            direction: Vec::with_capacity(n),
            direction_len: Vec::with_capacity(n),
            stiffness,
            damping,
            a,
            mobile,
        };
        for r in 0..n {
            let d = direction(table.of(r));
            let mut x = [0.0; 3];
            x[..d.len()].copy_from_slice(&d);
            table.direction.push(x);
            table.direction_len.push(d.len() as u8);
        }
        table
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.a.len()
    }

    /// True without rows.
    pub fn is_empty(&self) -> bool {
        self.a.is_empty()
    }

    /// Number of contacts.
    pub fn contacts(&self) -> usize {
        self.first.len().saturating_sub(1)
    }

    /// The rows of `contact` (its normal row first).
    pub fn rows_of(&self, contact: usize) -> Range<usize> {
        self.first[contact]..self.first[contact + 1]
    }

    /// Row `row`'s contact and direction.
    pub fn of(&self, row: usize) -> RowOf {
        let contact = self.first.partition_point(|&f| f <= row) - 1;
        let k = row - self.first[contact];
        RowOf {
            contact,
            direction: match k {
                0 => Direction::Normal,
                k => Direction::Tangent((k - 1) as u8),
            },
        }
    }

    /// Every row's stiffness.
    pub fn stiffness(&self) -> &[f64] {
        &self.stiffness
    }

    /// Every row's `A_ii`.
    pub fn a(&self) -> &[f64] {
        &self.a
    }

    /// Whether some row has a dashpot.
    pub fn any_damping(&self) -> bool {
        self.damping.is_some()
    }

    /// Row `row`'s dashpot.
    pub fn damping(&self, row: usize) -> Option<f64> {
        self.damping.as_ref().and_then(|c| c[row])
    }

    /// `1/A_ii`, `None` when the row cannot move.
    pub fn m_eff(&self, row: usize) -> Option<f64> {
        self.mobile[row].then(|| 1.0 / self.a[row])
    }

    /// `√(k A_ii)`.
    pub fn omega(&self, row: usize) -> f64 {
        (self.stiffness[row] * self.a[row]).sqrt()
    }

    /// Row `row`'s unit direction in world axes.
    pub fn direction(&self, row: usize) -> &[f64] {
        &self.direction[row][..self.direction_len[row] as usize]
    }

    /// Row `row`'s results.
    pub fn get(&self, row: usize) -> RowResult {
        RowResult {
            of: self.of(row),
            direction: self.direction(row).to_vec(),
            stiffness: self.stiffness[row],
            damping: self.damping(row),
            a: self.a[row],
            m_eff: self.m_eff(row),
            omega: self.omega(row),
        }
    }

    /// Every row's results, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = RowResult> + '_ {
        (0..self.len()).map(|r| self.get(r))
    }
}

/// The blocks of A of the contacts with more than one row (a tangential
/// spring), in contact order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockTable {
    /// Their contacts.
    contact: Vec<usize>,
    /// Where each block's strictly upper entries start in `upper` (one
    /// more than blocks).
    start: Vec<usize>,
    /// Each block's strictly upper entries, row-major.
    upper: Vec<f64>,
}

impl BlockTable {
    /// The blocks of the contacts whose rows are `first[i] .. first[i + 1]`
    /// (more than one), entry (p, q) of A (p < q, rows) from `entry`.
    pub fn new(first: &[usize], entry: impl Fn(usize, usize) -> f64) -> BlockTable {
        let mut t = BlockTable {
            contact: Vec::new(),
            start: vec![0],
            upper: Vec::new(),
        };
        for (i, w) in first.windows(2).enumerate() {
            let r = w[0]..w[1];
            if r.len() < 2 {
                continue;
            }
            t.contact.push(i);
            for p in r.clone() {
                for q in p + 1..r.end {
                    t.upper.push(entry(p, q));
                }
            }
            t.start.push(t.upper.len());
        }
        t
    }

    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.contact.len()
    }

    /// True without blocks.
    pub fn is_empty(&self) -> bool {
        self.contact.is_empty()
    }

    /// Block j's contact.
    pub fn contact(&self, j: usize) -> usize {
        self.contact[j]
    }

    /// Block j with its rows' diagonal from `rows`, and its couplings
    /// `A_nt/√(A_nn A_tt)` (0 when either row is immobile).
    pub fn get(&self, j: usize, rows: &RowTable) -> ContactBlock {
        let contact = self.contact[j];
        let r = rows.rows_of(contact);
        let (n, m) = (r.start, r.len());
        let upper = &self.upper[self.start[j]..self.start[j + 1]];
        // Entry (p, q), p < q, of an m×m block's strict upper triangle.
        let at = |p: usize, q: usize| upper[p * m - p * (p + 1) / 2 + (q - p - 1)];
        let block: Vec<Vec<f64>> = (0..m)
            .map(|p| {
                (0..m)
                    .map(|q| match p.cmp(&q) {
                        std::cmp::Ordering::Equal => rows.a[n + p],
                        std::cmp::Ordering::Less => at(p, q),
                        std::cmp::Ordering::Greater => at(q, p),
                    })
                    .collect()
            })
            .collect();
        let coupling = (1..m)
            .map(|t| {
                let den = (rows.a[n] * rows.a[n + t]).sqrt();
                if den > 0.0 { block[0][t] / den } else { 0.0 }
            })
            .collect();
        ContactBlock {
            contact,
            first_row: n,
            block,
            coupling,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> RowTable {
        // Contact 0: a normal row only; contact 1: normal and two tangents.
        RowTable::new(
            RowColumns {
                first: vec![0, 1, 4],
                stiffness: vec![1.0, 2.0, 3.0, 3.0],
                damping: dashpots(vec![None, Some(0.5), None, None]),
                a: vec![4.0, 0.5, 0.25, 0.0],
                mobile: vec![true, true, true, false],
            },
            |of| vec![of.contact as f64, 1.0, 2.0][..2 + of.contact].to_vec(),
        )
    }

    #[test]
    fn rows_are_found_by_contact_and_direction() {
        let t = table();
        assert_eq!((t.len(), t.contacts()), (4, 2));
        assert_eq!(t.rows_of(1), 1..4);
        let of: Vec<RowOf> = (0..4).map(|r| t.of(r)).collect();
        assert_eq!(of[0].contact, 0);
        assert_eq!(of[1].direction, Direction::Normal);
        assert_eq!(of[3].direction, Direction::Tangent(1));
        assert_eq!(first_rows(of.into_iter()), vec![0, 1, 4]);
        let r = t.get(2);
        assert_eq!(
            (r.m_eff, r.omega, r.damping),
            (Some(4.0), 0.75f64.sqrt(), None)
        );
        assert_eq!(t.get(1).damping, Some(0.5));
        assert_eq!(t.get(3).m_eff, None);
        assert_eq!(t.direction(0), [0.0, 1.0]);
        assert_eq!(t.direction(3), [1.0, 1.0, 2.0]);
        assert!(dashpots(vec![None, None]).is_none());
    }

    #[test]
    fn blocks_keep_their_upper_triangle_and_mirror_it() {
        let t = table();
        let a = |p: usize, q: usize| 10.0 * p as f64 + q as f64;
        let b = BlockTable::new(&[0, 1, 4], a);
        assert_eq!((b.len(), b.contact(0)), (1, 1));
        let block = b.get(0, &t);
        assert_eq!(block.first_row, 1);
        for p in 0..3 {
            for q in 0..3 {
                let want = match p.cmp(&q) {
                    std::cmp::Ordering::Equal => t.a()[1 + p],
                    std::cmp::Ordering::Less => a(1 + p, 1 + q),
                    std::cmp::Ordering::Greater => a(1 + q, 1 + p),
                };
                assert_eq!(block.block[p][q], want, "({p}, {q})");
            }
        }
        assert_eq!(block.coupling[0], a(1, 2) / (0.5f64 * 0.25).sqrt());
        // An immobile row: no coupling.
        assert_eq!(block.coupling[1], 0.0);
    }
}
