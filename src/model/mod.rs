//! The model: a case's bodies, contacts and joints with values of one scalar
//! type, and the assembly of M, J and G from it.
//!
//! Input: a validated [`Case`] and a way to turn each
//! [`Val`] into a scalar `T` (its SI number, a value at other parameter
//! values, or later a symbolic expression). Output: a [`Model<T>`], and from
//! it a [`System<T>`]: the block-diagonal mass matrix, the contact Jacobian
//! rows and the constraint rows, all sparse by row.
//!
//! Assembly is written once, generic over [`Scalar`], so the numeric and the
//! symbolic analyses see the same M, J and G. It knows nothing about
//! eigenvalues, reports or TOML. One exception to "any scalar": a
//! `[model]` case's M (by CRBA), contact and constraint rows are computed
//! in `f64` ([`robot`]: the symbolic engine does not run on models) and
//! then turned into the scalar type.

mod assemble;
mod at;
pub mod robot;

pub use assemble::{
    ContactRows, Direction, Dof, MassBlock, RowOf, SparseRow, System, assemble,
    assemble_without_contacts,
};
pub use at::{build_at, with_laws};

use crate::case::{self, Case, ContactGeometry, Form, InertiaVal, Space, Val};
use std::fmt::Debug;
use std::ops::{Add, Div, Mul, Neg, Sub};

/// The arithmetic assembly needs. Implemented by `f64`; the symbolic engine
/// implements it for its expressions.
pub trait Scalar:
    Clone
    + Debug
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// Additive identity.
    fn zero() -> Self;
    /// Multiplicative identity.
    fn one() -> Self;
    /// True when the value is exactly zero (used to keep rows sparse).
    fn is_zero(&self) -> bool;
}

impl Scalar for f64 {
    fn zero() -> Self {
        0.0
    }
    fn one() -> Self {
        1.0
    }
    fn is_zero(&self) -> bool {
        *self == 0.0
    }
}

/// Inertia of a rigid body about its centre of mass.
#[derive(Clone, Debug)]
pub enum Inertia<T> {
    /// Planar moment of inertia.
    Scalar(T),
    /// 3-d principal moments along the world axes.
    Diagonal([T; 3]),
    /// 3-d symmetric tensor in world axes.
    Full([[T; 3]; 3]),
}

/// Kind of a body with its inertial data.
#[derive(Clone, Debug)]
pub enum BodyKind<T> {
    /// Point mass.
    Particle {
        /// Mass.
        mass: T,
    },
    /// Rigid body.
    Rigid {
        /// Mass.
        mass: T,
        /// Inertia about the centre of mass.
        inertia: Inertia<T>,
    },
    /// Immovable.
    Fixed,
}

/// A body.
#[derive(Clone, Debug)]
pub struct Body<T> {
    /// Name.
    pub name: String,
    /// Kind.
    pub kind: BodyKind<T>,
    /// Centre of mass, world frame.
    pub position: Vec<T>,
}

impl<T: Clone> Body<T> {
    /// Total mass, `None` for a fixed body.
    pub fn mass(&self) -> Option<T> {
        match &self.kind {
            BodyKind::Particle { mass } | BodyKind::Rigid { mass, .. } => Some(mass.clone()),
            BodyKind::Fixed => None,
        }
    }
}

/// Contact geometry.
#[derive(Clone, Debug)]
pub enum Geometry<T> {
    /// Point and unit normal; `body`'s gap opens along +normal.
    Point {
        /// Body index.
        body: usize,
        /// Other body index, `None` for the world.
        other: Option<usize>,
        /// Contact point.
        point: Vec<T>,
        /// Unit normal.
        normal: Vec<T>,
        /// Where a periodic box has the contact see `other`: its position
        /// plus this shift (scenes from dumps; `None` otherwise).
        image: Option<Vec<T>>,
    },
    /// Jacobian row in generalized coordinates.
    Jacobian(Vec<T>),
}

/// The contact point as each side of a point contact sees it: `body` at
/// `point`, `other` at `point` less the periodic image shift (the two are
/// one point but across a periodic boundary).
pub fn side_points(point: &[f64], image: &Option<Vec<f64>>) -> [Vec<f64>; 2] {
    let other = match image {
        Some(s) => point.iter().zip(s).map(|(p, s)| p - s).collect(),
        None => point.to_vec(),
    };
    [point.to_vec(), other]
}

