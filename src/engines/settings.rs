//! Each engine's settings → its linear contact law, its mass estimate, what
//! it intends, and the inverse: settings for the case's own stiffness and
//! damping. Every formula is cited to the engine's source in
//! docs/engines.md.

use super::derivation::{self as dv, Line};
use super::law::{Law, Pole, Soft, Step};
use super::{Inputs, Translated};
use crate::case::{
    Box2dSettings, BulletSettings, DrakeApproximation, DrakeSettings, Engine, MujocoIntegrator,
    MujocoSettings, RapierSettings,
};
use nalgebra::DMatrix;
use std::f64::consts::PI;

/// A number for a settings table: 6 significant digits.
fn num(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    let e = x.abs().log10().floor() as i32;
    if (-3..6).contains(&e) {
        let digits = (5 - e).max(0) as usize;
        let s = format!("{x:.digits$}");
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    } else {
        let t = format!("{x:.5e}");
        let (mantissa, exp) = t.split_once('e').unwrap_or((&t, "0"));
        let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
        format!("{mantissa}e{exp}")
    }
}

/// The case's target for contact `i`: ω and ζ with the exact mass.
fn target(inputs: &Inputs, i: usize) -> (f64, f64) {
    let (k, c) = inputs.targets[i];
    let a = inputs.a[(i, i)];
    let w = (k * a).sqrt();
    (w, c * a / (2.0 * w))
}

fn diag_law(k: Vec<f64>, b: Vec<f64>) -> Law {
    let n = k.len();
    Law {
        p: DMatrix::identity(n, n),
        k,
        b,
        soft: None,
    }
}

/// MuJoCo's impedance `d(r)` (`getimpedance` in engine_core_constraint.c).
pub fn impedance(solimp: &[f64; 5], r: f64) -> f64 {
    let [d0, d1, width, mid, power] = *solimp;
    if d0 == d1 || width <= 1e-15 {
        return 0.5 * (d0 + d1);
    }
    let x = (r / width).abs();
    if x >= 1.0 {
        return d1;
    }
    if x <= 0.0 {
        return d0;
    }
    let y = if power == 1.0 {
        x
    } else if x <= mid {
        x.powf(power) / mid.powf(power - 1.0)
    } else {
        1.0 - (1.0 - x).powf(power) / (1.0 - mid).powf(power - 1.0)
    };
    d0 + y * (d1 - d0)
}

