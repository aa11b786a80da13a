//! The model checks of a large scene read straight from its columns (the
//! pipeline's columnar route, `pipeline/scene.rs`): the rules [`run`]
//! applies to a scene's model — the inertia's triangle inequality, the
//! farthest contact against the radius of gyration, the density, the
//! lever, a normal pulling a body from its centre, the springs — each
//! rule's own function called with the numbers the columns hold, so that
//! no `Model` (≈0.9 KB a body) is built for them. Which rules run, and in
//! which order, is [`run::ORDER`](super::run::ORDER)'s (what it leaves out
//! for a scene says why); the world echo of each contact
//! (`Checks::world`, printed with the model definition, which a scene has
//! not) is left empty.
//!
//! Each rule runs over the bodies or the contacts on every core
//! ([`each`](super::each::each): the serial loop's warnings, in its
//! order, whatever the thread count), and forms a name, a location or a
//! message only for a warning it lists: a scene of 10⁶ bodies that passes
//! formats nothing.
//!
//! [`run`]: super::run

use super::{Checks, dynamics, normals, plausible};
use crate::case::Case;
use crate::case::scene::{SceneData, WORLD};
use crate::model::Inertia;
use nalgebra::Vector3;
use rayon::prelude::*;

/// What the rules before the analysis read: the case, the scene's
/// columns (positions, inertias, points and normals still there) and
/// each body's farthest contact and principal moments.
pub(super) struct Geometry<'a> {
    case: &'a Case,
    s: &'a SceneData,
    /// Dimensions (2 or 3).
    d: usize,
    bodies: &'a Bodies,
}

/// What the rules after the analysis read: the scene's masses, bodies,
/// stiffness and damping (the geometry may be freed), the analysis'
/// effective masses and each body's size.
pub(super) struct Results<'a> {
    case: &'a Case,
    s: &'a SceneData,
    an: &'a crate::analysis::Analysis,
    sizes: &'a [f64],
}

/// Per body: the farthest contact point from its centre and that
/// contact, how many contact sides it has (up to 2: the gyration rule
/// needs two), its principal moments (`w` a body; a fixed body's 0).
struct Bodies {
    far: Vec<f64>,
    far_contact: Vec<u32>,
    count: Vec<u8>,
    w: usize,
    moments: Vec<f64>,
}

/// No contact (in [`Bodies::far_contact`]).
const NONE: u32 = u32::MAX;

impl Bodies {
    fn of(s: &SceneData, d: usize) -> Bodies {
        let nb = s.n_bodies();
        let mut far = vec![0.0f64; nb];
        let mut far_contact = vec![NONE; nb];
        let mut count = vec![0u8; nb];
        // In contact order: the first contact at the largest distance.
        for ci in 0..s.n_contacts() {
            for (b, p, _) in sides(s, d, ci) {
                count[b] = count[b].saturating_add(1).min(2);
                let r = super::dist(&p[..d], &s.position[d * b..d * b + d]);
                if r > far[b] {
                    far[b] = r;
                    far_contact[b] = ci as u32;
                }
            }
        }
        let w = if d == 3 { 3 } else { 1 };
        let mut moments = vec![0.0f64; w * nb];
        moments
            .par_chunks_mut(w)
            .with_min_len(1 << 12)
            .enumerate()
            .filter(|(b, _)| !s.fixed[*b])
            .for_each(|(b, m)| {
                let (p, _) = super::principal_moments(&inertia_of(s, d, b));
                m.copy_from_slice(&p[..w]);
            });
        Bodies {
            far,
            far_contact,
            count,
            w,
            moments,
        }
    }

    fn moments(&self, b: usize) -> &[f64] {
        &self.moments[self.w * b..self.w * b + self.w]
    }

    /// Each body's size: its radius of gyration or its farthest contact.
    fn sizes(&self, s: &SceneData) -> Vec<f64> {
        (0..s.n_bodies())
            .into_par_iter()
            .with_min_len(1 << 12)
            .map(|b| {
                let g = if s.fixed[b] {
                    0.0
                } else {
                    let g = super::radius_of_gyration(s.mass[b], self.moments(b));
                    if g.is_finite() { g } else { 0.0 }
                };
                0.0f64.max(g).max(self.far[b])
            })
            .collect()
    }
}

/// Body `b`'s inertia as the model holds it (`model::scene_body`'s form).
fn inertia_of(s: &SceneData, d: usize, b: usize) -> Inertia<f64> {
    if d == 3 {
        let t = &s.inertia[6 * b..6 * b + 6];
        if t[3] == 0.0 && t[4] == 0.0 && t[5] == 0.0 {
            Inertia::Diagonal([t[0], t[1], t[2]])
        } else {
            Inertia::Full([[t[0], t[3], t[4]], [t[3], t[1], t[5]], [t[4], t[5], t[2]]])
        }
    } else {
        Inertia::Scalar(s.inertia[b])
    }
}

/// Contact `ci`'s point as its other body sees it (less a periodic
/// image's shift, as `model::side_points`).
fn other_point(s: &SceneData, d: usize, ci: usize) -> [f64; 3] {
    let mut p = [0.0; 3];
    p[..d].copy_from_slice(&s.point[d * ci..d * ci + d]);
    if let Some(image) = &s.image {
        for k in 0..d {
            p[k] -= image[d * ci + k];
        }
    }
    p
}

