//! The `[model]` table: a robot model from an MJCF or URDF file, the
//! configuration it is evaluated at, and whether joint armature counts.
//! The file itself is read by [`crate::robot`].

use super::read::{Reader, get, header};
use super::types::{RobotForm, Val};
use crate::diag::Diagnostic;
use crate::kinematics::JointKind;
use crate::robot::Robot;
use crate::units::Dim;
use toml::de::{DeTable, DeValue};

type Node<'i> = toml::Spanned<DeValue<'i>>;

pub(super) const MODEL_KEYS: &[&str] = &["mjcf", "urdf", "keyframe", "configuration", "armature"];

impl Reader<'_> {
    /// Reads `[model]` and the model file it names.
    pub(super) fn robot_model(&mut self, node: &Node) -> Option<RobotForm> {
        let t: &DeTable = self.table(node, "`[model]`")?;
        self.keys(t, MODEL_KEYS, "`[model]`");
        let span = node.span();
        let (file, file_node, robot) = self.model_file(t, &span)?;
        let (base, keyframe) = self.model_keyframe(t, &robot)?;
        let configuration = self.model_configuration(t, &robot)?;
        let armature = self.model_armature(t)?;
        self.check_model_mass_matrix(&robot, &base, &configuration, armature, file_node)?;
        Some(RobotForm {
            robot: std::sync::Arc::new(robot),
            file,
            span,
            keyframe,
            base,
            configuration,
            armature,
            bodies: Vec::new(),
            payloads: Vec::new(),
        })
    }

    /// The model file `[model]` names (`mjcf` or `urdf`, one of them), read
    /// and of the format named; `file` as written and its node.
    fn model_file<'t, 'i>(
        &mut self,
        t: &'t DeTable<'i>,
        span: &std::ops::Range<usize>,
    ) -> Option<(String, &'t Node<'i>, Robot)> {
        let (key, file_node) = match (get(t, "mjcf"), get(t, "urdf")) {
            (Some(n), None) => ("mjcf", n),
            (None, Some(n)) => ("urdf", n),
            (Some(_), Some(n)) => {
                self.error(Diagnostic::new(n.span(), "give `mjcf` or `urdf`, not both"));
                return None;
            }
            (None, None) => {
                self.error(
                    Diagnostic::new(header(span), "`[model]` names a model file").hint(
                        "mjcf = \"arm.xml\" or urdf = \"arm.urdf\", relative to the case file",
                    ),
                );
                return None;
            }
        };
        let file = self.string(file_node, &format!("`{key}`"))?;
        let Some(access) = self.files.clone() else {
            self.error(
                Diagnostic::new(
                    file_node.span(),
                    "model files are read only for a case file on disk",
                )
                .hint(
                    "run meff on the case file (or on `-` from the directory the path starts from)",
                ),
            );
            return None;
        };
        let shown = crate::diag::escape_controls(&access.base.join(&file).display().to_string())
            .into_owned();
        let path = match access.resolve(&file) {
            Ok(p) => p,
            Err(message) => {
                self.error(Diagnostic::new(
                    file_node.span(),
                    format!("cannot read `{file}`: {message}"),
                ));
                return None;
            }
        };
        let robot = match Robot::read(&path, &shown, access.max_bytes, access.confine.as_ref()) {
            Ok(r) => r,
            Err(e) if e.source.is_empty() => {
                let msg = e
                    .diagnostics
                    .first()
                    .map(|d| d.message.clone())
                    .unwrap_or_default();
                self.error(Diagnostic::new(
                    file_node.span(),
                    format!("cannot read `{file}`: {msg}"),
                ));
                return None;
            }
            Err(e) => {
                self.foreign = Some(e);
                return None;
            }
        };
        let expected = if key == "mjcf" {
            crate::robot::Format::Mjcf
        } else {
            crate::robot::Format::Urdf
        };
        if robot.format != expected {
            self.error(Diagnostic::new(
                file_node.span(),
                format!(
                    "`{file}` is a {} file, not {}",
                    robot.format.name(),
                    expected.name()
                ),
            ));
            return None;
        }
        Some((file, file_node, robot))
    }

    /// The configuration the case starts from: the model's `qpos0`, or the
    /// keyframe named by `keyframe` (and its name).
    fn model_keyframe(&mut self, t: &DeTable, robot: &Robot) -> Option<(Vec<f64>, Option<String>)> {
        let mut base = robot.tree.qpos0.clone();
        let mut keyframe = None;
        if let Some(k) = get(t, "keyframe") {
            let name = self.string(k, "`keyframe`")?;
            match robot.keyframe(&name) {
                Some(q) => base = q.to_vec(),
                None => {
                    let names: Vec<&str> =
                        robot.keyframes.iter().map(|(n, _)| n.as_str()).collect();
                    let hint = if names.is_empty() {
                        "the model has no keyframes".to_string()
                    } else {
                        format!("keyframes: {}", names.join(", "))
                    };
                    self.error(
                        Diagnostic::new(k.span(), format!("no keyframe named `{name}`")).hint(hint),
                    );
                    return None;
                }
            }
            keyframe = Some(name);
        }
        Some((base, keyframe))
    }

    /// `configuration = { joint = value }`: hinge and slide joints by name,
    /// each value within range (a joint problem is reported and skipped).
    fn model_configuration(&mut self, t: &DeTable, robot: &Robot) -> Option<Vec<(usize, Val)>> {
        let mut configuration = Vec::new();
        if let Some(c) = get(t, "configuration") {
            let ct = self.table(c, "`configuration`")?;
            for (k, v) in ct.iter() {
                let jname = k.get_ref().as_ref();
                let Some(j) = robot.tree.joints.iter().position(|j| j.name == jname) else {
                    let d = Diagnostic::new(k.span(), format!("the model has no joint `{jname}`"))
                        .maybe_hint(
                            crate::diag::closest(
                                jname,
                                robot.tree.joints.iter().map(|j| j.name.as_str()),
                            )
                            .map(|b| format!("did you mean `{b}`?")),
                        );
                    self.error(d);
                    continue;
                };
                let dim = match robot.tree.joints[j].kind {
                    JointKind::Hinge => Dim::NONE,
                    JointKind::Slide => Dim::LENGTH,
                    _ => {
                        self.error(Diagnostic::new(
                            k.span(),
                            format!("`{jname}` is a ball or free joint: set it with a keyframe"),
                        ));
                        continue;
                    }
                };
                if let Some(val) = self.value(v, dim, &format!("joint `{jname}`")) {
                    if val.si.abs() > crate::robot::MAX_MAGNITUDE {
                        self.error(Diagnostic::new(
                            val.span.clone(),
                            format!(
                                "joint `{jname}` at {}: beyond ±10³⁰ (SI), the poses overflow 64-bit floating point",
                                val.si
                            ),
                        ));
                        continue;
                    }
                    configuration.push((j, val));
                }
            }
        }
        Some(configuration)
    }

    /// `armature` (true by default): whether joint armature is in M.
    fn model_armature(&mut self, t: &DeTable) -> Option<bool> {
        let armature = match get(t, "armature") {
            Some(n) => match n.get_ref() {
                DeValue::Boolean(b) => *b,
                other => {
                    self.error(Diagnostic::new(
                        n.span(),
                        format!(
                            "`armature` must be true or false, found {}",
                            other.type_str()
                        ),
                    ));
                    return None;
                }
            },
            None => true,
        };
        Some(armature)
    }

    /// M must be positive definite at the case's configuration: a joint
    /// that moves no mass (and has no armature) cannot be analysed. An
    /// error at the model file says why (an overflow, an inertia too far
    /// below the others, a velocity without inertia).
    fn check_model_mass_matrix(
        &mut self,
        robot: &Robot,
        base: &[f64],
        configuration: &[(usize, Val)],
        armature: bool,
        file_node: &Node,
    ) -> Option<()> {
        let mut q = base.to_vec();
        for (j, v) in configuration {
            q[robot.tree.joints[*j].qpos_adr] = v.si;
        }
        let tree = &robot.tree;
        let kin = tree.kinematics(&q);
        let n = tree.nv;
        let m = tree.mass_matrix(&kin, armature);
        let rows: Vec<Vec<f64>> = (0..n).map(|i| m[i * n..(i + 1) * n].to_vec()).collect();
        if let Some(k) = super::read::cholesky_failure(&rows) {
            let names = tree.dof_names();
            // The diagnosis: a value that overflowed, a matrix too
            // ill-conditioned to factor, or a velocity without inertia.
            let diag: Vec<f64> = (0..n).map(|i| rows[i][i]).collect();
            let largest = diag.iter().fold(0.0f64, |a, x| a.max(x.abs()));
            let why = if rows.iter().flatten().any(|x| !x.is_finite()) {
                let body = tree
                    .bodies
                    .iter()
                    .enumerate()
                    .find(|(b, _)| {
                        !(kin.world(&kin.xpos[*b]).norm_squared().is_finite()
                            && kin.xrot[*b].iter().all(|x| x.is_finite()))
                    })
                    .map(|(_, b)| b.name.clone());
                Some(format!(
                    "the model's mass matrix overflows 64-bit floating point at this configuration{}",
                    body.map_or(String::new(), |b| format!(
                        ": body `{b}`'s pose is out of range (positions, sizes or joint values far from physical scales)"
                    ))
                ))
            } else if diag[k] > 0.0 && diag[k] < 1e-12 * largest {
                let top = diag
                    .iter()
                    .enumerate()
                    .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))
                    .map_or(0, |(i, _)| i);
                Some(format!(
                    "the model's mass matrix cannot be factored at this configuration: velocity `{}` has inertia {:e}, 10^{} below velocity `{}`'s {:e} (armatures or masses far apart)",
                    names[k].0,
                    diag[k],
                    (largest / diag[k]).log10().round(),
                    names[top].0,
                    largest
                ))
            } else {
                None
            };
            if let Some(why) = why {
                self.error(Diagnostic::new(file_node.span(), why));
                return None;
            }
            let joint = tree
                .joints
                .iter()
                .position(|j| (j.dof_adr..j.dof_adr + j.kind.nv()).contains(&k));
            let body = joint.and_then(|ji| tree.bodies.iter().find(|b| b.joints.contains(&ji)));
            self.error(
                Diagnostic::new(
                    file_node.span(),
                    format!(
                        "the model's mass matrix is singular at this configuration: velocity `{}` adds no kinetic energy of its own",
                        names[k].0
                    ),
                )
                .maybe_hint(body.map(|b| {
                    format!(
                        "body `{}` and the bodies it carries need mass and inertia (an `<inertial>` or geoms with mass), or the joint an armature",
                        b.name
                    )
                })),
            );
            return None;
        }
        Some(())
    }

    /// A body of a `[model]` case by name (for contacts): the model's
    /// bodies first, then those written in the case; `world` is `None`.
    pub(super) fn model_body(
        &mut self,
        node: &Node,
        form: &RobotForm,
    ) -> Option<Option<super::types::Side>> {
        use super::types::Side;
        let name = self.string(node, "`body`")?;
        if name == "world" {
            return Some(None);
        }
        let tree = &form.robot.tree;
        if let Some(b) = tree.body_index(&name) {
            return Some(Some(Side::Model(b)));
        }
        if let Some(b) = form.bodies.iter().position(|b| b.name == name) {
            return Some(Some(Side::Case(b)));
        }
        if self.declared_bodies.contains(&name) {
            return None;
        }
        let names = tree
            .bodies
            .iter()
            .map(|b| b.name.as_str())
            .chain(form.bodies.iter().map(|b| b.name.as_str()));
        let d = Diagnostic::new(node.span(), format!("the model has no body `{name}`"))
            .maybe_hint(crate::diag::closest(&name, names).map(|b| format!("did you mean `{b}`?")));
        self.error(d);
        None
    }
}
