//! The verification's part of the plain-text summary: the verdict, each
//! check, and the runs behind them.

use super::number::{sig, time};
use super::section::{Section, strings};

pub(super) fn verification_sections(
    v: &crate::verify::Verification,
    hertz: &str,
    d: usize,
    out: &mut Vec<Section>,
) {
    let preloads: Vec<String> = v.settings.preload.iter().map(|p| sig(*p, 3)).collect();
    let verdict = &v.verdict;
    let made = verdict.checks.iter().filter(|c| c.agrees.is_some()).count();
    let mut notes = vec![if verdict.agrees {
        format!("The simulation agrees with the analysis: {made} checks within their tolerances.")
    } else if made == 0 {
        "No check could be made (see the reasons below).".to_string()
    } else {
        format!(
            "The simulation DISAGREES with the analysis in {} of {made} checks.",
            verdict.disagreements().count()
        )
    }];
    for c in verdict.disagreements() {
        notes.push(format!(
            "disagrees: {}: predicted {}, measured {}, rel. error {} > tolerance {} ({})",
            c.what,
            c.predicted.map_or("—".into(), |x| sig(x, d + 2)),
            c.measured.map_or("—".into(), |x| sig(x, d + 2)),
            c.rel_error.map_or("—".into(), |x| sig(x, 2)),
            c.tolerance.map_or("—".into(), |x| sig(x, 2)),
            c.why
        ));
    }
    for c in verdict.skipped() {
        notes.push(format!("not checked: {}: {}", c.what, c.why));
    }
    out.push(Section {
        title: "Verification verdict".into(),
        header: Vec::new(),
        rows: Vec::new(),
        notes,
    });
    out.push(Section {
        title: "Verification: impulse test".into(),
        header: strings(["contact", "impulse (N s)", "max rel. error", "pulse T/10", "pulse T/100", "pulse T/1000"]),
        rows: v
            .impulse
            .iter()
            .map(|i| {
                let mut row = vec![i.contact.clone(), sig(i.impulse, d), sig(i.max_rel_error, 2)];
                row.extend(i.pulse_windows.iter().map(|w| sig(w.max_rel_error, 2)));
                row.resize(6, String::new());
                row
            })
            .collect(),
        notes: vec![format!(
            "Simulator: {}; every contact preloaded by {}{hertz}. Δġ after an instantaneous impulse, and after the same impulse spread over a force pulse of T_min/10, /100, /1000, against A[:, i] P.",
            v.simulator,
            preload_list(&preloads),
        )],
    });
    out.push(Section {
        title: "Verification: free vibration".into(),
        header: strings(["excites", "amplitude (m)", "Δt", "ω predicted (rad/s)", "ω measured (rad/s)", "rel. error", "tolerance"]),
        rows: v
            .free_vibration
            .iter()
            .map(|f| vec![f.excites.clone(), sig(f.amplitude, 2), time(f.dt, 3), sig(f.omega_predicted, d + 2), sig(f.omega_measured, d + 2), sig(f.rel_error, 2), sig(f.tolerance, 2)])
            .collect(),
        notes: vec![format!(
            "Dashpots removed, velocity Verlet, up to {} steps per period (and at most half the fastest mode's stable step), {} periods; frequency from zero crossings of the gap. Amplitude {} m{}.",
            crate::verify::STEPS_PER_PERIOD,
            v.settings.periods,
            sig(v.settings.compression, 3),
            v.settings.length_scale.as_ref().map_or(String::new(), |(l, what)| format!(
                " = {} × the smallest length, {} m ({what})",
                sig(crate::verify::AMPLITUDE_FRACTION, 1),
                sig(*l, 3)
            ))
        )],
    });
    if !v.damped.is_empty() {
        out.push(Section {
            title: "Verification: damping".into(),
            header: strings(["mode", "ζ", "ω_d predicted", "ω_d measured", "decay predicted (1/s)", "decay measured (1/s)"]),
            rows: v
                .damped
                .iter()
                .map(|r| {
                    let opt = |x: Option<f64>| x.map_or("—".into(), |x| sig(x, d + 2));
                    vec![r.mode.to_string(), sig(r.zeta, 3), opt(r.omega_d_predicted), opt(r.omega_d_measured), sig(r.decay_predicted, d + 1), opt(r.decay_measured)]
                })
                .collect(),
            notes: vec!["With dashpots; damped frequency from zero crossings, decay rate from the logarithms of the gap's peaks.".into()],
        });
    }
    if let Some(c) = &v.convergence {
        let mut notes = vec![format!(
            "Errors against the analysis' ω = {} rad/s.",
            sig(c.reference, d + 4)
        )];
        for other in &v.convergence_all {
            let orders: Vec<String> = other.observed_order.iter().map(|o| sig(*o, 3)).collect();
            notes.push(format!(
                "Observed orders, {} (nominal {}): {} — {}",
                other.integrator,
                other.nominal_order,
                orders.join(", "),
                other.comment
            ));
        }
        out.push(Section {
            title: format!(
                "Verification: timestep convergence ({}, {})",
                c.integrator, c.quantity
            ),
            header: strings(["Δt", "ω (rad/s)", "error (rad/s)", "observed order"]),
            rows: c
                .dt
                .iter()
                .enumerate()
                .map(|(j, dt)| {
                    vec![
                        time(*dt, 3),
                        sig(c.value[j], d + 4),
                        sig(c.error[j], 2),
                        if j == 0 {
                            String::new()
                        } else {
                            c.observed_order
                                .get(j - 1)
                                .map_or(String::new(), |o| sig(*o, 3))
                        },
                    ]
                })
                .collect(),
            notes,
        });
    }
    if let Some(st) = &v.stability {
        let outcome = |bad: bool| if bad { "diverged" } else { "stayed bounded" };
        out.push(Section {
            title: "Verification: stability".into(),
            header: strings(["run", "Δt", "result"]),
            rows: vec![
                vec!["between 2/ω_max and 2/max ω_i (stable by the independent estimate)".into(), time(st.dt_run_independent, d), outcome(st.diverged_at_independent_dt).into()],
                vec!["0.9 × 2/ω_max (coupled)".into(), time(st.dt_run_coupled, d), outcome(!st.bounded_at_coupled_dt).into()],
            ],
            notes: vec!["Velocity Verlet, fastest mode excited; diverged = the gap grew past 100× the initial amplitude.".into()],
        });
    }
}

