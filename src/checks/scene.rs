//! The model checks of a large scene read straight from its columns (the
//! pipeline's columnar route, `pipeline/scene.rs`): the rules [`run`]
//! applies to a scene's model — the inertia's triangle inequality, the
//! farthest contact against the radius of gyration, the density, the
//! lever, a normal pulling a body from its centre, the springs — in the
//! same order, each rule's own function called with the numbers the
//! columns hold, so that no `Model` (≈0.9 KB a body) is built for them.
//! What `run` does that a scene cannot need (shapes, joints, particles,
//! body-frame normals, impacts, the quadratic opposite-normals pass above
//! 2000 contacts) is not repeated here; the world echo of each contact
//! (`Checks::world`, printed with the model definition, which a scene has
//! not) is left empty.
//!
//! [`run`]: super::run

use super::{Checks, dynamics, normals, plausible};
use crate::case::Case;
use crate::case::scene::{SceneData, WORLD};
use crate::model::Inertia;
use nalgebra::Vector3;

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

/// The checks before the analysis (all but the springs'), on the scene's
/// columns, and each body's size (for [`scene_after`]). The scene's
/// positions, inertias, points and normals must be there.
pub fn scene_before(case: &Case, s: &SceneData) -> (Checks, Vec<f64>) {
    let d = case.space.dim();
    let (nb, c) = (s.n_bodies(), s.n_contacts());
    let mut out = Checks::default();
    let position = |b: usize| &s.position[d * b..d * b + d];
    // The farthest contact point from each body's centre of mass.
    let mut far = vec![0.0f64; nb];
    let mut far_contact = vec![usize::MAX; nb];
    let mut count = vec![0usize; nb];
    for ci in 0..c {
        for (b, p, _) in sides(s, d, ci) {
            count[b] += 1;
            let r = super::dist(&p[..d], position(b));
            if r > far[b] {
                far[b] = r;
                far_contact[b] = ci;
            }
        }
    }
    // Each body's principal moments (3 in 3-d, 1 in the plane; fixed
    // bodies' left 0).
    let w = if d == 3 { 3 } else { 1 };
    let mut moments = vec![0.0f64; w * nb];
    let moving = |b: usize| !s.fixed[b];
    for b in (0..nb).filter(|&b| moving(b)) {
        let (name, location) = (s.body_name(b), super::scene_row(case, "bodies", b));
        let m = super::principal(&inertia_of(s, d, b));
        if m.len() == 3 {
            super::triangle(&name, &location, &m, &mut out);
        }
        let rho = super::radius_of_gyration(s.mass[b], &m);
        if far_contact[b] != usize::MAX && rho.is_finite() {
            super::gyration(
                case,
                m.len() == 1,
                &name,
                &location,
                rho,
                far[b],
                far_contact[b],
                count[b] >= 2,
                &mut out,
            );
        }
        moments[w * b..w * b + w].copy_from_slice(&m);
    }
    for b in (0..nb).filter(|&b| moving(b)) {
        let m = &moments[w * b..w * b + w];
        plausible::density_of(case, b, &s.body_name(b), s.mass[b], m, None, &mut out);
    }
    for ci in 0..c {
        let b = s.body[ci] as usize;
        if !moving(b) {
            continue;
        }
        let r: Vec<f64> = (0..d)
            .map(|k| s.point[d * ci + k] - position(b)[k])
            .collect();
        let normal = &s.normal[d * ci..d * ci + d];
        let inertia = inertia_of(s, d, b);
        plausible::lever_of(
            case,
            ci,
            &s.body_name(b),
            s.mass[b],
            &inertia,
            &r,
            normal,
            &mut out,
        );
    }
    plausible::person(case, &mut out);
    plausible::person_region(case, &mut out);
    let v3 = |v: &[f64]| Vector3::new(v[0], v[1], if d == 3 { v[2] } else { 0.0 });
    for ci in 0..c {
        let nw = v3(&s.normal[d * ci..d * ci + d]);
        for (b, p, sign) in sides(s, d, ci) {
            if moving(b) {
                let name = s.body_name(b);
                normals::away_from_centre(
                    case,
                    ci,
                    &name,
                    v3(position(b)),
                    v3(&p),
                    sign * nw,
                    &mut out,
                );
            }
        }
    }
    super::scene_model::on_columns(case, s, &mut out);
    // Each body's size: its radius of gyration or its farthest contact.
    let sizes = (0..nb)
        .map(|b| {
            let g = if moving(b) {
                let g = super::radius_of_gyration(s.mass[b], &moments[w * b..w * b + w]);
                if g.is_finite() { g } else { 0.0 }
            } else {
                0.0
            };
            0.0f64.max(g).max(far[b])
        })
        .collect();
    (out, sizes)
}

/// The checks after the analysis: the springs' rule over the scene's
/// columns (stiffness, damping, bodies, masses; the positions may be
/// freed) with `an`'s effective masses, then the rest of [`run`](super::run).
pub fn scene_after(
    case: &Case,
    scene: &SceneData,
    an: &crate::analysis::Analysis,
    sizes: &[f64],
    out: &mut Checks,
) {
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
        case,
        (scene.n_contacts(), contact),
        (scene.fixed.len(), body, |b| scene.body_name(b)),
        |ci| an.contact(ci).m_eff,
        sizes,
        out,
    );
    super::run::after_springs(case, &[], out);
}
