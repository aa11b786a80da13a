//! A body's orientation (`orientation = { quat | rpy | axis_angle }`,
//! planar `angle`) and what it turns: the inertia (`R I Rᵀ`) and contacts
//! given in the body's frame (`position + R p`, `R n`).
//!
//! Every entry is a case value composed over *named* pieces: an angle, a
//! quaternion component or an axis given as a long expression is named once
//! ([`Reader::named`]) and the rotation's entries refer to it, so a body's
//! nine entries, its turned inertia and each of its body-frame contacts
//! are each a bounded size whatever the expressions typed (a 47 KB case
//! built 1.3 GB of text when the entries repeated the angles). Entries stay
//! expressions of the parameters, so a sweep over an angle, a quaternion
//! component or an axis component turns the body at every point, and the
//! symbolic engine sees `cos(θ)` as if typed.

use super::pose::Rotation;
use super::read::*;
use super::rules::Rule;
use super::types::*;
use crate::diag::Diagnostic;
use crate::units::Dim;
use std::ops::Range;

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
pub(super) fn num_text(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x == 1.0 {
        "1".into()
    } else {
        format!("{x:.17e}")
    }
}

/// True when no value depends on a parameter (then the value is a number
/// for good).
fn constant(v: &[Val]) -> bool {
    v.iter().all(|x| x.expr.params().is_empty())
}

