//! The program section (a `[model]` case's `[motion]`, issue 40) in every
//! format: the headline line, the tables and the worked numbers at the
//! worst sample as plain Unicode text (each format escapes it its own
//! way), and the speed-against-limit plots. Numbers only from the report.

use super::plot::{self, Scale, Series};
use crate::analysis::program::{LimitKind, ProgramReport, SampleRow, SeriesKind, Transfer};
use crate::analysis::robot::Governing;
use crate::number::{Round, pretty, sig, sig_round};
use crate::report::Report;
use serde::Serialize;

fn n(x: f64, d: usize) -> String {
    pretty(&sig(x, d))
}

/// A limit (a permissible speed, a speed factor): rounded down, so that
/// the digits a reader copies still keep the program within it.
fn lim(x: f64, d: usize) -> String {
    pretty(&sig_round(x, d, Round::Down))
}

/// Decimals that give the largest of `times` `d` significant figures:
/// one format for a whole column of times (never 0.5000 beside 2.900).
fn time_decimals(times: impl Iterator<Item = f64>, d: usize) -> usize {
    let top = times
        .filter(|t| t.is_finite())
        .fold(0.0f64, |m, t| m.max(t.abs()));
    if top == 0.0 {
        return 0;
    }
    (d as i32 - 1 - top.log10().floor() as i32).max(0) as usize
}

/// A time of a column at `decimals` ([`time_decimals`]).
fn fixed(x: f64, decimals: usize) -> String {
    pretty(&format!("{x:.decimals$}"))
}

fn opt(x: Option<f64>, d: usize) -> String {
    x.map_or_else(|| "∞".to_string(), |v| n(v, d))
}

/// What the templates show: sentences, two tables, the worked numbers.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// Sentences about the program and its inputs.
    pub summary: Vec<String>,
    /// Per hazard point and region.
    pub pairs_header: Vec<String>,
    /// Rows.
    pub pairs: Vec<Vec<String>>,
    /// The worst moments.
    pub header: Vec<String>,
    /// Rows.
    pub rows: Vec<Vec<String>>,
    /// The formulas with numbers at the worst sample.
    pub worked: Vec<String>,
    /// Joint values beyond the model's range.
    pub warnings: Vec<String>,
}

fn verdict(t: &Transfer) -> &'static str {
    if t.within { "within" } else { "over" }
}

fn by(t: &Transfer) -> &'static str {
    match t.limited_by {
        LimitKind::Force => "by force",
        LimitKind::Energy => "by energy",
        LimitKind::Pressure => "by pressure",
    }
}

/// Pa → N/cm², the unit the region tables use.
const PA_PER_N_CM2: f64 = 1e4;

fn sample_cells(r: &SampleRow, d: usize, decimals: usize, pressure: bool) -> Vec<String> {
    let mut cells = vec![
        fixed(r.time, decimals),
        format!("{} · {}", r.hazard, r.region),
        n(r.speed, d),
        opt(r.exact.robot_mass, d),
        lim(r.exact.max_speed, d),
        lim(r.exact.factor, 3.min(d)),
        opt(r.worst_direction.robot_mass, d),
        lim(r.worst_direction.max_speed, d),
        lim(r.rule.max_speed, d),
        format!("{} / {}", verdict(&r.exact), verdict(&r.rule)),
    ];
    if pressure {
        cells.insert(
            6,
            r.exact
                .pressure
                .map_or_else(|| "—".to_string(), |p| n(p / PA_PER_N_CM2, d)),
        );
    }
    cells
}

