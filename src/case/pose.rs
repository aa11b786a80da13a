//! A body's shape and orientation (`[[body]] shape`, `orientation`,
//! `angle`) and contacts given in a body's frame.
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

/// Keys of a `[[body]]` table's `orientation`.
const ORIENTATION_KEYS: &[&str] = &["quat", "rpy", "axis_angle"];

fn paren(s: &str) -> String {
    format!("({s})")
}

/// `a*b` as text, with the zero and one cases folded.
fn times(a: &str, b: &str) -> Option<String> {
    match (a, b) {
        ("0", _) | (_, "0") => None,
        ("1", x) | (x, "1") => Some(paren(x)),
        _ => Some(format!("{}*{}", paren(a), paren(b))),
    }
}

fn sum(terms: Vec<String>) -> String {
    if terms.is_empty() {
        "0".to_string()
    } else {
        terms.join(" + ")
    }
}

/// A number as exact-enough text (17 significant figures round-trip).
fn num_text(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x == 1.0 {
        "1".into()
    } else {
        format!("{x:.17e}")
    }
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
    fn from_num(m: [[f64; 3]; 3]) -> Rotation {
        // Round-off below 1e-15 is zero (a quarter turn's cos is 6e-17).
        let m = m.map(|row| row.map(|x| if x.abs() < 1e-15 { 0.0 } else { x }));
        Rotation {
            text: m.map(|row| row.map(num_text)),
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
        let m = paren(&mass.text);
        let mut sizes: Vec<f64> = Vec::new();
        let mut dims = |r: &mut Self, n: usize| -> Option<Vec<String>> {
            let v = if n == 1 && !matches!(value.get_ref(), toml::de::DeValue::Array(_)) {
                vec![r.value(value, Dim::LENGTH, "a shape size")?]
            } else {
                r.vector(value, n, Dim::LENGTH, "a shape size")?
            };
            for x in &v {
                if x.si <= 0.0 {
                    r.error(Diagnostic::new(
                        x.span.clone(),
                        format!("a shape size must be positive, this is {}", x.si),
                    ));
                    return None;
                }
            }
            sizes = v.iter().map(|x| x.si).collect();
            Some(v.iter().map(|x| paren(&x.text)).collect())
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

    /// A body's rotation: 3-d `orientation = { quat | rpy | axis_angle }`,
    /// planar `angle`. `None` inside: not given (body axes = world axes).
    pub(super) fn rotation(&mut self, t: &DeTable, space: Space) -> Option<Option<Rotation>> {
        if let Some(n) = get(t, "angle") {
            if space != Space::Planar {
                self.error(
                    Diagnostic::new(
                        n.span(),
                        "`angle` turns a planar body; a 3-d body has `orientation`",
                    )
                    .hint("orientation = { rpy = [\"0 deg\", \"0 deg\", \"30 deg\"] }"),
                );
                return None;
            }
            let a = self.value(n, Dim::NONE, "an angle")?;
            let (c, s) = (format!("cos({})", a.text), format!("sin({})", a.text));
            let text = [
                [c.clone(), format!("-{}", paren(&s)), "0".into()],
                [s, c, "0".into()],
                ["0".into(), "0".into(), "1".into()],
            ];
            let (cn, sn) = (a.si.cos(), a.si.sin());
            return Some(Some(Rotation {
                text,
                num: [[cn, -sn, 0.0], [sn, cn, 0.0], [0.0, 0.0, 1.0]],
            }));
        }
        let Some(node) = get(t, "orientation") else {
            return Some(None);
        };
        if space != Space::ThreeD {
            self.error(Diagnostic::new(
                node.span(),
                "`orientation` turns a 3-d body; a planar body has `angle`",
            ));
            return None;
        }
        let toml::de::DeValue::Table(o) = node.get_ref() else {
            self.error(Diagnostic::new(
                node.span(),
                "`orientation` is a table: { quat = [w, x, y, z] }, { rpy = [roll, pitch, yaw] } or { axis_angle = { axis = [x, y, z], angle = \"30 deg\" } }",
            ));
            return None;
        };
        self.keys(o, ORIENTATION_KEYS, "`orientation`");
        if o.len() != 1 {
            self.error(Diagnostic::new(
                node.span(),
                "`orientation` gives exactly one of quat, rpy, axis_angle",
            ));
            return None;
        }
        if let Some(q) = get(o, "quat") {
            let v = self.vector(q, 4, Dim::NONE, "a quaternion component")?;
            let n = v.iter().map(|x| x.si * x.si).sum::<f64>().sqrt();
            if (n - 1.0).abs() > 1e-6 || n.is_nan() {
                self.error(
                    Diagnostic::new(
                        q.span(),
                        format!("a quaternion [w, x, y, z] must have length 1, this one has {n}"),
                    )
                    .hint("normalise it (a zero quaternion is no rotation)"),
                );
                return None;
            }
            let [w, x, y, z] = [v[0].si, v[1].si, v[2].si, v[3].si].map(|c| c / n);
            return Some(Some(Rotation::from_num([
                [
                    1.0 - 2.0 * (y * y + z * z),
                    2.0 * (x * y - w * z),
                    2.0 * (x * z + w * y),
                ],
                [
                    2.0 * (x * y + w * z),
                    1.0 - 2.0 * (x * x + z * z),
                    2.0 * (y * z - w * x),
                ],
                [
                    2.0 * (x * z - w * y),
                    2.0 * (y * z + w * x),
                    1.0 - 2.0 * (x * x + y * y),
                ],
            ])));
        }
        if let Some(r) = get(o, "rpy") {
            // URDF: fixed axes X, then Y, then Z: R = Rz(yaw) Ry(pitch) Rx(roll).
            let v = self.vector(r, 3, Dim::NONE, "an angle")?;
            let c = |k: usize| format!("cos({})", v[k].text);
            let s = |k: usize| format!("sin({})", v[k].text);
            let (cr, sr, cp, sp, cy, sy) = (c(0), s(0), c(1), s(1), c(2), s(2));
            let text = [
                [
                    format!("({cy})*({cp})"),
                    format!("({cy})*({sp})*({sr}) - ({sy})*({cr})"),
                    format!("({cy})*({sp})*({cr}) + ({sy})*({sr})"),
                ],
                [
                    format!("({sy})*({cp})"),
                    format!("({sy})*({sp})*({sr}) + ({cy})*({cr})"),
                    format!("({sy})*({sp})*({cr}) - ({cy})*({sr})"),
                ],
                [
                    format!("-({sp})"),
                    format!("({cp})*({sr})"),
                    format!("({cp})*({cr})"),
                ],
            ];
            let (a, b, g) = (v[0].si, v[1].si, v[2].si);
            let num = [
                [
                    b.cos() * g.cos(),
                    g.cos() * b.sin() * a.sin() - g.sin() * a.cos(),
                    g.cos() * b.sin() * a.cos() + g.sin() * a.sin(),
                ],
                [
                    g.sin() * b.cos(),
                    g.sin() * b.sin() * a.sin() + g.cos() * a.cos(),
                    g.sin() * b.sin() * a.cos() - g.cos() * a.sin(),
                ],
                [-b.sin(), b.cos() * a.sin(), b.cos() * a.cos()],
            ];
            return Some(Some(Rotation { text, num }));
        }
        if let Some(aa) = get(o, "axis_angle") {
            let toml::de::DeValue::Table(aa_t) = aa.get_ref() else {
                self.error(Diagnostic::new(
                    aa.span(),
                    "`axis_angle` is { axis = [x, y, z], angle = \"30 deg\" }",
                ));
                return None;
            };
            self.keys(aa_t, &["axis", "angle"], "`axis_angle`");
            let axis = self
                .required(aa_t, "axis", "`axis_angle`", &aa.span())
                .and_then(|n| self.vector(n, 3, Dim::NONE, "an axis component"))?;
            let angle = self
                .required(aa_t, "angle", "`axis_angle`", &aa.span())
                .and_then(|n| self.value(n, Dim::NONE, "an angle"))?;
            let u = [axis[0].si, axis[1].si, axis[2].si];
            let n = (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]).sqrt();
            if !(n > 0.0 && n.is_finite()) {
                self.error(Diagnostic::new(
                    aa.span(),
                    "the axis of a rotation cannot be zero",
                ));
                return None;
            }
            let u = u.map(|x| x / n);
            // Rodrigues: R = cI + s[u]× + (1 − c) u uᵀ, the angle kept symbolic.
            let (c, s) = (
                format!("cos({})", angle.text),
                format!("sin({})", angle.text),
            );
            let cross = [[0.0, -u[2], u[1]], [u[2], 0.0, -u[0]], [-u[1], u[0], 0.0]];
            let mut text: [[String; 3]; 3] = Default::default();
            let mut num = [[0.0; 3]; 3];
            let (cn, sn) = (angle.si.cos(), angle.si.sin());
            for i in 0..3 {
                for j in 0..3 {
                    let id = if i == j { 1.0 } else { 0.0 };
                    let uu = u[i] * u[j];
                    let mut terms = Vec::new();
                    terms.extend(times(&num_text(id), &c));
                    terms.extend(times(&num_text(cross[i][j]), &s));
                    if uu != 0.0 {
                        terms.push(format!("{}*(1 - {c})", paren(&num_text(uu))));
                    }
                    text[i][j] = sum(terms);
                    num[i][j] = id * cn + cross[i][j] * sn + uu * (1.0 - cn);
                }
            }
            return Some(Some(Rotation { text, num }));
        }
        None
    }

    /// `R I Rᵀ`: an inertia in body axes turned into world axes.
    pub(super) fn rotate_inertia(
        &mut self,
        inertia: InertiaVal,
        r: &Rotation,
        at: Range<usize>,
    ) -> Option<InertiaVal> {
        let body: [[Option<String>; 3]; 3] = match &inertia {
            InertiaVal::Scalar(_) => return Some(inertia),
            InertiaVal::Diagonal(d) => {
                let mut b: [[Option<String>; 3]; 3] = Default::default();
                for k in 0..3 {
                    b[k][k] = Some(d[k].text.clone());
                }
                b
            }
            InertiaVal::Full(t) => t.clone().map(|row| row.map(|v| Some(v.text))),
        };
        let mut out: Vec<Vec<Val>> = Vec::with_capacity(3);
        for i in 0..3 {
            let mut row = Vec::with_capacity(3);
            for j in 0..3 {
                let mut terms = Vec::new();
                for (k, body_row) in body.iter().enumerate() {
                    for (l, entry) in body_row.iter().enumerate() {
                        let Some(e) = entry else { continue };
                        if let Some(a) = times(&r.text[i][k], &r.text[j][l]) {
                            terms.extend(times(&a, e));
                        }
                    }
                }
                row.push(self.composed(sum(terms), at.clone(), Dim::INERTIA)?);
            }
            out.push(row);
        }
        let full: [[Val; 3]; 3] = [
            [out[0][0].clone(), out[0][1].clone(), out[0][2].clone()],
            [out[1][0].clone(), out[1][1].clone(), out[1][2].clone()],
            [out[2][0].clone(), out[2][1].clone(), out[2][2].clone()],
        ];
        Some(InertiaVal::Full(full))
    }

    /// A body-frame point (`position + R p`) or direction (`R n`) in world
    /// axes, `d` components.
    pub(super) fn body_to_world(
        &mut self,
        v: &[Val],
        position: Option<&[Val]>,
        r: Option<&Rotation>,
        d: usize,
        dim: Dim,
    ) -> Option<Vec<Val>> {
        let mut out = Vec::with_capacity(d);
        for i in 0..d {
            let mut terms = Vec::new();
            if let Some(p) = position {
                terms.push(paren(&p[i].text));
            }
            for (k, x) in v.iter().enumerate().take(d) {
                match r {
                    Some(r) => terms.extend(times(&r.text[i][k], &x.text)),
                    None if k == i => terms.push(paren(&x.text)),
                    None => {}
                }
            }
            out.push(self.composed(sum(terms), v[i].span.clone(), dim)?);
        }
        Some(out)
    }
}
