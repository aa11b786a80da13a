//! URDF → [`Robot`].
//!
//! Links with `<inertial>` (origin xyz/rpy, mass, inertia tensor about the
//! centre of mass in the inertial frame); joints revolute, continuous,
//! prismatic, fixed, floating and planar with `<origin>` and `<axis>`;
//! `<mimic>` joints as constraint rows. A link's frame is its parent
//! joint's frame moved by the joint, as in the URDF specification; the
//! root link is fixed to the world (a floating base is a `floating` joint
//! from it, velocities in the body's axes as Pinocchio's free flyer).

use super::xml::{self, Problem, attr_span, fixed, tag_span};
use super::{Constraint, Format, MAX_BODIES, Robot};
use crate::diag::{Diagnostic, SourceError};
use crate::kinematics::{Body, Joint, JointKind, Tree};
use nalgebra::{Matrix3, UnitQuaternion, Vector3};
use roxmltree::Node;
use std::collections::HashMap;

/// Parses a URDF file's text.
pub fn parse(shown: &str, text: String) -> Result<Robot, SourceError> {
    let result = {
        let doc = xml::parse(&text);
        match doc {
            Ok(doc) => read(doc.root_element()).map(|(name, mut tree, constraints, notes)| {
                tree.ranges = ranges(doc.root_element(), &tree);
                (name, tree, constraints, notes)
            }),
            Err(p) => Err(p),
        }
    };
    result
        .map_err(|p| SourceError {
            path: shown.to_string(),
            source: text.clone(),
            diagnostics: vec![p],
        })
        .map(|(name, tree, constraints, notes)| Robot {
            format: Format::Urdf,
            path: shown.to_string(),
            name,
            tree,
            keyframes: Vec::new(),
            constraints,
            notes,
            sha256: String::new(),
            planes: Vec::new(),
        })
}

fn err(node: Node, attr: Option<&str>, message: impl Into<String>) -> Problem {
    let span = match attr {
        Some(a) => attr_span(node, a),
        None => tag_span(node),
    };
    Diagnostic::new(span, message)
}

fn child<'a, 'i>(node: Node<'a, 'i>, name: &str) -> Option<Node<'a, 'i>> {
    node.children().find(|n| n.has_tag_name(name))
}

/// `<origin xyz rpy>`: position and orientation (fixed-axis roll, pitch, yaw).
fn origin(node: Node) -> Result<(Vector3<f64>, UnitQuaternion<f64>), Problem> {
    let Some(o) = child(node, "origin") else {
        return Ok((Vector3::zeros(), UnitQuaternion::identity()));
    };
    let xyz = match o.attribute("xyz") {
        Some(t) => fixed::<3>(t, attr_span(o, "xyz"), "xyz")?,
        None => [0.0; 3],
    };
    let rpy = match o.attribute("rpy") {
        Some(t) => fixed::<3>(t, attr_span(o, "rpy"), "rpy")?,
        None => [0.0; 3],
    };
    Ok((
        Vector3::from(xyz),
        UnitQuaternion::from_euler_angles(rpy[0], rpy[1], rpy[2]),
    ))
}

fn value(node: Node, attr: &str) -> Result<f64, Problem> {
    let t = node.attribute(attr).ok_or_else(|| {
        err(
            node,
            None,
            format!("`<{}>` needs `{attr}`", node.tag_name().name()),
        )
    })?;
    Ok(fixed::<1>(t, attr_span(node, attr), attr)?[0])
}

/// The largest mimic multiplier read (see where it is used).
const MAX_MIMIC: f64 = 1e6;

