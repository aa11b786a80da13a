//! The calculation sheet: what a signer reads is unambiguous.

use crate::support::{
    bundled_case_paths, cli, evaluate_path, evaluate_str, root, stderr, verified,
};

fn eval_file(text: &str, name: &str) -> (Option<i32>, String) {
    let dir = crate::support::scratch(&format!("sheet-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let out = cli(["eval", "--no-verify", path.to_str().unwrap()]).output();
    std::fs::remove_dir_all(&dir).ok();
    (out.status.code(), stderr(&out))
}

#[test]
fn two_parameters_typeset_alike_are_refused_at_both_definitions() {
    let seed = std::fs::read_to_string(root().join("cases/offcentre.toml")).unwrap();
    for (extra, a, b) in [
        // An explicit symbol that is another parameter's.
        (
            "h = { value = \"0.1 m\", description = \"x\", symbol = \"r\" }\n",
            "`h`",
            "`r`",
        ),
        // Two names the default symbols render alike (I1 and I_1 are I₁).
        (
            "I1 = { value = \"1 kg m^2\", description = \"x\" }\nI_1 = { value = \"2 kg m^2\", description = \"y\" }\n",
            "`I1`",
            "`I_1`",
        ),
    ] {
        let text = seed.replacen("k = { value", &format!("{extra}k = {{ value"), 1);
        let (code, err) = eval_file(&text, "dup.toml");
        assert_eq!(code, Some(2), "{err}");
        let hits = err.matches("both typeset as").count();
        assert_eq!(hits, 2, "at both definitions: {err}");
        assert!(err.contains(a) && err.contains(b), "{err}");
    }
}

#[test]
fn a_case_without_claims_shows_a_dash_in_the_index() {
    use meff::render::templates::Templates;
    let t = Templates::load(None).unwrap();
    let text = std::fs::read_to_string(root().join("cases/offcentre.toml")).unwrap();
    let without: String = text.split("[[claim]]").next().unwrap().to_string();
    let ev = evaluate_str(&without);
    assert!(ev.report.claims.is_empty());
    let entries = vec![meff::render::templates::index_entry(
        &ev.report,
        "offcentre",
    )];
    let md = t.index(&entries, false).unwrap();
    let row = md.lines().find(|l| l.contains("offcentre")).unwrap();
    assert!(row.contains("| — |"), "{row}");
    assert!(!row.contains("0 / 0"), "{row}");
    let html = t.index(&entries, true).unwrap();
    assert!(!html.contains("0 / 0"), "{html}");
}

#[test]
fn the_title_block_is_in_every_format_and_inert() {
    use meff::render::templates::Templates;
    // The bundled case without its own title block.
    let bare = || {
        let text = std::fs::read_to_string(root().join("cases/offcentre.toml")).unwrap();
        text.split("\n[document]").next().unwrap().to_string()
    };
    let text = bare()
        + r#"
[document]
project = "Gripper <b>v2</b> & *x* {{#include /etc/passwd}}"
number = "CALC-0042"
revision = "B"
checked = "B. Checker"
"#;
    let ev = evaluate_str(&text);
    let t = Templates::load(None).unwrap();
    let md = t.report_md(&ev.report, 4).unwrap();
    assert!(md.contains("| number | CALC-0042 |"), "{md}");
    assert!(md.contains("| checked | B. Checker |"), "{md}");
    assert!(!md.contains("<b>") && !md.contains("{{#include"), "{md}");
    let html = t.report_html(&ev.report, 4).unwrap();
    assert!(
        html.contains("<tr><th>revision</th><td>B</td></tr>"),
        "{html}"
    );
    assert!(!html.contains("<b>v2"));
    let (typ, _) = t.report_typ(&ev.report, 4).unwrap();
    assert!(typ.contains("[number], [CALC\\-0042]"), "{typ}");
    assert!(typ.contains("CALC\\-0042 rev. B"), "running header");
    // Not given: the block is there all the same, every field shown
    // empty to fill in (project and number too), meff's version and the
    // case's hash (and JSON says null).
    let plain = evaluate_str(&bare());
    let html = t.report_html(&plain.report, 4).unwrap();
    assert!(html.contains("titleblock"));
    let md = t.report_md(&plain.report, 4).unwrap();
    let (typ, _) = t.report_typ(&plain.report, 4).unwrap();
    for key in [
        "project", "number", "revision", "date", "prepared", "checked", "approved",
    ] {
        assert!(
            html.contains(&format!("<tr><th>{key}</th><td class=\"sign\"></td></tr>")),
            "{key}"
        );
        assert!(md.contains(&format!("| {key} |  |")), "{key}\n{md}");
        assert!(typ.contains(&format!("[{key}], [#v(0.9em)]")), "{key}");
    }
    assert!(html.contains(&plain.report.case_sha256));
    let json = meff::render::json(&plain.report);
    assert!(json.contains("\"number\": null"), "{json}");
    // An unknown key or a multi-line value is an error at its place.
    let bad = bare() + "\n[document]\nrevison = \"B\"\nproject = \"\"\"a\nb\"\"\"\n";
    let (code, err) = eval_file(&bad, "bad.toml");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("revison") && err.contains("one line"), "{err}");
}

#[test]
fn the_model_definition_is_in_every_format() {
    use meff::render::templates::Templates;
    let text = r#"title = "Pinned rod on a block"
space = "planar"
[parameters]
L = { value = "400 mm", description = "rod length" }
[[body]]
name = "rod"
type = "rigid"
mass = "0.5 kg"
inertia = "0.5 kg*L^2/12"
position = ["L/2", "0 m"]
description = "steel rod <script>x</script>"
[[body]]
name = "block"
type = "rigid"
mass = "2 kg"
inertia = "0.02 kg m^2"
position = ["0.5 m", "-0.1 m"]
description = "the block it rests on"
[[joint]]
type = "pin"
bodies = ["rod"]
point = ["0 m", "0 m"]
description = "hinge at the wall"
[[contact]]
name = "tip"
body = "rod"
other = "block"
point = ["L", "0 m"]
normal = [0, 1]
stiffness = "1e5 N/m"
damping = "12 N s/m"
description = "rod tip on the block's top face"
"#;
    let ev = evaluate_str(text);
    let d = ev.report.definition.as_ref().expect("a definition");
    assert_eq!(d.bodies.len(), 2);
    assert_eq!(d.joints.len(), 1);
    assert_eq!(d.contacts[0].other, "block");
    // L = 400 mm is 0.4 m: typed and SI both shown.
    assert_eq!(d.contacts[0].point[0].text, "L");
    assert!((d.contacts[0].point[0].si - 0.4).abs() < 1e-15);
    assert!(d.contacts[0].point[0].derived);
    assert!(!d.contacts[0].point[1].derived, "0 m says it all");
    let t = Templates::load(None).unwrap();
    let md = t.report_md(&ev.report, 4).unwrap();
    let html = t.report_html(&ev.report, 4).unwrap();
    let (typ, _) = t.report_typ(&ev.report, 4).unwrap();
    for (name, doc) in [("md", &md), ("html", &html), ("typ", &typ)] {
        for needle in [
            "Model definition",
            "hinge at the wall",
            "the block it rests on",
            "face",
            "0.4000",
        ] {
            assert!(doc.contains(needle), "{name}: {needle}");
        }
        assert!(!doc.contains("<script>"), "{name}: a description is text");
    }
    // The order of sections is the same in every format.
    let at = |doc: &str, s: &str| doc.find(s).unwrap_or_else(|| panic!("{s}"));
    for doc in [&md, &html, &typ] {
        assert!(at(doc, "Inputs") < at(doc, "Model definition"));
        assert!(at(doc, "Model definition") < at(doc, "Effective mass, contact by contact"));
    }
}

#[test]
fn a_sheet_of_many_contacts_stays_small() {
    use meff::render::templates::{SHEET_ROWS, Templates};
    let n = 3 * SHEET_ROWS;
    let mut text = String::from("title = \"chain\"\nspace = \"line\"\n");
    for i in 0..=n {
        text.push_str(&format!(
            "[[body]]\nname = \"p{i}\"\ntype = \"particle\"\nmass = \"1 kg\"\n"
        ));
    }
    for i in 0..n {
        text.push_str(&format!(
            "[[contact]]\nname = \"c{i}\"\nbody = \"p{}\"\nother = \"p{i}\"\npoint = [\"0 m\"]\nnormal = [1]\nstiffness = \"1e4 N/m\"\n",
            i + 1
        ));
    }
    let ev = evaluate_str(&text);
    assert_eq!(ev.report.modes.len(), n);
    let t = Templates::load(None).unwrap();
    let md = t.report_md(&ev.report, 4).unwrap();
    let html = t.report_html(&ev.report, 4).unwrap();
    let (typ, _) = t.report_typ(&ev.report, 4).unwrap();
    for (name, doc) in [("md", &md), ("html", &html), ("typ", &typ)] {
        assert!(doc.contains("more than a sheet can show"), "{name}");
        assert!(
            doc.contains(&format!("The {SHEET_ROWS} fastest of {n} modes")),
            "{name}"
        );
    }
    // No n × n table: the Markdown grows with n, not n² (each contact has
    // its definition row with the world-frame echo, and its a, m_eff = 1/a
    // and ω lines with their numbers: about 810 bytes).
    assert!(md.len() < 1000 * n, "{} bytes for {n} contacts", md.len());
    // A small case prints everything and says nothing of the limit.
    let small =
        evaluate_str(&std::fs::read_to_string(root().join("cases/offcentre.toml")).unwrap());
    for doc in [
        t.report_md(&small.report, 4).unwrap(),
        t.report_html(&small.report, 4).unwrap(),
        t.report_typ(&small.report, 4).unwrap().0,
    ] {
        assert!(!doc.contains("more than a sheet can show"));
        assert!(!doc.contains("fastest of"));
    }
    // The JSON keeps every entry.
    let json = meff::render::json(&ev.report);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["delassus"]["matrix"].as_array().unwrap().len(), n);
}

