//! What every command shares: standard output, messages, loading and evaluating a case.

use crate::args::*;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// Standard output that ends quietly when the reader goes away (`| head`)
/// and reports any other failure (a full disk) as an error.
pub(crate) struct Stdout {
    pub(crate) closed: bool,
}

impl Stdout {
    pub(crate) fn new() -> Stdout {
        Stdout { closed: false }
    }

    /// Writes `text`; `Err` (exit 2) when the output cannot be written for
    /// a reason other than a closed pipe.
    pub(crate) fn print(&mut self, text: &str) -> Result<(), ExitCode> {
        self.stream(|out| out.write_all(text.as_bytes()))
    }

    /// Writes what `write` produces through a buffer, as it is produced.
    pub(crate) fn stream(
        &mut self,
        write: impl FnOnce(&mut std::io::BufWriter<std::io::StdoutLock<'static>>) -> std::io::Result<()>,
    ) -> Result<(), ExitCode> {
        if self.closed {
            return Ok(());
        }
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        match write(&mut out).and_then(|()| out.flush()) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            Err(e) => {
                error(&format!("cannot write to standard output: {e}"));
                Err(ExitCode::from(EXIT_BAD_INPUT))
            }
        }
    }
}

/// A message on standard error (a closed or full stderr is ignored: there
/// is nowhere left to say it).
pub(crate) fn error(message: &str) {
    let _ = writeln!(
        std::io::stderr(),
        "error: {}",
        meff::diag::terminal_text(message)
    );
}

/// A path as shown in messages: control characters escaped.
pub(crate) fn shown(path: &std::path::Path) -> String {
    meff::diag::escape_controls(&path.display().to_string()).into_owned()
}

pub(crate) fn print_error(e: &meff::Error) {
    let color = std::io::stderr().is_terminal();
    match e {
        meff::Error::Input(src) => {
            let _ = write!(
                std::io::stderr(),
                "{}",
                meff::diag::render(&src.path, &src.source, &src.diagnostics, color)
            );
        }
        other => error(&other.to_string()),
    }
}

/// `--confine`: the trees case files and the files they name may be read
/// from (set once, before any command runs).
pub(crate) static CONFINE: std::sync::OnceLock<meff::confine::Confine> = std::sync::OnceLock::new();

/// What a report lists one by one.
#[derive(Clone, Copy, Default)]
pub(crate) struct Listing {
    /// Contacts (default: all up to the dense limit, the fastest 20 above).
    pub(crate) contacts: Option<meff::report::ContactSelection>,
    /// Every generalized velocity, even on the large-system path.
    pub(crate) dofs: bool,
    /// An engine to translate even when the case has no table for it.
    pub(crate) engine: Option<meff::case::Engine>,
    /// Significant figures of claim messages (`--digits`).
    pub(crate) digits: Option<usize>,
}

pub(crate) fn load_and_evaluate(
    path: &std::path::Path,
    verify: bool,
    limit: u64,
) -> Result<meff::Evaluated, meff::Error> {
    load_and_evaluate_listing(path, verify, limit, Listing::default())
}

pub(crate) fn load_and_evaluate_listing(
    path: &std::path::Path,
    verify: bool,
    limit: u64,
    listing: Listing,
) -> Result<meff::Evaluated, meff::Error> {
    let mut case = meff::case::load_confined(path, limit, CONFINE.get())?;
    if let Some(name) = listing.engine {
        case.engines.ensure(name).map_err(|message| {
            meff::Error::Input(meff::diag::SourceError {
                path: case.path.clone(),
                source: case.source.clone(),
                diagnostics: vec![meff::diag::Diagnostic::new(0..0, message)],
            })
        })?;
    }
    // `None`: the default for the path the analysis takes.
    let contacts = listing.contacts;
    if !verify {
        return meff::evaluate_with(
            case,
            meff::Options {
                list_dofs: listing.dofs,
                contacts,
                digits: listing.digits,
                ..Default::default()
            },
        );
    }
    // A progress bar on stderr while the simulations run (hidden when
    // stderr is not a terminal).
    let bar = indicatif::ProgressBar::new(100);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{prefix} [{bar:30}] {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_prefix(shown(path));
    let progress = |stage: &str, done: f64| {
        bar.set_message(stage.to_string());
        bar.set_position((done * 100.0) as u64);
    };
    let result = meff::evaluate_with(
        case,
        meff::Options {
            verify: true,
            progress: Some(&progress),
            list_dofs: listing.dofs,
            contacts,
            digits: listing.digits,
            cancel: None,
        },
    );
    bar.finish_and_clear();
    result
}
