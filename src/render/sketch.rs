//! The model sketch as SVG: the geometry of [`Sketch`] to scale — planar
//! cases in their plane, 3-d cases in one isometric view — with one arrow
//! per contact along its normal (`class="arrow"`, a single path: shaft and
//! head). Deterministic text, no scripts, no ids (several sketches and plots
//! share one HTML page).

use super::number::sig;
use crate::report::sketch::{BOX_EDGES, Outline, Point, Sketch, box_corners};
use std::fmt::Write;

/// Contacts or bodies labelled by name up to this count; beyond, contacts
/// are numbered in case order and bodies are not labelled.
pub const NAMED: usize = 12;

const MAX_W: f64 = 560.0;
const MAX_H: f64 = 360.0;
const MARGIN: f64 = 44.0;
const CONTACT: &str = "#c4532b";
const INK: &str = "#30343a";
const GREY: &str = "#9aa1ab";

fn esc(s: &str) -> String {
    super::safe::html_escape(s)
}

fn c(x: f64) -> String {
    format!("{x:.2}")
}

/// A name cut to 18 characters.
fn short(name: &str) -> String {
    if name.chars().count() <= 18 {
        name.to_string()
    } else {
        let mut s: String = name.chars().take(17).collect();
        s.push('…');
        s
    }
}

/// World → view plane (u right, v up).
fn project(dim: usize, p: Point) -> (f64, f64) {
    match dim {
        3 => {
            let (c30, s30) = (0.75f64.sqrt(), 0.5);
            ((p[1] - p[0]) * c30, p[2] - (p[0] + p[1]) * s30)
        }
        2 => (p[0], p[1]),
        _ => (p[0], 0.0),
    }
}

/// A round length (1, 2 or 5 × 10ⁿ) near `x`, below it.
fn round_length(x: f64) -> f64 {
    let p = 10f64.powf(x.log10().floor());
    [5.0, 2.0, 1.0]
        .iter()
        .map(|m| m * p)
        .find(|v| *v <= x)
        .unwrap_or(p)
}

/// `0.0200` → `0.02`, `5.00` → `5` (a round length says no more).
fn trim_zeros(s: &str) -> String {
    if s.contains('.') && !s.contains('e') && !s.contains('×') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// The sketch in a frame scaled by a power of two (exact) so that every
/// coordinate and length is at most 1 in magnitude — nothing then
/// overflows, or vanishes, in the drawing's arithmetic however far out or
/// small the bodies are — with that factor (m per unit); `None` when a
/// number is not finite (the geometry cannot be drawn).
fn scaled(s: &Sketch) -> Option<(Sketch, f64)> {
    let mut big = 0.0f64;
    let mut finite = true;
    let mut see = |x: f64| {
        if x.is_finite() {
            big = big.max(x.abs());
        } else {
            finite = false;
        }
    };
    for b in &s.bodies {
        b.com.iter().for_each(|x| see(*x));
        match &b.outline {
            Outline::Circle(r) => see(*r),
            Outline::Box { half, axes } => half
                .iter()
                .chain(axes.iter().flatten())
                .for_each(|x| see(*x)),
            Outline::Shape(lines) => lines.iter().flatten().flatten().for_each(|x| see(*x)),
            Outline::Point | Outline::Fixed => {}
        }
    }
    s.joints
        .iter()
        .for_each(|j| j.point.iter().for_each(|x| see(*x)));
    for (a, b) in &s.links {
        a.iter().chain(b).for_each(|x| see(*x));
    }
    for k in &s.contacts {
        k.point.iter().chain(&k.normal).for_each(|x| see(*x));
    }
    if !finite {
        return None;
    }
    let exponent = if big > 0.0 {
        (big.log2().ceil() as i32).clamp(-1022, 1023)
    } else {
        0
    };
    let f = 2f64.powi(exponent);
    let p = |q: Point| q.map(|x| x / f);
    let mut out = s.clone();
    for b in &mut out.bodies {
        b.com = p(b.com);
        b.outline = match &b.outline {
            Outline::Circle(r) => Outline::Circle(r / f),
            Outline::Box { half, axes } => Outline::Box {
                half: half.map(|x| x / f),
                axes: *axes,
            },
            Outline::Shape(lines) => Outline::Shape(
                lines
                    .iter()
                    .map(|l| l.iter().map(|q| p(*q)).collect())
                    .collect(),
            ),
            other => other.clone(),
        };
    }
    out.joints.iter_mut().for_each(|j| j.point = p(j.point));
    out.links
        .iter_mut()
        .for_each(|(a, b)| (*a, *b) = (p(*a), p(*b)));
    out.contacts.iter_mut().for_each(|k| k.point = p(k.point));
    Some((out, f))
}

/// Why a sketch is not drawn, or `None` when it is.
pub fn undrawable(s: &Sketch) -> Option<&'static str> {
    (s.dim > 0 && scaled(s).is_none()).then_some(
        "a coordinate or size of the geometry is not a finite number (beyond 64-bit floating point), so nothing is drawn",
    )
}

