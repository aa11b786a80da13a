//! `[engine.<name>]`: a simulator's contact settings, to be translated
//! through the exact effective mass (`src/engines/`). Each table is read
//! into the engine's own parameters with the engine's defaults filled in;
//! values with units are `Val`s like every other value of a case.

use super::read::{Reader, get, toml_number};
use super::types::Val;
use crate::diag::Diagnostic;
use crate::units::Dim;
use toml::de::{DeTable, DeValue};

type Node<'i> = toml::Spanned<DeValue<'i>>;

/// Hunt–Crossley dissipation: s/m.
const DISSIPATION: Dim = Dim([0, -1, 1]);

/// A simulator meff translates contact settings for. Adding one: a
/// variant here, its settings struct and reader below, its translation in
/// `src/engines/settings.rs`; the compiler lists each match to fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// MuJoCo.
    Mujoco,
    /// Box2D v3.
    Box2d,
    /// Bullet (and ODE).
    Bullet,
    /// Drake.
    Drake,
    /// Rapier.
    Rapier,
}

impl Engine {
    /// Every engine, in report order.
    pub const ALL: [Engine; 5] = [
        Engine::Mujoco,
        Engine::Box2d,
        Engine::Bullet,
        Engine::Drake,
        Engine::Rapier,
    ];

    /// The key of its `[engine.<key>]` table (and of `--engine`).
    pub const fn key(self) -> &'static str {
        match self {
            Engine::Mujoco => "mujoco",
            Engine::Box2d => "box2d",
            Engine::Bullet => "bullet",
            Engine::Drake => "drake",
            Engine::Rapier => "rapier",
        }
    }

    /// Its name for people.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Mujoco => "MuJoCo",
            Engine::Box2d => "Box2D v3",
            Engine::Bullet => "Bullet / ODE",
            Engine::Drake => "Drake",
            Engine::Rapier => "Rapier",
        }
    }

    /// The engine whose key is `key`.
    pub fn parse(key: &str) -> Option<Engine> {
        Engine::ALL.into_iter().find(|e| e.key() == key)
    }

    /// The keys its table accepts.
    pub fn table_keys(self) -> &'static [&'static str] {
        match self {
            Engine::Mujoco => MUJOCO_KEYS,
            Engine::Box2d => BOX2D_KEYS,
            Engine::Bullet => BULLET_KEYS,
            Engine::Drake => DRAKE_KEYS,
            Engine::Rapier => RAPIER_KEYS,
        }
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

const ENGINE_KEY_ARRAY: [&str; Engine::ALL.len()] = {
    let mut out = [""; Engine::ALL.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = Engine::ALL[i].key();
        i += 1;
    }
    out
};

/// The engines' keys, in report order.
pub const ENGINE_NAMES: &[&str] = &ENGINE_KEY_ARRAY;

pub(super) const MUJOCO_KEYS: &[&str] =
    &["timestep", "solref", "solimp", "integrator", "penetration"];
pub(super) const BOX2D_KEYS: &[&str] = &[
    "timestep",
    "substeps",
    "contact_hertz",
    "contact_damping_ratio",
];
pub(super) const BULLET_KEYS: &[&str] = &["timestep", "erp", "cfm", "stiffness", "damping"];
pub(super) const DRAKE_KEYS: &[&str] = &[
    "timestep",
    "stiffness",
    "dissipation",
    "relaxation_time",
    "near_rigid_threshold",
    "approximation",
    "preload",
];
pub(super) const RAPIER_KEYS: &[&str] = &[
    "timestep",
    "substeps",
    "contact_natural_frequency",
    "contact_damping_ratio",
];

/// MuJoCo's contact parameters (`mjOption`, geom `solref`/`solimp`).
#[derive(Clone, Debug)]
pub struct MujocoSettings {
    /// `opt.timestep` (default 2 ms).
    pub timestep: Val,
    /// `solref`: (timeconst, dampratio) or (−stiffness, −damping).
    pub solref: [f64; 2],
    /// `solimp`: (dmin, dmax, width, midpoint, power).
    pub solimp: [f64; 5],
    /// `Euler` (the default; `implicit` and `implicitfast` advance contact
    /// forces the same way) or `RK4`.
    pub integrator: MujocoIntegrator,
    /// Penetration at which the impedance is evaluated (default 0).
    pub penetration: Option<Val>,
}

/// MuJoCo integrators meff predicts the step of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MujocoIntegrator {
    /// `Euler`: semi-implicit (velocity first, then position). `implicit`
    /// and `implicitfast` make joint damping and actuator terms implicit,
    /// not constraint forces: for contacts they step the same way.
    Euler,
    /// `RK4`.
    Rk4,
}

