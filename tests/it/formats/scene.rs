//! `[scene]` input: the same packing as TOML tables, as an NPZ archive and
//! as CSV files gives the same numbers bit for bit; every defect is an
//! error at its place, exit 2, nothing panics. Fixtures:
//! `tests/cases/scene/make.py` (from the seeded packing generator).

use crate::support::{evaluate_path, meff_with_stdin, root, stderr};
fn dir() -> std::path::PathBuf {
    root().join("tests/cases/scene")
}

/// The report as JSON without what names the input (title, description,
/// hash of the case text) and without the symbolic section (a scene has no
/// symbols; 80 TOML contacts are above the symbolic limit anyway).
fn physics_json(name: &str) -> serde_json::Value {
    let ev = evaluate_path(&dir().join(name));
    let mut v: serde_json::Value = serde_json::from_str(&meff::render::json(&ev.report)).unwrap();
    let o = v.as_object_mut().unwrap();
    // `definition` is the case as typed: a scene types none of it.
    for key in [
        "title",
        "description",
        "case_sha256",
        "symbolic",
        "scene",
        "definition",
        // The `[scene]` files and settings as typed differ by form (`file`
        // or `bodies` and `contacts`; none in TOML tables).
        "scene_files",
        "scene_inputs",
    ] {
        o.remove(key);
    }
    v
}

#[test]
fn npz_csv_and_toml_give_identical_results() {
    for p in ["p3d", "p2d"] {
        let toml = physics_json(&format!("{p}.toml"));
        assert!(toml["contacts"].as_array().unwrap().len() > 40);
        for form in ["scene", "csv"] {
            let other = physics_json(&format!("{p}.{form}.toml"));
            assert!(toml == other, "{p}.{form}.toml differs from {p}.toml");
        }
    }
}

#[test]
fn names_from_the_archive_are_used() {
    let case = "space = \"3d\"\n[scene]\nfile = \"named.npz\"\n";
    let path = dir().join("named-case.toml.tmp");
    std::fs::write(&path, case).unwrap();
    let loaded = meff::case::load(&path);
    std::fs::remove_file(&path).unwrap();
    let ev = meff::evaluate(loaded.unwrap()).unwrap();
    let meff::model::Kind::Bodies { bodies, .. } = &ev.model.kind else {
        panic!()
    };
    assert_eq!(bodies[3].name, "grain3");
}

fn run(case: &str) -> (i32, String) {
    let out = meff_with_stdin(&["eval", "-", "--no-verify"], case);
    (out.status.code().unwrap_or(-1), stderr(&out))
}

#[test]
fn defects_are_errors_at_their_place() {
    // Standard input: paths start from the working directory (the root).
    let npz =
        |file: &str| format!("space = \"3d\"\n[scene]\nfile = \"tests/cases/scene/{file}\"\n");
    let cases = [
        (npz("bad-normal.npz"), "array `normal`, row 7: a normal must be a unit vector"),
        (npz("bad-index.npz"), "array `other`, row 3: body index 40 is out of range"),
        (npz("missing-stiffness.npz"), "the archive has no array `stiffness`"),
        (npz("bad-inertia.npz"), "array `inertia`, row 5"),
        (npz("pickle.npz"), "meff does not load pickles"),
        (npz("absent.npz"), "cannot read"),
        (npz("p3d.bodies.csv"), "not a NumPy .npz archive"),
        (
            "space = \"line\"\n[scene]\nfile = \"tests/cases/scene/p3d.scene.npz\"\n".into(),
            "a scene is planar or 3-d",
        ),
        (
            "space = \"3d\"\n[scene]\nfile = \"x.npz\"\n[[body]]\nname = \"b\"\ntype = \"particle\"\nmass = \"1 kg\"\nposition = [\"0 m\", \"0 m\", \"0 m\"]\n".into(),
            "cannot be used with `[scene]`",
        ),
        (
            "space = \"3d\"\n[scene]\nfile = \"tests/cases/scene/p3d.scene.npz\"\nunits = { length = \"kg\" }\n".into(),
            "not of length",
        ),
    ];
    for (case, expect) in &cases {
        let (code, err) = run(case);
        assert_eq!(code, 2, "{expect}: {err}");
        assert!(err.contains(expect), "expected `{expect}` in:\n{err}");
        assert!(err.contains("-:"), "located in the case file:\n{err}");
        assert!(!err.contains("panicked"));
    }
}

#[test]
fn csv_defects_are_shown_at_line_and_column() {
    let tmp = tempfile::tempdir().unwrap();
    let bodies = std::fs::read_to_string(dir().join("p3d.bodies.csv")).unwrap();
    let contacts = std::fs::read_to_string(dir().join("p3d.contacts.csv")).unwrap();
    let write = |b: &str, c: &str| {
        std::fs::write(tmp.path().join("b.csv"), b).unwrap();
        std::fs::write(tmp.path().join("c.csv"), c).unwrap();
        let case = tmp.path().join("case.toml");
        std::fs::write(
            &case,
            "space = \"3d\"\n[scene]\nbodies = \"b.csv\"\ncontacts = \"c.csv\"\n",
        )
        .unwrap();
        let out = meff_with_stdin(&["eval", case.to_str().unwrap(), "--no-verify"], "");
        (out.status.code(), stderr(&out))
    };
    // Line 4 of the contacts file (third data row): stiffness negative.
    let mut lines: Vec<String> = contacts.lines().map(String::from).collect();
    let mut cells: Vec<String> = lines[3].split(',').map(String::from).collect();
    let k_col = cells.len() - 1;
    let col: usize = cells[..k_col].iter().map(|c| c.len() + 1).sum::<usize>() + 1;
    cells[k_col] = "-5".into();
    lines[3] = cells.join(",");
    let (code, err) = write(&bodies, &(lines.join("\n") + "\n"));
    assert_eq!(code, Some(2));
    assert!(err.contains(&format!("c.csv:4:{col}")), "{err}");
    assert!(err.contains("a stiffness must be positive"), "{err}");
    // A misspelt column in the bodies file, with a suggestion.
    let (code, err) = write(&bodies.replacen("mass", "mas", 1), &contacts);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("b.csv:1:1") && err.contains("did you mean `mass`?"),
        "{err}"
    );
    // Not a number.
    let (code, err) = write(
        &bodies.replacen("\n", "\nabc", 2).replacen("\nabc", "\n", 1),
        &contacts,
    );
    assert_eq!(code, Some(2));
    assert!(
        err.contains("b.csv:3:1") && err.contains("is not a number"),
        "{err}"
    );
    // Nothing written, no panic anywhere.
    assert!(!err.contains("panicked"));
}

#[test]
fn the_parallel_numeric_scene_model_is_the_generic_one() {
    // `model::numeric` builds a scene's bodies and contacts in parallel;
    // the generic builder (the one every other scalar type uses) must give
    // the same model, value for value and in the same order.
    for name in ["p3d.scene.toml", "p2d.scene.toml", "p3d.csv.toml"] {
        let case = meff::case::load(&dir().join(name)).unwrap();
        let parallel = meff::model::numeric(&case);
        let generic = meff::model::build(&case, &mut |v: &meff::case::Val| {
            Ok::<f64, std::convert::Infallible>(v.si)
        })
        .unwrap();
        assert!(!parallel.contacts.is_empty(), "{name}");
        assert_eq!(format!("{parallel:?}"), format!("{generic:?}"), "{name}");
    }
}