/// A contact.
#[derive(Clone, Debug)]
pub struct Contact<T> {
    /// Name.
    pub name: String,
    /// Geometry.
    pub geometry: Geometry<T>,
    /// Stiffness k.
    pub stiffness: T,
    /// Damping c, if given.
    pub damping: Option<T>,
    /// The tangential spring, when the contact has one.
    pub tangential: Option<TangentialSpring<T>>,
}

/// A contact's tangential spring: one row per tangent (two in 3-d, one in
/// a planar case), each with the same stiffness and damping.
#[derive(Clone, Debug)]
pub struct TangentialSpring<T> {
    /// Stiffness of each tangential row.
    pub stiffness: Scaled<T>,
    /// Damping of each tangential row, if any (a ratio scales the normal
    /// damping; without one it gives none).
    pub damping: Option<Scaled<T>>,
    /// Unit tangents in world axes.
    pub basis: Vec<Vec<T>>,
}

/// A value given absolutely or as a ratio to the contact's normal one.
#[derive(Clone, Debug)]
pub enum Scaled<T> {
    /// The value itself.
    Absolute(T),
    /// Times the normal value.
    Ratio(T),
}

impl<T: Clone + Mul<Output = T>> Scaled<T> {
    /// The value, given the normal one.
    pub fn of(&self, normal: &T) -> T {
        match self {
            Scaled::Absolute(v) => v.clone(),
            Scaled::Ratio(r) => r.clone() * normal.clone(),
        }
    }
}

impl<T: Clone + Mul<Output = T>> Contact<T> {
    /// The tangential rows' stiffness and damping, when the contact has a
    /// tangential spring.
    pub fn tangential_values(&self) -> Option<(T, Option<T>)> {
        let t = self.tangential.as_ref()?;
        let k = t.stiffness.of(&self.stiffness);
        let c = match (&t.damping, &self.damping) {
            (Some(Scaled::Absolute(c)), _) => Some(c.clone()),
            (Some(s @ Scaled::Ratio(_)), Some(cn)) => Some(s.of(cn)),
            _ => None,
        };
        Some((k, c))
    }
}

/// A pin/ball joint: the point on `body` and on `other` (or the world) keep
/// the same velocity.
#[derive(Clone, Debug)]
pub struct Joint<T> {
    /// Body index.
    pub body: usize,
    /// Other body, `None` for the world.
    pub other: Option<usize>,
    /// Joint point.
    pub point: Vec<T>,
}

/// The system in one of the two forms.
#[derive(Clone, Debug)]
pub enum Kind<T> {
    /// Bodies and joints.
    Bodies {
        /// Bodies.
        bodies: Vec<Body<T>>,
        /// Joints.
        joints: Vec<Joint<T>>,
    },
    /// Generalized coordinates.
    Generalized {
        /// Coordinate names and units.
        coordinates: Vec<(String, String)>,
        /// Mass matrix.
        mass_matrix: Vec<Vec<T>>,
        /// Constraint rows.
        constraints: Vec<Vec<T>>,
    },
}

/// A case with values of type `T`.
#[derive(Clone, Debug)]
pub struct Model<T> {
    /// Spatial setting.
    pub space: Space,
    /// Bodies or generalized form.
    pub kind: Kind<T>,
    /// Contacts.
    pub contacts: Vec<Contact<T>>,
    /// `[[impact]]`s: which contacts are struck, which rest, at what speed.
    pub impacts: Vec<ImpactSpec<T>>,
}

/// An `[[impact]]` as the analysis needs it.
#[derive(Clone, Debug)]
pub struct ImpactSpec<T> {
    /// Struck contacts (indices), closing at `speed`.
    pub contacts: Vec<usize>,
    /// Contacts that rest closed, at zero force, when the others strike.
    pub resting: Vec<usize>,
    /// Approach speed along the normals.
    pub speed: T,
}

/// A scalar whose number can be read when it has one (a robot's joint
/// values must be numbers: `M(q)` is evaluated, not derived).
pub trait Numeric {
    /// The value, if this scalar is a number.
    fn numeric(&self) -> Option<f64>;
}

impl Numeric for f64 {
    fn numeric(&self) -> Option<f64> {
        Some(*self)
    }
}

impl Numeric for () {
    fn numeric(&self) -> Option<f64> {
        None
    }
}

