//! Plots as inline SVG: deterministic text, no scripts, no fonts beyond
//! the generic families (a browser without any particular font still
//! lays them out).
//!
//! Two kinds: small bar charts for mode shapes, and line plots (linear or
//! logarithmic axes) for sweeps, convergence studies and energy histories;
//! and heat maps over a grid of two variables (`heatmap.rs`).

use super::number::{sig, superscript};
use std::fmt::Write;

mod heatmap;
pub use heatmap::heat_map;

/// One line of a line plot.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// Points; non-finite values are left out.
    pub points: Vec<(f64, f64)>,
    /// Dashed (reference lines).
    pub dashed: bool,
    /// Draw markers at the points.
    pub markers: bool,
}

/// Axis scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Linear.
    Linear,
    /// Base-10 logarithmic (only positive values are drawn).
    Log,
}

const COLORS: [&str; 6] = [
    "#1f6fb2", "#c4532b", "#2f8f4e", "#8a4fb3", "#b38a00", "#555555",
];

fn esc(s: &str) -> String {
    super::safe::html_escape(s)
}

/// An axis label or legend: escaped, with the sheet's symbols typeset
/// (`ω_max`, `ω_ref`, `ω_i`, `m_eff` get real subscripts).
fn rich(s: &str) -> String {
    let mut out = esc(s);
    for (plain, base, sub) in [
        ("ω_max", "ω", "max"),
        ("ω_ref", "ω", "ref"),
        ("ω_i", "ω", "i"),
        ("m_eff", "m", "eff"),
    ] {
        out = out.replace(
            plain,
            &format!(r#"{base}<tspan baseline-shift="sub" font-size="75%">{sub}</tspan>"#),
        );
    }
    out
}

/// Coordinates are written with 2 decimals so output is stable.
fn c(x: f64) -> String {
    format!("{x:.2}")
}

/// The opening `<svg>` tag of a plot.
fn svg_open(s: &mut String, class: &str, w: f64, h: f64, label: &str) {
    let _ = write!(
        s,
        r#"<svg class="{class}" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{label}">"#,
        w = c(w),
        h = c(h),
        label = esc(label)
    );
}

/// A small bar chart of a mode shape (one bar per contact, ±1 range).
pub fn shape_bars(shape: &[f64], labels: &[String]) -> String {
    let n = shape.len().max(1);
    let bar = 22.0;
    let gap = 8.0;
    let width = n as f64 * (bar + gap) + gap;
    // Names are never cut short: long ones are written at a slant below
    // the bars (up to 24 characters; a longer name ends in an ellipsis,
    // and its bar's tooltip gives it whole).
    let names: Vec<String> = (0..n)
        .map(|i| {
            let raw = labels.get(i).map_or("", String::as_str);
            if raw.chars().count() > 24 {
                let mut t: String = raw.chars().take(23).collect();
                t.push('…');
                t
            } else {
                raw.to_string()
            }
        })
        .collect();
    let longest = names.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let slant = longest > 3;
    let height = if slant {
        62.0 + 4.6 * longest as f64
    } else {
        70.0
    };
    let mid = 30.0;
    let mut s = String::new();
    let pad = if slant { 3.4 * longest as f64 } else { 0.0 };
    svg_open(&mut s, "bars", width + pad, height, "mode shape");
    let _ = write!(
        s,
        r#"<line x1="0" y1="{m}" x2="{w}" y2="{m}" class="axis"/>"#,
        m = c(mid),
        w = c(width)
    );
    for (i, v) in shape.iter().enumerate() {
        let x = gap + i as f64 * (bar + gap);
        let h = v.clamp(-1.0, 1.0) * 25.0;
        let (y, hh) = if h >= 0.0 { (mid - h, h) } else { (mid, -h) };
        let raw = labels.get(i).map_or("", String::as_str);
        let label = esc(raw);
        let _ = write!(
            s,
            r#"<rect x="{x}" y="{y}" width="{b}" height="{hh}" fill="{col}"><title>{label}: {v}</title></rect>"#,
            x = c(x),
            y = c(y),
            b = c(bar),
            hh = c(hh.max(0.5)),
            col = COLORS[0],
            v = sig(*v, 3)
        );
        let (tx, ty) = (x + bar / 2.0 - 3.0, if slant { 62.0 } else { height - 4.0 });
        if slant {
            let _ = write!(
                s,
                r#"<text x="{x}" y="{y}" class="tick" text-anchor="start" transform="rotate(55 {x} {y})">{t}</text>"#,
                x = c(tx),
                y = c(ty),
                t = esc(&names[i])
            );
        } else {
            let _ = write!(
                s,
                r#"<text x="{x}" y="{y}" class="tick" text-anchor="middle">{t}</text>"#,
                x = c(tx),
                y = c(ty),
                t = esc(&names[i])
            );
        }
    }
    s.push_str("</svg>");
    s
}

fn transform(v: f64, scale: Scale) -> Option<f64> {
    match scale {
        Scale::Linear => v.is_finite().then_some(v),
        Scale::Log => (v.is_finite() && v > 0.0).then(|| v.log10()),
    }
}

/// A "nice" linear tick step giving at least four ticks over `span`.
fn linear_step(span: f64) -> f64 {
    let span = span.max(f64::MIN_POSITIVE);
    let raw = span / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let steps = [0.1, 0.2, 0.25, 0.5, 1.0, 2.0, 2.5, 5.0, 10.0];
    let mut k = steps
        .iter()
        .position(|m| m * mag >= raw)
        .unwrap_or(steps.len() - 1);
    // At least four ticks: take a smaller step while there are fewer.
    while k > 0 && (span / (steps[k] * mag)).floor() < 3.0 {
        k -= 1;
    }
    steps[k] * mag
}

fn nice_ticks(lo: f64, hi: f64, scale: Scale) -> Vec<f64> {
    if scale == Scale::Log {
        let (a, b) = (lo.floor() as i32, hi.ceil() as i32);
        let step = (((b - a) as f64) / 6.0).ceil().max(1.0) as i32;
        let decades: Vec<f64> = (a..=b)
            .step_by(step as usize)
            .map(f64::from)
            .filter(|t| *t >= lo - 1e-9 && *t <= hi + 1e-9)
            .collect();
        if decades.len() >= 4 {
            return decades;
        }
        // Under four decades: 1, 2, 5 in each.
        let mut out = Vec::new();
        for d in a..=b {
            for m in [1.0f64, 2.0, 5.0] {
                let t = f64::from(d) + m.log10();
                if t >= lo - 1e-9 && t <= hi + 1e-9 {
                    out.push(t);
                }
            }
        }
        return out;
    }
    let step = linear_step(hi - lo);
    let start = (lo / step).ceil() * step;
    let mut out = Vec::new();
    let mut t = start;
    while t <= hi + step * 1e-9 && out.len() < 30 {
        out.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
        t += step;
    }
    out
}

/// An axis label and the factor its tick values are divided by, so that
/// ticks read `−5, 0, 5` with the unit `µm` rather than `−5e-06 m`: SI
/// prefixes for simple units, `10ⁿ` otherwise.
fn scaled_label(label: &str, max_abs: f64) -> (String, f64) {
    if !(max_abs.is_finite() && max_abs > 0.0) {
        return (label.to_string(), 1.0);
    }
    let e3 = ((max_abs.log10() / 3.0).floor() * 3.0) as i32;
    if e3 == 0 || !(-12..=12).contains(&e3) {
        return (label.to_string(), 1.0);
    }
    let factor = 10f64.powi(e3);
    let Some(open) = label.rfind(" (") else {
        return (format!("{label} (×10{})", superscript(e3)), factor);
    };
    let unit = label[open + 2..].trim_end_matches(')');
    let prefix = match e3 {
        -12 => "p",
        -9 => "n",
        -6 => "µ",
        -3 => "m",
        3 => "k",
        6 => "M",
        9 => "G",
        _ => "",
    };
    let simple = ["m", "s", "N", "Hz", "N/m"].contains(&unit);
    let new_unit = if simple && !prefix.is_empty() {
        format!("{prefix}{unit}")
    } else {
        format!("10{} {unit}", superscript(e3))
    };
    (format!("{} ({new_unit})", &label[..open]), factor)
}

fn tick_label(t: f64, scale: Scale, factor: f64) -> String {
    match scale {
        Scale::Log => {
            let d = t.floor();
            let m = 10f64.powf(t - d).round();
            if m > 1.0 {
                format!("{}×10{}", m, superscript(d as i32))
            } else {
                format!("10{}", superscript(t.round() as i32))
            }
        }
        Scale::Linear => {
            let s = sig(t / factor, 3);
            let s = if s.contains('.') && !s.contains('e') {
                s.trim_end_matches('0').trim_end_matches('.').to_string()
            } else {
                s
            };
            s.replacen('-', "−", 1)
        }
    }
}

/// A marker of shape `k` (circle, square, triangle, diamond) at (x, y).
fn marker(s: &mut String, k: usize, x: f64, y: f64, col: &str) {
    let r = 3.2;
    let _ = match k % 4 {
        0 => write!(
            s,
            r#"<circle cx="{}" cy="{}" r="{}" fill="{col}"/>"#,
            c(x),
            c(y),
            c(r)
        ),
        1 => write!(
            s,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{col}"/>"#,
            c(x - r),
            c(y - r),
            c(2.0 * r),
            c(2.0 * r)
        ),
        2 => write!(
            s,
            r#"<polygon points="{},{} {},{} {},{}" fill="{col}"/>"#,
            c(x),
            c(y - r * 1.2),
            c(x - r * 1.1),
            c(y + r * 0.9),
            c(x + r * 1.1),
            c(y + r * 0.9)
        ),
        _ => write!(
            s,
            r#"<polygon points="{},{} {},{} {},{} {},{}" fill="{col}"/>"#,
            c(x),
            c(y - r * 1.3),
            c(x + r * 1.3),
            c(y),
            c(x),
            c(y + r * 1.3),
            c(x - r * 1.3),
            c(y)
        ),
    };
}

/// A line plot with axes, ticks, labels and a legend.
///
/// Layout rules: the legend sits below the plotting area (it never covers
/// data and is never clipped: one row per series, full width); every
/// series after the first carries markers of its own shape (curves that
/// coincide stay distinguishable); each axis has at least four ticks; a
/// linear y-range is widened to whole ticks, so the outermost labels bound
/// the data; tick values are scaled to an SI prefix or a power of ten shown
/// in the axis label.
pub fn line_plot(
    series: &[Series],
    x_label: &str,
    y_label: &str,
    x_scale: Scale,
    y_scale: Scale,
) -> String {
    line_plot_in(series, x_label, y_label, x_scale, y_scale, (true, true))
}

/// [`line_plot`], with the SI-prefix scaling of each linear axis on or
/// off (`rescale` = (x, y)): off, the ticks are in the label's own unit,
/// the unit of the table printed beside the plot (an impact's force in N,
/// not kN).
pub fn line_plot_in(
    series: &[Series],
    x_label: &str,
    y_label: &str,
    x_scale: Scale,
    y_scale: Scale,
    rescale: (bool, bool),
) -> String {
    let n_series = series.len();
    let w = 560.0;
    let (left, right, top, bottom) = (74.0, 20.0, 16.0, 46.0);
    let plot_h = 300.0;
    let legend_row = 18.0;
    let h = plot_h
        + if n_series > 0 {
            8.0 + legend_row * n_series as f64
        } else {
            0.0
        };
    let pts: Vec<Vec<(f64, f64)>> = series
        .iter()
        .map(|s| {
            s.points
                .iter()
                .filter_map(|&(x, y)| Some((transform(x, x_scale)?, transform(y, y_scale)?)))
                .collect()
        })
        .collect();
    let all: Vec<(f64, f64)> = pts.iter().flatten().copied().collect();
    let mut s = String::new();
    svg_open(
        &mut s,
        "plot",
        w,
        h,
        &format!("{y_label} against {x_label}"),
    );
    if all.is_empty() {
        s.push_str(r#"<text x="20" y="40" class="tick">no data</text></svg>"#);
        return s;
    }
    let (x0, x1, y0, y1) = data_ranges(&all, y_scale);
    let (x_label, x_factor) = match x_scale {
        Scale::Linear if rescale.0 => scaled_label(x_label, x0.abs().max(x1.abs())),
        _ => (x_label.to_string(), 1.0),
    };
    let (y_label, y_factor) = match y_scale {
        Scale::Linear if rescale.1 => scaled_label(y_label, y0.abs().max(y1.abs())),
        _ => (y_label.to_string(), 1.0),
    };
    let px = |x: f64| left + (x - x0) / (x1 - x0) * (w - left - right);
    let py = |y: f64| plot_h - bottom - (y - y0) / (y1 - y0) * (plot_h - top - bottom);
    let _ = write!(
        s,
        r#"<rect x="{l}" y="{t}" width="{pw}" height="{ph}" class="frame"/>"#,
        l = c(left),
        t = c(top),
        pw = c(w - left - right),
        ph = c(plot_h - top - bottom)
    );
    for t in nice_ticks(x0, x1, x_scale) {
        let x = px(t);
        let _ = write!(
            s,
            r#"<line x1="{x}" y1="{a}" x2="{x}" y2="{b}" class="grid"/>"#,
            x = c(x),
            a = c(top),
            b = c(plot_h - bottom)
        );
        let _ = write!(
            s,
            r#"<text x="{x}" y="{y}" class="tick" text-anchor="middle">{l}</text>"#,
            x = c(x),
            y = c(plot_h - bottom + 14.0),
            l = tick_label(t, x_scale, x_factor)
        );
    }
    for t in nice_ticks(y0, y1, y_scale) {
        let y = py(t);
        let _ = write!(
            s,
            r#"<line x1="{a}" y1="{y}" x2="{b}" y2="{y}" class="grid"/>"#,
            a = c(left),
            b = c(w - right),
            y = c(y)
        );
        let _ = write!(
            s,
            r#"<text x="{x}" y="{y}" class="tick" text-anchor="end">{l}</text>"#,
            x = c(left - 4.0),
            y = c(y + 4.0),
            l = tick_label(t, y_scale, y_factor)
        );
    }
    let _ = write!(
        s,
        r#"<text x="{x}" y="{y}" class="label" text-anchor="middle">{l}</text>"#,
        x = c(left + (w - left - right) / 2.0),
        y = c(plot_h - 10.0),
        l = rich(&x_label)
    );
    let _ = write!(
        s,
        r#"<text x="14" y="{y}" class="label" text-anchor="middle" transform="rotate(-90 14 {y})">{l}</text>"#,
        y = c(top + (plot_h - top - bottom) / 2.0),
        l = rich(&y_label)
    );
    let mut legend = String::new();
    let layout = Legend {
        plot_h,
        row: legend_row,
        left,
    };
    draw_series(&mut s, &mut legend, series, &pts, &px, &py, &layout);
    s.push_str(&legend);
    s.push_str("</svg>");
    s
}

/// Where a plot's legend rows go: below the plot area, one row a series.
struct Legend {
    plot_h: f64,
    row: f64,
    left: f64,
}

/// The ranges the axes span: the data's, widened where it has no extent,
/// a linear y axis to whole ticks at both ends.
fn data_ranges(all: &[(f64, f64)], y_scale: Scale) -> (f64, f64, f64, f64) {
    let (mut x0, mut x1) = all
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.0), b.max(p.0))
        });
    let (mut y0, mut y1) = all
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.1), b.max(p.1))
        });
    if x1 - x0 <= 0.0 {
        let pad = if x0 == 0.0 { 1.0 } else { x0.abs() * 0.1 };
        x0 -= pad;
        x1 += pad;
    }
    if y1 - y0 <= 0.0 {
        let pad = if y0 == 0.0 { 1.0 } else { y0.abs() * 0.1 };
        y0 -= pad;
        y1 += pad;
    }
    if y_scale == Scale::Linear {
        // Whole ticks at both ends: the labels bound the data.
        let step = linear_step(y1 - y0);
        y0 = (y0 / step - 1e-9).floor() * step;
        y1 = (y1 / step + 1e-9).ceil() * step;
    }
    (x0, x1, y0, y1)
}