/// A link's mass, centre of mass and inertia about it, in the link frame.
fn inertial(link: Node) -> Result<(f64, Vector3<f64>, Matrix3<f64>), Problem> {
    let Some(i) = child(link, "inertial") else {
        return Ok((0.0, Vector3::zeros(), Matrix3::zeros()));
    };
    let (pos, rot) = origin(i)?;
    let mass_node = child(i, "mass").ok_or_else(|| err(i, None, "`<inertial>` needs `<mass>`"))?;
    let mass = value(mass_node, "value")?;
    if mass < 0.0 {
        return Err(err(mass_node, Some("value"), "a mass cannot be negative"));
    }
    let inertia = match child(i, "inertia") {
        Some(t) => {
            // Off-diagonal products of inertia default to 0 when left out.
            let v = |a: &str| {
                if matches!(a, "ixy" | "ixz" | "iyz") && t.attribute(a).is_none() {
                    Ok(0.0)
                } else {
                    value(t, a)
                }
            };
            let m = Matrix3::new(
                v("ixx")?,
                v("ixy")?,
                v("ixz")?,
                v("ixy")?,
                v("iyy")?,
                v("iyz")?,
                v("ixz")?,
                v("iyz")?,
                v("izz")?,
            );
            // A physical inertia tensor: positive semi-definite, its
            // principal moments satisfying A + B ≥ C (a mass distribution
            // has no other); MuJoCo's compiler refuses the rest.
            let d = crate::linalg::eig::symmetric(m)
                .map_or(nalgebra::Vector3::repeat(f64::NAN), |e| e.eigenvalues);
            if !crate::kinematics::inertia::semi_definite(d.as_slice()) {
                return Err(err(
                    t,
                    None,
                    "the inertia tensor is not positive semi-definite",
                ));
            }
            let (a, b, c) = (d[0], d[1], d[2]);
            let tol = 1e-9 * (a + b + c).abs();
            if a + b < c - tol || a + c < b - tol || b + c < a - tol {
                return Err(err(
                    t,
                    None,
                    format!(
                        "the principal moments of inertia ({a:.4e}, {b:.4e}, {c:.4e}) violate A + B ≥ C: no mass distribution has them"
                    ),
                ));
            }
            let r = rot.to_rotation_matrix().into_inner();
            r * m * r.transpose()
        }
        None => return Err(err(i, None, "`<inertial>` needs `<inertia>`")),
    };
    Ok((mass, pos, inertia))
}

type Parsed = (String, Tree, Vec<Constraint>, Vec<String>);

/// A mimic row to be: (joint, the joint it mimics, multiplier, offset).
type Mimic = (usize, usize, f64, f64);

fn read(root: Node) -> Result<Parsed, Problem> {
    if !root.has_tag_name("robot") {
        return Err(err(root, None, "a URDF file's root element is `<robot>`"));
    }
    let links: Vec<Node> = root.children().filter(|n| n.has_tag_name("link")).collect();
    let joints: Vec<Node> = root
        .children()
        .filter(|n| n.has_tag_name("joint"))
        .collect();
    if links.len() > MAX_BODIES {
        return Err(err(root, None, format!("more than {MAX_BODIES} links")));
    }
    let link_index = link_index(&links)?;
    let Graph {
        parent_joint,
        children,
        joint_names,
        ends,
    } = graph(&links, &joints, &link_index)?;
    let root_link = root_link(root, &links, &parent_joint)?;
    let mut tree = Tree::default();
    let mut body_of_link = vec![usize::MAX; links.len()];
    let mut joint_of: HashMap<usize, usize> = HashMap::new();
    let mut mimics = Vec::new();
    let mut notes = Vec::new();
    // Depth-first, children in file order.
    let mut stack = vec![root_link];
    let mut visited = 0;
    while let Some(l) = stack.pop() {
        visited += 1;
        let link = links[l];
        let (mass, com, inertia) = inertial(link)?;
        let name = link.attribute("name").unwrap_or("").to_string();
        let (parent, pos, quat, body_joints) = match parent_joint[l] {
            None => (
                None,
                Vector3::zeros(),
                UnitQuaternion::identity(),
                Vec::new(),
            ),
            Some(ji) => {
                let j = joints[ji];
                let (pos, quat) = origin(j)?;
                let floating_ok = parent_joint[ends[ji].0].is_none();
                let list = joint_list(j, floating_ok)?;
                let ty = j.attribute("type").unwrap_or("");
                // A fixed joint that "mimics" another has nothing to move.
                if let Some(m) = child(j, "mimic").filter(|_| ty != "fixed") {
                    match mimic(
                        m,
                        &list,
                        ji,
                        &joint_names,
                        j.attribute("name").unwrap_or(""),
                    )? {
                        Ok(row) => mimics.push(row),
                        Err(note) => notes.push(note),
                    }
                }
                (Some(body_of_link[ends[ji].0]), pos, quat, list)
            }
        };
        let first = tree.joints.len();
        let b = tree.push_body(
            Body {
                name,
                parent,
                pos,
                quat,
                mass,
                com,
                inertia,
                joints: Vec::new(),
            },
            body_joints,
        );
        if let Some(ji) = parent_joint[l]
            && tree.joints.len() > first
        {
            joint_of.insert(ji, first);
        }
        body_of_link[l] = b;
        for &ji in children[l].iter().rev() {
            stack.push(ends[ji].1);
        }
    }
    if visited != links.len() {
        return Err(err(
            root,
            None,
            "some links are not connected to the root link",
        ));
    }
    let mut constraints = Vec::new();
    for (ji, target, multiplier, offset) in mimics {
        // A mimicked joint that does not move holds the mimic at its offset.
        constraints.push(Constraint::Joint {
            name: format!("mimic {}", joints[ji].attribute("name").unwrap_or("")),
            joint1: joint_of[&ji],
            joint2: joint_of.get(&target).copied(),
            coef: vec![offset, multiplier],
        });
    }
    Ok((
        root.attribute("name").unwrap_or("").to_string(),
        tree,
        constraints,
        notes,
    ))
}

