//! A material the case's words name against its shaped bodies' m/V: an
//! "aluminium" bracket typed with steel's density. A body can be hollow
//! (a tote, a housing), so its m/V may be well below its material's; it
//! cannot be far above the densest material named, nor, when the words
//! call it solid, far below the lightest.

use super::{Checks, n};
use crate::case::{Case, Form};
use crate::model::Model;

/// m/V above this multiple of the densest named material's density, or
/// (a body called solid) below this fraction of the lightest's, is
/// flagged: alloys and fillers move a density by less than ±40 %.
pub const MATERIAL_BAND: (f64, f64) = (0.6, 1.6);

/// The materials the check knows (a closed list), with the words that name
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Material {
    Aluminium,
    Steel,
    Iron,
    Brass,
    Copper,
    Titanium,
    Lead,
    Magnesium,
    Polyamide,
    Abs,
    Pla,
    Polypropylene,
    Polyethylene,
    Acetal,
    Polycarbonate,
    Acrylic,
    Pvc,
    Rubber,
    Glass,
    Concrete,
    Wood,
    Carbide,
    Tungsten,
}

impl Material {
    const ALL: [Material; 23] = [
        Material::Aluminium,
        Material::Steel,
        Material::Iron,
        Material::Brass,
        Material::Copper,
        Material::Titanium,
        Material::Lead,
        Material::Magnesium,
        Material::Polyamide,
        Material::Abs,
        Material::Pla,
        Material::Polypropylene,
        Material::Polyethylene,
        Material::Acetal,
        Material::Polycarbonate,
        Material::Acrylic,
        Material::Pvc,
        Material::Rubber,
        Material::Glass,
        Material::Concrete,
        Material::Wood,
        Material::Carbide,
        Material::Tungsten,
    ];

    /// Whole words (lower case) that name it.
    fn words(self) -> &'static [&'static str] {
        match self {
            Material::Aluminium => &["aluminium", "aluminum"],
            Material::Steel => &["steel", "stainless"],
            Material::Iron => &["iron"],
            Material::Brass => &["brass"],
            Material::Copper => &["copper"],
            Material::Titanium => &["titanium"],
            Material::Lead => &["lead-filled", "leaden"],
            Material::Magnesium => &["magnesium"],
            Material::Polyamide => &["nylon", "pa6", "pa12", "pa66", "polyamide"],
            Material::Abs => &["abs"],
            Material::Pla => &["pla"],
            Material::Polypropylene => &["polypropylene"],
            Material::Polyethylene => &["polyethylene", "hdpe", "uhmwpe"],
            Material::Acetal => &["acetal", "pom", "delrin"],
            Material::Polycarbonate => &["polycarbonate"],
            Material::Acrylic => &["acrylic", "pmma", "perspex", "plexiglass"],
            Material::Pvc => &["pvc"],
            Material::Rubber => &["rubber"],
            Material::Glass => &["glass"],
            Material::Concrete => &["concrete"],
            Material::Wood => &["wood", "wooden", "oak", "pine", "plywood"],
            Material::Carbide => &["carbide", "wc-co"],
            Material::Tungsten => &["tungsten"],
        }
    }

    /// Typical density, kg/m³ (the range's middle where grades differ).
    fn density(self) -> f64 {
        match self {
            Material::Aluminium => 2700.0,
            Material::Steel => 7850.0,
            Material::Iron => 7200.0,
            Material::Brass => 8500.0,
            Material::Copper => 8960.0,
            Material::Titanium => 4500.0,
            Material::Lead => 11340.0,
            Material::Magnesium => 1740.0,
            Material::Polyamide => 1100.0,
            Material::Abs => 1050.0,
            Material::Pla => 1250.0,
            Material::Polypropylene => 905.0,
            Material::Polyethylene => 950.0,
            Material::Acetal => 1410.0,
            Material::Polycarbonate => 1200.0,
            Material::Acrylic => 1180.0,
            Material::Pvc => 1400.0,
            Material::Rubber => 1100.0,
            Material::Glass => 2500.0,
            Material::Concrete => 2400.0,
            Material::Wood => 650.0,
            Material::Carbide => 15000.0,
            Material::Tungsten => 19300.0,
        }
    }
}

/// The materials `text` names, by whole word.
fn named(text: &str) -> Vec<(Material, &str)> {
    let words: Vec<String> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .map(str::to_lowercase)
        .collect();
    let mut out = Vec::new();
    for m in Material::ALL {
        if let Some(w) = m.words().iter().find(|w| words.iter().any(|x| x == *w)) {
            out.push((m, *w));
        }
    }
    out
}

/// Each shaped body's m/V against the materials the case's words name.
pub(super) fn check(case: &Case, model: &Model<f64>, out: &mut Checks) {
    let (Form::Bodies { bodies, .. }, crate::model::Kind::Bodies { bodies: mb, .. }) =
        (&case.form, &model.kind)
    else {
        return;
    };
    if case.scene.is_some() {
        return;
    }
    let mut texts: Vec<String> = super::description::texts(case)
        .into_iter()
        .map(|(_, t)| t.to_string())
        .collect();
    texts.extend(bodies.iter().filter_map(|b| b.description.clone()));
    let all = texts.join(" ");
    let materials = named(&all);
    // A density the words state is held by the description's rule (and
    // names what this list may not know).
    let states_density = super::description::stated(&all)
        .iter()
        .any(|s| s.dim == super::description::DENSITY);
    if materials.is_empty() || states_density {
        return;
    }
    let solid = all
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w.eq_ignore_ascii_case("solid"));
    let densest = materials
        .iter()
        .max_by(|a, b| a.0.density().total_cmp(&b.0.density()))
        .copied();
    let lightest = materials
        .iter()
        .min_by(|a, b| a.0.density().total_cmp(&b.0.density()))
        .copied();
    let (Some(densest), Some(lightest)) = (densest, lightest) else {
        return;
    };
    for (b, (body, m)) in bodies.iter().zip(mb).enumerate() {
        let Some(shape) = &body.shape else { continue };
        let (Some(v), Some(mass)) = (shape.kind.volume(&shape.size), m.mass()) else {
            continue;
        };
        let rho = mass / v;
        if !(rho.is_finite() && v > 0.0) {
            continue;
        }
        let (bound, material, word) = if rho > MATERIAL_BAND.1 * densest.0.density() {
            ("above", densest.0, densest.1)
        } else if solid && rho < MATERIAL_BAND.0 * lightest.0.density() {
            ("below", lightest.0, lightest.1)
        } else {
            continue;
        };
        let (name, location) = super::body_name_and_location(case, b, &body.name);
        let hollow = if bound == "below" {
            " (the words call it solid)"
        } else {
            ""
        };
        out.warn(
            "material_density",
            format!("body {name}: mass"),
            location,
            format!(
                "body {name}'s mass over its {}'s volume is {} kg/m³, {} times the {} kg/m³ \
                 of the {word} the case's words name{hollow}, {bound} the {}–{}× band: check \
                 the mass or the density typed (another material's value) and the shape's size",
                shape.kind.name(),
                n(rho),
                n(rho / material.density()),
                n(material.density()),
                MATERIAL_BAND.0,
                MATERIAL_BAND.1
            ),
        );
    }
}
