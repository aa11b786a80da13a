//! An impact's part of the sheet that every format shares: the closed
//! forms with the case's numbers substituted (LaTeX, one line each), the
//! sentence saying how the numbers were found, and the force–time plot.

use super::plot::{self, Scale, Series};
use crate::analysis::impact::Single;
use crate::notation::{tex_number, tex_text, tex_time};
use crate::report::impact::ImpactReport;

fn q(x: f64, unit: &str, d: usize) -> String {
    format!("{}\\,\\mathrm{{{unit}}}", tex_number(x, d))
}

/// A length in mm below 1 m (penetrations are millimetres).
fn length(x: f64, d: usize) -> String {
    if x.abs() < 1.0 {
        q(x * 1e3, "mm", d)
    } else {
        q(x, "m", d)
    }
}

/// A `[[person]]` transient with the exact mass, its numbers substituted
/// (LaTeX, one line each): the reduced mass, the peak force at the speed
/// given and the speed at the force limit.
pub fn person_equations(p: &crate::analysis::robot::PersonReport, d: usize) -> Vec<String> {
    let Some(t) = &p.exact else {
        return Vec::new();
    };
    let (mr, mh, k) = (
        q(t.robot_mass, "kg", d),
        q(p.mass, "kg", d),
        q(p.stiffness, "N/m", d),
    );
    let mu = q(t.reduced_mass, "kg", d);
    let mut out = vec![format!(
        "\\mu = \\left(\\frac{{1}}{{m_R}} + \\frac{{1}}{{m_H}}\\right)^{{-1}} = \\left(\\frac{{1}}{{{mr}}} + \\frac{{1}}{{{mh}}}\\right)^{{-1}} = {mu}"
    )];
    if let (Some(v), Some(f)) = (p.speed, t.peak_force) {
        out.push(format!(
            "\\hat{{F}} = v\\sqrt{{\\mu\\,k_H}} = {} \\times \\sqrt{{{mu} \\times {k}}} = {}",
            q(v, "m/s", d),
            // Set against its limit: rounded up, as the table and the
            // summary print it.
            q(crate::number::at_least(f, d), "N", d)
        ));
    }
    if let (Some(lim), Some(vmax)) = (p.force_limit, t.max_speed) {
        out.push(format!(
            "v_{{\\max}} = \\frac{{F_{{\\max}}}}{{\\sqrt{{\\mu\\,k_H}}}} = \\frac{{{}}}{{\\sqrt{{{mu} \\times {k}}}}} = {}",
            q(lim, "N", d),
            // A permitted speed: rounded down, as the table and the
            // summary print it.
            q(crate::number::at_most(vmax, d), "m/s", d)
        ));
    }
    out
}

