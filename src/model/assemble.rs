//! Assembly of the mass matrix, contact Jacobian and constraint rows.
//!
//! Velocities per body: a particle has one velocity component per axis of
//! the space; a planar rigid body (vx, vy, ω); a 3-d rigid body (v, ω) in
//! world axes. The velocity of a body point p along a direction n is
//! `n·v + (r×n)·ω` with r = p − x, which gives both the contact rows
//! (n = contact normal) and the joint rows (n = each world axis).

use super::{Body, BodyKind, Geometry, Inertia, Kind, Model, Scalar};
use crate::case::Space;

/// One generalized velocity: its name (`block.x`, `block.θ`, `theta1`) and
/// the unit of its coordinate. A body's dofs share its name (one `Arc`)
/// and add a fixed axis suffix, so no string is formed per dof: at 10⁶
/// bodies one `String` per dof cost 770 MB and 1.8 s of assembly.
#[derive(Clone, Debug, PartialEq)]
pub struct Dof {
    /// The body's name, or the coordinate's whole name.
    owner: std::sync::Arc<str>,
    /// Axis suffix after a dot (`x`, `θz`), or empty.
    axis: &'static str,
    /// Coordinate unit (`m`, `rad`; shared, not one allocation per dof).
    pub unit: std::borrow::Cow<'static, str>,
}

impl Dof {
    /// A generalized coordinate named `name`.
    pub fn new(name: &str, unit: impl Into<std::borrow::Cow<'static, str>>) -> Dof {
        Dof {
            owner: name.into(),
            axis: "",
            unit: unit.into(),
        }
    }

    /// The name for reports: `body.axis`, or the coordinate's name.
    pub fn name(&self) -> String {
        if self.axis.is_empty() {
            self.owner.to_string()
        } else {
            format!("{}.{}", self.owner, self.axis)
        }
    }
}

/// A diagonal block of the mass matrix: `size` dofs from `offset`, stored
/// row-major.
#[derive(Clone, Debug)]
pub struct MassBlock<T> {
    /// First dof of the block.
    pub offset: usize,
    /// Number of dofs.
    pub size: usize,
    /// `size × size` entries, row-major.
    pub matrix: Vec<T>,
}

/// A sparse row: (dof index, coefficient), columns increasing.
pub type SparseRow<T> = Vec<(usize, T)>;

/// The assembled system: `M` (block diagonal), `J` (one row per contact),
/// `G` (one row per constraint equation).
#[derive(Clone, Debug)]
pub struct System<T> {
    /// Generalized velocities.
    pub dofs: Vec<Dof>,
    /// Mass matrix blocks, covering the dofs in order.
    pub mass: Vec<MassBlock<T>>,
    /// Contact Jacobian rows.
    pub jacobian: Vec<SparseRow<T>>,
    /// Constraint Jacobian rows.
    pub constraints: Vec<SparseRow<T>>,
}

impl<T: Scalar> System<T> {
    /// Number of generalized velocities.
    pub fn n_dofs(&self) -> usize {
        self.dofs.len()
    }

    /// The dense mass matrix (for small systems and reports).
    pub fn dense_mass(&self) -> Vec<Vec<T>> {
        let n = self.n_dofs();
        let mut m = vec![vec![T::zero(); n]; n];
        for b in &self.mass {
            for i in 0..b.size {
                for j in 0..b.size {
                    m[b.offset + i][b.offset + j] = b.matrix[i * b.size + j].clone();
                }
            }
        }
        m
    }

    /// A sparse row as a dense vector.
    pub fn dense_row(&self, row: &SparseRow<T>) -> Vec<T> {
        let mut out = vec![T::zero(); self.n_dofs()];
        for (j, v) in row {
            out[*j] = v.clone();
        }
        out
    }
}

/// Assembles M, J and G of a model.
pub fn assemble<T: Scalar>(model: &Model<T>) -> System<T> {
    let mut system = assemble_without_contacts(model);
    let rows = ContactRows::new(model);
    system.jacobian = (0..rows.len()).map(|i| rows.row(i)).collect();
    system
}

