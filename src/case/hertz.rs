//! A `[[contact]]`'s Hertz law: `law = "hertz"` with `modulus` and
//! `radius` (E*, R*) or `hertz_coefficient` (K in N/m^1.5, a number), and
//! `overlap` or `load` where it is linearised (docs/case-format.md, "Hertz
//! contacts"). The linearised stiffness `3/2 K √δ` (and Mindlin's
//! tangential `8 G* √(R* δ)` with `shear_modulus`) enters the model as a
//! number at the case's values: the units cannot raise a dimensioned value
//! to a fractional power.

use super::read::*;
use super::types::*;
use crate::hertz;

/// A contact's force law (`law`, docs/case-format.md).
#[derive(Clone, Debug, Default)]
pub enum ContactLaw {
    /// A linear spring `stiffness` (the default).
    #[default]
    Linear,
    /// Hertz `F = K δ^{3/2}`, linearised: `stiffness` is `3/2 K √δ`.
    Hertz(Box<HertzLaw>),
}

/// A Hertz contact's inputs (SI, at the case's values).
#[derive(Clone, Debug, PartialEq)]
pub struct HertzLaw {
    /// `K` (N/m^1.5): `4/3 E* √R*` or as given.
    pub coefficient: f64,
    /// `R*` (m), when given.
    pub radius: Option<f64>,
    /// `E*` (Pa), when given.
    pub modulus: Option<f64>,
    /// The overlap the stiffness is linearised at (m): `overlap`, or the
    /// static overlap under `load`.
    pub overlap: f64,
    /// `load` (N), when given.
    pub load: Option<f64>,
    /// `impact_speed` (m/s): the Hertz impact reported in closed form.
    pub impact_speed: Option<f64>,
    /// `shear_modulus` G* (Pa): Mindlin's tangential stiffness `8 G* √(R* δ)`
    /// (as given, or from the materials with `mindlin = true`).
    pub shear_modulus: Option<f64>,
    /// `material` and `other_material`, when given: E* and G* come from them.
    pub materials: Option<super::hertz_material::Materials>,
}

const PRESSURE: Dim = Dim([1, -1, -2]);
const VELOCITY: Dim = Dim([0, 1, -1]);

/// The keys only a Hertz contact takes.
const HERTZ_KEYS: &[&str] = &[
    "modulus",
    "radius",
    "hertz_coefficient",
    "overlap",
    "load",
    "impact_speed",
    "shear_modulus",
    "material",
    "other_material",
    "mindlin",
];

