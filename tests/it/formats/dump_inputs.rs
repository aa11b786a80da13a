//! A dump scene's sheet has an Inputs section: every `[scene]` setting as
//! typed, in SI and where the case writes it, in Markdown, HTML, Typst,
//! `meff eval`'s text and JSON (`scene_inputs`).

use crate::support::evaluate_path;

/// One sphere resting on the box floor, with a stiffness, a damping, a
/// tangential ratio, a tolerance in µm, a wall and a plane.
const CASE: &str = "title = \"t\"\nspace = \"3d\"\n[scene]\ndump = \"d.dump\"\ncontact = { stiffness = \"3 N/mm\", damping = \"0.4 N s/m\", tangential_ratio = 0.5 }\ntolerance = \"7 um\"\nwalls = [\"zlo\"]\nplanes = [{ point = [\"0 m\", \"0 m\", \"-1 m\"], normal = [0, 0, 1] }]\n";

const DUMP: &str = "ITEM: TIMESTEP\n5\nITEM: NUMBER OF ATOMS\n1\nITEM: BOX BOUNDS ff ff ff\n0 1\n0 1\n0 1\nITEM: ATOMS id type x y z radius mass\n1 1 0.5 0.5 0.0099 0.01 0.25\n";

#[test]
fn a_dump_sheet_lists_its_scene_settings_as_typed_and_in_si() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("d.dump"), DUMP).unwrap();
    let case = tmp.path().join("case.toml");
    std::fs::write(&case, CASE).unwrap();
    let ev = evaluate_path(&case);
    let v: serde_json::Value = serde_json::from_str(&meff::render::json(&ev.report)).unwrap();
    let rows = v["scene_inputs"].as_array().unwrap();
    let row = |key: &str| {
        rows.iter()
            .find(|r| r["key"] == key)
            .unwrap_or_else(|| panic!("no {key} in {rows:?}"))
    };
    let keys: Vec<&str> = rows.iter().map(|r| r["key"].as_str().unwrap()).collect();
    assert_eq!(
        keys,
        [
            "dump",
            "contact.stiffness",
            "contact.damping",
            "contact.tangential_ratio",
            "tolerance",
            "walls",
            "planes"
        ]
    );
    // Typed, SI (N/mm → N/m, µm → m), and the line and column of the value.
    let k = row("contact.stiffness");
    assert_eq!(k["typed"], "\"3 N/mm\"");
    assert!((k["si"].as_f64().unwrap() - 3000.0).abs() < 1e-9);
    assert_eq!(k["si_unit"], "N/m");
    assert_eq!(k["location"], "case.toml:5:25");
    let tol = row("tolerance");
    assert!((tol["si"].as_f64().unwrap() - 7e-6).abs() < 1e-18);
    assert_eq!(tol["si_unit"], "m");
    assert_eq!(tol["location"], "case.toml:6:13");
    assert!((row("contact.tangential_ratio")["si"].as_f64().unwrap() - 0.5).abs() < 1e-15);
    let walls = row("walls");
    assert_eq!(walls["typed"], "[\"zlo\"]");
    assert!(walls["si"].is_null());
    assert!(row("dump")["si"].is_null());
    assert!(row("planes")["typed"].as_str().unwrap().contains("-1 m"));

    // The same rows in the sheets, inside their Inputs section.
    let t = meff::render::templates::Templates::load(None).unwrap();
    let md = t.report_md_files(&ev.report, 4, "x").unwrap().0;
    let html = t.report_html(&ev.report, 4).unwrap();
    let typ = t.report_typ(&ev.report, 4).unwrap().0;
    let text = meff::render::text::sections_text("t", &meff::render::text::sections(&ev.report, 4));
    let section = |doc: &str, head: &str, next: &str| {
        let from = doc.find(head).unwrap_or_else(|| panic!("no {head}"));
        let rest = &doc[from..];
        rest[..rest[head.len()..]
            .find(next)
            .map_or(rest.len(), |i| i + head.len())]
            .to_string()
    };
    let md = section(&md, "## Inputs", "\n## ");
    let html = section(&html, "<h2>Inputs</h2>", "<h2>")
        .replace("&#x2F;", "/")
        .replace("&quot;", "\"");
    let typ = section(&typ, "= Inputs", "\n= ").replace("\\/", "/");
    let text = section(&text, "Inputs ([scene] settings)", "\n\n");
    for (name, doc, si_k, si_tol) in [
        ("md", &md, "3000 N/m", "7.000 × 10⁻⁶ m"),
        ("html", &html, "3000 N/m", "7.000 × 10⁻⁶ m"),
        ("typ", &typ, "3000 N/m", "7.000 × 10⁻⁶ m"),
        ("text", &text, "3000 N/m", "7.000e-06 m"),
    ] {
        for typed in [
            "3 N/mm",
            "7 um",
            "zlo",
            "case.toml:5:25",
            "case.toml:6:13",
            "case.toml:7:9",
        ] {
            assert!(doc.contains(typed), "{name}: no {typed} in\n{doc}");
        }
        for key in ["contact.stiffness", "tolerance", "walls"] {
            assert!(doc.contains(key), "{name}: no {key} in\n{doc}");
        }
        assert!(doc.contains(si_k), "{name}: no {si_k} in\n{doc}");
        assert!(doc.contains(si_tol), "{name}: no {si_tol} in\n{doc}");
    }
}