pub(super) fn mujoco(s: &MujocoSettings, inputs: &Inputs) -> Translated {
    let n = inputs.a.nrows();
    let h = s.timestep.si;
    let mut notes = Vec::new();
    let mut solref = s.solref;
    // `getsolparam`: timeconst ≥ 2·timestep unless refsafe is disabled.
    if solref[0] > 0.0 && solref[0] < 2.0 * h {
        notes.push(format!(
            "solref timeconst {} s is below 2·timestep: MuJoCo raises it to {} s (refsafe)",
            num(solref[0]),
            num(2.0 * h)
        ));
        solref[0] = 2.0 * h;
    }
    let dmax = s.solimp[1];
    let r0 = s.penetration.as_ref().map_or(0.0, |p| p.si);
    let imp = impedance(&s.solimp, r0);
    // `mj_makeImpedance`: K, B per row.
    let (kk, bb) = if solref[0] > 0.0 {
        (
            1.0 / (dmax * dmax * solref[0] * solref[0] * solref[1] * solref[1]),
            2.0 / (dmax * solref[0]),
        )
    } else {
        (-solref[0] / (dmax * dmax), -solref[1] / dmax)
    };
    let estimate: Vec<f64> = match &inputs.a_mujoco {
        Some(e) => e.clone(),
        None => {
            notes.push(
                "the case has no bodies, so MuJoCo's invweight0 estimate cannot be formed: \
                 its R is taken from the exact A_ii"
                    .into(),
            );
            (0..n).map(|i| inputs.a[(i, i)]).collect()
        }
    };
    // R = (1 − d)/d · diagApprox; f = (A + R)⁻¹(aref − a0), aref = −B ġ − K d g.
    let r: Vec<f64> = estimate
        .iter()
        .map(|e| ((1.0 - imp) * e / imp).max(1e-15))
        .collect();
    let mut apr = inputs.a.clone();
    for i in 0..n {
        apr[(i, i)] += r[i];
    }
    let p = apr
        .clone()
        .try_inverse()
        .unwrap_or_else(|| DMatrix::from_element(n, n, f64::NAN));
    let regular = s.solimp[0] != s.solimp[1] && s.solimp[2] > 1e-15;
    let lines = dv::mujoco_engine(
        solref,
        dmax,
        (r0 == 0.0 && regular).then_some(s.solimp[0]),
        imp,
        kk,
        bb,
    );
    let mut contact_lines: Vec<Vec<Line>> = (0..n)
        .map(|i| {
            dv::mujoco_contact(&dv::MujocoContact {
                a_hat: estimate[i],
                a: inputs.a[(i, i)],
                r: r[i],
                imp,
                kk,
                bb,
                p_ii: (n > 1).then(|| p[(i, i)]),
            })
        })
        .collect();
    let law = Law {
        p,
        k: vec![kk * imp; n],
        b: vec![bb; n],
        soft: None,
    };
    // What MuJoCo intends: with diagApprox = A_ii, A/(A + R) = d.
    let intended_w = imp * kk.sqrt();
    let intended = Pole {
        omega: intended_w,
        zeta: imp * bb / (2.0 * intended_w),
        first_order: false,
    };
    let mut inverse = Vec::with_capacity(n);
    for i in 0..n {
        let a = inputs.a[(i, i)];
        let g = a / (a + r[i]);
        let (w, z) = target(inputs, i);
        let (kt, ct) = inputs.targets[i];
        contact_lines[i].extend(dv::target(kt, ct, a, w, z));
        contact_lines[i].extend(dv::mujoco_inverse(a, r[i], imp, dmax, w, z));
        let v = mujoco_solref(g, imp, dmax, w, z, h);
        inverse.push(v);
    }
    let integrator = match s.integrator {
        MujocoIntegrator::Euler => Step::SemiImplicit,
        MujocoIntegrator::Rk4 => Step::Rk4,
    };
    // The law is linearised at one penetration: d is taken there, its
    // slope is left out either way.
    notes.push(format!(
        "impedance d = {} at {}; its slope with penetration (solimp width {} m) is left out",
        num(imp),
        if s.penetration.is_some() {
            format!("the given penetration {} m", num(r0))
        } else {
            "zero penetration".to_string()
        },
        num(s.solimp[2])
    ));
    notes.push(
        "frictionless contacts (condim 1): friction rows add tangential dampers that meff's normal-only A does not hold"
            .into(),
    );
    Translated {
        engine: Engine::Mujoco,
        source: "MuJoCo 3–4: mj_makeImpedance, getimpedance, getsolparam, mj_diagApprox (engine_core_constraint.c), body_invweight0 (engine_setconst.c)",
        settings: mujoco_settings(s, h, r0),
        step: h,
        integrator,
        law: Some(law),
        estimate: estimate.into_iter().map(Some).collect(),
        intended: vec![Some(intended); n],
        inverse,
        k_set: Vec::new(),
        notes,
        lines,
        contact_lines,
        world: None,
    }
}

