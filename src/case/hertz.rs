//! A `[[contact]]`'s Hertz law: `law = "hertz"` with `modulus` and
//! `radius` (E*, R*) or `hertz_coefficient` (K in N/m^1.5, a number), and
//! `overlap` or `load` where it is linearised (docs/case-format.md, "Hertz
//! contacts"). The case keeps the law's inputs as written
//! ([`HertzInputs`]); the linearised stiffness `3/2 K √δ` (and Mindlin's
//! tangential `8 G* √(R* δ)` with `shear_modulus`) is derived from them by
//! one rule, [`HertzInputs::derive`], at the case's values when it is read
//! and again at every point a sweep, a claim probe or a tolerance box
//! analyses ([`Case::hertz_laws_at`], `model::build_at`): a tolerance on
//! E*, R*, the overlap or the load reaches the stiffness. (The units
//! cannot raise a dimensioned value to a fractional power, so the
//! stiffness is a number at each point, not an expression.)

use super::hertz_material::Materials;
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

/// A Hertz law's inputs as written in the case (each a value of the case:
/// a parameter's tolerance or a sweep reaches it).
#[derive(Clone, Debug)]
pub struct HertzInputs {
    /// `modulus` (E*).
    pub modulus: Option<Val>,
    /// `radius` (R*).
    pub radius: Option<Val>,
    /// `hertz_coefficient` (K, a number in N/m^1.5).
    pub coefficient: Option<Val>,
    /// `overlap`.
    pub overlap: Option<Val>,
    /// `load`.
    pub load: Option<Val>,
    /// `impact_speed`.
    pub impact_speed: Option<Val>,
    /// `shear_modulus` (G*).
    pub shear_modulus: Option<Val>,
    /// `material` and `other_material`.
    pub materials: Option<Materials>,
    /// `mindlin = true`: G* from the materials.
    pub mindlin: bool,
}

/// A Hertz contact's law at one point (SI): [`HertzInputs::derive`] of
/// its inputs, at the case's values in the case itself.
#[derive(Clone, Debug)]
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
    pub materials: Option<Materials>,
    /// The linearised stiffness `3/2 K √δ` (N/m).
    pub stiffness: f64,
    /// Mindlin's tangential stiffness `8 G* √(R* δ)` (N/m), with G*.
    pub tangential_stiffness: Option<f64>,
    /// The inputs as written ([`HertzLaw::at`] evaluates them elsewhere).
    pub inputs: HertzInputs,
}

impl HertzInputs {
    /// The law at the values `si` gives the inputs: the one rule from the
    /// inputs to K, the linearised overlap, the stiffness and Mindlin's
    /// k_t. `None` where a value is not positive and finite there (the
    /// reader has checked which inputs are given).
    pub fn derive(&self, si: &mut dyn FnMut(&Val) -> Option<f64>) -> Option<HertzLaw> {
        let mut value = |v: &Option<Val>| -> Option<Option<f64>> {
            match v {
                None => Some(None),
                Some(v) => si(v).filter(|x| x.is_finite() && *x > 0.0).map(Some),
            }
        };
        let modulus = value(&self.modulus)?;
        let radius = value(&self.radius)?;
        let given = value(&self.coefficient)?;
        let overlap = value(&self.overlap)?;
        let load = value(&self.load)?;
        let impact_speed = value(&self.impact_speed)?;
        let shear = value(&self.shear_modulus)?;
        let materials = match &self.materials {
            Some(m) => Some(m.at(si)?),
            None => None,
        };
        let modulus = modulus.or(materials.as_ref().map(|m| m.effective_modulus()));
        let shear = shear.or(materials
            .as_ref()
            .filter(|_| self.mindlin)
            .map(|m| m.effective_shear_modulus()));
        let coefficient = match (modulus, radius, given) {
            (Some(e), Some(r), None) => hertz::coefficient(e, r),
            (None, _, Some(k)) => k,
            _ => return None,
        };
        let delta = match (overlap, load) {
            (Some(d), None) => d,
            (None, Some(w)) => hertz::overlap_under_load(coefficient, w),
            _ => return None,
        };
        let tangential_stiffness = match (shear, radius) {
            (Some(g), Some(r)) => Some(hertz::mindlin(g, r, delta)),
            (Some(_), None) => return None,
            _ => None,
        };
        let stiffness = hertz::stiffness_at_overlap(coefficient, delta);
        let fine = |x: f64| x.is_finite() && x > 0.0;
        (fine(stiffness) && fine(delta) && tangential_stiffness.is_none_or(fine)).then(|| {
            HertzLaw {
                coefficient,
                radius,
                modulus,
                overlap: delta,
                load,
                impact_speed,
                shear_modulus: shear,
                materials,
                stiffness,
                tangential_stiffness,
                inputs: self.clone(),
            }
        })
    }

