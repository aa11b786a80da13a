//! What a simulator does with its contact settings, told with the exact
//! effective mass.
//!
//! The engines enter the pipeline twice. Before the analysis,
//! [`fill_from_engine`] gives the contacts without a `stiffness` the
//! spring and dashpot their engine's law amounts to (it runs its own
//! analysis of the case's Delassus matrix, which no stiffness enters).
//! After the analysis, [`analyze`] reads the Delassus matrix, never
//! changing it, and reports what each engine does with its settings:
//! per engine (`[engine.<name>]`), `translate` turns the settings into the
//! linear law the engine applies about equilibrium ([`law::Law`]) — using
//! the engine's own estimate of each contact's inverse mass where its
//! formulas use one — and reports, per contact: the spring and dashpot it
//! amounts to, the frequency and damping ratio with the exact mass and the
//! ones the engine intends with its estimate, the estimate's error, the
//! same at the engine's step; for the coupled contacts: the modes with the
//! exact Delassus matrix, continuous and at the step, and whether the step
//! is stable; and the settings that would give each contact the case's own
//! stiffness and damping. The formulas, each cited to the engine's source,
//! are in docs/engines.md; the engines' own simulations check them
//! (tests/engines/).

pub mod derivation;
mod from_engine;
pub mod law;
pub mod sap;
mod settings;
pub mod world;

pub use from_engine::fill_from_engine;

use crate::case::{Case, Engine};
use law::{Law, Pole, Step};
use nalgebra::DMatrix;
use serde::Serialize;

/// One engine's translation of a case.
#[derive(Clone, Debug, Serialize)]
pub struct EngineReport {
    /// The engine (serialised as its key: `mujoco`, `box2d`, …).
    pub engine: Engine,
    /// Its name for people.
    pub name: &'static str,
    /// Which version's formulas (and where they are).
    pub source: &'static str,
    /// The settings used, defaults filled in, as `(name, value)`.
    pub settings: Vec<(String, String)>,
    /// The step the contact law is advanced by (a substep where the engine
    /// substeps), s.
    pub step: f64,
    /// How the engine advances the contacts.
    pub integrator: &'static str,
    /// Per contact, in case order.
    pub contacts: Vec<EngineContact>,
    /// Coupled modes with the exact Delassus matrix, fastest first.
    pub modes: Vec<EngineMode>,
    /// Every mode of the engine's step map for the coupled contacts,
    /// fastest first (a relaxing step has first-order modes that pair with
    /// no continuous one).
    pub step_modes: Vec<Pole>,
    /// Largest `|z|` of the step map (below 1: stable).
    pub spectral_radius: Option<f64>,
    /// For a step that solves contacts one after another (Box2D, Rapier):
    /// the slowest settling rate (1/s) in the case's order and its least
    /// and greatest over every order the solver may visit the contacts in
    /// (up to 6 contacts).
    pub settling: Option<Settling>,
    /// Whether the engine's step is stable for the coupled contacts.
    pub stable: Option<bool>,
    /// Largest and smallest contact frequency with the engine's settings
    /// shared by all contacts (rad/s), and their ratio.
    pub spread: Option<Spread>,
    /// Box2D and Rapier have one frequency and damping ratio for the whole
    /// world: the one setting that misses the contacts' own least.
    pub world_setting: Option<world::WorldSetting>,
    /// What the engine does differently from the plain law, and where
    /// meff's prediction stops.
    pub notes: Vec<String>,
    /// The lines every contact shares, with their numbers (the sheets
    /// print them; not in the JSON, which has the results).
    #[serde(skip)]
    pub lines: Vec<derivation::Line>,
}

