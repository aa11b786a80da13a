//! Hostile input, round 3 (the surfaces added after round 2: engines,
//! scenes, models, books): no panic, no hang, no silent wrong number —
//! exit 2 at the place, with a message of bounded size.

use crate::{SEED_CASE, meff_with_stdin};

fn eval(case: &str) -> std::process::Output {
    meff_with_stdin(&["eval", "--no-verify", "-"], case)
}

#[track_caller]
fn bad_input(out: &std::process::Output, said: &str) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(said), "{said:?} not in {stderr}");
    stderr
}

/// Engine settings that translate to numbers out of range are errors at
/// the engine's table; a bare frequency of any magnitude is read, not
/// printed and parsed again (that panicked).
#[test]
fn engine_settings_out_of_range_are_errors_at_their_table() {
    for (table, said) in [
        (
            "[engine.rapier]\ntimestep = \"1e154 s\"\n",
            "[engine.rapier]",
        ),
        (
            "[engine.rapier]\ncontact_damping_ratio = 1.7e308\n",
            "[engine.rapier]",
        ),
        (
            "[engine.box2d]\ncontact_damping_ratio = 9e307\n",
            "[engine.box2d]",
        ),
        (
            "[engine.mujoco]\ntimestep = \"1e300 s\"\n",
            "[engine.mujoco]",
        ),
    ] {
        let out = eval(&format!("{SEED_CASE}{table}"));
        let stderr = bad_input(&out, said);
        assert!(
            stderr.contains("test.toml") || stderr.contains("<stdin>") || stderr.contains(":"),
            "{stderr}"
        );
    }
    for hertz in ["1e64", "1e-64", "1e300"] {
        for table in [
            format!("[engine.box2d]\ncontact_hertz = {hertz}\n"),
            format!("[engine.rapier]\ncontact_natural_frequency = {hertz}\n"),
        ] {
            let out = eval(&format!("{SEED_CASE}{table}"));
            let code = out.status.code();
            assert!(
                code == Some(0) || code == Some(2),
                "{table}: exit {code:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    // An ordinary setting is still translated.
    let out = eval(&format!("{SEED_CASE}[engine.box2d]\ncontact_hertz = 60\n"));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Thousands of misspelt names among thousands of parameters: every
/// problem is still reported (up to the cap), in bounded work.
#[test]
fn many_unknown_names_are_reported_without_quadratic_hints() {
    let mut case = String::from("title = \"t\"\n[parameters]\n");
    for i in 0..3000 {
        case.push_str(&format!("p_{i:05} = \"1 kg\"\n"));
    }
    for i in 0..3000 {
        case.push_str(&format!("q_{i:05} = \"p_{i:05}x + zz_{i}\"\n"));
    }
    let out = eval(&case);
    let stderr = bad_input(&out, "unknown");
    assert!(stderr.len() < 200_000, "{} bytes of messages", stderr.len());
}

/// A CSV header of 20,000 unknown columns is a handful of problems, not
/// 20,000 (the cap is 20 per scene).
#[test]
fn a_csv_header_of_unknown_columns_is_capped() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let header: Vec<String> = (0..20_000).map(|i| format!("col{i}")).collect();
    std::fs::write(dir.join("b.csv"), format!("{}\n", header.join(","))).unwrap();
    std::fs::write(
        dir.join("c.csv"),
        "body,point_x,point_y,normal_x,normal_y,stiffness\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("s.toml"),
        "title = \"s\"\n[scene]\nbodies = \"b.csv\"\ncontacts = \"c.csv\"\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_meff"))
        .args(["eval", "--no-verify"])
        .arg(dir.join("s.toml"))
        .output()
        .unwrap();
    let stderr = bad_input(&out, "unknown column");
    assert!(stderr.matches("unknown column").count() <= 20, "{stderr}");
}

/// `meff mdbook`: bad input (not JSON, a missing case) exits 2; only a
/// claim exits 1.
#[test]
fn mdbook_bad_input_exits_2() {
    let out = meff_with_stdin(&["mdbook"], "{ not json");
    assert_eq!(out.status.code(), Some(2));
    let tmp = tempfile::tempdir().unwrap();
    let input = serde_json::json!([
        { "root": tmp.path(), "config": { "book": { "src": "src" } }, "renderer": "html" },
        { "items": [ { "Chapter": {
            "name": "c", "content": "{{#meff missing.toml}}", "number": [1],
            "sub_items": [], "path": "c.md", "source_path": "c.md", "parent_names": []
        } } ] }
    ]);
    let out = meff_with_stdin(&["mdbook"], &input.to_string());
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A model's mass matrix is dense: more than 600 velocities is refused at
/// the model (1,000 free bodies took minutes and gigabytes).
#[test]
fn model_size_is_bounded() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let free: String = (0..120)
        .map(|i| {
            format!("<body name=\"b{i}\" pos=\"{i} 0 1\"><freejoint/><geom size=\"0.1\"/></body>")
        })
        .collect();
    std::fs::write(
        dir.join("free.xml"),
        format!("<mujoco><worldbody>{free}</worldbody></mujoco>"),
    )
    .unwrap();
    let case = |file: &str, body: &str| {
        format!(
            "title = \"t\"\nspace = \"3d\"\n[model]\nmjcf = \"{file}\"\n[[contact]]\nname = \"c\"\nbody = \"{body}\"\npoint = [\"0 m\", \"0 m\", \"0 m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e5 N/m\"\n"
        )
    };
    std::fs::write(dir.join("free.toml"), case("free.xml", "b0")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_meff"))
        .args(["eval", "--no-verify"])
        .arg(dir.join("free.toml"))
        .output()
        .unwrap();
    bad_input(&out, "720 generalized velocities");
}
