//! Each engine's translation as lines a signer can recompute: the formula
//! in symbols, the same formula with the case's numbers, and the result
//! (the number the engine tables print). The numbers stay numbers here;
//! the sheets typeset them at their own precision
//! (`render::engine_eqs`).
//!
//! Symbols: `K`, `B`, `d`, `R` are MuJoCo's; `\hat A_{ii}` is the engine's
//! estimate of the contact's inverse mass and `\hat m = 1/\hat A_{ii}`;
//! `k`, `c` the spring and dashpot the contact amounts to; a star marks
//! the case's own values (`k^*`, `c^*`, `\omega^*`, `\zeta^*`) and the
//! settings that give them.

use std::f64::consts::PI;

/// A number with its unit (LaTeX, empty for a pure number).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Q {
    /// The value, SI.
    pub x: f64,
    /// Its unit (LaTeX).
    pub unit: &'static str,
}

/// Units the lines use (LaTeX).
#[allow(missing_docs)]
pub mod unit {
    pub const NONE: &str = "";
    pub const S: &str = "\\mathrm{s}";
    pub const PER_S: &str = "\\mathrm{s}^{-1}";
    pub const PER_S2: &str = "\\mathrm{s}^{-2}";
    pub const KG: &str = "\\mathrm{kg}";
    pub const PER_KG: &str = "\\mathrm{kg}^{-1}";
    pub const PER_KG2: &str = "\\mathrm{kg}^{-2}";
    pub const N_PER_M: &str = "\\mathrm{N/m}";
    pub const NS_PER_M: &str = "\\mathrm{N\\,s/m}";
    pub const S_PER_M: &str = "\\mathrm{s/m}";
    pub const M_PER_NS: &str = "\\mathrm{m/(N\\,s)}";
    pub const HZ: &str = "\\mathrm{Hz}";
    pub const RAD_S: &str = "\\mathrm{rad/s}";
    pub const N: &str = "\\mathrm{N}";
    pub const M: &str = "\\mathrm{m}";
}

/// A number with a unit.
pub fn q(x: f64, unit: &'static str) -> Q {
    Q { x, unit }
}

/// One line: `lhs = formula = with = result`, `with` holding `@0`, `@1`,
/// … where `values` go (empty: the line states a value, nothing to
/// substitute).
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The symbol defined (LaTeX).
    pub lhs: String,
    /// The formula in symbols (LaTeX; empty: a value stated).
    pub formula: String,
    /// The formula with `@0`, `@1`, … for the values (empty: nothing to
    /// substitute).
    pub with: String,
    /// The numbers substituted.
    pub values: Vec<Q>,
    /// The result.
    pub result: Q,
}

/// A line with its numbers.
pub fn line(lhs: &str, formula: &str, with: &str, values: &[Q], result: Q) -> Line {
    Line {
        lhs: lhs.into(),
        formula: formula.into(),
        with: with.into(),
        values: values.to_vec(),
        result,
    }
}

/// `ω* = √(k* A_ii)`, `ζ* = c* A_ii/(2ω*)`: the case's own contact with
/// the exact mass (what every inverse aims at).
pub fn target(k: f64, c: f64, a: f64, w: f64, z: f64) -> Vec<Line> {
    vec![
        line(
            "\\omega^{*}",
            "\\sqrt{k^{*} A_{ii}}",
            "\\sqrt{@0 \\times @1}",
            &[q(k, unit::N_PER_M), q(a, unit::PER_KG)],
            q(w, unit::RAD_S),
        ),
        line(
            "\\zeta^{*}",
            "\\frac{c^{*} A_{ii}}{2\\,\\omega^{*}}",
            "\\frac{@0 \\times @1}{2 \\times @2}",
            &[q(c, unit::NS_PER_M), q(a, unit::PER_KG), q(w, unit::RAD_S)],
            q(z, unit::NONE),
        ),
    ]
}

