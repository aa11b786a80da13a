//! Mass properties of MJCF bodies: `<inertial>`, inertia from primitive
//! geoms (MuJoCo's `mjCGeom::GetVolume`/`SetInertia` and
//! `mjCBody::InertiaFromGeom`) and the compiler's bounds.

use super::{EPS, El, Fail, Frame, MassProps, Mjcf, z_to};
use crate::kinematics::inertia::semi_definite;
use crate::kinematics::shape::Shape;
use crate::robot::xml::{attr_span, numbers};
use nalgebra::{Matrix3, UnitQuaternion, Vector3};

impl<'a, 'i> Mjcf<'a, 'i> {
    pub(super) fn inertial(&self, el: El<'a, 'i>) -> Result<MassProps, Fail> {
        let pos = self
            .nums::<3>(el, "", "pos")?
            .ok_or_else(|| el.err(None, "`<inertial>` needs `pos`"))?;
        let mass = self
            .num(el, "", "mass")?
            .ok_or_else(|| el.err(None, "`<inertial>` needs `mass`"))?;
        // Refused before `boundmass`/`boundinertia` could lift them to 0
        // (MuJoCo's compiler refuses them too).
        if mass < 0.0 {
            return Err(el.err(Some("mass"), "a mass cannot be negative"));
        }
        let diag = self.nums::<3>(el, "", "diaginertia")?;
        if diag.is_some_and(|d| d.iter().any(|&x| x < 0.0)) {
            return Err(el.err(
                Some("diaginertia"),
                "principal moments of inertia cannot be negative",
            ));
        }
        let full = self.nums::<6>(el, "", "fullinertia")?;
        let inertia = match (diag, full) {
            (Some(d), None) => {
                let r = self.orientation(el, "")?.to_rotation_matrix().into_inner();
                r * Matrix3::from_diagonal(&Vector3::from(d)) * r.transpose()
            }
            (None, Some(f)) => {
                if ["quat", "axisangle", "euler", "xyaxes", "zaxis"]
                    .iter()
                    .any(|a| el.node.attribute(*a).is_some())
                {
                    return Err(el.err(
                        Some("fullinertia"),
                        "`fullinertia` cannot be combined with an orientation",
                    ));
                }
                Matrix3::new(f[0], f[3], f[4], f[3], f[1], f[5], f[4], f[5], f[2])
            }
            (Some(_), Some(_)) => {
                return Err(el.err(
                    Some("fullinertia"),
                    "give `diaginertia` or `fullinertia`, not both",
                ));
            }
            (None, None) => {
                return Err(el.err(None, "`<inertial>` needs `diaginertia` or `fullinertia`"));
            }
        };
        Ok(MassProps {
            mass,
            com: Vector3::from(pos),
            inertia,
        })
    }

