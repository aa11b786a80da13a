//! The validated case: what a case file says, with spans and SI values.

use crate::expr::{self, Expr, ExprError, Value};
use crate::units::Dim;
use std::collections::HashMap;
use std::ops::Range;

/// One physical value of a case file.
#[derive(Clone, Debug)]
pub struct Val {
    /// The text as typed (`"m*(w^2 + h^2)/12"`, `"2 kg"`).
    pub text: String,
    /// The parsed expression.
    pub expr: Expr,
    /// Byte span of the value in the case file.
    pub span: Range<usize>,
    /// SI value at the case's parameter values.
    pub si: f64,
    /// Dimension the field requires.
    pub dim: Dim,
}

impl Val {
    /// A plain number (no text, no span): the values of a `[scene]`.
    pub fn number(x: f64, dim: Dim) -> Val {
        Val {
            text: String::new(),
            expr: Expr {
                kind: expr::ExprKind::Number(expr::Number {
                    value: x,
                    text: String::new(),
                }),
                span: 0..0,
            },
            span: 0..0,
            si: x,
            dim,
        }
    }

    /// Makes this a plain number (reusing its allocation).
    pub fn set_number(&mut self, x: f64, dim: Dim) {
        if let expr::ExprKind::Number(n) = &mut self.expr.kind {
            n.value = x;
        } else {
            *self = Val::number(x, dim);
        }
        self.si = x;
        self.dim = dim;
    }
}

/// Spatial setting of a body-form case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// One degree of freedom per particle, along a line.
    Line,
    /// In the plane: particles x, y; rigid bodies x, y, θ.
    Planar,
    /// Three dimensions: particles 3 dof, rigid bodies 6 dof.
    ThreeD,
}

impl Space {
    /// Number of components of a point or normal.
    pub fn dim(self) -> usize {
        match self {
            Space::Line => 1,
            Space::Planar => 2,
            Space::ThreeD => 3,
        }
    }

    /// The name used in case files.
    pub fn name(self) -> &'static str {
        match self {
            Space::Line => "line",
            Space::Planar => "planar",
            Space::ThreeD => "3d",
        }
    }
}

/// A parameter: a named value that becomes a symbol of the derivation.
#[derive(Clone, Debug)]
pub struct Parameter {
    /// Name (an identifier).
    pub name: String,
    /// Span of the name in the file.
    pub name_span: Range<usize>,
    /// The value; its `dim` is the inferred dimension.
    pub value: Val,
    /// Optional description for the inputs table.
    pub description: Option<String>,
    /// Optional LaTeX symbol override.
    pub symbol: Option<String>,
    /// The admissible interval, when the value carries a tolerance.
    pub tolerance: Option<super::tolerance::Tolerance>,
}

impl Parameter {
    /// Its symbol as every sheet prints it: the `symbol` or the one made
    /// from the name, marked where it collides with a symbol the sheet
    /// reserves ([`crate::notation::reserved`]).
    pub fn symbol_latex(&self) -> String {
        crate::notation::parameter_symbol(&self.name, self.symbol.as_deref(), self.value.dim)
    }

    /// The reserved symbol its own symbol collides with, if any.
    pub fn collision(&self) -> Option<&'static crate::notation::reserved::Reserved> {
        let own =
            (self.symbol.clone()).unwrap_or_else(|| crate::notation::latex_symbol(&self.name));
        crate::notation::reserved::collision(&own, self.value.dim)
    }
}

/// A value the reader composes once and names, so that the values built
/// from it (a turned inertia, a body-frame contact point) refer to it by
/// name instead of repeating its text: what is built stays linear in the
/// input. Its name starts with `_`, which no case's name can, and it is
/// evaluated after the parameters at every point (sweeps, probes); the
/// symbolic engine always expands it, so displayed forms read as if it
/// were written out.
#[derive(Clone, Debug)]
pub struct Derived {
    /// `_` then a number.
    pub name: String,
    /// Its definition (over parameters and earlier derived values).
    pub value: Val,
}

/// True for the name of a [`Derived`] value.
pub fn is_derived(name: &str) -> bool {
    name.starts_with('_')
}

/// A rigid body's inertia as given.
#[allow(clippy::large_enum_variant)] // a handful per case
#[derive(Clone, Debug)]
pub enum InertiaVal {
    /// Planar: one scalar about the centre of mass.
    Scalar(Val),
    /// 3-d principal values in world axes: `[Ixx, Iyy, Izz]`.
    Diagonal([Val; 3]),
    /// 3-d full symmetric tensor in world axes.
    Full([[Val; 3]; 3]),
}

