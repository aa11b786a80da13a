//! The calculation sheet (issue 25): what a signer reads is unambiguous.

use std::process::Command;

fn eval_file(text: &str, name: &str) -> (Option<i32>, String) {
    let dir = std::env::temp_dir().join(format!("meff-sheet-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_meff"))
        .args(["eval", "--no-verify", path.to_str().unwrap()])
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).ok();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn two_parameters_typeset_alike_are_refused_at_both_definitions() {
    let seed = std::fs::read_to_string(crate::root().join("cases/offcentre.toml")).unwrap();
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
    let text = std::fs::read_to_string(crate::root().join("cases/offcentre.toml")).unwrap();
    let without: String = text.split("[[claim]]").next().unwrap().to_string();
    let ev = crate::evaluate_str(&without);
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
    let text = std::fs::read_to_string(crate::root().join("cases/offcentre.toml")).unwrap()
        + r#"
[document]
project = "Gripper <b>v2</b> & *x* {{#include /etc/passwd}}"
number = "CALC-0042"
revision = "B"
checked = "B. Checker"
"#;
    let ev = crate::evaluate_str(&text);
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
    // Not given: no block at all, and JSON says null.
    let plain = crate::evaluate_str(
        &std::fs::read_to_string(crate::root().join("cases/offcentre.toml")).unwrap(),
    );
    assert!(
        !t.report_html(&plain.report, 4)
            .unwrap()
            .contains("titleblock")
    );
    let json = meff::render::json(&plain.report);
    assert!(json.contains("\"number\": null"), "{json}");
    // An unknown key or a multi-line value is an error at its place.
    let bad = std::fs::read_to_string(crate::root().join("cases/offcentre.toml")).unwrap()
        + "\n[document]\nrevison = \"B\"\nproject = \"\"\"a\nb\"\"\"\n";
    let (code, err) = eval_file(&bad, "bad.toml");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("revison") && err.contains("one line"), "{err}");
}
