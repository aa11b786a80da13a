//! The `meff` command line: parses arguments, calls the library, prints
//! results and diagnostics, and picks the exit status (0 success, 1 a claim
//! failed, 2 bad input or usage). Only this binary prints or exits; one module a command.

use args::*;
use clap::Parser;
use std::process::ExitCode;

/// Large blocks on transparent huge pages (see `meff::hugepages`).
#[global_allocator]
static ALLOCATOR: meff::hugepages::HugePages = meff::hugepages::HugePages;

mod args;
mod batch;
mod book;
mod common;
mod diff;
mod eval;
mod new;
mod report;
mod watch;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout, usage errors to stderr; a
            // closed stream is not an error worth a panic.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { EXIT_BAD_INPUT } else { 0 });
        }
    };
    let limit = cli.max_input_bytes;
    if !cli.confine.is_empty() {
        match meff::confine::Confine::new(&cli.confine) {
            Ok(c) => {
                let _ = common::CONFINE.set(c);
            }
            Err(e) => {
                common::error(&e);
                return ExitCode::from(EXIT_BAD_INPUT);
            }
        }
    }
    match cli.command {
        Command::Eval {
            case,
            json,
            format,
            contacts,
            dofs,
            digits,
            no_verify,
            engine,
        } => eval::eval(
            &case,
            eval::EvalOptions {
                format: if json { EvalFormat::Json } else { format },
                contacts,
                engine: engine.as_deref().and_then(meff::case::Engine::parse),
                dofs,
                digits: digits as usize,
                verify: !no_verify,
                limit,
            },
        ),
        Command::Check { cases, verbose } => eval::check(&cases, limit, verbose),
        Command::Watch {
            case,
            bind,
            port,
            verify,
            digits,
        } => watch::watch(
            &case,
            watch::WatchOptions {
                bind,
                port,
                verify,
                digits: digits as usize,
                limit,
            },
        ),
        Command::Diff {
            old,
            new,
            json,
            tolerance,
            digits,
            verify,
        } => diff::diff(
            &old,
            &new,
            diff::DiffOptions {
                json,
                tolerance,
                digits: digits as usize,
                verify,
                limit,
            },
        ),
        Command::New { name, template } => new::new_case(&name, template),
        Command::Batch(args) => batch::batch(args, limit),
        Command::Mdbook { supports } => book::mdbook(supports),
        Command::Report {
            paths,
            out,
            format,
            check,
            digits,
            no_verify,
            templates,
        } => report::report(
            &paths,
            &out,
            &format,
            report::ReportOptions {
                check,
                digits: digits as usize,
                verify: !no_verify,
                templates: templates.as_deref(),
                limit,
            },
        ),
    }
}