/// `m̂ = 1/Â_ii`: the engine's estimate of the contact's mass, from the
/// inverse mass its formulas use.
pub fn estimate(a_hat: f64) -> Line {
    line(
        "\\hat{m}",
        "\\frac{1}{\\hat{A}_{ii}}",
        "\\frac{1}{@0}",
        &[q(a_hat, unit::PER_KG)],
        q(1.0 / a_hat, unit::KG),
    )
}

/// Box2D's and Rapier's soft contact for one point: `ω = 2π f` (twice the
/// frequency against the world), `k = m̂ω²`, `c = 2ζm̂ω`.
pub fn soft(a_hat: f64, hz: f64, doubled: bool, zeta: f64, k: f64, c: f64) -> Vec<Line> {
    let m = 1.0 / a_hat;
    let w = 2.0 * std::f64::consts::PI * if doubled { 2.0 * hz } else { hz };
    vec![
        estimate(a_hat),
        if doubled {
            line(
                "\\omega",
                "2\\pi \\times 2 f",
                "2\\pi \\times 2 \\times @0",
                &[q(hz, unit::HZ)],
                q(w, unit::RAD_S),
            )
        } else {
            line(
                "\\omega",
                "2\\pi f",
                "2\\pi \\times @0",
                &[q(hz, unit::HZ)],
                q(w, unit::RAD_S),
            )
        },
        line(
            "k",
            "\\hat{m}\\,\\omega^{2}",
            "@0 \\times \\left(@1\\right)^{2}",
            &[q(m, unit::KG), q(w, unit::RAD_S)],
            q(k, unit::N_PER_M),
        ),
        line(
            "c",
            "2\\,\\zeta\\,\\hat{m}\\,\\omega",
            "2 \\times @0 \\times @1 \\times @2",
            &[q(zeta, unit::NONE), q(m, unit::KG), q(w, unit::RAD_S)],
            q(c, unit::NS_PER_M),
        ),
    ]
}

/// The soft contact's inverse: `s = √(A_ii/Â_ii)`, `f* = ω*/(2π s)`
/// (halved against the world), `ζ_set* = ζ*/s`.
pub fn soft_inverse(a: f64, a_hat: f64, w: f64, z: f64, doubled: bool, f: f64) -> Vec<Line> {
    let s = (a / a_hat).sqrt();
    vec![
        line(
            "s",
            "\\sqrt{\\frac{A_{ii}}{\\hat{A}_{ii}}}",
            "\\sqrt{\\frac{@0}{@1}}",
            &[q(a, unit::PER_KG), q(a_hat, unit::PER_KG)],
            q(s, unit::NONE),
        ),
        if doubled {
            line(
                "f^{*}",
                "\\frac{\\omega^{*}}{2 \\times 2\\pi\\,s}",
                "\\frac{@0}{2 \\times 2\\pi \\times @1}",
                &[q(w, unit::RAD_S), q(s, unit::NONE)],
                q(f, unit::HZ),
            )
        } else {
            line(
                "f^{*}",
                "\\frac{\\omega^{*}}{2\\pi\\,s}",
                "\\frac{@0}{2\\pi \\times @1}",
                &[q(w, unit::RAD_S), q(s, unit::NONE)],
                q(f, unit::HZ),
            )
        },
        line(
            "\\zeta_{\\mathrm{set}}^{*}",
            "\\frac{\\zeta^{*}}{s}",
            "\\frac{@0}{@1}",
            &[q(z, unit::NONE), q(s, unit::NONE)],
            q(z / s, unit::NONE),
        ),
    ]
}