/// One contact through an engine's settings.
#[derive(Clone, Debug, Serialize)]
pub struct EngineContact {
    /// Contact name.
    pub name: String,
    /// Exact effective mass `1/A_ii` (kg).
    pub m_eff: f64,
    /// The engine's estimate of it (kg), where its formulas use one.
    pub m_engine: Option<f64>,
    /// Relative error of the engine's `A_ii`: `(Â_ii − A_ii)/A_ii`.
    pub a_error: Option<f64>,
    /// The spring the contact amounts to (N/m); `None` when rigid.
    pub k: Option<f64>,
    /// The stiffness the settings ask for, where the engine applies a
    /// smaller one (Drake SAP's near-rigid cap); `None` otherwise.
    pub k_set: Option<f64>,
    /// The dashpot (N s/m).
    pub c: Option<f64>,
    /// With the exact mass: natural frequency (rad/s) and damping ratio.
    pub exact: Option<Pole>,
    /// What the engine intends with its own estimate.
    pub intended: Option<Pole>,
    /// At the engine's step (the mode its motion shows), exact mass.
    pub at_step: Option<Pole>,
    /// `ω h` with the exact mass.
    pub omega_h: Option<f64>,
    /// Settings that give this contact the case's stiffness and damping
    /// with its exact mass, as `(name, value)`.
    pub inverse: Vec<(String, String)>,
    /// How `k`, `c`, the engine's estimate and the settings above follow,
    /// with the contact's numbers (the sheets print them).
    #[serde(skip)]
    pub lines: Vec<derivation::Line>,
}

/// A coupled mode through an engine.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct EngineMode {
    /// Continuous, exact Delassus matrix.
    pub exact: Pole,
    /// At the engine's step.
    pub at_step: Option<Pole>,
}

/// How fast sequentially solved contacts settle (1/s).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Settling {
    /// Slowest first-order rate with the contacts in case order.
    pub case_order: f64,
    /// Least over all visiting orders (`None` above 6 contacts).
    pub min: Option<f64>,
    /// Greatest over all visiting orders.
    pub max: Option<f64>,
}

/// The slowest first-order rate of a law's step map.
fn slowest_rate(law: &Law, a: &DMatrix<f64>, step: Step, h: f64) -> Option<f64> {
    law.step_modes(a, step, h)
        .0
        .iter()
        .filter(|p| p.first_order)
        .map(|p| p.omega)
        .reduce(f64::min)
}

/// Every permutation of `0..n` (Heap's algorithm).
fn permutations(n: usize) -> Vec<Vec<usize>> {
    fn heap(k: usize, p: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if k <= 1 {
            out.push(p.clone());
            return;
        }
        for i in 0..k {
            heap(k - 1, p, out);
            let j = if k.is_multiple_of(2) { i } else { 0 };
            p.swap(j, k - 1);
        }
    }
    let mut out = Vec::new();
    heap(n, &mut (0..n).collect(), &mut out);
    out
}

/// The settling rate in case order and over every visiting order.
fn settling(law: &Law, a: &DMatrix<f64>, h: f64) -> Option<Settling> {
    let case_order = slowest_rate(law, a, Step::SoftRelax, h)?;
    let n = a.nrows();
    let (mut min, mut max) = (None::<f64>, None::<f64>);
    if n <= 6 {
        let soft = law.soft.as_ref()?;
        for p in permutations(n) {
            let pick = |v: &[f64]| p.iter().map(|&i| v[i]).collect::<Vec<f64>>();
            let permuted = Law {
                p: DMatrix::identity(n, n),
                k: pick(&law.k),
                b: pick(&law.b),
                soft: Some(law::Soft {
                    mass: pick(&soft.mass),
                    cf: pick(&soft.cf),
                    bias: pick(&soft.bias),
                }),
            };
            let ap = DMatrix::from_fn(n, n, |i, j| a[(p[i], p[j])]);
            if let Some(r) = slowest_rate(&permuted, &ap, Step::SoftRelax, h) {
                min = Some(min.map_or(r, |m| m.min(r)));
                max = Some(max.map_or(r, |m| m.max(r)));
            }
        }
    }
    Some(Settling {
        case_order,
        min,
        max,
    })
}

/// The spread of contact frequencies under one shared setting.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Spread {
    /// Slowest contact (rad/s).
    pub min: f64,
    /// Fastest contact (rad/s).
    pub max: f64,
    /// `max/min`.
    pub ratio: f64,
}

