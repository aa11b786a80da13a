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
        /// Skip the time-domain verification.
        #[arg(long)]
        no_verify: bool,
    },
    /// Write a report per case (Markdown and JSON) into a directory.
    Report {
        /// Case files, or directories of `*.toml` case files.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Output directory.
        #[arg(short = 'o', long = "out", default_value = "reports")]
        out: PathBuf,
        /// Comma-separated formats: md, html, json.
        #[arg(long, default_value = "md,html,json", value_delimiter = ',')]
        format: Vec<Format>,
        /// A directory of templates replacing the built-in ones file by file
        /// (report.md, report.html, index.md, index.html, style.css).
        #[arg(long)]
        templates: Option<PathBuf>,
        /// Write nothing; exit 1 when any output is missing or would change.
        #[arg(long)]
        check: bool,
        /// Significant figures in Markdown tables.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=17))]
        digits: u8,
        /// Skip the time-domain verification.
        #[arg(long)]
        no_verify: bool,
    },
    /// Write a commented example case to start from.
    New {
        /// File to create (`.toml` is added when missing); never overwritten.
        name: PathBuf,
        /// Which example.
        #[arg(long, value_enum, default_value_t = meff::starter::Starter::Planar)]
        template: meff::starter::Starter,
    },
    /// Check the claims of one or more cases; exit status 1 when any fails.
    Check {
        /// Case files.
        #[arg(required = true)]
        cases: Vec<PathBuf>,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Markdown.
    Md,
    /// Self-contained HTML (MathML, inline SVG; the math font beside it).
    Html,
    /// JSON (SPEC §4).
    Json,
}

impl Format {
    fn extension(self) -> &'static str {
        match self {
            Format::Md => "md",
            Format::Html => "html",
            Format::Json => "json",
        }
    }
}

const EXIT_CLAIM_FAILED: u8 = 1;
const EXIT_BAD_INPUT: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Eval {
            case,
            json,
            digits,
            no_verify,
        } => eval(&case, json, digits as usize, !no_verify),
        Command::Check { cases } => check(&cases),
        Command::New { name, template } => new_case(&name, template),
        Command::Report {
            paths,
            out,
            format,
            check,
            digits,
            no_verify,
            templates,
        } => report(
            &paths,
            &out,
            &format,
            check,
            digits as usize,
            !no_verify,
            templates.as_deref(),
        ),
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

fn load_and_evaluate(path: &std::path::Path, verify: bool) -> Result<meff::Evaluated, meff::Error> {
    let case = meff::case::load(path)?;
    if !verify {
        return meff::evaluate(case);
    }
    // A progress bar on stderr while the simulations run (hidden when
    // stderr is not a terminal).
    let bar = indicatif::ProgressBar::new(100);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{prefix} [{bar:30}] {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_prefix(path.display().to_string());
    let progress = |stage: &str, done: f64| {
        bar.set_message(stage.to_string());
        bar.set_position((done * 100.0) as u64);
    };
    let result = meff::evaluate_with(
        case,
        meff::Options {
            verify: true,
            progress: Some(&progress),
        },
    );
    bar.finish_and_clear();
    result
}

fn eval(path: &std::path::Path, json: bool, digits: usize, verify: bool) -> ExitCode {
    let evaluated = match load_and_evaluate(path, verify) {
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
        let evaluated = match load_and_evaluate(path, false) {
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

fn report(
    paths: &[PathBuf],
    out: &std::path::Path,
    formats: &[Format],
    check: bool,
    digits: usize,
    verify: bool,
    templates_dir: Option<&std::path::Path>,
) -> ExitCode {
    let templates = match meff::render::templates::Templates::load(templates_dir) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: templates: {e}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let files = match meff::output::case_files(paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: cannot list cases: {e}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    if files.is_empty() {
        eprintln!(
            "error: no case files (*.toml) in {}",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    let mut bad_input = false;
    let mut failed_claims = false;
    // Every output as (path, bytes): written or checked in one place.
    let mut outputs: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut index = Vec::new();
    for file in &files {
        let evaluated = match load_and_evaluate(file, verify) {
            Ok(e) => e,
            Err(e) => {
                print_error(&e);
                bad_input = true;
                continue;
            }
        };
        let report = &evaluated.report;
        failed_claims |= report.any_claim_failed();
        let stem = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        index.push(meff::render::templates::index_entry(report, &stem));
        for format in formats {
            let text = match format {
                Format::Md => templates.report_md(report, digits),
                Format::Html => templates.report_html(report, digits),
                Format::Json => Ok(render::json(report)),
            };
            match text {
                Ok(t) => outputs.push((
                    out.join(format!("{stem}.{}", format.extension())),
                    t.into_bytes(),
                )),
                Err(e) => {
                    eprintln!("error: rendering {}: {e}", file.display());
                    return ExitCode::from(EXIT_BAD_INPUT);
                }
            }
        }
    }
    if files.len() > 1 {
        for (format, html) in [(Format::Md, false), (Format::Html, true)] {
            if formats.contains(&format) {
                match templates.index(&index, html) {
                    Ok(t) => outputs.push((
                        out.join(format!("index.{}", format.extension())),
                        t.into_bytes(),
                    )),
                    Err(e) => {
                        eprintln!("error: rendering the index: {e}");
                        return ExitCode::from(EXIT_BAD_INPUT);
                    }
                }
            }
        }
    }
    if formats.contains(&Format::Html) {
        for (name, bytes) in meff::render::templates::ASSETS {
            outputs.push((out.join("assets").join(name), bytes.to_vec()));
        }
    }
    let mut stale = 0;
    for (target, bytes) in &outputs {
        if check {
            match meff::output::freshness(target, bytes) {
                meff::output::Freshness::Current => {}
                meff::output::Freshness::Stale => {
                    println!("stale: {}", target.display());
                    stale += 1;
                }
                meff::output::Freshness::Missing => {
                    println!("missing: {}", target.display());
                    stale += 1;
                }
            }
            continue;
        }
        let written = target
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| meff::output::write_atomic(target, bytes));
        if let Err(e) = written {
            eprintln!("error: cannot write {}: {e}", target.display());
            return ExitCode::from(EXIT_BAD_INPUT);
        }
        println!("wrote {}", target.display());
    }
    if bad_input {
        ExitCode::from(EXIT_BAD_INPUT)
    } else if stale > 0 || failed_claims {
        if stale > 0 {
            eprintln!("{stale} report file(s) out of date: run `meff report` without --check");
        }
        ExitCode::from(EXIT_CLAIM_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}

fn new_case(name: &std::path::Path, template: meff::starter::Starter) -> ExitCode {
    let path = if name.extension().is_some() {
        name.to_path_buf()
    } else {
        name.with_extension("toml")
    };
    if path.exists() {
        eprintln!(
            "error: {} exists; meff new never overwrites a file",
            path.display()
        );
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    // create_new refuses to replace a file that appears meanwhile.
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .and_then(|mut f| std::io::Write::write_all(&mut f, template.text().as_bytes()));
    match written {
        Ok(()) => {
            println!(
                "wrote {} ({}); try: meff eval {}",
                path.display(),
                template.describe(),
                path.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", path.display());
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}