/// Builds the model of a case, turning each value into a `T` with `f`.
pub fn build<T: Numeric, E>(
    case: &Case,
    f: &mut impl FnMut(&Val) -> Result<T, E>,
) -> Result<Model<T>, E> {
    let vec = |vals: &[Val], f: &mut dyn FnMut(&Val) -> Result<T, E>| {
        vals.iter().map(f).collect::<Result<Vec<T>, E>>()
    };
    if let Some(scene) = &case.scene {
        return build_scene(case.space, &scene.data, f);
    }
    if let Form::Robot(r) = &case.form {
        return build_robot(case, r, f);
    }
    let kind = match &case.form {
        Form::Robot(_) => unreachable!("built above"),
        Form::Bodies { bodies, joints } => {
            let mut out = Vec::with_capacity(bodies.len());
            for b in bodies {
                let kind = match &b.kind {
                    case::BodyKind::Particle { mass } => BodyKind::Particle { mass: f(mass)? },
                    case::BodyKind::Rigid { mass, inertia } => BodyKind::Rigid {
                        mass: f(mass)?,
                        inertia: match inertia {
                            InertiaVal::Scalar(i) => Inertia::Scalar(f(i)?),
                            InertiaVal::Diagonal([a, b, c]) => {
                                Inertia::Diagonal([f(a)?, f(b)?, f(c)?])
                            }
                            InertiaVal::Full([r0, r1, r2]) => Inertia::Full([
                                [f(&r0[0])?, f(&r0[1])?, f(&r0[2])?],
                                [f(&r1[0])?, f(&r1[1])?, f(&r1[2])?],
                                [f(&r2[0])?, f(&r2[1])?, f(&r2[2])?],
                            ]),
                        },
                    },
                    case::BodyKind::Fixed => BodyKind::Fixed,
                };
                out.push(Body {
                    name: b.name.clone(),
                    kind,
                    position: vec(&b.position, f)?,
                });
            }
            let mut js = Vec::with_capacity(joints.len());
            for j in joints {
                js.push(Joint {
                    body: j.body,
                    other: j.other,
                    point: vec(&j.point, f)?,
                });
            }
            Kind::Bodies {
                bodies: out,
                joints: js,
            }
        }
        Form::Generalized {
            coordinates,
            mass_matrix,
            constraints,
        } => {
            let mut mm = Vec::with_capacity(mass_matrix.len());
            for row in mass_matrix {
                mm.push(vec(row, f)?);
            }
            let mut gs = Vec::with_capacity(constraints.len());
            for row in constraints {
                gs.push(vec(row, f)?);
            }
            Kind::Generalized {
                coordinates: coordinates
                    .iter()
                    .map(|c| (c.name.clone(), c.unit.clone()))
                    .collect(),
                mass_matrix: mm,
                constraints: gs,
            }
        }
    };
    let mut contacts = Vec::with_capacity(case.contacts.len());
    for c in &case.contacts {
        let geometry = match &c.geometry {
            ContactGeometry::Point {
                body,
                other,
                point,
                normal,
            } => Geometry::Point {
                body: *body,
                other: *other,
                point: vec(point, f)?,
                normal: vec(normal, f)?,
                image: None,
            },
            ContactGeometry::Jacobian(row) => Geometry::Jacobian(vec(row, f)?),
            ContactGeometry::Link { .. } => unreachable!("model contacts are built by build_robot"),
        };
        let stiffness = f(&c.stiffness)?;
        let damping = c.damping.as_ref().map(&mut *f).transpose()?;
        let tangential = match &c.tangential {
            Some(t) => Some(tangential_spring(t, f)?),
            None => None,
        };
        contacts.push(Contact {
            name: c.name.clone(),
            geometry,
            stiffness,
            damping,
            tangential,
        });
    }
    Ok(Model {
        space: case.space,
        kind,
        contacts,
        impacts: impacts(case, f)?,
    })
}

/// The tangential spring of a case contact, its values through `f`.
fn tangential_spring<T, E>(
    t: &case::Tangential,
    f: &mut impl FnMut(&Val) -> Result<T, E>,
) -> Result<TangentialSpring<T>, E> {
    use case::TangentialValue as V;
    let mut scaled = |v: &V| -> Result<Scaled<T>, E> {
        Ok(match v {
            V::Absolute(v) => Scaled::Absolute(f(v)?),
            V::Ratio(r) => Scaled::Ratio(f(r)?),
        })
    };
    let stiffness = scaled(&t.stiffness)?;
    let damping = t.damping.as_ref().map(&mut scaled).transpose()?;
    let mut basis = Vec::with_capacity(t.basis.len());
    for dir in &t.basis {
        basis.push(dir.iter().map(&mut *f).collect::<Result<Vec<T>, E>>()?);
    }
    Ok(TangentialSpring {
        stiffness,
        damping,
        basis,
    })
}

