//! A `[model]` case's program (issue 40, collaborative robots): `[motion]`
//! (a joint trajectory from a CSV file, or `[[waypoint]]`s with durations
//! and a stated interpolation), the `[[hazard]]` points on links checked
//! along it, and the `[[region]]`s of a person they may strike (the user's
//! table: mass, spring, force and/or energy limit — no region value is in
//! the code). The result is [`Motion`]: samples of `q` and `q̇` in SI,
//! evaluated at the case's parameter values. The physics is
//! `analysis::program`.

use super::read::{Reader, get, header};
use super::scene::trajectory::{self, JointColumn, TableError};
use super::types::RobotForm;
use crate::diag::Diagnostic;
use crate::kinematics::JointKind;
use crate::units::Dim;
use std::ops::Range;
use toml::de::{DeTable, DeValue};

type Node<'i> = toml::Spanned<DeValue<'i>>;

pub(super) const MOTION_KEYS: &[&str] = &[
    "trajectory",
    "angle_unit",
    "interpolation",
    "step",
    "series",
    "description",
];
pub(super) const WAYPOINT_KEYS: &[&str] = &["configuration", "duration", "description"];
pub(super) const HAZARD_KEYS: &[&str] = &["name", "body", "point", "regions", "description"];
pub(super) const REGION_KEYS: &[&str] = &[
    "name",
    "mass",
    "stiffness",
    "force_limit",
    "energy_limit",
    "area",
    "pressure_limit",
    "description",
];

/// The sampling step of waypoints when `[motion] step` is not given (s).
pub const DEFAULT_STEP: f64 = 0.01;

/// How waypoints are joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interpolation {
    /// Straight in joint space at constant speed per segment (the velocity
    /// jumps at a waypoint; the sample at a waypoint takes the velocity of
    /// the segment that starts there, the last one of the segment that
    /// ends there).
    Linear,
    /// `q = q₀ + (q₁ − q₀)(3τ² − 2τ³)`, τ = (t − t₀)/T: at rest at every
    /// waypoint, the peak joint speed 1.5 times the linear one.
    Cubic,
}

impl Interpolation {
    /// The name in the case file and reports.
    pub fn name(self) -> &'static str {
        match self {
            Interpolation::Linear => "linear",
            Interpolation::Cubic => "cubic",
        }
    }
}

/// How much of the per-sample series the report keeps (`[motion] series`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeriesMode {
    /// Every sample up to [`SERIES_POINTS`]; above, one point per bin of
    /// consecutive samples holding the bin's worst value of each series.
    Bounded,
    /// Every sample, however many.
    Full,
}

/// The most points a bounded series holds.
pub const SERIES_POINTS: usize = 2000;

/// Unit of hinge columns in a trajectory file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AngleUnit {
    /// Radians.
    Rad,
    /// Degrees.
    Deg,
}

/// Where the program's joint velocities come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Velocities {
    /// Central differences of the trajectory:
    /// `q̇ᵢ = (qᵢ₊₁ − qᵢ₋₁)/(tᵢ₊₁ − tᵢ₋₁)`, one-sided at the two ends.
    CentralDifference,
    /// The trajectory's `<joint>.v` columns.
    Columns,
    /// The derivative of the waypoints' interpolation.
    Interpolation,
}

impl Velocities {
    /// The name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Velocities::CentralDifference => "central_difference",
            Velocities::Columns => "columns",
            Velocities::Interpolation => "interpolation",
        }
    }
}

/// Where the program comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum Program {
    /// A CSV trajectory, as named in the case.
    Trajectory(String),
    /// Waypoints, interpolated, sampled every `step` seconds (at most).
    Waypoints {
        /// How they are joined.
        interpolation: Interpolation,
        /// The sampling step (s).
        step: f64,
        /// Number of waypoints.
        count: usize,
    },
}

/// A point on a link that may strike a person.
#[derive(Clone, Debug)]
pub struct Hazard {
    /// Name.
    pub name: String,
    /// The model body (link).
    pub body: usize,
    /// The point in the body's frame (m).
    pub point: [f64; 3],
    /// The regions it is checked against (indices into `Motion::regions`).
    pub regions: Vec<usize>,
    /// Description as given.
    pub description: String,
}

