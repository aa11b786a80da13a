//! The workspace map section (`[map]`, issue 40) in every format: a
//! sentence on how it was computed, per hazard point and region a table
//! of v_max over the grid (rows the first joint, columns the second) and
//! a heat map. Numbers only from the report.

use super::plot;
use crate::number::{Round, pretty, sig, sig_round};
use crate::report::Report;
use serde::Serialize;

fn n(x: f64, d: usize) -> String {
    pretty(&sig(x, d))
}

/// A permissible speed: rounded down, so that the digits a reader copies
/// still keep within it.
fn lim(x: f64, d: usize) -> String {
    pretty(&sig_round(x, d, Round::Down))
}

/// One hazard point against one region.
#[derive(Clone, Debug, Serialize)]
pub struct GridView {
    /// `point · region`.
    pub title: String,
    /// A sentence: smallest and largest v_max, where, and the rule's.
    pub note: String,
    /// Header: the first joint's name, then the second joint's values.
    pub header: Vec<String>,
    /// Rows: the first joint's value, then v_max per column.
    pub rows: Vec<Vec<String>>,
}

/// What the templates show.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// How the map was computed.
    pub summary: Vec<String>,
    /// Per hazard point and region.
    pub grids: Vec<GridView>,
}

/// A joint value as shown: degrees for a hinge, metres for a slide.
fn shown(kind: &str) -> (f64, &'static str) {
    if kind == "slide" {
        (1.0, "m")
    } else {
        (180.0 / std::f64::consts::PI, "deg")
    }
}

/// The templates' view of the map section.
pub fn view(report: &Report, d: usize) -> Option<View> {
    let m = report.map.as_ref()?;
    let (fa, ua) = shown(m.kinds[0]);
    let (fb, ub) = shown(m.kinds[1]);
    let how = match m.direction {
        Some(u) => format!(
            "the mass along the contact direction ({}, {}, {}) in world axes, m_R = 1/(uᵀ Λ⁻¹ u)",
            n(u[0], 3),
            n(u[1], 3),
            n(u[2], 3)
        ),
        None => "the worst-direction mass, the largest of the point's effective-mass ellipsoid, m_R = 1/λ_min(Λ⁻¹) (a contact whose direction is unknown)".into(),
    };
    let summary = vec![format!(
        "Permissible speed v_max over a grid of {} × {} poses: {} from {} to {} {ua} (rows) and {} from {} to {} {ub} (columns), the other joints at the case's configuration; at each pose {how}, met as in the program section (μ = (1/m_R + 1/m_H)⁻¹, the smallest of the force, energy and pressure limits). The rule m_mov/2 + m_L = {} kg gives one v_max per region at every pose.",
        m.axes[0].len(),
        m.axes[1].len(),
        m.joints[0],
        n(m.axes[0][0] * fa, d),
        n(m.axes[0][m.axes[0].len() - 1] * fa, d),
        m.joints[1],
        n(m.axes[1][0] * fb, d),
        n(m.axes[1][m.axes[1].len() - 1] * fb, d),
        n(m.rule_mass, d)
    )];
    let grids = m
        .grids
        .iter()
        .map(|g| {
            let mut header = vec![format!("{} ({ua}) \\ {} ({ub})", m.joints[0], m.joints[1])];
            header.extend(m.axes[1].iter().map(|&b| n(b * fb, 3)));
            let rows = m.axes[0]
                .iter()
                .zip(&g.max_speed)
                .map(|(&a, row)| {
                    let mut r = vec![n(a * fa, 3)];
                    r.extend(row.iter().map(|&v| lim(v, 3.min(d))));
                    r
                })
                .collect();
            let mut note = format!(
                "{} · {}: v_max from {} m/s (at {} = {} {ua}, {} = {} {ub}) to {} m/s; with the rule {} m/s everywhere.",
                g.hazard,
                g.region,
                lim(g.min_speed, d),
                m.joints[0],
                n(g.at_min[0] * fa, d),
                m.joints[1],
                n(g.at_min[1] * fb, d),
                lim(g.max_speed_largest, d),
                lim(g.rule_speed, d)
            );
            if m.exact_is_lower_bound && g.min_speed_exact > g.min_speed {
                note.push_str(&format!(
                    " The model has no joint armature, so the map's mass is a lower bound on the real arm's: each pose's v_max rests on the larger of it and the rule's, as the program's and person verdicts do; with the map's mass alone the smallest would be {} m/s, an upper bound, not a limit.",
                    lim(g.min_speed_exact, d)
                ));
            }
            note.push_str(&infinite_note(m, g, d));
            GridView {
                title: format!("{} · {}", g.hazard, g.region),
                note,
                header,
                rows,
            }
        })
        .collect();
    Some(View { summary, grids })
}