/// What kind of body.
#[allow(clippy::large_enum_variant)] // a handful per case
#[derive(Clone, Debug)]
pub enum BodyKind {
    /// A point mass.
    Particle {
        /// Mass.
        mass: Val,
    },
    /// A rigid body.
    Rigid {
        /// Mass.
        mass: Val,
        /// Inertia about the centre of mass.
        inertia: InertiaVal,
    },
    /// Immovable (part of the world).
    Fixed,
}

/// A body of a body-form case.
#[derive(Clone, Debug)]
pub struct Body {
    /// Unique name.
    pub name: String,
    /// Span of the `[[body]]` table.
    pub span: Range<usize>,
    /// Kind and inertial data.
    pub kind: BodyKind,
    /// Centre of mass in the world frame (`space.dim()` components).
    pub position: Vec<Val>,
    /// Body axes → world axes (`orientation`, planar `angle`); `None`:
    /// the world's axes. The inertia above is already in world axes.
    pub rotation: Option<super::pose::Rotation>,
    /// `shape` as given (for the sketch); `None` when `inertia` is given.
    pub shape: Option<super::pose::ShapeGeom>,
    /// `description`, as typed.
    pub description: Option<String>,
}

/// How a contact's gap rate is given.
#[derive(Clone, Debug)]
pub enum ContactGeometry {
    /// Body form: point and unit normal in the world frame.
    Point {
        /// Index of the body whose gap opens along +normal.
        body: usize,
        /// Other body; `None` is the fixed world.
        other: Option<usize>,
        /// Contact point.
        point: Vec<Val>,
        /// Unit normal.
        normal: Vec<Val>,
    },
    /// Generalized form: the Jacobian row `J_i`.
    Jacobian(Vec<Val>),
    /// In a `[model]` case: on a model body or a hand-written body,
    /// against another or the world.
    Link {
        /// The body whose gap opens along +normal.
        body: Side,
        /// The other body; `None` is the world.
        other: Option<Side>,
        /// Point (and, unless `normal_frame` says otherwise, normal) in
        /// world coordinates (`frame = "world"`) rather than in the
        /// body's frame.
        world: bool,
        /// The normal in world coordinates (`normal_frame = "world"`, or
        /// `frame = "world"` without a `normal_frame`).
        normal_world: bool,
        /// Contact point.
        point: Vec<Val>,
        /// Unit normal.
        normal: Vec<Val>,
    },
}

/// A normal contact.
#[derive(Clone, Debug)]
pub struct Contact {
    /// Unique name.
    pub name: String,
    /// Span of the `[[contact]]` table.
    pub span: Range<usize>,
    /// Geometry.
    pub geometry: ContactGeometry,
    /// Penalty stiffness (N/m).
    pub stiffness: Val,
    /// Optional damping (N s/m).
    pub damping: Option<Val>,
    /// `description`, as typed.
    pub description: Option<String>,
    /// The case gave no stiffness and has an `[engine.*]` table: the
    /// stiffness (and, without a damping, the dashpot) are the engine's,
    /// filled in by `engines::fill_from_engine` before the analysis.
    pub from_engine: bool,
    /// A bodies case's point and normal were typed in the body's axes
    /// (`frame = "body"`) and turned into the world's by the reader (the
    /// model checks compare the two).
    pub body_frame: bool,
    /// A tangential ("stick") spring, when the contact has one
    /// (`tangential_stiffness` or `tangential_ratio`).
    pub tangential: Option<super::tangential::Tangential>,
    /// The contact law (`law`): linear springs, or Hertz linearised.
    pub law: super::hertz::ContactLaw,
}

/// A pin (planar) or ball (3-d) joint.
#[derive(Clone, Debug)]
pub struct Joint {
    /// Span of the `[[joint]]` table.
    pub span: Range<usize>,
    /// First body.
    pub body: usize,
    /// Second body; `None` pins the first to the world.
    pub other: Option<usize>,
    /// The joint point in the world frame.
    pub point: Vec<Val>,
    /// `description`, as typed.
    pub description: Option<String>,
}

/// A generalized coordinate.
#[derive(Clone, Debug)]
pub struct Coordinate {
    /// Name.
    pub name: String,
    /// Unit as typed.
    pub unit: String,
    /// Dimension of the unit.
    pub dim: Dim,
}

