//! Report content: what the seed and two-corner reports must say, the
//! index, template overrides.

use crate::support::{bundled_case_paths, evaluate_path, evaluate_str, root, verified};
use meff::render::templates::Templates;

#[test]
fn seed_report_reads_as_a_calculation() {
    let ev = verified("offcentre.toml");
    let t = Templates::load(None).unwrap();
    let md = t.report_md(&ev.report, 4).unwrap();
    // a_c = J_c M⁻¹ J_cᵀ = 1/m + r²/I = 1/(2 kg) + (0.10 m)²/(0.020 kg m²) = 1 kg⁻¹
    // (laid out on two lines), then m_eff and ω with the numbers substituted.
    for piece in [
        "a_{\\mathrm{offcentre}} &= J_{\\mathrm{offcentre}} M^{-1} J_{\\mathrm{offcentre}}^{\\mathsf{T}} = \\frac{1}{m} + \\frac{r^{2}}{I}",
        "&= \\frac{1}{\\left(2\\,\\mathrm{kg}\\right)} + \\frac{\\left(0.10\\,\\mathrm{m}\\right)^{2}}{\\left(0.020\\,\\mathrm{kg}\\,\\mathrm{m}^{2}\\right)} = 1.000\\,\\mathrm{kg}^{-1}",
        "m_{\\mathrm{eff},\\,\\mathrm{offcentre}} = \\frac{1}{a_{\\mathrm{offcentre}}} = \\frac{m\\,I}{I + m\\,r^{2}} = \\frac{1}{1.000\\,\\mathrm{kg}^{-1}} = 1.000\\,\\mathrm{kg}",
        "= \\sqrt{\\frac{1.000\\times10^{5}\\,\\mathrm{N/m}}{1.000\\,\\mathrm{kg}}} = 316.2\\,\\mathrm{rad/s}",
        "\\Delta t = \\frac{2}{\\omega_{\\max}} = \\frac{2}{316.2\\,\\mathrm{rad/s}}",
    ] {
        assert!(md.contains(piece), "{piece}\n{md}");
    }
    assert!(
        md.contains("| offcentre | 1.000 | 2.000 | 0.5000 | 316.2 | 223.6 |"),
        "{md}"
    );
    let html = t.report_html(&ev.report, 4).unwrap();
    assert!(
        html.contains("<math display=\"block\">"),
        "formulas are MathML"
    );
    assert!(html.contains("316.2") && html.contains("223.6"));
    // The same line, typeset: the fraction 1/(2 kg) is there as MathML.
    assert!(html.contains("<mfrac>"));
}

#[test]
fn two_corner_report_shows_coupling_and_timesteps() {
    let ev = verified("two-corners.toml");
    let t = Templates::load(None).unwrap();
    for text in [
        t.report_md(&ev.report, 4).unwrap(),
        t.report_html(&ev.report, 4).unwrap(),
    ] {
        for needle in ["316.2", "158.1", "250.0", "6.324 ms", "8.000 ms", "1.265"] {
            assert!(text.contains(needle), "missing {needle}");
        }
    }
}

#[test]
fn templates_can_be_overridden_file_by_file() {
    let dir = crate::support::scratch("templates");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("report.md"),
        "# {{ report.title }}\nm_eff = {{ report.contacts[0].m_eff | sig(d=3) }} kg\n",
    )
    .unwrap();
    let t = Templates::load(Some(&dir)).unwrap();
    let ev =
        meff::evaluate(meff::case::load(&root().join("cases/offcentre.toml")).unwrap()).unwrap();
    assert_eq!(
        t.report_md(&ev.report, 4).unwrap(),
        "# Planar block on a floor, off-centre contact\nm_eff = 1.00 kg\n"
    );
    // The HTML template was not overridden.
    assert!(
        t.report_html(&ev.report, 4)
            .unwrap()
            .starts_with("<!DOCTYPE html>")
    );
    std::fs::write(dir.join("report.md"), "{{ broken").unwrap();
    assert!(Templates::load(Some(&dir)).is_err());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn index_lists_every_case() {
    let t = Templates::load(None).unwrap();
    let entries: Vec<_> = ["offcentre.toml", "two-corners.toml"]
        .iter()
        .map(|n| {
            meff::render::templates::index_entry(&verified(n).report, n.trim_end_matches(".toml"))
        })
        .collect();
    let md = t.index(&entries, false).unwrap();
    assert!(
        md.contains("[Planar block on a floor, off-centre contact](./offcentre.md)"),
        "{md}"
    );
    assert!(
        md.contains(
            "(./two-corners.md) · **1 model warning** | 2 | 0.800 | 316.2 (×1.265) | 6.324 ms | 5 / 5 | agrees |"
        ),
        "{md}"
    );
    let html = t.index(&entries, true).unwrap();
    assert!(html.contains("href=\"./two-corners.html\""));
}

