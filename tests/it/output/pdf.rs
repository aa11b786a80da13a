//! PDF reports (`--format pdf`, feature `pdf`): one PDF per case and the
//! index, deterministic, readable by poppler's tools when installed (CI
//! installs them and sets `MEFF_PDF_TOOLS=1`).

use crate::support::{bundled_case_paths, cli, root};
use std::path::{Path, PathBuf};
use std::process::Command;

fn tool(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

fn report_pdf(cases: &Path, out: &Path) {
    cli(["report", "--format", "pdf", "--no-verify", "-o"])
        .arg(out)
        .arg(cases)
        .exits(0);
}

#[test]
fn every_case_gets_a_pdf_that_poppler_reads() {
    let out = root().join("target").join("pdf-reports");
    let _ = std::fs::remove_dir_all(&out);
    report_pdf(&root().join("cases"), &out);
    let mut pdfs: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pdf"))
        .collect();
    pdfs.sort();
    let cases = bundled_case_paths().len();
    assert_eq!(
        pdfs.len(),
        cases + 1,
        "one per case and the index: {pdfs:?}"
    );
    for p in &pdfs {
        let bytes = std::fs::read(p).unwrap();
        assert!(bytes.starts_with(b"%PDF-"), "{}", p.display());
    }
    let (Some(pdftotext), Some(pdftoppm)) = (tool("pdftotext"), tool("pdftoppm")) else {
        assert!(
            std::env::var_os("MEFF_PDF_TOOLS").is_none(),
            "MEFF_PDF_TOOLS is set but pdftotext/pdftoppm are missing"
        );
        eprintln!("skipping the poppler checks: no pdftotext/pdftoppm on PATH");
        return;
    };
    // The seed's worked line: the 1 kg effective mass and ω = 316.2 rad/s.
    let text = Command::new(&pdftotext)
        .arg("-layout")
        .arg(out.join("offcentre.pdf"))
        .arg("-")
        .output()
        .unwrap();
    assert!(text.status.success());
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("1.000 kg"), "{text}");
    assert!(text.contains("316.2"), "{text}");
    assert!(
        text.contains("Page 1 of") || text.contains("page 1 of"),
        "{text}"
    );
    // Every PDF renders without an error.
    let shots = root().join("target").join("pdf-shots");
    std::fs::create_dir_all(&shots).unwrap();
    for p in &pdfs {
        let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
        let r = Command::new(&pdftoppm)
            .args(["-png", "-r", "50", "-f", "1", "-l", "1"])
            .arg(p)
            .arg(shots.join(&stem))
            .output()
            .unwrap();
        assert!(
            r.status.success() && r.stderr.is_empty(),
            "{}: {}",
            p.display(),
            String::from_utf8_lossy(&r.stderr)
        );
    }
}

#[test]
fn the_same_case_gives_the_same_pdf_bytes() {
    let dir = root().join("target").join("pdf-determinism");
    let _ = std::fs::remove_dir_all(&dir);
    let case = root().join("cases/two-corners.toml");
    report_pdf(&case, &dir.join("a"));
    report_pdf(&case, &dir.join("b"));
    let a = std::fs::read(dir.join("a/two-corners.pdf")).unwrap();
    let b = std::fs::read(dir.join("b/two-corners.pdf")).unwrap();
    assert!(a == b, "PDF bytes differ between two runs");
}