/// A contact's sides: (body, the point as it sees it, the sign of the
/// normal into it).
fn sides(s: &SceneData, d: usize, ci: usize) -> impl Iterator<Item = (usize, [f64; 3], f64)> {
    let mut own = [0.0; 3];
    own[..d].copy_from_slice(&s.point[d * ci..d * ci + d]);
    let other = (s.other[ci] != WORLD).then(|| (s.other[ci] as usize, other_point(s, d, ci), -1.0));
    std::iter::once((s.body[ci] as usize, own, 1.0)).chain(other)
}

/// Body `b`'s name and where it is written (its row of the scene's
/// file), for a warning that lists it.
fn body_named(case: &Case, s: &SceneData, b: usize) -> (String, String) {
    super::body_name_and_location(case, b, &s.body_name(b))
}

/// The triangle inequality and the farthest contact against the radius
/// of gyration, body by body (`body_checks`' rules).
pub(super) fn bodies(g: &Geometry<'_>, out: &mut Checks) {
    let (case, s, t) = (g.case, g.s, g.bodies);
    super::each::each(s.n_bodies(), out, |b, out| {
        if s.fixed[b] {
            return;
        }
        let who = || body_named(case, s, b);
        let m = t.moments(b);
        if m.len() == 3 {
            super::triangle(&who, m, out);
        }
        let rho = super::radius_of_gyration(s.mass[b], m);
        if t.far_contact[b] != NONE && rho.is_finite() {
            super::gyration(
                case,
                m.len() == 1,
                &who,
                rho,
                (t.far[b], t.far_contact[b] as usize),
                t.count[b] >= 2,
                out,
            );
        }
    });
}

/// Each moving body's density.
pub(super) fn density(g: &Geometry<'_>, out: &mut Checks) {
    let (case, s, t) = (g.case, g.s, g.bodies);
    super::each::each(s.n_bodies(), out, |b, out| {
        if !s.fixed[b] {
            plausible::density_of(
                &|| body_named(case, s, b),
                s.mass[b],
                t.moments(b),
                None,
                out,
            );
        }
    });
}

/// Each contact's lever on its (first) body.
pub(super) fn lever(g: &Geometry<'_>, out: &mut Checks) {
    let (case, s, d) = (g.case, g.s, g.d);
    super::each::each(s.n_contacts(), out, |ci, out| {
        let b = s.body[ci] as usize;
        if s.fixed[b] {
            return;
        }
        let mut r = [0.0f64; 3];
        for k in 0..d {
            r[k] = s.point[d * ci + k] - s.position[d * b + k];
        }
        plausible::lever_of(
            case,
            ci,
            &|| s.body_name(b),
            (s.mass[b], &inertia_of(s, d, b)),
            &r[..d],
            &s.normal[d * ci..d * ci + d],
            out,
        );
    });
}

/// The scene as a whole (`scene_model.rs`: free bodies, overlap forces,
/// a dump's units) on its columns.
pub(super) fn scene_model(g: &Geometry<'_>, out: &mut Checks) {
    super::scene_model::on_columns(g.case, g.s, out);
}

/// Each contact's normal against its moving bodies' centres
/// (`normals::bodies` for shapeless rigid bodies, all a scene has).
pub(super) fn normals(g: &Geometry<'_>, out: &mut Checks) {
    let (case, s, d) = (g.case, g.s, g.d);
    let v3 = |v: &[f64]| Vector3::new(v[0], v[1], if d == 3 { v[2] } else { 0.0 });
    super::each::each(s.n_contacts(), out, |ci, out| {
        let nw = v3(&s.normal[d * ci..d * ci + d]);
        for (b, p, sign) in sides(s, d, ci) {
            if !s.fixed[b] {
                let x = v3(&s.position[d * b..d * b + d]);
                let name = || s.body_name(b);
                normals::away_from_centre(case, ci, &name, (x, v3(&p), sign * nw), out);
            }
        }
    });
}

/// The springs' rule over the scene's columns with the analysis'
/// effective masses.
pub(super) fn springs(r: &Results<'_>, out: &mut Checks) {
    let (scene, an) = (r.s, r.an);
    let side = |b: u32| (b != WORLD).then_some(b as usize);
    let contact = |ci: usize| dynamics::SpringContact {
        k: scene.stiffness[ci],
        damping: scene.damping.as_ref().map(|d| d[ci]),
        sides: [side(scene.body[ci]), side(scene.other[ci])],
    };
    let body = |b: usize| dynamics::SpringBody {
        mass: (!scene.fixed[b]).then(|| scene.mass[b]),
        rigid: !scene.fixed[b],
    };
    dynamics::springs_of(
        r.case,
        (scene.n_contacts(), contact),
        (scene.fixed.len(), body, |b| scene.body_name(b)),
        |ci| an.contact(ci).m_eff,
        r.sizes,
        out,
    );
}

/// Runs `f` on the scene's geometry (its positions, inertias, points and
/// normals must be there), and each body's size.
pub(super) fn with_geometry(case: &Case, s: &SceneData, f: impl FnOnce(&Geometry<'_>)) -> Vec<f64> {
    let d = case.space.dim();
    let bodies = Bodies::of(s, d);
    let geometry = Geometry {
        case,
        s,
        d,
        bodies: &bodies,
    };
    f(&geometry);
    bodies.sizes(s)
}

/// What the rules after the analysis read on the columns.
pub(super) fn results<'a>(
    case: &'a Case,
    scene: &'a SceneData,
    an: &'a crate::analysis::Analysis,
    sizes: &'a [f64],
) -> Results<'a> {
    Results {
        case,
        s: scene,
        an,
        sizes,
    }
}
