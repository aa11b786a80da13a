//! `meff watch`: the served sheet follows the case as it is edited, a bad
//! edit shows its located error above the last good sheet, and the server
//! serves nothing but the sheet and its assets.

use crate::support::{cli, root};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};

struct Server(Child, u16);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(case: &std::path::Path) -> Server {
    let mut child = cli(["watch", "--port", "0"])
        .arg(case)
        .command()
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .split("127.0.0.1:")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"));
    Server(child, port)
}

fn request(port: u16, head: &str) -> (String, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.write_all(head.as_bytes()).unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (status, body) = text.split_once("\r\n\r\n").unwrap();
    (status.lines().next().unwrap().to_string(), body.to_string())
}

fn get(port: u16, path: &str) -> (String, String) {
    request(
        port,
        &format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n"),
    )
}

#[test]
fn the_served_sheet_follows_the_case_and_shows_a_bad_edit_located() {
    let dir = tempfile::tempdir().unwrap();
    let case = dir.path().join("offcentre.toml");
    let text = std::fs::read_to_string(root().join("cases/offcentre.toml")).unwrap();
    std::fs::write(&case, &text).unwrap();
    let server = start(&case);
    let port = server.1;
    let (status, page) = get(port, "/");
    assert!(status.contains("200"), "{status}");
    assert!(page.contains("Planar block on a floor"));
    assert!(page.contains("1.000"), "m_eff = 1 kg at r = 0.10 m");
    // The reports carry no script; only what watch serves has its hook.
    assert_eq!(page.matches("<script").count(), 1);
    let version = |page: &str| -> u64 {
        page.split("var v=")
            .nth(1)
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let v0 = version(&page);

    // r = 0.10 m → 0.20 m: m_eff = 1/(1/2 + 0.04/0.02) = 0.4 kg.
    std::fs::write(&case, text.replace("\"0.10 m\"", "\"0.20 m\"")).unwrap();
    let (_, v) = get(port, &format!("/__meff/version?since={v0}"));
    assert!(v.trim().parse::<u64>().unwrap() > v0, "{v}");
    let (_, page) = get(port, "/");
    assert!(page.contains("0.4000"), "the new m_eff");

    // A half-written edit: the error at its line in the page, the last
    // good sheet below it.
    std::fs::write(&case, format!("{text}\nbroken = \n")).unwrap();
    let v1 = version(&page);
    let _ = get(port, &format!("/__meff/version?since={v1}"));
    let (_, page) = get(port, "/");
    let located = format!("offcentre.toml:{}:", text.lines().count() + 2);
    let at = page
        .find(&located)
        .unwrap_or_else(|| panic!("{located} not in the page"));
    assert!(at < page.find("<h1").unwrap(), "the error comes first");
    assert!(page.contains("last sheet that built"));
    assert!(page.contains("0.4000"), "the last good sheet stays");

    // Nothing else is served.
    assert!(get(port, "/../../etc/passwd").0.contains("404"));
    assert!(get(port, "/assets/../Cargo.toml").0.contains("404"));
    assert!(get(port, "/assets/OFL.txt").0.contains("200"));
    assert!(request(port, "POST / HTTP/1.1\r\n\r\n").0.contains("405"));
    // And nothing was written beside the case.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// In headless Chromium (as the report tests run it; skipped without one
/// unless `MEFF_BROWSER_TESTS` is set): the page a browser loads from
/// `watch` follows an edit of the case, and after a bad edit shows the
/// located error above the last good sheet. (The reload itself is the
/// hook's long poll, checked over HTTP above: headless Chromium's dump
/// does not wait for it.)
#[test]
fn in_a_browser_the_served_sheet_follows_an_edit() {
    use crate::output::browser::{chrome, chromium};
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("MEFF_BROWSER_TESTS").is_none(),
            "MEFF_BROWSER_TESTS is set but no Chromium was found"
        );
        eprintln!("skipping the watch browser check: no chromium on PATH");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let profile = tempfile::tempdir().unwrap();
    let case = dir.path().join("offcentre.toml");
    let text = std::fs::read_to_string(root().join("cases/offcentre.toml")).unwrap();
    std::fs::write(&case, &text).unwrap();
    let server = start(&case);
    let url = format!("http://127.0.0.1:{}/", server.1);
    let version = |page: &str| -> u64 {
        page.split("var v=")
            .nth(1)
            .and_then(|s| s.split(';').next())
            .and_then(|s| s.parse().ok())
            .unwrap()
    };
    let out = chrome(&browser, profile.path(), &["--dump-dom", &url]);
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(dom.contains("Planar block on a floor"), "{dom}");
    assert!(dom.contains("1.000") && !dom.contains("0.4000"));
    // r = 0.10 m → 0.20 m: m_eff 1 → 0.4 kg.
    let v = version(&get(server.1, "/").1);
    std::fs::write(&case, text.replace("\"0.10 m\"", "\"0.20 m\"")).unwrap();
    let _ = get(server.1, &format!("/__meff/version?since={v}"));
    let out = chrome(&browser, profile.path(), &["--dump-dom", &url]);
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(dom.contains("0.4000"), "the new m_eff: {dom}");
    // A half-written edit: the page shows the error at its line first.
    let v = version(&get(server.1, "/").1);
    std::fs::write(&case, format!("{text}\nbroken = \n")).unwrap();
    let _ = get(server.1, &format!("/__meff/version?since={v}"));
    let out = chrome(&browser, profile.path(), &["--dump-dom", &url]);
    let dom = String::from_utf8_lossy(&out.stdout);
    let located = format!("offcentre.toml:{}:", text.lines().count() + 2);
    let at = dom
        .find(&located)
        .unwrap_or_else(|| panic!("{located} not in the page: {dom}"));
    assert!(at < dom.find("<h1").unwrap(), "the error comes first");
    assert!(dom.contains("0.4000"), "the last good sheet stays");
}