fn summary(p: &ProgramReport, d: usize) -> Vec<String> {
    let source = match (&p.file, p.interpolation) {
        (Some(f), _) => format!("the trajectory `{f}`"),
        (None, Some(i)) => format!(
            "{} waypoints, {i} interpolation, sampled every {} s",
            p.waypoints.unwrap_or(0),
            n(p.step.unwrap_or(0.0), d)
        ),
        _ => "the program".into(),
    };
    let velocities = match p.velocities {
        "central_difference" => {
            "joint velocities by central differences (q̇ᵢ = (qᵢ₊₁ − qᵢ₋₁)/(tᵢ₊₁ − tᵢ₋₁), one-sided at the ends)"
        }
        "columns" => "joint velocities from the file's velocity columns",
        _ => "joint velocities from the interpolation",
    };
    let mut out = vec![format!(
        "{} samples over {} s from {source}; {velocities}; joints moved: {}.",
        p.samples,
        n(p.duration, d),
        p.joints.join(", ")
    )];
    out.push(format!(
        "Robot mass at the contact three ways: exact along the point's velocity v = J q̇, m_R = 1/(uᵀ Λ⁻¹ u) with u = v/|v| and Λ⁻¹ = J_p M⁻¹ J_pᵀ; the worst direction, the largest mass of the point's effective-mass ellipsoid (a contact whose direction is unknown); and the rule m_R = m_mov/2 + m_L = {}/2 + {} = {} kg (m_mov the moving mass of the model, ISO/TS 15066's M; m_L the payload).",
        n(p.moving_mass, d),
        n(p.payload_mass, d),
        n(p.rule_mass, d)
    ));
    out.push(verdict_mass(p, d));
    out.push("Each meets the body region as two masses and a spring (ISO/TS 15066 Annex A): μ = (1/m_R + 1/m_H)⁻¹, peak force v√(μ k_H), permissible speed v_max = F_max/√(μ k_H) by force, √(2 E_max/μ) by energy and, for a region with a contact area A_c, p_max A_c/√(μ k_H) by pressure (peak pressure p = F/A_c), the smallest governing; the factor is v_max/v. A uniform time scaling of the program scales every speed and leaves every mass, so the program's factor is the smallest over its samples.".into());
    let regions: Vec<String> = p
        .regions
        .iter()
        .map(|r| {
            let mut s = format!(
                "{}: m_H = {} kg, k_H = {} N/m",
                r.name,
                n(r.mass, d),
                n(r.stiffness, d)
            );
            if let Some(f) = r.force_limit {
                s += &format!(", F_max = {} N", n(f, d));
            }
            if let Some(e) = r.energy_limit {
                s += &format!(", E_max = {} J", n(e, d));
            }
            if let Some(a) = r.area {
                s += &format!(", contact area A_c = {} cm²", n(a * 1e4, d));
            }
            if let Some(p) = r.pressure_limit {
                s += &format!(", p_max = {} N/cm²", n(p / PA_PER_N_CM2, d));
            }
            s
        })
        .collect();
    out.push(format!(
        "Body regions as the case gives them (no region value is built into meff): {}.",
        regions.join("; ")
    ));
    if p.series.kind == SeriesKind::Envelope {
        out.push(format!(
            "The plots show an envelope of the {} samples: each point stands for {} consecutive samples and holds their largest speed and masses and their smallest permissible speeds; the factors, fractions of time and worst samples are from every sample.",
            p.samples, p.series.bin
        ));
    }
    if let Some([lo, hi]) = p.mass_ratio {
        out.push(format!(
            "Exact mass over the rule's along the program: {} to {}.",
            n(lo, 3.min(d)),
            n(hi, 3.min(d))
        ));
    }
    out
}

/// Which mass the verdict rests on, and why (the person verdict's rule,
/// `analysis::robot::governing`).
fn verdict_mass(p: &ProgramReport, d: usize) -> String {
    let f = |x: Option<f64>| x.map_or_else(|| "—".to_string(), |v| lim(v, 3.min(d)));
    if !p.exact_is_lower_bound {
        return format!(
            "The model's M includes joint armature (rotor and gearbox inertia), so the verdict rests on the exact mass: factor {}.",
            f(p.factor_verdict)
        );
    }
    format!(
        "The model's M has no joint armature (rotor and gearbox inertia), so the exact mass is a lower bound on the real arm's and its permissible speeds and factors upper bounds: the verdict rests at each sample on the larger of the exact mass and the rule's {} kg, as the person verdict does — factor {} ({} at the worst sample). The exact mass alone gives factor {}, a lower bound's, not the verdict.",
        n(p.rule_mass, d),
        f(p.factor_verdict),
        match p.governing {
            Governing::Exact => "the exact mass",
            Governing::RuleOfThumb => "the rule mass",
        },
        f(p.factor)
    )
}

