//! A book's total work, bounded: a chapter may come from a stranger, and a
//! small chapter must not hold a build for minutes (600 `{{#meff}}`
//! directives in 12 KB once took 25 s).
//!
//! Three limits, each a located error (exit 2) when passed: directives
//! per book ([`MAX_DIRECTIVES`]), distinct evaluations per book
//! ([`MAX_EVALUATIONS`]: a case file is evaluated once per build and
//! verification setting, however many directives name it, by however many
//! spellings of its path), and time: the evaluations stop when the book's
//! time budget (default [`DEFAULT_SECONDS`]) is spent — through the
//! evaluation's cancel flag, so a long evaluation stops where it is, not
//! after it.
//!
//! The time budget is the builder's to raise, in the environment
//! (`MEFF_BOOK_TIME_BUDGET=600 mdbook build`), not the book's: a stranger's
//! pull request writes `book.toml` as well as the chapters. `book.toml`
//! may lower it (`[preprocessor.meff] time-budget`), never raise it.

use super::BookError;
use serde_json::Value;
use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Directives (`{{#meff}}`, `{{#meff-value}}`, ```` ```meff ````) per book.
pub const MAX_DIRECTIVES: usize = 10_000;
/// Distinct evaluations per book.
pub const MAX_EVALUATIONS: usize = 200;
/// The default time budget of a book's evaluations, in seconds: the
/// project's bound for any one input.
pub const DEFAULT_SECONDS: u64 = 10;
/// The environment variable that sets the time budget, in seconds.
pub const ENV: &str = "MEFF_BOOK_TIME_BUDGET";

/// The work left to a book.
pub struct Budget {
    seconds: u64,
    directives: Cell<usize>,
    evaluations: Cell<usize>,
    spent: Arc<AtomicBool>,
    /// Dropped with the budget, which ends the watchdog thread.
    _stop: std::sync::mpsc::Sender<()>,
}

impl Budget {
    /// Starts the clock; reads `time-budget` from the book's context.
    pub fn start(ctx: &Value) -> Result<Budget, BookError> {
        let seconds = |v: Option<u64>, what: &str| {
            v.filter(|s| (1..=86_400).contains(s)).ok_or_else(|| {
                BookError::Input(format!(
                    "{what} is a whole number of seconds from 1 to 86400"
                ))
            })
        };
        let limit = match std::env::var(ENV) {
            Err(_) => DEFAULT_SECONDS,
            Ok(v) => seconds(v.trim().parse().ok(), ENV)?,
        };
        let seconds = match ctx.pointer("/config/preprocessor/meff/time-budget") {
            None => limit,
            Some(v) => {
                seconds(v.as_u64(), "book.toml: [preprocessor.meff] time-budget")?.min(limit)
            }
        };
        let spent = Arc::new(AtomicBool::new(false));
        let (stop, wait) = std::sync::mpsc::channel::<()>();
        let flag = spent.clone();
        std::thread::spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                wait.recv_timeout(Duration::from_secs(seconds))
            {
                flag.store(true, Ordering::Relaxed);
            }
        });
        Ok(Budget {
            seconds,
            directives: Cell::new(0),
            evaluations: Cell::new(0),
            spent,
            _stop: stop,
        })
    }

    /// The flag an evaluation watches.
    pub fn cancel(&self) -> Arc<AtomicBool> {
        self.spent.clone()
    }

    /// The error for a directive met after the time budget is spent.
    pub fn spent(&self, place: &str) -> BookError {
        BookError::Input(format!(
            "{place}: the book's time budget ({} s of evaluation) is spent; the builder may raise it ({ENV}=SECONDS in the environment), or the book may name fewer or smaller cases",
            self.seconds
        ))
    }

    /// Counts one directive.
    pub fn directive(&self, place: &str) -> Result<(), BookError> {
        let n = self.directives.get() + 1;
        self.directives.set(n);
        if n > MAX_DIRECTIVES {
            return Err(BookError::Input(format!(
                "{place}: more than {MAX_DIRECTIVES} meff directives in one book"
            )));
        }
        if self.spent.load(Ordering::Relaxed) {
            return Err(self.spent(place));
        }
        Ok(())
    }

    /// Counts one evaluation (a case not evaluated before in this build).
    pub fn evaluation(&self, place: &str) -> Result<(), BookError> {
        let n = self.evaluations.get() + 1;
        self.evaluations.set(n);
        if n > MAX_EVALUATIONS {
            return Err(BookError::Input(format!(
                "{place}: more than {MAX_EVALUATIONS} distinct case evaluations in one book (a case is evaluated once per build; with and without verification count apart)"
            )));
        }
        if self.spent.load(Ordering::Relaxed) {
            return Err(self.spent(place));
        }
        Ok(())
    }
}
