//! Command-line arguments (clap) and the exit statuses.

use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// Effective mass seen by normal contacts in multibody systems, and what it
/// does to penalty-contact time scales.
#[derive(Parser)]
#[command(name = "meff", version, about, long_about = None)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
    /// Refuse case files larger than this many bytes (suffixes K, M, G for
    /// KiB, MiB, GiB).
    #[arg(long, global = true, value_name = "BYTES", default_value = "1G", value_parser = parse_bytes)]
    pub(crate) max_input_bytes: u64,
    /// Read case files, and the models, includes and scene tables they
    /// name, only inside this directory tree (repeatable). For CI jobs
    /// that run cases from untrusted changes.
    #[arg(long, global = true, value_name = "DIR")]
    pub(crate) confine: Vec<PathBuf>,
}

/// `1048576`, `512K`, `100M`, `1G` (binary multiples).
pub(crate) fn parse_bytes(s: &str) -> Result<u64, String> {
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
pub(crate) enum Command {
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
        #[arg(long, default_value_t = meff::number::DEFAULT_DIGITS as u8, value_parser = clap::value_parser!(u8).range(1..=17))]
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
        #[arg(long, default_value_t = meff::number::DEFAULT_DIGITS as u8, value_parser = clap::value_parser!(u8).range(1..=17))]
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
    /// What changed between two revisions: every input and result that
    /// differs, old → new, verdicts that flipped first. Each side is a JSON
    /// document meff wrote (`*.json`) or a case file (evaluated here).
    /// Exit status 0 when nothing changed, 1 when something did.
    Diff {
        /// The old revision: a meff JSON document or a case file.
        old: PathBuf,
        /// The new revision.
        new: PathBuf,
        /// Print the differences as JSON.
        #[arg(long)]
        json: bool,
        /// Relative change below which two numbers count as equal.
        #[arg(long, default_value_t = meff::revision::DEFAULT_TOLERANCE)]
        tolerance: f64,
        /// Significant figures in the table.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=17))]
        digits: u8,
        /// Run the verification when evaluating a case file (its verdict is
        /// then compared too).
        #[arg(long)]
        verify: bool,
    },
    /// The live sheet: serves the case's HTML sheet on localhost and
    /// rebuilds it when the case or a file it names changes (the page
    /// reloads itself; errors show in the page, located). Writes nothing.
    Watch {
        /// The case file.
        case: PathBuf,
        /// Address to listen on (127.0.0.1: this machine only).
        #[arg(long, default_value = "127.0.0.1")]
        bind: String,
        /// Port (0: any free port; the first line printed says which).
        #[arg(long, default_value_t = 8000)]
        port: u16,
        /// Run the verification at every rebuild (slower).
        #[arg(long)]
        verify: bool,
        /// Significant figures in the sheet.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=17))]
        digits: u8,
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
pub(crate) struct BatchArgs {
    #[command(subcommand)]
    pub(crate) command: Option<BatchCommand>,
    /// Case files, or directories of `*.toml` case files (expanded and
    /// sorted the same way by every shard).
    pub(crate) paths: Vec<PathBuf>,
    /// Evaluate only the K-th of N round-robin parts of the list and write
    /// DIR/shard-K-of-N.jsonl; without it, the whole list and the summary.
    #[arg(long, value_name = "K/N")]
    pub(crate) shard: Option<meff::batch::Shard>,
    /// Output directory.
    #[arg(short = 'o', long = "out", value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// Skip the time-domain verification.
    #[arg(long)]
    pub(crate) no_verify: bool,
}

#[derive(Subcommand)]
pub(crate) enum BatchCommand {
    /// Check that DIR holds every shard of one list, and write the summary
    /// (batch.json, batch.md, batch.html) there.
    Merge {
        /// The directory the shards were written to.
        dir: PathBuf,
    },
}

#[derive(Subcommand)]
pub(crate) enum MdbookCommand {
    /// Exit 0 when the renderer is supported (mdBook asks before each build).
    Supports {
        /// The renderer's name (`html`, `markdown`, …).
        renderer: String,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum EvalFormat {
    /// A table.
    Text,
    /// The JSON document (docs/json.md).
    Json,
    /// JSON Lines: one case line, then one line per listed contact.
    Jsonl,
}

pub(crate) use meff::render::Format;

pub(crate) const EXIT_CLAIM_FAILED: u8 = 1;
pub(crate) const EXIT_BAD_INPUT: u8 = 2;