fn worked(p: &ProgramReport, d: usize) -> Vec<String> {
    let Some(w) = &p.worst else {
        return Vec::new();
    };
    let Some(region) = p.regions.iter().find(|r| r.name == w.region) else {
        return Vec::new();
    };
    let mut out = vec![format!(
        "At the worst sample, t = {} s, {} against the {}: |v| = {} m/s along ({}, {}, {}).",
        n(w.time, d),
        w.hazard,
        w.region,
        n(w.speed, d),
        n(w.direction[0], 3),
        n(w.direction[1], 3),
        n(w.direction[2], 3)
    )];
    let (on_exact, on_rule) = match w.governing {
        Governing::Exact => (" (the verdict's)", ""),
        Governing::RuleOfThumb => (" (a lower bound: not the verdict)", " (the verdict's)"),
    };
    for (name, t) in [
        (format!("exact{on_exact}"), &w.exact),
        ("worst direction".to_string(), &w.worst_direction),
        (format!("rule{on_rule}"), &w.rule),
    ] {
        let mut s = format!(
            "{name}: m_R = {} kg, μ = (1/{} + 1/{})⁻¹ = {} kg",
            opt(t.robot_mass, d),
            opt(t.robot_mass, d),
            n(region.mass, d),
            n(t.reduced_mass, d)
        );
        if let (Some(v), Some(f)) = (t.max_speed_force, region.force_limit) {
            s += &format!(
                "; F_max/√(μ k_H) = {}/√({} × {}) = {} m/s",
                n(f, d),
                n(t.reduced_mass, d),
                n(region.stiffness, d),
                lim(v, d)
            );
        }
        if let (Some(v), Some(p), Some(a)) =
            (t.max_speed_pressure, region.pressure_limit, region.area)
        {
            s += &format!(
                "; p_max A_c/√(μ k_H) = {} N/cm² × {} cm²/√({} × {}) = {} m/s",
                n(p / PA_PER_N_CM2, d),
                n(a * 1e4, d),
                n(t.reduced_mass, d),
                n(region.stiffness, d),
                lim(v, d)
            );
        }
        if let (Some(v), Some(e)) = (t.max_speed_energy, region.energy_limit) {
            s += &format!(
                "; √(2 E_max/μ) = √(2 × {}/{}) = {} m/s",
                n(e, d),
                n(t.reduced_mass, d),
                lim(v, d)
            );
        }
        let pressure = t.pressure.map_or_else(String::new, |p| {
            format!(", peak pressure {} N/cm²", n(p / PA_PER_N_CM2, d))
        });
        s += &format!(
            "; v_max = {} m/s {}; peak force {} N{pressure}; factor {}/{} = {} ({})",
            lim(t.max_speed, d),
            by(t),
            n(t.peak_force, d),
            lim(t.max_speed, d),
            n(w.speed, d),
            lim(t.factor, 3.min(d)),
            verdict(t)
        );
        out.push(s);
    }
    out
}