/// Why a map reads the region's own v_max: at the poses where the point's
/// mass is infinite (it cannot move along the map's direction, or — for
/// the worst direction — it moves in a plane or along a line, so some
/// direction has no motion), μ = m_H and v_max is the region's alone,
/// whatever the pose. Empty where every pose has a finite mass.
fn infinite_note(
    m: &crate::analysis::workspace::MapReport,
    g: &crate::analysis::workspace::MapGrid,
    d: usize,
) -> String {
    let cells: Vec<(usize, usize)> = g
        .mass
        .iter()
        .enumerate()
        .flat_map(|(i, row)| {
            row.iter()
                .enumerate()
                .filter(|(_, x)| x.is_none())
                .map(move |(j, _)| (i, j))
        })
        .collect();
    let Some(&(i, j)) = cells.first() else {
        return String::new();
    };
    let total: usize = g.mass.iter().map(Vec::len).sum();
    let (at, why) = if cells.len() == total {
        ("At every pose".to_string(), "the map is constant")
    } else {
        (
            format!("At {} of the {total} poses", cells.len()),
            "there the map reads that value",
        )
    };
    let cause = match m.direction {
        Some(_) => format!(
            "the point {} cannot move along the map's direction",
            g.hazard
        ),
        None => format!(
            "the point {} can move only in a plane or along a line (its velocity rows J_p have rank below 3: Λ⁻¹ = J_p M⁻¹ J_pᵀ has a zero eigenvalue), so in the direction it cannot move its worst-direction mass is infinite",
            g.hazard
        ),
    };
    format!(
        " {at} {cause}: m_R = ∞, μ = m_H, and v_max is the {}'s own, {} m/s, whatever the joints — {why}.",
        g.region,
        lim(g.max_speed[i][j], d)
    )
}

/// One heat map per hazard point and region.
pub fn plots(report: &Report) -> Vec<String> {
    let Some(m) = report.map.as_ref() else {
        return Vec::new();
    };
    let (fa, ua) = shown(m.kinds[0]);
    let (fb, ub) = shown(m.kinds[1]);
    let a: Vec<f64> = m.axes[0].iter().map(|x| x * fa).collect();
    let b: Vec<f64> = m.axes[1].iter().map(|x| x * fb).collect();
    m.grids
        .iter()
        .map(|g| {
            plot::heat_map(
                &b,
                &a,
                &g.max_speed,
                [
                    &format!("{} ({ub})", m.joints[1]),
                    &format!("{} ({ua})", m.joints[0]),
                    &format!("v_max (m/s), {} · {}", g.hazard, g.region),
                ],
                Round::Down,
            )
        })
        .collect()
}

/// The plain-text section of `meff eval`: the notes, then each grid.
pub fn sections(report: &Report, d: usize) -> Vec<super::text::Section> {
    let Some(v) = view(report, d) else {
        return Vec::new();
    };
    v.grids
        .into_iter()
        .enumerate()
        .map(|(i, g)| super::text::Section {
            title: format!("Workspace map: v_max (m/s), {}", g.title),
            header: g.header,
            rows: g.rows,
            notes: if i == 0 {
                let mut notes = v.summary.clone();
                notes.push(g.note);
                notes
            } else {
                vec![g.note]
            },
        })
        .collect()
}
