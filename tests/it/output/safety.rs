//! Output safety: nothing in a report can run (HTML parsed as a browser does,
//! Markdown escaped, no control character reaches the terminal), and output
//! is all or nothing: bad input writes nothing, a closed or full output is an
//! error, temporary files follow no planted link, names never collide.

use crate::support::{SEED, assert_exit, cli, evaluate_str, meff, read_text, scratch};
use std::path::{Path, PathBuf};
use std::process::Stdio;

fn report_dir(
    cases: &[(&str, &str)],
    formats: &str,
) -> (crate::support::Scratch, PathBuf, std::process::Output) {
    let dir = scratch(&format!("r{}", cases.len()));
    let input = dir.join("in");
    std::fs::create_dir_all(&input).unwrap();
    for (name, text) in cases {
        std::fs::write(input.join(name), text).unwrap();
    }
    let out = dir.join("out");
    let o = meff([
        "report",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--no-verify",
        "--format",
        formats,
    ]);
    (dir, out, o)
}

/// Parses HTML as a browser does and checks every element: no script-like
/// elements, no event-handler attributes, no URL with a script or data
/// scheme. Text that merely mentions `javascript:` is fine.
fn assert_inert_html(html: &str, what: &str) {
    use html5ever::tendril::TendrilSink;
    use markup5ever_rcdom::{Handle, NodeData};
    let dom = html5ever::parse_document(markup5ever_rcdom::RcDom::default(), Default::default())
        .one(html.to_string());
    fn walk(node: &Handle, what: &str) {
        if let NodeData::Element { name, attrs, .. } = &node.data {
            let tag = name.local.to_ascii_lowercase();
            for bad in [
                "script", "iframe", "img", "object", "embed", "frame", "link", "meta", "base",
                "form",
            ] {
                assert!(
                    &*tag != bad
                        || (bad == "meta"
                            && attrs
                                .borrow()
                                .iter()
                                .all(|a| &*a.name.local != "http-equiv")),
                    "{what}: a <{tag}> element"
                );
            }
            for a in attrs.borrow().iter() {
                let key = a.name.local.to_ascii_lowercase();
                assert!(
                    !key.starts_with("on"),
                    "{what}: an event handler `{key}` on <{tag}>"
                );
                if ["href", "src", "action", "formaction", "xlink:href", "data"].contains(&&*key) {
                    let v: String = a
                        .value
                        .chars()
                        .filter(|c| !c.is_ascii_whitespace() && !c.is_ascii_control())
                        .collect::<String>()
                        .to_ascii_lowercase();
                    for scheme in ["javascript:", "vbscript:", "data:", "file:"] {
                        assert!(!v.starts_with(scheme), "{what}: `{key}=\"{v}\"` on <{tag}>");
                    }
                }
            }
        }
        for child in node.children.borrow().iter() {
            walk(child, what);
        }
    }
    walk(&dom.document, what);
}

#[test]
fn formulas_and_symbols_cannot_carry_scripts() {
    let payloads = [
        r"\operatorname{</math><script>alert(1)</script>}",
        r"\operatorname*{</math><img src=x onerror=alert(1)>}",
        r"\operatornamewithlimits{<iframe src=javascript:alert(1)>}",
        r"\text{<script>alert(1)</script>}",
        r"\mathrm{</mi></math><svg onload=alert(1)>}",
    ];
    for p in payloads {
        // As a symbol it is refused at the symbol (a symbol must typeset
        // alike in every format); in a description's formula it is text.
        let as_symbol = SEED.replace(
            "m = \"2 kg\"",
            &format!("m = {{ value = \"2 kg\", symbol = '''{p}''' }}"),
        );
        let e = meff::case::parse_case("test.toml", &as_symbol).unwrap_err();
        assert!(e.to_string().contains("symbol"), "{e}");
        let case = SEED.replace(
            "title = \"Seed\"",
            &format!("title = \"Seed\"\ndescription = '''Formula ${p}$ and $$ {p} $$'''"),
        );
        let ev = evaluate_str(&case);
        let t = meff::render::templates::Templates::load(None).unwrap();
        let html = t.report_html(&ev.report, 4).unwrap();
        assert_inert_html(&html, p);
        // The Markdown report through a CommonMark renderer without math.
        let md = t.report_md(&ev.report, 4).unwrap();
        let mut rendered = String::new();
        pulldown_cmark::html::push_html(&mut rendered, pulldown_cmark::Parser::new(&md));
        assert_inert_html(&rendered, &format!("Markdown of {p}"));
    }
}

