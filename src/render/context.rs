//! The templates' view of a report: the report serialized for tera with
//! what a sheet does not print trimmed away and round-off shown as zero,
//! the plots (inline SVG, or virtual files and their sizes for the PDF),
//! the headline and equation lines every format shares, and the index's
//! entries. `templates.rs` registers the filters and renders.

use super::number::time;
use super::plot::{self, Scale, Series};
use crate::report::Report;
use serde_json::{Value, json};

/// A virtual file handed to the typesetter: its path and its bytes.
pub type TypstFile = (String, Vec<u8>);

/// Styles the report's stylesheet gives inline SVG, for an SVG that
/// stands alone (the PDF's plots).
const SVG_STYLE: &str = "<style>.frame{fill:none;stroke:#9aa1ab}.axis{stroke:#9aa1ab}.grid{stroke:#e3e6ea;stroke-width:0.8}text{font-family:'Libertinus Serif';fill:#30343a}.tick{font-size:10px}.label,.legend{font-size:12px}.legend-box{fill:#ffffff;fill-opacity:0.85;stroke:none}</style>";

/// An inline SVG as a file of its own: namespace and styles added.
pub(super) fn standalone(svg: &str) -> String {
    let mut doc = svg.replacen("<svg ", "<svg xmlns=\"http://www.w3.org/2000/svg\" ", 1);
    if let Some(end) = doc.find('>') {
        doc.insert_str(end + 1, SVG_STYLE);
    }
    doc
}

