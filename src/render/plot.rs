//! Plots as inline SVG: deterministic text, no scripts, no fonts beyond
//! the generic families (a browser without any particular font still
//! lays them out).
//!
//! Two kinds: small bar charts for mode shapes, and line plots (linear or
//! logarithmic axes) for sweeps, convergence studies and energy histories.

use super::number::sig;
use std::fmt::Write;

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
    let height = 70.0;
    let mid = 30.0;
    let mut s = String::new();
    svg_open(&mut s, "bars", width, height, "mode shape");
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
        // Shortened before escaping, so that no entity is cut.
        let short = esc(&raw.chars().take(6).collect::<String>());
        let _ = write!(
            s,
            r#"<text x="{x}" y="{y}" class="tick" text-anchor="middle">{short}</text>"#,
            x = c(x + bar / 2.0),
            y = c(height - 4.0)
        );
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

fn nice_ticks(lo: f64, hi: f64, scale: Scale) -> Vec<f64> {
    if scale == Scale::Log {
        let (a, b) = (lo.floor() as i32, hi.ceil() as i32);
        let step = (((b - a) as f64) / 6.0).ceil().max(1.0) as i32;
        return (a..=b)
            .step_by(step as usize)
            .map(f64::from)
            .filter(|t| *t >= lo - 1e-9 && *t <= hi + 1e-9)
            .collect();
    }
    let span = (hi - lo).max(f64::MIN_POSITIVE);
    let raw = span / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let start = (lo / step).ceil() * step;
    let mut out = Vec::new();
    let mut t = start;
    while t <= hi + step * 1e-9 && out.len() < 20 {
        out.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
        t += step;
    }
    out
}

fn tick_label(t: f64, scale: Scale) -> String {
    match scale {
        Scale::Log => format!("1e{}", t.round() as i32),
        Scale::Linear => {
            let s = sig(t, 3);
            if s.contains('.') && !s.contains('e') {
                s.trim_end_matches('0').trim_end_matches('.').to_string()
            } else {
                s
            }
        }
    }
}

/// A line plot with axes, ticks, labels and a legend.
pub fn line_plot(
    series: &[Series],
    x_label: &str,
    y_label: &str,
    x_scale: Scale,
    y_scale: Scale,
) -> String {
    let (w, h) = (520.0, 300.0);
    let (left, right, top, bottom) = (70.0, 20.0, 16.0, 46.0);
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
        x0 -= 0.5;
        x1 += 0.5;
    }
    if y1 - y0 <= 0.0 {
        let pad = if y0 == 0.0 { 1.0 } else { y0.abs() * 0.1 };
        y0 -= pad;
        y1 += pad;
    } else if y_scale == Scale::Linear {
        let pad = 0.05 * (y1 - y0);
        y0 -= pad;
        y1 += pad;
    }
    let px = |x: f64| left + (x - x0) / (x1 - x0) * (w - left - right);
    let py = |y: f64| h - bottom - (y - y0) / (y1 - y0) * (h - top - bottom);
    let _ = write!(
        s,
        r#"<rect x="{l}" y="{t}" width="{pw}" height="{ph}" class="frame"/>"#,
        l = c(left),
        t = c(top),
        pw = c(w - left - right),
        ph = c(h - top - bottom)
    );
    for t in nice_ticks(x0, x1, x_scale) {
        let x = px(t);
        let _ = write!(
            s,
            r#"<line x1="{x}" y1="{a}" x2="{x}" y2="{b}" class="grid"/>"#,
            x = c(x),
            a = c(top),
            b = c(h - bottom)
        );
        let _ = write!(
            s,
            r#"<text x="{x}" y="{y}" class="tick" text-anchor="middle">{l}</text>"#,
            x = c(x),
            y = c(h - bottom + 14.0),
            l = tick_label(t, x_scale)
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
            l = tick_label(t, y_scale)
        );
    }
    let _ = write!(
        s,
        r#"<text x="{x}" y="{y}" class="label" text-anchor="middle">{l}</text>"#,
        x = c(left + (w - left - right) / 2.0),
        y = c(h - 8.0),
        l = esc(x_label)
    );
    let _ = write!(
        s,
        r#"<text x="14" y="{y}" class="label" text-anchor="middle" transform="rotate(-90 14 {y})">{l}</text>"#,
        y = c(top + (h - top - bottom) / 2.0),
        l = esc(y_label)
    );
    let mut legend = String::new();
    let n_series = series.len();
    for (k, (series, p)) in series.iter().zip(&pts).enumerate() {
        let col = COLORS[k % COLORS.len()];
        if p.len() > 1 {
            let d: Vec<String> = p
                .iter()
                .map(|&(x, y)| format!("{},{}", c(px(x)), c(py(y))))
                .collect();
            let dash = if series.dashed {
                r#" stroke-dasharray="6 4""#
            } else {
                ""
            };
            let _ = write!(
                s,
                r#"<polyline points="{}" fill="none" stroke="{col}" stroke-width="1.8"{dash}/>"#,
                d.join(" ")
            );
        }
        if series.markers || p.len() == 1 {
            for &(x, y) in p {
                let _ = write!(
                    s,
                    r#"<circle cx="{}" cy="{}" r="3" fill="{col}"/>"#,
                    c(px(x)),
                    c(py(y))
                );
            }
        }
        // Legend in the top-right corner, on a backing so curves stay
        // legible; drawn after every line.
        let s = &mut legend;
        let ly = top + 14.0 + 16.0 * k as f64;
        let lx = w - right - 190.0;
        if k == 0 {
            let _ = write!(
                s,
                r#"<rect x="{x}" y="{y}" width="186" height="{hh}" class="legend-box"/>"#,
                x = c(lx - 4.0),
                y = c(top + 2.0),
                hh = c(16.0 * n_series as f64 + 4.0)
            );
        }
        let dash = if series.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let _ = write!(
            s,
            r#"<line x1="{a}" y1="{y}" x2="{b}" y2="{y}" stroke="{col}" stroke-width="2"{dash}/>"#,
            a = c(lx),
            b = c(lx + 18.0),
            y = c(ly - 4.0)
        );
        let _ = write!(
            s,
            r#"<text x="{x}" y="{y}" class="legend">{l}</text>"#,
            x = c(lx + 24.0),
            y = c(ly),
            l = esc(&series.label)
        );
    }
    s.push_str(&legend);
    s.push_str("</svg>");
    s
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
    for (k, e) in [
        (0, edges[0]),
        (counts.len() / 2, edges[counts.len() / 2]),
        (counts.len(), edges[counts.len()]),
    ] {
        let x = left + k as f64 * bw;
        let _ = write!(
            s,
            r#"<text x="{x}" y="{y}" class="tick" text-anchor="middle">{l}</text>"#,
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
        l = esc(x_label)
    );
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plots_are_deterministic_svg() {
        let s = vec![Series {
            label: "m_eff".into(),
            points: vec![(0.0, 2.0), (0.1, 1.0), (0.2, 0.4)],
            dashed: false,
            markers: true,
        }];
        let a = line_plot(&s, "r (m)", "m_eff (kg)", Scale::Linear, Scale::Linear);
        assert_eq!(
            a,
            line_plot(&s, "r (m)", "m_eff (kg)", Scale::Linear, Scale::Linear)
        );
        assert!(a.starts_with("<svg") && a.ends_with("</svg>") && a.contains("polyline"));
        let b = shape_bars(&[1.0, -0.5], &["left".into(), "right".into()]);
        assert_eq!(b.matches("<rect").count(), 2);
    }
}
