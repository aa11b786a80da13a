//! Model checks of a scene as a whole (issue 36, the signer's
//! granular-pile findings): bodies its contact list misses, the overlap
//! forces of a scene said to be at rest against its weight, and a dump's
//! spheres against what a grain can be (its units). Each rule reads the
//! scene through [`SceneView`] — one body or contact at a time, by
//! number — so that the model path (a `Model`'s structs) and the columnar
//! route (a large scene's columns) run the same code, in linear time and
//! without an allocation per contact.

pub(super) use super::scene_view::{SceneContact, SceneView, said_at_rest};
use super::{Checks, at, n};
use crate::case::Case;
use crate::case::scene::{DumpFacts, Scene, SceneData, WORLD};
use crate::model::{BodyKind, Geometry, Kind, Model};

/// More than this fraction of a scene's movable bodies touching nothing
/// is flagged. A jittered, polydisperse packing leaves its smallest
/// spheres free (granular-pile: 6 of 48, 12.5 %; the generator's
/// packings 5–12 %); a contact list that misses most bodies is cut short,
/// of another snapshot, or found with a tolerance in another unit.
pub const FREE_FRACTION: f64 = 0.5;

/// The free bodies a warning names.
pub const FREE_NAMED: usize = 5;

/// A scene said to be at rest whose supports' overlap forces along
/// gravity are beyond this multiple (or below its inverse) of its weight,
/// or one of whose contacts carries more than this multiple of the whole
/// weight, is flagged (N/mm read as N/m gives 10⁻³; a pile whose overlaps
/// were generated, not settled, gives 65×: granular-pile).
pub const SUPPORT_RATIO: f64 = 100.0;

/// A dump read without declared units whose spheres' median density
/// (kg/m³) is below this is flagged: LAMMPS `units cgs` read as SI gives
/// a thousandth of the density (glass 2.5, steel 7.8 kg/m³); the lightest
/// grains simulated (expanded polystyrene beads) are 15–30 kg/m³ and
/// pass with `units = "si"`.
pub const DUMP_DENSITY_FLOOR: f64 = 50.0;

/// Standard gravity (m/s²): the weight of a scene said to be at rest.
const G: f64 = super::dynamics::GRAVITY;

/// The scene rules on a scene's model (the model path).
pub(super) fn on_model(case: &Case, model: &Model<f64>, out: &mut Checks) {
    let (Some(scene), Kind::Bodies { bodies, .. }) = (&case.scene, &model.kind) else {
        return;
    };
    let movable = |b: usize| match bodies[b].kind {
        BodyKind::Rigid { mass, .. } | BodyKind::Particle { mass } => Some(mass),
        BodyKind::Fixed => None,
    };
    let contact = |ci: usize| {
        let c = &model.contacts[ci];
        let mut normal = [0.0; 3];
        let mut sides = [None, None];
        if let Geometry::Point {
            body,
            other,
            normal: nv,
            ..
        } = &c.geometry
        {
            normal[..nv.len().min(3)].copy_from_slice(&nv[..nv.len().min(3)]);
            sides = [Some(*body), *other].map(|b| b.filter(|&b| movable(b).is_some()));
        }
        SceneContact {
            k: c.stiffness,
            sides,
            normal,
        }
    };
    let position = |b: usize| {
        let mut x = [0.0; 3];
        let p = &bodies[b].position;
        x[..p.len().min(3)].copy_from_slice(&p[..p.len().min(3)]);
        x
    };
    let inertia = |b: usize| match &bodies[b].kind {
        BodyKind::Rigid { inertia, .. } => super::scene_view::six(inertia),
        _ => [0.0; 6],
    };
    let view = SceneView {
        n_bodies: bodies.len(),
        mass: &movable,
        name: &|b| bodies[b].name.clone(),
        n_contacts: model.contacts.len(),
        contact: &contact,
        dim: case.space.dim(),
        position: &position,
        inertia: &inertia,
    };
    rules(case, scene, &view, out);
}

