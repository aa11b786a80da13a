//! `[[payload]]`: a tool or a part carried by a link of a `[model]`, a
//! rigid body welded to the link. It is added to the model's tree as a
//! jointless child of the link — what a fixed joint to a payload link in
//! the model file gives — so M, the contacts, the ellipsoids and programs
//! all see it exactly, and the rule of thumb takes its mass as m_L.
//!
//! (A `[[body]]` beside a `[model]` is a free body with six velocities of
//! its own, and `[[joint]]` is not available with `[model]`: neither
//! attaches a payload to a link.)

use super::read::{Reader, get, header};
use super::types::RobotForm;
use crate::diag::Diagnostic;
use crate::kinematics::Body;
use crate::units::Dim;
use nalgebra::{Matrix3, UnitQuaternion, Vector3};
use toml::de::DeValue;

type Node<'i> = toml::Spanned<DeValue<'i>>;

pub(super) const PAYLOAD_KEYS: &[&str] =
    &["name", "body", "mass", "position", "inertia", "description"];

/// A payload welded to a link.
#[derive(Clone, Debug, PartialEq)]
pub struct Payload {
    /// Name (a body of the tree from then on).
    pub name: String,
    /// The link it is welded to (tree body index).
    pub link: usize,
    /// Its own body in the tree.
    pub body: usize,
    /// Mass (kg).
    pub mass: f64,
}

impl Reader<'_> {
    /// Reads the `[[payload]]` tables and welds them into the model.
    pub(super) fn payloads(&mut self, node: Option<&Node>, form: &mut RobotForm) {
        let tables = self.tables(node, "`[[payload]]`");
        if tables.is_empty() {
            return;
        }
        let mut robot = (*form.robot).clone();
        for (t, span) in tables {
            self.keys(t, PAYLOAD_KEYS, "`[[payload]]`");
            let name = self
                .required(t, "name", "`[[payload]]`", &span)
                .and_then(|n| self.string(n, "`name`"));
            if let Some(n) = &name
                && (robot.tree.body_index(n).is_some() || form.bodies.iter().any(|b| b.name == *n))
            {
                self.error(
                    Diagnostic::new(header(&span), format!("the model already has a body `{n}`"))
                        .hint("give the payload another name"),
                );
                continue;
            }
            let link = self
                .required(t, "body", "`[[payload]]`", &span)
                .and_then(|n| {
                    let b = self.string(n, "`body`")?;
                    let found = robot.tree.body_index(&b);
                    if found.is_none() {
                        let d = Diagnostic::new(n.span(), format!("the model has no body `{b}`"))
                            .maybe_hint(
                                crate::diag::closest(
                                    &b,
                                    robot.tree.bodies.iter().map(|x| x.name.as_str()),
                                )
                                .map(|c| format!("did you mean `{c}`?")),
                            );
                        self.error(d);
                    }
                    found
                });
            let mut constant = |reader: &mut Self, v: Option<crate::case::Val>| -> Option<f64> {
                let v = v?;
                if !v.expr.params().is_empty() {
                    reader.error(
                        Diagnostic::new(
                            v.span.clone(),
                            "a payload's values are numbers with units, not parameters",
                        )
                        .hint("the payload is welded into the model once, when the case is read"),
                    );
                    return None;
                }
                Some(v.si)
            };
            let mass = self
                .required(t, "mass", "`[[payload]]`", &span)
                .and_then(|n| {
                    let v = self.value(n, Dim::MASS, "a payload's mass");
                    let v = self.positive(v, "a payload's mass");
                    constant(self, v)
                });
            let position = match get(t, "position") {
                None => Some(Vector3::zeros()),
                Some(n) => self
                    .vector(n, 3, Dim::LENGTH, "a payload's centre of mass (link frame)")
                    .and_then(|v| {
                        let x: Vec<f64> = v
                            .into_iter()
                            .filter_map(|v| constant(self, Some(v)))
                            .collect();
                        (x.len() == 3).then(|| Vector3::new(x[0], x[1], x[2]))
                    }),
            };
            let inertia = match get(t, "inertia") {
                None => Some(Matrix3::zeros()),
                Some(n) => self.payload_inertia(n, &mut constant),
            };
            if let (Some(name), Some(link), Some(mass), Some(com), Some(inertia)) =
                (name, link, mass, position, inertia)
            {
                let body = robot.tree.push_body(
                    Body {
                        name: name.clone(),
                        parent: Some(link),
                        pos: com,
                        quat: UnitQuaternion::identity(),
                        mass,
                        com: Vector3::zeros(),
                        inertia,
                        joints: Vec::new(),
                    },
                    Vec::new(),
                );
                form.payloads.push(Payload {
                    name,
                    link,
                    body,
                    mass,
                });
            }
        }
        form.robot = std::sync::Arc::new(robot);
    }

    /// `inertia`: three principal moments `[Ixx, Iyy, Izz]` or a 3×3
    /// symmetric tensor, about the centre of mass in the link's axes.
    fn payload_inertia(
        &mut self,
        n: &Node,
        constant: &mut impl FnMut(&mut Self, Option<crate::case::Val>) -> Option<f64>,
    ) -> Option<Matrix3<f64>> {
        let items = self.array(n, "`inertia`")?;
        let what = "a payload's moment of inertia";
        let m = if items
            .iter()
            .all(|i| matches!(i.get_ref(), DeValue::Array(_)))
            && items.len() == 3
        {
            let mut m = Matrix3::zeros();
            for (i, row) in items.iter().enumerate() {
                let v = self.vector(row, 3, Dim::INERTIA, what)?;
                for (j, x) in v.into_iter().enumerate() {
                    m[(i, j)] = constant(self, Some(x))?;
                }
            }
            m
        } else {
            let v = self.vector(n, 3, Dim::INERTIA, what)?;
            let mut d = [0.0; 3];
            for (k, x) in v.into_iter().enumerate() {
                d[k] = constant(self, Some(x))?;
            }
            Matrix3::from_diagonal(&Vector3::from(d))
        };
        let scale = m.abs().max();
        let symmetric = (m - m.transpose()).abs().max() <= 1e-9 * scale;
        // I is a body's inertia iff Σ = (tr I/2)·1 − I (the second moments
        // of its mass) is positive semidefinite: then I₁ + I₂ ≥ I₃ and
        // I ≥ 0. Sylvester's principal minors, no decomposition.
        let sym = 0.5 * (m + m.transpose());
        let sigma = Matrix3::identity() * (sym.trace() / 2.0) - sym;
        let tol = 1e-9 * scale.max(f64::MIN_POSITIVE);
        let minor =
            |i: usize, j: usize| sigma[(i, i)] * sigma[(j, j)] - sigma[(i, j)] * sigma[(j, i)];
        let semidefinite = (0..3).all(|i| sigma[(i, i)] >= -tol)
            && [(0, 1), (0, 2), (1, 2)]
                .iter()
                .all(|&(i, j)| minor(i, j) >= -tol * scale)
            && sigma.determinant() >= -tol * scale * scale;
        if !symmetric || !semidefinite {
            self.error(
                Diagnostic::new(n.span(), "a payload's inertia must be symmetric positive semidefinite, its principal moments obeying I₁ + I₂ ≥ I₃")
                    .hint("about the centre of mass, in the link's axes"),
            );
            return None;
        }
        Some(m)
    }
}