fn impacts<T, E>(
    case: &Case,
    f: &mut impl FnMut(&Val) -> Result<T, E>,
) -> Result<Vec<ImpactSpec<T>>, E> {
    case.impacts
        .iter()
        .map(|i| {
            Ok(ImpactSpec {
                contacts: i.contacts.clone(),
                resting: i.resting.clone(),
                speed: f(&i.speed)?,
            })
        })
        .collect()
}

/// The model of a `[model]` case: `M(q)`, the constraint rows and the
/// contact rows are evaluated at the configuration (values through `f`,
/// numbers when `T` has them, else the case's own values) and enter as
/// numbers, in the generalized form.
fn build_robot<T: Numeric, E>(
    case: &Case,
    r: &case::RobotForm,
    f: &mut impl FnMut(&Val) -> Result<T, E>,
) -> Result<Model<T>, E> {
    use crate::units::Dim;
    fn lit<T, E>(
        f: &mut impl FnMut(&Val) -> Result<T, E>,
        val: &mut Val,
        x: f64,
        dim: Dim,
    ) -> Result<T, E> {
        val.set_number(x, dim);
        f(val)
    }
    let sys = robot::robot_system(
        case,
        r,
        &mut |v: &Val| Ok(f(v)?.numeric().unwrap_or(v.si)),
        r.armature,
    )?;
    let mut val = Val::number(0.0, Dim::NONE);
    let dims: Vec<Dim> = sys
        .names
        .iter()
        .map(|(_, u)| if *u == "m" { Dim::NONE } else { Dim::LENGTH })
        .collect();
    let mut contacts = Vec::with_capacity(case.contacts.len());
    for (c, row) in case.contacts.iter().zip(&sys.rows) {
        let mut out = Vec::with_capacity(row.len());
        for (x, d) in row.iter().zip(&dims) {
            out.push(lit(f, &mut val, *x, *d)?);
        }
        contacts.push(Contact {
            name: c.name.clone(),
            geometry: Geometry::Jacobian(out),
            stiffness: f(&c.stiffness)?,
            damping: c.damping.as_ref().map(&mut *f).transpose()?,
            tangential: None,
        });
    }
    let mut mass_matrix = Vec::with_capacity(sys.m.len());
    for row in &sys.m {
        let mut out = Vec::with_capacity(row.len());
        for x in row {
            out.push(lit(f, &mut val, *x, Dim::INERTIA)?);
        }
        mass_matrix.push(out);
    }
    let mut constraints = Vec::new();
    for row in &sys.constraints {
        let mut out = Vec::with_capacity(row.len());
        for x in row {
            out.push(lit(f, &mut val, *x, Dim::NONE)?);
        }
        constraints.push(out);
    }
    Ok(Model {
        space: case.space,
        kind: Kind::Generalized {
            coordinates: sys
                .names
                .into_iter()
                .map(|(name, unit)| (name, unit.to_string()))
                .collect(),
            mass_matrix,
            constraints,
        },
        contacts,
        impacts: impacts(case, f)?,
    })
}

/// The model of a `[scene]`: its numbers go through `f` as literal values
/// (so every scalar type builds from them as from a TOML case).
fn build_scene<T, E>(
    space: Space,
    s: &case::scene::SceneData,
    f: &mut impl FnMut(&Val) -> Result<T, E>,
) -> Result<Model<T>, E> {
    let mut val = Val::number(0.0, crate::units::Dim::NONE);
    let mut num = |x: f64, dim| -> Result<T, E> {
        val.set_number(x, dim);
        f(&val)
    };
    let bodies = (0..s.n_bodies())
        .map(|b| scene_body(space, s, b, &mut num))
        .collect::<Result<_, E>>()?;
    let contacts = (0..s.n_contacts())
        .map(|c| scene_contact(space, s, c, &mut num))
        .collect::<Result<_, E>>()?;
    Ok(scene_model(space, bodies, contacts))
}

