//! `meff mdbook`: the mdBook preprocessor.

use crate::args::*;
use crate::common::*;
use std::io::Write;
use std::process::ExitCode;

pub(crate) fn mdbook(supports: Option<MdbookCommand>) -> ExitCode {
    if let Some(MdbookCommand::Supports { renderer }) = supports {
        return ExitCode::from(if meff::mdbook::supports(&renderer) {
            0
        } else {
            1
        });
    }
    let mut input = String::new();
    if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut input) {
        error(&format!("reading the book from standard input: {e}"));
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    match meff::mdbook::run(&input) {
        Ok(book) => match Stdout::new().print(&book) {
            Ok(()) => ExitCode::SUCCESS,
            Err(code) => code,
        },
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "meff: {e}");
            ExitCode::from(match e {
                meff::mdbook::BookError::Claim(_) => EXIT_CLAIM_FAILED,
                meff::mdbook::BookError::Input(_) => EXIT_BAD_INPUT,
            })
        }
    }
}
