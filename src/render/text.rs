//! The plain-text summary `meff eval` prints.

use super::number::sig;
use crate::report::Report;
use std::fmt::Write;

/// Lays out rows as aligned columns: numeric columns right-aligned, text
/// columns left-aligned.
fn table(header: &[String], rows: &[Vec<String>]) -> String {
    let n = header.len();
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r.iter().map(|c| shorten(c)).collect())
        .collect();
    let rows = &rows;
    let width = |j: usize| {
        rows.iter()
            .map(|r| r[j].chars().count())
            .chain([header[j].chars().count()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..n).map(width).collect();
    let numeric: Vec<bool> = (0..n)
        .map(|j| {
            !rows.is_empty()
                && rows
                    .iter()
                    .all(|r| r[j].parse::<f64>().is_ok() || r[j] == "—" || r[j].is_empty())
        })
        .collect();
    let line = |cells: &[String]| {
        let mut s = String::from(" ");
        for (j, cell) in cells.iter().enumerate() {
            let pad = " ".repeat(widths[j] - cell.chars().count());
            s.push(' ');
            if numeric[j] {
                s.push_str(&pad);
                s.push_str(cell);
            } else {
                s.push_str(cell);
                s.push_str(&pad);
            }
            s.push(' ');
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(header);
    for r in rows {
        out.push_str(&line(r));
    }
    out
}

/// Cells longer than a terminal line are cut (the JSON and Markdown
/// reports keep them whole).
fn shorten(cell: &str) -> String {
    const MAX: usize = 60;
    if cell.chars().count() <= MAX {
        return cell.to_string();
    }
    let cut: String = cell.chars().take(MAX - 1).collect();
    format!("{cut}…")
}

pub use super::section::Section;
use super::section::{opt, strings};
use super::text_verify::verification_sections;

/// The summary of a report as sections, with `digits` significant figures.
/// Both the text and the Markdown layouts are built from these.
pub fn sections(report: &Report, digits: usize) -> Vec<Section> {
    let d = digits;
    let mut out = Vec::new();
    summary_section(report, d, &mut out);
    checks_section(report, &mut out);
    out.extend(super::tolerance::changes(report, d));
    out.extend(super::text_inputs::scene_section(report, d));
    contacts_section(report, d, &mut out);
    damping_section(report, d, &mut out);
    super::tangential::sections(report, d, &mut out);
    super::tangential::hertz_sections(report, d, &mut out);
    robot_section(report, d, &mut out);
    for e in &report.engines {
        out.extend(super::engine_text::sections(e, d));
    }
    if !report.impacts.is_empty() {
        out.push(impact_section(report, d));
    }
    out.extend(super::program::section(report, d));
    out.extend(super::workspace::sections(report, d));
    person_section(report, d, &mut out);
    symbolic_sections(report, d, &mut out);
    out.extend(super::tolerance::section(report, d));
    delassus_section(report, d, &mut out);
    modes_section(report, d, &mut out);
    damped_modes_section(report, d, &mut out);
    fastest_section(report, d, &mut out);
    timestep_section(report, d, &mut out);
    if let Some(v) = &report.verification {
        verification_sections(
            v,
            &super::text_verify::hertz_springs(report, d),
            d,
            &mut out,
        );
    }
    constraints_section(report, &mut out);
    claims_section(report, &mut out);
    out
}

/// The headline lines.
fn summary_section(report: &Report, d: usize, out: &mut Vec<Section>) {
    out.push(Section {
        title: "Summary".into(),
        notes: super::headline::lines(report, d)
            .into_iter()
            .map(|line| line.into_iter().map(|s| s.text).collect())
            .collect(),
        ..Section::default()
    });
}

/// The model checks' warnings.
fn checks_section(report: &Report, out: &mut Vec<Section>) {
    if !report.model_checks.is_empty() {
        out.push(Section {
            title: format!("Model checks: {} warning(s)", report.model_checks_found),
            notes: report
                .model_checks
                .iter()
                .map(|w| format!("{} ({}): {}", w.input, w.location, w.message))
                .collect(),
            ..Section::default()
        });
    }
}

/// Effective mass per contact.
fn contacts_section(report: &Report, d: usize, out: &mut Vec<Section>) {
    out.push(Section {
        title: "Effective mass per contact".into(),
        header: strings([
            "contact",
            "a (1/kg)",
            "m_eff (kg)",
            "naive (kg)",
            "m_eff/naive",
            "k (N/m)",
            "ω (rad/s)",
            "ω naive (rad/s)",
        ]),
        rows: shown_contacts(report)
            .iter()
            .map(|c| {
                vec![
                    c.name.clone(),
                    sig(c.a, d),
                    if c.immobile {
                        "∞ (immobile)".into()
                    } else {
                        opt(c.m_eff, d)
                    },
                    opt(c.naive_mass, d),
                    opt(c.mass_ratio, d),
                    sig(c.stiffness, d),
                    sig(c.omega, d),
                    opt(c.omega_naive, d),
                ]
            })
            .collect(),
        notes: report.large.as_ref().map_or_else(
            || {
                (report.contacts_selection != "all")
                    .then(|| {
                        format!(
                            "{} of {} contacts listed ({}: the highest independent ω first)",
                            report.contacts.len(),
                            report.contacts_total,
                            report.contacts_selection
                        )
                    })
                    .into_iter()
                    .collect()
            },
            |l| {
            vec![format!(
                "{} contacts: the {} with the lowest m_eff/naive are listed; m_eff/naive ranges over [{}, {}] (mean {})",
                report.contacts_total,
                l.most_affected.len(),
                sig(l.mass_ratio.min, 3),
                sig(l.mass_ratio.max, 3),
                sig(l.mass_ratio.mean, 3)
            )]
        },
        )
        .into_iter()
        .chain(report.stiffness_from_engine.as_ref().map(|se| {
            format!(
                "no stiffness given for {}: k (and c, where no damping was given) are {}'s, with the exact m_eff",
                se.contacts.join(", "),
                se.name
            )
        }))
        .collect(),
    });
}

/// The dashpots and damping ratios.
fn damping_section(report: &Report, d: usize, out: &mut Vec<Section>) {
    if report.contacts.iter().any(|c| c.damping.is_some()) {
        out.push(Section {
            title: "Damping".into(),
            header: strings(["contact", "c (N s/m)", "ζ"]),
            rows: shown_contacts(report)
                .iter()
                .map(|c| vec![c.name.clone(), opt(c.damping, d), opt(c.zeta, d)])
                .collect(),
            notes: Vec::new(),
        });
    }
}

/// A `[model]` case's robot table.
fn robot_section(report: &Report, d: usize, out: &mut Vec<Section>) {
    if let Some(r) = &report.robot {
        out.push(Section {
            title: format!("Robot model ({} `{}`)", r.format, r.name),
            header: strings([
                "contact",
                "body",
                "m_eff (kg)",
                "without armature",
                "rule m_mov/2 + m_L",
                "m_eff/half",
                "ellipsoid masses (kg)",
            ]),
            rows: r
                .contacts
                .iter()
                .map(|c| {
                    vec![
                        c.name.clone(),
                        c.body.clone(),
                        opt(c.m_eff_with_armature, d),
                        opt(c.m_eff_without_armature, d),
                        sig(c.rule_mass, d),
                        opt(c.ratio_to_rule, 3.min(d)),
                        c.ellipsoid
                            .masses
                            .iter()
                            .map(|m| m.map_or_else(|| "∞".to_string(), |m| sig(m, d)))
                            .collect::<Vec<_>>()
                            .join(", "),
                    ]
                })
                .collect(),
            notes: std::iter::once(format!(
                "{} bodies, moving mass m_mov = {} kg, payload m_L = {} kg; armature {}",
                r.bodies,
                sig(r.moving_mass, d),
                sig(r.payload_mass, d),
                if r.armature_total == 0.0 {
                    "none in the model"
                } else if r.armature_included {
                    "included in M"
                } else {
                    "left out of M"
                }
            ))
            .chain(r.notes.iter().map(|n| format!("note: {n}")))
            .collect(),
        });
    }
}

/// Transient contact with a person.
fn person_section(report: &Report, d: usize, out: &mut Vec<Section>) {
    if !report.persons.is_empty() {
        let mut rows = Vec::new();
        for p in &report.persons {
            for (t, what) in [
                (&p.exact, "exact m_eff"),
                (
                    &p.rule_of_thumb,
                    p.rule_of_thumb_name.unwrap_or("rule of thumb"),
                ),
            ] {
                if let Some(t) = t {
                    rows.push(vec![
                        p.contact.clone(),
                        p.region.clone(),
                        what.to_string(),
                        sig(t.robot_mass, d),
                        sig(t.reduced_mass, d),
                        sig(t.omega, d),
                        t.peak_force.map_or_else(
                            || "—".into(),
                            |f| crate::number::sig_round(f, d, crate::number::Round::Up),
                        ),
                        t.max_speed.map_or_else(
                            || "∞".into(),
                            |v| crate::number::sig_round(v, d, crate::number::Round::Down),
                        ),
                    ]);
                }
            }
        }
        out.push(Section {
            title: "Transient contact with a person".into(),
            header: strings([
                "contact",
                "region",
                "m_R",
                "m_R (kg)",
                "μ (kg)",
                "ω (rad/s)",
                "peak force (N)",
                "speed at limit (m/s)",
            ]),
            rows,
            notes: std::iter::once(
                "m_H, k_H, speed and force limit are the case's own values".into(),
            )
            .chain(super::headline_person::person_notes(report, d))
            .collect(),
        });
    }
}

/// Closed forms and sensitivities.
fn symbolic_sections(report: &Report, digits: usize, out: &mut Vec<Section>) {
    let sym = &report.symbolic;
    if sym.available {
        out.push(Section {
            title: "Closed forms".into(),
            header: strings(["contact", "a", "m_eff", "a with the numbers", "a (1/kg)"]),
            rows: sym
                .contacts
                .iter()
                .zip(&report.contacts)
                .map(|(d, c)| {
                    vec![
                        d.name.clone(),
                        d.a.text.clone(),
                        d.m_eff
                            .as_ref()
                            .map_or_else(|| "∞ (immobile)".into(), |m| m.text.clone()),
                        d.a_substituted.text.clone(),
                        sig(c.a, digits),
                    ]
                })
                .collect(),
            notes: Vec::new(),
        });
        if !sym.sensitivities.is_empty() {
            out.push(Section {
                title: "Sensitivities (elasticities)".into(),
                header: strings(["contact", "parameter", "∂ln m_eff/∂ln p", "∂ln ω/∂ln p"]),
                rows: sym
                    .sensitivities
                    .iter()
                    .map(|s| {
                        vec![
                            s.contact.clone(),
                            s.parameter.clone(),
                            s.m_eff.map_or("—".into(), |x| sig(x, 3.min(digits))),
                            s.omega.map_or("—".into(), |x| sig(x, 3.min(digits))),
                        ]
                    })
                    .collect(),
                notes: sym.sensitivities_note.iter().cloned().collect(),
            });
        }
    } else if let Some(note) = &sym.note {
        out.push(Section {
            title: "Closed forms".into(),
            notes: vec![note.clone()],
            ..Section::default()
        });
    }
}

/// The Delassus matrix.
fn delassus_section(report: &Report, d: usize, out: &mut Vec<Section>) {
    if let Some(matrix) = &report.delassus.matrix
        && matrix.len() > 1
    {
        let names = &report.delassus.contacts;
        out.push(Section {
            title: "Delassus matrix A (1/kg)".into(),
            header: std::iter::once(String::new())
                .chain(names.iter().cloned())
                .collect(),
            rows: names
                .iter()
                .zip(matrix)
                .map(|(n, row)| {
                    std::iter::once(n.clone())
                        .chain(row.iter().map(|v| sig(*v, d)))
                        .collect()
                })
                .collect(),
            notes: Vec::new(),
        });
    }
}

/// Coupled modes.
fn modes_section(report: &Report, d: usize, out: &mut Vec<Section>) {
    out.push(Section {
        title: if report.tangential.is_some() {
            "Coupled modes of the normal rows alone (without the tangential springs; over every row: Tangential rows)".into()
        } else {
            "Coupled modes".into()
        },
        header: strings(["mode", "ω (rad/s)", "f (Hz)", "shape"]),
        rows: report
            .modes
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let shape: Vec<String> = m.shape.iter().map(|v| sig(*v, 3.min(d))).collect();
                vec![
                    (i + 1).to_string(),
                    sig(m.omega, d),
                    sig(m.omega / std::f64::consts::TAU, d),
                    format!("[{}]", shape.join(", ")),
                ]
            })
            .collect(),
        notes: match (report.zero_modes, &report.large) {
            (Some(z), _) if z > 0 => vec![format!("zero modes: {z} (more contacts than independent motions)")],
            (None, Some(l)) => vec![format!(
                "large system: the fastest {} of {} requested modes converged in {} Lanczos steps; Gershgorin bound {} rad/s{}",
                l.modes_converged,
                l.modes_requested,
                l.lanczos_steps,
                sig(l.gershgorin_omega, d),
                if l.omega_max_is_bound { " (used as ω_max: the fastest mode did not converge)" } else { "" }
            )]
            .into_iter()
            .chain(l.rows.as_ref().map(|r| format!(
                "over every row ({} rows, normal and tangential; they set ω_max and the step): the fastest mode alone sought, {} of {} converged in {} Lanczos steps; Gershgorin bound {} rad/s{}",
                r.rows,
                r.modes_converged,
                r.modes_requested,
                r.lanczos_steps,
                sig(r.gershgorin_omega, d),
                if r.omega_max_is_bound { " (used as ω_max: the fastest mode over every row did not converge)" } else { "" }
            )))
            .collect(),
            _ => Vec::new(),
        },
    });
}

/// Damped coupled modes.
fn damped_modes_section(report: &Report, d: usize, out: &mut Vec<Section>) {
    let every_row = report
        .tangential
        .as_ref()
        .and_then(|t| t.damped_modes.as_ref());
    if let Some(damped) = &report.damped_modes {
        out.push(Section {
            title: if report.tangential.is_some() {
                "Damped coupled modes of the normal rows alone".into()
            } else {
                "Damped coupled modes".into()
            },
            header: strings(["mode", "ω (rad/s)", "ζ"]),
            rows: damped
                .iter()
                .enumerate()
                .map(|(i, m)| vec![(i + 1).to_string(), sig(m.omega, d), sig(m.zeta, d)])
                .collect(),
            notes: Vec::new(),
        });
    }
    if let Some(damped) = every_row {
        out.push(Section {
            title: "Damped coupled modes over every contact row, normal and tangential".into(),
            header: strings(["mode", "ω (rad/s)", "ζ"]),
            rows: damped
                .iter()
                .enumerate()
                .map(|(i, m)| vec![(i + 1).to_string(), sig(m.omega, d), sig(m.zeta, d)])
                .collect(),
            notes: Vec::new(),
        });
    }
}

/// Fastest frequency: independent, coupled, upper bound.
fn fastest_section(report: &Report, d: usize, out: &mut Vec<Section>) {
    let ratio = report
        .coupled_to_independent_ratio
        .map_or(String::new(), |r| format!("×{}", sig(r, d)));
    let tag = static_tag(report);
    let up = |x: f64| crate::number::sig_round(x, d, crate::number::Round::Up);
    let mut rows = vec![
        vec![
            format!("independent, max ω_i (Rayleigh lower bound){tag}"),
            sig(report.independent_omega_max, d),
            String::new(),
        ],
        vec![
            format!("coupled ω_max{tag}"),
            sig(report.coupled_omega_max, d),
            ratio,
        ],
        vec![
            if report.coupled_omega_upper_bound_kind == "trace" {
                format!("upper bound (trace, √(Σ k_i a_i)){tag}")
            } else {
                format!("upper bound (Gershgorin, √(max_i Σ_j |S_ij|)){tag}")
            },
            up(report.coupled_omega_upper_bound),
            String::new(),
        ],
    ];
    if let Some(p) = report
        .hertz_states
        .as_ref()
        .and_then(|s| s.at_peak.as_ref())
    {
        rows.push(vec![
            "coupled ω_max at the Hertz impact's peak (sets the step to use)".into(),
            sig(p.omega_max, d),
            String::new(),
        ]);
        rows.push(vec![
            "upper bound at the Hertz impact's peak".into(),
            up(p.omega_upper_bound),
            String::new(),
        ]);
    }
    out.push(Section {
        title: "Fastest frequency".into(),
        header: strings(["estimate", "ω (rad/s)", "vs independent"]),
        rows,
        notes: Vec::new(),
    });
}

/// On a sheet with Hertz contacts, the state of the figures from the
/// linearised stiffnesses (`report::hertz_state`); else nothing.
fn static_tag(report: &Report) -> &'static str {
    if report.hertz_states.is_some() {
        " — static linearisation"
    } else {
        ""
    }
}