/// The contact labels: names, or numbers beyond [`NAMED`] contacts.
fn contact_label(s: &Sketch, i: usize) -> String {
    if s.contacts.len() <= NAMED {
        short(&s.contacts[i].name)
    } else {
        (i + 1).to_string()
    }
}

/// The caption under the sketch (plain text).
pub fn caption(s: &Sketch) -> String {
    let mut out = String::from("Sketch of the model");
    if let Some(why) = undrawable(s) {
        out.push_str(": ");
        out.push_str(why);
        out.push('.');
        return out;
    }
    match s.dim {
        0 => {
            out.push_str(
                ": a generalized case gives no geometry, so each arrow only stands for one \
                 contact's gap g_i = J_i q (schematic, in case order).",
            );
            return out;
        }
        1 => out.push_str(", to scale along x"),
        2 => out.push_str(", to scale in the x–y plane"),
        _ => out.push_str(", to scale, isometric view (x, y, z as the triad shows)"),
    }
    out.push_str(". Arrows: contact normals, pointing the way the gap opens (their length is not to scale); hatching: the world.");
    if s.bodies
        .iter()
        .any(|b| matches!(b.outline, Outline::Circle(_)))
    {
        out.push_str(
            " Circles: radius of gyration √(I/m) about the centre of mass (not the part's shape).",
        );
    }
    if s.bodies
        .iter()
        .any(|b| matches!(b.outline, Outline::Shape(_)))
    {
        out.push_str(" Solid outlines: the bodies' shapes as the case gives them.");
    }
    if s.bodies
        .iter()
        .any(|b| matches!(b.outline, Outline::Box { .. }))
    {
        out.push_str(" Boxes: the uniform box with the body's mass and principal moments of inertia (not the part's shape).");
    }
    if !s.links.is_empty() {
        out.push_str(" Grey lines join each link's frame to its parent's; dots mark centres of mass, open circles joints.");
    }
    if s.contacts.len() > NAMED {
        out.push_str(" Contacts numbered in case order");
        if s.contacts.len() <= 60 {
            out.push_str(": ");
            let names: Vec<String> = s
                .contacts
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{} {}", i + 1, c.name))
                .collect();
            out.push_str(&names.join(", "));
        }
        out.push('.');
    }
    out
}

