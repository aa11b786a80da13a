//! `meff mdbook`, the mdBook preprocessor: the protocol directly, and —
//! when the `mdbook` binary is installed (CI installs it and sets
//! `MEFF_MDBOOK_TESTS=1`) — a real build of `examples/book`.

use crate::support::{SEED_CASE, assert_exit, book_input, meff, meff_with_stdin, root};
use std::path::Path;
use std::process::Command;

fn preprocess(book_root: &Path, chapter: &str, content: &str) -> std::process::Output {
    let config = serde_json::json!({ "book": { "src": "src" } });
    let input = book_input(book_root, config, "html", Some("0.5.4"), chapter, content);
    meff_with_stdin(&["mdbook"], &input)
}

#[test]
fn directives_become_reports_with_mathml() {
    let book = root().join("examples/book");
    let text = std::fs::read_to_string(book.join("src/offcentre.md")).unwrap();
    let out = preprocess(&book, "offcentre.md", &text);
    assert_exit(&out, 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let content = v["items"][0]["Chapter"]["content"].as_str().unwrap();
    // The worked numbers of the seed problem, computed at build time.
    assert!(content.contains("1.000"), "{content}");
    assert!(content.contains("316.2"), "{content}");
    assert!(content.contains("<math"), "formulas as MathML");
    assert!(content.contains("### Claims"), "headings demoted");
    assert!(!content.contains("### Inputs"), "only the chosen sections");
    // The escaped directive is shown as text.
    assert!(content.contains("`{{#meff offcentre.toml}}`"), "{content}");
    // Other chapters (the inline block) too.
    let text = std::fs::read_to_string(book.join("src/corners.md")).unwrap();
    let out = preprocess(&book, "corners.md", &text);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let content = v["items"][0]["Chapter"]["content"].as_str().unwrap();
    assert!(content.contains("Coupled contacts"), "{content}");
    assert!(!content.contains("```meff"), "{content}");
    // `supports` answers yes.
    let s = meff(["mdbook", "supports", "html"]).status;
    assert!(s.success());
}

#[test]
fn a_failing_claim_fails_the_book() {
    let book = root().join("examples/book");
    let text = std::fs::read_to_string(book.join("src/corners.md"))
        .unwrap()
        .replace(
            "equals = \"1/m - (w/2)^2/I\"",
            "equals = \"1/m + (w/2)^2/I\"",
        );
    let out = preprocess(&book, "corners.md", &text);
    assert_ne!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("corners.md"), "{err}");
    assert!(
        err.contains("A(left, right)") && err.contains("failed"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    // A bad case inside a chapter is reported at its line.
    let out = preprocess(&book, "bad.md", "# x\n\n```meff\ntitle = 3\n```\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0));
    assert!(err.contains("bad.md"), "{err}");
}

fn mdbook() -> Option<std::path::PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("mdbook"))
            .find(|p| p.is_file())
    })
}