/// What the engine translations need from the analysis.
pub struct Inputs {
    /// The exact Delassus matrix (dense).
    pub a: DMatrix<f64>,
    /// `J_i M⁻¹ J_iᵀ` without the case's joints and equality constraints:
    /// the per-point value engines that solve contacts pairwise compute.
    pub a_free: Vec<f64>,
    /// MuJoCo's `invweight0` estimate of `A_ii` per contact, where the
    /// case has bodies.
    pub a_mujoco: Option<Vec<f64>>,
    /// Per contact: against the world (engines stiffen those).
    pub static_contact: Vec<bool>,
    /// Per contact: the case's stiffness and damping (targets).
    pub targets: Vec<(f64, f64)>,
    /// Per contact name.
    pub names: Vec<String>,
    /// Per contact, Drake SAP's Delassus block (where the case has a
    /// `[engine.drake]`).
    pub sap: Option<Vec<sap::SapBlock>>,
}

/// A translated engine before the common analysis.
struct Translated {
    engine: Engine,
    source: &'static str,
    settings: Vec<(String, String)>,
    step: f64,
    integrator: Step,
    /// `None`: the contacts are rigid (no spring to report).
    law: Option<Law>,
    /// Per contact: the engine's estimate of `A_ii`.
    estimate: Vec<Option<f64>>,
    /// Per contact: what the engine intends.
    intended: Vec<Option<Pole>>,
    inverse: Vec<Vec<(String, String)>>,
    /// Per contact: the stiffness set where the engine caps it.
    k_set: Vec<Option<f64>>,
    notes: Vec<String>,
    /// Lines shared by the contacts, and per contact.
    lines: Vec<derivation::Line>,
    contact_lines: Vec<Vec<derivation::Line>>,
    /// The one world-wide setting (Box2D, Rapier).
    world: Option<world::WorldSetting>,
}

/// All engines of a case, in the order of [`Engine::ALL`]; an engine
/// whose settings translate to numbers out of range (an overflowing
/// spring, a zero or infinite step) is an error naming it, never a report
/// of `∞` or a silent 0.
pub fn analyze(case: &Case, inputs: &Inputs) -> Result<Vec<EngineReport>, (Engine, String)> {
    let e = &case.engines;
    let mut out = Vec::new();
    for engine in Engine::ALL {
        let translated = match engine {
            Engine::Mujoco => e.mujoco.as_ref().map(|s| settings::mujoco(s, inputs)),
            Engine::Box2d => e.box2d.as_ref().map(|s| settings::box2d(s, inputs)),
            Engine::Bullet => e.bullet.as_ref().map(|s| settings::bullet(s, inputs)),
            Engine::Drake => e.drake.as_ref().map(|s| settings::drake(s, inputs)),
            Engine::Rapier => e.rapier.as_ref().map(|s| settings::rapier(s, inputs)),
        };
        if let Some(t) = translated {
            validate(&t, inputs).map_err(|m| (t.engine, m))?;
            out.push(report(t, inputs));
        }
    }
    Ok(out)
}