impl MujocoIntegrator {
    /// MuJoCo's name.
    pub fn name(self) -> &'static str {
        match self {
            MujocoIntegrator::Euler => "Euler",
            MujocoIntegrator::Rk4 => "RK4",
        }
    }
}

/// Box2D v3's soft contact (`b2WorldDef`).
#[derive(Clone, Debug)]
pub struct Box2dSettings {
    /// `timeStep` passed to `b2World_Step`.
    pub timestep: Val,
    /// `subStepCount` (default 4).
    pub substeps: usize,
    /// `contactHertz` (default 30 Hz).
    pub contact_hertz: Val,
    /// `contactDampingRatio` (default 10).
    pub contact_damping_ratio: f64,
}

/// Bullet's (and ODE's) contact ERP and CFM, or a contact stiffness and
/// damping (`changeDynamics(contactStiffness, contactDamping)`).
#[derive(Clone, Debug)]
pub struct BulletSettings {
    /// Step (default 1/240 s, PyBullet's).
    pub timestep: Val,
    /// Error reduction parameter (default 0.2).
    pub erp: f64,
    /// Constraint force mixing (default 0).
    pub cfm: f64,
    /// Contact stiffness and damping, which replace ERP and CFM.
    pub spring: Option<(Val, Val)>,
}

/// Drake's discrete contact approximations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrakeApproximation {
    /// `"lagged"` (the default): Hunt–Crossley.
    Lagged,
    /// `"similar"`: Hunt–Crossley.
    Similar,
    /// `"tamsi"`: Hunt–Crossley.
    Tamsi,
    /// `"sap"`: linear Kelvin–Voigt with a relaxation time.
    Sap,
}

impl DrakeApproximation {
    /// Every approximation, in the order the hint lists them.
    pub const ALL: [DrakeApproximation; 4] = [
        DrakeApproximation::Lagged,
        DrakeApproximation::Similar,
        DrakeApproximation::Tamsi,
        DrakeApproximation::Sap,
    ];

    /// Drake's name (`discrete_contact_approximation`).
    pub fn name(self) -> &'static str {
        match self {
            DrakeApproximation::Lagged => "lagged",
            DrakeApproximation::Similar => "similar",
            DrakeApproximation::Tamsi => "tamsi",
            DrakeApproximation::Sap => "sap",
        }
    }

    /// The approximation named `name`.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The names, comma-separated.
    pub fn names() -> String {
        Self::ALL.map(Self::name).join(", ")
    }

    /// Whether the contact force is Hunt–Crossley's (all but SAP).
    pub fn is_hunt_crossley(self) -> bool {
        match self {
            DrakeApproximation::Lagged
            | DrakeApproximation::Similar
            | DrakeApproximation::Tamsi => true,
            DrakeApproximation::Sap => false,
        }
    }
}

/// Drake's compliant point contact (`MultibodyPlantConfig`, proximity
/// properties).
#[derive(Clone, Debug)]
pub struct DrakeSettings {
    /// `time_step` (default 1 ms).
    pub timestep: Val,
    /// `point_contact_stiffness` (combined, N/m).
    pub stiffness: Val,
    /// `hunt_crossley_dissipation` (s/m, default 0).
    pub dissipation: Val,
    /// `relaxation_time` for SAP (s, default 0).
    pub relaxation_time: Val,
    /// `sap_near_rigid_threshold` β (default 1).
    pub near_rigid_threshold: f64,
    /// `discrete_contact_approximation`.
    pub approximation: DrakeApproximation,
    /// Normal force each contact carries at equilibrium (Hunt–Crossley
    /// damping grows with penetration); default none.
    pub preload: Option<Val>,
}

/// Rapier's contact softness (`IntegrationParameters`).
#[derive(Clone, Debug)]
pub struct RapierSettings {
    /// `dt` (default 1/60 s).
    pub timestep: Val,
    /// `num_solver_iterations` (substeps, default 4).
    pub substeps: usize,
    /// `contact_softness.natural_frequency` (default 30 Hz).
    pub contact_natural_frequency: Val,
    /// `contact_softness.damping_ratio` (default 5).
    pub contact_damping_ratio: f64,
}

