//! Robot models read from MJCF (MuJoCo) and URDF files.
//!
//! Input: the path of a model file. Output: a [`Robot`]: an engine-neutral
//! [`Tree`](crate::kinematics::Tree), the model's keyframes and its
//! equality/mimic constraints, or a [`SourceError`] at the file, line and
//! column of the first problem. Elements that do not affect the mass model
//! (visuals, collision filters, actuators, sensors, assets) are skipped;
//! anything that affects it and is not supported is an error at its place.
//! Mesh files are never opened: a body whose inertia would have to come
//! from a mesh is an error asking for an `<inertial>`.

pub mod mjcf;
pub mod probe;
pub mod urdf;
mod xml;

pub use xml::MAX_MAGNITUDE;

use crate::diag::SourceError;
use crate::kinematics::{Kinematics, Tree};
use nalgebra::Vector3;

/// The most bodies (links) a model may have.
pub const MAX_BODIES: usize = 10_000;

/// The most generalized velocities a model may have: its mass matrix is
/// dense (CRBA) and factored, so its cost grows as nv² in memory and nv³
/// in time (1,000 free bodies, 6,000 velocities, took 3 minutes and
/// 2.2 GB). Robots have tens; many free bodies are a `[scene]`.
pub const MAX_VELOCITIES: usize = 600;

/// A model within [`MAX_VELOCITIES`], or the error that says why not.
fn sized(robot: Robot, shown: &str) -> Result<Robot, SourceError> {
    if robot.tree.nv > MAX_VELOCITIES {
        return Err(SourceError {
            path: shown.to_string(),
            source: String::new(),
            diagnostics: vec![
                crate::diag::Diagnostic::new(
                    0..0,
                    format!(
                        "the model has {} generalized velocities: meff evaluates models of at most {MAX_VELOCITIES} (their mass matrix is dense)",
                        robot.tree.nv
                    ),
                )
                .hint("many free bodies are a `[scene]` (docs/case-format.md), whose path is sparse"),
            ],
        });
    }
    Ok(robot)
}

/// Which format a model came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// MuJoCo's MJCF.
    Mjcf,
    /// URDF.
    Urdf,
}

impl Format {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Format::Mjcf => "MJCF",
            Format::Urdf => "URDF",
        }
    }
}

/// A constraint between the model's velocities (MJCF `<equality>`, URDF
/// `mimic`): rows that must vanish.
#[derive(Clone, Debug)]
pub enum Constraint {
    /// Two bodies share a point (`connect`; `anchor` in `body1`'s frame).
    Connect {
        /// Name for reports.
        name: String,
        /// First body.
        body1: usize,
        /// Second body, `None` for the world.
        body2: Option<usize>,
        /// Anchor in `body1`'s frame.
        anchor: Vector3<f64>,
        /// The same point in `body2`'s frame (or the world) at the
        /// reference configuration, as MuJoCo fixes it at compile time.
        anchor2: Vector3<f64>,
    },
    /// Two bodies move as one (`weld`): a point fixed in each must keep
    /// together (MuJoCo's anchor on body2 and its place in body1's frame at
    /// the reference configuration, or `relpose`), and, unless
    /// `torquescale` is 0, their orientations too.
    Weld {
        /// Name for reports.
        name: String,
        /// First body.
        body1: usize,
        /// Second body, `None` for the world.
        body2: Option<usize>,
        /// The point in `body1`'s frame.
        anchor1: Vector3<f64>,
        /// The point in `body2`'s frame (or the world).
        anchor2: Vector3<f64>,
        /// Whether the relative rotation is constrained.
        rotation: bool,
    },
    /// `q1 − q1_ref = Σ c_k (q2 − q2_ref)^k` (MJCF joint equality, URDF
    /// mimic with `c = [offset, multiplier]` and no references), or `q1`
    /// fixed when `joint2` is `None`.
    Joint {
        /// Name for reports.
        name: String,
        /// Constrained joint (index into the tree's joints).
        joint1: usize,
        /// Driving joint.
        joint2: Option<usize>,
        /// Polynomial coefficients (at most 5).
        coef: Vec<f64>,
    },
}

/// A model read from a file.
#[derive(Clone, Debug)]
pub struct Robot {
    /// Format of the file.
    pub format: Format,
    /// The file's path as given.
    pub path: String,
    /// Model name (MJCF `model`, URDF `name`).
    pub name: String,
    /// The kinematic tree.
    pub tree: Tree,
    /// Keyframes: name and configuration (MJCF `<key>`).
    pub keyframes: Vec<(String, Vec<f64>)>,
    /// Active constraints.
    pub constraints: Vec<Constraint>,
    /// What the reader left out and why (shown in the report).
    pub notes: Vec<String>,
    /// SHA-256 of the model file's bytes (lower-case hex; the main file,
    /// not its includes).
    pub sha256: String,
    /// Planes fixed to the world (MJCF `<geom type="plane">` of the world
    /// body): the model checks compare world contacts' normals with them.
    pub planes: Vec<Plane>,
}

/// A plane of the model's world (a floor, a wall).
#[derive(Clone, Debug, PartialEq)]
pub struct Plane {
    /// The geom's name (`plane 1`… when unnamed).
    pub name: String,
    /// A point on it (world, m).
    pub point: Vector3<f64>,
    /// Its unit normal (world; the side a body stands on).
    pub normal: Vector3<f64>,
}

