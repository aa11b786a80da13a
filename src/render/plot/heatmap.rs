//! A heat map of values over a grid of two variables (the workspace map's
//! permissible speeds): one cell per grid point, a sequential colour
//! scale from the smallest value (dark) to the largest (light), the scale
//! as a bar with its end values. Every cell carries its value as a
//! `<title>`; deterministic text, no scripts.

use super::{c, esc, rich, sig, svg_open};
use std::fmt::Write;

/// Dark to light (smallest value, the most restrictive, darkest).
const RAMP: [(f64, [f64; 3]); 4] = [
    (0.0, [40.0, 30.0, 90.0]),
    (0.35, [45.0, 110.0, 160.0]),
    (0.7, [90.0, 185.0, 140.0]),
    (1.0, [240.0, 230.0, 140.0]),
];

fn colour(t: f64) -> String {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let k = RAMP
        .iter()
        .position(|(x, _)| *x >= t)
        .unwrap_or(RAMP.len() - 1)
        .max(1);
    let ((a, ca), (b, cb)) = (RAMP[k - 1], RAMP[k]);
    let f = if b > a { (t - a) / (b - a) } else { 0.0 };
    let ch = |i: usize| (ca[i] + f * (cb[i] - ca[i])).round() as u8;
    format!("#{:02x}{:02x}{:02x}", ch(0), ch(1), ch(2))
}

/// `values[i][j]` at `x[j]` (across) and `y[i]` (up); non-finite values
/// are drawn grey. Labels are plain text (escaped here). The values'
/// text (cell titles, the scale's ends) is rounded `round`: down for
/// limits such as permissible speeds.
pub fn heat_map(
    x: &[f64],
    y: &[f64],
    values: &[Vec<f64>],
    labels: [&str; 3],
    round: crate::number::Round,
) -> String {
    let [x_label, y_label, value_label] = labels;
    let value = |v: f64, d: usize| crate::number::sig_round(v, d, round);
    let (w, h) = (520.0, 330.0);
    let (left, right, top, bottom) = (64.0, 92.0, 12.0, 48.0);
    let mut s = String::new();
    svg_open(&mut s, "plot", w, h, &format!("heat map of {value_label}"));
    let finite = values.iter().flatten().copied().filter(|v| v.is_finite());
    let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    if x.is_empty() || y.is_empty() || !lo.is_finite() {
        s.push_str(r#"<text x="20" y="40" class="tick">no data</text></svg>"#);
        return s;
    }
    let (pw, ph) = (w - left - right, h - top - bottom);
    let (cw, ch) = (pw / x.len() as f64, ph / y.len() as f64);
    let span = if hi > lo { hi - lo } else { 1.0 };
    for (i, row) in values.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            let fill = if v.is_finite() {
                colour((v - lo) / span)
            } else {
                "#cccccc".to_string()
            };
            let _ = write!(
                s,
                r#"<rect x="{x}" y="{y}" width="{cw}" height="{ch}" fill="{fill}"><title>{a}, {b}: {v}</title></rect>"#,
                x = c(left + j as f64 * cw),
                y = c(top + ph - (i + 1) as f64 * ch),
                cw = c(cw + 0.3),
                ch = c(ch + 0.3),
                a = sig(x[j], 4),
                b = sig(y[i], 4),
                v = value(v, 4)
            );
        }
    }
    let _ = write!(
        s,
        r#"<rect x="{l}" y="{t}" width="{pw}" height="{ph}" class="frame" fill="none"/>"#,
        l = c(left),
        t = c(top),
        pw = c(pw),
        ph = c(ph)
    );
    // Ticks at the two ends and the middle of each axis (cell centres).
    let picks = |n: usize| -> Vec<usize> {
        let mut v = vec![0, n / 2, n - 1];
        v.dedup();
        v
    };
    for j in picks(x.len()) {
        let _ = write!(
            s,
            r#"<text x="{x}" y="{y}" class="tick" text-anchor="middle">{l}</text>"#,
            x = c(left + (j as f64 + 0.5) * cw),
            y = c(top + ph + 14.0),
            l = sig(x[j], 3)
        );
    }
    for i in picks(y.len()) {
        let _ = write!(
            s,
            r#"<text x="{x}" y="{y}" class="tick" text-anchor="end">{l}</text>"#,
            x = c(left - 4.0),
            y = c(top + ph - (i as f64 + 0.5) * ch + 3.5),
            l = sig(y[i], 3)
        );
    }
    let _ = write!(
        s,
        r#"<text x="{x}" y="{y}" class="label" text-anchor="middle">{l}</text>"#,
        x = c(left + pw / 2.0),
        y = c(h - 10.0),
        l = rich(x_label)
    );
    let _ = write!(
        s,
        r#"<text x="{x}" y="{y}" class="label" text-anchor="middle" transform="rotate(-90 {x} {y})">{l}</text>"#,
        x = c(16.0),
        y = c(top + ph / 2.0),
        l = rich(y_label)
    );
    // The scale: a bar of 20 steps, smallest at the bottom.
    let (bx, bw, steps) = (left + pw + 16.0, 14.0, 20);
    for k in 0..steps {
        let _ = write!(
            s,
            r#"<rect x="{x}" y="{y}" width="{bw}" height="{bh}" fill="{fill}"/>"#,
            x = c(bx),
            y = c(top + ph - (k + 1) as f64 * ph / steps as f64),
            bw = c(bw),
            bh = c(ph / steps as f64 + 0.3),
            fill = colour((k as f64 + 0.5) / steps as f64)
        );
    }
    for (v, y) in [(hi, top + 8.0), (lo, top + ph)] {
        let _ = write!(
            s,
            r#"<text x="{x}" y="{y}" class="tick" text-anchor="start">{v}</text>"#,
            x = c(bx + bw + 4.0),
            y = c(y),
            v = value(v, 3)
        );
    }
    let _ = write!(
        s,
        r#"<text x="{x}" y="{y}" class="label" text-anchor="middle" transform="rotate(-90 {x} {y})">{l}</text>"#,
        x = c(w - 10.0),
        y = c(top + ph / 2.0),
        l = esc(value_label)
    );
    s.push_str("</svg>");
    s
}