/// The substituted closed forms of a single-contact impact (empty when
/// the impact is coupled: its numbers come from the piecewise-linear
/// solution, described in words).
pub fn equations(imp: &ImpactReport, digits: usize) -> Vec<String> {
    let d = digits;
    let mut out = Vec::new();
    if let Some(dr) = &imp.drop {
        out.push(format!(
            "v = \\sqrt{{2 g h}} = \\sqrt{{2 \\times {}\\,\\mathrm{{m/s}}^{{2}} \\times {}}} = {}",
            tex_number(dr.gravity, d),
            q(dr.height, "m", d),
            q(imp.speed, "m/s", d)
        ));
    }
    let (Some(s), Some(row)) = (&imp.closed_form, imp.contacts.first()) else {
        return out;
    };
    let c = tex_text(&row.contact);
    let m_sym = format!("m_{{\\mathrm{{eff}},\\,{c}}}");
    let w_sym = format!("\\omega_{{{c}}}");
    let (k, cd) = (stiffness(s), s.zeta * 2.0 * (stiffness(s) * s.mass).sqrt());
    let (v, m, w) = (
        q(s.speed, "m/s", d),
        q(s.mass, "kg", d),
        q(s.omega, "rad/s", d),
    );
    if s.zeta == 0.0 {
        out.push(format!(
            "\\hat{{F}}_{{{c}}} = v\\sqrt{{k_{{{c}}}\\,{m_sym}}} = {v} \\times \\sqrt{{{} \\times {m}}} = {}",
            q(k, "N/m", d),
            q(s.peak_force, "N", d)
        ));
        out.push(format!(
            "\\tau_{{{c}}} = \\frac{{\\pi}}{{{w_sym}}} = \\frac{{\\pi}}{{{w}}} = {}",
            tex_time(s.duration, d)
        ));
        out.push(format!(
            "\\delta_{{\\max,\\,{c}}} = \\frac{{v}}{{{w_sym}}} = \\frac{{{v}}}{{{w}}} = {}",
            length(s.compression, d)
        ));
        out.push(format!("e_{{{c}}} = 1"));
        return out;
    }
    // Intermediates carry two more figures, so that the displayed
    // chain reproduces the result to the digits shown.
    let z = tex_number(s.zeta, d + 2);
    let th = tex_number(s.theta, d + 2);
    out.push(format!(
        "\\zeta_{{{c}}} = \\frac{{c_{{{c}}}}}{{2\\sqrt{{k_{{{c}}}\\,{m_sym}}}}} = \\frac{{{}}}{{2\\sqrt{{{} \\times {m}}}}} = {z}",
        q(cd, "N\\,s/m", d),
        q(k, "N/m", d),
    ));
    let theta_def = if s.zeta < 1.0 {
        format!(
            "\\frac{{\\arccos\\zeta}}{{\\sqrt{{1-\\zeta^2}}}} = \\frac{{\\arccos {z}}}{{\\sqrt{{1-{z}^2}}}}"
        )
    } else if s.zeta == 1.0 {
        "1".to_string()
    } else {
        format!(
            "\\frac{{\\operatorname{{arcosh}}\\zeta}}{{\\sqrt{{\\zeta^2-1}}}} = \\frac{{\\operatorname{{arcosh}} {z}}}{{\\sqrt{{{z}^2-1}}}}"
        )
    };
    out.push(format!("\\Theta = {theta_def} = {th}"));
    if s.zeta < 0.5 {
        out.push(format!(
            "t_{{\\hat{{F}}}} = \\frac{{\\arccos\\zeta - 2\\arcsin\\zeta}}{{{w_sym}\\sqrt{{1-\\zeta^2}}}} = \\frac{{\\arccos {z} - 2\\arcsin {z}}}{{{w} \\times \\sqrt{{1-{z}^2}}}} = {}",
            tex_time(s.time_to_peak, d)
        ));
        out.push(format!(
            "\\hat{{F}}_{{{c}}} = {m_sym}\\, v\\, {w_sym}\\, \\exp\\left(-\\zeta\\, {w_sym}\\, t_{{\\hat{{F}}}}\\right) = {m} \\times {v} \\times {w} \\times \\exp\\left(-{z} \\times {w} \\times {}\\right) = {}",
            tex_time(s.time_to_peak, d),
            q(s.peak_force, "N", d)
        ));
    } else {
        out.push(format!(
            "\\hat{{F}}_{{{c}}} = c_{{{c}}}\\, v = {} \\times {v} = {}",
            q(cd, "N\\,s/m", d),
            q(s.peak_force, "N", d)
        ));
    }
    out.push(format!(
        "\\tau_{{{c}}} = \\frac{{2\\Theta}}{{{w_sym}}} = \\frac{{2 \\times {th}}}{{{w}}} = {}",
        tex_time(s.duration, d)
    ));
    out.push(format!(
        "\\delta_{{\\max,\\,{c}}} = \\frac{{v}}{{{w_sym}}}\\, \\exp(-\\zeta\\Theta) = \\frac{{{v}}}{{{w}}}\\, \\exp(-{z} \\times {th}) = {}",
        length(s.compression, d)
    ));
    out.push(format!(
        "e_{{{c}}} = \\exp(-2\\zeta\\Theta) = \\exp(-2 \\times {z} \\times {th}) = {}",
        tex_number(s.restitution, d)
    ));
    out
}

/// k from the closed form's own numbers (k = m ω²).
fn stiffness(s: &Single) -> f64 {
    s.mass * s.omega * s.omega
}

/// How the numbers were found, in one sentence (plain text).
pub fn method(imp: &ImpactReport, digits: usize) -> String {
    let sig = |x: f64| crate::number::sci(x, 1);
    let time = |x: f64, d: usize| crate::number::pretty(&crate::number::time(x, d));
    let text = match (&imp.error, &imp.integration) {
        (Some(e), _) => format!("No response: {e}."),
        (None, Some(i)) if imp.closed_form.is_some() => format!(
            "Closed forms of one Kelvin–Voigt contact with the exact effective mass; checked by the piecewise-linear solution (exact between events): largest difference {}.",
            sig(i.closed_form_difference.unwrap_or(0.0))
        ),
        (None, Some(i)) => format!(
            "The contacts act together through A: the piecewise-linear system (a contact pushes while it is compressed and its force is positive) solved exactly between events by the matrix exponential, events and peaks located by bisection; {} events, every contact's force is zero and every contact separating after {}; numerical error estimated at {} (the largest relative change when the step between event checks, {}, is halved; the error of the frozen pose is not in it).",
            i.events,
            time(i.end, digits),
            sig(i.error_estimate),
            time(i.step, 3),
        ),
        (None, None) => match &imp.check_note {
            Some(note) => format!(
                "Closed forms of one Kelvin–Voigt contact with the exact effective mass; their check by the piecewise-linear solution did not finish ({note})."
            ),
            None => String::new(),
        },
    };
    // A contact that bounces: its duration is the first closed interval,
    // its peak the largest over all of them.
    let again: Vec<String> = imp
        .contacts
        .iter()
        .filter(|c| c.closings > 1)
        .map(|c| format!("{} closes {} times", c.contact, c.closings))
        .collect();
    if again.is_empty() {
        text
    } else {
        format!(
            "{text} {}: its duration is the first closed interval, its peak force and compression the largest over all of them.",
            again.join(", ")
        )
    }
}

