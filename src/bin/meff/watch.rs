//! `meff watch CASE`: the live sheet. A builder thread polls the case and
//! the files it names (`meff::watch::watched_files`) and rebuilds the HTML
//! sheet in memory when any changes; a small HTTP server on 127.0.0.1
//! (by default) serves it, with a hook that reloads the page when the
//! sheet changes. A case with errors shows them in the page, located,
//! above the last sheet that built. Writes nothing.

use crate::args::EXIT_BAD_INPUT;
use crate::common::{error, load_and_evaluate, shown};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// What `meff watch` was asked.
pub(crate) struct WatchOptions {
    pub(crate) bind: String,
    pub(crate) port: u16,
    pub(crate) verify: bool,
    pub(crate) digits: usize,
    pub(crate) limit: u64,
}

/// The sheet being served.
#[derive(Default)]
struct Served {
    /// Bumped at every rebuild that changes the page.
    version: u64,
    page: String,
    /// The last report HTML that built (without the hook).
    last_good: Option<String>,
}

type Shared = Arc<(Mutex<Served>, Condvar)>;

/// How often the watched files are looked at.
const POLL: Duration = Duration::from_millis(200);
/// How long a version request waits for a change before answering with
/// the same version (the page then asks again).
const LONG_POLL: Duration = Duration::from_secs(20);
/// Most bytes of a request's head read.
const MAX_REQUEST: u64 = 16 * 1024;
/// Most requests served at once (each on its own thread).
const MAX_CONNECTIONS: usize = 32;