/// The scene rules on a large scene's columns (the columnar route).
pub(super) fn on_columns(case: &Case, s: &SceneData, out: &mut Checks) {
    let Some(scene) = &case.scene else { return };
    let d = case.space.dim();
    let movable = |b: usize| (!s.fixed[b]).then(|| s.mass[b]);
    let side = |b: u32| (b != WORLD && !s.fixed[b as usize]).then_some(b as usize);
    let contact = |ci: usize| {
        let mut normal = [0.0; 3];
        normal[..d].copy_from_slice(&s.normal[d * ci..d * ci + d]);
        SceneContact {
            k: s.stiffness[ci],
            sides: [side(s.body[ci]), side(s.other[ci])],
            normal,
        }
    };
    let position = |b: usize| {
        let mut x = [0.0; 3];
        x[..d].copy_from_slice(&s.position[d * b..d * b + d]);
        x
    };
    let inertia = |b: usize| {
        let mut t = [0.0; 6];
        let w = if d == 3 { 6 } else { 1 };
        t[..w].copy_from_slice(&s.inertia[w * b..w * b + w]);
        t
    };
    let view = SceneView {
        n_bodies: s.n_bodies(),
        mass: &movable,
        name: &|b| s.body_name(b),
        n_contacts: s.n_contacts(),
        contact: &contact,
        dim: d,
        position: &position,
        inertia: &inertia,
    };
    rules(case, scene, &view, out);
}

fn rules(case: &Case, scene: &Scene, v: &SceneView, out: &mut Checks) {
    free_bodies(case, v, out);
    if let Some(overlap) = &scene.overlap {
        support_force(case, scene, overlap, v, out);
    }
    if let Some(facts) = &scene.dump {
        dump_density(case, facts, v, out);
    }
    // checks7a
    super::scene_support::rules(case, scene, v, out);
}

/// Movable bodies no contact touches: more than [`FREE_FRACTION`] of
/// them is a contact list that misses the scene.
fn free_bodies(case: &Case, v: &SceneView, out: &mut Checks) {
    let mut touched = vec![false; v.n_bodies];
    for ci in 0..v.n_contacts {
        for b in (v.contact)(ci).sides.into_iter().flatten() {
            touched[b] = true;
        }
    }
    let movable = (0..v.n_bodies).filter(|&b| (v.mass)(b).is_some());
    let (mut total, mut free, mut first) = (0usize, 0usize, Vec::new());
    for b in movable {
        total += 1;
        if !touched[b] {
            free += 1;
            if first.len() < FREE_NAMED {
                first.push(b);
            }
        }
    }
    if total == 0 || (free as f64) <= FREE_FRACTION * total as f64 {
        return;
    }
    let names: Vec<String> = first.iter().map(|&b| (v.name)(b)).collect();
    out.warn(
        "free_bodies",
        "scene: contacts".to_string(),
        super::scene_row(case, "bodies", first[0]),
        format!(
            "{free} of the scene's {total} movable bodies ({}%) touch nothing: {}{}. A few \
             free bodies (rattlers) are normal in a packing, and each only adds a mode of \
             zero frequency; a contact list that misses most bodies is cut short, of another \
             snapshot or numbering (0- or 1-based body indices), or found with a tolerance in \
             another unit",
            n(100.0 * free as f64 / total as f64),
            names.join(", "),
            if free > names.len() { ", …" } else { "" }
        ),
    );
}