#[test]
fn the_summary_answers_the_cases_question() {
    use meff::render::templates::Templates;
    let t = Templates::load(None).unwrap();
    // The robot–person case: the peak force against the limit, in words.
    let ur5 = meff::evaluate_with(
        meff::case::load(&root().join("cases/ur5-tool.toml")).unwrap(),
        meff::Options {
            verify: true,
            ..Default::default()
        },
    )
    .unwrap();
    let p = &ur5.report.persons[0];
    let (f, limit) = (
        p.exact.as_ref().unwrap().peak_force.unwrap(),
        p.force_limit.unwrap(),
    );
    let word = if f <= limit { "within" } else { "above" };
    for doc in [
        t.report_md(&ur5.report, 4).unwrap(),
        t.report_html(&ur5.report, 4).unwrap(),
        t.report_typ(&ur5.report, 4).unwrap().0,
    ] {
        let summary = &doc[..doc.find("Inputs").unwrap()];
        assert!(
            summary.contains(word) && summary.contains("the limit"),
            "{summary}"
        );
        assert!(summary.contains("agrees"), "{summary}");
    }
    // An engine case: the engine's own k and ωh, and its stability.
    let arm =
        meff::evaluate(meff::case::load(&root().join("cases/engine-mujoco-arm.toml")).unwrap())
            .unwrap();
    let md = t.report_md(&arm.report, 4).unwrap();
    let summary = &md[..md.find("## Inputs").unwrap()];
    assert!(
        summary.contains("MuJoCo, step 2.000 ms: **stable**"),
        "{summary}"
    );
    // The tip on the floor (normal in world axes): m_eff 1.413 kg, as
    // MuJoCo's own A = 0.7075 kg⁻¹ gives; the engine's spring and the
    // settings that give the case's k and c follow from it.
    assert!(
        summary.contains("k = 3.380 × 10⁵ N/m")
            && summary.contains("the exact m_eff = 1.413 kg")
            && summary.contains("ωh = 0.978")
            && summary.contains("solref = \\[0.0713544, 0.115226\\]"),
        "{summary}"
    );
    // With dashpots the step to use is the damped one.
    assert!(summary.contains("Use **Δt ≤ 14.93 ms**"), "{summary}");
    // A failed claim is named.
    let text = std::fs::read_to_string(root().join("cases/offcentre.toml")).unwrap()
        + "\n[[claim]]\nof = \"m_eff(offcentre)\"\nequals = \"2 kg\"\n";
    let ev = evaluate_str(&text);
    let md = t.report_md(&ev.report, 4).unwrap();
    let summary = &md[..md.find("## Inputs").unwrap()];
    assert!(
        summary.contains("**not passed**: `m_eff(offcentre) = 2 kg`"),
        "{summary}"
    );
}