/// The system, in one of the two forms of the case format (docs/case-format.md).
#[derive(Clone, Debug)]
pub enum Form {
    /// Bodies, joints.
    Bodies {
        /// Bodies in file order.
        bodies: Vec<Body>,
        /// Joints in file order.
        joints: Vec<Joint>,
    },
    /// A robot model read from an MJCF or URDF file (`[model]`).
    Robot(Box<RobotForm>),
    /// Generalized coordinates, mass matrix and constraint rows.
    Generalized {
        /// Coordinates.
        coordinates: Vec<Coordinate>,
        /// Mass matrix rows.
        mass_matrix: Vec<Vec<Val>>,
        /// Constraint rows `G_k`.
        constraints: Vec<Vec<Val>>,
    },
}

/// A body of a `[model]` case: one of the model's, or one written in the
/// case (`[[body]]`, e.g. a payload or a person's body region).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Index of a model body.
    Model(usize),
    /// Index into [`RobotForm::bodies`].
    Case(usize),
}

/// `[model]`: a robot model at a configuration.
#[derive(Clone, Debug)]
pub struct RobotForm {
    /// The model.
    pub robot: std::sync::Arc<crate::robot::Robot>,
    /// The model file as written in the case.
    pub file: String,
    /// Span of the `[model]` table.
    pub span: Range<usize>,
    /// The keyframe the configuration starts from, if any.
    pub keyframe: Option<String>,
    /// Configuration before `configuration` overrides (keyframe or the
    /// model's reference configuration).
    pub base: Vec<f64>,
    /// Joint values given in the case: joint index and value (rad or m).
    pub configuration: Vec<(usize, Val)>,
    /// Whether the joints' rotor inertia (MJCF `armature`) is part of M.
    pub armature: bool,
    /// Bodies written in the case beside the model (3-d, free).
    pub bodies: Vec<Body>,
    /// `[[payload]]`s: welded into `robot`'s tree as bodies of their own.
    pub payloads: Vec<super::payload::Payload>,
}

impl RobotForm {
    /// The configuration with joint values from `f` (SI), the others from
    /// the base configuration.
    pub fn configuration_with(&self, mut f: impl FnMut(&Val) -> f64) -> Vec<f64> {
        let mut q = self.base.clone();
        for (j, v) in &self.configuration {
            q[self.robot.tree.joints[*j].qpos_adr] = f(v);
        }
        q
    }
}

/// A body region of a person a contact may strike (`[[person]]`).
#[derive(Clone, Debug)]
pub struct Person {
    /// Index of the contact.
    pub contact: usize,
    /// Label (`hand`, `forearm`).
    pub region: String,
    /// Effective mass of the region, m_H.
    pub mass: Val,
    /// Spring constant of the region, k_H.
    pub stiffness: Val,
    /// Force limit, F_max.
    pub force_limit: Option<Val>,
    /// Speed of approach.
    pub speed: Option<Val>,
}

/// An `[[impact]]`: contacts that close at a speed.
#[derive(Clone, Debug)]
pub struct Impact {
    /// Name (`name`, else the struck contacts' names joined by `+`).
    pub name: String,
    /// Struck contacts, closing together.
    pub contacts: Vec<usize>,
    /// Contacts resting closed at zero force when the others strike.
    pub resting: Vec<usize>,
    /// Approach speed along each struck contact's normal (given, or
    /// `sqrt(2*g*h)` composed from `drop` and `gravity`).
    pub speed: Val,
    /// `drop` and `gravity`, when the speed comes from a fall.
    pub drop: Option<(Val, Val)>,
    /// Words from the case.
    pub description: String,
}

pub use super::quantity::{Claim, ClaimRhs, ImpactQuantity, Quantity};

/// A sweep: results against one parameter.
#[derive(Clone, Debug)]
pub struct Sweep {
    /// Span of the `[[sweep]]` table's header.
    pub span: Range<usize>,
    /// Index into `Case::parameters`.
    pub parameter: usize,
    /// Start value (SI).
    pub from: Val,
    /// End value (SI).
    pub to: Val,
    /// Number of points (≥ 2).
    pub points: usize,
    /// Quantities to plot, with their text.
    pub plot: Vec<(String, Quantity)>,
}

impl Sweep {
    /// The value (SI) of the swept parameter at point `i` (from 0).
    pub fn point(&self, i: usize) -> f64 {
        let n = self.points.max(2);
        self.from.si + (self.to.si - self.from.si) * i as f64 / (n - 1) as f64
    }
}

/// Settings of the time-domain verification; `None` fields take defaults
/// chosen from the analysis.
#[derive(Clone, Debug, Default)]
pub struct Verify {
    /// Impulse for the impulse test (N s).
    pub impulse: Option<Val>,
    /// Initial compression for free vibration (m).
    pub compression: Option<Val>,
    /// Periods simulated.
    pub periods: Option<usize>,
    /// Timestep halvings in the convergence study.
    pub levels: Option<usize>,
    /// Static preload per contact (N).
    pub preload: Option<Val>,
    /// First timestep of the convergence study (s).
    pub dt0: Option<Val>,
}