/// A name for an element its file leaves unnamed: `base`, or else `base_2`,
/// `base_3`… the first that `taken` does not hold. The one generator for
/// MJCF bodies and joints and for MuJoCo models read through Python.
pub fn unique_name(base: String, taken: impl Fn(&str) -> bool) -> String {
    if !taken(&base) {
        return base;
    }
    (2usize..)
        .map(|k| format!("{base}_{k}"))
        .find(|n| !taken(n))
        .expect("a finite set leaves a name free")
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Robot {
    /// Reads a model file: MJCF when the root element is `<mujoco>`, URDF
    /// when it is `<robot>`. At most `max_bytes` are read from each file;
    /// an MJCF's `<include>`s only inside `confine` (when given). A file
    /// that does not begin with either element is refused without quoting
    /// any of it (the error has no source text).
    pub fn read(
        path: &std::path::Path,
        shown: &str,
        max_bytes: u64,
        confine: Option<&crate::confine::Confine>,
    ) -> Result<Robot, SourceError> {
        let mut text = xml::read_text(path, shown, max_bytes)?;
        let sha256 = sha256_hex(text.as_bytes());
        if !matches!(xml::first_element(&text), Some("mujoco" | "robot")) {
            return Err(SourceError {
                path: shown.to_string(),
                source: String::new(),
                diagnostics: vec![crate::diag::Diagnostic::new(
                    0..0,
                    "not an MJCF or URDF model: the file does not begin with a `<mujoco>` or `<robot>` element",
                )],
            });
        }
        xml::tolerate(&mut text);
        let root = xml::root_name(&text);
        let mut robot = if root.as_deref() == Some("robot") {
            urdf::parse(shown, text)
        } else {
            mjcf::read(path, shown, text, max_bytes, confine)
        }?;
        if robot.name.is_empty() {
            robot.name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
        }
        robot.sha256 = sha256;
        sized(robot, shown)
    }

    /// Parses model text in memory (no file is read: an MJCF `<include>`
    /// is an error). For fuzzing and tests.
    pub fn parse(shown: &str, text: &str) -> Result<Robot, SourceError> {
        let sha256 = sha256_hex(text.as_bytes());
        let mut text = text.to_string();
        xml::tolerate(&mut text);
        let robot = if xml::root_name(&text).as_deref() == Some("robot") {
            urdf::parse(shown, text)
        } else {
            mjcf::read(std::path::Path::new(""), shown, text, 0, None)
        }?;
        let mut robot = robot;
        robot.sha256 = sha256;
        sized(robot, shown)
    }

    /// Constraint rows at a configuration (one per constrained velocity
    /// combination), `nv` entries each.
    pub fn constraint_rows(&self, kin: &Kinematics, q: &[f64]) -> Vec<Vec<f64>> {
        let tree = &self.tree;
        let mut rows = Vec::new();
        for c in &self.constraints {
            match c {
                Constraint::Connect {
                    body1,
                    body2,
                    anchor: anchor1,
                    anchor2,
                    ..
                }
                | Constraint::Weld {
                    body1,
                    body2,
                    anchor1,
                    anchor2,
                    ..
                } => {
                    // The rate of the point on body1 minus that of its
                    // partner point on body2 (the same point when the
                    // constraint holds).
                    let p1 = tree.place(kin, *body1, anchor1);
                    let p2 = match body2 {
                        Some(b2) => tree.place(kin, *b2, anchor2),
                        None => kin.local(anchor2),
                    };
                    for k in 0..3 {
                        let e = Vector3::ith(k, 1.0);
                        let mut row = tree.point_row(kin, *body1, &p1, &e);
                        if let Some(b2) = body2 {
                            for (r, v) in row.iter_mut().zip(tree.point_row(kin, *b2, &p2, &e)) {
                                *r -= v;
                            }
                        }
                        rows.push(row);
                    }
                    // A weld's relative angular velocity (MuJoCo's rows are
                    // these through an invertible quaternion map: the same
                    // span, so the same constrained response).
                    if let Constraint::Weld { rotation: true, .. } = c {
                        for k in 0..3 {
                            let mut row = tree.angular_row(kin, *body1, k);
                            if let Some(b2) = body2 {
                                for (r, v) in row.iter_mut().zip(tree.angular_row(kin, *b2, k)) {
                                    *r -= v;
                                }
                            }
                            rows.push(row);
                        }
                    }
                }
                Constraint::Joint {
                    joint1,
                    joint2,
                    coef,
                    ..
                } => {
                    let mut row = vec![0.0; tree.nv];
                    let j1 = &tree.joints[*joint1];
                    row[j1.dof_adr] = 1.0;
                    if let Some(j2) = joint2 {
                        let j2 = &tree.joints[*j2];
                        let x = q[j2.qpos_adr] - j2.q_ref;
                        // d/dx Σ c_k x^k
                        let mut slope = 0.0;
                        let mut pow = 1.0;
                        for (k, c) in coef.iter().enumerate().skip(1) {
                            slope += k as f64 * c * pow;
                            pow *= x;
                        }
                        row[j2.dof_adr] -= slope;
                    }
                    // A row is a direction: scaled to a largest entry of 1,
                    // so that a steep coupling keeps both entries.
                    let top = row.iter().fold(0.0f64, |m, x| m.max(x.abs()));
                    if top.is_finite() && top > 1.0 {
                        row.iter_mut().for_each(|x| *x /= top);
                    }
                    rows.push(row);
                }
            }
        }
        rows
    }

    /// The configuration of a keyframe, by name.
    pub fn keyframe(&self, name: &str) -> Option<&[f64]> {
        self.keyframes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, q)| q.as_slice())
    }
}

#[cfg(test)]
mod name_tests {
    #[test]
    fn unique_name_takes_the_first_free_suffix() {
        let taken = ["body3", "body3_2", "joint1_3"];
        let free = |b: &str| super::unique_name(b.to_string(), |n| taken.contains(&n));
        assert_eq!(free("body1"), "body1");
        assert_eq!(free("body3"), "body3_3");
        assert_eq!(free("joint1"), "joint1");
    }
}
