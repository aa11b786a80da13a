//! The sheet's headline, written once for every format: the step to use
//! and what set it, then the result each part of the case exists for
//! (impacts, a person's contact, engine settings) and the model checks.
//!
//! Lines are plain Unicode text in segments, some of them bold; each
//! format escapes the text its own way (`templates.rs` hands them to the
//! HTML, Markdown and Typst templates; `text.rs` prints them).

pub use super::headline_parts::{Segment, setting_text};
use super::headline_parts::{bound, decided, down, n, plain, strong, t, t_at_most, up};
use super::headline_person::{person_lines, world_segments};
use crate::number::{pretty, sig};
use crate::report::Report;

/// With tolerances, what the step to use is (the smallest over the box's
/// points searched); the rest of the line explains the step at the
/// nominal inputs, which this names.
fn box_clause(report: &Report, d: usize) -> Option<Segment> {
    let dt = &report.stable_dt;
    let (nominal, corners) = (dt.nominal_governing?, dt.governing_corners?);
    Some(plain(format!(
        "the smallest step over the {corners} points of the inputs' tolerance box searched exactly (its corners, and inside it where a result is not monotone; see Tolerances), stable at every one of them. At the nominal inputs {}: ",
        t_at_most(report, nominal, d)
    )))
}

/// On a sheet with Hertz contacts whose static linearisation sets the
/// step: says so (`report::hertz_state`); else nothing.
fn static_words(report: &Report) -> &'static str {
    match &report.hertz_states {
        Some(s) if s.governing == crate::report::hertz_state::State::Static => {
            " at the Hertz contacts' static linearisation"
        }
        _ => "",
    }
}

/// “Use Δt ≤ …” for a case with tangential springs: the step over every
/// row, the rows that set it, and what the tangential springs change.
fn tangential_step_line(
    report: &Report,
    tg: &crate::report::tangential::TangentialReport,
    d: usize,
) -> Option<Vec<Segment>> {
    tg.dt_with?;
    // The sheet's step to use: with tolerances the smallest over the box.
    let h = report.stable_dt.governing?;
    let damped = tg.dt_with_by.is_some_and(|b| b.starts_with("damped"));
    let rows = tg
        .setting_rows
        .iter()
        .map(|r| format!("{} ({} %)", r.row, n(100.0 * r.share, 2)))
        .collect::<Vec<_>>()
        .join(", ");
    let mut line = vec![
        plain("Use "),
        strong(format!("Δt ≤ {}", t_at_most(report, h, d))),
        plain(if damped {
            " (symplectic Euler, the dashpot force taken at the step's start velocity)"
        } else {
            " (symplectic Euler, velocity Verlet or central differences)"
        }),
    ];
    match box_clause(report, d) {
        Some(c) => line.extend([plain(": "), c]),
        None => line.push(plain(", ")),
    }
    line.push(plain(format!(
        "{}over every contact row, normal and tangential{}; set by {rows}",
        if damped { "" } else { "2/ω_max " },
        static_words(report)
    )));
    if let (Some(w), Some(r)) = (tg.dt_without, tg.dt_ratio) {
        line.push(plain(format!(
            ". Without the tangential springs the step would be {}: they change it by ×{}",
            t_at_most(report, w, d),
            n(r, d)
        )));
    }
    line.push(plain("."));
    Some(line)
}

/// The headline lines of `report` at `d` significant figures.
pub fn lines(report: &Report, d: usize) -> Vec<Vec<Segment>> {
    let mut out = Vec::new();
    let lead = engines_lead(report);
    if lead {
        engine_lines(report, d, &mut out);
    }
    if let Some(mut line) = step_line(report, d) {
        if lead && let Some(first) = line.first_mut() {
            // A step for explicit integrators, which the engines never use.
            let names: Vec<String> = report
                .engines
                .iter()
                .map(|e| format!("{}'s is {}", e.name, e.integrator))
                .collect();
            first.text = format!(
                "For an explicit integrator (not the engine's own step: {}), u{}",
                names.join("; "),
                first.text.trim_start_matches('U')
            );
        }
        out.push(line);
    }
    impact_lines(report, d, &mut out);
    person_lines(report, d, &mut out);
    out.extend(program_line(report, d));
    if !lead {
        engine_lines(report, d, &mut out);
    }
    if !report.model_checks.is_empty() {
        let k = report.model_checks.len();
        out.push(vec![
            strong(format!(
                "Model checks: {k} warning{}",
                if k == 1 { "" } else { "s" }
            )),
            plain(
                " — the inputs below look implausible; the numbers are right for the model as typed, \
                 which may not be the model meant (see “Model checks”).",
            ),
        ]);
    }
    out
}