/// The sketch as an inline SVG element.
pub fn svg(s: &Sketch) -> String {
    if s.dim == 0 {
        return schematic(s);
    }
    // Drawn in the scaled frame (see `scaled`); `unit` metres a unit.
    let Some((scaled, unit)) = scaled(s) else {
        return format!(
            r#"<svg class="sketch" width="320" height="40" viewBox="0 0 320 40" role="img" aria-label="sketch of the model"><text x="8" y="24" class="tick">not drawable: {}</text></svg>"#,
            esc("coordinates beyond 64-bit floating point")
        );
    };
    let s = &scaled;
    let dim = s.dim;
    let ([u0, u1, v0, v1], arrow) = extent(s);
    let scale = ((MAX_W - 2.0 * MARGIN) / (u1 - u0)).min((MAX_H - 2.0 * MARGIN) / (v1 - v0));
    let w = (u1 - u0) * scale + 2.0 * MARGIN;
    let h = (v1 - v0) * scale + 2.0 * MARGIN + if dim == 3 { 30.0 } else { 18.0 };
    let at = |p: Point| {
        let (u, v) = project(dim, p);
        (MARGIN + (u - u0) * scale, MARGIN + (v1 - v) * scale)
    };
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg class="sketch" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="sketch of the model">"#,
        w = c(w),
        h = c(h)
    );
    // Links.
    for (a, b) in &s.links {
        let (x1, y1) = at(*a);
        let (x2, y2) = at(*b);
        let _ = write!(
            out,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{GREY}" stroke-width="3" stroke-linecap="round"/>"#,
            c(x1),
            c(y1),
            c(x2),
            c(y2)
        );
    }
    // Bodies.
    for b in &s.bodies {
        draw_body(&mut out, b, &at, scale, w, s.bodies.len() <= NAMED);
    }
    // Joints.
    for j in &s.joints {
        let (x, y) = at(j.point);
        if j.grounded {
            ground(&mut out, x, y + 4.0, (0.0, -1.0), 16.0);
        }
        let _ = write!(
            out,
            r#"<circle cx="{}" cy="{}" r="4" fill="white" stroke="{INK}" stroke-width="1.4"/>"#,
            c(x),
            c(y)
        );
    }
    // Contacts: ground, point, arrow, label.
    for i in 0..s.contacts.len() {
        draw_contact(&mut out, s, i, &at, arrow * scale, w);
    }
    triad(&mut out, dim, h);
    scale_bar(&mut out, u1 - u0, unit, scale, w, h);
    out.push_str("</svg>");
    out
}

/// The drawing's extent in the projected frame, with room for the normal
/// arrows, the axis triad and a flat case: `(u0, u1, v0, v1)` and the
/// arrow length.
fn extent(s: &Sketch) -> ([f64; 4], f64) {
    let dim = s.dim;
    // World extent of everything drawn.
    let mut pts: Vec<(f64, f64)> = Vec::new();
    for b in &s.bodies {
        let (u, v) = project(dim, b.com);
        pts.push((u, v));
        match &b.outline {
            Outline::Circle(r) => {
                pts.push((u - r, v - r));
                pts.push((u + r, v + r));
            }
            Outline::Box { half, axes } => {
                pts.extend(
                    box_corners(b.com, *half, *axes)
                        .into_iter()
                        .map(|p| project(dim, p)),
                );
            }
            Outline::Shape(lines) => {
                pts.extend(lines.iter().flatten().map(|p| project(dim, *p)));
            }
            _ => {}
        }
    }
    pts.extend(s.joints.iter().map(|j| project(dim, j.point)));
    for (a, b) in &s.links {
        pts.push(project(dim, *a));
        pts.push(project(dim, *b));
    }
    pts.extend(s.contacts.iter().map(|k| project(dim, k.point)));
    let (mut u0, mut u1, mut v0, mut v1) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for &(u, v) in &pts {
        u0 = u0.min(u);
        u1 = u1.max(u);
        v0 = v0.min(v);
        v1 = v1.max(v);
    }
    if pts.is_empty() {
        (u0, u1, v0, v1) = (0.0, 0.0, 0.0, 0.0);
    }
    let mut size = (u1 - u0).max(v1 - v0);
    if !(size.is_finite() && size > 0.0) {
        size = 1.0;
    }
    // Arrows: a fixed share of the drawing, whatever the units.
    let arrow = 0.2 * size;
    for k in &s.contacts {
        let (u, v) = project(dim, k.point);
        let (du, dv) = project(dim, k.normal);
        pts.push((u + arrow * du, v + arrow * dv));
        u0 = u0.min(u + arrow * du);
        u1 = u1.max(u + arrow * du);
        v0 = v0.min(v + arrow * dv);
        v1 = v1.max(v + arrow * dv);
    }
    // Room for the axis triad and a flat (line) case.
    let min_h = 0.3 * (u1 - u0).max(size);
    if v1 - v0 < min_h {
        let mid = 0.5 * (v0 + v1);
        (v0, v1) = (mid - min_h / 2.0, mid + min_h / 2.0);
    }
    if u1 - u0 < 0.3 * size {
        let mid = 0.5 * (u0 + u1);
        (u0, u1) = (mid - 0.15 * size, mid + 0.15 * size);
    }
    ([u0, u1, v0, v1], arrow)
}

