//! The `meff` command line: parses arguments, calls the library, prints
//! results and diagnostics, and picks the exit status (0 success, 1 a claim
//! failed, 2 bad input or usage). Only this file prints or exits.

use clap::{Parser, Subcommand};
use meff::render;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Large blocks on transparent huge pages (see `meff::hugepages`).
#[global_allocator]
static ALLOCATOR: meff::hugepages::HugePages = meff::hugepages::HugePages;

/// Effective mass seen by normal contacts in multibody systems, and what it
/// does to penalty-contact time scales.
#[derive(Parser)]
#[command(name = "meff", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Refuse case files larger than this many bytes (suffixes K, M, G for
    /// KiB, MiB, GiB).
    #[arg(long, global = true, value_name = "BYTES", default_value = "1G", value_parser = parse_bytes)]
    max_input_bytes: u64,
}

/// `1048576`, `512K`, `100M`, `1G` (binary multiples).
fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s
        .trim()
        .trim_end_matches(['B', 'b'])
        .trim_end_matches(['i', 'I']);
    let (digits, shift) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 10),
        Some('m' | 'M') => (&t[..t.len() - 1], 20),
        Some('g' | 'G') => (&t[..t.len() - 1], 30),
        _ => (t, 0),
    };
    digits
        .trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1u64 << shift))
        .ok_or_else(|| format!("`{s}` is not a size such as 1048576, 512K, 100M or 1G"))
}

