//! Reading only where allowed: a book built from a stranger's pull request
//! (`meff mdbook`) or a CI job run with `--confine DIR` reads no file
//! outside its tree — not the case a directive names, nor the model, the
//! model's `<include>`s or the scene tables a case names — and a file that
//! is not what it was named as is refused without quoting any of it.

use crate::support::{SEED_CASE, assert_exit, book_input, cli, meff_with_stdin};
use std::path::Path;

/// A secret beside the tree: no message may contain it.
const SECRET: &str = "AKIAEXAMPLESECRETKEY";

/// `<tmp>/book` (the book root, with `src/`) and `<tmp>/outside/` holding
/// a secret in several forms (a case, a model, a CSV, plain text).
fn layout() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("book");
    std::fs::create_dir_all(book.join("src")).unwrap();
    let out = tmp.path().join("outside");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(
        out.join("case.toml"),
        SEED_CASE.replace("title = \"Seed\"", &format!("title = \"{SECRET}\"")),
    )
    .unwrap();
    std::fs::write(
        out.join("creds"),
        format!("aws_secret_access_key = {SECRET}\n"),
    )
    .unwrap();
    std::fs::write(
        out.join("arm.xml"),
        format!("<mujoco model=\"{SECRET}\"><worldbody/></mujoco>\n"),
    )
    .unwrap();
    std::fs::write(out.join("bodies.csv"), format!("name,{SECRET}\n")).unwrap();
    tmp
}

fn preprocess(book_root: &Path, content: &str, allow: Option<&[&str]>) -> std::process::Output {
    let mut config = serde_json::json!({ "book": { "src": "src" } });
    if let Some(a) = allow {
        config["preprocessor"] = serde_json::json!({ "meff": { "allow-read": a } });
    }
    let input = book_input(book_root, config, "html", Some("0.5.4"), "ch.md", content);
    meff_with_stdin(&["mdbook"], &input)
}

#[track_caller]
fn refused(out: &std::process::Output, what: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{what}: {stderr}");
    assert!(
        !stderr.contains(SECRET),
        "{what}: the secret was quoted: {stderr}"
    );
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains(SECRET),
        "{what}: the secret is in the output"
    );
}