/// The templates' view of the program section.
pub fn view(report: &Report, d: usize) -> Option<View> {
    let p = report.program.as_ref()?;
    let f = |x: Option<f64>| x.map_or_else(|| "—".to_string(), |v| lim(v, 3.min(d)));
    let pressure = p.regions.iter().any(|r| r.area.is_some());
    let mut header: Vec<String> = [
        "t (s)",
        "point · region",
        "v (m/s)",
        "m_R exact (kg)",
        "v_max exact (m/s)",
        "factor exact",
        "m_R worst dir. (kg)",
        "v_max worst dir. (m/s)",
        "v_max rule (m/s)",
        "exact / rule",
    ]
    .map(String::from)
    .to_vec();
    if pressure {
        header.insert(6, "peak pressure exact (N/cm²)".into());
    }
    // One format for the times of each table.
    let pair_decimals = time_decimals(
        p.pairs
            .iter()
            .filter_map(|q| q.worst.as_ref().map(|w| w.time)),
        d,
    );
    let sample_decimals = time_decimals(p.worst_samples.iter().map(|r| r.time), d);
    Some(View {
        summary: summary(p, d),
        pairs_header: [
            "point",
            "region",
            "factor (verdict)",
            "factor (exact)",
            "factor (worst direction)",
            "factor (rule)",
            "time over (exact)",
            "time over (rule)",
            "worst at t (s)",
        ]
        .map(String::from)
        .to_vec(),
        pairs: p
            .pairs
            .iter()
            .map(|q| {
                vec![
                    q.hazard.clone(),
                    q.region.clone(),
                    f(q.factor_verdict),
                    f(q.factor_exact),
                    f(q.factor_worst_direction),
                    f(q.factor_rule),
                    format!("{} %", n(100.0 * q.fraction_over, 3)),
                    format!("{} %", n(100.0 * q.fraction_over_rule, 3)),
                    q.worst
                        .as_ref()
                        .map_or("—".into(), |w| fixed(w.time, pair_decimals)),
                ]
            })
            .collect(),
        header,
        rows: p
            .worst_samples
            .iter()
            .map(|r| sample_cells(r, d, sample_decimals, pressure))
            .collect(),
        worked: worked(p, d),
        warnings: p.warnings.clone(),
    })
}

/// One plot per hazard point and region: the point's speed and the
/// permissible speed with each mass, against time.
pub fn plots(report: &Report) -> Vec<String> {
    let Some(p) = report.program.as_ref() else {
        return Vec::new();
    };
    p.pairs
        .iter()
        .filter_map(|q| {
            let h = p.hazards.iter().find(|h| h.name == q.hazard)?;
            let line = |label: &str, y: Vec<f64>, dashed: bool| Series {
                label: label.into(),
                points: p.time.iter().copied().zip(y).collect(),
                dashed,
                markers: false,
            };
            let series = [
                line(&format!("speed of {}", q.hazard), h.speed.clone(), false),
                line(
                    "v_max, exact mass",
                    q.max_speed_exact
                        .iter()
                        .map(|x| x.unwrap_or(f64::NAN))
                        .collect(),
                    false,
                ),
                line(
                    "v_max, worst direction",
                    q.max_speed_worst_direction.clone(),
                    true,
                ),
                line("v_max, rule m_mov/2 + m_L", q.max_speed_rule.clone(), true),
            ];
            Some(plot::line_plot(
                &series,
                "t (s)",
                &format!("speed (m/s), {} · {}", q.hazard, q.region),
                Scale::Linear,
                Scale::Linear,
            ))
        })
        .collect()
}

/// The plain-text section of `meff eval`.
pub fn section(report: &Report, d: usize) -> Option<super::text::Section> {
    let v = view(report, d)?;
    let mut notes = v.summary.clone();
    notes.extend(v.pairs.iter().map(|r| {
        format!(
            "{} · {}: factor {} verdict, {} exact, {} worst direction, {} rule; over the limit {} (exact), {} (rule) of the time",
            r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]
        )
    }));
    notes.extend(v.worked.iter().cloned());
    notes.extend(v.warnings.iter().map(|w| format!("warning: {w}")));
    Some(super::text::Section {
        title: "Program near a person: worst moments".into(),
        header: v.header,
        rows: v.rows,
        notes,
    })
}