/// MuJoCo's per-engine lines: the impedance `d` where it was taken, `d_w`,
/// and `K`, `B` of `mj_makeImpedance` from the `solref` used (after
/// refsafe).
pub fn mujoco_engine(
    solref: [f64; 2],
    dmax: f64,
    d0: Option<f64>,
    imp: f64,
    kk: f64,
    bb: f64,
) -> Vec<Line> {
    let mut out = vec![match d0 {
        Some(d0) => line(
            "d",
            "\\mathrm{solimp}_{0}",
            "@0",
            &[q(d0, unit::NONE)],
            q(imp, unit::NONE),
        ),
        None => line(
            "d",
            "d\\left(\\mathrm{penetration}\\right)",
            "",
            &[],
            q(imp, unit::NONE),
        ),
    }];
    out.push(line(
        "d_{w}",
        "\\mathrm{solimp}_{1}",
        "",
        &[],
        q(dmax, unit::NONE),
    ));
    if solref[0] > 0.0 {
        out.push(line(
            "K",
            "\\frac{1}{d_{w}^{2}\\,\\mathrm{solref}_{0}^{2}\\,\\mathrm{solref}_{1}^{2}}",
            "\\frac{1}{\\left(@0\\right)^{2} \\times \\left(@1\\right)^{2} \\times \\left(@2\\right)^{2}}",
            &[
                q(dmax, unit::NONE),
                q(solref[0], unit::S),
                q(solref[1], unit::NONE),
            ],
            q(kk, unit::PER_S2),
        ));
        out.push(line(
            "B",
            "\\frac{2}{d_{w}\\,\\mathrm{solref}_{0}}",
            "\\frac{2}{@0 \\times @1}",
            &[q(dmax, unit::NONE), q(solref[0], unit::S)],
            q(bb, unit::PER_S),
        ));
    } else {
        out.push(line(
            "K",
            "\\frac{-\\mathrm{solref}_{0}}{d_{w}^{2}}",
            "\\frac{-\\left(@0\\right)}{\\left(@1\\right)^{2}}",
            &[q(solref[0], unit::PER_S2), q(dmax, unit::NONE)],
            q(kk, unit::PER_S2),
        ));
        out.push(line(
            "B",
            "\\frac{-\\mathrm{solref}_{1}}{d_{w}}",
            "\\frac{-\\left(@0\\right)}{@1}",
            &[q(solref[1], unit::PER_S), q(dmax, unit::NONE)],
            q(bb, unit::PER_S),
        ));
    }
    out
}

/// What MuJoCo's numbers are for one contact.
pub struct MujocoContact {
    /// The estimate `Â_ii` (diagApprox).
    pub a_hat: f64,
    /// The exact `A_ii`.
    pub a: f64,
    /// MuJoCo's regularizer `R`.
    pub r: f64,
    /// The impedance `d`.
    pub imp: f64,
    /// `K`.
    pub kk: f64,
    /// `B`.
    pub bb: f64,
    /// `[(A + R)⁻¹]_ii` when several contacts share the solve (`None`:
    /// one contact, `1/(A_ii + R)`).
    pub p_ii: Option<f64>,
}

/// MuJoCo, one contact: `m̂`, `R = (1 − d)/d · Â_ii`, and the spring and
/// dashpot `k = d K p`, `c = B p` with `p = 1/(A_ii + R)` alone.
pub fn mujoco_contact(m: &MujocoContact) -> Vec<Line> {
    let mut out = vec![
        estimate(m.a_hat),
        line(
            "R",
            "\\frac{1 - d}{d}\\,\\hat{A}_{ii}",
            "\\frac{1 - @0}{@0} \\times @1",
            &[q(m.imp, unit::NONE), q(m.a_hat, unit::PER_KG)],
            q(m.r, unit::PER_KG),
        ),
    ];
    match m.p_ii {
        None => {
            let p = 1.0 / (m.a + m.r);
            out.push(line(
                "k",
                "\\frac{d\\,K}{A_{ii} + R}",
                "\\frac{@0 \\times @1}{@2 + @3}",
                &[
                    q(m.imp, unit::NONE),
                    q(m.kk, unit::PER_S2),
                    q(m.a, unit::PER_KG),
                    q(m.r, unit::PER_KG),
                ],
                q(m.imp * m.kk * p, unit::N_PER_M),
            ));
            out.push(line(
                "c",
                "\\frac{B}{A_{ii} + R}",
                "\\frac{@0}{@1 + @2}",
                &[
                    q(m.bb, unit::PER_S),
                    q(m.a, unit::PER_KG),
                    q(m.r, unit::PER_KG),
                ],
                q(m.bb * p, unit::NS_PER_M),
            ));
        }
        Some(p) => {
            out.push(line(
                "k",
                "d\\,K\\,\\left[\\left(A + R\\right)^{-1}\\right]_{ii}",
                "@0 \\times @1 \\times @2",
                &[q(m.imp, unit::NONE), q(m.kk, unit::PER_S2), q(p, unit::KG)],
                q(m.imp * m.kk * p, unit::N_PER_M),
            ));
            out.push(line(
                "c",
                "B\\,\\left[\\left(A + R\\right)^{-1}\\right]_{ii}",
                "@0 \\times @1",
                &[q(m.bb, unit::PER_S), q(p, unit::KG)],
                q(m.bb * p, unit::NS_PER_M),
            ));
        }
    }
    out
}