/// Links by name (each name once).
fn link_index<'a>(links: &[Node<'a, '_>]) -> Result<HashMap<&'a str, usize>, Problem> {
    let mut link_index: HashMap<&str, usize> = HashMap::new();
    for (i, l) in links.iter().enumerate() {
        let name = l
            .attribute("name")
            .ok_or_else(|| err(*l, None, "a link needs a `name`"))?;
        if link_index.insert(name, i).is_some() {
            return Err(err(
                *l,
                Some("name"),
                format!("a second link named `{name}`"),
            ));
        }
    }
    Ok(link_index)
}

/// How joints connect links: each link's parent joint (at most one), each
/// link's child joints in file order, the joints by name (each once), and
/// each joint's (parent, child) links.
struct Graph<'a> {
    parent_joint: Vec<Option<usize>>,
    children: Vec<Vec<usize>>,
    joint_names: HashMap<&'a str, usize>,
    ends: Vec<(usize, usize)>,
}

/// The [`Graph`] of `joints` between `links`.
fn graph<'a>(
    links: &[Node],
    joints: &[Node<'a, '_>],
    link_index: &HashMap<&str, usize>,
) -> Result<Graph<'a>, Problem> {
    // Parent joint of each link; child joints of each link in file order.
    let mut parent_joint: Vec<Option<usize>> = vec![None; links.len()];
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); links.len()];
    let mut joint_names: HashMap<&str, usize> = HashMap::new();
    let mut ends = Vec::with_capacity(joints.len());
    for (ji, j) in joints.iter().enumerate() {
        let name = j
            .attribute("name")
            .ok_or_else(|| err(*j, None, "a joint needs a `name`"))?;
        if joint_names.insert(name, ji).is_some() {
            return Err(err(
                *j,
                Some("name"),
                format!("a second joint named `{name}`"),
            ));
        }
        let end = |tag: &str| -> Result<usize, Problem> {
            let n = child(*j, tag)
                .ok_or_else(|| err(*j, None, format!("joint `{name}` needs `<{tag}>`")))?;
            let l = n
                .attribute("link")
                .ok_or_else(|| err(n, None, format!("`<{tag}>` needs `link`")))?;
            link_index
                .get(l)
                .copied()
                .ok_or_else(|| err(n, Some("link"), format!("no link named `{l}`")))
        };
        let (p, c) = (end("parent")?, end("child")?);
        if parent_joint[c].is_some() {
            return Err(err(
                *j,
                None,
                format!(
                    "link `{}` has two parent joints",
                    links[c].attribute("name").unwrap_or("")
                ),
            ));
        }
        parent_joint[c] = Some(ji);
        children[p].push(ji);
        ends.push((p, c));
    }
    Ok(Graph {
        parent_joint,
        children,
        joint_names,
        ends,
    })
}

/// The one link without a parent joint (a URDF is one tree).
fn root_link(root: Node, links: &[Node], parent_joint: &[Option<usize>]) -> Result<usize, Problem> {
    let roots: Vec<usize> = (0..links.len())
        .filter(|&l| parent_joint[l].is_none())
        .collect();
    match roots.as_slice() {
        [r] => Ok(*r),
        [] => Err(err(root, None, "the links form a loop: no root link")),
        _ => Err(err(
            links[roots[1]],
            None,
            format!(
                "more than one root link (`{}` and `{}`): a URDF is one tree",
                links[roots[0]].attribute("name").unwrap_or(""),
                links[roots[1]].attribute("name").unwrap_or("")
            ),
        )),
    }
}

