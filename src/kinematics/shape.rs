//! The primitive shapes a body's inertia can come from, and their one
//! table: names, sizes, the sphere that holds each, and the principal
//! moments of inertia — as the text a case's report shows (full sizes, the
//! case format's order) and as MuJoCo computes them for a geom (half sizes,
//! `mjCGeom::GetVolume`/`SetInertia`). Both forms sit side by side here so
//! that a new shape is one variant and the compiler lists every arm to
//! fill; a test checks that the two forms agree.

use std::f64::consts::PI;

/// A primitive shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Sides (a, b, c); planar: (a, b).
    Box,
    /// Radius.
    Sphere,
    /// Radius and length, along body z.
    Cylinder,
    /// Radius and length of the cylinder between the two hemispheres,
    /// along body z.
    Capsule,
    /// Semi-axes (a, b, c); planar: (a, b).
    Ellipsoid,
    /// A thin rod's length, along body x (planar only: it has no inertia
    /// about its own axis).
    Rod,
}

impl Shape {
    /// Every shape, in the order error messages list them.
    pub const ALL: [Shape; 6] = [
        Shape::Box,
        Shape::Sphere,
        Shape::Cylinder,
        Shape::Capsule,
        Shape::Ellipsoid,
        Shape::Rod,
    ];

