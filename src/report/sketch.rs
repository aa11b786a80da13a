//! What a sketch of the model shows, in SI world coordinates: bodies (centre
//! of mass and an outline of the same inertia), joints, contact points with
//! their normals, and for a robot its links. Drawing is `render::sketch`.
//!
//! The outlines are not the parts' shapes (a case gives masses and inertias,
//! not geometry): a planar rigid body is a circle whose radius is its radius
//! of gyration √(I/m); a 3-d one is the uniform box with the same mass and
//! principal moments, turned to its principal axes.

use crate::case::{BodyKind, Case, ContactGeometry, Form, InertiaVal, Space, Val};
use nalgebra::{Matrix3, Vector3};

/// Most bodies or contacts drawn (beyond, the sheet has no sketch).
pub const MAX_DRAWN: usize = 200;

/// A point in the world frame (m); planar and line cases pad with zeros.
pub type Point = [f64; 3];

/// The geometry of a sketch.
#[derive(Clone, Debug)]
pub struct Sketch {
    /// 1 (line), 2 (planar), 3 (3-d); 0 for a generalized case, which has
    /// no geometry: its contacts are drawn as a schematic row.
    pub dim: usize,
    /// Bodies.
    pub bodies: Vec<SketchBody>,
    /// A robot's links: parent frame origin to child frame origin, a
    /// body without a child to its centre of mass, and every body to each
    /// contact point on it.
    pub links: Vec<(Point, Point)>,
    /// Joints.
    pub joints: Vec<SketchJoint>,
    /// Contacts, in case order.
    pub contacts: Vec<SketchContact>,
}

/// A body.
#[derive(Clone, Debug)]
pub struct SketchBody {
    /// Name.
    pub name: String,
    /// Centre of mass.
    pub com: Point,
    /// Outline.
    pub outline: Outline,
}

/// How a body is outlined.
#[derive(Clone, Debug, PartialEq)]
pub enum Outline {
    /// A particle (or a robot link): its centre of mass only.
    Point,
    /// Fixed to the world.
    Fixed,
    /// Planar rigid body: circle of radius √(I/m).
    Circle(f64),
    /// A body with a `shape`: the shape itself as polylines (world
    /// frame, absolute): edges of a box, principal rings of a sphere or
    /// an ellipsoid, end circles and sides of a cylinder or capsule.
    Shape(Vec<Vec<Point>>),
    /// 3-d rigid body: the uniform box of the same mass and principal
    /// moments; half-lengths along `axes` (unit vectors, world frame).
    Box {
        /// Half-lengths.
        half: [f64; 3],
        /// Principal axes.
        axes: [Point; 3],
    },
}

/// A joint.
#[derive(Clone, Debug)]
pub struct SketchJoint {
    /// Where.
    pub point: Point,
    /// Joined to the world.
    pub grounded: bool,
}

/// A contact.
#[derive(Clone, Debug)]
pub struct SketchContact {
    /// Name.
    pub name: String,
    /// Point (world).
    pub point: Point,
    /// Unit normal (world): the direction in which the gap opens.
    pub normal: Point,
    /// Against the world (drawn as ground on the −normal side).
    pub world: bool,
}

fn pad(v: &[f64]) -> Option<Point> {
    let mut p = [0.0; 3];
    for (x, y) in p.iter_mut().zip(v) {
        *x = *y;
    }
    p.iter().all(|x| x.is_finite()).then_some(p)
}

fn values(v: &[Val]) -> Option<Point> {
    pad(&v.iter().map(|x| x.si).collect::<Vec<_>>())
}

fn unit(p: Point) -> Option<Point> {
    let n = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
    (n.is_finite() && n > 0.0).then(|| [p[0] / n, p[1] / n, p[2] / n])
}

/// The eight corners of a box about `com` with half-lengths `half` along
/// `axes`: corner `k` takes the + side of axis `a` when bit `a` of `k` is set.
pub fn box_corners(com: Point, half: [f64; 3], axes: [Point; 3]) -> Vec<Point> {
    (0..8)
        .map(|k| {
            let mut p = com;
            for a in 0..3 {
                let s = if k & (1 << a) == 0 { -1.0 } else { 1.0 };
                for (x, d) in p.iter_mut().zip(axes[a]) {
                    *x += s * half[a] * d;
                }
            }
            p
        })
        .collect()
}