impl Reader<'_> {
    /// The law of a `[[contact]]` table and, for Hertz, the stiffness it
    /// linearises to and Mindlin's tangential stiffness (when asked).
    pub(super) fn contact_law(
        &mut self,
        t: &DeTable,
        what: &str,
    ) -> Option<(ContactLaw, Option<Val>, Option<Val>)> {
        let law = match get(t, "law") {
            None => ContactLaw::Linear,
            Some(n) => {
                let hertz = self.choice(
                    n,
                    ("law", "contact law"),
                    &[("linear", false), ("hertz", true)],
                    2,
                )?;
                if hertz {
                    return self.hertz_law(t, n.span(), what);
                }
                ContactLaw::Linear
            }
        };
        if let Some((k, n)) = HERTZ_KEYS.iter().find_map(|k| get(t, k).map(|n| (k, n))) {
            self.error(
                Diagnostic::new(
                    n.span(),
                    format!("`{k}` is a Hertz key, and {what} is linear"),
                )
                .hint("add law = \"hertz\", or remove it"),
            );
            return None;
        }
        Some((law, None, None))
    }

    fn hertz_law(
        &mut self,
        t: &DeTable,
        at: std::ops::Range<usize>,
        what: &str,
    ) -> Option<(ContactLaw, Option<Val>, Option<Val>)> {
        if let Some(n) = get(t, "stiffness") {
            self.error(
                Diagnostic::new(
                    n.span(),
                    format!("{what} is a Hertz contact: its stiffness comes from the law"),
                )
                .hint("remove `stiffness`; give `overlap` or `load` where the law is linearised"),
            );
            return None;
        }
        let positive = |r: &mut Self, key: &str, dim: Dim, name: &str| -> Option<Option<f64>> {
            match get(t, key) {
                None => Some(None),
                Some(n) => {
                    let v = r.value(n, dim, name);
                    r.positive(v, name).map(|v| Some(v.si))
                }
            }
        };
        let modulus = positive(self, "modulus", PRESSURE, "an effective modulus")?;
        let radius = positive(self, "radius", Dim::LENGTH, "an effective radius")?;
        let coef = positive(
            self,
            "hertz_coefficient",
            Dim::NONE,
            "a Hertz coefficient (N/m^1.5, a number)",
        )?;
        let overlap = positive(self, "overlap", Dim::LENGTH, "an overlap")?;
        let load = positive(self, "load", Dim::FORCE, "a load")?;
        let impact_speed = positive(self, "impact_speed", VELOCITY, "an impact speed")?;
        let shear = positive(self, "shear_modulus", PRESSURE, "a shear modulus")?;
        let materials = self.hertz_materials(t, what)?;
        let mindlin = match get(t, "mindlin") {
            None => false,
            Some(n) => match n.get_ref() {
                toml::de::DeValue::Boolean(b) if materials.is_some() => *b,
                _ => {
                    self.error(Diagnostic::new(n.span(), format!("{what}: `mindlin` is true or false, with `material` and `other_material` (G* from them)"))
                        .hint("mindlin = true; or give `shear_modulus` (G*) without materials"));
                    return None;
                }
            },
        };
        if materials.is_some()
            && let Some((key, n)) = ["modulus", "shear_modulus", "hertz_coefficient"]
                .iter()
                .find_map(|k| get(t, k).map(|n| (k, n)))
        {
            self.error(
                Diagnostic::new(
                    n.span(),
                    format!("{what}: `{key}` is given twice: the materials give E* and G*"),
                )
                .hint(format!(
                    "remove `{key}`, or `material` and `other_material`"
                )),
            );
            return None;
        }
        let modulus = modulus.or(materials.as_ref().map(|m| m.effective_modulus()));
        let shear = shear.or(materials
            .as_ref()
            .filter(|_| mindlin)
            .map(|m| m.effective_shear_modulus()));
        let coefficient = match (modulus, radius, coef) {
            (Some(e), Some(r), None) => hertz::coefficient(e, r),
            (None, _, Some(k)) => k,
            _ => {
                self.error(
                    Diagnostic::new(at, format!("{what}: a Hertz law needs `modulus` and `radius` (E*, R*), or `hertz_coefficient`, not both"))
                        .hint("modulus = \"70 GPa\", radius = \"5 mm\"; or hertz_coefficient = 4.7e9 (N/m^1.5)"),
                );
                return None;
            }
        };
        let delta = match (overlap, load) {
            (Some(d), None) => d,
            (None, Some(w)) => hertz::overlap_under_load(coefficient, w),
            _ => {
                self.error(
                    Diagnostic::new(at, format!("{what}: give one of `overlap` and `load` (where the Hertz law is linearised)"))
                        .hint("overlap = \"10 um\" or load = \"9.81 N\""),
                );
                return None;
            }
        };
        let k = hertz::stiffness_at_overlap(coefficient, delta);
        let kt = match (shear, radius) {
            (Some(g), Some(r)) => Some(hertz::mindlin(g, r, delta)),
            (Some(_), None) => {
                self.error(Diagnostic::new(
                    at,
                    format!("{what}: Mindlin's tangential stiffness 8 G* √(R* δ) needs `radius`"),
                ));
                return None;
            }
            _ => None,
        };
        let law = HertzLaw {
            coefficient,
            radius,
            modulus,
            overlap: delta,
            load,
            impact_speed,
            shear_modulus: shear,
            materials,
        };
        let val = |x: f64| {
            let mut v = Val::number(x, Dim::STIFFNESS);
            let text = format!("{x:?}");
            if let crate::expr::ExprKind::Number(n) = &mut v.expr.kind {
                n.text = text.clone();
            }
            v.text = format!("{} N/m", crate::number::sig(x, 4));
            v.span = at.clone();
            v
        };
        Some((ContactLaw::Hertz(Box::new(law)), Some(val(k)), kt.map(val)))
    }
}