    /// Every input value as written (the parameters the law uses).
    pub fn vals(&self) -> Vec<&Val> {
        let mut out: Vec<&Val> = [
            &self.modulus,
            &self.radius,
            &self.coefficient,
            &self.overlap,
            &self.load,
            &self.impact_speed,
            &self.shear_modulus,
        ]
        .into_iter()
        .flatten()
        .collect();
        if let Some(m) = &self.materials {
            out.extend(m.vals());
        }
        out
    }
}

impl HertzLaw {
    /// The law at another point (a sweep's, a tolerance box's): its inputs
    /// through `si` ([`HertzInputs::derive`]).
    pub fn at(&self, si: &mut dyn FnMut(&Val) -> Option<f64>) -> Option<HertzLaw> {
        self.inputs.derive(si)
    }
}

impl Case {
    /// The Hertz contacts' laws at the case's values: (contact index, law).
    pub fn hertz_laws(&self) -> Vec<(usize, HertzLaw)> {
        self.contacts
            .iter()
            .enumerate()
            .filter_map(|(i, c)| match &c.law {
                ContactLaw::Hertz(h) => Some((i, (**h).clone())),
                ContactLaw::Linear => None,
            })
            .collect()
    }

    /// The Hertz contacts' laws with their inputs through `si` (a point of
    /// a sweep, a claim probe or a tolerance box): `None` where one has no
    /// value there.
    pub fn hertz_laws_at(
        &self,
        si: &mut dyn FnMut(&Val) -> Option<f64>,
    ) -> Option<Vec<(usize, HertzLaw)>> {
        self.contacts
            .iter()
            .enumerate()
            .filter_map(|(i, c)| match &c.law {
                ContactLaw::Hertz(h) => Some(h.at(&mut *si).map(|l| (i, l))),
                ContactLaw::Linear => None,
            })
            .collect()
    }
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
        let positive = |r: &mut Self, key: &str, dim: Dim, name: &str| -> Option<Option<Val>> {
            match get(t, key) {
                None => Some(None),
                Some(n) => {
                    let v = r.value(n, dim, name);
                    r.positive(v, name).map(Some)
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
        let has_modulus = modulus.is_some() || materials.is_some();
        if !matches!(
            (has_modulus, radius.is_some(), coef.is_some()),
            (true, true, false) | (false, _, true)
        ) {
            self.error(
                Diagnostic::new(at, format!("{what}: a Hertz law needs `modulus` and `radius` (E*, R*), or `hertz_coefficient`, not both"))
                    .hint("modulus = \"70 GPa\", radius = \"5 mm\"; or hertz_coefficient = 4.7e9 (N/m^1.5)"),
            );
            return None;
        }
        if overlap.is_some() == load.is_some() {
            self.error(
                Diagnostic::new(at, format!("{what}: give one of `overlap` and `load` (where the Hertz law is linearised)"))
                    .hint("overlap = \"10 um\" or load = \"9.81 N\""),
            );
            return None;
        }
        let has_shear = shear.is_some() || (mindlin && materials.is_some());
        if has_shear && radius.is_none() {
            self.error(Diagnostic::new(
                at,
                format!("{what}: Mindlin's tangential stiffness 8 G* √(R* δ) needs `radius`"),
            ));
            return None;
        }
        let inputs = HertzInputs {
            modulus,
            radius,
            coefficient: coef,
            overlap,
            load,
            impact_speed,
            shear_modulus: shear,
            materials,
            mindlin,
        };
        let Some(law) = inputs.derive(&mut |v| Some(v.si)) else {
            self.error(Diagnostic::new(
                at,
                format!("{what}: the Hertz law gives no finite positive stiffness at these values"),
            ));
            return None;
        };
        let (k, kt) = (law.stiffness, law.tangential_stiffness);
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