/// Stable explicit timestep.
fn timestep_section(report: &Report, d: usize, out: &mut Vec<Section>) {
    let dt = &report.stable_dt;
    // Step limits, rounded down: never printed above the limit.
    let t = |x: Option<f64>| {
        x.map_or_else(
            || "— (nothing moves)".to_string(),
            |v| crate::number::time_at_most(v, d),
        )
    };
    let tag = static_tag(report);
    let mut rows = vec![
        vec![format!("coupled, 2/ω_max{tag}"), t(dt.coupled)],
        vec![format!("independent, 2/max ω_i{tag}"), t(dt.independent)],
    ];
    if dt.coupled_damped.is_some() || dt.independent_damped.is_some() {
        rows.push(vec![
            format!("coupled, with dashpots (step map){tag}"),
            t(dt.coupled_damped),
        ]);
        rows.push(vec![
            format!("one at a time, with dashpot (estimate){tag}"),
            t(dt.independent_damped),
        ]);
    }
    if let Some(p) = report
        .hertz_states
        .as_ref()
        .and_then(|s| s.at_peak.as_ref())
    {
        rows.push(vec![
            "coupled at the Hertz impact's peak, 2/ω_max".into(),
            t(p.coupled),
        ]);
    }
    let mut notes = Vec::new();
    if let Some(r) = dt
        .independent
        .zip(dt.coupled)
        .and_then(|(i, c)| crate::report::step_excess(i, c))
    {
        notes.push(format!(
            "The independent estimate is {}× too large: unsafe.",
            sig(r, d)
        ));
    }
    out.push(Section {
        title: "Stable explicit timestep".into(),
        header: strings(["estimate", "Δt"]),
        rows,
        notes,
    });
}