/// A body region of a person, the user's values.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Region {
    /// Name.
    pub name: String,
    /// m_H (kg).
    pub mass: f64,
    /// k_H (N/m).
    pub stiffness: f64,
    /// F_max (N), when given.
    pub force_limit: Option<f64>,
    /// E_max (J), when given.
    pub energy_limit: Option<f64>,
    /// Contact area A (m²), when given: the peak pressure is F/A.
    pub area: Option<f64>,
    /// p_max (Pa), when given (with an area): v_max = p_max A/√(μ k_H).
    pub pressure_limit: Option<f64>,
    /// Description as given.
    pub description: String,
}

/// A joint value of a program beyond the model's range (a warning: the
/// model checks list it).
#[derive(Clone, Debug, PartialEq)]
pub struct RangeWarning {
    /// The joint.
    pub joint: String,
    /// Where the value is written: `file:line:col` with the file's name
    /// (not the path it was given by: the same case gives the same sheet
    /// from any directory).
    pub location: String,
    /// Where in the file, in words (`data row 3, column 4 (`elbow`)`), or
    /// empty.
    pub place: String,
    /// The value (SI: rad or m).
    pub value: f64,
    /// The model's range (SI).
    pub range: [f64; 2],
    /// The joint slides (m), else it turns (rad).
    pub slide: bool,
    /// The first of several such samples (later ones not listed).
    pub first_of_many: bool,
}

impl RangeWarning {
    /// `file` (its name only) followed by `rest` (`:3:13`).
    pub fn location_in(file: &str, rest: &str) -> String {
        let name = std::path::Path::new(file)
            .file_name()
            .map_or_else(|| file.to_string(), |n| n.to_string_lossy().into_owned());
        format!("{name}{rest}")
    }

    /// What was found, with units (a hinge's value also in degrees).
    pub fn message(&self) -> String {
        let n =
            |x: f64| crate::number::pretty(&crate::number::sig(x, crate::number::DEFAULT_DIGITS));
        let [lo, hi] = self.range;
        let (value, range) = if self.slide {
            (
                format!("{} m", n(self.value)),
                format!("[{}, {}] m", n(lo), n(hi)),
            )
        } else {
            (
                format!("{} rad ({}°)", n(self.value), n(self.value.to_degrees())),
                format!(
                    "[{}, {}] rad ([{}°, {}°])",
                    n(lo),
                    n(hi),
                    n(lo.to_degrees()),
                    n(hi.to_degrees())
                ),
            )
        };
        format!(
            "{}joint `{}` at {value} is beyond the model's range {range}{}",
            if self.place.is_empty() {
                String::new()
            } else {
                format!("{}: ", self.place)
            },
            self.joint,
            if self.first_of_many {
                " (first such sample; later ones not listed)"
            } else {
                ""
            }
        )
    }
}

impl std::fmt::Display for RangeWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.location, self.message())
    }
}

/// A robot program, sampled: what `analysis::program` checks.
#[derive(Clone, Debug)]
pub struct Motion {
    /// Span of `[motion]`.
    pub span: Range<usize>,
    /// Trajectory file or waypoints.
    pub program: Program,
    /// How the velocities were obtained.
    pub velocities: Velocities,
    /// The joints the program moves (indices into the tree's joints).
    pub joints: Vec<usize>,
    /// Sample times (s), increasing.
    pub time: Vec<f64>,
    /// Configurations, `time.len()` × `nq`, row by row.
    pub q: Vec<f64>,
    /// Velocities, `time.len()` × `nv`, row by row.
    pub qd: Vec<f64>,
    /// Hazard points.
    pub hazards: Vec<Hazard>,
    /// Body regions.
    pub regions: Vec<Region>,
    /// Joint values beyond the model's range, each with its place.
    pub warnings: Vec<RangeWarning>,
    /// How much of the per-sample series the report keeps.
    pub series: SeriesMode,
}