/// MuJoCo's inverse for one contact: `g = A_ii/(A_ii + R)`, then `solref*`
/// in the standard form (where the case has damping) and the direct form.
pub fn mujoco_inverse(a: f64, r: f64, imp: f64, dmax: f64, w: f64, z: f64) -> Vec<Line> {
    let g = a / (a + r);
    let mut out = vec![line(
        "g",
        "\\frac{A_{ii}}{A_{ii} + R}",
        "\\frac{@0}{@0 + @1}",
        &[q(a, unit::PER_KG), q(r, unit::PER_KG)],
        q(g, unit::NONE),
    )];
    if z > 0.0 {
        out.push(line(
            "\\mathrm{solref}_{0}^{*}",
            "\\frac{g}{d_{w}\\,\\zeta^{*}\\,\\omega^{*}}",
            "\\frac{@0}{@1 \\times @2 \\times @3}",
            &[
                q(g, unit::NONE),
                q(dmax, unit::NONE),
                q(z, unit::NONE),
                q(w, unit::RAD_S),
            ],
            q(g / (dmax * z * w), unit::S),
        ));
        out.push(line(
            "\\mathrm{solref}_{1}^{*}",
            "\\zeta^{*}\\sqrt{\\frac{d}{g}}",
            "@0 \\times \\sqrt{\\frac{@1}{@2}}",
            &[q(z, unit::NONE), q(imp, unit::NONE), q(g, unit::NONE)],
            q(z * (imp / g).sqrt(), unit::NONE),
        ));
    }
    out.push(line(
        "\\mathrm{solref}_{\\mathrm{direct},0}^{*}",
        "-\\frac{\\left(\\omega^{*}\\right)^{2} d_{w}^{2}}{g\\,d}",
        "-\\frac{\\left(@0\\right)^{2} \\times \\left(@1\\right)^{2}}{@2 \\times @3}",
        &[
            q(w, unit::RAD_S),
            q(dmax, unit::NONE),
            q(g, unit::NONE),
            q(imp, unit::NONE),
        ],
        q(-w * w * dmax * dmax / (g * imp), unit::PER_S2),
    ));
    out.push(line(
        "\\mathrm{solref}_{\\mathrm{direct},1}^{*}",
        "-\\frac{2\\,\\zeta^{*}\\,\\omega^{*}\\,d_{w}}{g}",
        "-\\frac{2 \\times @0 \\times @1 \\times @2}{@3}",
        &[
            q(z, unit::NONE),
            q(w, unit::RAD_S),
            q(dmax, unit::NONE),
            q(g, unit::NONE),
        ],
        q(-2.0 * z * w * dmax / g, unit::PER_S),
    ));
    out
}

/// Bullet's spring from ERP and CFM: `k = erp/(h cfm)`, `c = (1 − erp)/cfm`.
pub fn bullet_spring(h: f64, erp: f64, cfm: f64, k: f64, c: f64) -> Vec<Line> {
    vec![
        line(
            "k",
            "\\frac{\\mathrm{erp}}{h\\,\\mathrm{cfm}}",
            "\\frac{@0}{@1 \\times @2}",
            &[q(erp, unit::NONE), q(h, unit::S), q(cfm, unit::M_PER_NS)],
            q(k, unit::N_PER_M),
        ),
        line(
            "c",
            "\\frac{1 - \\mathrm{erp}}{\\mathrm{cfm}}",
            "\\frac{1 - @0}{@1}",
            &[q(erp, unit::NONE), q(cfm, unit::M_PER_NS)],
            q(c, unit::NS_PER_M),
        ),
    ]
}

