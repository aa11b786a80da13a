//! Claim verdicts a hand derivation is checked against: frequencies in Hz
//! and rpm, expressions without parameters, reciprocal units, the functions
//! of hand derivations, and messages short enough to read. Each form has a
//! true claim and a near miss (off by 1.001) that must fail.

use crate::support::{SEED_CASE, cli, evaluate_str, root, stdout};
use SEED_CASE as SEED;

/// Evaluates the seed with one claim; the claim's verdict.
fn verdict(of: &str, equals: &str) -> Option<bool> {
    let case = format!("{SEED}[[claim]]\nof = \"{of}\"\nequals = \"{equals}\"\n");
    let ev = evaluate_str(&case);
    ev.report.claims[0].passed
}

#[track_caller]
fn holds(of: &str, equals: &str) {
    let case = format!("{SEED}[[claim]]\nof = \"{of}\"\nequals = \"{equals}\"\n");
    let ev = evaluate_str(&case);
    let c = &ev.report.claims[0];
    assert_eq!(c.passed, Some(true), "{of} = {equals}: {:?}", c.message);
}

#[track_caller]
fn fails(of: &str, equals: &str) {
    assert_eq!(
        verdict(of, equals),
        Some(false),
        "{of} = {equals} should fail"
    );
}

#[test]
fn angular_frequencies_claimed_in_cycles_are_converted() {
    holds("omega(c)", "50.33 Hz");
    fails("omega(c)", "50.38 Hz");
    fails("omega(c)", "316.2 Hz");
    holds("omega(c)", "3020 rpm");
    fails("omega(c)", "3023 rpm");
    holds("omega(c)", "0.05033 kHz");
    // An explicit 2π is the conversion already.
    holds("omega(c)", "2*pi*50.3292 Hz");
    fails("omega(c)", "2*pi*50.3796 Hz");
    // Still rad/s when written so.
    holds("omega(c)", "316.2 rad/s");
    holds("omega(c)", "316.2 1/s");
    holds("mode_omega(1)", "50.33 Hz");
}

#[test]
fn frequencies_in_cycles_are_claims_too() {
    holds("f(c)", "50.33 Hz");
    fails("f(c)", "50.38 Hz");
    holds("f(c)", "316.2 rad/s");
    holds("mode_f(1)", "3020 rpm");
    holds("f(c)", "sqrt(k*(1/m + r^2/I))/(2*pi)");
    fails("f(c)", "1.001*sqrt(k*(1/m + r^2/I))/(2*pi)");
}

/// A hand formula for f that forgot its 1/(2π) is in 1/s, which for f is
/// Hz: it fails, and the message names the 2π. Only a unit with `rad` in
/// it is read as radians per time.
#[test]
fn a_forgotten_two_pi_fails_and_says_so() {
    let omega = "sqrt(k*(1/m + r^2/I))";
    for (of, equals) in [
        ("f(c)", omega.to_string()),
        ("mode_f(1)", omega.to_string()),
        ("f(c)", "316.2 1/s".to_string()),
        ("f(c)", format!("{omega}*(1 s)/(1 s)")),
        ("omega(c)", format!("{omega}/(2*pi)")),
        ("omega(c)", "50.33 1/s".to_string()),
    ] {
        let case = format!("{SEED}[[claim]]\nof = \"{of}\"\nequals = \"{equals}\"\n");
        let c = &evaluate_str(&case).report.claims[0];
        assert_eq!(c.passed, Some(false), "{of} = {equals}");
        let m = c.message.as_deref().unwrap_or("");
        assert!(m.contains("2π"), "{of} = {equals}: {m}");
    }
    // Radians stated are converted, in any spelling of the unit.
    holds("f(c)", "316.2 rad/s");
    holds("f(c)", "(316.2 rad)/(1 s)");
    holds("f(c)", "2*158.1 rad/s");
}

#[test]
fn expressions_without_parameters_are_values() {
    holds("m_eff(c)", "(1/2)*(2 kg)");
    fails("m_eff(c)", "(1.001/2)*(2 kg)");
    holds("a(c)", "1.000000000/(1 kg)");
    fails("a(c)", "1.001/(1 kg)");
    holds("m_eff(c)", "(2.2046226/2.2046226)*(1 kg)");
    holds("m_eff(c)", "(1/0.45359237)*(1 lb)");
    fails("m_eff(c)", "(1.001/0.45359237)*(1 lb)");
    let case = format!("{SEED}[[claim]]\nof = \"m_eff(c)\"\nequals = \"(1/2)*(2 kg)\"\n");
    let ev = evaluate_str(&case);
    assert_eq!(ev.report.claims[0].how, "quantity");
}

