//! The model as the case defines it: every body, joint and contact with its
//! values as typed and in SI, and every description — what a signer checks
//! the result against before reading any number derived from it.

use crate::case::{BodyKind, Case, ContactGeometry, Form, InertiaVal, Side, Val};
use serde::Serialize;

/// Most bodies or contacts listed one by one (a scene of 10⁵ bodies is
/// summarised, not listed).
pub const MAX_LISTED: usize = 200;

/// A value as typed and in SI.
#[derive(Clone, Debug, Serialize)]
pub struct Typed {
    /// As typed in the case (`"r"`, `"0.10 m"`, `"lx/2"`).
    pub text: String,
    /// Its SI value.
    pub si: f64,
    /// Whether the SI value says more than the text: false for a number
    /// typed in SI units (`"2 kg"`, `"0.1 m"`, `"1"`).
    pub derived: bool,
}

impl Typed {
    fn of(v: &Val) -> Typed {
        use crate::expr::ExprKind;
        let literal_si = match &v.expr.kind {
            ExprKind::Number(n) | ExprKind::Quantity(n, _) => n.value == v.si,
            ExprKind::Neg(x) => match &x.kind {
                ExprKind::Number(n) | ExprKind::Quantity(n, _) => -n.value == v.si,
                _ => false,
            },
            _ => false,
        };
        Typed {
            text: v.text.clone(),
            si: v.si,
            derived: !literal_si,
        }
    }
}

/// A body.
#[derive(Clone, Debug, Serialize)]
pub struct BodyDef {
    /// Name.
    pub name: String,
    /// `particle`, `rigid` or `fixed`.
    pub kind: &'static str,
    /// Mass (kg); `null` for a fixed body.
    pub mass: Option<Typed>,
    /// Inertia (kg m²): one value (planar), three principal values, or the
    /// nine entries of the tensor row by row; empty without one.
    pub inertia: Vec<Typed>,
    /// Centre of mass, world frame (m).
    pub position: Vec<Typed>,
    /// `description`.
    pub description: Option<String>,
}

/// A joint.
#[derive(Clone, Debug, Serialize)]
pub struct JointDef {
    /// The first body.
    pub body: String,
    /// The second body, or `world`.
    pub other: String,
    /// The joint point, world frame (m).
    pub point: Vec<Typed>,
    /// `description`.
    pub description: Option<String>,
}

/// A contact.
#[derive(Clone, Debug, Serialize)]
pub struct ContactDef {
    /// Name.
    pub name: String,
    /// The body whose gap opens along +normal.
    pub body: String,
    /// The other side: a body or `world`.
    pub other: String,
    /// `world` or `body` (the frame point and normal are given in), or
    /// `body_point` (the point in the body's frame, the normal in the
    /// world's: `normal_frame = "world"`).
    pub frame: &'static str,
    /// Contact point (m).
    pub point: Vec<Typed>,
    /// Unit normal.
    pub normal: Vec<Typed>,
    /// Generalized form: the Jacobian row as typed.
    pub jacobian: Vec<Typed>,
    /// The point and normal in world coordinates at the case's pose (and
    /// a model contact's angle to each plane of the model); `null` for a
    /// Jacobian row.
    pub world: Option<crate::checks::WorldContact>,
    /// Stiffness (N/m).
    pub stiffness: Typed,
    /// Damping (N s/m).
    pub damping: Option<Typed>,
    /// The tangential ("stick") spring, when the contact has one: its
    /// stiffness and damping per tangent row (`null` without one).
    pub tangential: Option<TangentialDef>,
    /// `description`.
    pub description: Option<String>,
}

/// A contact's tangential spring, each tangent row's values as typed
/// (a ratio as `ratio × k`, its SI value the product).
#[derive(Clone, Debug, Serialize)]
pub struct TangentialDef {
    /// k_t (N/m).
    pub stiffness: Typed,
    /// c_t (N s/m), when the tangent rows have dashpots.
    pub damping: Option<Typed>,
    /// Tangent rows: 2 in 3-d, 1 in a planar case.
    pub rows: usize,
}

