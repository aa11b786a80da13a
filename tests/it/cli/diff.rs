//! Revisions: `meff diff` names exactly what a change of input changed,
//! is blind to the order of contacts, and reads meff's JSON as written.

use crate::support::meff;

fn json_diff(old: &str, new: &str) -> (Option<i32>, serde_json::Value) {
    let out = meff(["diff", "--json", old, new]);
    let v = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (out.status.code(), v)
}

fn changed(v: &serde_json::Value) -> Vec<String> {
    v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["quantity"].as_str().unwrap().to_string())
        .collect()
}

const TWO: &str = r#"
title = "two contacts"
[parameters]
m = "2 kg"
r = "0.1 m"
[[body]]
name = "block"
type = "rigid"
mass = "m"
inertia = "0.02 kg m^2"
[[contact]]
name = "left"
body = "block"
point = ["-r", "0 m"]
normal = [0, 1]
stiffness = "1e5 N/m"
[[contact]]
name = "right"
body = "block"
point = ["0.2 m", "0 m"]
normal = [0, 1]
stiffness = "3e5 N/m"
"#;

#[test]
fn one_changed_input_lists_exactly_what_depends_on_it() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("a.toml");
    let new = dir.path().join("b.toml");
    std::fs::write(&old, TWO).unwrap();
    // r moves the left contact only: the right contact's own a, m_eff, ω
    // and its stiffness stay; the coupling, modes and steps move.
    std::fs::write(&new, TWO.replace("r = \"0.1 m\"", "r = \"0.12 m\"")).unwrap();
    let (code, v) = json_diff(old.to_str().unwrap(), new.to_str().unwrap());
    assert_eq!(code, Some(1));
    let names = changed(&v);
    for must in [
        "r",
        "r (SI)",
        "m_eff(left)",
        "A(left, right)",
        "omega_max",
        "stable_dt",
    ] {
        assert!(names.iter().any(|n| n == must), "{must} missing: {names:?}");
    }
    for never in [
        "m_eff(right)",
        "a(right)",
        "k(left)",
        "k(right)",
        "m",
        "A(right, right)",
    ] {
        assert!(
            !names.iter().any(|n| n == never),
            "{never} listed: {names:?}"
        );
    }
    let m = v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["quantity"] == "a(left)")
        .unwrap();
    // a = 1/m + r²/I: 0.5 + 0.5 → 0.5 + 0.72.
    let (a0, a1) = (
        m["old"]["value"].as_f64().unwrap(),
        m["new"]["value"].as_f64().unwrap(),
    );
    assert!(
        (a0 - 1.0).abs() < 1e-12 && (a1 - 1.22).abs() < 1e-12,
        "{a0} {a1}"
    );
}

#[test]
fn reordered_contacts_give_an_empty_diff() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("a.toml");
    let new = dir.path().join("b.toml");
    std::fs::write(&old, TWO).unwrap();
    let at = TWO.find("[[contact]]").unwrap();
    let second = at + 1 + TWO[at + 1..].find("[[contact]]").unwrap();
    let swapped = format!("{}{}\n{}", &TWO[..at], &TWO[second..], &TWO[at..second]);
    std::fs::write(&new, &swapped).unwrap();
    let (code, v) = json_diff(old.to_str().unwrap(), new.to_str().unwrap());
    assert_eq!(code, Some(0), "{v}");
    assert!(changed(&v).is_empty());
    assert!(v["unchanged"].as_u64().unwrap() > 20);
}

#[test]
fn a_written_report_equals_its_case_and_a_flip_is_named() {
    // The committed JSON report against its case evaluated now (with the
    // verification, as the report was written): nothing changed.
    let out = meff([
        "diff",
        "--verify",
        "reports/two-corners.json",
        "cases/two-corners.toml",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // Without it, the verification's verdict is gone: the one change.
    let (code, v) = json_diff("reports/two-corners.json", "cases/two-corners.toml");
    assert_eq!(code, Some(1));
    assert_eq!(changed(&v), ["verification"]);
    assert_eq!(v["changes"][0]["verdict"], true);
}

#[test]
fn bad_revisions_are_located_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{\n  \"title\": \"x\",\n  oops\n}").unwrap();
    let out = meff(["diff", broken.to_str().unwrap(), "reports/two-corners.json"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("broken.json:3:3"), "{err}");
    let other = dir.path().join("other.json");
    std::fs::write(&other, "[1, 2]").unwrap();
    let out = meff(["diff", other.to_str().unwrap(), "reports/two-corners.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not meff's JSON"));
    let out = meff([
        "diff",
        "--tolerance",
        "-1",
        "reports/two-corners.json",
        "reports/two-corners.json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    // Nothing is written: diff only reads.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}