/// The twelve edges of a box, as pairs of [`box_corners`] indices.
pub const BOX_EDGES: [(usize, usize); 12] = [
    (0, 1),
    (2, 3),
    (4, 5),
    (6, 7),
    (0, 2),
    (1, 3),
    (4, 6),
    (5, 7),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
];

/// Half-lengths of the uniform box with mass `m` and principal moments
/// `i` (`I₁ = m(b² + c²)/12`, … solved for the full lengths a, b, c).
pub fn box_half(m: f64, i: [f64; 3]) -> [f64; 3] {
    let side = |k: usize| {
        let (a, b, c) = (i[k], i[(k + 1) % 3], i[(k + 2) % 3]);
        let sq = 6.0 * (b + c - a) / m;
        if sq.is_finite() && sq > 0.0 {
            sq.sqrt() / 2.0
        } else {
            0.0
        }
    };
    [side(0), side(1), side(2)]
}

fn outline(kind: &BodyKind) -> Outline {
    match kind {
        BodyKind::Particle { .. } => Outline::Point,
        BodyKind::Fixed => Outline::Fixed,
        BodyKind::Rigid { mass, inertia } => {
            let m = mass.si;
            if !(m.is_finite() && m > 0.0) {
                return Outline::Point;
            }
            match inertia {
                InertiaVal::Scalar(i) => {
                    let r = (i.si / m).sqrt();
                    if r.is_finite() && r > 0.0 {
                        Outline::Circle(r)
                    } else {
                        Outline::Point
                    }
                }
                InertiaVal::Diagonal(d) => Outline::Box {
                    half: box_half(m, [d[0].si, d[1].si, d[2].si]),
                    axes: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
                },
                InertiaVal::Full(t) => {
                    let mat = Matrix3::from_fn(|r, c| t[r][c].si);
                    if !mat.iter().all(|x| x.is_finite()) {
                        return Outline::Point;
                    }
                    let Some(eig) = crate::linalg::eig::symmetric(mat) else {
                        return Outline::Point;
                    };
                    let ax = |k: usize| {
                        let v = eig.eigenvectors.column(k);
                        [v[0], v[1], v[2]]
                    };
                    Outline::Box {
                        half: box_half(
                            m,
                            [eig.eigenvalues[0], eig.eigenvalues[1], eig.eigenvalues[2]],
                        ),
                        axes: [ax(0), ax(1), ax(2)],
                    }
                }
            }
        }
    }
}

fn case_body(b: &crate::case::Body) -> Option<SketchBody> {
    let com = values(&b.position)?;
    let outline = match &b.shape {
        Some(g) => {
            let r = b
                .rotation
                .as_ref()
                .map_or([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], |r| {
                    r.num
                });
            let lines: Vec<Vec<Point>> = shape_lines(g)
                .into_iter()
                .map(|l| {
                    l.into_iter()
                        .map(|p| {
                            let mut w = com;
                            for (i, x) in w.iter_mut().enumerate() {
                                *x += r[i][0] * p[0] + r[i][1] * p[1] + r[i][2] * p[2];
                            }
                            w
                        })
                        .collect()
                })
                .collect();
            if lines
                .iter()
                .flatten()
                .all(|p| p.iter().all(|x| x.is_finite()))
            {
                Outline::Shape(lines)
            } else {
                outline(&b.kind)
            }
        }
        None => outline(&b.kind),
    };
    Some(SketchBody {
        name: b.name.clone(),
        com,
        outline,
    })
}

/// A ring of `n` points: `centre + cos t · u + sin t · v` over
/// `t ∈ [from, to]`.
fn arc(centre: Point, u: Point, v: Point, from: f64, to: f64, n: usize) -> Vec<Point> {
    (0..=n)
        .map(|k| {
            let t = from + (to - from) * k as f64 / n as f64;
            let (s, c) = t.sin_cos();
            [
                centre[0] + c * u[0] + s * v[0],
                centre[1] + c * u[1] + s * v[1],
                centre[2] + c * u[2] + s * v[2],
            ]
        })
        .collect()
}