/// The `[engine.*]` tables of a case.
#[derive(Clone, Debug, Default)]
pub struct Engines {
    /// `[engine.mujoco]`.
    pub mujoco: Option<MujocoSettings>,
    /// `[engine.box2d]`.
    pub box2d: Option<Box2dSettings>,
    /// `[engine.bullet]` (also ODE).
    pub bullet: Option<BulletSettings>,
    /// `[engine.drake]`.
    pub drake: Option<DrakeSettings>,
    /// `[engine.rapier]`.
    pub rapier: Option<RapierSettings>,
    /// Where each engine's table is in the case file (a translation that
    /// comes out of range is an error there).
    pub spans: Vec<(Engine, std::ops::Range<usize>)>,
}

impl Engines {
    /// Whether no engine is given.
    pub fn is_empty(&self) -> bool {
        !Engine::ALL.into_iter().any(|e| self.has(e))
    }

    /// Whether the case has settings for `engine`.
    pub fn has(&self, engine: Engine) -> bool {
        match engine {
            Engine::Mujoco => self.mujoco.is_some(),
            Engine::Box2d => self.box2d.is_some(),
            Engine::Bullet => self.bullet.is_some(),
            Engine::Drake => self.drake.is_some(),
            Engine::Rapier => self.rapier.is_some(),
        }
    }

    /// Adds `engine` with its defaults when the case has no table for it
    /// (`meff eval --engine NAME`); Drake has no default stiffness.
    pub fn ensure(&mut self, engine: Engine) -> Result<(), String> {
        match engine {
            Engine::Mujoco => {
                self.mujoco.get_or_insert_with(MujocoSettings::defaults);
            }
            Engine::Box2d => {
                self.box2d.get_or_insert_with(Box2dSettings::defaults);
            }
            Engine::Bullet => {
                self.bullet.get_or_insert_with(BulletSettings::defaults);
            }
            Engine::Rapier => {
                self.rapier.get_or_insert_with(RapierSettings::defaults);
            }
            Engine::Drake if self.drake.is_none() => {
                return Err(
                    "Drake has no default contact stiffness: add an [engine.drake] table with `stiffness`"
                        .into(),
                );
            }
            Engine::Drake => {}
        }
        Ok(())
    }
}

impl MujocoSettings {
    /// MuJoCo's defaults (`mjOption`, `mjDefault`).
    pub fn defaults() -> Self {
        MujocoSettings {
            timestep: default_val("2 ms", Dim::TIME),
            solref: [0.02, 1.0],
            solimp: [0.9, 0.95, 0.001, 0.5, 2.0],
            integrator: MujocoIntegrator::Euler,
            penetration: None,
        }
    }
}

impl Box2dSettings {
    /// Box2D v3's defaults (`b2DefaultWorldDef`).
    pub fn defaults() -> Self {
        Box2dSettings {
            timestep: default_val("1/60 s", Dim::TIME),
            substeps: 4,
            contact_hertz: default_val("30 Hz", Dim::FREQUENCY),
            contact_damping_ratio: 10.0,
        }
    }
}

impl BulletSettings {
    /// PyBullet's defaults.
    pub fn defaults() -> Self {
        BulletSettings {
            timestep: default_val("1/240 s", Dim::TIME),
            erp: 0.2,
            cfm: 0.0,
            spring: None,
        }
    }
}

impl RapierSettings {
    /// Rapier's defaults (`IntegrationParameters::default`).
    pub fn defaults() -> Self {
        RapierSettings {
            timestep: default_val("1/60 s", Dim::TIME),
            substeps: 4,
            contact_natural_frequency: default_val("30 Hz", Dim::FREQUENCY),
            contact_damping_ratio: 5.0,
        }
    }
}

impl DrakeSettings {
    /// Drake's defaults around a `stiffness` it has no default for.
    pub fn defaults(stiffness: Val) -> Self {
        DrakeSettings {
            timestep: default_val("1 ms", Dim::TIME),
            stiffness,
            dissipation: default_val("0 s/m", DISSIPATION),
            relaxation_time: default_val("0 s", Dim::TIME),
            near_rigid_threshold: 1.0,
            approximation: DrakeApproximation::Lagged,
            preload: None,
        }
    }
}

/// A default value written as the engine's documentation writes it.
fn default_val(text: &str, dim: Dim) -> Val {
    let expr = crate::expr::parse(text).expect("default values parse");
    let si = crate::expr::eval(&expr, &|_| None)
        .expect("default values evaluate")
        .si;
    Val {
        text: text.to_string(),
        expr,
        span: 0..0,
        si,
        dim,
    }
}