    /// Mass properties from the body's geoms (those in the inertia group
    /// range, heavier than MuJoCo's ε).
    pub(super) fn geom_inertia(
        &self,
        geoms: &[(El<'a, 'i>, Frame, &'a str)],
    ) -> Result<MassProps, Fail> {
        let mut parts = Vec::new();
        for &(el, f, class) in geoms {
            let group = self.num(el, class, "group")?.unwrap_or(0.0) as i64;
            let [lo, hi] = self.compiler.group_range;
            if group < lo || group > hi {
                continue;
            }
            if let Some(p) = self.geom(el, class)?
                && p.0 > EPS
            {
                parts.push((p.0, f.then(&p.1), p.2));
            }
        }
        let mass: f64 = parts.iter().map(|p| p.0).sum();
        if parts.is_empty() {
            return Ok(MassProps {
                mass: 0.0,
                com: Vector3::zeros(),
                inertia: Matrix3::zeros(),
            });
        }
        let com = parts.iter().map(|p| p.0 * p.1.pos).sum::<Vector3<f64>>() / mass;
        let mut total = Matrix3::zeros();
        for (m, f, diag) in &parts {
            let r = f.quat.to_rotation_matrix().into_inner();
            let d = f.pos - com;
            total += r * Matrix3::from_diagonal(diag) * r.transpose()
                + *m * (Matrix3::identity() * d.dot(&d) - d * d.transpose());
        }
        Ok(MassProps {
            mass,
            com,
            inertia: total,
        })
    }

    /// A geom's mass, frame (in its container) and principal inertia, or
    /// `None` for a geom without volume (plane).
    fn geom(
        &self,
        el: El<'a, 'i>,
        class: &str,
    ) -> Result<Option<(f64, Frame, Vector3<f64>)>, Fail> {
        let ty = self
            .attr(el, class, "type")
            .map(|(v, _)| v.trim())
            .unwrap_or("sphere");
        let shape = match ty {
            "plane" => return Ok(None),
            // A weightless mesh (a visual with mass 0 or density 0) needs
            // no mesh data.
            "mesh" | "sdf" | "hfield"
                if self.num(el, class, "mass")? == Some(0.0)
                    || (self.num(el, class, "mass")?.is_none()
                        && self.num(el, class, "density")? == Some(0.0)) =>
            {
                return Ok(None);
            }
            "mesh" | "sdf" | "hfield" => {
                return Err(el.err(
                    Some("type"),
                    format!(
                        "the inertia of a {ty} geom needs its {ty} data, which meff does not read; give the body an `<inertial>`"
                    ),
                ));
            }
            // MJCF has no rod.
            other => match Shape::parse(other) {
                Some(Shape::Rod) | None => {
                    return Err(el.err(Some("type"), format!("unknown geom type `{other}`")));
                }
                Some(s) => s,
            },
        };
        if self
            .attr(el, class, "shellinertia")
            .is_some_and(|(v, _)| v.trim() == "true")
        {
            return Err(el.err(Some("shellinertia"), "shell inertia is not supported"));
        }
        let size_text = self.attr(el, class, "size");
        let mut size = [0.0; 3];
        if let Some((t, at)) = size_text {
            let v = numbers(t, attr_span(at.node, "size"), "size").map_err(|p| (at.file, p))?;
            if v.len() > 3 {
                return Err(at.err(Some("size"), "`size` has at most 3 numbers"));
            }
            size[..v.len()].copy_from_slice(&v);
        }
        let fromto = self.nums::<6>(el, class, "fromto")?;
        let frame = match fromto {
            Some(ft) => {
                if shape == Shape::Sphere {
                    return Err(el.err(
                        Some("fromto"),
                        "`fromto` needs a capsule, cylinder, box or ellipsoid",
                    ));
                }
                let v = Vector3::new(ft[0] - ft[3], ft[1] - ft[4], ft[2] - ft[5]);
                size[1] = v.norm() / 2.0;
                if size[1] < EPS {
                    return Err(el.err(Some("fromto"), "the `fromto` points are too close"));
                }
                if matches!(shape, Shape::Ellipsoid | Shape::Box) {
                    size[2] = size[1];
                    size[1] = size[0];
                }
                Frame {
                    pos: Vector3::new(ft[0] + ft[3], ft[1] + ft[4], ft[2] + ft[5]) / 2.0,
                    quat: z_to(v).unwrap_or_else(UnitQuaternion::identity),
                }
            }
            None => self.frame(el, class)?,
        };
        let needed = shape.sizes(false).unwrap_or(3);
        if size[..needed].iter().any(|&s| s <= 0.0) {
            return Err(el.err(
                Some("size"),
                format!("a {ty} geom needs {needed} positive sizes"),
            ));
        }
        let volume = shape.mujoco_volume(size);
        let mass = match self.num(el, class, "mass")? {
            Some(m) => m,
            None => self.num(el, class, "density")?.unwrap_or(1000.0) * volume,
        };
        if mass < 0.0 {
            return Err(el.err(Some("mass"), "a geom's mass cannot be negative"));
        }
        let diag = Vector3::from(shape.mujoco_moments(mass, size));
        Ok(Some((mass, frame, diag)))
    }

    /// `boundmass`, `boundinertia` and `balanceinertia` of `<compiler>`, and
    /// MuJoCo's check of the triangle inequality on principal moments.
    pub(super) fn bounded(&self, el: El<'a, 'i>, mut p: MassProps) -> Result<MassProps, Fail> {
        let c = &self.compiler;
        if p.mass < 0.0 {
            return Err(el.err(None, "the body's mass is negative"));
        }
        p.mass = p.mass.max(c.boundmass);
        let Some(eig) = crate::linalg::eig::symmetric(p.inertia) else {
            return Err(el.err(None, "the body's inertia has no principal moments (not finite, or its eigenvalues did not converge)"));
        };
        if !semi_definite(eig.eigenvalues.as_slice()) {
            return Err(el.err(None, "the body's inertia is not positive semi-definite"));
        }
        let mut d = eig.eigenvalues;
        let mut changed = false;
        for x in d.iter_mut() {
            if *x < c.boundinertia {
                *x = c.boundinertia;
                changed = true;
            }
        }
        if !semi_definite(d.as_slice()) {
            return Err(el.err(None, "the body's inertia is not positive semi-definite"));
        }
        let (a, b, cc) = (d[0], d[1], d[2]);
        let tol = 1e-12 * (a + b + cc).abs();
        if a + b < cc - tol || a + cc < b - tol || b + cc < a - tol {
            if c.balanceinertia {
                d = Vector3::repeat((a + b + cc) / 3.0);
                changed = true;
            } else {
                return Err(el.err(
                    None,
                    "the body's principal moments of inertia violate A + B ≥ C",
                ));
            }
        }
        if changed {
            p.inertia =
                eig.eigenvectors * Matrix3::from_diagonal(&d) * eig.eigenvectors.transpose();
        }
        Ok(p)
    }
}