/// A validated case.
#[derive(Clone, Debug)]
pub struct Case {
    /// Path as given.
    pub path: String,
    /// The file text (kept for diagnostics raised later).
    pub source: String,
    /// Title.
    pub title: String,
    /// Markdown description.
    pub description: String,
    /// Spatial setting (body form; `Planar` by default).
    pub space: Space,
    /// Parameters in file order.
    pub parameters: Vec<Parameter>,
    /// Indices into `parameters` in an order where every parameter comes
    /// after those its expression uses.
    pub param_order: Vec<usize>,
    /// Values composed from others and named ([`Derived`]), in an order
    /// where each comes after those it uses.
    pub derived: Vec<Derived>,
    /// The rules on values that depend on parameters, to check at every
    /// other point the case is evaluated at (`rules.rs`).
    pub checks: Vec<super::rules::Check>,
    /// Bodies or generalized form.
    pub form: Form,
    /// Contacts in file order.
    pub contacts: Vec<Contact>,
    /// Claims in file order.
    pub claims: Vec<Claim>,
    /// Sweeps in file order.
    pub sweeps: Vec<Sweep>,
    /// `[[person]]` body regions, in file order.
    pub persons: Vec<Person>,
    /// `[[impact]]`s, in file order.
    pub impacts: Vec<Impact>,
    /// `[motion]`: a `[model]` case's program, hazard points and body
    /// regions (collaborative robots).
    pub motion: Option<Box<super::motion::Motion>>,
    /// `[map]`: a workspace map of the hazard points' permissible speeds
    /// over two joints.
    pub map: Option<Box<super::map::WorkspaceMap>>,
    /// `[verify]`, when present.
    pub verify: Option<Verify>,
    /// `[analysis] modes`: fastest modes sought on the large-system path.
    pub large_modes: Option<usize>,
    /// `[analysis] path`: which analysis (dense or large-system) runs.
    pub analysis_path: AnalysisPath,
    /// `[display]`: units for results in the Markdown and HTML reports.
    pub display: Display,
    /// `[scene]`: bodies and contacts from columnar files (then `form` has
    /// no bodies and `contacts` is empty).
    pub scene: Option<Box<super::scene::Scene>>,
    /// `[engine.*]`: simulators' contact settings to translate.
    pub engines: super::engine_table::Engines,
    /// Every body angle as typed (`angle`, `rpy`, `axis_angle`: checks).
    pub angles: Vec<Val>,
    /// The engine whose springs and dashpots stand in for the contacts
    /// that gave no stiffness (`None`: every contact gave its own).
    pub stiffness_from: Option<super::Engine>,
    /// `[document]`: the sheet's title block.
    pub document: super::document::Document,
    /// `[revision] previous`: the previous revision's JSON.
    pub previous: Option<super::previous::Previous>,
}

/// Display units chosen in `[display]` (reports only; JSON stays SI).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Display {
    /// Angular frequencies: `rad/s`, `Hz` or `rpm`.
    pub omega: UnitChoice,
    /// Masses: `kg`, `g` or `lb`.
    pub mass: UnitChoice,
    /// Timesteps: `s`, `ms` or `us`; `None` picks s/ms/µs by size.
    pub time: Option<UnitChoice>,
}

/// A display unit: its label and the factor from SI.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct UnitChoice {
    /// Label.
    pub unit: String,
    /// Multiply an SI value by this.
    pub factor: f64,
}

impl Default for Display {
    fn default() -> Self {
        Display {
            omega: UnitChoice {
                unit: "rad/s".into(),
                factor: 1.0,
            },
            mass: UnitChoice {
                unit: "kg".into(),
                factor: 1.0,
            },
            time: None,
        }
    }
}

/// The display units meff knows, per quantity: (name, label, factor from SI).
pub const DISPLAY_UNITS: &[(&str, &str, f64)] = &[
    ("omega", "rad/s", 1.0),
    ("omega", "Hz", 1.0 / std::f64::consts::TAU),
    ("omega", "rpm", 60.0 / std::f64::consts::TAU),
    ("mass", "kg", 1.0),
    ("mass", "g", 1000.0),
    ("mass", "lb", 1.0 / 0.453_592_37),
    ("time", "s", 1.0),
    ("time", "ms", 1e3),
    ("time", "us", 1e6),
    ("time", "µs", 1e6),
];

/// Parameter values by name: the environment expressions are evaluated in.
#[derive(Clone, Debug, Default)]
pub struct Env {
    /// SI values and dimensions by parameter name.
    pub values: HashMap<String, Value>,
}

