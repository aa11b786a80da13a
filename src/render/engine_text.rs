//! `[engine.*]` results as text sections (the summary, `meff eval
//! --engine NAME`).

use super::number::sig;
use super::section::Section;
use crate::engines::EngineReport;

fn pole(p: Option<crate::engines::law::Pole>, d: usize) -> [String; 2] {
    match p {
        Some(p) if p.first_order => [format!("{} /s", sig(p.omega, d)), "1st order".into()],
        Some(p) => [sig(p.omega, d), sig(p.zeta, d)],
        None => ["—".into(), "—".into()],
    }
}

/// One engine's tables: contacts, coupled modes, inverse settings.
pub fn sections(e: &EngineReport, d: usize) -> Vec<Section> {
    let settings: Vec<String> = e
        .settings
        .iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect();
    let mut notes = vec![
        format!("settings: {}", settings.join(", ")),
        format!("step: {}, h = {} s", e.integrator, sig(e.step, d)),
    ];
    notes.extend(e.notes.iter().cloned());
    notes.push(format!("formulas: {}", e.source));
    let rows = e
        .contacts
        .iter()
        .map(|c| {
            let [we, ze] = pole(c.exact, d);
            let [wi, zi] = pole(c.intended, d);
            let [ws, zs] = pole(c.at_step, d);
            vec![
                c.name.clone(),
                sig(c.m_eff, d),
                c.m_engine.map_or_else(|| "exact".into(), |m| sig(m, d)),
                c.a_error
                    .map_or_else(|| "—".into(), |x| format!("{} %", sig(100.0 * x, 3))),
                match c.k {
                    Some(k) => sig(k, d),
                    None if c.m_eff.is_infinite() => "immobile".into(),
                    None => "rigid".into(),
                },
                c.c.map_or_else(|| "—".into(), |k| sig(k, d)),
                we,
                ze,
                wi,
                zi,
                ws,
                zs,
            ]
        })
        .collect();
    let mut out = vec![Section {
        title: format!("{}: the contacts", e.name),
        header: [
            "contact",
            "m_eff (kg)",
            "engine's (kg)",
            "A_ii error",
            "k (N/m)",
            "c (N s/m)",
            "ω exact",
            "ζ exact",
            "ω intended",
            "ζ intended",
            "ω at step",
            "ζ at step",
        ]
        .map(String::from)
        .to_vec(),
        rows,
        notes,
    }];
    if !e.modes.is_empty() {
        let mut notes = vec![format!(
            "the step is {} (largest |z| of the step map {})",
            if e.stable == Some(true) {
                "stable"
            } else {
                "UNSTABLE"
            },
            e.spectral_radius.map_or_else(|| "—".into(), |r| sig(r, 6))
        )];
        if e.modes.first().is_some_and(|m| m.at_step.is_none()) && !e.step_modes.is_empty() {
            let rates: Vec<String> = e
                .step_modes
                .iter()
                .map(|p| {
                    if p.first_order {
                        format!("{} /s", sig(p.omega, d))
                    } else {
                        format!("{} rad/s (ζ {})", sig(p.omega, d), sig(p.zeta, 3))
                    }
                })
                .collect();
            notes.push(format!(
                "at the step the contacts settle first-order with the rates {} (the step relaxes the contact velocity)",
                rates.join(", ")
            ));
        }
        if let Some(st) = e.settling {
            notes.push(match (st.min, st.max) {
                (Some(lo), Some(hi)) => format!(
                    "settling (slowest rate): {} /s with the contacts solved in case order, {} to {} /s over every order the solver may visit them",
                    sig(st.case_order, d),
                    sig(lo, d),
                    sig(hi, d)
                ),
                _ => format!(
                    "settling (slowest rate): {} /s with the contacts solved in case order (other orders not tried above 6 contacts)",
                    sig(st.case_order, d)
                ),
            });
        }
        if let Some(s) = e.spread {
            notes.push(format!(
                "one shared setting: ω from {} to {} rad/s across the contacts ({}×)",
                sig(s.min, d),
                sig(s.max, d),
                sig(s.ratio, 3)
            ));
        }
        out.push(Section {
            title: format!("{}: coupled modes (rad/s)", e.name),
            header: ["mode", "ω", "ζ", "ω at step", "ζ at step"]
                .map(String::from)
                .to_vec(),
            rows: e
                .modes
                .iter()
                .enumerate()
                .map(|(k, m)| {
                    let [ws, zs] = pole(m.at_step, d);
                    vec![
                        (k + 1).to_string(),
                        sig(m.exact.omega, d),
                        sig(m.exact.zeta, d),
                        ws,
                        zs,
                    ]
                })
                .collect(),
            notes,
        });
    }
    out.push(Section {
        title: format!("{}: settings for the case's k and c", e.name),
        header: ["contact", "setting", "value"].map(String::from).to_vec(),
        rows: e
            .contacts
            .iter()
            .flat_map(|c| {
                c.inverse
                    .iter()
                    .map(|(k, v)| vec![c.name.clone(), k.clone(), v.clone()])
            })
            .collect(),
        notes: Vec::new(),
    });
    out.extend(derivation_section(e, d));
    out
}

/// How the numbers follow, line by line with the case's numbers (the
/// sheets' LaTeX lines, read as plain text); `None` without lines.
fn derivation_section(e: &EngineReport, d: usize) -> Option<Section> {
    let q = super::engine_eqs::equations(e, d);
    let mut lines: Vec<String> = q
        .engine
        .iter()
        .map(|l| crate::notation::tex_plain(l))
        .collect();
    for c in &q.contacts {
        lines.push(format!("contact {}:", c.name));
        lines.extend(
            c.lines
                .iter()
                .map(|l| format!("  {}", crate::notation::tex_plain(l))),
        );
    }
    if q.more > 0 {
        lines.push(format!(
            "the other {} contacts follow the same lines with their own numbers",
            q.more
        ));
    }
    (!lines.is_empty()).then(|| Section {
        title: format!("{}: how these numbers follow", e.name),
        notes: lines,
        ..Section::default()
    })
}