/// The system without its contact Jacobian rows (`jacobian` empty): the
/// large-system path computes the rows with [`ContactRows`]
/// instead of keeping one allocation per contact.
pub fn assemble_without_contacts<T: Scalar>(model: &Model<T>) -> System<T> {
    match &model.kind {
        Kind::Bodies { bodies, joints } => {
            let offsets = body_offsets(bodies, model.space);
            // Exact sizes: growing by doubling re-touched 30 MB at 10⁵ bodies.
            let n_dofs = bodies.last().map_or(0, |b| {
                offsets[bodies.len() - 1] + body_velocities(b, model.space)
            });
            let mut dofs = Vec::with_capacity(n_dofs);
            let mut mass = Vec::with_capacity(bodies.len());
            for (b, &offset) in bodies.iter().zip(&offsets) {
                if let Some(block) = body_block(b, model.space, offset) {
                    push_body_dofs(b, model.space, &mut dofs);
                    mass.push(block);
                }
            }
            let mut constraints = Vec::new();
            let dim = model.space.dim();
            for joint in joints {
                for axis in 0..dim {
                    let e: Vec<T> = (0..dim)
                        .map(|k| if k == axis { T::one() } else { T::zero() })
                        .collect();
                    let mut row = Vec::new();
                    point_rate(
                        &mut row,
                        &bodies[joint.body],
                        offsets[joint.body],
                        model.space,
                        &joint.point,
                        &e,
                        false,
                    );
                    if let Some(o) = joint.other {
                        point_rate(
                            &mut row,
                            &bodies[o],
                            offsets[o],
                            model.space,
                            &joint.point,
                            &e,
                            true,
                        );
                    }
                    tidy(&mut row);
                    constraints.push(row);
                }
            }
            System {
                dofs,
                mass,
                jacobian: Vec::new(),
                constraints,
            }
        }
        Kind::Generalized {
            coordinates,
            mass_matrix,
            constraints,
        } => {
            let n = coordinates.len();
            System {
                dofs: coordinates
                    .iter()
                    .map(|(name, unit)| Dof::new(name, unit.clone()))
                    .collect(),
                mass: vec![MassBlock {
                    offset: 0,
                    size: n,
                    matrix: mass_matrix.iter().flatten().cloned().collect(),
                }],
                jacobian: Vec::new(),
                constraints: constraints.iter().map(|r| dense_to_sparse(r)).collect(),
            }
        }
    }
}

/// A dense row without its zeros.
fn dense_to_sparse<T: Scalar>(row: &[T]) -> SparseRow<T> {
    row.iter()
        .cloned()
        .enumerate()
        .filter(|(_, v)| !v.is_zero())
        .collect()
}

/// First velocity of each body (fixed bodies have none).
fn body_offsets<T: Scalar>(bodies: &[Body<T>], space: Space) -> Vec<usize> {
    let mut offsets = Vec::with_capacity(bodies.len());
    let mut next = 0;
    for b in bodies {
        offsets.push(next);
        next += body_velocities(b, space);
    }
    offsets
}

/// The contact Jacobian rows of a model, one at a time and in any order
/// (the large-system path computes them in parallel and stores only their
/// whitened form).
pub struct ContactRows<'a, T> {
    model: &'a Model<T>,
    offsets: Vec<usize>,
}

