//! A `[[contact]]`'s tangential ("stick") spring: `tangential_stiffness`
//! or `tangential_ratio`, `tangential_damping`, `tangent`
//! (docs/case-format.md, "Tangential springs").
//!
//! The tangent basis is one rule, stated here ([`tangent_basis`]): the
//! first tangent is the given `tangent`, or the world axis least aligned
//! with the normal (the first such on a tie), projected on the contact
//! plane and normalised; in 3-d the second is `n × t₁`, so `(t₁, t₂, n)`
//! is right-handed. The basis is computed from the normal's values at the
//! case's parameters and enters the model as numbers.

use super::read::*;
use super::types::*;
use std::ops::Range;

/// A value given absolutely or as a ratio to the normal one.
#[derive(Clone, Debug)]
pub enum TangentialValue {
    /// In N/m (a stiffness) or N·s/m (a damping).
    Absolute(Val),
    /// Times the contact's normal value, in (0, 10].
    Ratio(Val),
}

/// A contact's tangential spring: one row per tangent direction (two in
/// 3-d, one in a planar case), at the contact point.
#[derive(Clone, Debug)]
pub struct Tangential {
    /// Span of the key that gave it.
    pub span: Range<usize>,
    /// Stiffness of each tangential row.
    pub stiffness: TangentialValue,
    /// Damping of each tangential row: `tangential_damping`, or the ratio
    /// times the normal damping when a ratio is given; `None` otherwise.
    pub damping: Option<TangentialValue>,
    /// The unit tangents in world axes (numbers at the case's values;
    /// docs/case-format.md states the basis).
    pub basis: Vec<Vec<Val>>,
    /// Whether the first tangent was given (`tangent`) rather than chosen.
    pub given_tangent: bool,
}

/// Largest `tangential_ratio` accepted (k_t/k_n; beyond it the "stick"
/// spring is stiffer than any contact law gives).
pub const MAX_TANGENTIAL_RATIO: f64 = 10.0;

/// A given tangent closer to the normal than this (sine of the angle) is
/// refused: its projection on the contact plane carries no direction.
const PARALLEL_SINE: f64 = 1e-6;

/// The unit tangents of a contact with unit normal `n` (`d - 1` of them),
/// from `given` (any vector not along `n`) or the default axis; `None`
/// when `given` is (nearly) parallel to `n`.
pub fn tangent_basis(n: &[f64], given: Option<&[f64]>) -> Option<Vec<Vec<f64>>> {
    let d = n.len();
    let u: Vec<f64> = match given {
        Some(g) => g.to_vec(),
        None => {
            let mut k = 0;
            for i in 1..d {
                if n[i].abs() < n[k].abs() {
                    k = i;
                }
            }
            (0..d).map(|i| if i == k { 1.0 } else { 0.0 }).collect()
        }
    };
    let un: f64 = u.iter().zip(n).map(|(a, b)| a * b).sum();
    let p: Vec<f64> = u.iter().zip(n).map(|(a, b)| a - un * b).collect();
    let len = p.iter().map(|x| x * x).sum::<f64>().sqrt();
    let ulen = u.iter().map(|x| x * x).sum::<f64>().sqrt();
    if !(len > PARALLEL_SINE * ulen && len.is_finite()) {
        return None;
    }
    let t1: Vec<f64> = p.iter().map(|x| x / len).collect();
    if d == 3 {
        let t2 = vec![
            n[1] * t1[2] - n[2] * t1[1],
            n[2] * t1[0] - n[0] * t1[2],
            n[0] * t1[1] - n[1] * t1[0],
        ];
        Some(vec![t1, t2])
    } else {
        Some(vec![t1])
    }
}