/// A tangential value as typed: absolute, or `ratio × normal`.
fn tangential_typed(v: &crate::case::TangentialValue, normal: Option<&Val>, sym: &str) -> Typed {
    use crate::case::TangentialValue as T;
    match v {
        T::Absolute(v) => Typed::of(v),
        T::Ratio(r) => Typed {
            text: format!("{} × {sym}", r.text),
            si: r.si * normal.map_or(f64::NAN, |n| n.si),
            derived: true,
        },
    }
}

/// The model file of a `[model]` case and the configuration it is
/// evaluated at.
#[derive(Clone, Debug, Serialize)]
pub struct ModelDef {
    /// `MJCF` or `URDF`.
    pub format: &'static str,
    /// The file as written in the case.
    pub file: String,
    /// SHA-256 of the file's bytes (lower-case hex; the main file).
    pub sha256: String,
    /// The keyframe the configuration starts from, if any.
    pub keyframe: Option<String>,
    /// Every hinge and slide joint: its value as typed in the case, or
    /// `null` where it comes from the keyframe or the model's reference
    /// configuration.
    pub joints: Vec<ModelJointDef>,
}

/// One joint of the configuration.
#[derive(Clone, Debug, Serialize)]
pub struct ModelJointDef {
    /// Joint name.
    pub joint: String,
    /// As typed in `[model] configuration`, or `null`.
    pub typed: Option<Typed>,
    /// The value used (SI: rad or m).
    pub si: f64,
    /// `rad` or `m`.
    pub unit: &'static str,
}

fn model_def(r: &crate::case::RobotForm) -> ModelDef {
    use crate::kinematics::JointKind;
    let q = r.configuration_with(|v| v.si);
    let joints = r
        .robot
        .tree
        .joints
        .iter()
        .enumerate()
        .filter_map(|(k, j)| {
            let unit = match j.kind {
                JointKind::Hinge => "rad",
                JointKind::Slide => "m",
                _ => return None,
            };
            Some(ModelJointDef {
                joint: j.name.clone(),
                typed: r
                    .configuration
                    .iter()
                    .find(|(i, _)| *i == k)
                    .map(|(_, v)| Typed::of(v)),
                si: q[j.qpos_adr],
                unit,
            })
        })
        .collect();
    ModelDef {
        format: r.robot.format.name(),
        file: r.file.clone(),
        sha256: r.robot.sha256.clone(),
        keyframe: r.keyframe.clone(),
        joints,
    }
}

/// The model definition of a case.
#[derive(Clone, Debug, Serialize)]
pub struct Definition {
    /// A `[model]` case's model file, its SHA-256 and the configuration.
    pub model: Option<ModelDef>,
    /// Bodies of the case (for a `[model]` case: the case's own bodies
    /// beside the model).
    pub bodies: Vec<BodyDef>,
    /// Joints.
    pub joints: Vec<JointDef>,
    /// Contacts.
    pub contacts: Vec<ContactDef>,
}

fn body_def(b: &crate::case::Body) -> BodyDef {
    let (kind, mass, inertia) = match &b.kind {
        BodyKind::Particle { mass } => ("particle", Some(Typed::of(mass)), Vec::new()),
        BodyKind::Rigid { mass, inertia } => (
            "rigid",
            Some(Typed::of(mass)),
            match inertia {
                InertiaVal::Scalar(v) => vec![Typed::of(v)],
                InertiaVal::Diagonal(d) => d.iter().map(Typed::of).collect(),
                InertiaVal::Full(t) => t.iter().flatten().map(Typed::of).collect(),
            },
        ),
        BodyKind::Fixed => ("fixed", None, Vec::new()),
    };
    BodyDef {
        name: b.name.clone(),
        kind,
        mass,
        inertia,
        position: b.position.iter().map(Typed::of).collect(),
        description: b.description.clone(),
    }
}