#[test]
fn a_book_reads_only_inside_its_root() {
    let tmp = layout();
    let book = tmp.path().join("book");
    let outside = tmp.path().join("outside");
    // Directives naming files outside: absolute, `..`, a symlink.
    let abs = format!("{{{{#meff {}}}}}", outside.join("case.toml").display());
    refused(&preprocess(&book, &abs, None), "absolute path");
    refused(
        &preprocess(&book, "{{#meff ../../outside/case.toml}}", None),
        "a path up and out",
    );
    refused(
        &preprocess(&book, "{{#meff ../../outside/creds}}", None),
        "a credentials file",
    );
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(outside.join("case.toml"), book.join("src/link.toml")).unwrap();
        refused(
            &preprocess(&book, "{{#meff link.toml}}", None),
            "a symlink out",
        );
    }
    // A case inside the book naming a model, an include or a scene outside.
    let with_model = |key: &str, file: &str| {
        format!(
            "{}\n[model]\n{key} = \"{file}\"\n",
            SEED_CASE.split("[[body]]").next().unwrap()
        )
    };
    for (name, text) in [
        ("model-abs.toml", with_model("mjcf", &outside.join("arm.xml").display().to_string())),
        ("model-up.toml", with_model("mjcf", "../../outside/arm.xml")),
        ("model-etc.toml", with_model("urdf", "/etc/passwd")),
        (
            "scene.toml",
            "title = \"s\"\n[scene]\nbodies = \"../../outside/bodies.csv\"\ncontacts = \"../../outside/bodies.csv\"\n".to_string(),
        ),
    ] {
        std::fs::write(book.join("src").join(name), &text).unwrap();
        refused(&preprocess(&book, &format!("{{{{#meff {name}}}}}"), None), name);
    }
    std::fs::write(
        book.join("src/inc.xml"),
        "<mujoco><include file=\"../../outside/arm.xml\"/><worldbody/></mujoco>\n",
    )
    .unwrap();
    std::fs::write(book.join("src/inc.toml"), with_model("mjcf", "inc.xml")).unwrap();
    refused(
        &preprocess(&book, "{{#meff inc.toml}}", None),
        "an include out",
    );
    // book.toml alone cannot widen the tree (a stranger's pull request
    // writes it too): `allow-read = ["/"]` or `["../outside"]` is refused
    // without reading anything.
    for allow in [&["/"][..], &["../outside"], &["../outside/../../.."]] {
        let out = preprocess(
            &book,
            "{{#meff ../../outside/case.toml summary no-verify}}",
            Some(allow),
        );
        refused(&out, "allow-read without the builder");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("MEFF_BOOK_ALLOW_READ"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // With the builder's consent it may: the outside case is then read (and
    // its title, the "secret" here, shown); a directory beyond the one the
    // builder allows is still refused.
    let allowed = outside.display().to_string();
    let with = |allow: &[&str]| {
        preprocess_env(
            &book,
            "{{#meff ../../outside/case.toml summary no-verify}}",
            allow,
            &allowed,
        )
    };
    let out = with(&["../outside"]);
    assert_exit(&out, 0);
    assert!(String::from_utf8_lossy(&out.stdout).contains(SECRET));
    refused(&with(&["/"]), "allow-read above the builder's directory");
    refused(&with(&[".."]), "allow-read above the builder's directory");
}

/// [`preprocess`] with `MEFF_BOOK_ALLOW_READ` set.
fn preprocess_env(
    book_root: &Path,
    content: &str,
    allow: &[&str],
    builder: &str,
) -> std::process::Output {
    let config = serde_json::json!({ "book": { "src": "src" },
        "preprocessor": { "meff": { "allow-read": allow } } });
    let input = book_input(book_root, config, "html", None, "ch.md", content);
    cli(["mdbook"])
        .env("MEFF_BOOK_ALLOW_READ", builder)
        .stdin(&input)
        .output()
}

#[test]
fn the_command_line_confines_a_run_when_asked() {
    let tmp = layout();
    let tree = tmp.path().join("book");
    let case = tree.join("src/model.toml");
    std::fs::write(
        &case,
        format!(
            "{}\n[model]\nmjcf = \"../../outside/arm.xml\"\n",
            SEED_CASE.split("[[body]]").next().unwrap()
        ),
    )
    .unwrap();
    let run = |args: &[&str]| cli(args).output();
    let tree_s = tree.to_str().unwrap();
    let out = run(&[
        "--confine",
        tree_s,
        "eval",
        "--no-verify",
        case.to_str().unwrap(),
    ]);
    refused(&out, "a model outside the confined tree");
    assert!(String::from_utf8_lossy(&out.stderr).contains("outside the directories"));
    let other = tmp.path().join("outside/case.toml");
    refused(
        &run(&[
            "--confine",
            tree_s,
            "eval",
            "--no-verify",
            other.to_str().unwrap(),
        ]),
        "a case outside the confined tree",
    );
    // Unconfined, the same model is read (the command line reads where it
    // is pointed).
    let out = run(&["eval", "--no-verify", case.to_str().unwrap()]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("outside the directories"));
    // A directory that does not exist is a usage error.
    let out = run(&[
        "--confine",
        "/nonexistent/meff",
        "eval",
        case.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_file_that_is_not_a_model_is_never_quoted() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(
        dir.join("notes.txt"),
        format!("line one\n{SECRET}\n<mujoco>\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("main.xml"),
        "<mujoco><include file=\"notes.txt\"/><worldbody/></mujoco>\n",
    )
    .unwrap();
    for (name, file) in [("a.toml", "notes.txt"), ("b.toml", "main.xml")] {
        std::fs::write(
            dir.join(name),
            format!(
                "{}\n[model]\nmjcf = \"{file}\"\n",
                SEED_CASE.split("[[body]]").next().unwrap()
            ),
        )
        .unwrap();
        let out = cli(["eval", "--no-verify"]).arg(dir.join(name)).output();
        refused(&out, file);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("does not begin with"), "{stderr}");
    }
}

/// Files including each other many times expand exponentially: refused
/// at the include, quickly, instead of building the expansion.
#[test]
fn include_fan_out_is_bounded() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let levels = 8;
    for l in 0..levels {
        let body = if l + 1 == levels {
            "<worldbody><body><geom size=\"0.1\"/></body></worldbody>".to_string()
        } else {
            format!("<include file=\"l{}.xml\"/>", l + 1).repeat(8)
        };
        std::fs::write(
            dir.join(format!("l{l}.xml")),
            format!("<mujoco>{body}</mujoco>\n"),
        )
        .unwrap();
    }
    std::fs::write(
        dir.join("fan.toml"),
        format!(
            "{}\n[model]\nmjcf = \"l0.xml\"\n",
            SEED_CASE.split("[[body]]").next().unwrap()
        ),
    )
    .unwrap();
    cli(["eval", "--no-verify"])
        .arg(dir.join("fan.toml"))
        .refuses("expand to more than");
}