#[test]
fn reciprocal_units() {
    holds("a(c)", "1 1/kg");
    holds("a(c)", "1.000 kg^-1");
    fails("a(c)", "1.001 1/kg");
    holds("omega(c)", "316.2 1/s");
    fails("omega(c)", "316.6 1/s");
    holds("a(c)", "0.001 1/g");
}

#[test]
fn functions_of_hand_derivations() {
    for inner in [
        "sin(asin(r/(1 m)))*(1 m)",
        "cos(acos(r/(1 m)))*(1 m)",
        "tan(atan(r/(1 m)))*(1 m)",
        "tan(atan2(r, 1 m))*(1 m)",
        "abs(0 m - r)",
        "exp(log(r/(1 m)))*(1 m)",
        "10^log10(r/(1 m))*(1 m)",
        "hypot(r, 0 m)",
        "hypot(0.6*r, 0.8*r)",
    ] {
        holds("a(c)", &format!("1/m + ({inner})^2/I"));
        fails("a(c)", &format!("1.001*(1/m + ({inner})^2/I)"));
    }
    // Domain errors are reported at their span.
    let bad = format!("{SEED}[[claim]]\nof = \"a(c)\"\nequals = \"asin(2)/(1 kg)\"\n");
    let ev = evaluate_str(&bad);
    assert_eq!(ev.report.claims[0].passed, None);
    assert!(
        ev.report.claims[0]
            .message
            .as_ref()
            .unwrap()
            .contains("outside [−1, 1]")
    );
}

