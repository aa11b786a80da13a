//! A body's shape (`[[body]] shape`), the [`Rotation`] its orientation
//! gives (read in `orientation.rs`), and the naming of composed values.
//!
//! Everything here is built as case values (`Val`): expressions over the
//! case's own values, composed as text and parsed by the one expression
//! reader, so the symbolic engine sees `m*(b^2 + c^2)/12` and `cos(θ)` just
//! as if the user had typed them, and the numeric path gets the same
//! numbers. A shape's inertia is that of a uniform solid with MJCF's axes
//! (cylinder and capsule along z). An orientation `R` turns body axes into
//! world axes: the inertia becomes `R I Rᵀ`, a body-frame point `p` becomes
//! `position + R p` and a normal `n` becomes `R n`.

use super::read::*;
use super::types::*;
use crate::diag::Diagnostic;
use crate::kinematics::shape::Shape;
use crate::units::Dim;
use std::ops::Range;

/// A rotation, body axes → world axes: entries as expression text (for
/// the symbolic forms) and as numbers. Planar: the top-left 2×2 block.
#[derive(Clone, Debug)]
pub struct Rotation {
    /// Entries as expression text (`"1"`, `"0"`, `"cos(th)"`, a number).
    pub text: [[String; 3]; 3],
    /// Entries at the case's values.
    pub num: [[f64; 3]; 3],
}

/// Longest text a composition repeats in place; a longer one is named
/// once ([`Reader::named`]).
const INLINE_TEXT: usize = 40;

fn paren(s: &str) -> String {
    format!("({s})")
}

/// A body's `shape` as given, for drawing: its kind and sizes (SI, the
/// order of the case format: box sides, sphere radius, cylinder and
/// capsule radius and length, ellipsoid semi-axes, rod length).
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeGeom {
    /// The shape.
    pub kind: Shape,
    /// Sizes (m).
    pub size: Vec<f64>,
}

impl Rotation {
    pub(super) fn from_num(m: [[f64; 3]; 3]) -> Rotation {
        // Round-off below 1e-15 is zero (a quarter turn's cos is 6e-17).
        let m = m.map(|row| row.map(|x| if x.abs() < 1e-15 { 0.0 } else { x }));
        Rotation {
            text: m.map(|row| row.map(super::orientation::num_text)),
            num: m,
        }
    }
}