/// The numbers a translation hands to the analysis are in range: a finite
/// positive step, springs and dashpots finite (springs positive and
/// normal, so that a frequency and a period exist), the coupling matrix
/// finite, the engine's estimates finite, and the fastest spring's ω·h
/// finite.
fn validate(t: &Translated, inputs: &Inputs) -> Result<(), String> {
    let finite_pos = |x: f64| x.is_finite() && x > 0.0 && x.is_normal();
    if !finite_pos(t.step) {
        return Err(format!(
            "the time step comes to {} s: it must be a finite positive number",
            t.step
        ));
    }
    if let Some(law) = &t.law {
        for (i, (&k, &b)) in law.k.iter().zip(&law.b).enumerate() {
            let name = inputs.names.get(i).map(String::as_str).unwrap_or("?");
            if !finite_pos(k) {
                return Err(format!(
                    "contact `{name}`: the settings give a spring of {k} N/m, outside what 64-bit floating point represents or not positive"
                ));
            }
            if !(b.is_finite() && b >= 0.0) {
                return Err(format!(
                    "contact `{name}`: the settings give a dashpot of {b} N·s/m, which is not a finite non-negative number"
                ));
            }
            let a_ii = inputs.a[(i, i)];
            let omega_h = (k * a_ii.max(0.0)).sqrt() * t.step;
            if !omega_h.is_finite() || !(b * a_ii.max(0.0) * t.step).is_finite() {
                return Err(format!(
                    "contact `{name}`: with this step the spring's ω·h overflows"
                ));
            }
        }
        if law.p.iter().any(|x| !x.is_finite()) {
            return Err("the settings give a contact coupling that is not finite".into());
        }
        if let Some(s) = &law.soft
            && s.mass
                .iter()
                .chain(&s.cf)
                .chain(&s.bias)
                .any(|x| !x.is_finite())
        {
            return Err("the soft-contact coefficients the settings give are not finite".into());
        }
    }
    if t.estimate.iter().flatten().any(|e| !e.is_finite()) {
        return Err("the engine's own estimate of the inverse mass is not finite".into());
    }
    Ok(())
}

/// The per-contact (one contact alone) law: row and column `i`.
fn single(law: &Law, i: usize, a_ii: f64) -> (Law, DMatrix<f64>) {
    (
        Law {
            p: DMatrix::from_element(1, 1, law.p[(i, i)]),
            k: vec![law.k[i]],
            b: vec![law.b[i]],
            soft: law.soft.as_ref().map(|s| law::Soft {
                mass: vec![s.mass[i]],
                cf: vec![s.cf[i]],
                bias: vec![s.bias[i]],
            }),
        },
        DMatrix::from_element(1, 1, a_ii),
    )
}

fn report(t: Translated, inputs: &Inputs) -> EngineReport {
    let a = &inputs.a;
    let n = a.nrows();
    let mut contacts = Vec::with_capacity(n);
    let mut omegas = Vec::new();
    for i in 0..n {
        let a_ii = a[(i, i)];
        let mut c = EngineContact {
            name: inputs.names[i].clone(),
            m_eff: 1.0 / a_ii,
            m_engine: t.estimate[i].map(|e| 1.0 / e),
            a_error: t.estimate[i].map(|e| (e - a_ii) / a_ii),
            k: None,
            k_set: t.k_set.get(i).copied().flatten(),
            c: None,
            exact: None,
            intended: t.intended[i],
            at_step: None,
            omega_h: None,
            inverse: t.inverse[i].clone(),
            lines: t.contact_lines.get(i).cloned().unwrap_or_default(),
        };
        if a_ii <= 0.0 {
            // Immobile: the case's constraints hold the gap; no setting moves it.
            c.a_error = None;
            c.intended = None;
            c.inverse = vec![(
                "note".into(),
                "immobile: the constraints hold this gap, no setting changes it".into(),
            )];
            c.lines.clear();
        }
        if let Some(law) = &t.law
            && a_ii > 0.0
        {
            // Alone, the contact's force is −p_ii (k′ g + b′ ġ) (for MuJoCo
            // p_ii = 1/(A_ii + R_i): its R is from the estimate).
            let (one, a1) = single(law, i, a_ii);
            c.k = Some(one.p[(0, 0)] * one.k[0]);
            c.c = Some(one.p[(0, 0)] * one.b[0]);
            c.exact = one.modes(&a1).first().copied();
            // One contact: its mode; a relaxing step's slowest rate is how
            // the contact settles (the faster ones are gone in a substep).
            let step_modes = one.step_modes(&a1, t.integrator, t.step).0;
            c.at_step = if t.integrator == Step::SoftRelax {
                step_modes.last().copied()
            } else {
                step_modes.first().copied()
            };
            if let Some(e) = c.exact {
                c.omega_h = Some(e.omega * t.step);
                omegas.push(e.omega);
            }
        }
        contacts.push(c);
    }
    let (mut modes, mut spectral_radius, mut step_modes) = (Vec::new(), None, Vec::new());
    let mut settled = None;
    if let Some(law) = &t.law
        && n > 0
    {
        let exact = law.modes(a);
        let (at_step, radius) = law.step_modes(a, t.integrator, t.step);
        spectral_radius = Some(radius);
        // Paired mode by mode where the step keeps the continuous modes'
        // structure.
        let paired = t.integrator != Step::SoftRelax && at_step.len() == exact.len();
        modes = exact
            .iter()
            .enumerate()
            .map(|(k, &e)| EngineMode {
                exact: e,
                at_step: if paired {
                    at_step.get(k).copied()
                } else {
                    None
                },
            })
            .collect();
        step_modes = at_step;
        if t.integrator == Step::SoftRelax {
            settled = settling(law, a, t.step);
        }
    }
    let spread = (omegas.len() > 1).then(|| {
        let max = omegas.iter().fold(0.0f64, |m, &w| m.max(w));
        let min = omegas.iter().fold(f64::INFINITY, |m, &w| m.min(w));
        Spread {
            min,
            max,
            ratio: max / min,
        }
    });
    EngineReport {
        engine: t.engine,
        name: t.engine.name(),
        source: t.source,
        settings: t.settings,
        step: t.step,
        integrator: t.integrator.name(),
        contacts,
        modes,
        step_modes,
        stable: spectral_radius.map(|r| r < 1.0 + 1e-9),
        spectral_radius,
        settling: settled,
        spread,
        world_setting: t.world,
        notes: t.notes,
        lines: t.lines,
    }
}

