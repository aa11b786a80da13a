//! The fuzzing entry point, shared by the coverage-guided fuzz target in
//! `fuzz/` and the corpus replay in the tests: one case text through the
//! reader, the numeric and symbolic pipeline, the claims and every
//! renderer. It returns nothing; panics are the findings.

/// Runs one case text through everything a `meff report --no-verify` does,
/// in memory.
pub fn run_case(text: &str) {
    let Ok(case) = crate::case::parse_case("fuzz.toml", text) else {
        return;
    };
    let Ok(evaluated) = crate::pipeline::evaluate(case) else {
        return;
    };
    let report = &evaluated.report;
    let _ = crate::render::json(report);
    let _ = crate::render::text::summary(report, crate::number::DEFAULT_DIGITS);
    // The built-in templates are parsed once per process.
    static TEMPLATES: std::sync::OnceLock<Option<crate::render::templates::Templates>> =
        std::sync::OnceLock::new();
    if let Some(templates) =
        TEMPLATES.get_or_init(|| crate::render::templates::Templates::load(None).ok())
    {
        let _ = templates.report_md(report, crate::number::DEFAULT_DIGITS);
        let _ = templates.report_html(report, crate::number::DEFAULT_DIGITS);
    }
}

/// The case reader alone (TOML, units, expressions, validation): the
/// cheap target that reaches many more executions.
pub fn read_case(text: &str) {
    let _ = crate::case::parse_case("fuzz.toml", text);
}

/// A robot model text (MJCF or URDF) through the reader, then forward
/// kinematics, the mass matrix with and without armature and the
/// constraint rows at the reference configuration and every keyframe.
pub fn read_model(text: &str) {
    let Ok(robot) = crate::robot::Robot::parse("fuzz.xml", text) else {
        return;
    };
    let tree = &robot.tree;
    let mut configurations = vec![tree.qpos0.clone()];
    configurations.extend(robot.keyframes.iter().map(|(_, q)| q.clone()));
    for q in configurations {
        let kin = tree.kinematics(&q);
        let _ = tree.mass_matrix(&kin, true);
        let _ = tree.mass_matrix(&kin, false);
        let _ = robot.constraint_rows(&kin, &q);
        if let Some(b) = tree.bodies.len().checked_sub(1) {
            let p = tree.place(&kin, b, &nalgebra::Vector3::zeros());
            let _ = tree.point_row(&kin, b, &p, &nalgebra::Vector3::z());
        }
    }
}

/// A scene: the first byte picks the form (even: two CSV tables split at
/// the first line `===`; odd: the bytes as an NPZ archive) and the space
/// (bit 1: 3-d, else planar); the files are written to a private
/// directory and read through a case's `[scene]` table, then analysed and
/// rendered as JSON.
pub fn run_scene(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let Ok(tmp) = tempfile::Builder::new()
        .prefix("meff-fuzz-scene-")
        .tempdir()
    else {
        return;
    };
    let dir = tmp.path();
    let space = if mode & 2 != 0 { "3d" } else { "planar" };
    let table = if mode & 1 == 0 {
        let text = String::from_utf8_lossy(rest);
        let (bodies, contacts) = text.split_once("\n===\n").unwrap_or((&text, ""));
        if std::fs::write(dir.join("b.csv"), bodies).is_err()
            || std::fs::write(dir.join("c.csv"), contacts).is_err()
        {
            return;
        }
        "[scene]\nbodies = \"b.csv\"\ncontacts = \"c.csv\"\n".to_string()
    } else {
        if std::fs::write(dir.join("s.npz"), rest).is_err() {
            return;
        }
        "[scene]\nfile = \"s.npz\"\n".to_string()
    };
    let case = format!("title = \"fuzz scene\"\nspace = \"{space}\"\n{table}");
    let path = dir.join("scene.toml");
    if std::fs::write(&path, case).is_err() {
        return;
    }
    let Ok(case) = crate::case::load(&path) else {
        return;
    };
    if let Ok(ev) = crate::pipeline::evaluate(case) {
        let _ = crate::render::json(&ev.report);
    }
}

/// A LAMMPS dump (any bytes, as text) read through a case's `[scene]`
/// with `dump`: the first byte picks the walls and the tolerance; then
/// analysed and rendered as JSON.
pub fn run_dump(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let Ok(tmp) = tempfile::Builder::new().prefix("meff-fuzz-dump-").tempdir() else {
        return;
    };
    let dir = tmp.path();
    if std::fs::write(dir.join("d.dump"), rest).is_err() {
        return;
    }
    let walls = if mode & 1 != 0 {
        "walls = \"fixed\"\n"
    } else {
        ""
    };
    let tolerance = if mode & 2 != 0 {
        "tolerance = \"1 mm\"\n"
    } else {
        ""
    };
    let case = format!(
        "title = \"fuzz dump\"\nspace = \"3d\"\n[scene]\ndump = \"d.dump\"\ncontact = {{ stiffness = \"1e5 N/m\" }}\n{walls}{tolerance}"
    );
    let path = dir.join("dump.toml");
    if std::fs::write(&path, case).is_err() {
        return;
    }
    let Ok(case) = crate::case::load(&path) else {
        return;
    };
    if let Ok(ev) = crate::pipeline::evaluate(case) {
        let _ = crate::render::json(&ev.report);
    }
}

