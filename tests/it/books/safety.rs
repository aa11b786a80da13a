//! Books from strangers: what meff writes into a chapter cannot open
//! an mdBook directive in its final form (MathML included), a case's
//! description cannot forge or break a section boundary, a book's work is
//! bounded (one evaluation per case file however its path is spelled), and
//! `{{#meff-value}}` names impacts and contacts whose names have spaces.

use crate::support::{SEED_CASE, assert_exit, book_input, cli, meff_with_stdin, root};
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

/// Runs `meff mdbook` on one chapter (`src/ch.md`) of the book at `root`.
fn build(root: &Path, renderer: &str, config: Value, content: &str) -> std::process::Output {
    let input = book_input(root, config, renderer, Some("0.5.4"), "ch.md", content);
    meff_with_stdin(&["mdbook"], &input)
}

fn config() -> Value {
    serde_json::json!({ "book": { "src": "src" } })
}

fn chapter_of(out: &std::process::Output) -> String {
    assert_exit(out, 0);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["items"][0]["Chapter"]["content"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A book in a temporary directory with `case.toml` = the seed case with
/// `description` (a TOML literal string: backslashes as written).
fn book_with_description(description: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("src")).unwrap();
    let case = SEED_CASE.replace(
        "title = \"Seed\"",
        &format!("title = \"Seed\"\ndescription = '''\n{description}\n'''"),
    );
    std::fs::write(tmp.path().join("src/case.toml"), case).unwrap();
    tmp
}

/// LaTeX in a description became MathML text holding `{{#include …}}`
/// (with a no-break space) after directive breaking had run on the LaTeX:
/// mdBook's `links` then read the file. Every directive form, through
/// every renderer, comes out broken; the chapter author's own directive
/// is kept.
#[test]
fn directives_cannot_form_in_the_final_chapter_text() {
    let descriptions = [
        r"$\text{\{\{\#include /etc/passwd\}\}}$",
        r"$\mathrm{\{\{\ \#rustdoc\_include /etc/hostname:2\}\}}$",
        r"$$\text{\{\{\#playground /etc/passwd\}\}}$$",
        r"$\{\{\#title owned\}\}$ and $\{ \{\#template x.md\}\}$",
        r"$\text{\{\{}\,\text{\#include /etc/passwd\}\}}$",
        "`{{#include /etc/passwd}}` {{ #include /etc/passwd }} \\{{#include /etc/passwd}}",
    ];
    for d in descriptions {
        let tmp = book_with_description(d);
        for renderer in ["html", "markdown"] {
            let content = chapter_of(&build(
                tmp.path(),
                renderer,
                config(),
                "{{#include own.md}}\n\n{{#meff case.toml no-verify}}\n\n{{#meff case.toml no-verify no-title summary}}\n",
            ));
            let (own, meff) = content.split_at("{{#include own.md}}".len());
            assert_eq!(own, "{{#include own.md}}", "{content}");
            assert!(
                !meff::mdbook::has_directive(meff),
                "{d} ({renderer}): {meff}"
            );
            // The text itself is kept, only broken.
            if d == descriptions[0] {
                assert!(
                    meff.contains("#include") && meff.contains("/etc/passwd"),
                    "{meff}"
                );
            }
        }
    }
}

/// A fenced block in a description that starts `## Summary` once became
/// a section boundary for `{{#meff … summary no-title}}`: its opening
/// fence was cut off and the `<img onerror=…>` line after it was live
/// HTML. Sections are now cut at markers meff's template writes.
#[test]
fn a_description_cannot_forge_or_break_a_section() {
    let tmp = book_with_description(concat!(
        "Intro.\n\n```\n## Summary\n<img src=x onerror=alert(1)>\n```\n\n",
        "~~~\n## Claims\n<script>alert(2)</script>\n~~~\n\n",
        "    ## Inputs\n    <iframe src=javascript:alert(3)></iframe>\n\n",
        "````\n```\n## Summary\n````\n<img src=y onerror=alert(4)>\n\n",
        "meff-section-00000000000000000000000000000000 summary\n## Summary\n<b onclick=alert(5)>x</b>\n",
    ));
    for directive in [
        "{{#meff case.toml summary no-title no-verify}}",
        "{{#meff case.toml claims no-title no-verify}}",
        "{{#meff case.toml inputs no-verify}}",
        "{{#meff case.toml no-verify}}",
        "```meff summary no-title no-verify\ntitle = \"x\"\ndescription = \"```\\n## Summary\\n<img src=z onerror=alert(6)>\\n```\"\n[[body]]\nname = \"b\"\ntype = \"particle\"\nmass = \"1 kg\"\n[[contact]]\nname = \"c\"\nbody = \"b\"\npoint = [\"0 m\", \"0 m\"]\nnormal = [0, 1]\nstiffness = \"1e5 N/m\"\n```",
    ] {
        for renderer in ["html", "markdown"] {
            let content = chapter_of(&build(tmp.path(), renderer, config(), directive));
            assert_eq!(
                meff::render::inert_md::live_html(&content),
                None,
                "{directive} ({renderer}): {content}"
            );
            if directive.contains("summary no-title") {
                assert!(!content.contains("meff-section-"), "{content}");
                // Exactly the section asked for, and nothing of the
                // description.
                assert_eq!(content.matches("### Summary").count(), 1, "{content}");
                assert!(!content.contains("alert"), "{content}");
                assert!(!content.contains("### Model"), "{content}");
            }
        }
    }
}

/// `{{#meff}}` directives were evaluated afresh each time (600 in a 12 KB
/// chapter: 23–28 s) and `{{#meff-value}}` cached by the path as spelled.
/// One evaluation per case file and setting, by its canonical path.
#[test]
fn a_case_is_evaluated_once_however_its_path_is_spelled() {
    let tmp = book_with_description("Plain.");
    std::fs::create_dir_all(tmp.path().join("src/sub")).unwrap();
    let spellings = [
        "case.toml",
        "../src/case.toml",
        "./sub/../case.toml",
        "../src/../src/case.toml",
    ];
    let mut chapter = String::new();
    for i in 0..600 {
        let p = spellings[i % spellings.len()];
        if i % 2 == 0 {
            chapter.push_str(&format!("{{{{#meff {p} summary no-verify no-title}}}}\n"));
        } else {
            chapter.push_str(&format!("m = {{{{#meff-value {p} m_eff(c)}}}}\n"));
        }
    }
    let start = Instant::now();
    let content = chapter_of(&build(tmp.path(), "html", config(), &chapter));
    let took = start.elapsed();
    assert_eq!(content.matches("### Summary").count(), 300);
    assert_eq!(content.matches("m = 1.000 kg").count(), 300, "{content}");
    // One evaluation is milliseconds; 600 were 25 s.
    assert!(took < Duration::from_secs(6), "{took:?}");
}

/// A book's work is bounded: directives, distinct evaluations and time,
/// each a located error (exit 2).
#[test]
fn a_books_work_is_bounded() {
    let tmp = book_with_description("Plain.");
    // Directives.
    let many = "{{#meff-value case.toml r}} ".repeat(10_001);
    let out = build(tmp.path(), "html", config(), &format!("x\n{many}\n"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("ch.md:2") && err.contains("10000"), "{err}");
    // A large chapter of directive openers between 9,000 of meff's values:
    // the final guard stays linear (was 6.3 s).
    let big = "{{#meff-value case.toml r}} ".repeat(9_000) + "\n" + &"{{#".repeat(300_000);
    let start = Instant::now();
    let content = chapter_of(&build(tmp.path(), "html", config(), &big));
    assert_eq!(content.matches("0.1000 m").count(), 9_000);
    assert!(
        start.elapsed() < Duration::from_secs(4),
        "{:?}",
        start.elapsed()
    );
    // Time: the tote case with a 10,001-point sweep of its coupled edge
    // impact takes seconds; with a budget of one second the evaluation
    // stops where it is.
    let tote = std::fs::read_to_string(root().join("cases/tote-drop.toml"))
        .unwrap()
        .replace("points = 10\n", "points = 10001\n")
        .replace(
            "plot = [\"peak_force(on a corner, corner)\"]",
            "plot = [\"peak_force(on an edge, corner)\"]",
        );
    std::fs::write(tmp.path().join("src/tote.toml"), tote).unwrap();
    let mut budget = config();
    budget["preprocessor"] = serde_json::json!({ "meff": { "time-budget": 1 } });
    let start = Instant::now();
    let out = build(
        tmp.path(),
        "html",
        budget.clone(),
        "a\n\nb {{#meff-value tote.toml stable_dt}}\n",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("ch.md:3") && err.contains("time budget"),
        "{err}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    // The builder sets the budget; a book's `book.toml` (a stranger's
    // too) may lower it, not raise it.
    budget["preprocessor"]["meff"]["time-budget"] = serde_json::json!(86_400);
    let start = Instant::now();
    let out = build_env(
        tmp.path(),
        budget.clone(),
        "{{#meff-value tote.toml stable_dt}}\n",
        Some("1"),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("ch.md:1") && err.contains("(1 s"), "{err}");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    // A budget that is not a number of seconds is refused.
    for bad in [
        serde_json::json!(0),
        serde_json::json!("10"),
        serde_json::json!(-1),
    ] {
        budget["preprocessor"]["meff"]["time-budget"] = bad;
        let out = build(tmp.path(), "html", budget.clone(), "x\n");
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("time-budget"));
    }
    for bad in ["0", "ten", "1e9"] {
        let out = build_env(tmp.path(), config(), "x\n", Some(bad));
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("MEFF_BOOK_TIME_BUDGET"));
    }
}

/// [`build`] (HTML) with `MEFF_BOOK_TIME_BUDGET` set, or unset.
fn build_env(
    root: &Path,
    config: Value,
    content: &str,
    budget: Option<&str>,
) -> std::process::Output {
    let input = book_input(root, config, "html", None, "ch.md", content);
    let run = cli(["mdbook"]).stdin(&input);
    match budget {
        Some(b) => run.env("MEFF_BOOK_TIME_BUDGET", b),
        None => run.env_remove("MEFF_BOOK_TIME_BUDGET"),
    }
    .output()
}

/// Impact and contact names with spaces (the bundled tote case's own),
/// and names holding `,`, `(`, `"` or `}}`, quoted.
#[test]
fn meff_value_names_may_hold_spaces_when_quoted() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("src")).unwrap();
    std::fs::copy(
        root().join("cases/tote-drop.toml"),
        tmp.path().join("src/tote.toml"),
    )
    .unwrap();
    let odd = SEED_CASE.replace("name = \"c\"", r#"name = "left edge, (a) }} \"b\"""#);
    std::fs::write(tmp.path().join("src/odd.toml"), odd).unwrap();
    let content = chapter_of(&build(
        tmp.path(),
        "html",
        config(),
        concat!(
            "a = {{#meff-value tote.toml peak_force(\"on a corner\", corner)}};\n",
            "b = {{#meff-value tote.toml peak_force(on a corner, corner)}};\n",
            "c = {{#meff-value tote.toml peak_force( \"on an edge\" , \"next\" )}};\n",
            "d = {{#meff-value tote.toml duration(\"on a corner\", \"corner\")}};\n",
            "e = {{#meff-value odd.toml m_eff(\"left edge, (a) }} \\\"b\\\"\")}};\n",
        ),
    ));
    let line = |k: &str| {
        content
            .lines()
            .find(|l| l.starts_with(k))
            .unwrap_or_else(|| panic!("{k} in {content}"))
            .to_string()
    };
    assert!(line("a = ").ends_with(" N;"), "{content}");
    assert_eq!(line("a = ")[4..], line("b = ")[4..], "{content}");
    assert!(line("c = ").ends_with(" N;"), "{content}");
    assert!(line("d = ").ends_with("s;"), "{content}");
    assert_eq!(line("e = "), "e = 1.000 kg;", "{content}");
    // An unclosed quote, a name no impact has: exit 2 at the line.
    for bad in [
        "{{#meff-value tote.toml peak_force(\"on a corner, corner)}}",
        "{{#meff-value tote.toml peak_force(\"on a cornr\", corner)}}",
        "{{#meff-value tote.toml peak_force(\"on a corner\" x, corner)}}",
    ] {
        let out = build(tmp.path(), "html", config(), &format!("x\n{bad}\n"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("ch.md:2"), "{bad}: {err}");
    }
}