#[test]
fn display_units_apply_to_reports_not_json() {
    let source = std::fs::read_to_string(root().join("cases/offcentre.toml")).unwrap();
    let with = format!("{source}\n[display]\nomega = \"Hz\"\nmass = \"g\"\ntime = \"us\"\n");
    let ev = evaluate_str(&with);
    let t = Templates::load(None).unwrap();
    let md = t.report_md(&ev.report, 4).unwrap();
    // 316.2 rad/s = 50.33 Hz; 1 kg = 1000 g; 6.3246 ms = 6324 µs (a step limit, rounded down).
    assert!(
        md.contains("| offcentre | 1000 | 2000 | 0.5000 | 50.33 | 35.59 |"),
        "{md}"
    );
    assert!(md.contains("6324 µs"), "{md}");
    // Δt = 2/ω holds with ω in rad/s, and the sheet says so when it shows Hz
    // (2/50.33 is not 6325 µs).
    assert!(
        md.contains(
            "stable Δt: 2/ω unless the row says otherwise (ω in rad/s, 2π × the frequency shown)"
        ),
        "{md}"
    );
    let html = t.report_html(&ev.report, 4).unwrap();
    assert!(html.contains("(ω in rad/s, 2π × the frequency shown)"));
    // A frequency in Hz is labelled f, never ω, in every format.
    for doc in [
        md.clone(),
        html.clone(),
        t.report_typ(&ev.report, 4).unwrap().0,
    ] {
        for bad in [
            "ω (Hz)",
            "ω_max = 50",
            "$omega$ (Hz)",
            "ω<sub>max</sub> = 50",
        ] {
            assert!(!doc.contains(bad), "{bad}");
        }
    }
    assert!(
        md.contains("f (Hz)") && md.contains("**$f_{\\max}$ = 50.33 Hz**"),
        "{md}"
    );
    let plain = std::fs::read_to_string(root().join("cases/offcentre.toml")).unwrap();
    let md = t.report_md(&evaluate_str(&plain).report, 4).unwrap();
    assert!(!md.contains("ω in rad/s, 2π"), "rad/s needs no remark");
    let json = meff::render::json(&ev.report);
    assert!(json.contains("\"m_eff\": 1.0"), "JSON stays SI");
    let bad = format!("{source}\n[display]\nomega = \"rev/s\"\n");
    let err = meff::case::parse_case("bad.toml", &bad).unwrap_err();
    assert!(err.diagnostics[0].message.contains("unknown display unit"));
}

/// The PDF's Typst source renders for every bundled case in every build
/// (typesetting it needs the `pdf` feature; `tests/it/output/pdf.rs` does that):
/// every image it names is one of the plot files handed to the
/// typesetter, and the case's title is in it as text.
#[test]
fn typst_source_renders_for_every_case_in_any_build() {
    let t = Templates::load(None).unwrap();
    for path in bundled_case_paths() {
        let ev = evaluate_path(&path);
        let (source, files) = t
            .report_typ(&ev.report, 4)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!source.is_empty());
        for (name, svg) in &files {
            assert!(svg.starts_with(b"<svg xmlns="), "{name}");
        }
        for named in source.split("image(\"").skip(1) {
            let name = named.split('"').next().unwrap();
            assert!(
                files.iter().any(|(f, _)| f == name),
                "{}: {name} is not a plot file",
                path.display()
            );
        }
        let title = meff::render::typ::text(&ev.report.title);
        assert!(source.contains(&title), "{}: no title", path.display());
    }
}