/// Constraint rows and their rank.
fn constraints_section(report: &Report, out: &mut Vec<Section>) {
    if report.constraints.rows > 0 {
        out.push(Section {
            title: "Constraints".into(),
            notes: vec![format!(
                "{} constraint rows of rank {} ({} redundant)",
                report.constraints.rows,
                report.constraints.rank,
                report.constraints.rows - report.constraints.rank
            )],
            ..Section::default()
        });
    }
}

/// Claims with computed, claimed and tolerance.
fn claims_section(report: &Report, out: &mut Vec<Section>) {
    if !report.claims.is_empty() {
        out.push(Section {
            title: "Claims".into(),
            header: strings(["", "#", "claim", "how", "computed", "claimed", "tolerance"]),
            rows: report
                .claims
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let mark = match c.passed {
                        Some(true) => "PASS",
                        Some(false) => "FAIL",
                        None => "????",
                    };
                    let with_unit = |x: Option<f64>, d: usize, pre: &str| {
                        x.map_or(String::new(), |x| {
                            let u = crate::render::templates::unit_text(c.unit);
                            format!("{pre}{} {u}", sig(x, d)).trim_end().to_string()
                        })
                    };
                    vec![
                        mark.into(),
                        (i + 1).to_string(),
                        format!("{} = {}", c.of, c.equals),
                        c.how.into(),
                        with_unit(c.value, 4, ""),
                        with_unit(c.expected, 4, ""),
                        with_unit(c.tolerance, 2, "± "),
                    ]
                })
                .collect(),
            // Messages whole, under the table (cells are cut to a line).
            notes: report
                .claims
                .iter()
                .enumerate()
                .filter_map(|(i, c)| c.message.as_ref().map(|m| format!("{}: {m}", i + 1)))
                .collect(),
        });
    }
}

