//! The `meff` command line: parses arguments, calls the library, prints
//! results and diagnostics, and picks the exit status (0 success, 1 a claim
//! failed, 2 bad input or usage). Only this file prints or exits.

use clap::{Parser, Subcommand};
use meff::render;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// Effective mass seen by normal contacts in multibody systems, and what it
/// does to penalty-contact time scales.
#[derive(Parser)]
#[command(name = "meff", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Analyse one case and print the results (a table, or JSON).
    Eval {
        /// The case file (TOML).
        case: PathBuf,
        /// Print the JSON document of SPEC §4 instead of a table.
        #[arg(long)]
        json: bool,
        /// Significant figures in the table.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=17))]
        digits: u8,
    },
    /// Check the claims of one or more cases; exit status 1 when any fails.
    Check {
        /// Case files.
        #[arg(required = true)]
        cases: Vec<PathBuf>,
    },
}

const EXIT_CLAIM_FAILED: u8 = 1;
const EXIT_BAD_INPUT: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Eval { case, json, digits } => eval(&case, json, digits as usize),
        Command::Check { cases } => check(&cases),
    }
}

fn print_error(e: &meff::Error) {
    let color = std::io::stderr().is_terminal();
    match e {
        meff::Error::Input(src) => eprint!(
            "{}",
            meff::diag::render(&src.path, &src.source, &src.diagnostics, color)
        ),
        other => eprintln!("error: {other}"),
    }
}

fn load_and_evaluate(path: &std::path::Path) -> Result<meff::Evaluated, meff::Error> {
    let case = meff::case::load(path)?;
    meff::evaluate(case)
}

fn eval(path: &std::path::Path, json: bool, digits: usize) -> ExitCode {
    let evaluated = match load_and_evaluate(path) {
        Ok(e) => e,
        Err(e) => {
            print_error(&e);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let report = &evaluated.report;
    if json {
        print!("{}", render::json(report));
    } else {
        print!("{}", render::text::summary(report, digits));
    }
    if report.any_claim_failed() {
        ExitCode::from(EXIT_CLAIM_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}

fn check(paths: &[PathBuf]) -> ExitCode {
    let mut bad_input = false;
    let mut failed = false;
    for path in paths {
        let evaluated = match load_and_evaluate(path) {
            Ok(e) => e,
            Err(e) => {
                print_error(&e);
                bad_input = true;
                continue;
            }
        };
        let claims = &evaluated.report.claims;
        let passed = claims.iter().filter(|c| c.passed == Some(true)).count();
        println!(
            "{}: {passed} of {} claims passed",
            path.display(),
            claims.len()
        );
        for c in claims {
            let mark = match c.passed {
                Some(true) => "PASS",
                Some(false) => "FAIL",
                None => "????",
            };
            println!("  {mark}  {} = {}  [{}]", c.of, c.equals, c.how);
            if let Some(msg) = &c.message {
                println!("        {msg}");
            }
        }
        failed |= evaluated.report.any_claim_failed();
    }
    if bad_input {
        ExitCode::from(EXIT_BAD_INPUT)
    } else if failed {
        ExitCode::from(EXIT_CLAIM_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}
