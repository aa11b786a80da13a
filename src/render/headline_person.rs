//! The headline's person verdicts (the contact type they cover, the mass
//! they rest on) and a world-wide engine setting's line.

use super::headline_parts::{Segment, bound, decided, down, n, plain, setting_text, strong, up};
use crate::report::Report;

pub(super) fn person_lines(report: &Report, d: usize, out: &mut Vec<Vec<Segment>>) {
    use crate::analysis::robot::Governing;
    for p in &report.persons {
        let Some(ex) = &p.exact else { continue };
        // The contact type the verdict covers, always said: the model is
        // the transient one (the region free to recoil).
        let mut line = vec![plain(format!(
            "Contact with a person, {} · {} (transient: the {} free to recoil; a clamped contact is not covered): ",
            p.contact, p.region, p.region
        ))];
        let ids = format!("{}, {})", p.contact, p.region);
        let nominal = if report.tolerances.is_some() {
            " at the nominal inputs"
        } else {
            ""
        };
        let rule_name = p.rule_of_thumb_name.unwrap_or("rule of thumb");
        let (gov, with) = match (p.governing, &p.rule_of_thumb) {
            (Governing::RuleOfThumb, Some(r)) => (
                r,
                format!(
                    " with the rule-of-thumb mass {rule_name} = {} kg",
                    n(r.robot_mass, d)
                ),
            ),
            _ => (
                ex,
                format!(" with the exact m_eff = {} kg", n(ex.robot_mass, d)),
            ),
        };
        let on_exact = p.governing == Governing::Exact;
        match (gov.peak_force, p.force_limit, p.speed) {
            (Some(f), Some(lim), Some(v)) => {
                line.push(plain("peak force "));
                // With tolerances the verdict is the largest force's.
                let f =
                    match bound(report, &format!("person_peak_force({ids}")).filter(|_| on_exact) {
                        Some(b) => {
                            line.extend(decided(b, true, "N", d));
                            line.push(plain(")"));
                            b.hi.max(f)
                        }
                        None => {
                            line.push(strong(format!("{} N", up(f, d))));
                            f
                        }
                    };
                line.push(plain(format!(" at {} m/s{with}, ", n(v, d))));
                line.push(strong(if f <= lim { "within" } else { "above" }));
                line.push(plain(format!(" the limit F_max = {} N", n(lim, d))));
            }
            _ => line.push(plain(format!(
                "robot mass {} kg, reduced mass {} kg{nominal}",
                n(gov.robot_mass, d),
                n(gov.reduced_mass, d)
            ))),
        }
        if let Some(vmax) = gov.max_speed {
            line.push(plain("; speed limit "));
            match bound(report, &format!("max_speed({ids}")).filter(|_| on_exact) {
                Some(b) => {
                    line.extend(decided(b, false, "m/s", d));
                    line.push(plain(format!("{with})")));
                }
                None => {
                    line.push(strong(format!("{} m/s", down(vmax, d))));
                    // Said once: the force's clause named the mass.
                    line.push(plain(if gov.peak_force.is_some() && p.speed.is_some() {
                        " with the same mass".to_string()
                    } else {
                        with.clone()
                    }));
                }
            }
        }
        if !on_exact {
            // The exact numbers beside, with why they are not the verdict.
            line.push(plain(format!(
                "; the exact m_eff = {} kg gives {}{}, but the model has no joint armature (rotor and gearbox inertia): m_eff is a lower bound on the real arm's, so that force is a lower bound and that speed an upper bound",
                n(ex.robot_mass, d),
                ex.peak_force.map_or(String::new(), |f| format!("{} N", up(f, d))),
                ex.max_speed.map_or(String::new(), |v| format!(
                    "{}{} m/s",
                    if ex.peak_force.is_some() { " and " } else { "" },
                    down(v, d)
                )),
            )));
        } else if let Some(rule) = &p.rule_of_thumb {
            line.push(plain(format!(
                "; the rule of thumb ({rule_name}) takes {} kg, ×{} the exact mass",
                n(rule.robot_mass, d),
                n(rule.robot_mass / ex.robot_mass, d)
            )));
            if let Some(v) = rule.max_speed {
                line.push(plain(format!(", and a speed limit of {} m/s", down(v, d))));
            }
            if p.exact_is_lower_bound {
                line.push(plain(
                    "; the model has no joint armature: m_eff is a lower bound on the real arm's",
                ));
            }
        } else if p.exact_is_lower_bound {
            line.push(plain(
                "; the model has no joint armature: m_eff is a lower bound on the real arm's, the force a lower bound and the speed an upper bound",
            ));
        }
        line.push(plain("."));
        out.push(line);
    }
}