/// The example book built by the real mdbook, with meff as its
/// preprocessor; then the same book with a wrong claim must fail to build.
#[test]
fn example_book_builds_with_mdbook() {
    let Some(mdbook) = mdbook() else {
        assert!(
            std::env::var_os("MEFF_MDBOOK_TESTS").is_none(),
            "MEFF_MDBOOK_TESTS is set but no mdbook was found"
        );
        eprintln!("skipping the mdbook build: no mdbook on PATH");
        return;
    };
    let bin = Path::new(env!("CARGO_BIN_EXE_meff")).parent().unwrap();
    let path = std::env::join_paths(
        std::iter::once(bin.to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let work = root().join("target").join("mdbook-test");
    let _ = std::fs::remove_dir_all(&work);
    copy_dir(&root().join("examples/book"), &work.join("book"));
    let out = Command::new(&mdbook)
        .args(["build", "-d"])
        .arg(work.join("html"))
        .arg(work.join("book"))
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(work.join("html/offcentre.html")).unwrap();
    assert!(
        page.contains("316.2") && page.contains("<math"),
        "built page"
    );
    assert!(
        page.contains("{{#meff offcentre.toml}}"),
        "the escaped directive stays text"
    );
    // A wrong claim fails the build, with the claim's message.
    let chapter = work.join("book/src/corners.md");
    let text = std::fs::read_to_string(&chapter).unwrap().replace(
        "equals = \"1/m - (w/2)^2/I\"",
        "equals = \"1/m + (w/2)^2/I\"",
    );
    std::fs::write(&chapter, text).unwrap();
    let out = Command::new(&mdbook)
        .args(["build", "-d"])
        .arg(work.join("html2"))
        .arg(work.join("book"))
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(!out.status.success(), "a wrong claim must fail the build");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("A(left, right)"), "{err}");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// Case text that mdBook's renderer (pulldown-cmark with footnotes,
/// heading attributes, …) would turn into markup or into a `{{#include}}`
/// of a file on the building machine stays text in the built chapter.
#[test]
fn case_text_is_inert_in_the_book() {
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path();
    std::fs::create_dir_all(book.join("src")).unwrap();
    let case = SEED_CASE
        .replace(
            "title = \"Seed\"",
            "title = \"Notes {onmouseover=alert(1) style=position:fixed;inset:0}\"\ndescription = \"\"\"\n[^n]: <img src=x onerror=alert(1)>\n\nSee[^n].\n\n# Notes {onmouseover=alert(2)}\n\n{{#include /etc/passwd}} `{{#include /etc/hostname}}`\n\"\"\"",
        )
        .replace("name = \"c\"", "name = \"c {#x onclick=alert(3)}\"")
        .replace("[[contact]]", "[[contact]]\ndescription = \"<script>alert(4)</script>\"");
    std::fs::write(book.join("src/case.toml"), case).unwrap();
    let out = preprocess(book, "ch.md", "{{#meff case.toml no-verify}}\n");
    assert_exit(&out, 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let content = v["items"][0]["Chapter"]["content"].as_str().unwrap();
    assert!(!content.contains("{{#include"), "{content}");
    let mut html = String::new();
    pulldown_cmark::html::push_html(
        &mut html,
        pulldown_cmark::Parser::new_ext(content, pulldown_cmark::Options::all()),
    );
    for bad in [
        "<img",
        "<script",
        "onmouseover=\"",
        "onerror=\"",
        "onclick=\"",
        " style=\"position",
    ] {
        assert!(!html.contains(bad), "{bad} in {html}");
    }
    // The text is still there, as text.
    assert!(html.contains("onerror=alert(1)"), "{html}");
}

#[test]
fn a_value_goes_into_a_sentence_with_its_unit() {
    let book = root().join("examples/book");
    let text = "m = {{#meff-value offcentre.toml m_eff(offcentre)}}; \
                w = {{#meff-value offcentre.toml omega(offcentre)}}; \
                f = {{#meff-value offcentre.toml f(offcentre)}}; \
                dt = {{#meff-value offcentre.toml stable_dt}}; \
                m1 = {{#meff-value offcentre.toml mode_omega(1)}}; \
                a = {{#meff-value offcentre.toml a(offcentre)}}; \
                A = {{#meff-value offcentre.toml A(offcentre, offcentre)}}; \
                r = {{#meff-value offcentre.toml r}}; \
                I = {{#meff-value offcentre.toml I}}; \
                esc = \\{{#meff-value offcentre.toml r}}\n";
    let out = preprocess(&book, "values.md", text);
    assert_exit(&out, 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let content = v["items"][0]["Chapter"]["content"].as_str().unwrap();
    for want in [
        "m = 1.000 kg;",
        "w = 316.2 rad/s;",
        "f = 50.33 Hz;",
        "dt = 6.325 ms;",
        "m1 = 316.2 rad/s;",
        "a = 1.000 kg⁻¹;",
        "A = 1.000 kg⁻¹;",
        "r = 0.1000 m;",
        "I = 0.02000 kg·m²;",
        "esc = {{#meff-value offcentre.toml r}}",
    ] {
        assert!(content.contains(want), "{want}: {content}");
    }
    // An unknown quantity or contact is bad input (exit 2) at its line.
    for bad in [
        "{{#meff-value offcentre.toml m_eff(nowhere)}}",
        "{{#meff-value offcentre.toml speed}}",
        "{{#meff-value offcentre.toml}}",
        "{{#meff-value offcentre.toml mode_omega(7)}}",
    ] {
        let out = preprocess(&book, "values.md", &format!("x\n{bad}\n"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("values.md:2"), "{bad}: {err}");
    }
}

#[test]
fn no_title_leaves_out_the_title_and_description() {
    let book = root().join("examples/book");
    let out = preprocess(
        &book,
        "t.md",
        "{{#meff offcentre.toml summary no-verify no-title}}\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let content = v["items"][0]["Chapter"]["content"].as_str().unwrap();
    assert!(content.contains("### Summary"), "{content}");
    assert!(!content.contains("## Planar block"), "{content}");
    assert!(!content.contains("touches the floor"), "{content}");
    // Without it the title is there.
    let out = preprocess(
        &book,
        "t.md",
        "{{#meff offcentre.toml summary no-verify}}\n",
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let content = v["items"][0]["Chapter"]["content"].as_str().unwrap();
    assert!(content.contains("## Planar block"), "{content}");
}