#[test]
fn links_with_script_schemes_are_text() {
    let description = r#"[a](javascript:alert(1)) [b](&#106;avascript:alert(1)) [c](data:text/html,<script>x</script>)
[d](vbscript:msgbox) <javascript:alert(2)> [e][ref] ![img](javascript:alert(3)) [ok](https://example.org/x) [rel](other.html#s)
[f]( JaVaScRiPt:alert(4))

[ref]: javascript:alert(5)
"#;
    let case = SEED.replace(
        "title = \"Seed\"",
        &format!("title = \"Seed\"\ndescription = '''{description}'''"),
    );
    let ev = evaluate_str(&case);
    let t = meff::render::templates::Templates::load(None).unwrap();
    let html = t.report_html(&ev.report, 4).unwrap();
    assert_inert_html(&html, "links");
    assert!(
        html.contains("href=\"https://example.org/x\"") && html.contains("href=\"other.html#s\"")
    );
    // The Markdown report, rendered by a CommonMark renderer, links nothing unsafe.
    let md = t.report_md(&ev.report, 4).unwrap();
    let mut rendered = String::new();
    pulldown_cmark::html::push_html(&mut rendered, pulldown_cmark::Parser::new(&md));
    assert_inert_html(&rendered, "Markdown links");
    assert!(rendered.contains("href=\"https://example.org/x\""));
}

#[test]
fn index_links_are_encoded_file_names() {
    let (_dir, out, o) = report_dir(
        &[
            ("javascript:alert(1).toml", SEED.as_str()),
            ("a b#c?d.toml", SEED.as_str()),
        ],
        "html,md",
    );
    assert_exit(&o, 0);
    let index = read_text(&out.join("index.html"));
    assert!(
        index.contains("href=\"./javascript%3Aalert%281%29.html\""),
        "{index}"
    );
    assert!(index.contains("href=\"./a%20b%23c%3Fd.html\""), "{index}");
    assert_inert_html(&index, "index");
    let md = read_text(&out.join("index.md"));
    assert!(md.contains("(./javascript%3Aalert%281%29.md)") && md.contains("(./a%20b%23c%3Fd.md)"));
}

#[test]
fn markdown_output_escapes_names_titles_and_descriptions() {
    let case = SEED
        .replace(
            "title = \"Seed\"",
            "title = \"<script>alert(1)</script> | *x*\"\ndescription = \"<img src=x onerror=alert(1)> and | pipes\"",
        )
        .replace("m = \"2 kg\"", "m = { value = \"2 kg\", description = \"a | b <b>\" }");
    let ev = evaluate_str(&case);
    let t = meff::render::templates::Templates::load(None).unwrap();
    let md = t.report_md(&ev.report, 4).unwrap();
    let mut rendered = String::new();
    let options = pulldown_cmark::Options::ENABLE_TABLES;
    pulldown_cmark::html::push_html(&mut rendered, pulldown_cmark::Parser::new_ext(&md, options));
    assert_inert_html(&rendered, "Markdown report");
    // Tables keep their shape: the inputs table has four cells per row.
    let inputs_row = rendered
        .split("<tr>")
        .find(|r| r.contains("a | b"))
        .expect("the parameter's row");
    assert_eq!(inputs_row.matches("<td").count(), 4, "{inputs_row}");
}

#[test]
fn control_characters_never_reach_the_terminal() {
    let dir = scratch("esc");
    // TOML writes control characters as escapes; the name holds them raw.
    let case = SEED
        .replace("name = \"c\"", "name = \"off\\u001b[2Jcentre\\u009b31m\"")
        .replace("of = \"m_eff(c)\"", "of = \"mode_omega(1)\"");
    let path = dir.join("esc.toml");
    std::fs::write(&path, &case).unwrap();
    let out = meff(["eval", "--no-verify", path.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        !stdout.contains('\u{1b}') && !stdout.contains('\u{9b}'),
        "{stdout}"
    );
    assert!(stdout.contains("off\\e[2Jcentre"), "{stdout}");
    // Diagnostics: a bad value on a line with an escape.
    let bad = case.replace("stiffness = \"k\"", "stiffness = \"k\u{1b}[31m\"");
    std::fs::write(&path, &bad).unwrap();
    let out = meff(["eval", "--no-verify", path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(!stderr.contains('\u{1b}'), "{stderr}");
    let out = meff(["check", path.to_str().unwrap()]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains('\u{1b}'));
}

#[test]
fn closed_or_full_outputs_never_panic() {
    let big = "cases/box-3d.toml";
    // A reader that goes away: quiet, the claims' status kept.
    let mut child = cli(["eval", "--json", "--no-verify", big])
        .command()
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_exit(&out, 0);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    if Path::new("/dev/full").exists() {
        for args in [
            vec!["eval", "--json", "--no-verify", big],
            vec!["check", big],
        ] {
            let full = std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap();
            let out = cli(&args).stdout(full).output();
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                !stderr.contains("panicked") && stderr.contains("No space left"),
                "{stderr}"
            );
        }
    }
}

/// `meff report INPUT -o OUT --no-verify`.
fn report(input: &Path, out: &Path) -> std::process::Output {
    meff([
        "report",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--no-verify",
    ])
}

fn listing(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.push((p.clone(), Vec::new()));
                out.extend(listing(&p));
            } else {
                out.push((p.clone(), std::fs::read(&p).unwrap_or_default()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn bad_input_writes_nothing() {
    let dir = scratch("nothing");
    let input = dir.join("in");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(input.join("a.toml"), SEED.as_str()).unwrap();
    std::fs::write(input.join("b.toml"), "x = ").unwrap();
    // A missing output directory stays missing.
    let out = dir.join("out");
    let o = report(&input, &out);
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists(), "the output directory was created");
    assert!(!String::from_utf8_lossy(&o.stdout).contains("wrote"));
    // An existing one keeps exactly what it had.
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("keep.txt"), "mine").unwrap();
    let before = listing(&out);
    let o = report(&input, &out);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(listing(&out), before);
    // A target that cannot be written (a directory in the way): nothing
    // else is written either, and no temporary file is left.
    std::fs::remove_file(input.join("b.toml")).unwrap();
    std::fs::write(input.join("c.toml"), SEED.as_str()).unwrap();
    std::fs::create_dir_all(out.join("c.json")).unwrap();
    let before = listing(&out);
    let o = report(&input, &out);
    assert_exit(&o, 2);
    assert_eq!(listing(&out), before);
    // `-o` naming a file is refused in words.
    let o = meff([
        "report",
        input.to_str().unwrap(),
        "-o",
        out.join("keep.txt").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is a file"));
}

#[cfg(unix)]
#[test]
fn temporary_files_do_not_follow_planted_symlinks() {
    let dir = scratch("symlink");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "untouched").unwrap();
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    // The old predictable names, planted for every plausible process id.
    for pid in [
        std::process::id(),
        std::process::id() + 1,
        std::process::id() + 2,
    ] {
        let _ = std::os::unix::fs::symlink(&victim, out.join(format!(".x.html.tmp{pid}")));
    }
    meff::output::write_all(&[(out.join("x.html"), b"report".to_vec())]).unwrap();
    assert_eq!(read_text(&victim), "untouched");
    assert_eq!(read_text(&out.join("x.html")), "report");
    // A symlink at the target is replaced, not written through.
    std::os::unix::fs::symlink(&victim, out.join("y.html")).unwrap();
    meff::output::write_all(&[(out.join("y.html"), b"new".to_vec())]).unwrap();
    assert_eq!(read_text(&victim), "untouched");
}

#[test]
fn name_collisions_are_refused_before_writing() {
    let dir = scratch("collide");
    for sub in ["a", "b"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        std::fs::write(dir.join(sub).join("x.toml"), SEED.as_str()).unwrap();
    }
    let out = dir.join("out");
    let o = meff([
        "report",
        dir.join("a").to_str().unwrap(),
        dir.join("b").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--no-verify",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("a/x.toml") && stderr.contains("b/x.toml"),
        "{stderr}"
    );
    assert!(!out.exists());
    let (_dir, out, o) = report_dir(
        &[("index.toml", SEED.as_str()), ("other.toml", SEED.as_str())],
        "html",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("the index"));
    assert!(!out.exists());
}