#[derive(Subcommand)]
enum Command {
    /// Analyse one case and print the results (a table, or JSON).
    Eval {
        /// The case file (TOML), or `-` for standard input.
        case: PathBuf,
        /// Print the JSON document (SI units) instead of a table: the same
        /// as `--format json`.
        #[arg(long, conflicts_with = "format")]
        json: bool,
        /// Output: a table for people, the JSON document, or JSON Lines (a
        /// case line, then one line per listed contact).
        #[arg(long, value_enum, default_value_t = EvalFormat::Text)]
        format: EvalFormat,
        /// Which contacts are listed one by one: `all`, `none`, or `worst:N`
        /// (the N with the highest independent ω). Default: all up to 2000
        /// contacts, worst:20 above.
        #[arg(long, value_name = "all|none|worst:N")]
        contacts: Option<meff::report::ContactSelection>,
        /// List every generalized velocity in `model.dofs` (by default only
        /// for systems up to 2000 contacts).
        #[arg(long)]
        dofs: bool,
        /// Significant figures in the table.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=17))]
        digits: u8,
        /// Skip the time-domain verification.
        #[arg(long)]
        no_verify: bool,
        /// Show only what this engine does with the case's contacts (its
        /// `[engine.NAME]` table, or the engine's defaults when the case
        /// has none).
        #[arg(long, value_name = "NAME", value_parser = clap::builder::PossibleValuesParser::new(meff::case::ENGINE_NAMES))]
        engine: Option<String>,
    },
    /// Write a report per case (HTML, Markdown and JSON by default) and an index into a directory.
    Report {
        /// Case files, or directories of `*.toml` case files.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Output directory.
        #[arg(short = 'o', long = "out", default_value = "reports")]
        out: PathBuf,
        /// Comma-separated formats: md, html, json, pdf.
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
    /// Evaluate many cases as one of N shards (JSON Lines in DIR), or
    /// merge the shards: `meff batch merge DIR` (docs/batch.md).
    Batch(BatchArgs),
    /// Write a commented example case to start from.
    New {
        /// File to create (`.toml` is added when missing); never overwritten.
        name: PathBuf,
        /// Which example.
        #[arg(long, value_enum, default_value_t = meff::starter::Starter::Planar)]
        template: meff::starter::Starter,
    },
    /// mdBook preprocessor: replaces `{{#meff case.toml}}` and ```meff blocks
    /// in a book's chapters with the case's report (see docs/mdbook.md).
    Mdbook {
        #[command(subcommand)]
        supports: Option<MdbookCommand>,
    },
    /// Check the claims of one or more cases; exit status 1 when any fails
    /// or cannot be decided.
    Check {
        /// Case files, or directories of `*.toml` case files.
        #[arg(required = true)]
        cases: Vec<PathBuf>,
        /// Show the full evidence of a failed claim (the simplified
        /// difference, every parameter of the counterexample).
        #[arg(long, short = 'v')]
        verbose: bool,
    },
}

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
struct BatchArgs {
    #[command(subcommand)]
    command: Option<BatchCommand>,
    /// Case files, or directories of `*.toml` case files (expanded and
    /// sorted the same way by every shard).
    paths: Vec<PathBuf>,
    /// Evaluate only the K-th of N round-robin parts of the list and write
    /// DIR/shard-K-of-N.jsonl; without it, the whole list and the summary.
    #[arg(long, value_name = "K/N")]
    shard: Option<meff::batch::Shard>,
    /// Output directory.
    #[arg(short = 'o', long = "out", value_name = "DIR")]
    out: Option<PathBuf>,
    /// Skip the time-domain verification.
    #[arg(long)]
    no_verify: bool,
}

#[derive(Subcommand)]
enum BatchCommand {
    /// Check that DIR holds every shard of one list, and write the summary
    /// (batch.json, batch.md, batch.html) there.
    Merge {
        /// The directory the shards were written to.
        dir: PathBuf,
    },
}

#[derive(Subcommand)]
enum MdbookCommand {
    /// Exit 0 when the renderer is supported (mdBook asks before each build).
    Supports {
        /// The renderer's name (`html`, `markdown`, …).
        renderer: String,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum EvalFormat {
    /// A table.
    Text,
    /// The JSON document (docs/json.md).
    Json,
    /// JSON Lines: one case line, then one line per listed contact.
    Jsonl,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Markdown.
    Md,
    /// Self-contained HTML (MathML, inline SVG; the math font beside it).
    Html,
    /// JSON (SI units; the same document as `eval --json`).
    Json,
    /// PDF, typeset offline (A4; formulas as math, plots as vector graphics).
    Pdf,
}

impl Format {
    fn extension(self) -> &'static str {
        match self {
            Format::Md => "md",
            Format::Html => "html",
            Format::Pdf => "pdf",
            Format::Json => "json",
        }
    }
}

const EXIT_CLAIM_FAILED: u8 = 1;
const EXIT_BAD_INPUT: u8 = 2;

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
        } => eval(
            &case,
            EvalOptions {
                format: if json { EvalFormat::Json } else { format },
                contacts,
                engine: engine
                    .and_then(|e| meff::case::ENGINE_NAMES.iter().copied().find(|n| *n == e)),
                dofs,
                digits: digits as usize,
                verify: !no_verify,
                limit,
            },
        ),
        Command::Check { cases, verbose } => check(&cases, limit, verbose),
        Command::New { name, template } => new_case(&name, template),
        Command::Batch(args) => batch(args, limit),
        Command::Mdbook { supports } => mdbook(supports),
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
            ReportOptions {
                check,
                digits: digits as usize,
                verify: !no_verify,
                templates: templates.as_deref(),
                limit,
            },
        ),
    }
}

/// Standard output that ends quietly when the reader goes away (`| head`)
/// and reports any other failure (a full disk) as an error.
struct Stdout {
    closed: bool,
}

impl Stdout {
    fn new() -> Stdout {
        Stdout { closed: false }
    }

    /// Writes `text`; `Err` (exit 2) when the output cannot be written for
    /// a reason other than a closed pipe.
    fn print(&mut self, text: &str) -> Result<(), ExitCode> {
        self.stream(|out| out.write_all(text.as_bytes()))
    }