#[test]
fn a_failed_claim_is_short_and_clear() {
    let dir = crate::support::scratch("claims");
    std::fs::create_dir_all(&dir).unwrap();
    let pins = std::fs::read_to_string(root().join("cases/double-pendulum-pins.toml")).unwrap();
    let wrong = dir.join("wrong.toml");
    std::fs::write(&wrong, pins.replace("/3 + m2*L1^2", "/3 + 1.001*m2*L1^2")).unwrap();
    let run = |args: &[&str]| {
        let out = cli(args).output();
        (out.status.code(), stdout(&out))
    };
    let (code, text) = run(&["check", wrong.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    let lines: Vec<&str> = text.lines().skip(1).collect();
    assert!(lines.len() <= 3, "{text}");
    assert!(
        lines[1].contains("claimed 2.585")
            && lines[1].contains("computed 2.583")
            && lines[1].contains("kg"),
        "{text}"
    );
    let (_, verbose) = run(&["check", "--verbose", wrong.to_str().unwrap()]);
    assert!(verbose.contains("difference"), "{verbose}");
    // In Markdown the message is a code span (no italics from `*`).
    let case = meff::case::load(&wrong).unwrap();
    let ev = meff::evaluate(case).unwrap();
    let t = meff::render::templates::Templates::load(None).unwrap();
    let md = t.report_md(&ev.report, 4).unwrap();
    let row = md.lines().find(|l| l.contains("FAIL")).unwrap();
    let cells: Vec<&str> = row.split(" | ").collect();
    let note = cells.iter().find(|c| c.contains("claimed 2.585")).unwrap();
    assert!(note.starts_with('`'), "{row}");
    // Computed and claimed with their unit, and the tolerance used.
    assert!(
        cells.contains(&"2.583 kg") && cells.contains(&"2.585 kg"),
        "{row}"
    );
    assert!(
        cells
            .iter()
            .any(|c| c.starts_with("± ") && c.ends_with(" kg")),
        "{row}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn failing_claims_read_well() {
    let dir = crate::support::scratch("trust");
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(root().join("cases/offcentre.toml")).unwrap();
    // a − claimed = (r − s)²/I.
    let text = text.replace(
        "k = { value",
        "s = { value = \"0.04 m\", description = \"a second length\" }\nk = { value",
    ) + r#"
[[claim]]
of = "a(offcentre)"
equals = "1/m + (2*r*s - s^2)/I"

[[claim]]
of = "omega(offcentre)"
equals = "300 rad/s"
rel_tol = 0.01
"#;
    let path = dir.join("wrong.toml");
    std::fs::write(&path, text).unwrap();
    let out = cli(["check", path.to_str().unwrap()]).output();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    // a = 1/2 + 0.01/0.02 = 1 1/kg; claimed 1/2 + (0.008 − 0.0016)/0.02 = 0.82.
    let fail = text
        .split("  FAIL")
        .nth(1)
        .expect("a failing claim")
        .lines()
        .collect::<Vec<_>>();
    let first: String = fail[..fail.len().min(3)].join("\n");
    assert!(first.contains("claimed 0.8200 1/kg"), "{text}");
    assert!(first.contains("computed 1.000 1/kg"), "{text}");
    assert!(first.contains("+21.95 %"), "{text}");
    assert!(
        first.contains("(r - s)^2/I") || first.contains("(-r + s)^2/I"),
        "the difference is factored: {text}"
    );
    // The explicit tolerance is named as such.
    assert!(text.contains("given by `rel_tol`"), "{text}");
    assert!(text.contains("claimed 300.0 rad/s"), "{text}");
    // The summary table of `eval` keeps the message whole.
    let out = cli(["eval", "--no-verify", path.to_str().unwrap()]).output();
    let eval = String::from_utf8_lossy(&out.stdout);
    assert!(eval.contains("computed 1.000 1/kg (+21.95 %)"), "{eval}");
    // --digits changes the figures.
    let out = cli([
        "eval",
        "--no-verify",
        "--digits",
        "6",
        path.to_str().unwrap(),
    ])
    .output();
    let eval = String::from_utf8_lossy(&out.stdout);
    assert!(eval.contains("claimed 0.820000 1/kg"), "{eval}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A plate on a floor tilted by `tilt` (its value as typed), with one
/// claim on m_eff, and its result.
fn tilted(tilt: &str, equals: &str, rel_tol: Option<f64>) -> meff::report::ClaimReport {
    let rel = rel_tol.map_or(String::new(), |r| format!("rel_tol = {r}\n"));
    let case = format!(
        r#"space = "planar"
[parameters]
m = "2 kg"
I = "0.02 kg m^2"
r = "0.1 m"
e = "0 m"
tilt = {tilt}
[[body]]
name = "b"
type = "rigid"
mass = "m"
inertia = "I"
position = ["0 m", "e"]
[[contact]]
name = "c"
body = "b"
point = ["r", "e"]
normal = ["sin(tilt)", "cos(tilt)"]
stiffness = "1e5 N/m"
[[claim]]
of = "m_eff(c)"
equals = "{equals}"
{rel}"#
    );
    evaluate_str(&case).report.claims[0].clone()
}

/// A parameter whose value is 0 (a tilt, an offset) is probed away from 0:
/// a claim that holds only there fails, whether or not the parameter has
/// a tolerance (the signer's offcentre-tolerance claim, which ignored the
/// tilt, passed because every probe kept the tilt at 0).
#[test]
fn a_claim_true_only_at_a_zero_parameter_fails() {
    for tilt in [
        "\"0 deg\"",
        "{ value = \"0 deg ± 8 deg\" }",
        "{ value = \"0 rad ± 0.01 rad\" }",
    ] {
        let wrong = tilted(tilt, "m*I/(I + m*r^2)", None);
        assert_eq!(wrong.passed, Some(false), "{tilt}: {:?}", wrong.message);
        assert!(
            wrong
                .message
                .as_deref()
                .unwrap_or("")
                .contains("another point"),
            "{tilt}: {:?}",
            wrong.message
        );
        let right = tilted(tilt, "m*I/(I + m*r^2*cos(tilt)^2)", None);
        assert_eq!(right.passed, Some(true), "{tilt}: {:?}", right.message);
    }
}

/// A claim given a `rel_tol` is an approximation: it passes when it holds
/// within that tolerance at the case's values and every probe point, the
/// difference shown, and fails when a probe point leaves it.
#[test]
fn an_approximate_claim_is_decided_by_its_rel_tol() {
    // Small tilts: 1 - cos² ≤ sin²(0.05) ≈ 0.25 %, within 1 %.
    let near = tilted(
        "{ value = \"0 rad ± 0.05 rad\" }",
        "m*I/(I + m*r^2)",
        Some(0.01),
    );
    assert_eq!(near.passed, Some(true), "{:?}", near.message);
    assert!(
        near.message
            .as_deref()
            .unwrap_or("")
            .contains("not an identity"),
        "{:?}",
        near.message
    );
    // Not within 1 % of m/5 (1.333 vs 0.4 kg).
    let far = tilted("\"0 deg\"", "m/5", Some(0.01));
    assert_eq!(far.passed, Some(false), "{:?}", far.message);
}