/// One body: its outline, its centre of mass, its name (when few).
fn draw_body(
    out: &mut String,
    b: &crate::report::sketch::SketchBody,
    at: &dyn Fn(Point) -> (f64, f64),
    scale: f64,
    w: f64,
    named: bool,
) {
    let (x, y) = at(b.com);
    match &b.outline {
        Outline::Circle(r) => {
            let _ = write!(
                out,
                r##"<circle cx="{}" cy="{}" r="{}" fill="#eef2f7" fill-opacity="0.6" stroke="#5b6270" stroke-width="1.1" stroke-dasharray="5 3"/>"##,
                c(x),
                c(y),
                c(r * scale)
            );
        }
        Outline::Box { half, axes } => {
            let k: Vec<(f64, f64)> = box_corners(b.com, *half, *axes)
                .into_iter()
                .map(at)
                .collect();
            let mut d = String::new();
            for (i, j) in BOX_EDGES {
                let _ = write!(
                    d,
                    "M{},{} L{},{} ",
                    c(k[i].0),
                    c(k[i].1),
                    c(k[j].0),
                    c(k[j].1)
                );
            }
            let _ = write!(
                out,
                r##"<path d="{}" fill="none" stroke="#5b6270" stroke-width="1.1"/>"##,
                d.trim_end()
            );
        }
        Outline::Shape(lines) => {
            let mut d = String::new();
            for l in lines {
                for (k, p) in l.iter().enumerate() {
                    let (u, v) = at(*p);
                    let _ = write!(d, "{}{},{} ", if k == 0 { "M" } else { "L" }, c(u), c(v));
                }
            }
            let _ = write!(
                out,
                r##"<path d="{}" fill="none" stroke="#5b6270" stroke-width="1.1" stroke-linejoin="round"/>"##,
                d.trim_end()
            );
        }
        Outline::Fixed => {
            hatch_square(out, x, y);
        }
        Outline::Point => {}
    }
    if b.outline == Outline::Point {
        let _ = write!(
            out,
            r#"<circle cx="{}" cy="{}" r="3.5" fill="{INK}"/>"#,
            c(x),
            c(y)
        );
    } else if b.outline != Outline::Fixed {
        com_marker(out, x, y);
    }
    if named {
        let name = short(&b.name);
        // Kept inside the figure: written leftwards near its right edge.
        let width = 5.6 * name.chars().count() as f64;
        let (tx, anchor) = if x + 7.0 + width > w - 2.0 {
            (x - 7.0, "end")
        } else {
            (x + 7.0, "start")
        };
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" class="tick" text-anchor="{anchor}">{}</text>"#,
            c(tx),
            c(y - 7.0),
            esc(&name)
        );
    }
}

/// One contact: ground (against the world), point, normal arrow, label.
fn draw_contact(
    out: &mut String,
    s: &Sketch,
    i: usize,
    at: &dyn Fn(Point) -> (f64, f64),
    arrow_px: f64,
    w: f64,
) {
    let k = &s.contacts[i];
    let dim = s.dim;
    let (x, y) = at(k.point);
    let (du, dv) = project(dim, k.normal);
    let len = (du * du + dv * dv).sqrt();
    // Screen direction (y down); straight up when the normal points at the viewer.
    let (dx, dy) = if len > 1e-9 {
        (du / len, -dv / len)
    } else {
        (0.0, -1.0)
    };
    let pix = (arrow_px * len).max(10.0);
    if k.world {
        ground(out, x, y, (dx, dy), 26.0);
    }
    let (tx, ty) = (x + pix * dx, y + pix * dy);
    let head = 7.0;
    let (lx, ly) = (
        tx - head * dx + 0.5 * head * dy,
        ty - head * dy - 0.5 * head * dx,
    );
    let (rx, ry) = (
        tx - head * dx - 0.5 * head * dy,
        ty - head * dy + 0.5 * head * dx,
    );
    let _ = write!(
        out,
        r#"<circle cx="{}" cy="{}" r="2.6" fill="{CONTACT}"/><path class="arrow" d="M{},{} L{},{} M{},{} L{},{} L{},{}" fill="none" stroke="{CONTACT}" stroke-width="1.6" stroke-linejoin="round"/>"#,
        c(x),
        c(y),
        c(x),
        c(y),
        c(tx),
        c(ty),
        c(lx),
        c(ly),
        c(tx),
        c(ty),
        c(rx),
        c(ry)
    );
    let anchor = if dx > 0.3 {
        "start"
    } else if dx < -0.3 {
        "end"
    } else {
        "middle"
    };
    let _ = write!(
        out,
        r#"<text x="{}" y="{}" class="tick" text-anchor="{anchor}" style="fill:{CONTACT}">{}</text>"#,
        c((tx + 5.0 * dx).min(w - 4.0).max(4.0)),
        c(ty + 5.0 * dy
            + if dy > 0.3 {
                8.0
            } else if dy < -0.3 {
                -2.0
            } else {
                3.5
            }),
        esc(&contact_label(s, i))
    );
}

