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