/// Each series as a line (dashed after the first, or as asked) with its
/// markers, and its legend row.
fn draw_series(
    s: &mut String,
    legend: &mut String,
    series: &[Series],
    pts: &[Vec<(f64, f64)>],
    px: &dyn Fn(f64) -> f64,
    py: &dyn Fn(f64) -> f64,
    layout: &Legend,
) {
    for (k, (series, p)) in series.iter().zip(pts).enumerate() {
        let col = COLORS[k % COLORS.len()];
        // Reference lines are dashed; every curve after the first gets a
        // dash pattern of its own, so a curve beneath it shows through.
        let dash = if series.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            match k {
                0 => "",
                1 => r#" stroke-dasharray="9 4""#,
                2 => r#" stroke-dasharray="3 3""#,
                3 => r#" stroke-dasharray="12 3 3 3""#,
                _ => r#" stroke-dasharray="5 2""#,
            }
        };
        if p.len() > 1 {
            let d: Vec<String> = p
                .iter()
                .map(|&(x, y)| format!("{},{}", c(px(x)), c(py(y))))
                .collect();
            let _ = write!(
                s,
                r#"<polyline points="{}" fill="none" stroke="{col}" stroke-width="1.8"{dash}/>"#,
                d.join(" ")
            );
        }
        // Markers: every point when asked (or alone); otherwise on every
        // series after the first, a dozen per curve, staggered so that
        // coinciding curves show both.
        let every = if series.markers || p.len() <= 1 {
            1
        } else if k > 0 {
            (p.len() / 12).max(1)
        } else {
            0
        };
        if every > 0 {
            let offset = if every > 1 {
                (k * every / 3) % every
            } else {
                0
            };
            for &(x, y) in p.iter().skip(offset).step_by(every) {
                marker(s, k, px(x), py(y), col);
            }
        }
        // The legend row below the plot.
        let ly = layout.plot_h + 8.0 + layout.row * (k as f64 + 0.7);
        let lx = layout.left;
        let _ = write!(
            legend,
            r#"<line x1="{a}" y1="{y}" x2="{b}" y2="{y}" stroke="{col}" stroke-width="2"{dash}/>"#,
            a = c(lx),
            b = c(lx + 26.0),
            y = c(ly - 4.0)
        );
        if every > 0 {
            marker(legend, k, lx + 13.0, ly - 4.0, col);
        }
        let _ = write!(
            legend,
            r#"<text x="{x}" y="{y}" class="legend">{l}</text>"#,
            x = c(lx + 34.0),
            y = c(ly),
            l = rich(&series.label)
        );
    }
}

