//! A Hertz contact's materials: `material = { youngs_modulus | shear_modulus,
//! poisson_ratio, density, radius }` for the contact's body and
//! `other_material = { … }` or `"rigid"` for what it touches
//! (docs/case-format.md, "Hertz contacts"). From them E* and Mindlin's G*
//! (formulas and sources in [`crate::hertz`]) and, with a density, the
//! Rayleigh time.

use super::read::*;
use super::types::Val;
use toml::de::DeValue;

/// One body's material (SI, at the case's values; [`Material::at`] at
/// another point).
#[derive(Clone, Debug)]
pub struct Material {
    /// Young's modulus E (Pa).
    pub youngs_modulus: f64,
    /// Shear modulus G = E/(2(1 + ν)) (Pa).
    pub shear_modulus: f64,
    /// Poisson's ratio ν.
    pub poisson_ratio: f64,
    /// Density (kg/m³), when given: the Rayleigh time needs it.
    pub density: Option<f64>,
    /// The particle's radius (m), when given: the Rayleigh time's R.
    pub radius: Option<f64>,
    /// The values as written (a tolerance or a sweep reaches them).
    pub inputs: MaterialInputs,
}

/// A material's values as written in the case.
#[derive(Clone, Debug)]
pub struct MaterialInputs {
    /// `youngs_modulus`.
    pub youngs_modulus: Option<Val>,
    /// `shear_modulus`.
    pub shear_modulus: Option<Val>,
    /// `density`.
    pub density: Option<Val>,
    /// `radius`.
    pub radius: Option<Val>,
}

impl MaterialInputs {
    /// The values, as [`Val`]s (for the parameters a case uses).
    pub fn vals(&self) -> impl Iterator<Item = &Val> {
        [
            &self.youngs_modulus,
            &self.shear_modulus,
            &self.density,
            &self.radius,
        ]
        .into_iter()
        .flatten()
    }
}

impl Material {
    /// The material with its values through `si` (a point of a sweep or
    /// of a tolerance box): `None` where a value is not positive and
    /// finite there.
    pub fn at(&self, si: &mut dyn FnMut(&Val) -> Option<f64>) -> Option<Material> {
        let mut value = |v: &Option<Val>| -> Option<Option<f64>> {
            match v {
                None => Some(None),
                Some(v) => si(v).filter(|x| x.is_finite() && *x > 0.0).map(Some),
            }
        };
        let i = &self.inputs;
        let (e, g) = moduli(
            value(&i.youngs_modulus)?,
            value(&i.shear_modulus)?,
            self.poisson_ratio,
        )?;
        Some(Material {
            youngs_modulus: e,
            shear_modulus: g,
            poisson_ratio: self.poisson_ratio,
            density: value(&i.density)?,
            radius: value(&i.radius)?,
            inputs: i.clone(),
        })
    }
}

/// E and G from the one given and ν: `G = E/(2(1 + ν))` (`None` unless
/// exactly one is given).
fn moduli(e: Option<f64>, g: Option<f64>, nu: f64) -> Option<(f64, f64)> {
    match (e, g) {
        (Some(e), None) => Some((e, e / (2.0 * (1.0 + nu)))),
        (None, Some(g)) => Some((2.0 * (1.0 + nu) * g, g)),
        _ => None,
    }
}

/// What the contact's body touches.
#[derive(Clone, Debug)]
pub enum Counterpart {
    /// A rigid body or wall (its compliance is 0).
    Rigid,
    /// An elastic body of this material.
    Elastic(Box<Material>),
}

/// The materials of a Hertz contact.
#[derive(Clone, Debug)]
pub struct Materials {
    /// The contact's body.
    pub body: Material,
    /// What it touches.
    pub other: Counterpart,
}

impl Materials {
    /// Both materials with their values through `si` ([`Material::at`]).
    pub fn at(&self, si: &mut dyn FnMut(&Val) -> Option<f64>) -> Option<Materials> {
        Some(Materials {
            body: self.body.at(si)?,
            other: match &self.other {
                Counterpart::Rigid => Counterpart::Rigid,
                Counterpart::Elastic(m) => Counterpart::Elastic(Box::new(m.at(si)?)),
            },
        })
    }

    /// Every value as written, both materials.
    pub fn vals(&self) -> Vec<&Val> {
        let mut out: Vec<&Val> = self.body.inputs.vals().collect();
        if let Counterpart::Elastic(m) = &self.other {
            out.extend(m.inputs.vals());
        }
        out
    }

    fn other(&self) -> Option<&Material> {
        match &self.other {
            Counterpart::Rigid => None,
            Counterpart::Elastic(m) => Some(m),
        }
    }

    /// `E* = [(1 − ν₁²)/E₁ + (1 − ν₂²)/E₂]⁻¹`.
    pub fn effective_modulus(&self) -> f64 {
        let b = &self.body;
        crate::hertz::effective_modulus(
            b.youngs_modulus,
            b.poisson_ratio,
            self.other().map(|o| (o.youngs_modulus, o.poisson_ratio)),
        )
    }

