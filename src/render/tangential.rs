//! The tangential rows' sections of the `meff eval` summary (the sheets'
//! templates lay out the same numbers).

use super::number::{sig, time};
use super::section::{Section, opt, strings, table};
use crate::report::Report;

/// "Tangential rows": per row, per contact block, the modes and steps.
pub fn sections(report: &Report, d: usize, out: &mut Vec<Section>) {
    let Some(tg) = &report.tangential else {
        return;
    };
    out.push(table(
        "Tangential rows: effective mass per row",
        strings([
            "row",
            "k (N/m)",
            "c (N s/m)",
            "A_ii (1/kg)",
            "m (kg)",
            "ω (rad/s)",
        ]),
        tg.rows.iter(),
        |r| {
            vec![
                r.name.clone(),
                sig(r.stiffness, d),
                opt(r.damping, d),
                sig(r.a, d),
                opt(r.m_eff, d),
                sig(r.omega, d),
            ]
        },
        Vec::new(),
    ));
    out.push(table(
        "Tangential rows: per contact",
        strings([
            "contact",
            "tangent",
            "m_t (kg)",
            "m_t/m_n",
            "coupling A_nt/√(A_nn A_tt)",
        ]),
        tg.contacts
            .iter()
            .flat_map(|c| (0..c.m_t.len()).map(move |k| (c, k))),
        |(c, k)| {
            vec![
                c.contact.clone(),
                tangent_label(c.m_t.len(), k).into(),
                opt(c.m_t[k], d),
                opt(c.m_t_over_m_n[k], d),
                sig(c.coupling[k], d),
            ]
        },
        Vec::new(),
    ));
    let mut notes = vec![if report.large.as_ref().is_some_and(|l| l.rows.is_some()) {
        "The large path computes the fastest mode over every row alone: it sets ω_max and the step, and its shape says which rows set it.".to_string()
    } else {
        format!(
            "{} nonzero mode(s) and {} zero mode(s) over every row; the fastest listed.",
            tg.modes_total, tg.zero_modes
        )
    }];
    notes.push(format!(
        "Step with the tangential springs{} {}, without {}; set by {}.",
        if report.hertz_peak.is_some() {
            " at the linearised overlap (the step to use holds at the impact's peak: Hertz contacts)"
        } else {
            ""
        },
        step(tg.dt_with, d),
        step(tg.dt_without, d),
        tg.setting_rows
            .iter()
            .map(|r| format!("{} ({})", r.row, sig(r.share, 2)))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    out.push(table(
        "Tangential rows: coupled modes and step",
        strings(["mode", "ω (rad/s)", "leading row", "share"]),
        tg.modes.iter().enumerate(),
        |(i, m)| {
            vec![
                (i + 1).to_string(),
                sig(m.omega, d),
                m.leading_row.clone(),
                sig(m.share, d),
            ]
        },
        notes,
    ));
}

/// `t1`, `t2`, or `t` when the contact has one tangent.
pub fn tangent_label(count: usize, k: usize) -> &'static str {
    match (count, k) {
        (1, _) => "t",
        (_, 0) => "t1",
        _ => "t2",
    }
}

/// A step limit, rounded down.
fn step(h: Option<f64>, d: usize) -> String {
    h.map_or_else(|| "—".into(), |h| crate::number::time_at_most(h, d))
}

/// "Hertz contacts": the linearisation and the closed-form impact.
pub fn hertz_sections(report: &Report, d: usize, out: &mut Vec<Section>) {
    if report.hertz.is_empty() {
        return;
    }
    out.push(table(
        "Hertz contacts (F = K δ^1.5, linearised k = 3/2 K √δ)",
        strings(["contact", "K (N/m^1.5)", "δ (m)", "k (N/m)", "m_eff (kg)"]),
        &report.hertz,
        |h| {
            vec![
                h.contact.clone(),
                sig(h.coefficient, d),
                sig(h.overlap, d),
                sig(h.stiffness, d),
                opt(h.m_eff, d),
            ]
        },
        Vec::new(),
    ));
    out.push(table(
        "Hertz contacts: materials and the Rayleigh-time rule",
        strings(["contact", "E* (Pa)", "G* (Pa)", "from", "k_t (N/m)", "T_R", "Δt/T_R"]),
        &report.hertz,
        |h| {
            vec![
                h.contact.clone(),
                opt(h.modulus, d),
                opt(h.shear_modulus, d),
                if h.from_materials { "materials" } else { "as given" }.into(),
                opt(h.tangential_stiffness, d),
                match (&h.rayleigh.time, &h.rayleigh.missing) {
                    (Some(t), _) => time(*t, d),
                    (None, m) => format!("— ({})", m.as_deref().unwrap_or("")),
                },
                opt(h.rayleigh.factor, d),
            ]
        },
        vec![
            "T_R = π R √(ρ/G)/(0.1631 ν + 0.8766) (Li, Xu & Thornton 2005); Δt/T_R: the f a rule Δt = f·T_R must use to give the step to use.".into(),
        ],
    ));
    peak_section(report, d, out);
    let impacts: Vec<_> = report.hertz.iter().filter(|h| h.impact.is_some()).collect();
    if impacts.is_empty() {
        return;
    }
    out.push(table(
        "Hertz impact (closed form, exact m_eff)",
        strings([
            "contact", "v (m/s)", "δ_max (m)", "F_max (N)", "t_c", "k at peak (N/m)", "2/ω at peak",
            "Δt/t_c",
        ]),
        impacts.iter().filter_map(|h| Some((h, h.impact.as_ref()?))),
        |(h, x)| {
            vec![
                h.contact.clone(),
                sig(x.speed, d),
                sig(x.max_overlap, d),
                sig(x.peak_force, d),
                time(x.duration, d),
                sig(x.peak_stiffness, d),
                crate::number::time_at_most(x.dt_at_peak, d),
                opt(x.hertz_time_factor, d),
            ]
        },
        vec![
            "Δt/t_c: the fraction of the Hertz time a rule Δt = f·t_c must use to give the step to use.".into(),
        ],
    ));
}

/// "Hertz impact: the step at its peak".
fn peak_section(report: &Report, d: usize, out: &mut Vec<Section>) {
    let Some(p) = &report.hertz_peak else {
        return;
    };
    out.push(table(
        "Hertz impact: the step at its peak",
        strings(["contact", "δ_max (m)", "k (N/m)", "k_t (N/m)"]),
        &p.contacts,
        |c| {
            vec![
                c.contact.clone(),
                sig(c.max_overlap, d),
                sig(c.stiffness, d),
                opt(c.tangential_stiffness, d),
            ]
        },
        vec![format!(
            "Step at the peak {} (ω_max = {} rad/s over every row); from the static linearisation only {}{}.",
            step(p.governing, d),
            sig(p.omega_max, d),
            step(p.static_governing, d),
            if p.static_governing.zip(p.governing).is_some_and(|(s, g)| s > g) {
                " (not stable at the peak)"
            } else {
                ""
            }
        )],
    ));
}