/// The force–time plot: every contact's force with the exact masses, and
/// the naive estimate dashed (one struck contact).
/// The force–time plot in the units of the impact table beside it: force
/// in N; time in the case's display unit when it fixes one (`[display]
/// time`), else scaled like the table's times (s, ms or µs by size).
pub fn plot(imp: &ImpactReport, time: Option<&crate::case::UnitChoice>) -> String {
    if imp.history.t.is_empty() {
        return String::new();
    }
    let mut lines: Vec<Series> = imp
        .contacts
        .iter()
        .zip(&imp.history.force)
        .map(|(c, f)| Series {
            label: if imp.contacts.len() == 1 {
                format!("{} (exact m_eff)", c.contact)
            } else {
                format!("{} ({})", c.contact, c.role)
            },
            points: imp
                .history
                .t
                .iter()
                .copied()
                .zip(f.iter().copied())
                .collect(),
            dashed: false,
            markers: false,
        })
        .collect();
    if let Some(h) = &imp.naive_history
        && let Some(f) = h.force.first()
    {
        lines.push(Series {
            label: "naive (total mass)".into(),
            points: h.t.iter().copied().zip(f.iter().copied()).collect(),
            dashed: true,
            markers: false,
        });
    }
    let x_label = match time {
        Some(u) => {
            for l in &mut lines {
                l.points.iter_mut().for_each(|p| p.0 *= u.factor);
            }
            format!("t ({})", u.unit)
        }
        None => "t (s)".to_string(),
    };
    plot::line_plot_in(
        &lines,
        &x_label,
        "contact force (N)",
        Scale::Linear,
        Scale::Linear,
        (time.is_none(), false),
    )
}

/// Struck contacts that share one impact: which mass governs each, in
/// words, and `m = 1/Σ_j A_cj` with its numbers (LaTeX, one line per
/// struck contact; the first only when they push alike, since then every
/// line is the same).
#[derive(serde::Serialize)]
pub struct Together {
    /// The sentence before the lines.
    pub words: String,
    /// The lines.
    pub lines: Vec<String>,
}

/// The struck-together mass of an impact with several struck contacts.
pub fn together(imp: &ImpactReport, d: usize) -> Option<Together> {
    let struck: Vec<_> = imp
        .contacts
        .iter()
        .filter(|c| c.m_together.is_some() && !c.a_struck.is_empty())
        .collect();
    let first = struck.first()?;
    let line = |c: &crate::report::impact::ImpactContactReport| {
        let me = tex_text(&c.contact);

        let mut nums = String::new();
        for (k, &a) in c.a_struck.iter().enumerate() {
            let v = q(a.abs(), "kg}^{-1", d);
            match (k, a < 0.0) {
                (0, false) => nums.push_str(&v),
                (0, true) => nums.push_str(&format!("-{v}")),
                (_, false) => nums.push_str(&format!(" + {v}")),
                (_, true) => nums.push_str(&format!(" - {v}")),
            }
        }
        format!(
            "m_{{{me}}} = \\frac{{1}}{{\\sum_{{j}} A_{{{me},\\,j}}}} = \\frac{{1}}{{{nums}}} = {}",
            q(c.m_together.unwrap_or(f64::NAN), "kg", d)
        )
    };
    let alone = |c: &crate::report::impact::ImpactContactReport| {
        c.m_eff.map_or_else(
            || "∞".to_string(),
            |m| format!("{} kg", super::number::sig(m, d)),
        )
    };
    Some(if imp.alike {
        Together {
            words: format!(
                "The struck contacts push alike (the same k and c, equal sums of their rows of A over the struck contacts, none resting): their forces are equal at every instant, so each responds as one contact of mass m = 1/Σ_j A_cj over the struck contacts j — not its mass alone, 1/A_cc = {}:",
                alone(first)
            ),
            lines: vec![line(first)],
        }
    } else {
        Together {
            words: "The struck contacts do not push alike, so no one mass governs: the results are the coupled solution's. For comparison, with equal forces each would act with m = 1/Σ_j A_cj over the struck contacts j; alone with 1/A_cc (the m column):".into(),
            lines: struck.iter().take(3).map(|c| line(c)).collect(),
        }
    })
}