/// “Use Δt ≤ …” where a Hertz impact's peak sets the step: the stiffnesses
/// there, ω_max over every row, and the static linearisation's step
/// (labelled as such: not stable at the peak).
fn hertz_peak_line(report: &Report, d: usize) -> Option<Vec<Segment>> {
    let p = report.hertz_peak.as_ref().filter(|p| p.governs())?;
    // The sheet's step to use: with tolerances the smallest over the box
    // (at every point at its own impact's peak).
    let h = report.stable_dt.governing?;
    let nominal = p.governing?;
    let damped = p.governing_by.is_some_and(|b| b.starts_with("damped"));
    let at = p
        .contacts
        .iter()
        .map(|c| {
            let kt = c
                .tangential_stiffness
                .map(|k| format!(", k_t = {} N/m", n(k, d)))
                .unwrap_or_default();
            format!(
                "{}: δ_max = {} m, k = {} N/m{kt}",
                c.contact,
                n(c.max_overlap, d),
                n(c.stiffness, d)
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    let rows = if report.tangential.is_some() {
        "every contact row, normal and tangential"
    } else {
        "the contacts"
    };
    let mut line = vec![
        plain("Use "),
        strong(format!("Δt ≤ {}", t_at_most(report, h, d))),
        plain(if damped {
            " (symplectic Euler, the dashpot force taken at the step's start velocity)"
        } else {
            " (symplectic Euler, velocity Verlet or central differences)"
        }),
    ];
    match box_clause(report, d) {
        Some(c) => line.extend([plain(": "), c]),
        None => line.push(plain(" ")),
    }
    line.push(plain(format!(
        "through the Hertz impact ({at}): {}; the linear limit at the peak, {} over {rows} (ω_max = {} rad/s there), is {}, and {} of it (×{}) is stable through the overlap an explicit step overshoots to",
        if p.set_by == "impact_resolution" {
            format!(
                "the largest step that keeps the rebound's energy within {} % at every phase of first touch ({} × 2/ω of the struck row alone at its peak, ≈{} steps over the contact)",
                n(100.0 * p.rebound_tolerance, 2),
                n(p.resolution_factor, 3),
                n(
                    crate::hertz::PEAK_OMEGA_DURATION / (2.0 * p.resolution_factor),
                    2
                )
            )
        } else {
            "the linear limit at the peak less the overshoot".to_string()
        },
        if damped {
            "the step map's limit"
        } else {
            "2/ω_max"
        },
        n(p.omega_max, d),
        p.limit.map_or("—".into(), |x| t_at_most(report, x, d)),
        p.stable.map_or("—".into(), |x| t_at_most(report, x, d)),
        n(p.overshoot_factor, 3)
    )));
    if let Some(s) = p.static_governing.filter(|&s| s > nominal * (1.0 + 1e-9)) {
        line.push(plain(format!(
            ". The step from the static linearisation only, {}, is {}× too large at the peak (",
            t_at_most(report, s, d),
            n(s / nominal, d)
        )));
        line.push(strong("unsafe"));
        line.push(plain(" during the impact)"));
    }
    line.push(plain("."));
    Some(line)
}

/// “Use Δt ≤ …”, with the effect that set it.
fn step_line(report: &Report, d: usize) -> Option<Vec<Segment>> {
    if let Some(line) = hertz_peak_line(report, d) {
        return Some(line);
    }
    if let Some(tg) = &report.tangential {
        return tangential_step_line(report, tg, d);
    }
    let dt = &report.stable_dt;
    let h = dt.governing?;
    let by = dt.governing_by.unwrap_or("coupled_mode");
    // With engines, the step is the case's own springs' under an explicit
    // integrator, not an engine's (whose verdicts are their own lines).
    let own = if report.engines.is_empty() {
        ""
    } else {
        " for the case's own springs and dashpots as typed"
    };
    let closed = report.near.as_ref().filter(|n| n.governs);
    let mut line = vec![
        plain("Use "),
        strong(format!(
            "Δt ≤ {}",
            t_at_most(report, closed.and_then(|n| n.closed_dt).unwrap_or(h), d)
        )),
    ];
    if let Some(n) = closed {
        line.push(plain(format!(
            ", the step with the scene's {} near contact{} closed ({}): the snapshot's own {} contacts give {}, which is too long once the pile settles and they close. For the snapshot alone, {}",
            n.count,
            if n.count == 1 { "" } else { "s" },
            near_words(n),
            report.contacts_total,
            t_at_most(report, h, d),
            t_at_most(report, h, d)
        )));
    }
    line.extend([plain(if by.starts_with("damped") {
        format!("{own} (symplectic Euler, the dashpot force taken at the step's start velocity): ")
    } else {
        format!("{own} (symplectic Euler, velocity Verlet or central differences): ")
    })]);
    line.extend(box_clause(report, d));
    let h = dt.nominal_governing.unwrap_or(h);
    // Δt = 2/ω holds in rad/s, whatever unit the sheet shows ω in.
    let wmax = format!("{} rad/s", n(report.coupled_omega_max, d));
    line.push(plain(match by {
        "damped_step_map" => format!(
            "the limit of symplectic Euler with these dashpots, from its step map; the undamped 2/ω_max = 2/({wmax}) = {} is not stable with them",
            dt.coupled.map_or("—".into(), |x| t_at_most(report, x, d))
        ),
        "damped_energy_bound" => format!(
            "a bound with the dashpots (the energy bound at ω_max = {wmax}; the step map is not formed for this case), below the exact limit"
        ),
        "upper_bound" => format!(
            "2/ω̄ with the Gershgorin bound ω̄ = {} rad/s: the fastest mode did not converge, so the bound stands in for it",
            up(report.coupled_omega_max, d)
        ),
        _ => format!(
            "2/ω_max, the fastest coupled mode{} ω_max = {wmax}",
            static_words(report)
        ),
    }));
    // The contacts one at a time, against the step they would replace:
    // with dashpots, their damped steps against the damped limit.
    let damped = by.starts_with("damped");
    let alone = if damped {
        dt.independent_damped
    } else {
        dt.independent
    };
    if let Some(ind) = alone
        && let Some(ratio) = crate::report::step_excess(ind, h)
    {
        line.push(plain(format!(
            ". The contacts taken one at a time{} give {} ({}× too large — ",
            if damped {
                ", each with its dashpot,"
            } else {
                ""
            },
            t_at_most(report, ind, d),
            n(ratio, d)
        )));
        line.push(strong("unsafe"));
        line.push(plain(")"));
    }
    if !report.engines.is_empty() {
        line.push(plain(
            ". Each engine forms its own contact from its settings: its verdict is on its own line below",
        ));
    }
    if let Some(n) = report.near.as_ref().filter(|n| !n.governs && n.count > 0) {
        line.push(plain(format!(
            ". The scene has {} near contact{} ({}){}",
            n.count,
            if n.count == 1 { "" } else { "s" },
            near_words(n),
            match n.closed_dt {
                Some(c) => format!(
                    "; with them closed the step is {}, not shorter",
                    t_at_most(report, c, d)
                ),
                None => ": not in this analysis (a large scene is analysed once); the step of the pile as it settles and they close may be shorter".to_string(),
            }
        )));
    }
    line.push(plain("."));
    Some(line)
}

/// What a near contact is, and with them closed how many contacts there are.
fn near_words(n: &crate::report::near::NearReport) -> String {
    let mut w = format!(
        "surfaces apart by less than {} % of the smaller radius but not within the contact tolerance",
        pretty(&sig(100.0 * n.fraction, 2))
    );
    if let Some(c) = n.closed_contacts {
        w.push_str(&format!(
            "; with them closed, {c} contacts with the same law"
        ));
    }
    w
}

fn impact_lines(report: &Report, d: usize, out: &mut Vec<Vec<Segment>>) {
    for im in &report.impacts {
        let Some(top) = im
            .contacts
            .iter()
            .filter(|c| c.peak_force.is_finite())
            .max_by(|a, b| a.peak_force.total_cmp(&b.peak_force))
        else {
            continue;
        };
        let struck: Vec<_> = im.contacts.iter().filter(|c| c.role == "struck").collect();
        let mut line = vec![plain(format!(
            "Impact “{}” at {} m/s: peak force ",
            im.name,
            n(im.speed, d)
        ))];
        let at = format!(
            " at {} after {}, contact for {}, compression {} m",
            top.contact,
            t(report, top.time_to_peak, d),
            t(report, top.duration, d),
            n(top.compression, d)
        );
        match bound(report, &format!("peak_force({})", im.name)) {
            Some(b) => {
                line.extend(decided(b, true, "N", d));
                line.push(plain(format!("{at})")));
            }
            None => {
                line.push(strong(format!("{} N", n(top.peak_force, d))));
                line.push(plain(at));
            }
        }
        if struck.len() > 1 {
            let sum: f64 = struck.iter().map(|c| c.peak_force).sum();
            line.push(plain(format!(
                "; {} struck contacts, their peaks summing to {} N",
                struck.len(),
                n(sum, d)
            )));
            if let (true, Some(m), Some(alone)) = (im.alike, top.m_together, top.m_eff) {
                line.push(plain(format!(
                    "; pushing alike, each acts with 1/Σ_j A_cj = {} kg (alone 1/A_cc = {} kg)",
                    n(m, d),
                    n(alone, d)
                )));
            }
        }
        if let Some(naive) = top.naive.as_ref().filter(|s| s.peak_force > 0.0) {
            line.push(plain(if struck.len() > 1 {
                format!(
                    "; the naive estimate (each struck contact with its {} kg share of the total mass) says {} N per contact ({}×)",
                    n(naive.mass, d),
                    n(naive.peak_force, d),
                    n(naive.peak_force / top.peak_force, d)
                )
            } else {
                format!(
                    "; the total-mass estimate says {} N ({}×)",
                    n(naive.peak_force, d),
                    n(naive.peak_force / top.peak_force, d)
                )
            }));
        }
        line.push(plain("."));
        out.push(line);
    }
}

/// Whether the case's engines all advance their contacts by a step other
/// than symplectic Euler (implicit, or a soft step): the sheet's step for
/// explicit integrators is then not one any of them uses, and the
/// engines' own results lead the headline.
fn engines_lead(report: &Report) -> bool {
    !report.engines.is_empty()
        && report
            .engines
            .iter()
            .all(|e| e.integrator != crate::engines::law::Step::SemiImplicit.name())
}

/// The engine's own effect on the stiffness: contacts whose spring the
/// engine caps below the one set, grouped by the spring applied.
fn cap_segments(e: &crate::engines::EngineReport, d: usize) -> Vec<Segment> {
    let capped: Vec<_> = e.contacts.iter().filter(|c| c.k_set.is_some()).collect();
    let Some(first) = capped.first() else {
        return Vec::new();
    };
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for c in &capped {
        let k = c.k.map_or_else(|| "—".into(), |k| n(k, d));
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, names)) => names.push(c.name.as_str()),
            None => groups.push((k, vec![c.name.as_str()])),
        }
    }
    let applied = groups
        .iter()
        .map(|(k, names)| format!("k = {k} N/m on {}", names.join(", ")))
        .collect::<Vec<_>>()
        .join("; ");
    let why = match e.engine {
        crate::case::Engine::Drake => {
            let beta = e
                .settings
                .iter()
                .find(|(k, _)| k == "near_rigid_threshold")
                .map_or("—", |(_, v)| v.as_str());
            format!(
                ": R_n = β²ŵ/(4π²) with near_rigid_threshold β = {beta} and Drake's own inverse-mass estimate ŵ = ‖W_ii‖_F/3"
            )
        }
        _ => String::new(),
    };
    vec![
        strong(match e.engine {
            crate::case::Engine::Drake => "near-rigid cap",
            _ => "stiffness capped",
        }),
        plain(format!(
            " — the engine applies {applied}, not the {} N/m set{why}; ",
            n(first.k_set.unwrap_or(f64::NAN), d)
        )),
    ]
}