/// The headings of a rendered sheet, in order: HTML `<h2>`, Markdown `##`,
/// Typst `=`.
fn headings(doc: &str, kind: &str) -> Vec<String> {
    match kind {
        "html" => doc
            .split("<h2>")
            .skip(1)
            .map(|s| s[..s.find("</h2>").unwrap()].to_string())
            .collect(),
        "md" => doc
            .lines()
            .filter_map(|l| l.strip_prefix("## "))
            .map(str::to_string)
            .collect(),
        _ => doc
            .lines()
            .filter_map(|l| l.strip_prefix("= "))
            .map(str::to_string)
            .collect(),
    }
}

#[test]
fn every_format_has_the_same_sections_in_the_same_order() {
    let t = meff::render::templates::Templates::load(None).unwrap();
    let order: Vec<&str> = meff::render::sheet::SECTIONS.iter().map(|s| s.1).collect();
    let mut evaluated: Vec<meff::Evaluated> = bundled_case_paths()
        .iter()
        .map(|p| evaluate_path(p))
        .collect();
    evaluated.push(verified("offcentre.toml"));
    for ev in &evaluated {
        let r = &ev.report;
        let html = headings(&t.report_html(r, 4).unwrap(), "html");
        let plain_md = t.report_md(r, 4).unwrap();
        let md = headings(&plain_md, "md");
        let typ = headings(&t.report_typ(r, 4).unwrap().0, "typ");
        // The markers a book cuts sections at (`report_md_marked`): one
        // before each section's heading, naming it; nothing else changes.
        let marked = t.report_md_marked(r, 4, "MARK").unwrap();
        let lines: Vec<&str> = marked.lines().collect();
        let mut marks = Vec::new();
        for (k, l) in lines.iter().enumerate() {
            if let Some(id) = l.strip_prefix("MARK ") {
                let heading = meff::render::sheet::SECTIONS
                    .iter()
                    .find(|s| s.0 == id)
                    .unwrap_or_else(|| panic!("{}: unknown mark {id}", r.title))
                    .1;
                assert_eq!(lines[k + 1], format!("## {heading}"), "{}", r.title);
                marks.push(heading.to_string());
            }
        }
        assert_eq!(marks, md, "{}: a mark per section", r.title);
        let unmarked: String = marked
            .split_inclusive('\n')
            .filter(|l| !l.starts_with("MARK "))
            .collect();
        assert_eq!(unmarked, plain_md, "{}", r.title);
        assert_eq!(html, md, "{}: HTML and Markdown", r.title);
        assert_eq!(html, typ, "{}: HTML and PDF", r.title);
        // In the one order of `SECTIONS`, assumptions before the method.
        let at: Vec<usize> = html
            .iter()
            .map(|h| {
                order
                    .iter()
                    .position(|o| o == h)
                    .unwrap_or_else(|| panic!("{}: unknown section {h}", r.title))
            })
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{}: {html:?}", r.title);
        for must in ["Summary", "Assumptions", "Coupled contacts", "References"] {
            assert!(html.iter().any(|h| h == must), "{}: no {must}", r.title);
        }
        if r.verification.is_some() {
            assert!(html.iter().any(|h| h == "Verification by simulation"));
        }
    }
}