/// Bullet's ERP and CFM for the case's `k*`, `c*`.
pub fn bullet_inverse(h: f64, k: f64, c: f64) -> Vec<Line> {
    vec![
        line(
            "\\mathrm{erp}^{*}",
            "\\frac{h\\,k^{*}}{h\\,k^{*} + c^{*}}",
            "\\frac{@0 \\times @1}{@0 \\times @1 + @2}",
            &[q(h, unit::S), q(k, unit::N_PER_M), q(c, unit::NS_PER_M)],
            q(h * k / (h * k + c), unit::NONE),
        ),
        line(
            "\\mathrm{cfm}^{*}",
            "\\frac{1}{h\\,k^{*} + c^{*}}",
            "\\frac{1}{@0 \\times @1 + @2}",
            &[q(h, unit::S), q(k, unit::N_PER_M), q(c, unit::NS_PER_M)],
            q(1.0 / (h * k + c), unit::M_PER_NS),
        ),
    ]
}

/// Drake SAP's own estimate of the contact's inverse mass
/// (`SapModel::CalcDelassusDiagonalApproximation`): `‖W_ii‖_F` from the
/// block's entries in the contact's axes, then `Â_ii = ‖W_ii‖_F/3` and
/// `m̂ = 1/Â_ii`; for a contact given by its normal row alone, `W_nn/3`.
pub fn drake_estimate(b: &super::sap::SapBlock) -> Vec<Line> {
    let w = b.estimate();
    let e = b.entries();
    let first = if b.tangents {
        let norm = b.norm();
        vec![
            // In three lines: the whole sum does not fit a page's width.
            line(
                "\\Sigma_{d}",
                "W_{nn}^{2} + W_{t_{1}t_{1}}^{2} + W_{t_{2}t_{2}}^{2}",
                "\\left(@0\\right)^{2} + \\left(@1\\right)^{2} + \\left(@2\\right)^{2}",
                &[e[0], e[1], e[2]].map(|x| q(x, unit::PER_KG)),
                q(e[0] * e[0] + e[1] * e[1] + e[2] * e[2], unit::PER_KG2),
            ),
            line(
                "\\Sigma_{o}",
                "W_{nt_{1}}^{2} + W_{nt_{2}}^{2} + W_{t_{1}t_{2}}^{2}",
                "\\left(@0\\right)^{2} + \\left(@1\\right)^{2} + \\left(@2\\right)^{2}",
                &[e[3], e[4], e[5]].map(|x| q(x, unit::PER_KG)),
                q(e[3] * e[3] + e[4] * e[4] + e[5] * e[5], unit::PER_KG2),
            ),
            line(
                "\\lVert W_{ii}\\rVert_{F}",
                "\\sqrt{\\Sigma_{d} + 2\\,\\Sigma_{o}}",
                "\\sqrt{@0 + 2 \\times @1}",
                &[
                    q(e[0] * e[0] + e[1] * e[1] + e[2] * e[2], unit::PER_KG2),
                    q(e[3] * e[3] + e[4] * e[4] + e[5] * e[5], unit::PER_KG2),
                ],
                q(norm, unit::PER_KG),
            ),
            line(
                "\\hat{A}_{ii}",
                "\\frac{\\lVert W_{ii}\\rVert_{F}}{3}",
                "\\frac{@0}{3}",
                &[q(norm, unit::PER_KG)],
                q(w, unit::PER_KG),
            ),
        ]
    } else {
        vec![line(
            "\\hat{A}_{ii}",
            "\\frac{W_{nn}}{3}",
            "\\frac{@0}{3}",
            &[q(e[0], unit::PER_KG)],
            q(w, unit::PER_KG),
        )]
    };
    let mut out = first;
    out.push(estimate(w));
    out
}