/// [`build_scene`] in `f64`, its bodies and contacts built in parallel
/// (a scene's model is a million small allocations at 10⁵ bodies: half the
/// time on two cores). Each value is the number itself, as [`numeric`]
/// makes it.
fn numeric_scene(space: Space, s: &case::scene::SceneData) -> Model<f64> {
    use rayon::prelude::*;
    let ok = |x: f64, _| Ok::<f64, std::convert::Infallible>(x);
    let (bodies, contacts) = rayon::join(
        || {
            (0..s.n_bodies())
                .into_par_iter()
                .map(|b| scene_body(space, s, b, &mut { ok }).unwrap_or_else(|e| match e {}))
                .collect()
        },
        || {
            (0..s.n_contacts())
                .into_par_iter()
                .map(|c| scene_contact(space, s, c, &mut { ok }).unwrap_or_else(|e| match e {}))
                .collect()
        },
    );
    scene_model(space, bodies, contacts)
}

fn scene_model<T>(space: Space, bodies: Vec<Body<T>>, contacts: Vec<Contact<T>>) -> Model<T> {
    Model {
        space,
        kind: Kind::Bodies {
            bodies,
            joints: Vec::new(),
        },
        contacts,
        impacts: Vec::new(),
    }
}

/// Body `b` of a scene, its numbers made by `num(value, dimension)`.
fn scene_body<T, E>(
    space: Space,
    s: &case::scene::SceneData,
    b: usize,
    num: &mut impl FnMut(f64, crate::units::Dim) -> Result<T, E>,
) -> Result<Body<T>, E> {
    use crate::units::Dim;
    let d = space.dim();
    let kind = if s.fixed[b] {
        BodyKind::Fixed
    } else {
        let mass = num(s.mass[b], Dim::MASS)?;
        let inertia = if d == 3 {
            let t = &s.inertia[6 * b..6 * b + 6];
            if t[3] == 0.0 && t[4] == 0.0 && t[5] == 0.0 {
                Inertia::Diagonal([
                    num(t[0], Dim::INERTIA)?,
                    num(t[1], Dim::INERTIA)?,
                    num(t[2], Dim::INERTIA)?,
                ])
            } else {
                let mut e = |x| num(x, Dim::INERTIA);
                Inertia::Full([
                    [e(t[0])?, e(t[3])?, e(t[4])?],
                    [e(t[3])?, e(t[1])?, e(t[5])?],
                    [e(t[4])?, e(t[5])?, e(t[2])?],
                ])
            }
        } else {
            Inertia::Scalar(num(s.inertia[b], Dim::INERTIA)?)
        };
        BodyKind::Rigid { mass, inertia }
    };
    let mut position = Vec::with_capacity(d);
    for k in 0..d {
        position.push(num(s.position[d * b + k], Dim::LENGTH)?);
    }
    Ok(Body {
        name: s.body_name(b),
        kind,
        position,
    })
}

/// Contact `c` of a scene, its numbers made by `num(value, dimension)`.
fn scene_contact<T, E>(
    space: Space,
    s: &case::scene::SceneData,
    c: usize,
    num: &mut impl FnMut(f64, crate::units::Dim) -> Result<T, E>,
) -> Result<Contact<T>, E> {
    use crate::units::Dim;
    let d = space.dim();
    let mut point = Vec::with_capacity(d);
    let mut normal = Vec::with_capacity(d);
    for k in 0..d {
        point.push(num(s.point[d * c + k], Dim::LENGTH)?);
        normal.push(num(s.normal[d * c + k], Dim::NONE)?);
    }
    let other = s.other[c];
    let image = match &s.image {
        Some(v) if v[d * c..d * c + d].iter().any(|&x| x != 0.0) => {
            let mut out = Vec::with_capacity(d);
            for k in 0..d {
                out.push(num(v[d * c + k], Dim::LENGTH)?);
            }
            Some(out)
        }
        _ => None,
    };
    Ok(Contact {
        name: s.contact_name(c),
        geometry: Geometry::Point {
            body: s.body[c] as usize,
            other: (other != case::scene::WORLD).then_some(other as usize),
            point,
            normal,
            image,
        },
        stiffness: num(s.stiffness[c], Dim::STIFFNESS)?,
        damping: match &s.damping {
            Some(dv) => Some(num(dv[c], Dim::DAMPING)?),
            None => None,
        },
        tangential: match &s.tangential {
            Some(t) => Some(scene_tangential(t, &s.normal[d * c..d * c + d], c, num)?),
            None => None,
        },
    })
}