#[test]
fn the_sketch_draws_one_arrow_per_contact_in_every_format() {
    let t = meff::render::templates::Templates::load(None).unwrap();
    for path in bundled_case_paths() {
        let ev = evaluate_path(&path);
        if ev.case.scene.is_some() {
            continue; // a scene (a dump's spheres) is not drawn
        }
        let r = &ev.report;
        let n = r.contacts_total;
        let html = t.report_html(r, 4).unwrap();
        let fig = &html[html
            .find("<figure class=\"sketch\">")
            .unwrap_or_else(|| panic!("{}: no sketch", r.title))..];
        let fig = &fig[..fig.find("</figure>").unwrap()];
        assert_eq!(fig.matches("class=\"arrow\"").count(), n, "{}", r.title);
        assert!(fig.contains("<figcaption>"), "{}", r.title);
        // Markdown: an SVG file beside the report, linked; PDF: a vector file.
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let (md, files) = t.report_md_files(r, 4, stem).unwrap();
        let sketch = format!("{stem}.sketch.svg");
        assert!(md.contains(&format!("]({sketch})")), "{}", r.title);
        let svg = &files.iter().find(|f| f.0 == sketch).unwrap().1;
        let svg = String::from_utf8_lossy(svg);
        assert!(svg.starts_with("<svg xmlns=") && svg.matches("class=\"arrow\"").count() == n);
        let (typ, typ_files) = t.report_typ(r, 4).unwrap();
        assert!(typ.contains("image(\"/plots/"), "{}", r.title);
        assert!(
            typ_files
                .iter()
                .any(|f| String::from_utf8_lossy(&f.1).contains("class=\"sketch\""))
        );
    }
}