impl Reader<'_> {
    pub(super) fn engines(&mut self, node: &Node) -> Engines {
        let mut out = Engines::default();
        let Some(t) = self.table(node, "`[engine]`") else {
            return out;
        };
        self.keys(t, ENGINE_NAMES, "`[engine]`");
        for (key, value) in t.iter() {
            let what = format!("`[engine.{}]`", key.get_ref());
            let Some(e) = self.table(value, &what) else {
                continue;
            };
            let Some(engine) = Engine::parse(key.get_ref().as_ref()) else {
                continue;
            };
            out.spans.push((engine, value.span()));
            match engine {
                Engine::Mujoco => out.mujoco = Some(self.mujoco(e, &what)),
                Engine::Box2d => out.box2d = Some(self.box2d(e, &what)),
                Engine::Bullet => out.bullet = Some(self.bullet(e, &what)),
                Engine::Drake => out.drake = Some(self.drake(e, &what, value.span())),
                Engine::Rapier => out.rapier = Some(self.rapier(e, &what)),
            }
        }
        out
    }

    /// A positive time, or the default.
    fn step(&mut self, t: &DeTable, default: Val) -> Val {
        get(t, "timestep")
            .and_then(|n| {
                let v = self.value(n, Dim::TIME, "a timestep");
                self.positive(v, "a timestep")
            })
            .unwrap_or(default)
    }

    /// A positive value of a dimension, or the default.
    fn positive_or(&mut self, t: &DeTable, key: &str, dim: Dim, what: &str, default: Val) -> Val {
        get(t, key)
            .and_then(|n| {
                let v = self.value(n, dim, what);
                self.positive(v, what)
            })
            .unwrap_or(default)
    }

    /// A frequency: a value with a unit, or a bare number in Hz as the
    /// engines' APIs take it.
    fn hertz(&mut self, t: &DeTable, key: &str, default: Val) -> Val {
        if let Some(n) = get(t, key)
            && toml_number(n).is_some()
        {
            return match self.real(n, &format!("`{key}`"), 0.0..=f64::INFINITY) {
                Some(x) if x > 0.0 => {
                    // Written back in scientific notation (`{x}` would print
                    // 1e64 as 65 digits, past the literal limit).
                    let text = format!("{x:e} Hz");
                    match crate::expr::parse(&text)
                        .ok()
                        .and_then(|e| crate::expr::eval(&e, &|_| None).ok().map(|v| (e, v.si)))
                        .filter(|(_, si)| si.is_normal())
                    {
                        Some((expr, si)) => Val {
                            text,
                            expr,
                            span: n.span(),
                            si,
                            dim: Dim::FREQUENCY,
                        },
                        None => {
                            self.error(Diagnostic::new(
                                n.span(),
                                format!("`{key}` is out of range (a frequency in Hz, normal 64-bit magnitude)"),
                            ));
                            default
                        }
                    }
                }
                Some(_) => {
                    self.error(Diagnostic::new(
                        n.span(),
                        format!("`{key}` must be positive"),
                    ));
                    default
                }
                None => default,
            };
        }
        self.positive_or(t, key, Dim::FREQUENCY, "a frequency", default)
    }

    /// A finite number (any sign) in `range`.
    fn real(
        &mut self,
        node: &Node,
        what: &str,
        range: std::ops::RangeInclusive<f64>,
    ) -> Option<f64> {
        match toml_number(node) {
            Some(v) if v.is_finite() && range.contains(&v) => Some(v),
            _ => {
                let (a, b) = (range.start(), range.end());
                let text = if b.is_infinite() {
                    format!("{what} must be a number ≥ {a}")
                } else {
                    format!("{what} must be a number from {a} to {b}")
                };
                self.error(Diagnostic::new(node.span(), text));
                None
            }
        }
    }

    /// A fixed-length array of finite numbers.
    fn reals<const N: usize>(&mut self, node: &Node, what: &str) -> Option<[f64; N]> {
        let items = match node.get_ref() {
            DeValue::Array(a) if a.len() == N => a,
            _ => {
                self.error(Diagnostic::new(
                    node.span(),
                    format!("{what} must be an array of {N} numbers"),
                ));
                return None;
            }
        };
        let mut out = [0.0; N];
        for (i, item) in items.iter().enumerate() {
            match toml_number(item) {
                Some(v) if v.is_finite() => out[i] = v,
                _ => {
                    self.error(Diagnostic::new(
                        item.span(),
                        format!("{what} must be an array of {N} numbers"),
                    ));
                    return None;
                }
            }
        }
        Some(out)
    }

    fn mujoco(&mut self, t: &DeTable, what: &str) -> MujocoSettings {
        self.keys(t, MUJOCO_KEYS, what);
        let d = MujocoSettings::defaults();
        let timestep = self.step(t, d.timestep);
        let mut solref = d.solref;
        if let Some(n) = get(t, "solref")
            && let Some(r) = self.reals::<2>(n, "`solref`")
        {
            if (r[0] > 0.0) != (r[1] > 0.0) || r[0] == 0.0 {
                self.error(
                    Diagnostic::new(n.span(), "`solref` mixes its two forms")
                        .hint("both positive: (timeconst, dampratio); both negative: (−stiffness, −damping); MuJoCo replaces a mix with its default"),
                );
            } else {
                solref = r;
            }
        }
        let mut solimp = d.solimp;
        if let Some(n) = get(t, "solimp")
            && let Some(s) = self.reals::<5>(n, "`solimp`")
        {
            let unit = |x: f64| (0.0001..=0.9999).contains(&x);
            if !unit(s[0]) || !unit(s[1]) || !unit(s[3]) || s[2] < 0.0 || s[4] < 1.0 {
                self.error(
                    Diagnostic::new(n.span(), "`solimp` is out of MuJoCo's range")
                        .hint("dmin, dmax and midpoint from 0.0001 to 0.9999, width ≥ 0, power ≥ 1 (MuJoCo clamps them; meff asks for the values it would use)"),
                );
            } else {
                solimp = s;
            }
        }
        let integrator = match get(t, "integrator") {
            None => d.integrator,
            Some(n) => match self.string(n, "`integrator`").as_deref() {
                None => d.integrator,
                Some("Euler" | "implicit" | "implicitfast") => MujocoIntegrator::Euler,
                Some("RK4") => MujocoIntegrator::Rk4,
                Some(other) => {
                    self.error(
                        Diagnostic::new(
                            n.span(),
                            format!("meff does not predict MuJoCo's `{other}` integrator"),
                        )
                        .hint("one of: Euler, implicit, implicitfast, RK4"),
                    );
                    d.integrator
                }
            },
        };
        let penetration =
            get(t, "penetration").and_then(|n| self.value(n, Dim::LENGTH, "a penetration"));
        MujocoSettings {
            timestep,
            solref,
            solimp,
            integrator,
            penetration,
        }
    }

    fn box2d(&mut self, t: &DeTable, what: &str) -> Box2dSettings {
        self.keys(t, BOX2D_KEYS, what);
        let d = Box2dSettings::defaults();
        Box2dSettings {
            timestep: self.step(t, d.timestep),
            substeps: get(t, "substeps")
                .and_then(|n| self.integer(n, "`substeps`", 1..=1000))
                .unwrap_or(d.substeps),
            contact_hertz: self.hertz(t, "contact_hertz", d.contact_hertz),
            contact_damping_ratio: get(t, "contact_damping_ratio")
                .and_then(|n| self.real(n, "`contact_damping_ratio`", 0.0..=f64::INFINITY))
                .unwrap_or(d.contact_damping_ratio),
        }
    }

    fn bullet(&mut self, t: &DeTable, what: &str) -> BulletSettings {
        self.keys(t, BULLET_KEYS, what);
        let d = BulletSettings::defaults();
        let timestep = self.step(t, d.timestep);
        let erp = get(t, "erp")
            .and_then(|n| self.real(n, "`erp`", 0.0..=1.0))
            .unwrap_or(d.erp);
        let cfm = get(t, "cfm")
            .and_then(|n| self.real(n, "`cfm`", 0.0..=f64::INFINITY))
            .unwrap_or(d.cfm);
        let stiffness = get(t, "stiffness").and_then(|n| {
            let v = self.value(n, Dim::STIFFNESS, "a stiffness");
            self.positive(v, "a stiffness")
        });
        let damping = get(t, "damping").and_then(|n| self.value(n, Dim::DAMPING, "a damping"));
        let spring = match (stiffness, damping) {
            (Some(k), Some(c)) => Some((k, c)),
            (Some(k), None) => Some((k, default_val("0 N s/m", Dim::DAMPING))),
            (None, Some(c)) => {
                self.error(Diagnostic::new(
                    c.span.clone(),
                    "a contact damping needs a contact stiffness beside it (Bullet uses the pair or ERP and CFM)",
                ));
                None
            }
            (None, None) => None,
        };
        if spring.is_some() && (get(t, "erp").is_some() || get(t, "cfm").is_some()) {
            let n = get(t, "erp").or(get(t, "cfm")).expect("one is there");
            self.error(
                Diagnostic::new(n.span(), "give either `erp`/`cfm` or `stiffness`/`damping`")
                    .hint("Bullet computes ERP and CFM from a contact stiffness and damping when they are set"),
            );
        }
        BulletSettings {
            timestep,
            erp,
            cfm,
            spring,
        }
    }

    fn drake(&mut self, t: &DeTable, what: &str, span: std::ops::Range<usize>) -> DrakeSettings {
        self.keys(t, DRAKE_KEYS, what);
        // The stiffness has no default: a placeholder stands where it is
        // missing or wrong (the error stands; nothing is translated).
        let d = DrakeSettings::defaults(default_val("1 N/m", Dim::STIFFNESS));
        let approximation = match get(t, "approximation") {
            None => d.approximation,
            Some(n) => match self.string(n, "`approximation`").as_deref() {
                None => d.approximation,
                Some(name) => DrakeApproximation::parse(name).unwrap_or_else(|| {
                    self.error(
                        Diagnostic::new(
                            n.span(),
                            format!("unknown discrete contact approximation `{name}`"),
                        )
                        .hint(format!("one of: {}", DrakeApproximation::names())),
                    );
                    d.approximation
                }),
            },
        };
        let stiffness = match get(t, "stiffness") {
            Some(n) => {
                let v = self.value(n, Dim::STIFFNESS, "a stiffness");
                self.positive(v, "a stiffness")
            }
            None => {
                self.error(
                    Diagnostic::new(super::read::header(&span), format!("{what} needs `stiffness`"))
                        .hint("Drake's point_contact_stiffness (the combined value of the two geometries)"),
                );
                None
            }
        }
        .unwrap_or(d.stiffness);
        let dissipation = get(t, "dissipation")
            .and_then(|n| self.value(n, DISSIPATION, "a dissipation"))
            .unwrap_or(d.dissipation);
        let relaxation_time = get(t, "relaxation_time")
            .and_then(|n| self.value(n, Dim::TIME, "a relaxation time"))
            .unwrap_or(d.relaxation_time);
        DrakeSettings {
            timestep: self.step(t, d.timestep),
            stiffness,
            dissipation,
            relaxation_time,
            near_rigid_threshold: get(t, "near_rigid_threshold")
                .and_then(|n| self.real(n, "`near_rigid_threshold`", 0.0..=f64::INFINITY))
                .unwrap_or(d.near_rigid_threshold),
            approximation,
            preload: get(t, "preload").and_then(|n| {
                let v = self.value(n, Dim::FORCE, "a preload");
                self.positive(v, "a preload")
            }),
        }
    }

    fn rapier(&mut self, t: &DeTable, what: &str) -> RapierSettings {
        self.keys(t, RAPIER_KEYS, what);
        let d = RapierSettings::defaults();
        RapierSettings {
            timestep: self.step(t, d.timestep),
            substeps: get(t, "substeps")
                .and_then(|n| self.integer(n, "`substeps`", 1..=1000))
                .unwrap_or(d.substeps),
            contact_natural_frequency: self.hertz(
                t,
                "contact_natural_frequency",
                d.contact_natural_frequency,
            ),
            contact_damping_ratio: get(t, "contact_damping_ratio")
                .and_then(|n| self.real(n, "`contact_damping_ratio`", 0.0..=f64::INFINITY))
                .unwrap_or(d.contact_damping_ratio),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Engine;

    /// Every engine's table is in the list of tables and keys the docs
    /// test reads, and its key parses back.
    #[test]
    fn every_engine_is_listed() {
        for e in Engine::ALL {
            assert_eq!(Engine::parse(e.key()), Some(e));
            let table = format!("[engine.{}]", e.key());
            let listed = super::super::read::KEYS
                .iter()
                .find(|(t, _)| *t == table)
                .unwrap_or_else(|| panic!("{table} is not in case::KEYS"));
            assert_eq!(listed.1, e.table_keys());
        }
        assert_eq!(
            super::ENGINE_NAMES,
            ["mujoco", "box2d", "bullet", "drake", "rapier"]
        );
    }
}