/// Contact `c`'s tangential spring in a scene: its columns' values, the
/// `[[contact]]` basis rule at its normal (no given tangent).
fn scene_tangential<T, E>(
    t: &case::scene::TangentialColumns,
    normal: &[f64],
    c: usize,
    num: &mut impl FnMut(f64, crate::units::Dim) -> Result<T, E>,
) -> Result<TangentialSpring<T>, E> {
    use crate::units::Dim;
    let k = t.stiffness[c];
    let stiffness = if t.ratio {
        Scaled::Ratio(num(k, Dim::NONE)?)
    } else {
        Scaled::Absolute(num(k, Dim::STIFFNESS)?)
    };
    let damping = match (&t.damping, t.ratio) {
        (Some(dv), _) => Some(Scaled::Absolute(num(dv[c], Dim::DAMPING)?)),
        (None, true) => Some(Scaled::Ratio(num(k, Dim::NONE)?)),
        (None, false) => None,
    };
    // A validated scene's normals are unit vectors: never parallel to a
    // default axis's projection.
    let axes = case::tangential::tangent_basis(normal, None).unwrap_or_default();
    let mut basis = Vec::with_capacity(axes.len());
    for a in axes {
        let mut v = Vec::with_capacity(a.len());
        for x in a {
            v.push(num(x, Dim::NONE)?);
        }
        basis.push(v);
    }
    Ok(TangentialSpring {
        stiffness,
        damping,
        basis,
    })
}

/// The model at the case's own parameter values.
pub fn numeric(case: &Case) -> Model<f64> {
    if let Some(scene) = &case.scene {
        return numeric_scene(case.space, &scene.data);
    }
    build(case, &mut |v: &Val| {
        Ok::<f64, std::convert::Infallible>(v.si)
    })
    .unwrap_or_else(|e| match e {})
}

/// Per parameter (file order): whether the model or a claim uses it,
/// directly or through other parameters' definitions. Unused parameters
/// cost nothing downstream (a case may define thousands).
pub fn used_parameters(case: &Case) -> Vec<bool> {
    use std::collections::HashMap;
    let index: HashMap<&str, usize> = case
        .parameters
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name.as_str(), i))
        .collect();
    let derived: HashMap<&str, &crate::expr::Expr> = case
        .derived
        .iter()
        .map(|d| (d.name.as_str(), &d.value.expr))
        .collect();
    let mut used = vec![false; case.parameters.len()];
    let mut seen_derived: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut pending: Vec<usize> = Vec::new();
    // A derived value stands for its definition (each followed once).
    let mut note = |e: &crate::expr::Expr, pending: &mut Vec<usize>| {
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            for (n, _) in e.params() {
                match derived.get(n) {
                    Some(d) if seen_derived.insert(n.to_string()) => stack.push(d),
                    Some(_) => {}
                    None => pending.extend(index.get(n).copied()),
                }
            }
        }
    };
    let _ = build(case, &mut |v: &Val| {
        note(&v.expr, &mut pending);
        Ok::<(), std::convert::Infallible>(())
    });
    // A Hertz law's inputs (its stiffness is derived from them at a point).
    for (_, h) in case.hertz_laws() {
        h.inputs
            .vals()
            .into_iter()
            .for_each(|v| note(&v.expr, &mut pending));
    }
    for c in &case.claims {
        match &c.rhs {
            case::ClaimRhs::Expression(e) | case::ClaimRhs::Literal { expr: e, .. } => {
                note(e, &mut pending)
            }
        }
    }
    while let Some(i) = pending.pop() {
        if !used[i] {
            used[i] = true;
            note(&case.parameters[i].value.expr, &mut pending);
        }
    }
    used
}

impl<T: Scalar> Model<T> {
    /// The naive mass estimate for a contact (the physics reference): the total mass of the
    /// moving body, or the reduced mass of two bodies' total masses. `None`
    /// in generalized form.
    pub fn naive_mass(&self, contact: usize) -> Option<T> {
        let Kind::Bodies { bodies, .. } = &self.kind else {
            return None;
        };
        let Geometry::Point { body, other, .. } = &self.contacts[contact].geometry else {
            return None;
        };
        let m1 = bodies[*body].mass();
        let m2 = other.and_then(|o| bodies[o].mass());
        match (m1, m2) {
            (Some(a), Some(b)) => Some(a.clone() * b.clone() / (a + b)),
            (Some(a), None) | (None, Some(a)) => Some(a),
            (None, None) => None,
        }
    }
}