impl Reader<'_> {
    /// A rotation whose entries are the texts `text` (named when long) and
    /// the numbers `num`.
    fn rotation_of(
        &mut self,
        text: [[String; 3]; 3],
        num: [[f64; 3]; 3],
        at: &Range<usize>,
    ) -> Option<Rotation> {
        let mut named: [[String; 3]; 3] = Default::default();
        for (i, row) in text.into_iter().enumerate() {
            for (j, t) in row.into_iter().enumerate() {
                named[i][j] = self.composed_name(t, at, Dim::NONE)?;
            }
        }
        Some(Rotation { text: named, num })
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
            self.angles.push(a.clone());
            let name = self.named(&a);
            let (c, s) = (format!("cos({name})"), format!("sin({name})"));
            let text = [
                [c.clone(), format!("-{}", paren(&s)), "0".into()],
                [s, c, "0".into()],
                ["0".into(), "0".into(), "1".into()],
            ];
            let (cn, sn) = (a.si.cos(), a.si.sin());
            let num = [[cn, -sn, 0.0], [sn, cn, 0.0], [0.0, 0.0, 1.0]];
            return self.rotation_of(text, num, &n.span()).map(Some);
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
        let at = node.span();
        if let Some(q) = get(o, "quat") {
            return self.quaternion(q, &at).map(Some);
        }
        if let Some(r) = get(o, "rpy") {
            return self.rpy(r, &at).map(Some);
        }
        if let Some(aa) = get(o, "axis_angle") {
            return self.axis_angle(aa, &at).map(Some);
        }
        None
    }

    /// `quat = [w, x, y, z]`, of length 1 (within 10⁻⁶) at every point;
    /// the entries are those of `q / |q|`.
    fn quaternion(&mut self, q: &Node, at: &Range<usize>) -> Option<Rotation> {
        let v = self.vector(q, 4, Dim::NONE, "a quaternion component")?;
        if !self.rule(Rule::UnitQuaternion, "a quaternion", &v, q.span()) {
            return None;
        }
        let n = v.iter().map(|x| x.si * x.si).sum::<f64>().sqrt();
        let [w, x, y, z] = [v[0].si, v[1].si, v[2].si, v[3].si].map(|c| c / n);
        let num = [
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
        ];
        if constant(&v) {
            return Some(Rotation::from_num(num));
        }
        // Given with parameters: entries over the components, divided by
        // |q|² so the rotation stays orthogonal at every point.
        let c: Vec<String> = v.iter().map(|x| paren(&self.named(x))).collect();
        let (w, x, y, z) = (&c[0], &c[1], &c[2], &c[3]);
        let n2 = format!("{w}^2 + {x}^2 + {y}^2 + {z}^2");
        let n2 = paren(&self.composed_name(n2, at, Dim::NONE)?);
        let text = [
            [
                format!("({w}^2 + {x}^2 - {y}^2 - {z}^2)/{n2}"),
                format!("2*({x}*{y} - {w}*{z})/{n2}"),
                format!("2*({x}*{z} + {w}*{y})/{n2}"),
            ],
            [
                format!("2*({x}*{y} + {w}*{z})/{n2}"),
                format!("({w}^2 - {x}^2 + {y}^2 - {z}^2)/{n2}"),
                format!("2*({y}*{z} - {w}*{x})/{n2}"),
            ],
            [
                format!("2*({x}*{z} - {w}*{y})/{n2}"),
                format!("2*({y}*{z} + {w}*{x})/{n2}"),
                format!("({w}^2 - {x}^2 - {y}^2 + {z}^2)/{n2}"),
            ],
        ];
        self.rotation_of(text, num, at)
    }

    /// `rpy = [roll, pitch, yaw]`, URDF's fixed axes X, then Y, then Z:
    /// `R = Rz(yaw) Ry(pitch) Rx(roll)`.
    fn rpy(&mut self, r: &Node, at: &Range<usize>) -> Option<Rotation> {
        let v = self.vector(r, 3, Dim::NONE, "an angle")?;
        self.angles.extend(v.iter().cloned());
        let names: Vec<String> = v.iter().map(|x| self.named(x)).collect();
        let c = |k: usize| format!("cos({})", names[k]);
        let s = |k: usize| format!("sin({})", names[k]);
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
        self.rotation_of(text, num, at)
    }

    /// `axis_angle = { axis = [x, y, z], angle = θ }`, Rodrigues'
    /// `R = cI + s[u]× + (1 − c) u uᵀ` with `u` the axis normalised.
    fn axis_angle(&mut self, aa: &Node, at: &Range<usize>) -> Option<Rotation> {
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
        self.angles.push(angle.clone());
        if !self.rule(Rule::NonZero, "the axis of a rotation", &axis, aa.span()) {
            return None;
        }
        let u = [axis[0].si, axis[1].si, axis[2].si];
        let n = (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]).sqrt();
        let u = u.map(|x| x / n);
        // The axis as texts: numbers when constant, else each component
        // over the axis's length (named once).
        let ut: [String; 3] = if constant(&axis) {
            u.map(num_text)
        } else {
            let c: Vec<String> = axis.iter().map(|x| paren(&self.named(x))).collect();
            let len = format!("sqrt({}^2 + {}^2 + {}^2)", c[0], c[1], c[2]);
            let len = paren(&self.composed_name(len, at, Dim::NONE)?);
            let mut ut: [String; 3] = Default::default();
            for k in 0..3 {
                ut[k] = self.composed_name(format!("{}/{len}", c[k]), at, Dim::NONE)?;
            }
            ut
        };
        let cross_num = [[0.0, -u[2], u[1]], [u[2], 0.0, -u[0]], [-u[1], u[0], 0.0]];
        let cross: [[String; 3]; 3] = if constant(&axis) {
            cross_num.map(|row| row.map(num_text))
        } else {
            let neg = |t: &str| format!("-{}", paren(t));
            [
                ["0".to_string(), neg(&ut[2]), ut[1].clone()],
                [ut[2].clone(), "0".to_string(), neg(&ut[0])],
                [neg(&ut[1]), ut[0].clone(), "0".to_string()],
            ]
        };
        let name = self.named(&angle);
        let (c, s) = (format!("cos({name})"), format!("sin({name})"));
        let mut text: [[String; 3]; 3] = Default::default();
        let mut num = [[0.0; 3]; 3];
        let (cn, sn) = (angle.si.cos(), angle.si.sin());
        for i in 0..3 {
            for j in 0..3 {
                let id = if i == j { 1.0 } else { 0.0 };
                let mut terms = Vec::new();
                terms.extend(times(&num_text(id), &c));
                terms.extend(times(&cross[i][j], &s));
                if let Some(uu) = times(&ut[i], &ut[j]) {
                    terms.push(format!("{uu}*(1 - {c})"));
                }
                text[i][j] = sum(terms);
                num[i][j] = id * cn + cross_num[i][j] * sn + u[i] * u[j] * (1.0 - cn);
            }
        }
        self.rotation_of(text, num, at)
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
                    b[k][k] = Some(self.named(&d[k]));
                }
                b
            }
            InertiaVal::Full(t) => t.clone().map(|row| row.map(|v| Some(self.named(&v)))),
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
                // The body's position, named once for all its contacts.
                terms.push(paren(&self.named(&p[i])));
            }
            for (k, x) in v.iter().enumerate().take(d) {
                match r {
                    Some(r) => {
                        let x = self.named(x);
                        terms.extend(times(&r.text[i][k], &x));
                    }
                    None if k == i => terms.push(paren(&self.named(x))),
                    None => {}
                }
            }
            out.push(self.composed(sum(terms), v[i].span.clone(), dim)?);
        }
        Some(out)
    }
}
