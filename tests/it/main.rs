//! meff's integration tests: one binary, one module per concern.

mod bad_input;
mod batch;
mod book_hostile;
mod bounded_work;
mod browser;
mod claims;
mod cli;
mod cobot;
mod columnar;
mod confine;
mod docs;
mod engines;
mod far_origin;
mod fuzz_corpus;
mod governing_step;
mod hostile;
mod hostile3;
mod impact;
mod large;
mod mdbook;
mod model_checks;
#[cfg(feature = "pdf")]
mod pdf;
mod pdf_legibility;
mod physics;
mod pose;
mod pose_size;
mod properties;
mod rapier;
mod reports;
mod robot_batch;
mod robots;
mod robustness;
mod scene;
mod sheet;
mod sheet_parity;
mod snapshots;
mod sweep_checks;
mod symbolic;
mod trust;
mod typeset;
mod verification;

use std::path::{Path, PathBuf};

/// The seed block (a = 1/kg, m_eff = 1 kg, ω = 316.2278 rad/s) with one
/// off-centre contact `c` and no claims; tests append what they check.
pub const SEED_CASE: &str = r#"title = "Seed"
[parameters]
m = "2 kg"
I = "0.020 kg m^2"
r = "0.10 m"
k = "1e5 N/m"
[[body]]
name = "block"
type = "rigid"
mass = "m"
inertia = "I"
[[contact]]
name = "c"
body = "block"
point = ["r", "0 m"]
normal = [0, 1]
stiffness = "k"
"#;

/// The project root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The bundled case files (`cases/*.toml`, sorted; model files beside
/// them are not cases).
pub fn bundled_case_paths() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("cases"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    paths
}

/// True for a case whose system comes from an MJCF or URDF model: no
/// closed forms are derived for it.
pub fn is_model_case(ev: &meff::Evaluated) -> bool {
    matches!(ev.case.form, meff::case::Form::Robot(_))
}

/// Loads and evaluates a bundled case by file name.
pub fn bundled(name: &str) -> meff::Evaluated {
    let path = root().join("cases").join(name);
    evaluate_path(&path)
}

/// Loads and evaluates a case file, panicking with the diagnostics on error.
pub fn evaluate_path(path: &Path) -> meff::Evaluated {
    let case = meff::case::load(path).unwrap_or_else(|e| panic!("{e}"));
    meff::evaluate(case).unwrap_or_else(|e| panic!("{e}"))
}

/// Evaluates case text.
pub fn evaluate_str(source: &str) -> meff::Evaluated {
    let case = meff::case::parse_case("test.toml", source).unwrap_or_else(|e| panic!("{e}"));
    meff::evaluate(case).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs the meff binary with `args` (from the repository root), `input` on
/// its standard input.
pub fn meff_with_stdin(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_meff"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Asserts |a − b| ≤ rel·max(|a|, |b|) (or ≤ rel when both are tiny).
#[track_caller]
pub fn assert_close(a: f64, b: f64, rel: f64) {
    let scale = a.abs().max(b.abs()).max(1e-300);
    assert!((a - b).abs() <= rel * scale, "{a} vs {b} (rel {rel})");
}

/// Loads a bundled case and evaluates it with the time-domain verification.
pub fn verified(name: &str) -> meff::Evaluated {
    let case = meff::case::load(&root().join("cases").join(name)).unwrap();
    meff::evaluate_with(
        case,
        meff::Options {
            verify: true,
            progress: None,
            ..Default::default()
        },
    )
    .unwrap()
}