/// An engine with one frequency and damping ratio for the whole world:
/// whether one setting serves every contact, the one that misses least,
/// and the substeps its frequency (and every contact's own) needs.
pub(super) fn world_segments(
    name: &str,
    w: &crate::engines::world::WorldSetting,
    substeps: usize,
) -> Vec<Segment> {
    let settings: Vec<String> = w.settings.iter().map(|(k, v)| setting_text(k, v)).collect();
    let lead = if w.differ {
        format!(
            "; {name} has one {} and {} for the whole world: no single setting gives every contact the case's k and c; the one that misses least is ",
            w.settings[0].0, w.settings[1].0
        )
    } else {
        "; one world-wide setting serves every contact: ".to_string()
    };
    let mut out = vec![plain(lead)];
    out.push(strong(settings.join(", ")));
    if w.differ {
        out.push(plain(format!(
            " (each contact's frequency within ×{} of its own, its damping ratio within ×{})",
            up(w.frequency_miss, 3),
            up(w.damping_miss, 3)
        )));
    }
    if let Some(n) = w.substeps_needed {
        out.push(plain(format!(
            ", above 1/8 of the substep rate at {substeps} substeps: it needs at least {n} substeps per step"
        )));
    }
    if let Some(n) = w.substeps_for_all.filter(|_| w.differ) {
        out.push(plain(format!(
            "; every contact's own frequency is reachable from {n} substeps per step"
        )));
    }
    out
}

/// The person section's notes, once for every format: the contact type
/// the results cover, and per person whose exact m_eff is a lower bound,
/// what the verdict rests on instead.
pub(super) fn person_notes(report: &Report, d: usize) -> Vec<String> {
    use crate::analysis::robot::Governing;
    if report.persons.is_empty() {
        return Vec::new();
    }
    let mut out = vec![
        "Contact type: transient — the body region is free to recoil, the robot's mass and the region's in series (ISO/TS 15066 transient contact; Annex A allows twice the quasi-static force for most regions). A clamped contact (the region backed by a rigid surface: quasi-static) is not modelled here: there the robot meets k_H alone, F = v√(m_R k_H), against the quasi-static limit. F_max is to be the region's transient limit.".to_string(),
    ];
    for p in report.persons.iter().filter(|p| p.exact_is_lower_bound) {
        let rule = p.rule_of_thumb_name.unwrap_or("rule of thumb");
        let mut s = format!(
            "{} · {}: the model has no joint armature (rotor and gearbox inertia, N² I_rotor at each joint), so the exact m_eff is a lower bound on the real arm's: its peak force is a lower bound and its speed at the limit an upper bound",
            p.contact, p.region
        );
        match (p.governing, &p.rule_of_thumb) {
            (Governing::RuleOfThumb, Some(r)) => s.push_str(&format!(
                "; the headline's verdict rests on the rule-of-thumb mass {rule} = {} kg, the larger",
                n(r.robot_mass, d)
            )),
            _ => s.push_str("; no larger mass is given to rest the verdict on"),
        }
        s.push('.');
        out.push(s);
    }
    out
}