/// Central differences of `x` over `t` (one-sided at the ends).
pub fn central_difference(t: &[f64], x: &[f64]) -> Vec<f64> {
    let n = t.len();
    (0..n)
        .map(|i| {
            let (a, b) = (i.saturating_sub(1), (i + 1).min(n - 1));
            (x[b] - x[a]) / (t[b] - t[a])
        })
        .collect()
}

impl Reader<'_> {
    /// `[motion]`, `[[waypoint]]`, `[[hazard]]`, `[[region]]` of a
    /// `[model]` case (`None` when there is no `[motion]`, or on errors).
    pub(super) fn motion(
        &mut self,
        root: &DeTable,
        form: Option<&RobotForm>,
        path: &str,
    ) -> (Option<Motion>, Option<super::map::WorkspaceMap>) {
        if let (None, Some(n)) = (form, get(root, "payload")) {
            self.error(
                Diagnostic::new(
                    header(&n.span()),
                    "`[[payload]]` is welded to a link of a `[model]`",
                )
                .hint("without a model, write the payload as a `[[body]]` joined to its carrier"),
            );
        }
        let map_node = get(root, "map");
        let Some(node) = get(root, "motion") else {
            if let Some(m) = map_node {
                return (None, self.map_only(root, m, form));
            }
            for key in ["waypoint", "hazard", "region"] {
                if let Some(n) = get(root, key) {
                    self.error(
                        Diagnostic::new(
                            header(&n.span()),
                            format!("`[[{key}]]` belongs to a `[motion]`"),
                        )
                        .hint("add `[motion]` with a `trajectory` file or `[[waypoint]]` tables, or a workspace `[map]`"),
                    );
                }
            }
            return (None, None);
        };
        let Some(r) = form else {
            self.error(
                Diagnostic::new(
                    header(&node.span()),
                    "`[motion]` is a program of a `[model]`",
                )
                .hint("add `[model]` with the robot's MJCF or URDF file"),
            );
            return (None, None);
        };
        let Some(t) = self.table(node, "`[motion]`") else {
            return (None, None);
        };
        self.keys(t, MOTION_KEYS, "`[motion]`");
        let series = match get(t, "series") {
            Some(n) => self.choice(
                n,
                ("series", "series"),
                &[("bounded", SeriesMode::Bounded), ("full", SeriesMode::Full)],
                2,
            ),
            None => Some(SeriesMode::Bounded),
        };
        let Some(series) = series else {
            return (None, None);
        };
        let regions = self.regions(get(root, "region"), &node.span());
        let hazards = self.hazards(get(root, "hazard"), r, &regions, &node.span());
        let base = r.configuration_with(|v| v.si);
        let samples = match (get(t, "trajectory"), get(root, "waypoint")) {
            (Some(f), None) => {
                for key in ["interpolation", "step"] {
                    if let Some(n) = get(t, key) {
                        self.error(
                            Diagnostic::new(n.span(), format!("`{key}` is for `[[waypoint]]`s"))
                                .hint("a trajectory file gives its own samples"),
                        );
                    }
                }
                self.trajectory(t, f, r, &base)
            }
            (None, Some(w)) => {
                if let Some(n) = get(t, "angle_unit") {
                    self.error(Diagnostic::new(
                        n.span(),
                        "`angle_unit` is for a `trajectory` file (waypoint values carry their units)",
                    ));
                }
                self.waypoints(t, w, r, &base, path)
            }
            (Some(f), Some(_)) => {
                self.error(Diagnostic::new(
                    f.span(),
                    "give a `trajectory` file or `[[waypoint]]`s, not both",
                ));
                None
            }
            (None, None) => {
                self.error(
                    Diagnostic::new(header(&node.span()), "`[motion]` has no program")
                        .hint("trajectory = \"program.csv\", or `[[waypoint]]` tables with `configuration` and `duration`"),
                );
                None
            }
        };
        let (Some(samples), Some(hazards), Some(regions)) = (samples, hazards, regions) else {
            return (None, None);
        };
        let map = map_node.and_then(|m| self.map(m, r, hazards.clone(), regions.clone()));
        let (program, velocities, joints, time, q, qd, warnings) = samples;
        let motion = Motion {
            span: node.span(),
            program,
            velocities,
            joints,
            time,
            q,
            qd,
            hazards,
            regions,
            warnings,
            series,
        };
        (Some(motion), map)
    }

    /// A `[map]` without a `[motion]`: its hazards and regions.
    fn map_only(
        &mut self,
        root: &DeTable,
        node: &Node,
        form: Option<&RobotForm>,
    ) -> Option<super::map::WorkspaceMap> {
        if let Some(n) = get(root, "waypoint") {
            self.error(Diagnostic::new(
                header(&n.span()),
                "`[[waypoint]]` belongs to a `[motion]`",
            ));
        }
        let Some(r) = form else {
            self.error(
                Diagnostic::new(header(&node.span()), "`[map]` is a map of a `[model]`")
                    .hint("add `[model]` with the robot's MJCF or URDF file"),
            );
            return None;
        };
        let regions = self.regions(get(root, "region"), &node.span());
        let hazards = self.hazards(get(root, "hazard"), r, &regions, &node.span());
        self.map(node, r, hazards?, regions?)
    }

    fn regions(&mut self, node: Option<&Node>, motion: &Range<usize>) -> Option<Vec<Region>> {
        let mut out = Vec::new();
        let mut ok = true;
        let tables = self.tables(node, "`[[region]]`");
        if tables.is_empty() {
            self.error(
                Diagnostic::new(header(motion), "a `[motion]` needs at least one `[[region]]`")
                    .hint("name, mass, stiffness and force_limit and/or energy_limit: the body region's values (see cases/regions/ for a table to start from)"),
            );
            return None;
        }
        for (t, span) in tables {
            self.keys(t, REGION_KEYS, "`[[region]]`");
            let name = self
                .required(t, "name", "`[[region]]`", &span)
                .and_then(|n| self.string(n, "`name`"));
            if let Some(n) = &name
                && out.iter().any(|r: &Region| r.name == *n)
            {
                self.error(Diagnostic::new(
                    header(&span),
                    format!("a second region named `{n}`"),
                ));
            }
            let mut value =
                |key: &str, dim: Dim, what: &str, required: bool| -> Option<Option<f64>> {
                    match get(t, key) {
                        Some(n) => {
                            let v = self.value(n, dim, what);
                            self.positive(v, what).map(|v| Some(v.si))
                        }
                        None if required => {
                            self.required(t, key, "`[[region]]`", &span);
                            None
                        }
                        None => Some(None),
                    }
                };
            let mass = value("mass", Dim::MASS, "a body region's mass m_H", true);
            let stiffness = value(
                "stiffness",
                Dim::STIFFNESS,
                "a body region's spring constant k_H",
                true,
            );
            let force = value("force_limit", Dim::FORCE, "a force limit", false);
            let energy = value(
                "energy_limit",
                Dim::FORCE.times(Dim::LENGTH),
                "an energy limit",
                false,
            );
            let area = value(
                "area",
                Dim::LENGTH.times(Dim::LENGTH),
                "a contact area",
                false,
            );
            let pressure = value(
                "pressure_limit",
                Dim([1, -1, -2]),
                "a pressure limit",
                false,
            );
            let description = get(t, "description")
                .and_then(|n| self.string(n, "`description`"))
                .unwrap_or_default();
            if let (Some(Some(_)), Some(None)) = (pressure, area)
                && let Some(n) = get(t, "pressure_limit")
            {
                self.error(
                    Diagnostic::new(n.span(), "a pressure limit needs the contact `area`")
                        .hint("area = \"1 cm^2\": the peak pressure is the peak force over it"),
                );
                ok = false;
                continue;
            }
            if let (Some(None), Some(None), Some(None)) = (force, energy, pressure) {
                self.error(
                    Diagnostic::new(header(&span), "a region without a limit").hint(
                        "give force_limit (F_max), energy_limit (E_max) and/or pressure_limit (p_max, with area)",
                    ),
                );
                ok = false;
                continue;
            }
            match (name, mass, stiffness, force, energy, area, pressure) {
                (
                    Some(name),
                    Some(Some(mass)),
                    Some(Some(stiffness)),
                    Some(force_limit),
                    Some(energy_limit),
                    Some(area),
                    Some(pressure_limit),
                ) => out.push(Region {
                    name,
                    mass,
                    stiffness,
                    force_limit,
                    energy_limit,
                    area,
                    pressure_limit,
                    description,
                }),
                _ => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn hazards(
        &mut self,
        node: Option<&Node>,
        r: &RobotForm,
        regions: &Option<Vec<Region>>,
        motion: &Range<usize>,
    ) -> Option<Vec<Hazard>> {
        let tables = self.tables(node, "`[[hazard]]`");
        if tables.is_empty() {
            self.error(
                Diagnostic::new(header(motion), "a `[motion]` needs at least one `[[hazard]]`")
                    .hint("name, body and point: a point on a link that may strike a person (the tool tip, the elbow)"),
            );
            return None;
        }
        let tree = &r.robot.tree;
        let mut out = Vec::new();
        let mut ok = true;
        for (t, span) in tables {
            self.keys(t, HAZARD_KEYS, "`[[hazard]]`");
            let name = self
                .required(t, "name", "`[[hazard]]`", &span)
                .and_then(|n| self.string(n, "`name`"));
            if let Some(n) = &name
                && out.iter().any(|h: &Hazard| h.name == *n)
            {
                self.error(Diagnostic::new(
                    header(&span),
                    format!("a second hazard point named `{n}`"),
                ));
            }
            let body = self
                .required(t, "body", "`[[hazard]]`", &span)
                .and_then(|n| {
                    let b = self.string(n, "`body`")?;
                    let found = tree.body_index(&b);
                    if found.is_none() {
                        let d = Diagnostic::new(n.span(), format!("the model has no body `{b}`"))
                            .maybe_hint(
                                crate::diag::closest(
                                    &b,
                                    tree.bodies.iter().map(|x| x.name.as_str()),
                                )
                                .map(|c| format!("did you mean `{c}`?")),
                            );
                        self.error(d);
                    }
                    found
                });
            let point = match get(t, "point") {
                Some(n) => self
                    .vector(n, 3, Dim::LENGTH, "a hazard point (body frame)")
                    .map(|v| [v[0].si, v[1].si, v[2].si]),
                None => Some([0.0; 3]),
            };
            let all: Vec<usize> = regions
                .as_ref()
                .map_or(Vec::new(), |r| (0..r.len()).collect());
            let chosen = match get(t, "regions") {
                None => Some(all),
                Some(n) => self.array(n, "`regions`").map(|items| {
                    let mut v = Vec::new();
                    for item in items {
                        let Some(s) = self.string(item, "a region name") else {
                            continue;
                        };
                        let Some(rs) = regions else { continue };
                        match rs.iter().position(|x| x.name == s) {
                            Some(i) => v.push(i),
                            None => {
                                let d =
                                    Diagnostic::new(item.span(), format!("no region named `{s}`"))
                                        .maybe_hint(
                                            crate::diag::closest(
                                                &s,
                                                rs.iter().map(|x| x.name.as_str()),
                                            )
                                            .map(|c| format!("did you mean `{c}`?")),
                                        );
                                self.error(d);
                            }
                        }
                    }
                    v
                }),
            };
            let description = get(t, "description")
                .and_then(|n| self.string(n, "`description`"))
                .unwrap_or_default();
            match (name, body, point, chosen) {
                (Some(name), Some(body), Some(point), Some(regions)) => out.push(Hazard {
                    name,
                    body,
                    point,
                    regions,
                    description,
                }),
                _ => ok = false,
            }
        }
        ok.then_some(out)
    }
}

/// What a program reader returns: the program, how its velocities were
/// found, the moved joints, times, q, q̇, warnings.
pub(super) type Samples = (
    Program,
    Velocities,
    Vec<usize>,
    Vec<f64>,
    Vec<f64>,
    Vec<f64>,
    Vec<RangeWarning>,
);

/// A joint's range as the model gives it.
pub(super) fn range_of(r: &RobotForm, joint: usize) -> Option<[f64; 2]> {
    r.robot.tree.ranges.get(joint).copied().flatten()
}

/// Hinge and slide joints (the ones a program may move): index, column scale.
pub(super) fn movable(r: &RobotForm, angle: AngleUnit) -> Vec<(usize, JointColumn)> {
    r.robot
        .tree
        .joints
        .iter()
        .enumerate()
        .filter_map(|(i, j)| {
            let scale = match (j.kind, angle) {
                (JointKind::Hinge, AngleUnit::Deg) => std::f64::consts::PI / 180.0,
                (JointKind::Hinge | JointKind::Slide, _) => 1.0,
                _ => return None,
            };
            Some((
                i,
                JointColumn {
                    name: j.name.clone(),
                    scale,
                    range: range_of(r, i),
                    slide: j.kind == JointKind::Slide,
                },
            ))
        })
        .collect()
}

impl Reader<'_> {
    fn trajectory(
        &mut self,
        t: &DeTable,
        file_node: &Node,
        r: &RobotForm,
        base: &[f64],
    ) -> Option<Samples> {
        let angle = match get(t, "angle_unit") {
            Some(n) => self.choice(
                n,
                ("angle_unit", "angle unit"),
                &[("rad", AngleUnit::Rad), ("deg", AngleUnit::Deg)],
                2,
            )?,
            None => AngleUnit::Rad,
        };
        let file = self.string(file_node, "`trajectory`")?;
        let Some(access) = self.files.clone() else {
            self.error(Diagnostic::new(
                file_node.span(),
                "trajectory files are read only for a case file on disk",
            ));
            return None;
        };
        let path = match access.resolve(&file) {
            Ok(p) => p,
            Err(message) => {
                self.error(Diagnostic::new(
                    file_node.span(),
                    format!("cannot read `{file}`: {message}"),
                ));
                return None;
            }
        };
        let shown = crate::diag::escape_controls(&access.base.join(&file).display().to_string())
            .into_owned();
        let movable = movable(r, angle);
        let columns: Vec<JointColumn> = movable.iter().map(|(_, c)| c.clone()).collect();
        let npz = file.to_ascii_lowercase().ends_with(".npz");
        let read = if npz {
            super::scene::trajectory_npz::read(&path, &shown, access.max_bytes, &columns)
                .map_err(TableError::File)
        } else {
            trajectory::read(&path, &shown, access.max_bytes, &columns)
        };
        let table = match read {
            Ok(t) => t,
            Err(TableError::File(message)) => {
                self.error(Diagnostic::new(
                    file_node.span(),
                    format!("cannot read `{file}`: {message}"),
                ));
                return None;
            }
            Err(TableError::Csv(e)) => {
                self.foreign = Some(e);
                return None;
            }
        };
        let tree = &r.robot.tree;
        let n = table.time.len();
        let joints: Vec<usize> = table.joints.iter().map(|&k| movable[k].0).collect();
        let velocities = match &table.velocities {
            Some(v) => (Velocities::Columns, v.clone()),
            None => (
                Velocities::CentralDifference,
                table
                    .values
                    .iter()
                    .map(|x| central_difference(&table.time, x))
                    .collect(),
            ),
        };
        let mut q = Vec::with_capacity(n * tree.nq);
        let mut qd = vec![0.0; n * tree.nv];
        for s in 0..n {
            q.extend_from_slice(base);
            for (k, &j) in joints.iter().enumerate() {
                let joint = &tree.joints[j];
                q[s * tree.nq + joint.qpos_adr] = table.values[k][s];
                qd[s * tree.nv + joint.dof_adr] = velocities.1[k][s];
            }
        }
        Some((
            Program::Trajectory(file),
            velocities.0,
            joints,
            table.time,
            q,
            qd,
            table.warnings,
        ))
    }
}