/// One line saying what the system is: `planar · 3 generalized velocities · 2 contacts`.
pub fn headline(report: &Report) -> String {
    let c = report.contacts_total;
    format!(
        "{} · {} generalized velocities · {c} contact{}",
        report.space,
        report.dofs,
        if c == 1 { "" } else { "s" }
    )
}

/// The contacts a table lists: all of them, or for a large system the
/// most affected ones.
fn shown_contacts(report: &Report) -> Vec<&crate::report::ContactReport> {
    match &report.large {
        Some(l) => l.most_affected.iter().collect(),
        None => report.contacts.iter().collect(),
    }
}

/// Sections under a title, as aligned plain text.
pub fn sections_text(title: &str, sections: &[Section]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{title}");
    for section in sections {
        let _ = writeln!(out, "\n{}", section.title);
        if !section.header.is_empty() {
            out.push_str(&table(&section.header, &section.rows));
        }
        for note in &section.notes {
            let _ = writeln!(out, "  {note}");
        }
    }
    out
}

/// Renders the analysis summary as aligned plain text.
pub fn summary(report: &Report, digits: usize) -> String {
    let head = format!("{}\n{}", report.title, headline(report));
    sections_text(&head, &sections(report, digits))
}

/// `[[impact]]`s: one row per contact with the exact masses, one per
/// struck contact with the naive mass.
fn impact_section(report: &Report, d: usize) -> Section {
    let time = |t: f64| crate::number::time(t, d);
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    for imp in &report.impacts {
        notes.push(format!(
            "{}: v = {} m/s. {}",
            imp.name,
            sig(imp.speed, d),
            super::impact::method(imp, d)
        ));
        for c in &imp.contacts {
            let mut row = |what: &str,
                           m: Option<f64>,
                           f: f64,
                           tp: f64,
                           dur: f64,
                           x: f64,
                           vr: f64,
                           e: Option<f64>| {
                rows.push(vec![
                    imp.name.clone(),
                    c.contact.clone(),
                    what.to_string(),
                    opt(m, d),
                    sig(f, d),
                    time(tp),
                    time(dur),
                    sig(x * 1e3, d),
                    sig(vr, d),
                    opt(e, d),
                ]);
            };
            let what = if c.role == "resting" {
                "exact (resting)"
            } else {
                "exact m_eff"
            };
            row(
                what,
                c.m_eff,
                c.peak_force,
                c.time_to_peak,
                c.duration,
                c.compression,
                c.rebound_speed,
                c.restitution,
            );
            if let Some(n) = &c.naive {
                row(
                    "naive",
                    Some(n.mass),
                    n.peak_force,
                    n.time_to_peak,
                    n.duration,
                    n.compression,
                    n.rebound_speed,
                    Some(n.restitution),
                );
            }
        }
    }
    Section {
        title: "Impacts".into(),
        header: strings([
            "impact",
            "contact",
            "mass",
            "m (kg)",
            "peak force (N)",
            "to peak",
            "duration",
            "δmax (mm)",
            "separation (m/s)",
            "e",
        ]),
        rows,
        notes,
    }
}