impl Env {
    /// The environment of a case at its own parameter values.
    pub fn of_case(case: &Case) -> Env {
        Env {
            values: case
                .parameters
                .iter()
                .map(|p| (p.name.clone(), Value::new(p.value.si, p.value.dim)))
                .chain(
                    case.derived
                        .iter()
                        .map(|d| (d.name.clone(), Value::new(d.value.si, d.value.dim))),
                )
                .collect(),
        }
    }

    /// Re-evaluates every parameter after replacing some by new SI values
    /// (for sweeps and probing). Parameters defined by expressions of the
    /// replaced ones follow them.
    pub fn with_overrides(case: &Case, overrides: &[(usize, f64)]) -> Result<Env, ExprError> {
        Env::with_overrides_of(case, overrides, None)
    }

    /// [`Env::with_overrides`] for the parameters marked in `only` (all when
    /// `None`); the others are left out of the environment.
    pub fn with_overrides_of(
        case: &Case,
        overrides: &[(usize, f64)],
        only: Option<&[bool]>,
    ) -> Result<Env, ExprError> {
        let mut env = Env::parameters_with(case, overrides, only)?;
        for d in &case.derived {
            // Left out with the parameters it uses (`only`).
            if only.is_some()
                && d.value
                    .expr
                    .params()
                    .iter()
                    .any(|(n, _)| !env.values.contains_key(*n))
            {
                continue;
            }
            let value = env.eval(&d.value.expr)?;
            env.values.insert(d.name.clone(), value);
        }
        Ok(env)
    }

    /// The parameters alone of [`Env::with_overrides_of`], without the
    /// values composed from them ([`Derived`]).
    pub fn parameters_with(
        case: &Case,
        overrides: &[(usize, f64)],
        only: Option<&[bool]>,
    ) -> Result<Env, ExprError> {
        let mut env = Env::default();
        env.values.reserve(case.parameters.len());
        let mut replaced: Vec<Option<f64>> = vec![None; case.parameters.len()];
        for &(idx, si) in overrides {
            if let Some(r) = replaced.get_mut(idx) {
                *r = Some(si);
            }
        }
        for &idx in &case.param_order {
            if only.is_some_and(|o| !o[idx]) {
                continue;
            }
            let p = &case.parameters[idx];
            let value = match replaced[idx] {
                Some(si) => Value::new(si, p.value.dim),
                None => env.eval(&p.value.expr)?,
            };
            env.values.insert(p.name.clone(), value);
        }
        Ok(env)
    }

    /// Evaluates an expression in this environment.
    pub fn eval(&self, e: &Expr) -> Result<Value, ExprError> {
        expr::eval(e, &|name| self.values.get(name).copied())
    }

    /// The SI value of a case value in this environment.
    pub fn si(&self, v: &Val) -> Result<f64, ExprError> {
        self.eval(&v.expr).map(|x| x.si)
    }
}

impl Case {
    /// Index of a contact by name.
    pub fn contact_index(&self, name: &str) -> Option<usize> {
        match &self.scene {
            Some(s) => (0..s.data.n_contacts()).find(|&i| s.data.contact_name(i) == name),
            None => self.contacts.iter().position(|c| c.name == name),
        }
    }

    /// Number of contacts.
    pub fn n_contacts(&self) -> usize {
        match &self.scene {
            Some(s) => s.data.n_contacts(),
            None => self.contacts.len(),
        }
    }

    /// Name of contact `i`.
    pub fn contact_name(&self, i: usize) -> std::borrow::Cow<'_, str> {
        match &self.scene {
            Some(s) => s.data.contact_name(i).into(),
            None => self.contacts[i].name.as_str().into(),
        }
    }

    /// Names of the contacts.
    pub fn contact_names(&self) -> Vec<std::borrow::Cow<'_, str>> {
        (0..self.n_contacts())
            .map(|i| self.contact_name(i))
            .collect()
    }

    /// True for a `[generalized]` case.
    pub fn is_generalized(&self) -> bool {
        matches!(self.form, Form::Generalized { .. })
    }
}

/// Which analysis a case asks for (`[analysis] path`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AnalysisPath {
    /// By size: the large-system path above
    /// `analysis::LARGE_PATH_ABOVE` contacts when there are no constraints,
    /// and above the dense limit in any case.
    #[default]
    Auto,
    /// The dense path (A formed, every mode, verification), up to the
    /// dense limit.
    Dense,
    /// The large-system path (sparse S, the fastest modes by Lanczos), at
    /// any size; constraints are not supported there.
    Large,
}