/// A scene with overlaps (a dump's; an `overlap` column) said to be at
/// rest: the supports' overlap forces `k·δ` along
/// gravity (−z; −y in the plane) against the weight `Σ m g`, and the
/// largest contact force against it.
fn support_force(case: &Case, scene: &Scene, overlap: &[f64], v: &SceneView, out: &mut Checks) {
    let Some(phrase) = said_at_rest(case) else {
        return;
    };
    let weight: f64 = (0..v.n_bodies).filter_map(|b| (v.mass)(b)).sum::<f64>() * G;
    let up = v.dim - 1;
    let (mut support, mut supports, mut largest, mut at_c) = (0.0f64, 0usize, 0.0f64, 0usize);
    for ci in 0..v.n_contacts.min(overlap.len()) {
        let c = (v.contact)(ci);
        let force = c.k * overlap[ci].max(0.0);
        if force > largest {
            (largest, at_c) = (force, ci);
        }
        match c.sides {
            [Some(_), None] => {
                support += force * c.normal[up];
                supports += 1;
            }
            [None, Some(_)] => {
                support -= force * c.normal[up];
                supports += 1;
            }
            _ => {}
        }
    }
    if weight <= 0.0 || !weight.is_finite() || supports == 0 {
        return;
    }
    let ratio = support / weight;
    let location = at(case, &scene.span);
    let advice = "check the stiffness's unit (N/m, not N/mm) and the dump's units (a cgs \
                  dump read as SI)";
    if !(1.0 / SUPPORT_RATIO..=SUPPORT_RATIO).contains(&ratio) {
        out.warn(
            "overlap_force",
            "scene: contact stiffness".to_string(),
            location.clone(),
            format!(
                "the case says the scene is {phrase}, yet its {supports} supports' overlap \
                 forces k·δ sum to {} N along gravity, {}× its weight Σ m g = {} N (at rest \
                 they are equal): {advice}",
                n(support),
                n(ratio),
                n(weight)
            ),
        );
    } else if largest > SUPPORT_RATIO * weight {
        out.warn(
            "overlap_force",
            "scene: contact stiffness".to_string(),
            location,
            format!(
                "the case says the scene is {phrase}, yet contact {}'s overlap force k·δ = {} N \
                 is {}× the whole scene's weight Σ m g = {} N: {advice}",
                case.contact_name(at_c),
                n(largest),
                n(largest / weight),
                n(weight)
            ),
        );
    }
}

/// A dump's spheres are solid grains: read without declared units, a
/// median density below [`DUMP_DENSITY_FLOOR`] is a dump in other units
/// (cgs: g and cm) read as SI.
fn dump_density(case: &Case, f: &DumpFacts, v: &SceneView, out: &mut Checks) {
    if f.units_declared {
        return;
    }
    let mut rho: Vec<f64> = (0..v.n_bodies.min(f.radius.len()))
        .filter_map(|b| {
            let m = (v.mass)(b)?;
            let r = f.radius[b];
            (r > 0.0).then(|| m / (4.0 / 3.0 * std::f64::consts::PI * r.powi(3)))
        })
        .collect();
    if rho.is_empty() {
        return;
    }
    let mid = rho.len() / 2;
    let (_, median, _) = rho.select_nth_unstable_by(mid, f64::total_cmp);
    let median = *median;
    if median >= DUMP_DENSITY_FLOOR {
        return;
    }
    let mut r = f.radius.clone();
    let half = r.len() / 2;
    let (_, r_mid, _) = r.select_nth_unstable_by(half, f64::total_cmp);
    out.warn(
        "dump_units",
        "scene: dump units".to_string(),
        super::scene_row(case, "bodies", 0),
        format!(
            "the dump declares no units, so its numbers were read as SI: its spheres' median \
             density m/(4/3 π r³) is {} kg/m³ (median radius {} m), below {} kg/m³, lighter \
             than any grain; a LAMMPS `units cgs` dump (g, cm) read as SI gives 1/1000 of \
             the density and spheres 100× their size. Give `units = \"cgs\"` in `[scene]` \
             (or write the dump with `dump_modify … units yes`), or `units = \"si\"` if \
             these are right",
            n(median),
            n(*r_mid),
            n(DUMP_DENSITY_FLOOR)
        ),
    );
}
