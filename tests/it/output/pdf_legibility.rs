//! Every figure of the PDF sheet prints its text at 7 pt or more: the
//! sketch and plots are SVGs scaled onto the page, so a label's printed
//! size is its font size times the figure's scale. Checked on the Typst
//! source every build renders (no typesetter needed), for the sheets as
//! `meff report` writes them: with the verification by simulation, whose
//! gap, convergence and energy plots are figures too.

use crate::support::{bundled_case_paths, verified};
use meff::render::templates::Templates;

/// The smallest `font-size:Npx` (or `font-size="N"`) in an SVG.
fn smallest_font(svg: &str) -> f64 {
    let mut out = f64::INFINITY;
    for part in svg.split("font-size").skip(1) {
        let digits: String = part
            .trim_start_matches([':', '=', '"'])
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        if let Ok(x) = digits.parse::<f64>() {
            // `font-size="75%"` (subscripts) is relative: skip.
            if !part.trim_start_matches([':', '=', '"'])[digits.len()..].starts_with('%') {
                out = out.min(x);
            }
        }
    }
    out
}

fn svg_width(svg: &str) -> f64 {
    svg.split("width=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn pdf_figures_print_their_text_at_7pt_or_more() {
    let t = Templates::load(None).unwrap();
    let mut figures = 0;
    let mut verification_figures = 0;
    for path in bundled_case_paths() {
        let ev = verified(path.file_name().unwrap().to_str().unwrap());
        let (typ, files) = t.report_typ(&ev.report, 4).unwrap();
        for (name, bytes) in &files {
            let svg = String::from_utf8_lossy(bytes);
            // How the sheet sets it: `image("name", width: Wpt)`.
            let Some(at) = typ.find(&format!("image(\"{name}\", width: ")) else {
                continue;
            };
            let rest = &typ[at + name.len() + 17..];
            let width: f64 = rest[..rest.find("pt)").unwrap()].parse().unwrap();
            let printed = smallest_font(&svg) * width / svg_width(&svg);
            assert!(
                printed >= 7.0,
                "{}: {name} prints text at {printed:.2} pt",
                path.display()
            );
            figures += 1;
        }
        // The verification's plots follow its heading: count them.
        if let Some(at) = typ.find("= Verification by simulation") {
            verification_figures += typ[at..].matches("#figure(image(").count();
        }
        // Every figure the sheet sets is sized by meff in points.
        for img in typ.split("image(\"").skip(1) {
            let call = &img[..img.find(')').unwrap()];
            assert!(
                call.contains("\", width: ") && call.ends_with("pt"),
                "{call}"
            );
        }
    }
    assert!(figures > 20, "{figures} figures checked");
    assert!(
        verification_figures > 10,
        "{verification_figures} verification figures checked"
    );
}