/// Values each with its unit, as a list: `1 N`, `1 N and 2 N`, `1 N, 2 N
/// and 3 N` (never `1, 2 N`, which reads as one value with a unit).
pub fn with_units(values: &[String], unit: &str) -> String {
    let v: Vec<String> = values.iter().map(|x| format!("{x} {unit}")).collect();
    match v.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// On a sheet with Hertz contacts, what the preload is not (the templates
/// say the same after their preload sentence): the simulator runs a Hertz
/// contact as its linearised spring at a state the sheet states, never as
/// the Hertz law under the preload. Empty without Hertz contacts.
pub(super) fn hertz_springs(report: &crate::report::Report, d: usize) -> String {
    if report.hertz.is_empty() {
        return String::new();
    }
    let springs = if report.hertz.len() <= 3 {
        let each: Vec<String> = report
            .hertz
            .iter()
            .map(|h| {
                format!(
                    "{}: k = {} N/m at δ = {} m",
                    h.contact,
                    sig(h.stiffness, d),
                    sig(h.overlap, d)
                )
            })
            .collect();
        each.join("; ")
    } else {
        "the k and δ of the Hertz contacts table".to_string()
    };
    let peak = report
        .hertz_states
        .as_ref()
        .is_some_and(|s| s.governing == crate::report::hertz_state::State::AtPeak);
    format!(
        ": a device of the simulator, not a load on the Hertz law. The simulator runs every contact as a linear spring, a Hertz contact as its linearised stiffness at a state the sheet states, never as the Hertz law under this preload: every check at the static linearisation ({springs}){}",
        if peak {
            " except the row checks, at the Hertz impact's peak (as their lines say)"
        } else {
            ""
        }
    )
}

/// The preloads, each with its unit, in contact order.
fn preload_list(preloads: &[String]) -> String {
    let order = if preloads.len() > 1 {
        " (in contact order)"
    } else {
        ""
    };
    format!("{}{order}", with_units(preloads, "N"))
}