impl<'a, T: Scalar> ContactRows<'a, T> {
    /// The rows of `model`'s contacts.
    pub fn new(model: &'a Model<T>) -> ContactRows<'a, T> {
        let offsets = match &model.kind {
            Kind::Bodies { bodies, .. } => body_offsets(bodies, model.space),
            Kind::Generalized { .. } => Vec::new(),
        };
        ContactRows { model, offsets }
    }

    /// Number of contacts.
    pub fn len(&self) -> usize {
        self.model.contacts.len()
    }

    /// True without contacts.
    pub fn is_empty(&self) -> bool {
        self.model.contacts.is_empty()
    }

    /// The row of contact `i`, as [`assemble`] stores it.
    pub fn row(&self, i: usize) -> SparseRow<T> {
        let mut row = Vec::with_capacity(2 * (self.model.space.dim() + 3));
        self.row_into(i, &mut row);
        row
    }

    /// The row of contact `i` into `row` (cleared first; no allocation
    /// once it holds two bodies' worth).
    pub fn row_into(&self, i: usize, row: &mut SparseRow<T>) {
        match &self.model.contacts[i].geometry {
            Geometry::Point { normal, .. } => self.direction_row_into(i, normal, row),
            Geometry::Jacobian(dense) => {
                row.clear();
                row.extend(dense_to_sparse(dense));
            }
        }
    }

    /// The row of point contact `i` along direction `dir` (the normal, or
    /// a tangent): `dir · (velocity of the point on body − on other)`.
    pub fn direction_row_into(&self, i: usize, dir: &[T], row: &mut SparseRow<T>) {
        row.clear();
        let model = self.model;
        match (&model.kind, &model.contacts[i].geometry) {
            (
                Kind::Bodies { bodies, .. },
                Geometry::Point {
                    body,
                    other,
                    point,
                    image,
                    ..
                },
            ) => {
                point_rate(
                    row,
                    &bodies[*body],
                    self.offsets[*body],
                    model.space,
                    point,
                    dir,
                    false,
                );
                if let Some(o) = other {
                    // Across a periodic boundary the lever arm is to the
                    // other body's image: the point less the shift.
                    let shifted: Vec<T>;
                    let p = match image {
                        Some(s) => {
                            shifted = point
                                .iter()
                                .zip(s)
                                .map(|(p, s)| p.clone() - s.clone())
                                .collect();
                            &shifted
                        }
                        None => point,
                    };
                    point_rate(
                        row,
                        &bodies[*o],
                        self.offsets[*o],
                        model.space,
                        p,
                        dir,
                        true,
                    );
                }
                tidy(row);
            }
            (Kind::Bodies { .. }, _) => unreachable!("body-form contacts have points"),
            (Kind::Generalized { .. }, _) => {
                unreachable!("generalized contacts have Jacobian rows")
            }
        }
    }

    /// Every row of the model's contacts, normal and tangential, contact
    /// by contact: the normal row, then the contact's tangent rows
    /// ([`RowOf`] says which is which).
    pub fn all_rows(&self) -> (Vec<SparseRow<T>>, Vec<RowOf>) {
        let mut rows = Vec::new();
        let mut of = Vec::new();
        for (i, c) in self.model.contacts.iter().enumerate() {
            rows.push(self.row(i));
            of.push(RowOf {
                contact: i,
                direction: Direction::Normal,
            });
            if let Some(t) = &c.tangential {
                for (k, dir) in t.basis.iter().enumerate() {
                    let mut row = Vec::new();
                    self.direction_row_into(i, dir, &mut row);
                    rows.push(row);
                    of.push(RowOf {
                        contact: i,
                        direction: Direction::Tangent(k as u8),
                    });
                }
            }
        }
        (rows, of)
    }
}

/// Which contact a row belongs to, and along which direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowOf {
    /// Contact index.
    pub contact: usize,
    /// Direction of the row.
    pub direction: Direction,
}

/// The direction of a contact row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Along the normal.
    Normal,
    /// Along tangent `k` (0: t₁, 1: t₂ = n × t₁).
    Tangent(u8),
}

impl Direction {
    /// The suffix reports give the row: `n`, `t1`, `t2` (`t` in a planar case).
    pub fn label(self, planar: bool) -> &'static str {
        match (self, planar) {
            (Direction::Normal, _) => "n",
            (Direction::Tangent(_), true) => "t",
            (Direction::Tangent(0), false) => "t1",
            (Direction::Tangent(_), false) => "t2",
        }
    }
}

const AXES: [&str; 3] = ["x", "y", "z"];

/// Number of velocities of a body (as [`body_dofs`] names them).
fn body_velocities<T>(b: &Body<T>, space: Space) -> usize {
    match (&b.kind, space) {
        (BodyKind::Fixed, _) => 0,
        (BodyKind::Particle { .. }, _) => space.dim(),
        (BodyKind::Rigid { .. }, Space::Planar) => 3,
        (BodyKind::Rigid { .. }, _) => space.dim() + 3,
    }
}