/// The definition, or `None` for a scene or a case too large to list.
pub fn definition(case: &Case) -> Option<Definition> {
    if case.scene.is_some() || case.contacts.len() > MAX_LISTED {
        return None;
    }
    let (bodies, joints): (Vec<&crate::case::Body>, Vec<JointDef>) = match &case.form {
        Form::Bodies { bodies, joints } => {
            let name = |i: Option<usize>| {
                i.map_or_else(|| "world".to_string(), |i| bodies[i].name.clone())
            };
            (
                bodies.iter().collect(),
                joints
                    .iter()
                    .map(|j| JointDef {
                        body: name(Some(j.body)),
                        other: name(j.other),
                        point: j.point.iter().map(Typed::of).collect(),
                        description: j.description.clone(),
                    })
                    .collect(),
            )
        }
        Form::Robot(r) => (r.bodies.iter().collect(), Vec::new()),
        _ => (Vec::new(), Vec::new()),
    };
    if bodies.len() > MAX_LISTED {
        return None;
    }
    let side = |s: &Side| -> String {
        match (s, &case.form) {
            (Side::Model(b), Form::Robot(r)) => r.robot.tree.bodies[*b].name.clone(),
            (Side::Case(i), Form::Robot(r)) => r.bodies[*i].name.clone(),
            _ => "?".into(),
        }
    };
    let body_name = |i: usize| match &case.form {
        Form::Bodies { bodies, .. } => bodies[i].name.clone(),
        _ => "?".into(),
    };
    let contacts = case
        .contacts
        .iter()
        .map(|c| {
            let (body, other, frame, point, normal, jacobian) = match &c.geometry {
                ContactGeometry::Point {
                    body,
                    other,
                    point,
                    normal,
                } => (
                    body_name(*body),
                    other.map_or_else(|| "world".to_string(), body_name),
                    "world",
                    point.iter().map(Typed::of).collect(),
                    normal.iter().map(Typed::of).collect(),
                    Vec::new(),
                ),
                ContactGeometry::Link {
                    body,
                    other,
                    world,
                    normal_world,
                    point,
                    normal,
                } => (
                    side(body),
                    other.as_ref().map_or_else(|| "world".to_string(), side),
                    match (world, normal_world) {
                        (true, _) => "world",
                        (false, true) => "body_point",
                        (false, false) => "body",
                    },
                    point.iter().map(Typed::of).collect(),
                    normal.iter().map(Typed::of).collect(),
                    Vec::new(),
                ),
                ContactGeometry::Jacobian(row) => (
                    String::new(),
                    String::new(),
                    "world",
                    Vec::new(),
                    Vec::new(),
                    row.iter().map(Typed::of).collect(),
                ),
            };
            ContactDef {
                name: c.name.clone(),
                body,
                other,
                frame,
                point,
                normal,
                jacobian,
                world: None,
                stiffness: Typed::of(&c.stiffness),
                damping: c.damping.as_ref().map(Typed::of),
                tangential: c.tangential.as_ref().map(|t| TangentialDef {
                    stiffness: tangential_typed(&t.stiffness, Some(&c.stiffness), "k"),
                    damping: t
                        .damping
                        .as_ref()
                        .map(|d| tangential_typed(d, c.damping.as_ref(), "c")),
                    rows: t.basis.len(),
                }),
                description: c.description.clone(),
            }
        })
        .collect();
    Some(Definition {
        model: match &case.form {
            Form::Robot(r) => Some(model_def(r)),
            _ => None,
        },
        bodies: bodies.into_iter().map(body_def).collect(),
        joints,
        contacts,
    })
}

/// A scene file as the case names it, with its SHA-256 (lower-case hex;
/// empty when one rank of several read only its part).
#[derive(Clone, Debug, Serialize)]
pub struct SceneFile {
    /// The path as written in the case.
    pub file: String,
    /// SHA-256 of its bytes.
    pub sha256: String,
}

/// The scene files of `case` (CSV bodies and contacts, NPZ, dump), for
/// the title block; empty for a case without `[scene]`.
pub fn scene_files(case: &Case) -> Vec<SceneFile> {
    case.scene.as_ref().map_or_else(Vec::new, |s| {
        s.files
            .iter()
            .enumerate()
            .map(|(i, f)| SceneFile {
                file: f.clone(),
                sha256: s.sha256.get(i).cloned().unwrap_or_default(),
            })
            .collect()
    })
}