#[test]
fn a_sketch_stays_readable_with_fifty_contacts() {
    // Fifty particles on a line of walls: contacts numbered, the caption
    // says which is which, the drawing stays within its size.
    let mut text = String::from("title = \"fifty\"\nspace = \"planar\"\n");
    for i in 0..50 {
        text.push_str(&format!(
            "[[body]]\nname = \"p{i}\"\ntype = \"particle\"\nmass = \"1 kg\"\nposition = [\"{x} m\", \"0.1 m\"]\n[[contact]]\nname = \"c{i}\"\nbody = \"p{i}\"\npoint = [\"{x} m\", \"0 m\"]\nnormal = [0, 1]\nstiffness = \"1e4 N/m\"\n",
            x = 0.05 * i as f64
        ));
    }
    let ev = evaluate_str(&text);
    let sk = ev.report.sketch.as_ref().unwrap();
    let svg = meff::render::sketch::svg(sk);
    assert_eq!(svg.matches("class=\"arrow\"").count(), 50);
    assert!(svg.contains(">50</text>") && !svg.contains(">c49</text>"));
    let caption = meff::render::sketch::caption(sk);
    assert!(
        caption.contains("1 c0") && caption.contains("50 c49"),
        "{caption}"
    );
    let width: f64 = svg
        .split("width=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(width <= 560.0);
}

#[test]
fn a_planar_arm_plots_its_ellipse_in_the_plane_of_its_finite_masses() {
    // Two hinges about z: the tip moves in the x–y plane only, so its mass
    // along z is infinite. The polar plot must be the closed curve of the
    // two finite principal masses, not an hourglass clipped at infinity.
    let dir = crate::support::scratch("planar-arm");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("arm.xml"),
        r#"<mujoco model="arm"><worldbody>
  <body name="l1"><joint name="j1" type="hinge" axis="0 0 1"/>
    <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05" mass="2"/>
    <body name="l2" pos="0.5 0 0"><joint name="j2" type="hinge" axis="0 0 1"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.04" mass="1"/>
    </body></body></worldbody></mujoco>"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("arm.toml"),
        "title = \"arm\"\n[model]\nmjcf = \"arm.xml\"\nconfiguration = { j2 = \"60 deg\" }\n\
         [[contact]]\nname = \"tip\"\nbody = \"l2\"\npoint = [\"0.4 m\", \"0 m\", \"0 m\"]\nnormal = [1, 0, 0]\nframe = \"body\"\nstiffness = \"1e4 N/m\"\n",
    )
    .unwrap();
    let ev = evaluate_path(&dir.join("arm.toml"));
    let e = &ev.report.robot.as_ref().unwrap().contacts[0].ellipsoid;
    assert_eq!(e.plane_kind, "finite");
    assert_eq!(e.masses.iter().filter(|m| m.is_none()).count(), 1);
    assert!(e.polar.iter().all(Option::is_some), "a closed curve");
    // Both plane directions lie in the x–y plane.
    assert!(e.plane.iter().all(|d| d[2].abs() < 1e-9), "{:?}", e.plane);
    let t = meff::render::templates::Templates::load(None).unwrap();
    let html = t.report_html(&ev.report, 4).unwrap();
    assert!(html.contains("principal 1") && html.contains("two finite principal directions"));
    let (typ, _) = t.report_typ(&ev.report, 4).unwrap();
    assert!(typ.contains("two finite principal directions"));
    std::fs::remove_dir_all(&dir).ok();
}
