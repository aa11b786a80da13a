//! The command line: exit statuses and outputs.

use crate::support::{assert_exit, cli, evaluate_path, meff, root};
use std::process::Command;

#[test]
fn eval_prints_table_and_json() {
    let out = meff(["eval", "cases/two-corners.toml"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("316.2") && text.contains("158.1") && text.contains("250.0"),
        "{text}"
    );
    assert!(
        text.contains("6.324 ms") && text.contains("8.000 ms"),
        "{text}"
    );

    let out = meff(["eval", "--json", "cases/two-corners.toml"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["modes"].as_array().unwrap().len(), 2);

    let out = meff(["eval", "--digits", "6", "cases/offcentre.toml"]);
    assert!(String::from_utf8(out.stdout).unwrap().contains("316.228"));
}

#[test]
fn check_exits_1_on_a_failed_claim_and_0_otherwise() {
    let out = meff(["check", "cases/offcentre.toml", "cases/two-corners.toml"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );

    let dir = crate::support::scratch("cli");
    std::fs::create_dir_all(&dir).unwrap();
    let source = std::fs::read_to_string(root().join("cases/offcentre.toml")).unwrap();
    let wrong = dir.join("wrong.toml");
    std::fs::write(
        &wrong,
        source.replace("equals = \"316.2 rad/s\"", "equals = \"300 rad/s\""),
    )
    .unwrap();
    let out = meff(["check", wrong.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("FAIL"));
    // eval writes its output, then exits 1.
    let out = meff(["eval", wrong.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!out.stdout.is_empty());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn usage_errors_and_missing_files_exit_2() {
    assert_eq!(meff(["eval"]).status.code(), Some(2));
    assert_eq!(meff(["frobnicate"]).status.code(), Some(2));
    let out = meff(["eval", "no/such/case.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no/such/case.toml"));
}

#[test]
fn output_is_deterministic() {
    let a = meff(["eval", "--json", "cases/box-3d.toml"]).stdout;
    let b = meff(["eval", "--json", "cases/box-3d.toml"]).stdout;
    assert_eq!(a, b);
}

#[test]
fn report_check_detects_stale_and_missing_outputs() {
    let dir = crate::support::scratch("report");
    let cases = dir.join("cases");
    let out = dir.join("reports");
    std::fs::create_dir_all(&cases).unwrap();
    let source = std::fs::read_to_string(root().join("cases/offcentre.toml")).unwrap();
    std::fs::write(cases.join("seed.toml"), &source).unwrap();
    let (c, o) = (cases.to_str().unwrap(), out.to_str().unwrap());

    assert_eq!(
        meff(["report", c, "-o", o, "--check"]).status.code(),
        Some(1),
        "missing outputs"
    );
    assert_eq!(meff(["report", c, "-o", o]).status.code(), Some(0));
    let first = std::fs::read(out.join("seed.json")).unwrap();
    assert_eq!(
        meff(["report", c, "-o", o, "--check"]).status.code(),
        Some(0)
    );
    assert_eq!(meff(["report", c, "-o", o]).status.code(), Some(0));
    assert_eq!(
        std::fs::read(out.join("seed.json")).unwrap(),
        first,
        "same case, same bytes"
    );

    std::fs::write(
        cases.join("seed.toml"),
        source.replace("\"0.10 m\"", "\"0.12 m\""),
    )
    .unwrap();
    let check = meff(["report", c, "-o", o, "--check"]);
    assert_eq!(check.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&check.stdout).contains("stale"));
    assert_eq!(
        std::fs::read(out.join("seed.json")).unwrap(),
        first,
        "--check writes nothing"
    );
    assert_eq!(
        meff(["report", c, "-o", o]).status.code(),
        Some(1),
        "the 316.2 rad/s claim now fails"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left behind");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn failed_write_leaves_no_partial_file() {
    let dir = crate::support::scratch("atomic");
    std::fs::create_dir_all(dir.join("target.json")).unwrap();
    // Renaming a file over a directory fails: the directory stays, no temp file remains.
    assert!(meff::output::write_atomic(&dir.join("target.json"), b"{}").is_err());
    assert!(dir.join("target.json").is_dir());
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    meff::output::write_atomic(&dir.join("ok.json"), b"{}").unwrap();
    assert_eq!(std::fs::read(dir.join("ok.json")).unwrap(), b"{}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn new_writes_working_examples_and_never_overwrites() {
    let dir = crate::support::scratch("new");
    std::fs::create_dir_all(&dir).unwrap();
    for starter in meff::starter::Starter::ALL {
        let name = format!("{starter:?}").to_lowercase();
        let path = dir.join(&name);
        cli(["new", path.to_str().unwrap(), "--template", &name]).exits(0);
        let file = path.with_extension("toml");
        let ev = evaluate_path(&file);
        assert!(!ev.report.claims.is_empty());
        assert!(
            ev.report.claims.iter().all(|c| c.passed == Some(true)),
            "{name}: {:?}",
            ev.report.claims
        );
        // A second time: refused, file unchanged.
        std::fs::write(&file, "# mine\n").unwrap();
        let again = meff(["new", file.to_str().unwrap(), "--template", &name]);
        assert_eq!(again.status.code(), Some(2));
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "# mine\n");
    }
    std::fs::remove_dir_all(&dir).ok();
}

fn json_of(args: &[&str]) -> serde_json::Value {
    let out = meff(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn contacts_selects_the_fastest_and_the_arrays_follow() {
    let case = root().join("cases/box-3d.toml");
    let case = case.to_str().unwrap();
    let full = json_of(&["eval", "--json", "--no-verify", case]);
    let some = json_of(&[
        "eval",
        "--json",
        "--no-verify",
        "--contacts",
        "worst:2",
        case,
    ]);
    assert_eq!(full["contacts_selection"], "all");
    assert_eq!(some["contacts_selection"], "worst:2");
    assert_eq!(some["contacts_total"], full["contacts_total"]);
    let listed = some["contacts"].as_array().unwrap();
    assert_eq!(listed.len(), 2);
    let all = full["contacts"].as_array().unwrap();
    let max = all
        .iter()
        .map(|c| c["omega"].as_f64().unwrap())
        .fold(0.0, f64::max);
    assert_eq!(listed[0]["omega"].as_f64(), Some(max));
    for (k, c) in listed.iter().enumerate() {
        let i = c["index"].as_u64().unwrap() as usize;
        assert_eq!(c, &all[i]);
        // Each mode's shape lists the components at the listed contacts.
        for (m, fm) in some["modes"]
            .as_array()
            .unwrap()
            .iter()
            .zip(full["modes"].as_array().unwrap())
        {
            assert_eq!(m["shape"][k], fm["shape"][i]);
        }
        assert_eq!(some["delassus"]["contacts"][k], c["name"]);
    }
    assert!(some["delassus"]["matrix"].is_null());
    assert_eq!(some["delassus"]["omitted"], "selection");
    let none = json_of(&["eval", "--json", "--no-verify", "--contacts", "none", case]);
    assert_eq!(none["contacts"].as_array().unwrap().len(), 0);
    assert_eq!(none["coupled_omega_max"], full["coupled_omega_max"]);
    for bad in ["worst:0", "worst:", "some", "worst:-1"] {
        let out = meff(["eval", "--json", "--no-verify", "--contacts", bad, case]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
}

#[test]
fn json_lines_hold_the_document_and_one_line_per_contact() {
    let case = root().join("cases/box-3d.toml");
    let case = case.to_str().unwrap();
    let full = json_of(&["eval", "--json", "--no-verify", case]);
    let out = meff(["eval", "--format", "jsonl", "--no-verify", case]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let contacts = full["contacts"].as_array().unwrap();
    assert_eq!(lines.len(), 1 + contacts.len());
    let mut head = lines[0].clone();
    assert_eq!(head["record"], "case");
    head.as_object_mut().unwrap().remove("record");
    let mut expected = full.clone();
    expected["contacts"] = serde_json::json!([]);
    assert_eq!(head, expected);
    for (line, c) in lines[1..].iter().zip(contacts) {
        let mut line = line.clone();
        assert_eq!(line["record"], "contact");
        line.as_object_mut().unwrap().remove("record");
        assert_eq!(&line, c);
    }
    // `--json` and `--format json` are the same document.
    let same = meff(["eval", "--format", "json", "--no-verify", case]);
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&same.stdout).unwrap(),
        full
    );
}

/// Without the `pdf` feature, asking for a PDF is a usage error that says
/// in one line how to get one, before any work and with nothing written.
#[cfg(not(feature = "pdf"))]
#[test]
fn pdf_without_the_feature_says_how_to_get_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = meff([
        "report",
        "cases/offcentre.toml",
        "--format",
        "html,pdf",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("--features pdf"), "{stderr}");
    assert!(!out.exists(), "nothing is written");
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.contains(meff::render::PDF_NOT_BUILT),
        "the README quotes the message"
    );
}

/// Reports are created with the mode a plain create gives (0666 less the
/// umask), and a report written again keeps the mode its file had.
#[cfg(unix)]
#[test]
fn outputs_get_a_plain_create_mode_or_keep_their_own() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let run = |umask: &str| {
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "umask {umask} && exec \"$0\" report cases/offcentre.toml --no-verify --format html,md,json -o \"$1\""
            ))
            .arg(env!("CARGO_BIN_EXE_meff"))
            .arg(&out)
            .output()
            .unwrap();
        assert_exit(&o, 0);
    };
    let mode = |name: &str| {
        std::fs::metadata(out.join(name))
            .unwrap()
            .permissions()
            .mode()
            & 0o7777
    };
    run("022");
    for name in [
        "offcentre.html",
        "offcentre.md",
        "offcentre.json",
        "assets/OFL.txt",
    ] {
        assert_eq!(mode(name), 0o644, "{name}");
    }
    std::fs::set_permissions(
        out.join("offcentre.html"),
        std::fs::Permissions::from_mode(0o640),
    )
    .unwrap();
    std::fs::remove_file(out.join("offcentre.md")).unwrap();
    run("077");
    assert_eq!(
        mode("offcentre.html"),
        0o640,
        "an existing file keeps its mode"
    );
    assert_eq!(
        mode("offcentre.json"),
        0o644,
        "an existing file keeps its mode"
    );
    assert_eq!(
        mode("offcentre.md"),
        0o600,
        "a new file: 0666 less the umask"
    );
}