fn engine_lines(report: &Report, d: usize, out: &mut Vec<Vec<Segment>>) {
    for e in &report.engines {
        // A substepping engine advances its contacts by the substep: say so.
        let substeps = e
            .settings
            .iter()
            .find(|(k, _)| k == "substeps")
            .and_then(|(_, v)| v.parse::<usize>().ok())
            .filter(|&n| n > 1);
        let mut line = vec![plain(match substeps {
            Some(n) => format!(
                "{}, substep {} (its step {} in {n} substeps): ",
                e.name,
                t(report, e.step, d),
                t(report, e.step * n as f64, d)
            ),
            None => format!("{}, step {}: ", e.name, t(report, e.step, d)),
        })];
        // The engine's own effect first.
        line.extend(cap_segments(e, d));
        line.push(strong(match e.stable {
            Some(true) => "stable",
            Some(false) => "unstable",
            None => "stability not decided",
        }));
        if let Some(r) = e.spectral_radius {
            line.push(plain(format!(" (largest |z| = {})", n(r, d))));
        }
        // What the engine's step leaves of the fastest coupled mode.
        if let Some(m) = e.modes.first()
            && let Some(s) = m.at_step
            && !s.first_order
        {
            line.push(plain(format!(
                "; its step turns the fastest coupled mode (ω = {} rad/s, ζ = {}) into ω = {} rad/s, ζ = {} (ω h = {})",
                n(m.exact.omega, d),
                n(m.exact.zeta, 3),
                n(s.omega, d),
                n(s.zeta, 3),
                n(m.exact.omega * e.step, 3)
            )));
        }
        // Every contact up to six; beyond, the first three and a count.
        // Contacts whose text is the same are named together.
        let shown = if e.contacts.len() <= 6 { 6 } else { 3 };
        let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
        for c in e.contacts.iter().take(shown) {
            let mut s = String::new();
            if let Some(k) = c.k.filter(|_| c.k_set.is_none()) {
                s.push_str(&format!(" k = {} N/m", n(k, d)));
            }
            if let Some(m) = c.m_engine.filter(|m| m.is_finite() && c.m_eff.is_finite()) {
                s.push_str(&format!(
                    "{}the engine's mass estimate {} kg is {}× the exact m_eff = {} kg",
                    if s.is_empty() { " " } else { ", " },
                    n(m, d),
                    n(m / c.m_eff, 3),
                    n(c.m_eff, d)
                ));
            }
            if let Some(wh) = c.omega_h {
                s.push_str(&format!(
                    "{}ωh = {}",
                    if s.is_empty() { " " } else { ", " },
                    n(wh, 3)
                ));
            }
            if !c.inverse.is_empty() {
                let settings: Vec<String> =
                    c.inverse.iter().map(|(k, v)| setting_text(k, v)).collect();
                let world = e.world_setting.as_ref().is_some_and(|w| w.differ);
                s.push_str(&format!(
                    "; {} {}",
                    if world {
                        "the case's k and c alone would need"
                    } else {
                        "for the case's k and c use"
                    },
                    settings.join(", ")
                ));
            }
            match groups.iter_mut().find(|(g, _)| *g == s) {
                Some((_, names)) => names.push(c.name.as_str()),
                None => groups.push((s, vec![c.name.as_str()])),
            }
        }
        for (s, names) in groups {
            line.push(plain(format!("; {}:{s}", names.join(", "))));
        }
        if e.contacts.len() > shown {
            line.push(plain(format!(
                "; {} more contacts in the Engines section",
                e.contacts.len() - shown
            )));
        }
        if let Some(w) = &e.world_setting {
            line.extend(world_segments(e.name, w, substeps.unwrap_or(1)));
        }
        line.push(plain("."));
        out.push(line);
    }
}