/// The joints of the tree a URDF `<joint>` stands for, by its `type`: one
/// hinge or slide, a ball, none (fixed), a free joint (floating, only at
/// the root link: `floating_ok`), or two slides and a hinge (planar).
fn joint_list(j: Node, floating_ok: bool) -> Result<Vec<Joint>, Problem> {
    let jname = j.attribute("name").unwrap_or("").to_string();
    let ty = j.attribute("type").unwrap_or("");
    let moving = matches!(ty, "revolute" | "continuous" | "prismatic");
    let axis = match child(j, "axis").and_then(|a| a.attribute("xyz").map(|t| (a, t))) {
        Some((a, t)) if moving => {
            let v = Vector3::from(fixed::<3>(t, attr_span(a, "xyz"), "xyz")?);
            if v.norm() < 1e-12 {
                return Err(err(a, Some("xyz"), "the joint axis is zero"));
            }
            v.normalize()
        }
        _ => Vector3::x(),
    };
    let make = |name: String, kind, axis| Joint {
        name,
        kind,
        pos: Vector3::zeros(),
        axis,
        q_ref: 0.0,
        armature: 0.0,
        qpos_adr: 0,
        dof_adr: 0,
    };
    Ok(match ty {
        "revolute" | "continuous" => vec![make(jname, JointKind::Hinge, axis)],
        "prismatic" => vec![make(jname, JointKind::Slide, axis)],
        // PyBullet's extension: a ball joint (angular velocity
        // in the link's axes, as Pinocchio's spherical joint).
        "spherical" => vec![make(jname, JointKind::Ball, Vector3::z())],
        "fixed" => Vec::new(),
        "floating" => {
            if !floating_ok {
                return Err(err(
                    j,
                    Some("type"),
                    "a floating joint must start at the root link",
                ));
            }
            vec![make(
                jname,
                JointKind::Free { local_linear: true },
                Vector3::z(),
            )]
        }
        "planar" => {
            let normal = child(j, "axis")
                .and_then(|a| a.attribute("xyz"))
                .map(numbers_of)
                .unwrap_or_default();
            if !(normal.is_empty() || normal == [0.0, 0.0, 1.0]) {
                return Err(err(
                    j,
                    Some("type"),
                    "planar joints are read with the plane normal along the joint frame's z axis",
                ));
            }
            vec![
                make(format!("{jname}.x"), JointKind::Slide, Vector3::x()),
                make(format!("{jname}.y"), JointKind::Slide, Vector3::y()),
                make(format!("{jname}.θ"), JointKind::Hinge, Vector3::z()),
            ]
        }
        other => {
            return Err(err(
                j,
                Some("type"),
                format!(
                    "unknown joint type `{other}` (revolute, continuous, prismatic, fixed, floating or planar)"
                ),
            ));
        }
    })
}

/// A `<mimic>` of joint `ji` (whose tree joints are `list`): its row, or
/// the note that it is dropped because it names no joint of the model.
fn mimic(
    m: Node,
    list: &[Joint],
    ji: usize,
    joint_names: &HashMap<&str, usize>,
    joint: &str,
) -> Result<Result<Mimic, String>, Problem> {
    if list.len() != 1 || list[0].kind == (JointKind::Free { local_linear: true }) {
        return Err(err(
            m,
            None,
            "only revolute, continuous and prismatic joints can mimic",
        ));
    }
    let multiplier = match m.attribute("multiplier") {
        Some(_) => value(m, "multiplier")?,
        None => 1.0,
    };
    // Gear ratios are tens or hundreds; a multiplier of
    // 1e160 makes the row's other entry round-off and the
    // constraint vanish, which would be a wrong answer.
    if multiplier.is_nan() || multiplier.abs() > MAX_MIMIC {
        return Err(err(
            m,
            Some("multiplier"),
            format!("a mimic multiplier beyond ±{MAX_MIMIC:e} (a gear ratio) is not read"),
        ));
    }
    let offset = match m.attribute("offset") {
        Some(_) => value(m, "offset")?,
        None => 0.0,
    };
    let of = m
        .attribute("joint")
        .ok_or_else(|| err(m, None, "`<mimic>` needs `joint`"))?;
    match joint_names.get(of) {
        Some(&target) => Ok(Ok((ji, target, multiplier, offset))),
        // As urdfdom and Pinocchio load it: the mimic is
        // dropped, and the report says so.
        None => Ok(Err(format!(
            "joint `{joint}` mimics `{of}`, which is not a joint of the model: the mimic is ignored"
        ))),
    }
}

/// Numbers of an attribute already known to exist (loose: for comparisons).
fn numbers_of(t: &str) -> Vec<f64> {
    t.split_ascii_whitespace()
        .map(|w| w.parse().unwrap_or(f64::NAN))
        .collect()
}

/// Per tree joint, the `<limit lower upper>` of a revolute or prismatic
/// joint that gives both (a continuous joint has none); what a program is
/// checked against, never used for the mass matrix.
fn ranges(root: Node, tree: &Tree) -> Vec<Option<[f64; 2]>> {
    let mut out = vec![None; tree.joints.len()];
    for j in root.children().filter(|n| n.has_tag_name("joint")) {
        if !matches!(j.attribute("type"), Some("revolute" | "prismatic")) {
            continue;
        }
        let Some(k) = j
            .attribute("name")
            .and_then(|name| tree.joints.iter().position(|t| t.name == name))
        else {
            continue;
        };
        let limit = child(j, "limit");
        let bound = |a: &str| {
            limit
                .and_then(|l| l.attribute(a))
                .and_then(|t| t.trim().parse::<f64>().ok())
                .filter(|x| x.is_finite())
        };
        if let (Some(lo), Some(hi)) = (bound("lower"), bound("upper"))
            && lo <= hi
        {
            out[k] = Some([lo, hi]);
        }
    }
    out
}
