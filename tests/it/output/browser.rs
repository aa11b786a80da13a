//! What users see: every HTML report parses as HTML5 without errors, has no
//! script and no network URL, and — in headless Chromium, when available —
//! lays out every formula with a nonzero width, draws its SVG plots and
//! logs no console error. A PNG screenshot of each report is kept under
//! `target/report-shots/`.
//!
//! Chromium is optional on a developer machine (the browser part is then
//! skipped with a message); CI installs it and sets `MEFF_BROWSER_TESTS=1`,
//! which makes its absence a failure.

use crate::support::{cli, root};
use std::path::{Path, PathBuf};
use std::process::Command;

fn reports_dir() -> PathBuf {
    let dir = root().join("target").join("browser-reports");
    cli(["report", "cases", "--format", "html", "-o"])
        .arg(&dir)
        .exits(0);
    dir
}

fn html_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "html")
                && !p
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("check-")
        })
        .collect();
    files.sort();
    files
}

#[test]
fn html_reports_parse_and_are_self_contained() {
    use html5ever::tendril::TendrilSink;
    let dir = reports_dir();
    let files = html_files(&dir);
    assert!(files.len() >= 11, "{files:?}");
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let dom =
            html5ever::parse_document(markup5ever_rcdom::RcDom::default(), Default::default())
                .one(text.clone());
        let errors = dom.errors.borrow();
        assert!(
            errors.is_empty(),
            "{}: {:?}",
            file.display(),
            &errors[..errors.len().min(5)]
        );
        assert!(
            !text.contains("<script"),
            "{}: has a script",
            file.display()
        );
        assert!(
            !text.contains("http:") && !text.contains("https:"),
            "{}: has a network URL",
            file.display()
        );
    }
    assert!(dir.join("assets/STIXMath-Regular.otf").is_file());
}

pub(crate) fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("MEFF_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|d| d.join(name))
                    .find(|p| p.is_file())
            })
        })
}

pub(crate) fn chrome(browser: &Path, profile: &Path, args: &[&str]) -> std::process::Output {
    Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--allow-file-access-from-files",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .output()
        .unwrap()
}

/// A page that loads every report in frames, at every width asked for,
/// and writes one line per frame into its own DOM: the formulas laid out
/// with zero width, the SVGs drawn, the elements whose content overflows.
/// One browser start for all of them (a start costs about a second).
const CHECKER: &str = r#"<!DOCTYPE html><html><body><pre id="result">pending</pre>
<script>
var jobs = JOBS;
var lines = [];
var left = jobs.length;
function check(d) {
  // Elements whose content is wider than their box: cut off or scrolled.
  var over = [];
  d.querySelectorAll('*').forEach(function (e) {
    var html = e.namespaceURI === 'http://www.w3.org/1999/xhtml';
    if ((html || e.tagName === 'math') && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1) {
      over.push(e.tagName + ':' + (e.textContent || '').slice(0, 40).replace(/\s+/g, '_'));
    }
  });
  if (d.documentElement.scrollWidth > d.documentElement.clientWidth + 1) { over.push('page'); }
  var maths = Array.from(d.querySelectorAll('math'));
  var zero = maths.filter(function (m) { return m.getBoundingClientRect().width === 0; }).length;
  var svgs = Array.from(d.querySelectorAll('svg'));
  var empty = svgs.filter(function (s) { var r = s.getBoundingClientRect(); return r.width === 0 || r.height === 0; }).length;
  return 'math=' + maths.length + ' zero=' + zero + ' svg=' + svgs.length + ' empty=' + empty + ' overflow=' + over.length + ' ' + over.slice(0, 5).join(' ');
}
jobs.forEach(function (job, k) {
  var f = document.createElement('iframe');
  f.style.cssText = 'display:block;width:' + job[1] + 'px;height:2000px;border:0';
  f.addEventListener('load', function () {
    lines[k] = job[0] + '@' + job[1] + ' ' + check(f.contentDocument);
    if (--left === 0) { document.getElementById('result').textContent = lines.join('\n'); }
  });
  f.src = job[0] + '.html';
  document.body.appendChild(f);
});
</script></body></html>"#;

#[test]
fn reports_render_in_headless_chromium() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("MEFF_BROWSER_TESTS").is_none(),
            "MEFF_BROWSER_TESTS is set but no Chromium was found"
        );
        eprintln!(
            "skipping the browser check: no chromium on PATH (set MEFF_CHROMIUM to point at one)"
        );
        return;
    };
    let dir = reports_dir();
    let shots = root().join("target").join("report-shots");
    std::fs::create_dir_all(&shots).unwrap();
    let profile = root().join("target").join("chromium-profile");
    for file in html_files(&dir) {
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let url = format!("file://{}", file.display());
        // Screenshot, with console messages on stderr.
        let shot = shots.join(format!("{name}.png"));
        let out = chrome(
            &browser,
            &profile,
            &[
                "--enable-logging=stderr",
                "--v=0",
                "--window-size=1100,4000",
                &format!("--screenshot={}", shot.display()),
                &url,
            ],
        );
        let log = String::from_utf8_lossy(&out.stderr);
        let console_errors: Vec<&str> = log
            .lines()
            .filter(|l| l.contains("CONSOLE") && (l.contains("rror") || l.contains("Failed")))
            .collect();
        assert!(
            console_errors.is_empty(),
            "{name}: console errors: {console_errors:?}"
        );
        assert!(shot.is_file(), "{name}: no screenshot\n{log}");
    }
    // Layout checks through the checker page, at the width of an A4 page
    // (794 px) and of a desktop window (1280 px).
    let names: Vec<String> = html_files(&dir)
        .iter()
        .map(|f| f.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    let jobs: Vec<(String, u32)> = names
        .iter()
        .flat_map(|n| [794, 1280].map(|w| (n.clone(), w)))
        .collect();
    let checker = dir.join("check-all.html");
    let jobs_js = serde_json::to_string(&jobs).unwrap();
    std::fs::write(&checker, CHECKER.replace("JOBS", &jobs_js)).unwrap();
    let out = chrome(
        &browser,
        &profile,
        &[
            "--virtual-time-budget=60000",
            "--dump-dom",
            &format!("file://{}", checker.display()),
        ],
    );
    let dom = String::from_utf8_lossy(&out.stdout);
    std::fs::remove_file(&checker).ok();
    let result = dom
        .split("<pre id=\"result\">")
        .nth(1)
        .and_then(|r| r.split("</pre>").next())
        .unwrap_or("")
        .to_string();
    for (name, width) in &jobs {
        let tag = format!("{name}@{width} ");
        let line = result
            .lines()
            .find_map(|l| l.strip_prefix(&tag))
            .unwrap_or_else(|| panic!("{name} at {width} px: the checker said {result:?}"));
        let field = |key: &str| -> usize {
            line.split_whitespace()
                .find_map(|kv| kv.strip_prefix(&format!("{key}=")))
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{name}: checker said {line:?}"))
        };
        if name != "index" {
            assert!(field("math") > 0, "{name}: no formulas ({line})");
            assert!(field("svg") > 0, "{name}: no SVG ({line})");
        }
        assert_eq!(
            field("zero"),
            0,
            "{name}: formulas laid out with zero width ({line})"
        );
        assert_eq!(field("empty"), 0, "{name}: empty SVG ({line})");
        assert_eq!(
            field("overflow"),
            0,
            "{name} at {width} px: content overflows its box ({line})"
        );
    }
}