/// Gathers what the translations need; `None` on the large-system path
/// (no dense A) or without contacts.
pub fn inputs(
    case: &Case,
    model: &crate::model::Model<f64>,
    system: &crate::model::System<f64>,
    analysis: &crate::analysis::Analysis,
) -> Option<Inputs> {
    use crate::model::{Geometry, Kind};
    if analysis.large.is_some() || analysis.delassus.nrows() == 0 {
        return None;
    }
    let free = crate::analysis::delassus::delassus(system).ok()?;
    let a_mujoco = match (&model.kind, &case.form) {
        (_, crate::case::Form::Robot(r)) => Some(robot_invweight(case, r)),
        (Kind::Bodies { bodies, .. }, _) => {
            // A free body's translational inverse mass at its centre of mass,
            // averaged over three axes: 1/m in 3-d; a planar body (two slides
            // and a hinge in MJCF) has no motion along the third axis.
            let share = model.space.dim() as f64 / 3.0;
            let w = |b: Option<usize>| b.and_then(|b| bodies[b].mass()).map_or(0.0, |m| share / m);
            Some(
                model
                    .contacts
                    .iter()
                    .map(|c| match &c.geometry {
                        Geometry::Point { body, other, .. } => w(Some(*body)) + w(*other),
                        Geometry::Jacobian(_) => f64::NAN,
                    })
                    .collect(),
            )
        }
        _ => None,
    };
    let static_contact = case
        .contacts
        .iter()
        .map(|c| match &c.geometry {
            crate::case::ContactGeometry::Point { other, .. } => other.is_none(),
            crate::case::ContactGeometry::Link { other, .. } => other.is_none(),
            crate::case::ContactGeometry::Jacobian(_) => false,
        })
        .collect();
    Some(Inputs {
        a: analysis.delassus.clone(),
        a_free: free.unconstrained,
        a_mujoco,
        static_contact,
        targets: model
            .contacts
            .iter()
            .map(|c| (c.stiffness, c.damping.unwrap_or(0.0)))
            .collect(),
        names: model.contacts.iter().map(|c| c.name.clone()).collect(),
        sap: case
            .engines
            .drake
            .is_some()
            .then(|| sap_blocks(case, model, system)),
    })
}