pub(crate) fn watch(case: &Path, o: WatchOptions) -> ExitCode {
    if !case.is_file() {
        error(&format!("cannot read {}: no such file", shown(case)));
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    let templates = match meff::render::templates::Templates::load(None) {
        Ok(t) => t,
        Err(e) => {
            error(&format!("templates: {e}"));
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let listener = match TcpListener::bind((o.bind.as_str(), o.port)) {
        Ok(l) => l,
        Err(e) => {
            error(&format!("cannot listen on {}:{}: {e}", o.bind, o.port));
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let shared: Shared = Arc::new((Mutex::new(Served::default()), Condvar::new()));
    // What the first build reads, taken before it: an edit made while it
    // runs (or before the builder thread starts) is a change next time.
    let files = meff::watch::watched_files(case);
    let seen = meff::watch::fingerprint(&files);
    rebuild(case, &o, &templates, &shared);
    let addr = listener
        .local_addr()
        .map(|a| a.to_string())
        .unwrap_or_default();
    // The first line says where (a test or a script reads the port from it).
    println!("serving {} at http://{addr}/ (Ctrl-C to stop)", shown(case));
    let _ = std::io::stdout().flush();
    {
        let (case, shared) = (case.to_path_buf(), shared.clone());
        std::thread::spawn(move || builder(&case, &o, &templates, &shared, (files, seen)));
    }
    let busy = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for stream in listener.incoming().flatten() {
        use std::sync::atomic::Ordering::SeqCst;
        if busy.load(SeqCst) >= MAX_CONNECTIONS {
            continue; // dropped: the browser retries
        }
        busy.fetch_add(1, SeqCst);
        let (shared, busy) = (shared.clone(), busy.clone());
        std::thread::spawn(move || {
            let _ = serve(stream, &shared);
            busy.fetch_sub(1, SeqCst);
        });
    }
    ExitCode::SUCCESS
}

/// Polls the watched files and rebuilds when their fingerprint changes
/// from `last` (the files and their fingerprint the last build read). The
/// list and fingerprint are taken again *before* each rebuild (the case
/// may name new files): an edit made while a build runs is seen next time.
fn builder(
    case: &Path,
    o: &WatchOptions,
    templates: &meff::render::templates::Templates,
    shared: &Shared,
    last: (Vec<PathBuf>, Vec<Option<(u64, u64)>>),
) {
    let (mut files, mut seen) = last;
    loop {
        std::thread::sleep(POLL);
        let now = meff::watch::fingerprint(&files);
        if now == seen {
            continue;
        }
        files = meff::watch::watched_files(case);
        seen = meff::watch::fingerprint(&files);
        rebuild(case, o, templates, shared);
    }
}

/// Reads and evaluates the case and renders its sheet; the result (or the
/// located error) becomes the served page.
fn rebuild(
    case: &Path,
    o: &WatchOptions,
    templates: &meff::render::templates::Templates,
    shared: &Shared,
) {
    let start = std::time::Instant::now();
    let built = load_and_evaluate(case, o.verify, o.limit)
        .map_err(|e| match e {
            meff::Error::Input(src) => {
                meff::diag::render(&src.path, &src.source, &src.diagnostics, false)
            }
            other => other.to_string(),
        })
        .and_then(|ev| {
            templates
                .report_html(&ev.report, o.digits)
                .map_err(|e| format!("rendering: {e}"))
        });
    let (lock, wake) = &**shared;
    let Ok(mut s) = lock.lock() else { return };
    s.version += 1;
    match built {
        Ok(html) => {
            s.page = meff::watch::live_page(&html, s.version);
            s.last_good = Some(html);
            eprintln!(
                "rebuilt {} in {} ms",
                shown(case),
                start.elapsed().as_millis()
            );
        }
        Err(message) => {
            s.page = meff::watch::error_page(&message, s.last_good.as_deref(), s.version);
            eprint!("{}", meff::diag::terminal_text(&message));
            eprintln!();
        }
    }
    wake.notify_all();
}

/// One request: `GET /` (the sheet), `GET /assets/NAME` (the sheet's
/// font and licence), `GET /__meff/version?since=N` (waits for a change);
/// anything else is 404, any method but GET 405.
fn serve(stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    use std::io::Read;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new((&stream).take(MAX_REQUEST));
    let mut line = String::new();
    reader.read_line(&mut line)?;
    // The rest of the head, read and ignored.
    let mut h = String::new();
    while reader.read_line(&mut h)? > 2 {
        h.clear();
    }
    let mut parts = line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let mut out = &stream;
    if method != "GET" {
        return respond(
            &mut out,
            "405 Method Not Allowed",
            "text/plain",
            b"GET only\n",
        );
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let (lock, wake) = &**shared;
    match path {
        "/" | "/index.html" => {
            let page = lock.lock().map(|s| s.page.clone()).unwrap_or_default();
            respond(
                &mut out,
                "200 OK",
                "text/html; charset=utf-8",
                page.as_bytes(),
            )
        }
        p if p == meff::watch::VERSION_ROUTE => {
            let since: Option<u64> = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("since="))
                .and_then(|v| v.parse().ok());
            let guard = lock.lock().map_err(|_| std::io::Error::other("poisoned"))?;
            let (s, _) = wake
                .wait_timeout_while(guard, LONG_POLL, |s| Some(s.version) == since)
                .map_err(|_| std::io::Error::other("poisoned"))?;
            let v = s.version;
            drop(s);
            respond(
                &mut out,
                "200 OK",
                "text/plain",
                format!("{v}\n").as_bytes(),
            )
        }
        p => match p.strip_prefix("/assets/").and_then(|name| {
            meff::render::templates::ASSETS
                .iter()
                .find(|(n, _)| *n == name)
        }) {
            Some((name, bytes)) => {
                let kind = if name.ends_with(".otf") {
                    "font/otf"
                } else {
                    "text/plain; charset=utf-8"
                };
                respond(&mut out, "200 OK", kind, bytes)
            }
            None => respond(&mut out, "404 Not Found", "text/plain", b"not found\n"),
        },
    }
}

fn respond(out: &mut impl Write, status: &str, kind: &str, body: &[u8]) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    out.write_all(body)?;
    out.flush()
}
