//! `meff watch`: the pieces of a live sheet that do not touch the network
//! — which files a case depends on, their fingerprint, and the pages the
//! server sends (the sheet with a reload hook, or a located error above
//! the last good sheet). The command (`src/bin/meff/watch.rs`) polls and
//! serves; the reports themselves never carry a script: the hook is
//! added here, to what `watch` serves, and nowhere else.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Most files watched for one case (the case, the files it names, the
/// folders of its models).
pub const MAX_WATCHED: usize = 1000;

/// The route the page polls: it answers when the sheet's version differs
/// from `since`, or after a while with the same version.
pub const VERSION_ROUTE: &str = "/__meff/version";

/// The files a case depends on, as far as can be told without reading it
/// as a case: the case file, every string value of its TOML that names an
/// existing file relative to the case's folder (models, scene tables),
/// and the other files in a named file's folder (a model's `<include>`s).
/// Sorted, at most [`MAX_WATCHED`].
pub fn watched_files(case: &Path) -> Vec<PathBuf> {
    let mut out = vec![case.to_path_buf()];
    let base = case.parent().unwrap_or(Path::new("."));
    if let Ok(text) = std::fs::read_to_string(case)
        && let Ok(table) = text.parse::<toml::Table>()
    {
        let mut named = Vec::new();
        strings(&toml::Value::Table(table), &mut named);
        for s in named {
            let p = base.join(&s);
            if s.len() < 4096 && p.is_file() && !out.contains(&p) {
                if let Some(dir) = p.parent()
                    && dir != base
                    && let Ok(entries) = std::fs::read_dir(dir)
                {
                    for e in entries.flatten().take(MAX_WATCHED) {
                        let q = e.path();
                        if q.is_file() && !out.contains(&q) {
                            out.push(q);
                        }
                    }
                }
                if !out.contains(&p) {
                    out.push(p);
                }
            }
            if out.len() >= MAX_WATCHED {
                break;
            }
        }
    }
    out.truncate(MAX_WATCHED);
    out.sort();
    out.dedup();
    out
}

fn strings(v: &toml::Value, out: &mut Vec<String>) {
    match v {
        toml::Value::String(s) => out.push(s.clone()),
        toml::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        toml::Value::Table(t) => t.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// Files up to this size are fingerprinted by their bytes, larger ones by
/// their modification time and length only.
pub const HASHED_BYTES: u64 = 1 << 20;

/// What changes when any watched file is written, created or removed:
/// each file's length and its bytes' hash (files up to [`HASHED_BYTES`]),
/// or its modification time. The bytes, not only the time: an edit that
/// keeps the length within one tick of the file system's clock (a digit
/// changed in the same few milliseconds) leaves the time unchanged.
pub fn fingerprint(files: &[PathBuf]) -> Vec<Option<(u64, u64)>> {
    use std::hash::{Hash, Hasher};
    files
        .iter()
        .map(|f| {
            let m = std::fs::metadata(f).ok()?;
            let mut h = std::collections::hash_map::DefaultHasher::new();
            if m.len() <= HASHED_BYTES {
                std::fs::read(f).ok()?.hash(&mut h);
            } else {
                m.modified().unwrap_or(SystemTime::UNIX_EPOCH).hash(&mut h);
            }
            Some((m.len(), h.finish()))
        })
        .collect()
}

/// The hook `watch` adds before `</body>`: waits on [`VERSION_ROUTE`]
/// and reloads the page when the version changes. Fixed text: nothing of
/// the case reaches it.
fn hook(version: u64) -> String {
    format!(
        "<script>(function(){{var v={version};function w(){{fetch('{VERSION_ROUTE}?since='+v).then(function(r){{return r.text()}}).then(function(t){{if(t.trim()!==String(v)){{location.reload()}}else{{w()}}}}).catch(function(){{setTimeout(w,1000)}})}}w()}})();</script>\n"
    )
}

/// The served sheet: the report's HTML with the reload hook.
pub fn live_page(html: &str, version: u64) -> String {
    let hook = hook(version);
    match html.rfind("</body>") {
        Some(at) => format!("{}{hook}{}", &html[..at], &html[at..]),
        None => format!("{html}{hook}"),
    }
}

/// The page for a case that does not read or evaluate: the located error
/// (as the terminal shows it, escaped) on top, then the last good sheet
/// when there is one.
pub fn error_page(error: &str, last_good: Option<&str>, version: u64) -> String {
    let banner = format!(
        "<div style=\"border:2px solid #b00;background:#fff4f4;padding:0.6em 1em;margin:0 0 1.5em 0;font-family:sans-serif\">\
<p style=\"margin:0 0 0.4em 0\"><strong>meff watch: the case has errors</strong>; {}.</p>\
<pre style=\"white-space:pre-wrap;margin:0\">{}</pre></div>\n",
        if last_good.is_some() {
            "below is the last sheet that built"
        } else {
            "no sheet has built yet"
        },
        crate::render::safe::html_escape(error)
    );
    let body = match last_good {
        Some(html) => match html
            .find("<body")
            .and_then(|b| html[b..].find('>').map(|e| b + e + 1))
        {
            Some(at) => format!("{}{banner}{}", &html[..at], &html[at..]),
            None => format!("{banner}{html}"),
        },
        None => format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>meff watch</title></head><body>{banner}</body></html>\n"
        ),
    };
    live_page(&body, version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hook_goes_before_the_body_end_and_errors_are_escaped() {
        let page = live_page("<html><body><p>x</p></body></html>", 7);
        assert!(page.contains("var v=7;"));
        assert!(page.find("<script>").unwrap() < page.find("</body>").unwrap());
        let e = error_page("case.toml:3:5: bad <script>alert(1)</script>", None, 2);
        assert!(!e.contains("<script>alert"));
        assert!(e.contains("case.toml:3:5"));
        assert_eq!(e.matches("<script>").count(), 1);
        let kept = error_page(
            "oops",
            Some("<html><body class=\"x\"><h1>sheet</h1></body></html>"),
            3,
        );
        assert!(kept.find("oops").unwrap() < kept.find("<h1>sheet").unwrap());
    }

    #[test]
    fn files_a_case_names_are_watched() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("models")).unwrap();
        std::fs::write(dir.path().join("models/arm.xml"), "<mujoco/>").unwrap();
        std::fs::write(dir.path().join("models/part.xml"), "<mujoco/>").unwrap();
        let case = dir.path().join("c.toml");
        std::fs::write(
            &case,
            "title = \"t\"\n[model]\nmjcf = \"models/arm.xml\"\nnote = \"not a file\"\n",
        )
        .unwrap();
        let files = watched_files(&case);
        let names: Vec<String> = files
            .iter()
            .map(|p| p.strip_prefix(dir.path()).unwrap().display().to_string())
            .collect();
        assert_eq!(names, ["c.toml", "models/arm.xml", "models/part.xml"]);
        let before = fingerprint(&files);
        std::fs::write(dir.path().join("models/part.xml"), "<mujoco model=\"x\"/>").unwrap();
        assert_ne!(before, fingerprint(&files));
        // The same length, the same modification time (an edit inside one
        // tick of the file system's clock): still seen.
        let part = dir.path().join("models/part.xml");
        let time = std::fs::metadata(&part).unwrap().modified().unwrap();
        let before = fingerprint(&files);
        std::fs::write(&part, "<mujoco model=\"y\"/>").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&part)
            .unwrap()
            .set_modified(time)
            .unwrap();
        assert_eq!(std::fs::metadata(&part).unwrap().modified().unwrap(), time);
        assert_ne!(before, fingerprint(&files));
    }
}