/// Drake SAP for one contact: `R_n = max(β²ŵ/(4π²), 1/(h k (h + τ)))`,
/// `k = 1/(h (h + τ) R_n)`, `c = k τ`.
pub fn drake_sap(h: f64, k: f64, tau: f64, beta: f64, w_hat: f64, rn: f64, ke: f64) -> Vec<Line> {
    vec![
        line(
            "R_{\\beta}",
            "\\frac{\\beta^{2}}{4\\pi^{2}}\\,\\hat{A}_{ii}",
            "\\frac{\\left(@0\\right)^{2}}{4\\pi^{2}} \\times @1",
            &[q(beta, unit::NONE), q(w_hat, unit::PER_KG)],
            q(beta * beta / (4.0 * PI * PI) * w_hat, unit::PER_KG),
        ),
        line(
            "R_{k}",
            "\\frac{1}{h\\,k_{\\mathrm{set}}\\,\\left(h + \\tau\\right)}",
            "\\frac{1}{@0 \\times @1 \\times \\left(@0 + @2\\right)}",
            &[q(h, unit::S), q(k, unit::N_PER_M), q(tau, unit::S)],
            q(1.0 / (h * k * (h + tau)), unit::PER_KG),
        ),
        line(
            "R_{n}",
            "\\max\\left(R_{\\beta}, R_{k}\\right)",
            "\\max\\left(@0, @1\\right)",
            &[
                q(beta * beta / (4.0 * PI * PI) * w_hat, unit::PER_KG),
                q(1.0 / (h * k * (h + tau)), unit::PER_KG),
            ],
            q(rn, unit::PER_KG),
        ),
        line(
            "k",
            "\\frac{1}{h\\,\\left(h + \\tau\\right) R_{n}}",
            "\\frac{1}{@0 \\times \\left(@0 + @1\\right) \\times @2}",
            &[q(h, unit::S), q(tau, unit::S), q(rn, unit::PER_KG)],
            q(ke, unit::N_PER_M),
        ),
        line(
            "c",
            "k\\,\\tau",
            "@0 \\times @1",
            &[q(ke, unit::N_PER_M), q(tau, unit::S)],
            q(ke * tau, unit::NS_PER_M),
        ),
    ]
}

/// Drake's Hunt–Crossley dashpot at a preload: `c = d F₀`.
pub fn drake_hunt_crossley(d: f64, f0: f64) -> Line {
    line(
        "c",
        "d\\,F_{0}",
        "@0 \\times @1",
        &[q(d, unit::S_PER_M), q(f0, unit::N)],
        q(d * f0, unit::NS_PER_M),
    )
}

/// Drake's inverse: SAP `τ* = c*/k*` (and the near-rigid threshold that
/// keeps it below the cap when one is printed), Hunt–Crossley
/// `d* = c*/F₀`.
pub fn drake_inverse(
    k: f64,
    c: f64,
    sap: bool,
    preload: Option<f64>,
    beta: Option<(f64, f64, f64)>,
) -> Vec<Line> {
    let mut out = Vec::new();
    if sap {
        let tau = c / k;
        out.push(line(
            "\\tau^{*}",
            "\\frac{c^{*}}{k^{*}}",
            "\\frac{@0}{@1}",
            &[q(c, unit::NS_PER_M), q(k, unit::N_PER_M)],
            q(tau, unit::S),
        ));
        if let Some((w_hat, h, b)) = beta {
            out.push(line(
                "\\beta^{*}",
                "\\frac{2\\pi}{\\sqrt{\\hat{A}_{ii}\\,h\\,k^{*}\\,\\left(h + \\tau^{*}\\right)}}",
                "\\frac{2\\pi}{\\sqrt{@0 \\times @1 \\times @2 \\times \\left(@1 + @3\\right)}}",
                &[
                    q(w_hat, unit::PER_KG),
                    q(h, unit::S),
                    q(k, unit::N_PER_M),
                    q(tau, unit::S),
                ],
                q(b, unit::NONE),
            ));
        }
    } else if let Some(f0) = preload {
        out.push(line(
            "d^{*}",
            "\\frac{c^{*}}{F_{0}}",
            "\\frac{@0}{@1}",
            &[q(c, unit::NS_PER_M), q(f0, unit::N)],
            q(c / f0, unit::S_PER_M),
        ));
    }
    out
}