/// The headline line: within limits by a factor, or where it first exceeds.
/// The factor is the verdict's (`factor_verdict`): on the exact mass, or
/// on the rule mass where the exact one is a lower bound and smaller.
fn program_line(report: &Report, d: usize) -> Option<Vec<Segment>> {
    use crate::analysis::robot::Governing;
    let p = report.program.as_ref()?;
    let mut line = vec![seg(
        format!("Program ({} samples, {} s): ", p.samples, n(p.duration, d)),
        false,
    )];
    let on_rule = p.governing == Governing::RuleOfThumb;
    let mass = if on_rule {
        format!(
            " on the rule mass m_mov/2 + m_L = {} kg where it exceeds the exact mass along the motion (the model has no joint armature, so the exact mass is a lower bound)",
            n(p.rule_mass, d)
        )
    } else if p.exact_is_lower_bound {
        " with each contact along the point's velocity (the exact mass along the motion, above the rule mass where it governs; the model has no joint armature, so it is a lower bound)".to_string()
    } else {
        " with each contact along the point's velocity (the exact mass along the motion; its speeds may grow that much)".to_string()
    };
    match (p.factor_verdict, p.first_over) {
        (None, _) => line.push(seg("the hazard points never move", true)),
        (Some(f), None) => {
            line.push(seg(
                format!("within limits by factor {}", down(f, 3.min(d))),
                true,
            ));
            line.push(seg(mass, false));
        }
        (Some(f), Some(t)) => {
            line.push(seg(format!("exceeds at t = {} s", n(t, d)), true));
            line.push(seg(
                format!(
                    " ({} % of its time over a limit); run it at ≤ {} of its speed (durations × {}){mass}",
                    n(100.0 * p.fraction_over, 3),
                    down(f, 3.min(d)),
                    up(1.0 / f, 3.min(d))
                ),
                false,
            ));
        }
    }
    // The factor above rests on the contact's direction being the
    // velocity's; a contact across the motion meets the worst direction.
    let worst_direction = p
        .pairs
        .iter()
        .filter_map(|q| q.factor_worst_direction)
        .reduce(f64::min);
    if let Some(fw) = worst_direction {
        line.push(seg(
            format!(
                "; with the contact in the worst direction (the largest mass of the point's ellipsoid) the factor is {} — {}",
                down(fw, 3.min(d)),
                if fw >= 1.0 {
                    "within limits"
                } else {
                    "over the limit"
                }
            ),
            false,
        ));
    }
    if let Some(w) = &p.worst {
        line.push(seg(
            format!(
                "; worst: {} · {} at t = {} s",
                w.hazard,
                w.region,
                n(w.time, d)
            ),
            false,
        ));
    }
    match (on_rule, p.factor, p.factor_rule) {
        (true, Some(e), _) => line.push(seg(
            format!(
                ". The exact mass alone gives factor {} — an upper bound, not the verdict (no rotor or gearbox inertia in M)",
                down(e, 3.min(d))
            ),
            false,
        )),
        (false, _, Some(r)) => line.push(seg(
            format!(
                ". The rule m_mov/2 + m_L = {} kg gives factor {}",
                n(p.rule_mass, d),
                down(r, 3.min(d))
            ),
            false,
        )),
        _ => {}
    }
    line.push(seg(".", false));
    Some(line)
}

fn seg(text: impl Into<String>, strong: bool) -> Segment {
    Segment {
        text: text.into(),
        strong,
    }
}