impl Reader<'_> {
    /// The tangential spring of a `[[contact]]` table `t`, when it gives
    /// one (`geometry`: the contact's, when it was read).
    pub(super) fn tangential(
        &mut self,
        t: &DeTable,
        what: &str,
        form: &Form,
        geometry: Option<&ContactGeometry>,
        space: Space,
        mindlin: Option<Val>,
    ) -> Option<Tangential> {
        let (ks, kr) = (get(t, "tangential_stiffness"), get(t, "tangential_ratio"));
        let (cd, tg) = (get(t, "tangential_damping"), get(t, "tangent"));
        if let Some(kt) = mindlin {
            if let Some(n) = ks.or(kr) {
                self.error(
                    Diagnostic::new(n.span(), format!("{what}: `shear_modulus` gives Mindlin's tangential stiffness; a second one is given here"))
                        .hint("remove `tangential_stiffness`/`tangential_ratio`, or `shear_modulus`"),
                );
                return None;
            }
            if space == Space::Line {
                self.error(Diagnostic::new(kt.span.clone(), "a `line` case has no tangent direction: Mindlin's tangential stiffness needs a planar or 3-d case"));
                return None;
            }
            let damping = match cd {
                Some(n) => Some(TangentialValue::Absolute(self.value(
                    n,
                    Dim::DAMPING,
                    "a tangential damping",
                )?)),
                None => None,
            };
            let basis = self.basis(t, tg, form, geometry, space)?;
            return Some(Tangential {
                span: kt.span.clone(),
                stiffness: TangentialValue::Absolute(kt),
                damping,
                basis,
                given_tangent: tg.is_some(),
            });
        }
        let first = ks.or(kr).or(cd).or(tg)?;
        if space == Space::Line {
            self.error(
                Diagnostic::new(
                    first.span(),
                    "a `line` case has no tangent direction: tangential springs need a planar or 3-d case",
                )
                .hint("remove the tangential keys, or use space = \"planar\" or \"3d\""),
            );
            return None;
        }
        let stiffness = match (ks, kr) {
            (Some(_), Some(r)) => {
                self.error(
                    Diagnostic::new(
                        r.span(),
                        format!("{what} gives both `tangential_stiffness` and `tangential_ratio`"),
                    )
                    .hint("give one: the tangential stiffness in N/m, or its ratio to `stiffness`"),
                );
                None
            }
            (None, None) => {
                self.error(
                    Diagnostic::new(
                        first.span(),
                        format!(
                            "{what}: a tangential damping or tangent needs a tangential spring"
                        ),
                    )
                    .hint("add `tangential_stiffness = \"… N/m\"` or `tangential_ratio = 0.8`"),
                );
                return None;
            }
            (Some(n), None) => {
                let v = self.value(n, Dim::STIFFNESS, "a tangential stiffness");
                self.positive(v, "a tangential stiffness")
                    .map(TangentialValue::Absolute)
            }
            (None, Some(n)) => self
                .value(n, Dim::NONE, "a tangential ratio")
                .filter(|v| {
                    let span = v.span.clone();
                    self.rule(
                        super::rules::Rule::TangentialRatio,
                        "a tangential ratio",
                        std::slice::from_ref(v),
                        span,
                    )
                })
                .map(TangentialValue::Ratio),
        };
        let damping = match cd {
            Some(n) => {
                let v = self.value(n, Dim::DAMPING, "a tangential damping")?;
                let span = v.span.clone();
                self.rule(
                    super::rules::Rule::NonNegative,
                    "a tangential damping",
                    std::slice::from_ref(&v),
                    span,
                )
                .then_some(TangentialValue::Absolute(v))
            }
            None => match &stiffness {
                Some(TangentialValue::Ratio(r)) => Some(TangentialValue::Ratio(r.clone())),
                _ => None,
            },
        };
        let basis = self.basis(t, tg, form, geometry, space)?;
        Some(Tangential {
            span: first.span(),
            stiffness: stiffness?,
            damping,
            basis,
            given_tangent: tg.is_some(),
        })
    }

    /// The tangent basis of a point contact, as numbers in world axes.
    fn basis(
        &mut self,
        t: &DeTable,
        tg: Option<&Node>,
        form: &Form,
        geometry: Option<&ContactGeometry>,
        space: Space,
    ) -> Option<Vec<Vec<Val>>> {
        let d = space.dim();
        let given = match tg {
            Some(n) => Some((
                self.vector(n, d, Dim::NONE, "a tangent component")?,
                n.span(),
            )),
            None => None,
        };
        let Some(ContactGeometry::Point { body, normal, .. }) = geometry else {
            return None;
        };
        let n: Vec<f64> = normal.iter().map(|v| v.si).collect();
        let given = given.map(|(v, span)| {
            let mut u: Vec<f64> = v.iter().map(|x| x.si).collect();
            // `frame = "body"`: the tangent is in the body's axes, as the normal.
            let in_body = get(t, "frame")
                .is_some_and(|f| matches!(f.get_ref(), DeValue::String(s) if s == "body"));
            if in_body
                && let Form::Bodies { bodies, .. } = form
                && let Some(r) = bodies.get(*body).and_then(|b| b.rotation.as_ref())
            {
                u = (0..d)
                    .map(|i| (0..d).map(|k| r.num[i][k] * u[k]).sum())
                    .collect();
            }
            (u, span)
        });
        match tangent_basis(&n, given.as_ref().map(|(u, _)| u.as_slice())) {
            Some(b) => Some(
                b.into_iter()
                    .map(|t| t.into_iter().map(literal).collect())
                    .collect(),
            ),
            None => {
                let span = given.map_or(0..0, |(_, s)| s);
                self.error(
                    Diagnostic::new(span, "the tangent is parallel to the normal (or zero)")
                        .hint("give a direction in the contact plane, e.g. [1, 0, 0] for a normal along z"),
                );
                None
            }
        }
    }
}

