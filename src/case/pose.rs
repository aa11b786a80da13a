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
    /// `box`, `sphere`, `cylinder`, `capsule`, `ellipsoid` or `rod`.
    pub kind: &'static str,
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
                    .hint("shapes: box, sphere, cylinder, capsule, ellipsoid, rod"),
                );
                return None;
            }
        };
        if table.len() != 1 {
            self.error(
                Diagnostic::new(node.span(), "`shape` names exactly one shape")
                    .hint("box, sphere, cylinder, capsule, ellipsoid or rod"),
            );
            return None;
        }
        let (key, value) = table.iter().next()?;
        let kind = key.get_ref().as_ref();
        let at = node.span();
        let m = paren(&self.named(mass));
        let mut sizes: Vec<f64> = Vec::new();
        let mut dims = |r: &mut Self, n: usize| -> Option<Vec<String>> {
            let v = if n == 1 && !matches!(value.get_ref(), toml::de::DeValue::Array(_)) {
                vec![r.value(value, Dim::LENGTH, "a shape size")?]
            } else {
                r.vector(value, n, Dim::LENGTH, "a shape size")?
            };
            for x in &v {
                let span = x.span.clone();
                if !r.rule(
                    super::rules::Rule::Positive,
                    "a shape size",
                    std::slice::from_ref(x),
                    span,
                ) {
                    return None;
                }
            }
            sizes = v.iter().map(|x| x.si).collect();
            Some(v.iter().map(|x| paren(&r.named(x))).collect())
        };
        let planar = space == Space::Planar;
        // (Ixx, Iyy, Izz) as text; planar: Izz alone.
        let moments: [String; 3] = match kind {
            "box" if planar => {
                let d = dims(self, 2)?;
                let z = format!("{m}*({a}^2 + {b}^2)/12", a = d[0], b = d[1]);
                [String::new(), String::new(), z]
            }
            "box" => {
                let d = dims(self, 3)?;
                let (a, b, c) = (&d[0], &d[1], &d[2]);
                [
                    format!("{m}*({b}^2 + {c}^2)/12"),
                    format!("{m}*({a}^2 + {c}^2)/12"),
                    format!("{m}*({a}^2 + {b}^2)/12"),
                ]
            }
            "sphere" => {
                let r = dims(self, 1)?.remove(0);
                let i = format!("2*{m}*{r}^2/5");
                [i.clone(), i.clone(), i]
            }
            "cylinder" => {
                let d = dims(self, 2)?;
                let (r, h) = (&d[0], &d[1]);
                let x = format!("{m}*(3*{r}^2 + {h}^2)/12");
                [x.clone(), x, format!("{m}*{r}^2/2")]
            }
            "capsule" => {
                // Mass shared between the cylinder (length h) and the two
                // hemispheres by volume, as MuJoCo does.
                let d = dims(self, 2)?;
                let (r, h) = (&d[0], &d[1]);
                let mc = format!("({m}*{h}/({h} + 4*{r}/3))");
                let ms = format!("({m}*(4*{r}/3)/({h} + 4*{r}/3))");
                let x =
                    format!("{mc}*(3*{r}^2 + {h}^2)/12 + {ms}*(2*{r}^2/5 + {h}^2/4 + 3*{h}*{r}/8)");
                [x.clone(), x, format!("{mc}*{r}^2/2 + 2*{ms}*{r}^2/5")]
            }
            "ellipsoid" if planar => {
                let d = dims(self, 2)?;
                let z = format!("{m}*({a}^2 + {b}^2)/5", a = d[0], b = d[1]);
                [String::new(), String::new(), z]
            }
            "ellipsoid" => {
                let d = dims(self, 3)?;
                let (a, b, c) = (&d[0], &d[1], &d[2]);
                [
                    format!("{m}*({b}^2 + {c}^2)/5"),
                    format!("{m}*({a}^2 + {c}^2)/5"),
                    format!("{m}*({a}^2 + {b}^2)/5"),
                ]
            }
            "rod" if planar => {
                let l = dims(self, 1)?.remove(0);
                [String::new(), String::new(), format!("{m}*{l}^2/12")]
            }
            "rod" => {
                self.error(
                    Diagnostic::new(key.span(), "a thin rod has no inertia about its own axis, so a 3-d rigid body cannot be one")
                        .hint("use cylinder = [radius, length] (a rod is allowed in planar cases)"),
                );
                return None;
            }
            other => {
                self.error(
                    Diagnostic::new(key.span(), format!("unknown shape `{other}`"))
                        .hint("box, sphere, cylinder, capsule, ellipsoid or rod"),
                );
                return None;
            }
        };
        let geom = ShapeGeom {
            kind: match kind {
                "box" => "box",
                "sphere" => "sphere",
                "cylinder" => "cylinder",
                "capsule" => "capsule",
                "ellipsoid" => "ellipsoid",
                _ => "rod",
            },
            size: sizes,
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