/// An engine table (any TOML text) after a fixed two-contact case whose
/// second contact takes its stiffness from the engine: the engine
/// reader, the translation (each engine's formulas, its step map, its
/// inverse settings) and every renderer.
pub fn run_engine(text: &str) {
    const CASE: &str = "title = \"engine\"\nspace = \"planar\"\n\
        [[body]]\nname = \"b\"\ntype = \"rigid\"\nmass = \"2 kg\"\ninertia = \"0.02 kg m^2\"\nposition = [\"0 m\", \"0.05 m\"]\n\
        [[contact]]\nname = \"c1\"\nbody = \"b\"\npoint = [\"0.1 m\", \"0 m\"]\nnormal = [0, 1]\nstiffness = \"1e5 N/m\"\ndamping = \"20 N s/m\"\n\
        [[contact]]\nname = \"c2\"\nbody = \"b\"\npoint = [\"-0.1 m\", \"0 m\"]\nnormal = [0, 1]\n";
    run_case(&format!("{CASE}{text}"));
}

/// A book chapter through `meff mdbook` (HTML renderer), its book root a
/// private directory holding one case (`c.toml`, the seed problem); the
/// chapter Markdown that comes out must carry no live HTML beyond the
/// MathML meff writes.
pub fn run_book(chapter: &str) {
    let Ok(tmp) = tempfile::Builder::new().prefix("meff-fuzz-book-").tempdir() else {
        return;
    };
    let dir = tmp.path();
    if std::fs::create_dir_all(dir.join("src")).is_err() {
        return;
    }
    const SEED: &str = "title = \"seed\"\nspace = \"planar\"\n[parameters]\nm = { value = \"2 kg\" }\nI = { value = \"0.02 kg m^2\" }\nr = { value = \"0.1 m\" }\n\
        [[body]]\nname = \"b\"\ntype = \"rigid\"\nmass = \"m\"\ninertia = \"I\"\nposition = [\"0 m\", \"0.05 m\"]\n\
        [[contact]]\nname = \"c\"\nbody = \"b\"\npoint = [\"r\", \"0 m\"]\nnormal = [0, 1]\nstiffness = \"1e5 N/m\"\n\
        [[claim]]\nof = \"m_eff(c)\"\nequals = \"m*I/(I + m*r^2)\"\n";
    if std::fs::write(dir.join("src/c.toml"), SEED).is_err() {
        return;
    }
    let input = serde_json::json!([
        { "root": dir, "config": { "book": { "src": "src" } }, "renderer": "html" },
        { "items": [ { "Chapter": { "name": "f", "content": chapter, "number": [1],
            "sub_items": [], "path": "f.md", "source_path": "f.md", "parent_names": [] } } ] }
    ]);
    let Ok(out) = crate::mdbook::run(&input.to_string()) else {
        return;
    };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&out) else {
        panic!("the preprocessor wrote a book that is not JSON");
    };
    let content = v["items"][0]["Chapter"]["content"].as_str().unwrap_or("");
    // What meff writes into a chapter is never live HTML (a chapter that
    // has its own is its author's).
    if crate::render::inert_md::live_html(chapter).is_none()
        && let Some(tag) = crate::render::inert_md::live_html(content)
    {
        panic!("live HTML in a built chapter: {tag}");
    }
    // Nor an mdBook directive the chapter's author did not write.
    if !crate::mdbook::has_directive(&chapter.replace("{{#meff", ""))
        && crate::mdbook::has_directive(&content.replace("{{#meff", ""))
    {
        panic!("an mdBook directive in a built chapter: {content:?}");
    }
    // The same text as a case's description, quoted whole and by section:
    // no live HTML, no directive, whatever the description holds.
    let described = SEED.replacen(
        "title = \"seed\"\n",
        &format!(
            "title = \"seed\"\ndescription = {}\n",
            serde_json::Value::String(chapter.replace('\u{7f}', "")) // JSON escapes are TOML escapes
        ),
        1,
    );
    if std::fs::write(dir.join("src/d.toml"), described).is_err() {
        return;
    }
    let quoting = "{{#meff d.toml summary no-title no-verify}}\n\n{{#meff d.toml no-verify}}\n\n{{#meff d.toml claims no-verify}}\n";
    let input = serde_json::json!([
        { "root": dir, "config": { "book": { "src": "src" } }, "renderer": "html" },
        { "items": [ { "Chapter": { "name": "d", "content": quoting, "number": [1],
            "sub_items": [], "path": "d.md", "source_path": "d.md", "parent_names": [] } } ] }
    ]);
    let Ok(out) = crate::mdbook::run(&input.to_string()) else {
        return;
    };
    let v: serde_json::Value = serde_json::from_str(&out).expect("the book is JSON");
    let content = v["items"][0]["Chapter"]["content"].as_str().unwrap_or("");
    if let Some(tag) = crate::render::inert_md::live_html(content) {
        panic!("live HTML from a description: {tag}");
    }
    if crate::mdbook::has_directive(content)
        || (content.contains("meff-section-") && !chapter.contains("meff-section-"))
    {
        panic!("a directive or a marker from a description: {content:?}");
    }
}

/// Any text through the Typst translations the PDF uses (markup text,
/// string bodies, Markdown descriptions, LaTeX math laid out for display).
pub fn typst_text(text: &str) {
    let _ = crate::render::typ::text(text);
    let _ = crate::render::typ::string_body(text);
    let _ = crate::render::typ::markdown(text);
    // Every translation of LaTeX is inert, closed and paired Typst math.
    for typ in [
        crate::render::typ::math(text),
        crate::render::typ::math(&crate::render::layout::display(text)),
    ] {
        if let Err(e) = crate::render::typ::check_math(&typ) {
            panic!("the Typst translation of {text:?} is not safe: {e}");
        }
    }
    let _ = crate::render::templates::math(text, true);
}