/// A number as a literal value whose text is its shortest round-trip
/// decimal (what the symbolic engine reads exactly).
fn literal(x: f64) -> Val {
    let mut v = Val::number(x, Dim::NONE);
    let text = format!("{x:?}");
    if let crate::expr::ExprKind::Number(n) = &mut v.expr.kind {
        n.text = text.clone();
    }
    v.text = text;
    v
}

#[cfg(test)]
mod tests {
    use super::tangent_basis;

    #[test]
    fn default_basis_is_right_handed_and_deterministic() {
        let b = tangent_basis(&[0.0, 0.0, 1.0], None).unwrap();
        assert_eq!(b, vec![vec![1.0, 0.0, 0.0], vec![0.0, 1.0, 0.0]]);
        let s = 0.5f64.sqrt();
        let n = [s, 0.0, s];
        let b = tangent_basis(&n, None).unwrap();
        // t1 from the y axis (least aligned), t2 = n × t1.
        assert_eq!(b[0], vec![0.0, 1.0, 0.0]);
        let cross = [
            b[0][1] * b[1][2] - b[0][2] * b[1][1],
            b[0][2] * b[1][0] - b[0][0] * b[1][2],
            b[0][0] * b[1][1] - b[0][1] * b[1][0],
        ];
        for k in 0..3 {
            assert!((cross[k] - n[k]).abs() < 1e-15, "t1 × t2 = n");
        }
        let b2 = tangent_basis(&[0.0, 1.0], None).unwrap();
        assert_eq!(b2, vec![vec![1.0, 0.0]]);
    }

    #[test]
    fn a_given_tangent_is_projected_and_a_parallel_one_refused() {
        let b = tangent_basis(&[0.0, 0.0, 1.0], Some(&[1.0, 1.0, 5.0])).unwrap();
        let s = 0.5f64.sqrt();
        assert!((b[0][0] - s).abs() < 1e-15 && (b[0][1] - s).abs() < 1e-15 && b[0][2] == 0.0);
        assert!(tangent_basis(&[0.0, 0.0, 1.0], Some(&[0.0, 0.0, 2.0])).is_none());
        assert!(tangent_basis(&[0.0, 0.0, 1.0], Some(&[0.0, 0.0, 0.0])).is_none());
    }
}