fn push_body_dofs<T>(b: &Body<T>, space: Space, out: &mut Vec<Dof>) {
    if matches!(b.kind, BodyKind::Fixed) {
        return;
    }
    let owner: std::sync::Arc<str> = b.name.as_str().into();
    let mut d = |axis: &'static str, unit: &'static str| {
        out.push(Dof {
            owner: owner.clone(),
            axis,
            unit: unit.into(),
        })
    };
    for a in &AXES[..space.dim()] {
        d(a, "m");
    }
    match (&b.kind, space) {
        (BodyKind::Rigid { .. }, Space::Planar) => d("θ", "rad"),
        (BodyKind::Rigid { .. }, _) => ["θx", "θy", "θz"].into_iter().for_each(|a| d(a, "rad")),
        _ => {}
    }
}

fn body_block<T: Scalar>(b: &Body<T>, space: Space, offset: usize) -> Option<MassBlock<T>> {
    let diag = |entries: Vec<T>| {
        let n = entries.len();
        let mut matrix = vec![T::zero(); n * n];
        for (i, v) in entries.into_iter().enumerate() {
            matrix[i * n + i] = v;
        }
        MassBlock {
            offset,
            size: n,
            matrix,
        }
    };
    match &b.kind {
        BodyKind::Fixed => None,
        BodyKind::Particle { mass } => Some(diag(vec![mass.clone(); space.dim()])),
        BodyKind::Rigid { mass, inertia } => Some(match inertia {
            Inertia::Scalar(i) => diag(vec![mass.clone(), mass.clone(), i.clone()]),
            Inertia::Diagonal([a, b, c]) => diag(vec![
                mass.clone(),
                mass.clone(),
                mass.clone(),
                a.clone(),
                b.clone(),
                c.clone(),
            ]),
            Inertia::Full(rows) => {
                let mut block = diag(vec![
                    mass.clone(),
                    mass.clone(),
                    mass.clone(),
                    T::zero(),
                    T::zero(),
                    T::zero(),
                ]);
                for i in 0..3 {
                    for j in 0..3 {
                        block.matrix[(3 + i) * 6 + 3 + j] = rows[i][j].clone();
                    }
                }
                block
            }
        }),
    }
}

/// Appends the coefficients of `n · (velocity of point p on body b)` to
/// `row`, negated when `negate`.
fn point_rate<T: Scalar>(
    row: &mut SparseRow<T>,
    b: &Body<T>,
    offset: usize,
    space: Space,
    p: &[T],
    n: &[T],
    negate: bool,
) {
    let sign = |v: T| if negate { -v } else { v };
    if matches!(b.kind, BodyKind::Fixed) {
        return;
    }
    let dim = space.dim();
    for k in 0..dim {
        row.push((offset + k, sign(n[k].clone())));
    }
    if let BodyKind::Rigid { .. } = b.kind {
        // No allocation: this runs once per contact side on large scenes.
        let r: [T; 3] = std::array::from_fn(|k| {
            if k < dim {
                p[k].clone() - b.position[k].clone()
            } else {
                T::zero()
            }
        });
        match space {
            Space::Planar => row.push((
                offset + 2,
                sign(r[0].clone() * n[1].clone() - r[1].clone() * n[0].clone()),
            )),
            Space::ThreeD => {
                let rxn = [
                    r[1].clone() * n[2].clone() - r[2].clone() * n[1].clone(),
                    r[2].clone() * n[0].clone() - r[0].clone() * n[2].clone(),
                    r[0].clone() * n[1].clone() - r[1].clone() * n[0].clone(),
                ];
                for (k, v) in rxn.into_iter().enumerate() {
                    row.push((offset + 3 + k, sign(v)));
                }
            }
            Space::Line => {}
        }
    }
}

/// Sorts by column and drops exact zeros.
fn tidy<T: Scalar>(row: &mut SparseRow<T>) {
    row.retain(|(_, v)| !v.is_zero());
    row.sort_by_key(|(j, _)| *j);
}