impl Reader<'_> {
    /// A value computed from others: `text` parsed and evaluated; its
    /// span is the node the user wrote (`at`).
    pub(super) fn composed(&mut self, text: String, at: Range<usize>, dim: Dim) -> Option<Val> {
        if text == "0" {
            return Some(Val {
                span: at,
                ..zero_val(dim)
            });
        }
        let expr = match crate::expr::parse(&text) {
            Ok(e) => e,
            Err(e) => {
                self.error(Diagnostic::new(
                    at,
                    format!("cannot compose a value: {}", e.message),
                ));
                return None;
            }
        };
        match self.env.eval(&expr) {
            Ok(v) if v.fits(dim) && v.si.is_finite() => Some(Val {
                text,
                expr,
                span: at,
                si: v.si,
                dim,
            }),
            Ok(v) if !v.si.is_finite() => {
                self.error(Diagnostic::new(at, "this value overflows"));
                None
            }
            Ok(_) => {
                self.error(Diagnostic::new(at, format!("this must be in {dim}")));
                None
            }
            Err(e) => {
                self.error(Diagnostic::new(at, e.message));
                None
            }
        }
    }

    /// The text a composition uses for `v`: its own when short, else the
    /// name of a [`Derived`] value defined once as `v` (the same value named
    /// twice gets one name). Compositions over these texts stay a bounded
    /// size whatever the input's expressions, so what is built is linear in
    /// the input.
    pub(super) fn named(&mut self, v: &Val) -> String {
        if v.text.len() <= INLINE_TEXT {
            return v.text.clone();
        }
        let key = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            v.text.hash(&mut h);
            (v.span.start, v.span.end, h.finish())
        };
        if let Some(n) = self.named.get(&key) {
            return n.clone();
        }
        let name = format!("_{}", self.derived.len());
        self.env
            .values
            .insert(name.clone(), crate::expr::Value::new(v.si, v.dim));
        self.derived.push(Derived {
            name: name.clone(),
            value: v.clone(),
        });
        self.named.insert(key, name.clone());
        name
    }

    /// [`Reader::composed`], then [`Reader::named`]: a composed entry as the
    /// text later compositions use.
    pub(super) fn composed_name(
        &mut self,
        text: String,
        at: &Range<usize>,
        dim: Dim,
    ) -> Option<String> {
        if text.len() <= INLINE_TEXT {
            return Some(text);
        }
        let v = self.composed(text, at.clone(), dim)?;
        Some(self.named(&v))
    }

    /// `shape = { box = [a, b, c] }` (also `sphere`, `cylinder`, `capsule`,
    /// `ellipsoid`, `rod`): the inertia of a uniform solid of mass `mass`
    /// about its centre, in body axes.
    pub(super) fn shape(
        &mut self,
        node: &Node,
        mass: &Val,
        space: Space,
    ) -> Option<(InertiaVal, ShapeGeom)> {
        let table = match node.get_ref() {
            toml::de::DeValue::Table(t) => t,
            _ => {
                self.error(
                    Diagnostic::new(
                        node.span(),
                        "`shape` is a table such as { box = [\"0.4 m\", \"0.3 m\", \"0.2 m\"] }",
                    )
                    .hint(format!("shapes: {}", Shape::names(", ", ", "))),
                );
                return None;
            }
        };
        if table.len() != 1 {
            self.error(
                Diagnostic::new(node.span(), "`shape` names exactly one shape")
                    .hint(Shape::names(", ", " or ")),
            );
            return None;
        }
        let (key, value) = table.iter().next()?;
        let at = node.span();
        let m = paren(&self.named(mass));
        let Some(kind) = Shape::parse(key.get_ref().as_ref()) else {
            self.error(
                Diagnostic::new(key.span(), format!("unknown shape `{}`", key.get_ref()))
                    .hint(Shape::names(", ", " or ")),
            );
            return None;
        };
        let planar = space == Space::Planar;
        let Some(n) = kind.sizes(planar) else {
            self.error(
                Diagnostic::new(key.span(), "a thin rod has no inertia about its own axis, so a 3-d rigid body cannot be one")
                    .hint("use cylinder = [radius, length] (a rod is allowed in planar cases)"),
            );
            return None;
        };
        let v = if n == 1 && !matches!(value.get_ref(), toml::de::DeValue::Array(_)) {
            vec![self.value(value, Dim::LENGTH, "a shape size")?]
        } else {
            self.vector(value, n, Dim::LENGTH, "a shape size")?
        };
        for x in &v {
            let span = x.span.clone();
            if !self.rule(
                super::rules::Rule::Positive,
                "a shape size",
                std::slice::from_ref(x),
                span,
            ) {
                return None;
            }
        }
        let d: Vec<String> = v.iter().map(|x| paren(&self.named(x))).collect();
        // (Ixx, Iyy, Izz) as text; planar: Izz alone.
        let moments = kind.moments_text(&m, &d, planar)?;
        let geom = ShapeGeom {
            kind,
            size: v.iter().map(|x| x.si).collect(),
        };
        if planar {
            let v = self.composed(moments[2].clone(), at, Dim::INERTIA)?;
            return Some((InertiaVal::Scalar(v), geom));
        }
        let [x, y, z] = moments;
        Some((
            InertiaVal::Diagonal([
                self.composed(x, at.clone(), Dim::INERTIA)?,
                self.composed(y, at.clone(), Dim::INERTIA)?,
                self.composed(z, at, Dim::INERTIA)?,
            ]),
            geom,
        ))
    }
}