    /// The name a case (and MJCF, for the shapes it has) writes.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Box => "box",
            Shape::Sphere => "sphere",
            Shape::Cylinder => "cylinder",
            Shape::Capsule => "capsule",
            Shape::Ellipsoid => "ellipsoid",
            Shape::Rod => "rod",
        }
    }

    /// The shape named `name`.
    pub fn parse(name: &str) -> Option<Shape> {
        Shape::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The names joined: `box, sphere, …, ellipsoid{last}rod`.
    pub fn names(sep: &str, last: &str) -> String {
        let mut out = String::new();
        for (i, s) in Shape::ALL.iter().enumerate() {
            if i > 0 {
                out.push_str(if i + 1 == Shape::ALL.len() { last } else { sep });
            }
            out.push_str(s.name());
        }
        out
    }

    /// How many sizes a case gives (planar: in the x–y plane); `None`: the
    /// shape cannot be a body of that space.
    pub fn sizes(self, planar: bool) -> Option<usize> {
        match (self, planar) {
            (Shape::Box | Shape::Ellipsoid, false) => Some(3),
            (Shape::Box | Shape::Ellipsoid, true) => Some(2),
            (Shape::Sphere, _) => Some(1),
            (Shape::Cylinder | Shape::Capsule, _) => Some(2),
            (Shape::Rod, true) => Some(1),
            (Shape::Rod, false) => None,
        }
    }

    /// The radius of the sphere about the centre that holds the shape of
    /// sizes `size` (as a case gives them); `None` for sizes the shape
    /// does not take.
    pub fn circumradius(self, size: &[f64]) -> Option<f64> {
        // One arm per shape (a new shape is a compile error here); sizes
        // the shape does not take give `None`.
        match self {
            Shape::Box => match size {
                [a, b, c] => Some(0.5 * (a * a + b * b + c * c).sqrt()),
                [a, b] => Some(0.5 * a.hypot(*b)),
                _ => None,
            },
            Shape::Sphere => match size {
                [r] => Some(*r),
                _ => None,
            },
            Shape::Cylinder => match size {
                [r, l] => Some(r.hypot(0.5 * l)),
                _ => None,
            },
            Shape::Capsule => match size {
                [r, l] => Some(r + 0.5 * l),
                _ => None,
            },
            Shape::Ellipsoid => Some(size.iter().fold(0.0f64, |m, x| m.max(*x))),
            Shape::Rod => match size {
                [l] => Some(0.5 * l),
                _ => None,
            },
        }
    }

    /// The support function `max x·u` over the shape of sizes `size`
    /// centred at the origin in its own axes (`u` in those axes; planar
    /// shapes ignore `u[2]`: a disc for a sphere, cylinder or capsule seen
    /// along its axis); `None` for sizes the shape does not take.
    pub fn support(self, size: &[f64], u: [f64; 3]) -> Option<f64> {
        let len = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
        Some(match (self, size) {
            (Shape::Box, [a, b, c]) => 0.5 * (a * u[0].abs() + b * u[1].abs() + c * u[2].abs()),
            (Shape::Box, [a, b]) => 0.5 * (a * u[0].abs() + b * u[1].abs()),
            (Shape::Sphere, [r]) => r * len(&u),
            (Shape::Cylinder | Shape::Capsule, [r, _]) if u[2] == 0.0 => r * len(&u[..2]),
            (Shape::Cylinder, [r, l]) => r * len(&u[..2]) + 0.5 * l * u[2].abs(),
            (Shape::Capsule, [r, l]) => r * len(&u) + 0.5 * l * u[2].abs(),
            (Shape::Ellipsoid, [a, b, c]) => len(&[a * u[0], b * u[1], c * u[2]]),
            (Shape::Ellipsoid, [a, b]) => len(&[a * u[0], b * u[1]]),
            (Shape::Rod, [l]) => 0.5 * l * u[0].abs(),
            _ => return None,
        })
    }

    /// How deep a point `p` (the shape's axes, from its centre) lies
    /// inside the shape: its distance to the surface inside, negative
    /// outside (a lower bound on the distance there; the ellipsoid's is
    /// scaled by its smallest semi-axis). `planar` reads a sphere,
    /// cylinder or capsule as the disc seen along its axis.
    pub fn depth(self, size: &[f64], p: [f64; 3], planar: bool) -> Option<f64> {
        let len = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
        let dims = if planar { 2 } else { 3 };
        Some(match (self, size) {
            (Shape::Box, s) if s.len() == dims => (0..dims)
                .map(|i| 0.5 * s[i] - p[i].abs())
                .fold(f64::INFINITY, f64::min),
            (Shape::Sphere, [r]) => r - len(&p[..dims]),
            (Shape::Cylinder | Shape::Capsule, [r, _]) if planar => r - len(&p[..2]),
            (Shape::Cylinder, [r, l]) => (r - len(&p[..2])).min(0.5 * l - p[2].abs()),
            (Shape::Capsule, [r, l]) => {
                let z = p[2].clamp(-0.5 * l, 0.5 * l);
                r - len(&[p[0], p[1], p[2] - z])
            }
            (Shape::Ellipsoid, s) if s.len() == dims => {
                let scaled = len(&(0..dims).map(|i| p[i] / s[i]).collect::<Vec<_>>());
                (1.0 - scaled) * s.iter().fold(f64::INFINITY, |m, x| m.min(*x))
            }
            (Shape::Rod, [l]) => -(p[1].abs().max(p[0].abs() - 0.5 * l).max(0.0)),
            _ => return None,
        })
    }

    /// The volume (m³) of the 3-d shape of sizes `size` (as a case gives
    /// them); `None` for a planar shape or a rod (no volume).
    pub fn volume(self, size: &[f64]) -> Option<f64> {
        use std::f64::consts::PI;
        match (self, size) {
            (Shape::Box, [a, b, c]) => Some(a * b * c),
            (Shape::Sphere, [r]) => Some(4.0 / 3.0 * PI * r.powi(3)),
            (Shape::Cylinder, [r, l]) => Some(PI * r * r * l),
            (Shape::Capsule, [r, l]) => Some(PI * r * r * l + 4.0 / 3.0 * PI * r.powi(3)),
            (Shape::Ellipsoid, [a, b, c]) => Some(4.0 / 3.0 * PI * a * b * c),
            (
                Shape::Box | Shape::Sphere | Shape::Cylinder | Shape::Capsule | Shape::Ellipsoid,
                _,
            )
            | (Shape::Rod, _) => None,
        }
    }

    /// The principal moments (Ixx, Iyy, Izz) as formula text, from the
    /// mass `m` and the sizes `d` as texts (each already a single term,
    /// parenthesised); planar: Izz alone, the others empty. `d` holds
    /// [`Shape::sizes`] entries; `None` where the shape has no moments
    /// in that space (a 3-d rod).
    pub fn moments_text(self, m: &str, d: &[String], planar: bool) -> Option<[String; 3]> {
        let flat = |z: String| [String::new(), String::new(), z];
        Some(match self {
            Shape::Box if planar => flat(format!("{m}*({a}^2 + {b}^2)/12", a = d[0], b = d[1])),
            Shape::Box => {
                let (a, b, c) = (&d[0], &d[1], &d[2]);
                [
                    format!("{m}*({b}^2 + {c}^2)/12"),
                    format!("{m}*({a}^2 + {c}^2)/12"),
                    format!("{m}*({a}^2 + {b}^2)/12"),
                ]
            }
            Shape::Sphere => {
                let i = format!("2*{m}*{r}^2/5", r = d[0]);
                [i.clone(), i.clone(), i]
            }
            Shape::Cylinder => {
                let (r, h) = (&d[0], &d[1]);
                let x = format!("{m}*(3*{r}^2 + {h}^2)/12");
                [x.clone(), x, format!("{m}*{r}^2/2")]
            }
            Shape::Capsule => {
                // Mass shared between the cylinder (length h) and the two
                // hemispheres by volume, as MuJoCo does.
                let (r, h) = (&d[0], &d[1]);
                let mc = format!("({m}*{h}/({h} + 4*{r}/3))");
                let ms = format!("({m}*(4*{r}/3)/({h} + 4*{r}/3))");
                let x =
                    format!("{mc}*(3*{r}^2 + {h}^2)/12 + {ms}*(2*{r}^2/5 + {h}^2/4 + 3*{h}*{r}/8)");
                [x.clone(), x, format!("{mc}*{r}^2/2 + 2*{ms}*{r}^2/5")]
            }
            Shape::Ellipsoid if planar => {
                flat(format!("{m}*({a}^2 + {b}^2)/5", a = d[0], b = d[1]))
            }
            Shape::Ellipsoid => {
                let (a, b, c) = (&d[0], &d[1], &d[2]);
                [
                    format!("{m}*({b}^2 + {c}^2)/5"),
                    format!("{m}*({a}^2 + {c}^2)/5"),
                    format!("{m}*({a}^2 + {b}^2)/5"),
                ]
            }
            Shape::Rod if planar => flat(format!("{m}*{l}^2/12", l = d[0])),
            Shape::Rod => return None,
        })
    }

    /// MuJoCo's volume of a geom of half sizes `s` (radius and half
    /// length for cylinders and capsules).
    pub fn mujoco_volume(self, s: [f64; 3]) -> f64 {
        let (r, h) = (s[0], 2.0 * s[1]);
        match self {
            Shape::Sphere => 4.0 * PI * r * r * r / 3.0,
            Shape::Capsule => PI * (r * r * h + 4.0 * r * r * r / 3.0),
            Shape::Cylinder => PI * r * r * h,
            Shape::Ellipsoid => 4.0 * PI * s[0] * s[1] * s[2] / 3.0,
            Shape::Box => 8.0 * s[0] * s[1] * s[2],
            // A line has no volume.
            Shape::Rod => 0.0,
        }
    }

    /// MuJoCo's principal moments of a geom of mass `mass` and half sizes
    /// `s` (the rod: half length `s[0]` along x).
    pub fn mujoco_moments(self, mass: f64, s: [f64; 3]) -> [f64; 3] {
        let (r, h) = (s[0], 2.0 * s[1]);
        let (s0, s1, s2) = (s[0] * s[0], s[1] * s[1], s[2] * s[2]);
        match self {
            Shape::Sphere => [2.0 * mass * r * r / 5.0; 3],
            Shape::Capsule => {
                // A cylinder and two hemispheres (volume-weighted masses),
                // the hemispheres displaced along the axis.
                let ms = mass * 4.0 * r / (4.0 * r + 3.0 * h);
                let mc = mass - ms;
                let side = mc * (3.0 * r * r + h * h) / 12.0
                    + 2.0 * ms * r * r / 5.0
                    + ms * h * (3.0 * r + 2.0 * h) / 8.0;
                [side, side, mc * r * r / 2.0 + 2.0 * ms * r * r / 5.0]
            }
            Shape::Cylinder => {
                let side = mass * (3.0 * r * r + h * h) / 12.0;
                [side, side, mass * r * r / 2.0]
            }
            Shape::Ellipsoid => [
                mass * (s1 + s2) / 5.0,
                mass * (s0 + s2) / 5.0,
                mass * (s0 + s1) / 5.0,
            ],
            Shape::Box => [
                mass * (s1 + s2) / 3.0,
                mass * (s0 + s2) / 3.0,
                mass * (s0 + s1) / 3.0,
            ],
            Shape::Rod => [0.0, mass * s0 / 3.0, mass * s0 / 3.0],
        }
    }
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::Shape;

    #[test]
    fn names_parse_back() {
        for s in Shape::ALL {
            assert_eq!(Shape::parse(s.name()), Some(s));
        }
        assert_eq!(Shape::parse("cube"), None);
        assert_eq!(
            Shape::names(", ", " or "),
            "box, sphere, cylinder, capsule, ellipsoid or rod"
        );
    }

    /// The text a report shows and MuJoCo's numbers are one table: each
    /// shape's text formula, evaluated, gives MuJoCo's moments (full
    /// sizes in the text, half sizes for MuJoCo).
    #[test]
    fn text_and_mujoco_moments_agree() {
        let mass = 1.7;
        let full = [0.3, 0.5, 0.7];
        for s in Shape::ALL {
            for planar in [false, true] {
                let Some(n) = s.sizes(planar) else {
                    assert!(s.moments_text("(1)", &[], planar).is_none());
                    continue;
                };
                let d: Vec<String> = full[..n].iter().map(|x| format!("({x})")).collect();
                let text = s.moments_text(&format!("({mass})"), &d, planar).unwrap();
                // MuJoCo's half sizes: radii stay, lengths and sides halve;
                // a planar shape's third side does not enter Izz.
                let half = match s {
                    Shape::Sphere | Shape::Cylinder | Shape::Capsule => {
                        [full[0], full[1] / 2.0, 0.0]
                    }
                    Shape::Ellipsoid => full,
                    Shape::Box | Shape::Rod => full.map(|x| x / 2.0),
                };
                let num = s.mujoco_moments(mass, half);
                for (axis, t) in text.iter().enumerate() {
                    // A planar body keeps Izz alone.
                    if planar && axis < 2 {
                        continue;
                    }
                    let e = crate::expr::parse(t).unwrap();
                    let v = crate::expr::eval(&e, &|_| None).unwrap().si;
                    let want = num[axis];
                    assert!(
                        (v - want).abs() <= 1e-12 * want.abs(),
                        "{s} planar={planar} axis {axis}: text {t} = {v}, MuJoCo {want}"
                    );
                }
            }
        }
    }
}