    /// Writes what `write` produces through a buffer, as it is produced.
    fn stream(
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
fn error(message: &str) {
    let _ = writeln!(
        std::io::stderr(),
        "error: {}",
        meff::diag::terminal_text(message)
    );
}

/// A path as shown in messages: control characters escaped.
fn shown(path: &std::path::Path) -> String {
    meff::diag::escape_controls(&path.display().to_string()).into_owned()
}

fn print_error(e: &meff::Error) {
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

/// What a report lists one by one.
#[derive(Clone, Copy, Default)]
struct Listing {
    /// Contacts (default: all up to the dense limit, the fastest 20 above).
    contacts: Option<meff::report::ContactSelection>,
    /// Every generalized velocity, even on the large-system path.
    dofs: bool,
    /// An engine to translate even when the case has no table for it.
    engine: Option<&'static str>,
}

fn load_and_evaluate(
    path: &std::path::Path,
    verify: bool,
    limit: u64,
) -> Result<meff::Evaluated, meff::Error> {
    load_and_evaluate_listing(path, verify, limit, Listing::default())
}

fn load_and_evaluate_listing(
    path: &std::path::Path,
    verify: bool,
    limit: u64,
    listing: Listing,
) -> Result<meff::Evaluated, meff::Error> {
    let mut case = meff::case::load_limited(path, limit)?;
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
        },
    );
    bar.finish_and_clear();
    result
}

/// What `meff eval` prints.
struct EvalOptions {
    format: EvalFormat,
    contacts: Option<meff::report::ContactSelection>,
    engine: Option<&'static str>,
    dofs: bool,
    digits: usize,
    verify: bool,
    limit: u64,
}

fn eval(path: &std::path::Path, o: EvalOptions) -> ExitCode {
    let listing = Listing {
        contacts: o.contacts,
        dofs: o.dofs,
        engine: o.engine,
    };
    let evaluated = match load_and_evaluate_listing(path, o.verify, o.limit, listing) {
        Ok(e) => e,
        Err(e) => {
            print_error(&e);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    meff::timing::mark("evaluate");
    let mut evaluated = evaluated;
    let failed = evaluated.report.any_claim_failed();
    let report = &mut evaluated.report;
    if let Some(name) = o.engine {
        let Some(e) = report.engines.iter().find(|e| e.engine == name) else {
            error(&format!(
                "{}: engines are translated for systems analysed densely, not on the large-system path",
                shown(path)
            ));
            return ExitCode::from(EXIT_BAD_INPUT);
        };
        let written = match o.format {
            EvalFormat::Text => {
                Stdout::new().print(&meff::diag::terminal_text(&render::text::sections_text(
                    &report.title,
                    &render::engine_text::sections(e, o.digits),
                )))
            }
            _ => Stdout::new().stream(|w| {
                serde_json::to_writer_pretty(&mut *w, e).map_err(std::io::Error::other)?;
                writeln!(w)
            }),
        };
        if let Err(code) = written {
            return code;
        }
        return if failed {
            ExitCode::from(EXIT_CLAIM_FAILED)
        } else {
            ExitCode::SUCCESS
        };
    }
    let written = match o.format {
        EvalFormat::Text => Stdout::new().print(&meff::diag::terminal_text(
            &render::text::summary(report, o.digits),
        )),
        EvalFormat::Json => Stdout::new().stream(|w| render::json_to(report, w)),
        EvalFormat::Jsonl => Stdout::new().stream(|w| render::jsonl_to(report, w)),
    };
    if let Err(code) = written {
        return code;
    }
    meff::timing::mark("output");
    // The process ends here: the evaluated case is left for the operating
    // system to reclaim (freeing 10⁷ small allocations one by one took
    // longer than writing the output at 10⁶ contacts). Output is flushed.
    std::mem::forget(evaluated);
    if failed {
        ExitCode::from(EXIT_CLAIM_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}

/// An error as plain text (no colour), for records and logs.
fn plain_error(e: &meff::Error) -> String {
    match e {
        meff::Error::Input(src) => {
            meff::diag::render(&src.path, &src.source, &src.diagnostics, false)
        }
        other => other.to_string(),
    }
}

fn batch(args: BatchArgs, limit: u64) -> ExitCode {
    use meff::batch::{CaseRecord, Header, Merged, Shard};
    if let Some(BatchCommand::Merge { dir }) = args.command {
        return match meff::batch::merge(&dir, limit) {
            Ok(merged) => write_batch_summary(&merged, &dir),
            Err(e) => {
                error(&format!("{e}; nothing was written"));
                ExitCode::from(EXIT_BAD_INPUT)
            }
        };
    }
    let Some(out) = args.out else {
        error("meff batch needs --out DIR (where the shard and summary files go)");
        return ExitCode::from(EXIT_BAD_INPUT);
    };
    if args.paths.is_empty() {
        error("meff batch needs case files or directories (or `merge DIR`)");
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    let files = match meff::output::case_files(&args.paths) {
        Ok(f) => f,
        Err(e) => {
            error(&format!("cannot list cases: {e}"));
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let shard = args.shard.unwrap_or(Shard::ALL);
    let header = Header {
        record: "shard".into(),
        shard: shard.k,
        shards: shard.n,
        cases: files.len(),
        list_sha256: meff::batch::list_sha256(&names),
    };
    let mut records = Vec::new();
    for i in shard.positions(files.len()) {
        let listing = Listing {
            contacts: Some(meff::report::ContactSelection::Worst(
                meff::batch::WORST_PER_CASE,
            )),
            dofs: false,
            engine: None,
        };
        let record = match load_and_evaluate_listing(&files[i], !args.no_verify, limit, listing) {
            Ok(ev) => CaseRecord::ok(i, &names[i], &ev.report),
            Err(e) => {
                print_error(&e);
                CaseRecord::failed(i, &names[i], &plain_error(&e))
            }
        };
        records.push(record);
    }
    let shard_file = (
        out.join(shard.file_name()),
        meff::batch::shard_text(&header, &records).into_bytes(),
    );
    if args.shard.is_some() {
        if let Err(e) = meff::output::write_all(&[shard_file]) {
            error(&format!("{e}; nothing was written"));
            return ExitCode::from(EXIT_BAD_INPUT);
        }
        return batch_status(&records);
    }
    // The whole list in one run: the shard and the summary together.
    let merged = Merged { records };
    let mut outputs = vec![shard_file];
    outputs.extend(merged.outputs(&out));
    if let Err(e) = meff::output::write_all(&outputs) {
        error(&format!("{e}; nothing was written"));
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    print_batch_summary(&merged, &out);
    batch_status(&merged.records)
}

/// Exit status of a batch: 2 when a case could not be evaluated, 1 when a
/// claim did not pass, 0 otherwise.
fn batch_status(records: &[meff::batch::CaseRecord]) -> ExitCode {
    if records.iter().any(|r| r.status != "ok") {
        ExitCode::from(EXIT_BAD_INPUT)
    } else if records.iter().any(|r| r.claims_failed > 0) {
        ExitCode::from(EXIT_CLAIM_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}

fn write_batch_summary(merged: &meff::batch::Merged, dir: &std::path::Path) -> ExitCode {
    if let Err(e) = meff::output::write_all(&merged.outputs(dir)) {
        error(&format!("{e}; nothing was written"));
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    print_batch_summary(merged, dir);
    batch_status(&merged.records)
}

fn print_batch_summary(merged: &meff::batch::Merged, dir: &std::path::Path) {
    let s = merged.summary();
    let mut text = format!("{} cases, {} could not be evaluated", s.cases, s.errors);
    if let Some(w) = s.worst_case {
        text.push_str(&format!(
            "; smallest coupled stable Δt {} in {}",
            meff::render::number::time(w.stable_dt.unwrap_or(0.0), 4),
            meff::diag::escape_controls(&w.case)
        ));
    }
    text.push_str(&format!(
        "\nwrote {}/batch.json, batch.md, batch.html\n",
        shown(dir)
    ));
    let _ = Stdout::new().print(&text);
}

fn check(paths: &[PathBuf], limit: u64, verbose: bool) -> ExitCode {
    let files = match meff::output::case_files(paths) {
        Ok(f) if !f.is_empty() => f,
        Ok(_) => {
            error("no case files (*.toml) given");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
        Err(e) => {
            error(&format!("cannot list cases: {e}"));
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let mut out = Stdout::new();
    let mut bad_input = false;
    let mut failed = false;
    for path in &files {
        let evaluated = match load_and_evaluate(path, false, limit) {
            Ok(e) => e,
            Err(e) => {
                print_error(&e);
                bad_input = true;
                continue;
            }
        };
        let claims = &evaluated.report.claims;
        let passed = claims.iter().filter(|c| c.passed == Some(true)).count();
        let mut text = format!(
            "{}: {passed} of {} claims passed\n",
            shown(path),
            claims.len()
        );
        for c in claims {
            let mark = match c.passed {
                Some(true) => "PASS",
                Some(false) => "FAIL",
                None => "UNDECIDED",
            };
            // At most three lines a claim unless --verbose.
            text.push_str(&format!("  {mark}  {} = {}  [{}]\n", c.of, c.equals, c.how));
            if let Some(msg) = &c.message {
                text.push_str(&format!("        {msg}\n"));
            }
            if c.passed != Some(true)
                && let Some(point) = &c.counterexample
            {
                let shown = if verbose {
                    point.len()
                } else {
                    point.len().min(6)
                };
                let mut list: Vec<String> = point[..shown]
                    .iter()
                    .map(|p| format!("{} = {}", p.name, meff::render::number::sig(p.value, 6)))
                    .collect();
                if shown < point.len() {
                    list.push(format!("… ({} more with --verbose)", point.len() - shown));
                }
                text.push_str(&format!("        where (SI): {}\n", list.join(", ")));
            }
            if verbose && let Some(details) = &c.details {
                text.push_str(&format!("        {details}\n"));
            }
        }
        if let Err(code) = out.print(&meff::diag::terminal_text(&text)) {
            return code;
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

struct ReportOptions<'a> {
    check: bool,
    digits: usize,
    verify: bool,
    templates: Option<&'a std::path::Path>,
    limit: u64,
}

/// `meff report`: every case is read and every output rendered before
/// anything is written; bad input anywhere writes nothing (exit 2).
fn report(
    paths: &[PathBuf],
    out: &std::path::Path,
    formats: &[Format],
    options: ReportOptions,
) -> ExitCode {
    if out.exists() && !out.is_dir() {
        error(&format!(
            "-o {} is a file; it must be a directory (created when missing)",
            shown(out)
        ));
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    let templates = match meff::render::templates::Templates::load(options.templates) {
        Ok(t) => t,
        Err(e) => {
            error(&format!("templates: {e}"));
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let files = match meff::output::case_files(paths) {
        Ok(f) => f,
        Err(e) => {
            error(&format!("cannot list cases: {e}"));
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    if files.is_empty() {
        error(&format!(
            "no case files (*.toml) in {}",
            paths
                .iter()
                .map(|p| shown(p))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    // 1. Name every output and refuse collisions before any work.
    let stems: Vec<String> = files
        .iter()
        .map(|f| {
            f.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
        .collect();
    let with_index = files.len() > 1;
    let mut targets: Vec<(PathBuf, String)> = Vec::new();
    for (file, stem) in files.iter().zip(&stems) {
        for format in formats {
            targets.push((
                out.join(format!("{stem}.{}", format.extension())),
                shown(file),
            ));
        }
    }
    if with_index {
        for format in [Format::Md, Format::Html, Format::Pdf] {
            if formats.contains(&format) {
                targets.push((
                    out.join(format!("index.{}", format.extension())),
                    "the index".into(),
                ));
            }
        }
    }
    let collisions =
        meff::output::collisions(targets.iter().map(|(t, s)| (t.as_path(), s.as_str())));
    if !collisions.is_empty() {
        // One message per pair of sources (not per format).
        let mut said = std::collections::BTreeSet::new();
        for c in &collisions {
            if !said.insert((c.first.clone(), c.second.clone())) {
                continue;
            }
            error(&format!(
                "{} and {} would both write {}; rename one of them",
                c.first,
                c.second,
                shown(&c.target)
            ));
        }
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    // 2. Read and evaluate every case; any bad input stops before writing.
    let mut evaluated = Vec::with_capacity(files.len());
    let mut bad_input = false;
    for file in &files {
        match load_and_evaluate(file, options.verify, options.limit) {
            Ok(e) => evaluated.push(e),
            Err(e) => {
                print_error(&e);
                bad_input = true;
            }
        }
    }
    if bad_input {
        error("bad input: nothing was written");
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    // 3. Render everything in memory.
    let mut outputs: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut index = Vec::new();
    let mut failed_claims = false;
    for ((ev, stem), file) in evaluated.iter().zip(&stems).zip(&files) {
        let report = &ev.report;
        failed_claims |= report.any_claim_failed();
        index.push(meff::render::templates::index_entry(report, stem));
        for format in formats {
            let bytes = match format {
                Format::Md => templates
                    .report_md(report, options.digits)
                    .map(String::into_bytes),
                Format::Html => templates
                    .report_html(report, options.digits)
                    .map(String::into_bytes),
                Format::Json => Ok(render::json(report).into_bytes()),
                Format::Pdf => pdf_report(&templates, report, options.digits),
            };
            match bytes {
                Ok(t) => outputs.push((out.join(format!("{stem}.{}", format.extension())), t)),
                Err(e) => {
                    error(&format!("rendering {}: {e}", shown(file)));
                    return ExitCode::from(EXIT_BAD_INPUT);
                }
            }
        }
    }
    if with_index {
        for (format, html) in [(Format::Md, false), (Format::Html, true)] {
            if formats.contains(&format) {
                match templates.index(&index, html) {
                    Ok(t) => outputs.push((
                        out.join(format!("index.{}", format.extension())),
                        t.into_bytes(),
                    )),
                    Err(e) => {
                        error(&format!("rendering the index: {e}"));
                        return ExitCode::from(EXIT_BAD_INPUT);
                    }
                }
            }
        }
        if formats.contains(&Format::Pdf) {
            match pdf_index(&templates, &index) {
                Ok(bytes) => outputs.push((out.join("index.pdf"), bytes)),
                Err(e) => {
                    error(&format!("rendering the index: {e}"));
                    return ExitCode::from(EXIT_BAD_INPUT);
                }
            }
        }
    }
    if formats.contains(&Format::Html) {
        for (name, bytes) in meff::render::templates::ASSETS {
            outputs.push((out.join("assets").join(name), bytes.to_vec()));
        }
    }
    // 4. Check, or write all or nothing.
    let mut stdout = Stdout::new();
    let mut stale = 0;
    if options.check {
        let mut text = String::new();
        for (target, bytes) in &outputs {
            match meff::output::freshness(target, bytes) {
                meff::output::Freshness::Current => {}
                meff::output::Freshness::Stale => {
                    text.push_str(&format!("stale: {}\n", shown(target)));
                    stale += 1;
                }
                meff::output::Freshness::Missing => {
                    text.push_str(&format!("missing: {}\n", shown(target)));
                    stale += 1;
                }
            }
        }
        if let Err(code) = stdout.print(&text) {
            return code;
        }
    } else {
        match meff::output::write_all(&outputs) {
            Ok(written) => {
                let text: String = written
                    .iter()
                    .map(|p| format!("wrote {}\n", shown(p)))
                    .collect();
                if let Err(code) = stdout.print(&text) {
                    return code;
                }
            }
            Err(e) => {
                error(&format!("{e}; nothing was written"));
                return ExitCode::from(EXIT_BAD_INPUT);
            }
        }
    }
    if stale > 0 || failed_claims {
        if stale > 0 {
            error(&format!(
                "{stale} report file(s) out of date: run `meff report` without --check"
            ));
        }
        ExitCode::from(EXIT_CLAIM_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(feature = "pdf")]
fn pdf_report(
    templates: &meff::render::templates::Templates,
    report: &meff::report::Report,
    digits: usize,
) -> Result<Vec<u8>, meff::render::templates::TemplateError> {
    templates.report_pdf(report, digits)
}

#[cfg(feature = "pdf")]
fn pdf_index(
    templates: &meff::render::templates::Templates,
    index: &[serde_json::Value],
) -> Result<Vec<u8>, meff::render::templates::TemplateError> {
    templates.index_pdf(index)
}

#[cfg(not(feature = "pdf"))]
fn pdf_report(
    _: &meff::render::templates::Templates,
    _: &meff::report::Report,
    _: usize,
) -> Result<Vec<u8>, meff::render::templates::TemplateError> {
    Err(meff::render::templates::TemplateError(
        "this meff was built without PDF support (cargo feature `pdf`)".into(),
    ))
}

#[cfg(not(feature = "pdf"))]
fn pdf_index(
    _: &meff::render::templates::Templates,
    _: &[serde_json::Value],
) -> Result<Vec<u8>, meff::render::templates::TemplateError> {
    Err(meff::render::templates::TemplateError(
        "this meff was built without PDF support (cargo feature `pdf`)".into(),
    ))
}

fn mdbook(supports: Option<MdbookCommand>) -> ExitCode {
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
            ExitCode::from(1)
        }
    }
}

fn new_case(name: &std::path::Path, template: meff::starter::Starter) -> ExitCode {
    let path = if name.extension().is_some() {
        name.to_path_buf()
    } else {
        name.with_extension("toml")
    };
    // A model the case reads sits beside it: `<stem>-model.xml`.
    let model = template.model_file().map(|(ext, text)| {
        let stem = path.file_stem().unwrap_or_default().to_string_lossy();
        (path.with_file_name(format!("{stem}-model.{ext}")), text)
    });
    for p in std::iter::once(&path).chain(model.as_ref().map(|(p, _)| p)) {
        if p.exists() {
            error(&format!(
                "{} exists; meff new never overwrites a file",
                shown(p)
            ));
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    }
    let mut text = template.text().to_string();
    if let Some((p, _)) = &model {
        let file = p.file_name().unwrap_or_default().to_string_lossy();
        text = text.replace("{{model}}", &file);
    }
    // create_new refuses to replace a file that appears meanwhile.
    let create = |p: &std::path::Path, bytes: &str| {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(p)
            .and_then(|mut f| std::io::Write::write_all(&mut f, bytes.as_bytes()))
    };
    let written = match &model {
        Some((p, body)) => create(p, body).and_then(|()| {
            create(&path, &text).inspect_err(|_| {
                let _ = std::fs::remove_file(p);
            })
        }),
        None => create(&path, &text),
    };
    match written {
        Ok(()) => {
            let also = model
                .as_ref()
                .map(|(p, _)| format!(" and {}", shown(p)))
                .unwrap_or_default();
            let text = format!(
                "wrote {}{also} ({}); try: meff eval {}\n",
                shown(&path),
                template.describe(),
                shown(&path)
            );
            match Stdout::new().print(&text) {
                Ok(()) => ExitCode::SUCCESS,
                Err(code) => code,
            }
        }
        Err(e) => {
            error(&format!("cannot write {}: {e}", shown(&path)));
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}