/// A shape's outline in body axes about its centre (MJCF's conventions:
/// cylinders and capsules along z; planar shapes in the x–y plane).
fn shape_lines(g: &crate::case::pose::ShapeGeom) -> Vec<Vec<Point>> {
    use std::f64::consts::{PI, TAU};
    let s = &g.size;
    let get = |i: usize| s.get(i).copied().unwrap_or(0.0);
    let ring = |a: f64, b: f64, plane: usize| -> Vec<Point> {
        // plane 0: x–y, 1: y–z, 2: z–x.
        let (u, v) = match plane {
            0 => ([a, 0.0, 0.0], [0.0, b, 0.0]),
            1 => ([0.0, a, 0.0], [0.0, 0.0, b]),
            _ => ([0.0, 0.0, a], [b, 0.0, 0.0]),
        };
        arc([0.0; 3], u, v, 0.0, TAU, 64)
    };
    use crate::kinematics::shape::Shape;
    match g.kind {
        Shape::Box if s.len() == 2 => {
            let (a, b) = (get(0) / 2.0, get(1) / 2.0);
            vec![vec![
                [a, b, 0.0],
                [-a, b, 0.0],
                [-a, -b, 0.0],
                [a, -b, 0.0],
                [a, b, 0.0],
            ]]
        }
        Shape::Box => {
            let h = [get(0) / 2.0, get(1) / 2.0, get(2) / 2.0];
            let k = box_corners(
                [0.0; 3],
                h,
                [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            );
            BOX_EDGES.iter().map(|&(i, j)| vec![k[i], k[j]]).collect()
        }
        Shape::Sphere => {
            let r = get(0);
            vec![ring(r, r, 0), ring(r, r, 1), ring(r, r, 2)]
        }
        Shape::Ellipsoid if s.len() == 2 => vec![ring(get(0), get(1), 0)],
        Shape::Ellipsoid => {
            let (a, b, c) = (get(0), get(1), get(2));
            vec![ring(a, b, 0), ring(b, c, 1), ring(c, a, 2)]
        }
        Shape::Cylinder | Shape::Capsule => {
            let (r, h) = (get(0), get(1) / 2.0);
            let mut out = vec![
                arc([0.0, 0.0, h], [r, 0.0, 0.0], [0.0, r, 0.0], 0.0, TAU, 64),
                arc([0.0, 0.0, -h], [r, 0.0, 0.0], [0.0, r, 0.0], 0.0, TAU, 64),
            ];
            for k in 0..4 {
                let (sn, cs) = (k as f64 * PI / 2.0).sin_cos();
                out.push(vec![[r * cs, r * sn, h], [r * cs, r * sn, -h]]);
            }
            if g.kind == Shape::Capsule {
                for (u, top) in [
                    ([r, 0.0, 0.0], 1.0),
                    ([0.0, r, 0.0], 1.0),
                    ([r, 0.0, 0.0], -1.0),
                    ([0.0, r, 0.0], -1.0),
                ] {
                    out.push(arc(
                        [0.0, 0.0, top * h],
                        u,
                        [0.0, 0.0, top * r],
                        0.0,
                        PI,
                        32,
                    ));
                }
            }
            out
        }
        // Planar rod along body x.
        Shape::Rod => vec![vec![[-get(0) / 2.0, 0.0, 0.0], [get(0) / 2.0, 0.0, 0.0]]],
    }
}

/// The sketch of a case; `None` for a scene, or beyond [`MAX_DRAWN`]
/// bodies or contacts, or where a coordinate is not finite.
///
/// `system`: a `[model]` case's numbers at its configuration, computed by
/// the analysis stage (the sketch computes no mass matrix: it places the
/// links by the kinematics at `system.q`).
pub fn sketch(case: &Case, system: Option<&crate::model::robot::RobotSystem>) -> Option<Sketch> {
    if case.scene.is_some() || case.contacts.len() > MAX_DRAWN {
        return None;
    }
    match &case.form {
        Form::Bodies { bodies, joints } => {
            if bodies.len() > MAX_DRAWN {
                return None;
            }
            let dim = match case.space {
                Space::Line => 1,
                Space::Planar => 2,
                Space::ThreeD => 3,
            };
            let bodies = bodies.iter().map(case_body).collect::<Option<Vec<_>>>()?;
            let joints = joints
                .iter()
                .map(|j| {
                    Some(SketchJoint {
                        point: values(&j.point)?,
                        grounded: j.other.is_none(),
                    })
                })
                .collect::<Option<Vec<_>>>()?;
            let contacts = case
                .contacts
                .iter()
                .map(|c| match &c.geometry {
                    ContactGeometry::Point {
                        other,
                        point,
                        normal,
                        ..
                    } => Some(SketchContact {
                        name: c.name.clone(),
                        point: values(point)?,
                        normal: unit(values(normal)?)?,
                        world: other.is_none(),
                    }),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()?;
            Some(Sketch {
                dim,
                bodies,
                links: Vec::new(),
                joints,
                contacts,
            })
        }
        Form::Robot(r) => robot(case, r, system?),
        Form::Generalized { .. } => Some(Sketch {
            dim: 0,
            bodies: Vec::new(),
            links: Vec::new(),
            joints: Vec::new(),
            contacts: case
                .contacts
                .iter()
                .map(|c| SketchContact {
                    name: c.name.clone(),
                    point: [0.0; 3],
                    normal: [0.0, 1.0, 0.0],
                    world: true,
                })
                .collect(),
        }),
    }
}

/// A robot at its configuration: links as lines between frame origins,
/// each link's centre of mass, joints at the frame origins of the bodies
/// they move, the case's own bodies, and the contacts.
fn robot(
    case: &Case,
    r: &crate::case::RobotForm,
    sys: &crate::model::robot::RobotSystem,
) -> Option<Sketch> {
    let tree = &r.robot.tree;
    if tree.bodies.len() + r.bodies.len() > MAX_DRAWN {
        return None;
    }
    let kin = tree.kinematics(&sys.q);
    let v3 = |v: &Vector3<f64>| pad(&[v.x, v.y, v.z]);
    let mut bodies = Vec::new();
    let mut links = Vec::new();
    let mut joints = Vec::new();
    for (b, body) in tree.bodies.iter().enumerate() {
        let origin = v3(&kin.world(&kin.xpos[b]))?;
        if let Some(p) = body.parent {
            links.push((v3(&kin.world(&kin.xpos[p]))?, origin));
        }
        if !body.joints.is_empty() {
            joints.push(SketchJoint {
                point: origin,
                grounded: body.parent.is_none_or(|p| tree.last_dof(&kin, p).is_none()),
            });
        }
        if body.mass > 0.0 {
            bodies.push(SketchBody {
                name: body.name.clone(),
                com: v3(&kin.world(&(kin.xpos[b] + kin.xrot[b] * body.com)))?,
                outline: Outline::Point,
            });
        }
    }
    // A link ends at its child's frame; a body with no child (the last
    // link) is drawn out to its centre of mass, and every body to each
    // contact point on it — so no link is only a point.
    for (b, body) in tree.bodies.iter().enumerate() {
        let leaf = !tree.bodies.iter().any(|c| c.parent == Some(b));
        if leaf && body.mass > 0.0 && body.com.norm() > 1e-9 {
            links.push((
                v3(&kin.world(&kin.xpos[b]))?,
                v3(&kin.world(&(kin.xpos[b] + kin.xrot[b] * body.com)))?,
            ));
        }
    }
    for (c, (p, _)) in case.contacts.iter().zip(&sys.points) {
        let ContactGeometry::Link { body, other, .. } = &c.geometry else {
            continue;
        };
        for side in std::iter::once(body).chain(other) {
            if let crate::case::Side::Model(b) = side {
                links.push((v3(&kin.world(&kin.xpos[*b]))?, v3(&(p + sys.origin))?));
            }
        }
    }
    for b in &r.bodies {
        bodies.push(case_body(b)?);
    }
    let contacts = case
        .contacts
        .iter()
        .zip(&sys.points)
        .map(|(c, (p, n))| {
            let world = match &c.geometry {
                ContactGeometry::Link { other, .. } => other.is_none(),
                _ => false,
            };
            Some(SketchContact {
                name: c.name.clone(),
                point: v3(&(p + sys.origin))?,
                normal: unit(v3(n)?)?,
                world,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Sketch {
        dim: 3,
        bodies,
        links,
        joints,
        contacts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_of_a_box_inertia() {
        // A 2 × 0.4 × 0.2 box of 3 kg: Ixx = m(b² + c²)/12, …
        let (m, a, b, c) = (3.0, 2.0, 0.4, 0.2);
        let i = [
            m * (b * b + c * c) / 12.0,
            m * (a * a + c * c) / 12.0,
            m * (a * a + b * b) / 12.0,
        ];
        let h = box_half(m, i);
        for (got, want) in h.iter().zip([a / 2.0, b / 2.0, c / 2.0]) {
            assert!((got - want).abs() < 1e-12, "{got} vs {want}");
        }
    }
}
