//! Tolerances on `[parameters]` values read, and bad ones refused at
//! their place in the file (exit 2): a wrong unit, a reversed or
//! zero-width range, 100 % or more, a range that makes a value the case
//! needs positive cross zero (the case's own rules: a mass, a stiffness,
//! a size), a tolerance on a computed parameter or outside
//! `[parameters]`.

use crate::support::{SEED_CASE, eval_text, evaluate_str};

/// The seed case with parameter `name`'s line replaced by `line`.
fn with(name: &str, line: &str) -> String {
    SEED_CASE
        .lines()
        .map(|l| {
            if l.starts_with(&format!("{name} = ")) {
                line.to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// Asserts exit 2 with `said` at `line:col` of the file.
#[track_caller]
fn refused_at(case: &str, said: &str, line_col: &str) {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let name = format!(
        "tolerance-bad-{}",
        N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    let (code, _, err) = eval_text(&name, case);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(said), "{said:?} not in {err}");
    assert!(
        err.contains(&format!("{name}.toml:{line_col}")),
        "not at {line_col}: {err}"
    );
}

#[test]
fn every_written_form_gives_its_interval_about_the_nominal_value() {
    let cases = [
        ("m = \"2 kg ± 5 %\"", 0, 1.9, 2.1, 2.0),
        ("m = \"2 kg +- 0.1 kg\"", 0, 1.9, 2.1, 2.0),
        ("m = \"2 kg +/- 100 g\"", 0, 1.9, 2.1, 2.0),
        ("r = \"[0.08 m, 120 mm]\"", 2, 0.08, 0.12, 0.10),
        ("k = \"1e5 N/m ± 2e4 N/m\"", 3, 0.8e5, 1.2e5, 1e5),
        // A lever arm may cross zero: no rule of the case needs it positive.
        ("r = \"[-0.05 m, 0.15 m]\"", 2, -0.05, 0.15, 0.05),
    ];
    for (line, p, lo, hi, nominal) in cases {
        let name = &line[..1];
        let ev = evaluate_str(&with(name, line));
        let par = &ev.case.parameters[p];
        let t = par.tolerance.as_ref().unwrap_or_else(|| panic!("{line}"));
        for (a, b) in [(t.lo, lo), (t.hi, hi), (par.value.si, nominal)] {
            assert!(
                (a - b).abs() <= 1e-12 * b.abs().max(1.0),
                "{line}: {a} vs {b}"
            );
        }
    }
}

#[test]
fn bad_tolerances_are_located_errors() {
    let bad = [
        (
            "m = \"2 kg ± 1 m\"",
            "the tolerance is in m but the value in kg",
            "3:11",
        ),
        (
            "m = \"2 kg ± 100 %\"",
            "not above 0 % and below 100 %",
            "3:11",
        ),
        (
            "m = \"2 kg ± 150 %\"",
            "not above 0 % and below 100 %",
            "3:11",
        ),
        ("m = \"2 kg ± 0 kg\"", "has no width", "3:11"),
        ("r = \"[0.12 m, 0.08 m]\"", "reversed", "5:6"),
        ("r = \"[0.1 m, 0.1 m]\"", "zero width", "5:6"),
        (
            "r = \"[0.1 m, 0.2 kg]\"",
            "different dimensions: m and kg",
            "5:7",
        ),
        ("m = \"[-1 kg, 3 kg]\"", "a mass must be positive", "3:6"),
        ("k = \"[-1e4 N/m, 2e5 N/m]\"", "must be positive", "6:6"),
        (
            "I = \"0.02 kg m^2 ± 0.03 kg m^2\"",
            "must be positive",
            "4:18",
        ),
        (
            "k = \"2e4 N/m * m / (1 kg) ± 5 %\"",
            "is computed from `m`",
            "6:27",
        ),
        (
            "m = \"2 kg ± 5\"",
            "the tolerance is in no unit but the value in kg",
            "3:11",
        ),
        ("m = \"2 kg ± r\"", "not an expression of `r`", "3:13"),
        ("r = \"[0.08 m 0.12 m]\"", "a range is written", "5:6"),
    ];
    for (line, said, at) in bad {
        refused_at(&with(&line[..1], line), said, at);
    }
}

#[test]
fn a_tolerance_outside_the_parameters_is_refused_at_its_marker() {
    let case = SEED_CASE.replace("stiffness = \"k\"", "stiffness = \"1e5 N/m ± 5 %\"");
    refused_at(
        &case,
        "a tolerance is written on a `[parameters]` value",
        "17:22",
    );
    let case = SEED_CASE.replace("mass = \"m\"", "mass = \"m +/- 0.1 kg\"");
    refused_at(
        &case,
        "a tolerance is written on a `[parameters]` value",
        "10:11",
    );
}