/// The scale bar: a round length in metres, drawn in the scaled frame
/// (`unit` metres a unit), at the bottom right.
fn scale_bar(out: &mut String, width_units: f64, unit: f64, scale: f64, w: f64, h: f64) {
    let bar_m = round_length(0.2 * width_units * unit);
    let bar = bar_m / unit;
    if bar_m.is_finite() && bar_m > 0.0 && bar.is_finite() && bar > 0.0 {
        let (x1, y) = (w - MARGIN - bar * scale, h - 14.0);
        let _ = write!(
            out,
            r#"<path d="M{},{} L{},{} M{},{} L{},{} M{},{} L{},{}" stroke="{INK}" stroke-width="1.2" fill="none"/><text x="{}" y="{}" class="tick" text-anchor="middle">{} m</text>"#,
            c(x1),
            c(y),
            c(x1 + bar * scale),
            c(y),
            c(x1),
            c(y - 4.0),
            c(x1),
            c(y + 4.0),
            c(x1 + bar * scale),
            c(y - 4.0),
            c(x1 + bar * scale),
            c(y + 4.0),
            c(x1 + bar * scale / 2.0),
            c(y - 6.0),
            trim_zeros(&sig(bar_m, 3))
        );
    }
}

/// The centre-of-mass symbol: a circle with two opposite quarters filled.
fn com_marker(out: &mut String, x: f64, y: f64) {
    let r = 5.0;
    let _ = write!(
        out,
        r#"<circle cx="{x}" cy="{y}" r="{r}" fill="white" stroke="{INK}" stroke-width="1"/><path d="M{x},{y} L{xr},{y} A{r},{r} 0 0,0 {x},{yt} Z M{x},{y} L{xl},{y} A{r},{r} 0 0,0 {x},{yb} Z" fill="{INK}"/>"#,
        x = c(x),
        y = c(y),
        r = c(r),
        xr = c(x + r),
        xl = c(x - r),
        yt = c(y - r),
        yb = c(y + r)
    );
}

/// Ground: a line across `n` (screen direction, pointing away from the
/// ground) through (x, y), hatched on the far side.
fn ground(out: &mut String, x: f64, y: f64, n: (f64, f64), len: f64) {
    let (tx, ty) = (-n.1, n.0);
    let half = len / 2.0;
    let mut d = format!(
        "M{},{} L{},{}",
        c(x - half * tx),
        c(y - half * ty),
        c(x + half * tx),
        c(y + half * ty)
    );
    let ticks = 5;
    for k in 0..ticks {
        let s = -half + len * (k as f64 + 0.5) / ticks as f64;
        let (px, py) = (x + s * tx, y + s * ty);
        let _ = write!(
            d,
            " M{},{} L{},{}",
            c(px),
            c(py),
            c(px - 5.0 * n.0 - 3.0 * tx),
            c(py - 5.0 * n.1 - 3.0 * ty)
        );
    }
    let _ = write!(
        out,
        r#"<path d="{d}" stroke="{INK}" stroke-width="1" fill="none"/>"#
    );
}

