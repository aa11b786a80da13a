//! Bad input: every class of problem is reported at its `line:col`, with
//! exit status 2 from the binary and never a panic.

use meff::diag::line_col;
use std::process::Command;

const BLOCK: &str = r#"[[body]]
name = "block"
type = "rigid"
mass = "2 kg"
inertia = "0.02 kg m^2"
"#;

/// (name, case text, expected line, expected column, message fragment).
fn cases() -> Vec<(&'static str, String, usize, usize, &'static str)> {
    let contact = |extra: &str| {
        format!(
            "{BLOCK}[[contact]]\nname = \"c\"\nbody = \"block\"\npoint = [\"0.1 m\", \"0 m\"]\nnormal = [0, 1]\nstiffness = \"1e5 N/m\"\n{extra}"
        )
    };
    let with_params = |params: &str, mass: &str| {
        format!(
            "[parameters]\n{params}\n[[body]]\nname = \"block\"\ntype = \"particle\"\nmass = \"{mass}\"\n[[contact]]\nname = \"c\"\nbody = \"block\"\npoint = [\"0 m\", \"0 m\"]\nnormal = [0, 1]\nstiffness = \"1e5 N/m\"\n"
        )
    };
    let generalized = |m: &str| {
        format!(
            "[generalized]\ncoordinates = [{{ name = \"a\", unit = \"rad\" }}, {{ name = \"b\", unit = \"rad\" }}]\nmass_matrix = {m}\n[[contact]]\nname = \"c\"\njacobian = [\"1 m\", \"0 m\"]\nstiffness = \"1e5 N/m\"\n"
        )
    };
    vec![
        ("toml syntax", "title = \"x\nspace = 3".to_string(), 1, 11, "invalid TOML"),
        ("unknown unit", BLOCK.replace("\"2 kg\"", "\"2 kgg\""), 4, 11, "unknown unit `kgg`"),
        ("unit written as product", BLOCK.replace("\"2 kg\"", "\"2 Nm\""), 4, 11, "unknown unit `Nm`"),
        ("inertia in kg", BLOCK.replace("\"0.02 kg m^2\"", "\"0.02 kg\""), 5, 11, "must be in kg m^2"),
        ("mass without unit", BLOCK.replace("\"2 kg\"", "2"), 4, 8, "needs a unit"),
        ("non-unit normal", contact("").replace("[0, 1]", "[0, 1.1]"), 10, 10, "unit vector"),
        ("zero mass", BLOCK.replace("\"2 kg\"", "\"0 kg\""), 4, 8, "must be positive"),
        ("negative inertia", BLOCK.replace("\"0.02 kg m^2\"", "\"-0.02 kg m^2\""), 5, 11, "must be positive"),
        ("zero stiffness", contact("").replace("\"1e5 N/m\"", "\"0 N/m\""), 11, 13, "must be positive"),
        ("negative damping", contact("damping = \"-3 N s/m\"\n"), 12, 11, "cannot be negative"),
        ("unknown body", contact("").replace("body = \"block\"", "body = \"blok\""), 8, 8, "did you mean `block`"),
        ("unknown key", contact("stifness = \"1 N/m\"\n"), 12, 1, "did you mean `stiffness`"),
        ("mixed solref", contact("[engine.mujoco]\nsolref = [0.02, -1]\n"), 13, 10, "mixes its two forms"),
        ("solimp out of range", contact("[engine.mujoco]\nsolimp = [0.9, 1.5, 0.001, 0.5, 2]\n"), 13, 10, "out of MuJoCo's range"),
        ("engine timestep in Hz", contact("[engine.box2d]\ntimestep = \"60 Hz\"\n"), 13, 12, "must be in s"),
        ("unknown engine", contact("[engine.physx]\n"), 12, 9, "unknown key `physx`"),
        ("drake without stiffness", contact("[engine.drake]\ntimestep = \"1 ms\"\n"), 12, 1, "needs `stiffness`"),
        ("erp above one", contact("[engine.bullet]\nerp = 1.5\n"), 13, 7, "from 0 to 1"),
        ("negative frequency", contact("[engine.rapier]\ncontact_natural_frequency = -3\n"), 13, 29, "≥ 0"),
        ("duplicate name", format!("{BLOCK}{BLOCK}"), 7, 8, "duplicate name `block`"),
        ("unknown parameter", with_params("mass = \"2 kg\"", "mas"), 6, 9, "did you mean `mass`"),
        ("parameter cycle", with_params("a = \"b\"\nb = \"2*a\"", "a"), 2, 1, "depends on itself"),
        ("overflowing literal", BLOCK.replace("\"2 kg\"", "\"1e400 kg\""), 4, 9, "too large"),
        ("non-finite number", contact("").replace("[0, 1]", "[nan, 1]"), 10, 11, "finite"),
        ("dimension mismatch in a sum", BLOCK.replace("\"2 kg\"", "\"2 kg + 1 m\""), 4, 9, "different dimensions"),
        ("nesting too deep", BLOCK.replace("\"2 kg\"", &format!("\"{}2 kg{}\"", "(".repeat(500), ")".repeat(500))), 4, 0, "nested deeper"),
        ("long chain", BLOCK.replace("\"2 kg\"", &format!("\"{}\"", vec!["1 kg"; 5000].join(" + "))), 4, 0, "nested deeper"),
        (
            "fixed body against the world",
            "[[body]]\nname = \"floor\"\ntype = \"fixed\"\n[[contact]]\nname = \"c\"\nbody = \"floor\"\npoint = [\"0 m\", \"0 m\"]\nnormal = [0, 1]\nstiffness = \"1e5 N/m\"\n".into(),
            6,
            8,
            "cannot move",
        ),
        (
            "non-symmetric mass matrix",
            generalized("[[\"1 kg m^2\", \"0.2 kg m^2\"], [\"0.3 kg m^2\", \"1 kg m^2\"]]"),
            3,
            45,
            "not symmetric: M[a][b]",
        ),
        (
            "mass matrix not positive definite",
            generalized("[[\"1 kg m^2\", \"2 kg m^2\"], [\"2 kg m^2\", \"1 kg m^2\"]]"),
            3,
            15,
            "over the coordinates (a, b)",
        ),
        (
            "mass matrix entry of the wrong unit",
            generalized("[[\"1 kg\", \"0 kg m^2\"], [\"0 kg m^2\", \"1 kg m^2\"]]"),
            3,
            17,
            "must be in kg m^2",
        ),
        ("unknown contact in a claim", contact("[[claim]]\nof = \"m_eff(d)\"\nequals = \"1 kg\"\n"), 13, 13, "unknown contact `d`"),
        ("unknown space", format!("space = \"planer\"\n{}", contact("")), 1, 9, "did you mean `planar`"),
    ]
}