/// MuJoCo's settings as used, defaults filled in.
fn mujoco_settings(s: &MujocoSettings, h: f64, r0: f64) -> Vec<(String, String)> {
    vec![
        ("timestep".into(), format!("{} s", num(h))),
        (
            "solref".into(),
            format!("[{}, {}]", num(s.solref[0]), num(s.solref[1])),
        ),
        (
            "solimp".into(),
            format!(
                "[{}]",
                s.solimp
                    .iter()
                    .map(|&x| num(x))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        ("integrator".into(), s.integrator.name().into()),
    ]
    .into_iter()
    .chain(
        s.penetration
            .is_some()
            .then(|| ("penetration".to_string(), format!("{} m", num(r0)))),
    )
    .collect()
}

/// MuJoCo's `solref` (standard where the case has damping, and direct)
/// for the case's ω, ζ with the estimate's `g = A_ii/(A_ii + R)`.
fn mujoco_solref(g: f64, imp: f64, dmax: f64, w: f64, z: f64, h: f64) -> Vec<(String, String)> {
    let mut v = vec![(
        "solref (direct)".to_string(),
        format!(
            "[{}, {}]",
            num(-w * w * dmax * dmax / (g * imp)),
            num(-2.0 * z * w * dmax / g)
        ),
    )];
    if z > 0.0 {
        let tc = g / (dmax * z * w);
        let dr = z * (imp / g).sqrt();
        v.insert(
            0,
            ("solref".to_string(), format!("[{}, {}]", num(tc), num(dr))),
        );
        if tc < 2.0 * h {
            v.push((
                "note".into(),
                format!(
                    "timeconst below 2·timestep ({} s): only the direct form reaches it",
                    num(2.0 * h)
                ),
            ));
        }
    }
    v
}

/// Box2D and Rapier follow the soft solve of each substep with relax
/// iterations without the soft bias.
const RELAX: &str = "the step relaxes the contact velocity after the soft solve (b2SolverStage_Relax; Rapier's stabilization pass): a resting contact does not ring at the spring's ω but settles first-order, at the rate under 'at step' (checked against Rapier 0.36 runs: a ball, a hinged rod, two stacked balls, to 1 %); with several contacts the rate depends on the order the solver visits them: the settling line gives case order and the range over all orders";

/// A soft contact's law, estimates, intended poles and lines per contact.
type SoftParts = (Law, Vec<Option<f64>>, Vec<Option<Pole>>, Vec<Vec<Line>>);

/// Box2D's and Rapier's soft contact: per point a spring `m̂ω²` and
/// dashpot `2ζm̂ω` on the point's own mass `m̂`, advanced implicitly.
fn soft(
    inputs: &Inputs,
    h: f64,
    hz: impl Fn(usize) -> f64,
    zeta: impl Fn(usize) -> f64,
) -> SoftParts {
    let n = inputs.a.nrows();
    let (mut k, mut b, mut est, mut intended) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut lines = Vec::with_capacity(n);
    let (mut mass, mut cf, mut bias) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..n {
        let w = 2.0 * PI * hz(i);
        let z = zeta(i);
        let m = 1.0 / inputs.a_free[i];
        k.push(m * w * w);
        b.push(2.0 * z * m * w);
        let doubled = inputs.static_contact[i];
        let written = if doubled { 0.5 * hz(i) } else { hz(i) };
        let mut l = dv::soft(
            inputs.a_free[i],
            written,
            doubled,
            z,
            m * w * w,
            2.0 * z * m * w,
        );
        // The inverse (the case's own k and c through the same contact).
        let (wt, zt) = target(inputs, i);
        let (kt, ct) = inputs.targets[i];
        l.extend(dv::target(kt, ct, inputs.a[(i, i)], wt, zt));
        let s = (inputs.a[(i, i)] / inputs.a_free[i]).sqrt();
        let f = if doubled { 0.5 } else { 1.0 } * wt / s / (2.0 * PI);
        l.extend(dv::soft_inverse(
            inputs.a[(i, i)],
            inputs.a_free[i],
            wt,
            zt,
            doubled,
            f,
        ));
        lines.push(l);
        est.push(Some(inputs.a_free[i]));
        intended.push(Some(Pole {
            omega: w,
            zeta: z,
            first_order: false,
        }));
        // b2MakeSoft: a₂ = hω(2ζ + hω), massScale = a₂/(1 + a₂),
        // biasRate = ω/(2ζ + hω) (Rapier's cfm_factor and erp_inv_dt agree).
        let a2 = h * w * (2.0 * z + h * w);
        mass.push(m);
        cf.push(a2 / (1.0 + a2));
        bias.push(w / (2.0 * z + h * w));
    }
    let mut law = diag_law(k, b);
    law.soft = Some(Soft { mass, cf, bias });
    (law, est, intended, lines)
}

/// The frequency (Hz, as written: half against the world) and damping
/// ratio that give contact `i` the case's ω and ζ through a soft contact.
fn soft_target(inputs: &Inputs, i: usize) -> (f64, f64) {
    let (w, z) = target(inputs, i);
    let s = (inputs.a[(i, i)] / inputs.a_free[i]).sqrt();
    let written = if inputs.static_contact[i] { 0.5 } else { 1.0 };
    (written * w / s / (2.0 * PI), z / s)
}

/// Settings (frequency in Hz as written, damping ratio) that give contact
/// `i` the case's ω and ζ through a soft contact on the point mass `m̂`
/// (a contact against the world runs at twice the written frequency); a
/// note when the frequency is above the engine's `cap` (Hz).
fn soft_inverse(
    inputs: &Inputs,
    i: usize,
    hz: &str,
    ratio: &str,
    cap: Option<f64>,
) -> Vec<(String, String)> {
    let (f, zs) = soft_target(inputs, i);
    let mut v = vec![
        (hz.to_string(), format!("{} Hz", num(f))),
        (ratio.to_string(), num(zs)),
    ];
    if let Some(cap) = cap.filter(|&cap| f > cap) {
        v.push((
            "note".into(),
            format!(
                "above the cap of {} Hz at this substep: unreachable",
                num(cap)
            ),
        ));
    }
    v
}

/// What Box2D's and Rapier's soft contacts share: one frequency (doubled
/// against the world) and one damping ratio for every contact, solved
/// implicitly over the substep `h`; only the names, the cap and the notes
/// differ.
struct SoftEngine {
    engine: Engine,
    source: &'static str,
    /// The settings' names for the frequency and the damping ratio.
    keys: (&'static str, &'static str),
    timestep: f64,
    substeps: usize,
    /// The frequency as typed, and as the engine uses it (capped).
    typed_hz: f64,
    hz: f64,
    zeta: f64,
    cap: Option<f64>,
    notes: Vec<String>,
    solve_note: &'static str,
}

fn soft_engine(e: SoftEngine, inputs: &Inputs) -> Translated {
    let n = inputs.a.nrows();
    let h = e.timestep / e.substeps as f64;
    let (law, estimate, intended, contact_lines) = soft(
        inputs,
        h,
        |i| {
            if inputs.static_contact[i] {
                2.0 * e.hz
            } else {
                e.hz
            }
        },
        |_| e.zeta,
    );
    let targets: Vec<(f64, f64)> = (0..n).map(|i| soft_target(inputs, i)).collect();
    let world = super::world::world_setting(
        &targets.iter().map(|t| t.0).collect::<Vec<_>>(),
        &targets.iter().map(|t| t.1).collect::<Vec<_>>(),
        e.keys,
        e.timestep,
        e.substeps,
        e.cap.map(|c| c * h),
        num,
    );
    let mut notes = e.notes;
    notes.push(e.solve_note.into());
    notes.push(RELAX.into());
    Translated {
        engine: e.engine,
        source: e.source,
        settings: vec![
            ("timestep".into(), format!("{} s", num(e.timestep))),
            ("substeps".into(), e.substeps.to_string()),
            (e.keys.0.into(), format!("{} Hz", num(e.typed_hz))),
            (e.keys.1.into(), num(e.zeta)),
        ],
        step: h,
        integrator: Step::SoftRelax,
        law: Some(law),
        estimate,
        intended,
        inverse: (0..n)
            .map(|i| soft_inverse(inputs, i, e.keys.0, e.keys.1, e.cap))
            .collect(),
        k_set: Vec::new(),
        notes,
        lines: Vec::new(),
        contact_lines,
        world,
    }
}

pub(super) fn box2d(s: &Box2dSettings, inputs: &Inputs) -> Translated {
    let h = s.timestep.si / s.substeps as f64;
    let mut notes = Vec::new();
    // b2PrepareStagesTask / world step: contactHertz ≤ 1/8 of the substep rate.
    let cap = 0.125 / h;
    if s.contact_hertz.si > cap {
        notes.push(format!(
            "contact_hertz {} Hz is above an eighth of the substep rate: Box2D uses {} Hz",
            num(s.contact_hertz.si),
            num(cap)
        ));
    }
    if inputs.static_contact.iter().any(|&x| x) {
        notes
            .push("contacts against the world use twice the hertz (Box2D's staticSoftness)".into());
    }
    let e = SoftEngine {
        engine: Engine::Box2d,
        source: "Box2D v3.1: b2MakeSoft (solver.h), contact softness in b2PrepareContactsTask (contact_solver.c), world step (physics_world.c)",
        keys: ("contact_hertz", "contact_damping_ratio"),
        timestep: s.timestep.si,
        substeps: s.substeps,
        typed_hz: s.contact_hertz.si,
        hz: s.contact_hertz.si.min(cap),
        zeta: s.contact_damping_ratio,
        cap: Some(cap),
        notes,
        solve_note: "the soft solve is implicit Euler for a spring and dashpot on each point's own normal mass (the k and c above)",
    };
    soft_engine(e, inputs)
}

pub(super) fn rapier(s: &RapierSettings, inputs: &Inputs) -> Translated {
    let mut notes = Vec::new();
    if inputs.static_contact.iter().any(|&x| x) {
        notes.push(
            "contacts against the world use static_contact_softness (twice the frequency by default)".into(),
        );
    }
    let f = s.contact_natural_frequency.si;
    let e = SoftEngine {
        engine: Engine::Rapier,
        source: "Rapier 0.3x: SpringCoefficients::erp_inv_dt, cfm_coeff, cfm_factor (dynamics/integration_parameters.rs)",
        keys: ("contact_natural_frequency", "contact_damping_ratio"),
        timestep: s.timestep.si,
        substeps: s.substeps,
        typed_hz: f,
        hz: f,
        zeta: s.contact_damping_ratio,
        cap: None,
        notes,
        solve_note: "erp and cfm_factor are implicit Euler for a spring and dashpot on the point's projected mass (the k and c above)",
    };
    soft_engine(e, inputs)
}

pub(super) fn bullet(s: &BulletSettings, inputs: &Inputs) -> Translated {
    let n = inputs.a.nrows();
    let h = s.timestep.si;
    let mut notes = Vec::new();
    // cfm = 1/(h k + c), erp = h k/(h k + c) (btSequentialImpulseConstraintSolver::
    // setupContactConstraint), so k = erp/(h cfm), c = (1 − erp)/cfm.
    let spring = match &s.spring {
        Some((k, c)) => Some((k.si, c.si)),
        None if s.cfm > 0.0 && s.erp > 0.0 => Some((s.erp / (h * s.cfm), (1.0 - s.erp) / s.cfm)),
        None => None,
    };
    let law = spring.map(|(k, c)| diag_law(vec![k; n], vec![c; n]));
    let lines = match (&s.spring, spring) {
        (None, Some((k, c))) => dv::bullet_spring(h, s.erp, s.cfm, k, c),
        _ => Vec::new(),
    };
    let contact_lines = inputs
        .targets
        .iter()
        .map(|&(k, c)| dv::bullet_inverse(h, k, c))
        .collect();
    if spring.is_none() {
        notes.push(format!(
            "cfm = 0: the contacts are rigid; the penetration is removed by a factor 1 − erp = {} per step, a time constant of {} s",
            num(1.0 - s.erp),
            num(-h / (1.0 - s.erp).ln())
        ));
    }
    notes.push(
        "Bullet and ODE use the exact per-point inverse mass: no estimate enters; the coupled modes assume the solver's iterations reach the block solve"
            .into(),
    );
    let mut settings = vec![("timestep".into(), format!("{} s", num(h)))];
    match &s.spring {
        Some((k, c)) => {
            settings.push(("stiffness".into(), format!("{} N/m", num(k.si))));
            settings.push(("damping".into(), format!("{} N s/m", num(c.si))));
        }
        None => {
            settings.push(("erp".into(), num(s.erp)));
            settings.push(("cfm".into(), num(s.cfm)));
        }
    }
    Translated {
        engine: Engine::Bullet,
        source: "Bullet 3.2x: btSequentialImpulseConstraintSolver::setupContactConstraint (erp, cfm from stiffness and damping); ODE's ERP–CFM spring",
        settings,
        step: h,
        integrator: Step::Implicit,
        law,
        estimate: vec![None; n],
        intended: vec![None; n],
        inverse: (0..n)
            .map(|i| {
                let (k, c) = inputs.targets[i];
                vec![
                    ("stiffness".into(), format!("{} N/m", num(k))),
                    ("damping".into(), format!("{} N s/m", num(c))),
                    ("erp".into(), num(h * k / (h * k + c))),
                    ("cfm".into(), num(1.0 / (h * k + c))),
                ]
            })
            .collect(),
        k_set: Vec::new(),
        notes,
        lines,
        contact_lines,
        world: None,
    }
}

/// What the sheet says of Drake SAP's estimate `w` (and of a contact
/// whose tangent rows are unknown).
fn sap_notes(inputs: &Inputs) -> Vec<String> {
    let mut notes = Vec::new();
    notes.push(
            "Drake's estimate of each contact's inverse mass (SapModel::CalcDelassusDiagonalApproximation): ŵ = ‖W_ii‖_F/3, W_ii = J_i diag(M)⁻¹ J_iᵀ over the contact's three rows (normal and two tangents) with M's diagonal only; it is the Â_ii of the lines below"
                .into(),
        );
    if inputs
        .sap
        .as_ref()
        .is_some_and(|v| v.iter().any(|b| !b.tangents))
    {
        notes.push(
                "a contact given by its Jacobian row has no tangent rows: ŵ is taken from its normal entry alone, W_nn/3, below Drake's ‖W_ii‖_F/3 (a lower bound)"
                    .into(),
            );
    }
    notes
}

/// Drake SAP's `w_i` of contact `i` ([`super::sap`]); the per-point
/// `J_i M⁻¹ J_iᵀ` where no block was formed.
fn sap_estimate(inputs: &Inputs, i: usize) -> f64 {
    inputs
        .sap
        .as_ref()
        .and_then(|v| v.get(i))
        .map_or(inputs.a_free[i], super::sap::SapBlock::estimate)
}

pub(super) fn drake(s: &DrakeSettings, inputs: &Inputs) -> Translated {
    let n = inputs.a.nrows();
    let h = s.timestep.si;
    let k = s.stiffness.si;
    let mut notes = Vec::new();
    let (mut lines, mut contact_lines) = (Vec::new(), vec![Vec::new(); n]);
    let (ks, cs): (Vec<f64>, Vec<f64>) = match s.approximation {
        DrakeApproximation::Sap => {
            let tau = s.relaxation_time.si;
            let beta = s.near_rigid_threshold;
            // SapFrictionConeConstraint: Rn = max(β²/(4π²)·w, 1/(h k (h + τ))),
            // w Drake's own estimate ‖W_ii‖_F/3 (sap.rs).
            (0..n)
                .map(|i| {
                    let w = sap_estimate(inputs, i);
                    let rn = (beta * beta / (4.0 * PI * PI) * w).max(1.0 / (h * k * (h + tau)));
                    let ke = 1.0 / (h * (h + tau) * rn);
                    if let Some(b) = inputs.sap.as_ref().and_then(|v| v.get(i)) {
                        contact_lines[i] = dv::drake_estimate(b);
                    }
                    contact_lines[i].extend(dv::drake_sap(h, k, tau, beta, w, rn, ke));
                    (ke, ke * tau)
                })
                .unzip()
        }
        DrakeApproximation::Lagged | DrakeApproximation::Similar | DrakeApproximation::Tamsi => {
            let d = s.dissipation.si;
            let c = match &s.preload {
                Some(p) => {
                    lines.push(dv::drake_hunt_crossley(d, p.si));
                    d * p.si
                }
                None => {
                    if d > 0.0 {
                        notes.push(
                            "Hunt–Crossley damping k·d·δ grows with the penetration δ: without `preload` it is taken at touching (zero)"
                                .into(),
                        );
                    }
                    0.0
                }
            };
            (vec![k; n], vec![c; n])
        }
    };
    let mut k_set = vec![None; n];
    if let DrakeApproximation::Sap = s.approximation {
        notes.extend(sap_notes(inputs));
        for i in 0..n {
            if ks[i] < k * (1.0 - 1e-12) {
                k_set[i] = Some(k);
                notes.push(format!(
                    "contact `{}` is near rigid: SAP caps its stiffness at {} N/m (near_rigid_threshold {})",
                    inputs.names[i],
                    crate::number::pretty(&crate::number::sig(ks[i], 4)),
                    num(s.near_rigid_threshold)
                ));
            }
        }
    }
    let approximation = s.approximation.name();
    let mut settings = vec![
        ("timestep".into(), format!("{} s", num(h))),
        ("approximation".into(), approximation.into()),
        ("stiffness".into(), format!("{} N/m", num(k))),
    ];
    match s.approximation {
        DrakeApproximation::Sap => {
            settings.push((
                "relaxation_time".into(),
                format!("{} s", num(s.relaxation_time.si)),
            ));
            settings.push(("near_rigid_threshold".into(), num(s.near_rigid_threshold)));
        }
        DrakeApproximation::Lagged | DrakeApproximation::Similar | DrakeApproximation::Tamsi => {
            settings.push((
                "dissipation".into(),
                format!("{} s/m", num(s.dissipation.si)),
            ));
            if let Some(p) = &s.preload {
                settings.push(("preload".into(), format!("{} N", num(p.si))));
            }
        }
    }
    Translated {
        engine: Engine::Drake,
        source: "Drake 1.5x: SapFrictionConeConstraint::DoMakeData, SapHuntCrossleyConstraint (multibody/contact_solvers/sap), MultibodyPlantConfig",
        settings,
        step: h,
        integrator: Step::Implicit,
        law: Some(diag_law(ks, cs)),
        estimate: (0..n)
            .map(|i| {
                matches!(s.approximation, DrakeApproximation::Sap).then(|| sap_estimate(inputs, i))
            })
            .collect(),
        intended: vec![None; n],
        inverse: (0..n)
            .map(|i| {
                let (kt, ct) = inputs.targets[i];
                let mut v = vec![("stiffness".to_string(), format!("{} N/m", num(kt)))];
                match (&s.approximation, &s.preload) {
                    (DrakeApproximation::Sap, _) => {
                        let tau = ct / kt;
                        v.push(("relaxation_time".into(), format!("{} s", num(tau))));
                        // Reached only below the near-rigid cap: β²w/(4π²) ≤ 1/(hk(h+τ)).
                        let w = sap_estimate(inputs, i);
                        let beta = 2.0 * PI / (w * h * kt * (h + tau)).sqrt();
                        let shown = beta < s.near_rigid_threshold;
                        if shown {
                            // An upper limit on β: rounded down.
                            v.push((
                                "near_rigid_threshold".into(),
                                format!(
                                    "≤ {}",
                                    crate::number::sig_round(beta, 4, crate::number::Round::Down)
                                ),
                            ));
                        }
                        contact_lines[i].extend(dv::drake_inverse(
                            kt,
                            ct,
                            true,
                            None,
                            shown.then_some((w, h, beta)),
                        ));
                    }
                    (_, Some(p)) => {
                        contact_lines[i].extend(dv::drake_inverse(kt, ct, false, Some(p.si), None));
                        v.push(("dissipation".into(), format!("{} s/m", num(ct / p.si))))
                    }
                    (_, None) => v.push(("dissipation".into(), "needs `preload`".into())),
                }
                v
            })
            .collect(),
        k_set,
        notes,
        lines,
        contact_lines,
        world: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn impedance_follows_mujocos_sigmoid() {
        let s = [0.9, 0.95, 0.001, 0.5, 2.0];
        assert_eq!(impedance(&s, 0.0), 0.9);
        assert_eq!(impedance(&s, 0.002), 0.95);
        // Midpoint: y = 0.5.
        assert!((impedance(&s, 0.0005) - 0.925).abs() < 1e-15);
        // Below the midpoint y = x²/mid: x = 0.25 → 0.125.
        assert!((impedance(&s, -0.00025) - (0.9 + 0.125 * 0.05)).abs() < 1e-15);
        assert_eq!(impedance(&[0.95, 0.95, 0.001, 0.5, 2.0], 0.3), 0.95);
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(num(0.02), "0.02");
        assert_eq!(num(44321.329639889), "44321.3");
        assert_eq!(num(1.5e-7), "1.5e-7");
        assert_eq!(num(1e7), "1e7");
        assert_eq!(num(-4000.0), "-4000");
    }
}
