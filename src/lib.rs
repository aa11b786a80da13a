//! meff: the effective mass a normal contact sees in a multibody system.
#![warn(missing_docs)]

pub mod case;
pub mod diag;
pub mod expr;
pub mod units;

/// Errors that stop meff before any analysis: the input could not be read.
#[derive(Debug)]
pub enum Error {
    /// A file could not be read.
    Io {
        /// Path as given.
        path: String,
        /// What the operating system said.
        message: String,
    },
    /// The case file has problems (each with a span).
    Input(diag::SourceError),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Io { path, message } => write!(f, "cannot read {path}: {message}"),
            Error::Input(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}
