//! `meff batch` and `meff batch merge`.

use crate::args::*;
use crate::common::*;
use crate::eval::plain_error;
use std::process::ExitCode;

pub(crate) fn batch(args: BatchArgs, limit: u64) -> ExitCode {
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
            digits: None,
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
pub(crate) fn batch_status(records: &[meff::batch::CaseRecord]) -> ExitCode {
    if records.iter().any(|r| r.status != "ok") {
        ExitCode::from(EXIT_BAD_INPUT)
    } else if records.iter().any(|r| r.claims_failed > 0) {
        ExitCode::from(EXIT_CLAIM_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}

pub(crate) fn write_batch_summary(merged: &meff::batch::Merged, dir: &std::path::Path) -> ExitCode {
    if let Err(e) = meff::output::write_all(&merged.outputs(dir)) {
        error(&format!("{e}; nothing was written"));
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    print_batch_summary(merged, dir);
    batch_status(&merged.records)
}

pub(crate) fn print_batch_summary(merged: &meff::batch::Merged, dir: &std::path::Path) {
    let s = merged.summary();
    let mut text = format!("{} cases, {} could not be evaluated", s.cases, s.errors);
    if let Some(w) = s.worst_case {
        text.push_str(&format!(
            "; smallest coupled stable Δt {} in {}",
            meff::number::time(w.stable_dt.unwrap_or(0.0), meff::number::DEFAULT_DIGITS),
            meff::diag::escape_controls(&w.case)
        ));
    }
    text.push_str(&format!(
        "\nwrote {}/batch.json, batch.md, batch.html\n",
        shown(dir)
    ));
    let _ = Stdout::new().print(&text);
}
