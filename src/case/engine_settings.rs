//! The engines meff translates contact settings for ([`Engine`]), each
//! engine's parameters with its defaults (written once, in `defaults()`),
//! and a case's `[engine.*]` tables ([`Engines`]). Reading them from TOML
//! is `engine_table.rs`; translating them, `src/engines/`.

use super::engine_table::{BOX2D_KEYS, BULLET_KEYS, DRAKE_KEYS, MUJOCO_KEYS, RAPIER_KEYS};
use super::types::Val;
use crate::units::Dim;

/// Hunt–Crossley dissipation: s/m.
pub(super) const DISSIPATION: Dim = Dim([0, -1, 1]);

/// A simulator meff translates contact settings for. Adding one: a
/// variant here, its settings struct with `defaults()` below, its table's
/// keys and reader in `engine_table.rs` (and the keys' line in
/// `read.rs`'s `KEYS`, which a test checks), its translation in
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
pub(super) fn default_val(text: &str, dim: Dim) -> Val {
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