/// A histogram as an SVG bar chart (`edges` has one more entry than
/// `counts`).
pub fn histogram(edges: &[f64], counts: &[usize], x_label: &str) -> String {
    let (w, h) = (520.0, 220.0);
    let (left, right, top, bottom) = (50.0, 16.0, 12.0, 44.0);
    let mut s = String::new();
    svg_open(&mut s, "plot", w, h, &format!("histogram of {x_label}"));
    if counts.is_empty() || edges.len() != counts.len() + 1 {
        s.push_str(r#"<text x="20" y="40" class="tick">no data</text></svg>"#);
        return s;
    }
    let most = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
    let pw = w - left - right;
    let ph = h - top - bottom;
    let bw = pw / counts.len() as f64;
    let _ = write!(
        s,
        r#"<rect x="{l}" y="{t}" width="{pw}" height="{ph}" class="frame"/>"#,
        l = c(left),
        t = c(top),
        pw = c(pw),
        ph = c(ph)
    );
    for (k, &n) in counts.iter().enumerate() {
        let bh = n as f64 / most * ph;
        let _ = write!(
            s,
            r#"<rect x="{x}" y="{y}" width="{bw}" height="{bh}" fill="{col}"><title>{a} to {b}: {n}</title></rect>"#,
            x = c(left + k as f64 * bw + 0.5),
            y = c(top + ph - bh),
            bw = c((bw - 1.0).max(0.5)),
            bh = c(bh),
            col = COLORS[0],
            a = sig(edges[k], 3),
            b = sig(edges[k + 1], 3)
        );
    }
    // The last label ends at the right edge (centred, it ran out of the
    // picture).
    for (k, e, anchor) in [
        (0, edges[0], "middle"),
        (counts.len() / 2, edges[counts.len() / 2], "middle"),
        (counts.len(), edges[counts.len()], "end"),
    ] {
        let x = left + k as f64 * bw;
        let _ = write!(
            s,
            r#"<text x="{x}" y="{y}" class="tick" text-anchor="{anchor}">{l}</text>"#,
            x = c(x),
            y = c(h - bottom + 14.0),
            l = sig(e, 3)
        );
    }
    let _ = write!(
        s,
        r#"<text x="{x}" y="{y}" class="tick" text-anchor="end">{n}</text>"#,
        x = c(left - 4.0),
        y = c(top + 8.0),
        n = most as usize
    );
    let _ = write!(
        s,
        r#"<text x="{x}" y="{y}" class="label" text-anchor="middle">{l}</text>"#,
        x = c(left + pw / 2.0),
        y = c(h - 8.0),
        l = rich(x_label)
    );
    s.push_str("</svg>");
    s
}

/// The effective-mass ellipse in one plane as a polar plot: `masses[k]` is
/// m_eff along the direction at angle 2πk/n from the plane's first axis
/// (`None`: infinite, not drawn). Rings at round masses; the axes are
/// labelled `first` (θ = 0) and `second` (θ = 90°).
pub fn polar(masses: &[Option<f64>], first: &str, second: &str, unit: &str) -> String {
    let (w, h) = (340.0, 340.0);
    let (cx, cy, radius) = (170.0, 164.0, 130.0);
    let mut s = String::new();
    svg_open(
        &mut s,
        "plot",
        w,
        h,
        &format!("effective mass against direction in the plane of {first} and {second}"),
    );
    let top = masses.iter().flatten().copied().fold(0.0, f64::max);
    if masses.is_empty() || top <= 0.0 || !top.is_finite() {
        s.push_str(r#"<text x="20" y="40" class="tick">no data</text></svg>"#);
        return s;
    }
    // Rings at 1, 2 or 5 × 10^k below the largest mass.
    let step = {
        let raw = top / 4.0;
        let p = 10f64.powf(raw.log10().floor());
        [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * p)
            .find(|v| *v >= raw)
            .unwrap_or(10.0 * p)
    };
    let scale = radius / (step * (top / step).ceil());
    let mut ring = step;
    while ring * scale <= radius + 1e-9 {
        let _ = write!(
            s,
            r#"<circle cx="{cx}" cy="{cy}" r="{r}" class="grid" fill="none"/><text x="{tx}" y="{ty}" class="tick">{l}</text>"#,
            cx = c(cx),
            cy = c(cy),
            r = c(ring * scale),
            tx = c(cx + 3.0),
            ty = c(cy - ring * scale - 2.0),
            l = sig(ring, 3)
        );
        ring += step;
    }
    let _ = write!(
        s,
        r#"<line x1="{a}" y1="{cy}" x2="{b}" y2="{cy}" class="grid"/><line x1="{cx}" y1="{t}" x2="{cx}" y2="{bt}" class="grid"/>"#,
        a = c(cx - radius),
        b = c(cx + radius),
        cx = c(cx),
        cy = c(cy),
        t = c(cy - radius),
        bt = c(cy + radius)
    );
    // The curve, broken where the mass is infinite.
    let n = masses.len();
    let mut path = String::new();
    let mut pen_down = false;
    for k in 0..=n {
        let th = std::f64::consts::TAU * (k % n) as f64 / n as f64;
        match masses[k % n] {
            Some(m) => {
                let (x, y) = (cx + m * scale * th.cos(), cy - m * scale * th.sin());
                let _ = write!(
                    path,
                    "{}{},{} ",
                    if pen_down { "L" } else { "M" },
                    c(x),
                    c(y)
                );
                pen_down = true;
            }
            None => pen_down = false,
        }
    }
    let _ = write!(
        s,
        r#"<path d="{p}" fill="none" stroke="{col}" stroke-width="2"/>"#,
        p = path.trim_end(),
        col = COLORS[0]
    );
    let _ = write!(
        s,
        r#"<text x="{x}" y="{y}" class="label" text-anchor="end">{a} →</text><text x="{x2}" y="{y2}" class="label">↑ {b}</text><text x="{x3}" y="{y3}" class="label" text-anchor="middle">m_eff ({u}) by direction</text>"#,
        x = c(w - 6.0),
        y = c(cy - 6.0),
        a = esc(first),
        x2 = c(cx + 6.0),
        y2 = c(18.0),
        b = esc(second),
        x3 = c(cx),
        y3 = c(h - 8.0),
        u = esc(unit)
    );
    s.push_str("</svg>");
    s
}

#[cfg(test)]
#[path = "plot/tests.rs"]
mod tests;