/// A file name as a Markdown link destination: bytes outside
/// `[A-Za-z0-9._-]` percent-encoded (a case named `a (1).toml` links to
/// `a%20%281%29.sketch.svg`).
pub(super) fn link_path(name: &str) -> String {
    let mut out = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Replaces every SVG string in `v` by what `name` returns for it.
pub(super) fn svg_to_files(v: &mut Value, name: &mut dyn FnMut(&str) -> String) {
    match v {
        Value::String(svg) if svg.starts_with("<svg") => *svg = name(svg),
        Value::Array(a) => a.iter_mut().for_each(|x| svg_to_files(x, name)),
        Value::Object(m) => m.values_mut().for_each(|x| svg_to_files(x, name)),
        _ => {}
    }
}

/// Replaces every SVG string in the plots by a file name, collecting the
/// files (standalone SVG: namespace and styles added).
/// Points of the PDF page per unit of a figure's SVG: its 10-unit tick
/// labels print at 7.2 pt, its 12-unit labels at 8.6 pt.
pub const PDF_PT_PER_UNIT: f64 = 0.72;

/// The PDF sheet's text width (A4 less two 16 mm margins), in points.
pub const PDF_TEXT_WIDTH_PT: f64 = 504.0;

/// The width a figure is set at in the PDF: its SVG width at
/// [`PDF_PT_PER_UNIT`], never wider than the text (a figure that wide
/// would print its labels smaller: none of meff's is).
pub fn pdf_width_pt(svg: &[u8]) -> f64 {
    let text = String::from_utf8_lossy(&svg[..svg.len().min(400)]);
    let width = text
        .split("width=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .and_then(|w| w.parse::<f64>().ok())
        .unwrap_or(PDF_TEXT_WIDTH_PT / PDF_PT_PER_UNIT);
    (width * PDF_PT_PER_UNIT).min(PDF_TEXT_WIDTH_PT)
}

pub(super) fn plots_to_files(v: &mut Value, files: &mut Vec<TypstFile>) {
    svg_to_files(v, &mut |svg: &str| {
        let name = format!("/plots/{}.svg", files.len());
        files.push((name.clone(), standalone(svg).into_bytes()));
        name
    });
}

pub use crate::notation::unit_text;

/// A result named in words for headings and axis labels: `m_eff(c)` →
/// "effective mass of c", `mode_omega(1)` → "ω of coupled mode 1 (fastest)".
pub fn quantity_words(of: &str) -> String {
    let Some((func, rest)) = of.split_once('(') else {
        return of.to_string();
    };
    let args: Vec<&str> = rest
        .trim_end_matches(')')
        .split(',')
        .map(str::trim)
        .collect();
    let first = args.first().copied().unwrap_or("");
    match func.trim() {
        "m_eff" => format!("effective mass of {first}"),
        "a" => format!("inverse effective mass of {first}"),
        "omega" => format!("ω of {first}"),
        "f" => format!("f of {first}"),
        "A" if args.len() == 2 => format!("A between {} and {}", args[0], args[1]),
        "mode_omega" if first == "1" => "ω of the fastest coupled mode".into(),
        "mode_omega" => format!("ω of coupled mode {first}"),
        "mode_f" if first == "1" => "f of the fastest coupled mode".into(),
        "mode_f" => format!("f of coupled mode {first}"),
        _ => of.to_string(),
    }
}

/// One row of the index: what a reader scans for across cases.
pub fn index_entry(report: &Report, stem: &str) -> Value {
    let worst = report
        .contacts
        .iter()
        .filter_map(|c| c.mass_ratio)
        .fold(None, |m: Option<f64>, r| Some(m.map_or(r, |m| m.min(r))));
    let passed = report
        .claims
        .iter()
        .filter(|c| c.passed == Some(true))
        .count();
    // The verification's own verdict (the render layer judges nothing).
    let verified = report.verification.as_ref().map(|v| v.verdict.agrees);
    // With tolerances, the bounds that decide: the largest ω_max (the
    // step is already the smallest over the box).
    let omega_max = report
        .tolerances
        .as_ref()
        .and_then(|t| t.results.iter().find(|b| b.id == "omega_max"))
        .map_or(report.governing_omega_max(), |b| b.hi);
    json!({
        "stem": stem,
        // A relative link without extension: percent-encoded, `./` first.
        "href": super::safe::url_segment(stem),
        "title": report.title,
        "contacts": report.contacts_total,
        "worst_mass_ratio": worst,
        "coupled_ratio": report.coupled_to_independent_ratio,
        "omega_max": omega_max,
        // The fastest mode at a Hertz impact's peak (the step holds there).
        "at_peak": report.hertz_states.as_ref().is_some_and(|s| {
            s.governing == crate::report::hertz_state::State::AtPeak
        }),
        "bounded": report.tolerances.is_some(),
        // The step the sheet tells the user to use (the damped one with
        // dashpots), never the undamped 2/ω_max beside dashpots.
        "dt": report
            .stable_dt
            .governing
            .map(|h| crate::number::at_most(h, crate::number::DEFAULT_DIGITS)),
        "dt_damped": report.stable_dt.governing_by.is_some_and(|g| g.starts_with("damped")),
        "warnings": report.model_checks_found,
        "claims_passed": passed,
        "claims_total": report.claims.len(),
        "verified": verified,
    })
}

/// Most contacts whose A, coupling matrix and mode shapes a sheet prints,
/// and most modes it lists: a case of 1,000 contacts made a 232 MB HTML
/// report of a million-entry table. Beyond, the sheet says where they are
/// (the JSON report keeps every entry).
pub const SHEET_ROWS: usize = 40;

/// Entries this far below their matrix's (or vector's) largest are
/// round-off of a zero and are printed as 0.
pub const ROUNDOFF: f64 = 1e-10;

/// Sets the entries of a matrix or vector (JSON arrays of numbers, nested
/// once at most) below [`ROUNDOFF`] × its largest entry to 0, for printing
/// (a UR5e Jacobian entry 1.603 × 10⁻¹⁷ beside −0.4869 is a zero). The JSON
/// report keeps the computed values.
pub fn zero_roundoff(m: &mut Value) {
    fn entries(v: &mut Value) -> Vec<&mut Value> {
        match v {
            Value::Array(rows) => rows
                .iter_mut()
                .flat_map(|r| match r {
                    Value::Array(xs) => xs.iter_mut().collect::<Vec<_>>(),
                    x => vec![x],
                })
                .collect(),
            _ => Vec::new(),
        }
    }
    let largest = entries(m)
        .iter()
        .filter_map(|x| x.as_f64())
        .fold(0.0f64, |a, x| a.max(x.abs()));
    if !(largest.is_finite() && largest > 0.0) {
        return;
    }
    for x in entries(m) {
        if x.as_f64().is_some_and(|v| v.abs() < ROUNDOFF * largest) {
            *x = json!(0.0);
        }
    }
}

/// Every vector a sheet prints one at a time (a direction, a world
/// point or normal, a measured response) with its round-off set to 0,
/// each against its own largest entry: a MuJoCo ellipsoid direction
/// (0, 1.00, 2.22 × 10⁻¹⁶) prints as (0, 1.00, 0).
pub(super) fn roundoff_vectors(report_v: &mut Value) {
    let each = |v: Option<&mut Value>, key: &str| {
        if let Some(Value::Array(items)) = v {
            for item in items {
                if let Some(x) = item.get_mut(key) {
                    zero_roundoff(x);
                }
            }
        }
    };
    if let Some(Value::Array(cs)) = report_v.pointer_mut("/robot/contacts") {
        for c in cs {
            if let Some(Value::Array(ds)) = c.pointer_mut("/ellipsoid/directions") {
                ds.iter_mut().for_each(zero_roundoff);
            }
        }
    }
    if let Some(Value::Array(cs)) = report_v.pointer_mut("/definition/contacts") {
        for c in cs {
            for key in ["/world/point", "/world/normal"] {
                if let Some(x) = c.pointer_mut(key) {
                    zero_roundoff(x);
                }
            }
        }
    }
    each(
        report_v.pointer_mut("/verification/impulse"),
        "predicted_dgap_rate",
    );
    each(
        report_v.pointer_mut("/verification/impulse"),
        "measured_dgap_rate",
    );
}

/// What a sheet of more than [`SHEET_ROWS`] contacts does not print,
/// cut from the templates' copy of the report (the JSON report keeps it):
/// A, its coupling coefficients and J to SHEET_ROWS rows and columns (the
/// templates test the contact count, not these), and every mode's shape.
/// A 1,000-contact sheet's context held four million-entry matrices.
pub(super) fn trim_for_sheet(report_v: &mut Value) {
    let trim = |m: &mut Value| {
        if let Value::Array(rows) = m {
            rows.truncate(SHEET_ROWS);
            for r in rows.iter_mut() {
                if let Value::Array(xs) = r {
                    xs.truncate(SHEET_ROWS);
                }
            }
        }
    };
    for path in [
        &["model", "jacobian"][..],
        &["delassus", "matrix"],
        &["delassus", "coupling"],
    ] {
        let mut at = Some(&mut *report_v);
        for key in path {
            at = at.and_then(|v| v.get_mut(*key));
        }
        if let Some(m) = at {
            trim(m);
        }
    }
    if let Some(Value::Array(modes)) = report_v.get_mut("modes") {
        for m in modes {
            if let Some(shape) = m.get_mut("shape") {
                *shape = Value::Array(Vec::new());
            }
        }
    }
}

pub(super) fn context(report: &Report, digits: usize, plots: bool) -> Value {
    let mut plots_v = if plots {
        plots_of(report)
    } else {
        serde_json::Map::new()
    };
    // Columns per printed matrix block: six short names fit a page, long
    // joint names (robot models) fewer.
    let longest = report
        .model
        .dofs
        .iter()
        .map(|d| d.name.chars().count())
        .max()
        .unwrap_or(0);
    let per_block = (72 / (longest + 4).max(12)).clamp(2, 6);
    let mut report_v = serde_json::to_value(report).unwrap_or(Value::Null);
    if report.contacts.len() > SHEET_ROWS {
        trim_for_sheet(&mut report_v);
    }
    for path in [
        &["model", "mass"][..],
        &["model", "jacobian"],
        &["delassus", "matrix"],
        &["delassus", "coupling"],
    ] {
        let mut at = Some(&mut report_v);
        for key in path {
            at = at.and_then(|v| v.get_mut(*key));
        }
        if let Some(m) = at {
            zero_roundoff(m);
        }
    }
    if let Some(Value::Array(modes)) = report_v.get_mut("modes") {
        for m in modes {
            if let Some(shape) = m.get_mut("shape") {
                zero_roundoff(shape);
            }
        }
    }
    roundoff_vectors(&mut report_v);
    // The sketch: inline SVG (HTML, and a vector file for the PDF); the
    // Markdown report links the file the caller writes beside it.
    if plots && let Some(sk) = &report.sketch {
        plots_v.insert("sketch".into(), json!(super::sketch::svg(sk)));
    }
    if plots && report.program.is_some() {
        plots_v.insert("program".into(), json!(super::program::plots(report)));
    }
    if plots && report.map.is_some() {
        plots_v.insert("map".into(), json!(super::workspace::plots(report)));
    }
    if plots && !report.impacts.is_empty() {
        plots_v.insert(
            "impacts".into(),
            json!(
                report
                    .impacts
                    .iter()
                    .map(|imp| super::impact::plot(imp, report.display.time.as_ref()))
                    .collect::<Vec<_>>()
            ),
        );
    }
    let mut naive_kinds = vec![
        None;
        report
            .contacts
            .iter()
            .map(|c| c.index + 1)
            .max()
            .unwrap_or(0)
    ];
    for c in &report.contacts {
        naive_kinds[c.index] = c.naive_kind;
    }
    json!({
        "impact_eqs": report.impacts.iter().map(|i| super::impact::equations(i, digits)).collect::<Vec<_>>(),
        "engine_eqs": report.engines.iter().map(|e| super::engine_eqs::equations(e, digits)).collect::<Vec<_>>(),
        "program": super::program::view(report, digits),
        "map": super::workspace::view(report, digits),
        "changes_rows": report.changes.as_ref().map_or_else(Vec::new, |ch| crate::revision::rows(&ch.diff, digits, &crate::revision::Units::from(&report.display))),
        "changes_summary": report.changes.as_ref().map(|ch| crate::revision::summary(&ch.diff)),
        "person_eqs": report.persons.iter().map(|p| super::impact::person_equations(p, digits)).collect::<Vec<_>>(),
        "impact_together": report.impacts.iter().map(|i| super::impact::together(i, digits)).collect::<Vec<_>>(),
        "impact_methods": report.impacts.iter().map(|i| super::impact::method(i, digits)).collect::<Vec<_>>(),
        "report": report_v,
        "plots": plots_v,
        "sketch_caption": report.sketch.as_ref().map(super::sketch::caption),
        "assumptions": super::sheet::assumptions(report),
        "notation": super::notation::view(report),
        "headline": super::headline::lines(report, digits),
        "check_rules": crate::checks::rule_words(),
        // Per contact index: what its naive mass is (`total`, `reduced`,
        // `either`), for the words that divide by it.
        "naive_kinds": naive_kinds,
        "person_notes": super::headline_person::person_notes(report, digits),
        // An engine whose step relaxes the contact velocity: its "at the
        // step" cells are first-order decay rates in 1/s, not ω in rad/s.
        "engine_relaxes": report.engines.iter().map(|e| e.integrator == crate::engines::law::Step::SoftRelax.name()).collect::<Vec<_>>(),
        "references": super::sheet::references(),
        "per_block": per_block,
        "sheet_rows": SHEET_ROWS,
        // A frequency shown in Hz is f, in rpm n: never "ω (Hz)".
        "omega_sym": match report.display.omega.unit.as_str() {
            "Hz" => "f",
            "rpm" => "n",
            _ => "ω",
        },
        "omega_typ": match report.display.omega.unit.as_str() {
            "Hz" => "f",
            "rpm" => "n",
            _ => "omega",
        },
        "digits": digits,
        "section_mark": "",
        "version": env!("CARGO_PKG_VERSION"),
        "assets": "assets",
    })
}

/// The plots a sheet draws (SVG strings by name): mode shapes, sweeps,
/// ellipses, histograms, the verification's.
fn plots_of(report: &Report) -> serde_json::Map<String, Value> {
    let mut plots_v = serde_json::Map::new();
    let names: Vec<String> = report.contacts.iter().map(|c| c.name.clone()).collect();
    // Shapes are printed (and drawn) up to SHEET_ROWS contacts, for the
    // SHEET_ROWS fastest modes: a 1,000-contact case drew 1,000 plots
    // of 1,000 bars that no sheet showed.
    if report.contacts.len() <= SHEET_ROWS {
        plots_v.insert(
            "modes".into(),
            json!(
                report
                    .modes
                    .iter()
                    .take(SHEET_ROWS)
                    .map(|m| plot::shape_bars(&m.shape, &names))
                    .collect::<Vec<_>>()
            ),
        );
    }
    let sweeps = sweep_plots(report);
    plots_v.insert("sweeps".into(), json!(sweeps));
    if let Some(r) = &report.robot {
        plots_v.insert(
            "ellipses".into(),
            json!(
                r.contacts
                    .iter()
                    .map(|c| match c.ellipsoid.plane_kind {
                        "finite" =>
                            plot::polar(&c.ellipsoid.polar, "principal 1", "principal 2", "kg",),
                        "normal" => plot::polar(&c.ellipsoid.polar, "normal", "across", "kg"),
                        _ => String::new(),
                    })
                    .collect::<Vec<_>>()
            ),
        );
    }
    if let Some(l) = &report.large {
        // Values equal but for round-off (m_eff / naive of contacts
        // through the centres, 1 ± 1e-15) have no distribution worth a
        // plot: its bins would be round-off and its axis 1.00 … 1.00.
        // The sentence above the plots gives their range.
        let spread =
            |h: &crate::report::Histogram| h.max - h.min > 1e-9 * h.max.abs().max(h.min.abs());
        let plots: Vec<String> = [
            (&l.mass_ratio, "m_eff / naive"),
            (&l.omega, "single-contact ω (rad/s)"),
        ]
        .into_iter()
        .filter(|(h, _)| spread(h))
        .map(|(h, label)| plot::histogram(&h.edges, &h.counts, label))
        .collect();
        plots_v.insert("histograms".into(), json!(plots));
    }
    if let Some(v) = &report.verification {
        verification_plots(v, &mut plots_v);
    }
    plots_v
}

/// Each sweep's plots, one per quantity.
fn sweep_plots(report: &Report) -> Vec<Vec<String>> {
    report
        .sweeps
        .iter()
        .map(|s| {
            s.series
                .iter()
                .map(|series| {
                    let mut lines = vec![Series {
                        label: quantity_words(&series.of),
                        points: s
                            .x
                            .iter()
                            .zip(&series.values)
                            .filter_map(|(x, y)| Some((*x * s.shown_scale, (*y)?)))
                            .collect(),
                        dashed: false,
                        markers: false,
                    }];
                    if let Some(naive) = &series.naive {
                        lines.push(Series {
                            label: "naive (total or reduced mass)".into(),
                            points: s
                                .x
                                .iter()
                                .zip(naive)
                                .filter_map(|(x, y)| Some((*x * s.shown_scale, (*y)?)))
                                .collect(),
                            dashed: true,
                            markers: false,
                        });
                    }
                    // With tolerances: the band over the corners, two
                    // dashed bounds.
                    for (band, label) in [
                        (&series.band_lo, "lowest over the tolerance corners"),
                        (&series.band_hi, "highest over the tolerance corners"),
                    ] {
                        if let Some(band) = band {
                            lines.push(Series {
                                label: label.into(),
                                points: s
                                    .x
                                    .iter()
                                    .zip(band)
                                    .filter_map(|(x, y)| Some((*x * s.shown_scale, (*y)?)))
                                    .collect(),
                                dashed: true,
                                markers: true,
                            });
                        }
                    }
                    let x_label = match s.shown_unit.as_str() {
                        "" => s.parameter.clone(),
                        "deg" => format!("{} (°)", s.parameter),
                        u => format!("{} ({})", s.parameter, unit_text(u)),
                    };
                    // In the units of the table beside it (h in m, a force
                    // in N), unless its ticks would need exponents there.
                    let wide = |v: &mut dyn Iterator<Item = f64>| {
                        let m = v.fold(0.0f64, |a, x| a.max(x.abs()));
                        !(1e-2..1e4).contains(&m) && m > 0.0
                    };
                    let points = || lines.iter().flat_map(|l| l.points.iter());
                    let rescale = (
                        wide(&mut points().map(|p| p.0)),
                        wide(&mut points().map(|p| p.1)),
                    );
                    plot::line_plot_in(
                        &lines,
                        &x_label,
                        &format!("{} ({})", quantity_words(&series.of), series.unit),
                        Scale::Linear,
                        Scale::Linear,
                        rescale,
                    )
                })
                .collect()
        })
        .collect()
}

/// The verification's plots: gap history, convergence, energy.
fn verification_plots(
    v: &crate::verify::Verification,
    plots_v: &mut serde_json::Map<String, Value>,
) {
    if let Some(g) = &v.gap_history {
        let lines = vec![Series {
            label: format!("gap of {} (mode {})", g.contact, g.mode),
            points: g.t.iter().zip(&g.gap).map(|(t, y)| (*t, *y)).collect(),
            dashed: false,
            markers: false,
        }];
        plots_v.insert(
            "gap_history".into(),
            json!(plot::line_plot(
                &lines,
                "t (s)",
                "gap (m)",
                Scale::Linear,
                Scale::Linear
            )),
        );
    }
    if !v.convergence_all.is_empty() {
        // Δt in the unit of the convergence table (its first step's).
        let first = (v.convergence.as_ref().and_then(|c| c.dt.first()))
            .or_else(|| v.convergence_all[0].dt.first());
        let (unit, factor) = crate::number::time_unit(first.copied().unwrap_or(1.0));
        let lines: Vec<Series> = v
            .convergence_all
            .iter()
            .map(|c| Series {
                label: c.integrator.to_string(),
                points: (c.dt.iter().zip(&c.error))
                    .map(|(d, e)| (*d * factor, *e))
                    .collect(),
                dashed: false,
                markers: true,
            })
            .collect();
        plots_v.insert(
            "convergence".into(),
            json!(plot::line_plot(
                &lines,
                &format!("Δt ({unit})"),
                "|ω − ω_ref| (rad/s)",
                Scale::Log,
                Scale::Log
            )),
        );
    }
    if let Some(st) = &v.stability {
        let lines = vec![
            Series {
                label: format!(
                    "Δt = {} (stable by 2/max ω_i, above 2/ω_max)",
                    time(st.dt_run_independent, 3)
                ),
                points: st.energy_independent.clone(),
                dashed: false,
                markers: false,
            },
            Series {
                label: format!("Δt = {} (0.9 × 2/ω_max)", time(st.dt_run_coupled, 3)),
                points: st.energy_coupled.clone(),
                dashed: false,
                markers: false,
            },
        ];
        plots_v.insert(
            "energy".into(),
            json!(plot::line_plot(
                &lines,
                "step",
                "energy / initial energy",
                Scale::Linear,
                Scale::Log
            )),
        );
    }
}