/// Drake SAP's block `W_ii = J_i diag(M)⁻¹ J_iᵀ` of every contact, over its
/// normal and tangent rows ([`sap`]).
fn sap_blocks(
    case: &Case,
    model: &crate::model::Model<f64>,
    system: &crate::model::System<f64>,
) -> Vec<sap::SapBlock> {
    use crate::model::{ContactRows, Geometry, Kind};
    let m = system.dense_mass();
    let diag: Vec<f64> = (0..m.len()).map(|j| m[j][j]).collect();
    // The contact's axes: its normal, then its tangents (given, or the
    // default rule's).
    let axes_of = |i: usize, normal: &[f64]| -> Vec<Vec<f64>> {
        let mut axes = vec![normal.to_vec()];
        match &model.contacts[i].tangential {
            Some(t) => axes.extend(t.basis.iter().cloned()),
            None => axes
                .extend(crate::case::tangential::tangent_basis(normal, None).unwrap_or_default()),
        }
        axes
    };
    if let crate::case::Form::Robot(r) = &case.form {
        let sys = crate::model::robot::robot_system(
            case,
            r,
            &mut |v: &crate::case::Val| Ok::<f64, std::convert::Infallible>(v.si),
            r.armature,
        )
        .unwrap_or_else(|e| match e {});
        return sys
            .axis_rows
            .iter()
            .zip(&sys.points)
            .enumerate()
            .map(|(i, (rows, (_, n)))| sap::block(rows, &axes_of(i, &[n.x, n.y, n.z]), &diag, true))
            .collect();
    }
    let rows = ContactRows::new(model);
    let d = model.space.dim();
    model
        .contacts
        .iter()
        .enumerate()
        .map(|(i, c)| match (&model.kind, &c.geometry) {
            (Kind::Bodies { .. }, Geometry::Point { normal, .. }) => {
                let world: Vec<Vec<f64>> = (0..d)
                    .map(|k| {
                        let e: Vec<f64> = (0..d).map(|j| if j == k { 1.0 } else { 0.0 }).collect();
                        let mut row = Vec::new();
                        rows.direction_row_into(i, &e, &mut row);
                        system.dense_row(&row)
                    })
                    .collect();
                sap::block(&world, &axes_of(i, normal), &diag, true)
            }
            // A contact given by its normal row: no tangents to add.
            _ => sap::block(
                &[system.dense_row(&system.jacobian[i])],
                &[vec![1.0]],
                &diag,
                false,
            ),
        })
        .collect()
}

/// MuJoCo's `body_invweight0[2b]` for each contact's bodies, summed: the
/// trace of `J_com M⁻¹ J_comᵀ`'s translational block over 3, at the
/// model's reference configuration `qpos0` (engine_setconst.c); a body of
/// the case (beside the model) is free: 1/m.
fn robot_invweight(case: &Case, r: &crate::case::RobotForm) -> Vec<f64> {
    use crate::case::{BodyKind, ContactGeometry, Side};
    let tree = &r.robot.tree;
    let kin = tree.kinematics(&tree.qpos0);
    let nv = tree.nv;
    let m = DMatrix::from_row_slice(nv, nv, &tree.mass_matrix(&kin, r.armature));
    let weight = |side: &Side| -> f64 {
        match side {
            Side::Model(b) => {
                let com = tree.place(&kin, *b, &tree.bodies[*b].com);
                let rows = crate::analysis::robot::point_rows(tree, &kin, *b, &com, nv);
                crate::linalg::response(&m, &[], &rows).map_or(f64::NAN, |inv| inv.trace() / 3.0)
            }
            Side::Case(i) => match &r.bodies[*i].kind {
                BodyKind::Particle { mass } | BodyKind::Rigid { mass, .. } => 1.0 / mass.si,
                BodyKind::Fixed => 0.0,
            },
        }
    };
    case.contacts
        .iter()
        .map(|c| match &c.geometry {
            ContactGeometry::Link { body, other, .. } => {
                weight(body) + other.as_ref().map_or(0.0, weight)
            }
            _ => f64::NAN,
        })
        .collect()
}