fn hatch_square(out: &mut String, x: f64, y: f64) {
    let s = 7.0;
    let _ = write!(
        out,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="white" stroke="{INK}"/><path d="M{},{} L{},{} M{},{} L{},{}" stroke="{INK}"/>"#,
        c(x - s),
        c(y - s),
        c(2.0 * s),
        c(2.0 * s),
        c(x - s),
        c(y + s),
        c(x + s),
        c(y - s),
        c(x - s),
        c(y),
        c(x),
        c(y - s)
    );
}

/// Axis directions in the bottom-left corner.
fn triad(out: &mut String, dim: usize, h: f64) {
    let (ox, oy) = if dim == 3 {
        (34.0, h - 34.0)
    } else {
        (16.0, h - 16.0)
    };
    let axes: &[(&str, Point)] = match dim {
        3 => &[
            ("x", [1.0, 0.0, 0.0]),
            ("y", [0.0, 1.0, 0.0]),
            ("z", [0.0, 0.0, 1.0]),
        ],
        2 => &[("x", [1.0, 0.0, 0.0]), ("y", [0.0, 1.0, 0.0])],
        _ => &[("x", [1.0, 0.0, 0.0])],
    };
    for (name, a) in axes {
        let (u, v) = project(dim, *a);
        let (x2, y2) = (ox + 20.0 * u, oy - 20.0 * v);
        let _ = write!(
            out,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{GREY}" stroke-width="1.2"/><text x="{}" y="{}" class="tick" text-anchor="middle">{name}</text>"#,
            c(ox),
            c(oy),
            c(x2),
            c(y2),
            c(ox + 27.0 * u),
            c(oy - 27.0 * v + 3.5)
        );
    }
}

/// A generalized case: one upward arrow per contact from a hatched ground,
/// ten to a row.
fn schematic(s: &Sketch) -> String {
    let n = s.contacts.len().max(1);
    let per_row = n.min(10);
    let rows = n.div_ceil(10);
    let (dx, dy) = (52.0, 78.0);
    let w = 30.0 + dx * per_row as f64;
    let h = 16.0 + dy * rows as f64;
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg class="sketch" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="schematic of the contacts">"#,
        w = c(w),
        h = c(h)
    );
    for (i, _) in s.contacts.iter().enumerate() {
        let x = 30.0 + dx * (i % 10) as f64;
        let y = 16.0 + dy * (i / 10) as f64 + 50.0;
        ground(&mut out, x, y, (0.0, -1.0), 26.0);
        let _ = write!(
            out,
            r#"<path class="arrow" d="M{x},{y} L{x},{t} M{l},{h2} L{x},{t} L{r},{h2}" fill="none" stroke="{CONTACT}" stroke-width="1.6"/><text x="{x}" y="{ty}" class="tick" text-anchor="middle" style="fill:{CONTACT}">{}</text>"#,
            esc(&contact_label(s, i)),
            x = c(x),
            y = c(y),
            t = c(y - 34.0),
            l = c(x - 3.5),
            r = c(x + 3.5),
            h2 = c(y - 27.0),
            ty = c(y - 38.0)
        );
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::sketch::{SketchBody, SketchContact};

    fn one(n: usize, dim: usize) -> Sketch {
        Sketch {
            dim,
            bodies: vec![SketchBody {
                name: "b<&>".into(),
                com: [0.0, 0.05, 0.0],
                outline: Outline::Circle(0.1),
            }],
            links: Vec::new(),
            joints: Vec::new(),
            contacts: (0..n)
                .map(|i| SketchContact {
                    name: format!("c{i}"),
                    point: [0.01 * i as f64, 0.0, 0.0],
                    normal: [0.0, 1.0, 0.0],
                    world: true,
                })
                .collect(),
        }
    }

    #[test]
    fn one_arrow_per_contact_escaped() {
        for dim in 0..=3 {
            for n in [1, 50] {
                let s = svg(&one(n, dim));
                assert_eq!(s.matches(r#"class="arrow""#).count(), n, "dim {dim}");
                assert!(!s.contains("b<&>") && !s.contains("NaN") && !s.contains("inf"));
            }
        }
    }

    #[test]
    fn round_lengths() {
        assert_eq!(round_length(0.23), 0.2);
        assert_eq!(round_length(7.0), 5.0);
        assert_eq!(round_length(0.1), 0.1);
    }
}