    /// Mindlin's `G* = [(2 − ν₁)/G₁ + (2 − ν₂)/G₂]⁻¹`.
    pub fn effective_shear_modulus(&self) -> f64 {
        let b = &self.body;
        crate::hertz::effective_shear_modulus(
            b.shear_modulus,
            b.poisson_ratio,
            self.other().map(|o| (o.shear_modulus, o.poisson_ratio)),
        )
    }

    /// The Rayleigh time of the contact's body (`material.radius`,
    /// `density`, G, ν), or what the case lacks for it.
    pub fn rayleigh_time(&self) -> Result<f64, String> {
        let b = &self.body;
        match (b.density, b.radius) {
            (Some(rho), Some(r)) => Ok(crate::hertz::rayleigh_time(
                r,
                rho,
                b.shear_modulus,
                b.poisson_ratio,
            )),
            (rho, r) => Err(format!(
                "needs {}",
                [
                    rho.is_none()
                        .then_some("the body's density (material.density)"),
                    r.is_none()
                        .then_some("the particle's radius (material.radius)"),
                ]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" and ")
            )),
        }
    }
}

const MATERIAL_KEYS: &[&str] = &[
    "youngs_modulus",
    "shear_modulus",
    "poisson_ratio",
    "density",
    "radius",
];
const PRESSURE: Dim = Dim([1, -1, -2]);
const DENSITY: Dim = Dim([1, -3, 0]);

impl Reader<'_> {
    /// The `material` and `other_material` of a Hertz contact table `t`:
    /// `Some(None)` without them, `None` after an error.
    pub(super) fn hertz_materials(&mut self, t: &DeTable, what: &str) -> Option<Option<Materials>> {
        let (body, other) = (get(t, "material"), get(t, "other_material"));
        let (body, other) = match (body, other) {
            (None, None) => return Some(None),
            (Some(b), Some(o)) => (b, o),
            (Some(n), None) | (None, Some(n)) => {
                self.error(
                    Diagnostic::new(n.span(), format!("{what}: give both `material` and `other_material`"))
                        .hint("other_material = \"rigid\" for a rigid counterpart, or a table like `material`"),
                );
                return None;
            }
        };
        let body = self.material(body, &format!("{what}'s `material`"))?;
        let other = match other.get_ref() {
            DeValue::String(s) if s.as_ref() == "rigid" => Counterpart::Rigid,
            DeValue::Table(_) => Counterpart::Elastic(Box::new(
                self.material(other, &format!("{what}'s `other_material`"))?,
            )),
            _ => {
                self.error(
                    Diagnostic::new(
                        other.span(),
                        format!("{what}: `other_material` is a table or \"rigid\""),
                    )
                    .hint("other_material = { youngs_modulus = \"210 GPa\", poisson_ratio = 0.3 }"),
                );
                return None;
            }
        };
        Some(Some(Materials { body, other }))
    }

    fn material(&mut self, node: &Node, what: &str) -> Option<Material> {
        let t = self.table(node, what)?;
        self.keys(t, MATERIAL_KEYS, what);
        let nu_node = self.required(t, "poisson_ratio", what, &node.span())?;
        let nu = match toml_number(nu_node) {
            Some(v) if (0.0..0.5).contains(&v) => v,
            _ => {
                self.error(Diagnostic::new(
                    nu_node.span(),
                    format!("{what}: `poisson_ratio` must be a number in [0, 0.5)"),
                ));
                return None;
            }
        };
        let mut positive = |key: &str, dim: Dim, name: &str| -> Option<Option<Val>> {
            match get(t, key) {
                None => Some(None),
                Some(n) => {
                    let v = self.value(n, dim, name);
                    self.positive(v, name).map(Some)
                }
            }
        };
        let inputs = MaterialInputs {
            youngs_modulus: positive("youngs_modulus", PRESSURE, "a Young's modulus")?,
            shear_modulus: positive("shear_modulus", PRESSURE, "a shear modulus")?,
            density: positive("density", DENSITY, "a density")?,
            radius: positive("radius", Dim::LENGTH, "a particle radius")?,
        };
        let si = |v: &Option<Val>| v.as_ref().map(|v| v.si);
        let Some((e, g)) = moduli(si(&inputs.youngs_modulus), si(&inputs.shear_modulus), nu) else {
            self.error(
                Diagnostic::new(node.span(), format!("{what}: give one of `youngs_modulus` and `shear_modulus` (with `poisson_ratio`)"))
                    .hint("youngs_modulus = \"210 GPa\", poisson_ratio = 0.3"),
            );
            return None;
        };
        Some(Material {
            youngs_modulus: e,
            shear_modulus: g,
            poisson_ratio: nu,
            density: si(&inputs.density),
            radius: si(&inputs.radius),
            inputs,
        })
    }
}