#[test]
fn every_bad_input_is_located() {
    for (name, source, line, col, fragment) in cases() {
        let err = match meff::case::parse_case("bad.toml", &source) {
            Ok(_) => panic!("{name}: accepted"),
            Err(e) => e,
        };
        let found = err.diagnostics.iter().any(|d| {
            let (l, c) = line_col(&source, d.span.start);
            let text = format!("{} {}", d.message, d.hints.join(" "));
            text.contains(fragment) && l == line && (col == 0 || c == col)
        });
        assert!(
            found,
            "{name}: expected {line}:{col} `{fragment}`, got:\n{}",
            meff::diag::render("bad.toml", &source, &err.diagnostics, false)
        );
    }
}

#[test]
fn several_problems_are_reported_at_once() {
    let source = BLOCK
        .replace("\"2 kg\"", "\"2 kgg\"")
        .replace("\"0.02 kg m^2\"", "\"0.02 kg\"");
    let err = meff::case::parse_case("bad.toml", &source).unwrap_err();
    assert!(err.diagnostics.len() >= 2, "{:?}", err.diagnostics);
}

#[test]
fn binary_exits_2_with_location_and_no_panic() {
    let dir = std::env::temp_dir().join(format!("meff-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, (name, source, line, col, _)) in cases().into_iter().enumerate() {
        let path = dir.join(format!("case{i}.toml"));
        std::fs::write(&path, &source).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_meff"))
            .arg("eval")
            .arg(&path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        let at = if col == 0 {
            format!("case{i}.toml:{line}:")
        } else {
            format!("case{i}.toml:{line}:{col}")
        };
        assert!(stderr.contains(&at), "{name}: expected {at} in\n{stderr}");
        assert!(out.stdout.is_empty(), "{name}: wrote output on bad input");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_invalid_declaration_is_reported_once_not_at_every_use() {
    let source = "[parameters]\nm = \"2 kgg\"\n[[body]]\nname = \"block\"\ntype = \"particle\"\nmass = \"m\"\n[[contact]]\nname = \"c\"\nbody = \"block\"\npoint = [\"0 m\", \"0 m\"]\nnormal = [0, 1]\nstiffness = \"1e5 N/m\"\n";
    let err = meff::case::parse_case("bad.toml", source).unwrap_err();
    let messages: Vec<&str> = err.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        vec!["unknown unit `kgg`"],
        "cascading errors: {messages:?}"
    );
    assert!(err.diagnostics[0].hints[0].contains("`kg`"));
}

#[test]
fn no_cascade_from_an_invalid_contact_to_its_claims() {
    for bad in [
        // A misspelled body.
        "space = \"3d\"\n[[body]]\nname = \"block\"\ntype = \"rigid\"\nmass = \"2 kg\"\ninertia = [\"0.1 kg m^2\", \"0.2 kg m^2\", \"0.3 kg m^2\"]\n[[contact]]\nname = \"tip\"\nbody = \"blok\"\npoint = [\"0.1 m\", \"0 m\", \"0 m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e5 N/m\"\n[[claim]]\nof = \"m_eff(tip)\"\nequals = \"1 kg\"\n",
        // A contact whose normal is not a unit vector.
        "[[body]]\nname = \"block\"\ntype = \"particle\"\nmass = \"2 kg\"\n[[contact]]\nname = \"tip\"\nbody = \"block\"\npoint = [\"0 m\", \"0 m\"]\nnormal = [0, 2]\nstiffness = \"1e5 N/m\"\n[[claim]]\nof = \"m_eff(tip)\"\nequals = \"2 kg\"\n[[sweep]]\nparameter = \"x\"\nfrom = \"1 kg\"\nto = \"2 kg\"\nplot = [\"m_eff(tip)\"]\n",
    ] {
        let err = meff::case::parse_case("bad.toml", bad).unwrap_err();
        assert!(
            err.diagnostics
                .iter()
                .all(|d| !d.message.contains("unknown contact")),
            "{:?}",
            err.diagnostics
        );
    }
}

#[test]
fn a_unit_error_in_a_parameter_is_shown_at_its_definition() {
    let source = "[parameters]\nm = \"2 kg m\"\n[[body]]\nname = \"a\"\ntype = \"particle\"\nmass = \"m\"\n[[body]]\nname = \"b\"\ntype = \"particle\"\nmass = \"m\"\n[[contact]]\nname = \"c\"\nbody = \"a\"\nother = \"b\"\npoint = [\"0 m\", \"0 m\"]\nnormal = [0, 1]\nstiffness = \"1e5 N/m\"\n";
    let err = meff::case::parse_case("bad.toml", source).unwrap_err();
    assert_eq!(err.diagnostics.len(), 1, "{:?}", err.diagnostics);
    let d = &err.diagnostics[0];
    assert_eq!(line_col(source, d.span.start).0, 2, "{d:?}");
    assert!(d.message.contains("parameter `m` is in kg m") && d.message.contains("mass"));
    assert!(d.hints[0].contains("used at line 6"), "{d:?}");
}

#[test]
fn units_spelled_out_get_their_symbol_suggested() {
    for (word, unit) in [
        ("degrees", "deg"),
        ("inches", "in"),
        ("seconds", "s"),
        ("Newtons", "N"),
    ] {
        let source = format!("[parameters]\nq = \"50 {word}\"\n");
        let err = meff::case::parse_case("bad.toml", &source).unwrap_err();
        let d = &err.diagnostics[0];
        assert!(
            d.hints.iter().any(|h| h.contains(&format!("`{unit}`"))),
            "{word}: {d:?}"
        );
    }
}