/// Case text that would be Typst code if it were pasted into the source:
/// it typesets as text (the PDF builds, and says what the author wrote).
#[test]
fn case_text_never_becomes_typst_code() {
    let seed = std::fs::read_to_string(root().join("cases/offcentre.toml")).unwrap();
    let hostile = seed
        .replacen(
            "title = \"",
            "title = \"#import \\\"@preview/x:0.1.0\\\": * ] #panic(\\\"t\\\") ",
            1,
        )
        .replace(
            "I = { value = \"0.020 kg m^2\"",
            "I = { symbol = \"\\\\mathrm{panic} \\\\hat{x}'_{1}\", value = \"0.020 kg m^2\"",
        )
        .replace("name = \"offcentre\"", "name = \"off]#panic(1)[centre\"")
        .replace("\"m_eff(offcentre)\"", "\"m_eff(off]#panic(1)[centre)\"")
        .replace("\"a(offcentre)\"", "\"a(off]#panic(1)[centre)\"")
        .replace("\"omega(offcentre)\"", "\"omega(off]#panic(1)[centre)\"");
    assert_ne!(hostile, seed);
    let dir = root().join("target").join("pdf-hostile");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let case = dir.join("hostile.toml");
    std::fs::write(&case, &hostile).unwrap();
    report_pdf(&case, &dir.join("out"));
    let pdf = dir.join("out/hostile.pdf");
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF-"));
    if let Some(pdftotext) = tool("pdftotext") {
        let text = Command::new(pdftotext).arg(&pdf).arg("-").output().unwrap();
        let text = String::from_utf8_lossy(&text.stdout);
        assert!(text.contains("#import"), "{text}");
        assert!(text.contains("off]#panic(1)[centre"), "{text}");
    }
}

/// Every form of symbol a case may give (the grammar of
/// `meff::symbolic::symbol_problem`) typesets in the PDF.
#[test]
fn every_allowed_symbol_form_typesets() {
    let symbols = [
        r"r_{c}",
        r"m_1",
        r"I_{xx}",
        r"\theta_2",
        r"m_{\mathrm{eff}}",
        r"\hat{x}",
        r"x'",
        r"x''_1",
        r"\ell",
        r"k^{2}_{a}",
        r"\mathrm{d} x",
        "ω",
        r"\bar x",
        r"\vec{v}_{\mathit{tip}}",
        r"\operatorname{arm length}",
        r"\text{k, a.b-c}",
        r"\mathcal{L}",
        r"\partial \nabla",
    ];
    let seed = std::fs::read_to_string(root().join("cases/offcentre.toml")).unwrap();
    let dir = root().join("target").join("pdf-symbols");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (k, s) in symbols.iter().enumerate() {
        assert_eq!(meff::symbolic::symbol_problem(s), None, "{s}");
        let case = seed.replacen(
            "I = { value = \"0.020 kg m^2\"",
            &format!("I = {{ symbol = '''{s}''', value = \"0.020 kg m^2\""),
            1,
        );
        assert_ne!(case, seed);
        let path = dir.join(format!("s{k}.toml"));
        std::fs::write(&path, case).unwrap();
        report_pdf(&path, &dir.join(format!("out{k}")));
    }
}

/// LaTeX a case author writes into a description's math, which the Typst
/// translation once copied into the source (the character after `\left`,
/// `\right`, `\big…`; brackets that did not pair; a trailing `\\`): the
/// PDF builds, whatever the math holds.
#[test]
fn hostile_math_in_a_description_typesets() {
    let formulas = [
        r#"\left#import "x""#,
        r#"\left"a\right" \bigl# \Bigr@"#,
        r"\sqrt{(} \frac{[}{)} \hat{\left(} x^(a) (a^) (b_]",
        r"x_\\ \frac{\\}{\\} a \\",
        r"\sqrt{⟨} ⌈x ｛y \mathsf{⟦} ⟨z⟩",
        r"\left\langle x \right\rangle \left\| y \right\Vert \left. z \right|",
        r"\left( \frac{a}{b} \right) \big[ c \big] ((( ]]",
        r"a}b{c %?&'!;: \{ \}",
    ];
    let description = formulas
        .iter()
        .map(|f| format!("Inline ${f}$ and display\n\n$${f}$$\n"))
        .collect::<Vec<_>>()
        .join("\n");
    let seed = std::fs::read_to_string(root().join("cases/offcentre.toml")).unwrap();
    // The case's own description replaced (a literal string: backslashes
    // as written).
    let start = seed.find("description = \"\"\"").unwrap();
    let end = start + 17 + seed[start + 17..].find("\"\"\"").unwrap() + 3;
    let case = format!(
        "{}description = '''\n{description}\n'''{}",
        &seed[..start],
        &seed[end..]
    );
    let dir = root().join("target").join("pdf-hostile-math");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("math.toml");
    std::fs::write(&path, case).unwrap();
    report_pdf(&path, &dir.join("out"));
    assert!(
        std::fs::read(dir.join("out/math.pdf"))
            .unwrap()
            .starts_with(b"%PDF-")
    );
}
