//! Batches of cases across processes and machines: deterministic shards
//! written as JSON Lines, and their merge into one summary.
//!
//! `meff batch PATHS… --shard K/N --out DIR` evaluates the cases at
//! positions `i` with `i mod N = K − 1` of the expanded, sorted list of
//! PATHS and writes `DIR/shard-K-of-N.jsonl`: a header line naming the
//! shard and a fingerprint of the whole list, then one line per case.
//! `meff batch merge DIR` checks that the shards belong to one list and
//! cover it exactly once, and writes the summary (`batch.json`,
//! `batch.md`, `batch.html`). The summary depends only on the list and
//! the cases, never on how it was sharded: sharded and unsharded runs give
//! the same bytes. Any scheduler that can start N processes with an index
//! runs a batch (examples/batch/); there is no cluster code here.

use crate::report::Report;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Contacts listed per case in a batch record (the fastest).
pub const WORST_PER_CASE: usize = 5;

/// Which part of the list a process evaluates: `K/N`, 1 ≤ K ≤ N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard (1-based).
    pub k: usize,
    /// Number of shards.
    pub n: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("`{s}` is not a shard K/N with 1 ≤ K ≤ N (e.g. 3/8)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n) = (
            k.trim().parse::<usize>().map_err(|_| bad())?,
            n.trim().parse::<usize>().map_err(|_| bad())?,
        );
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl Shard {
    /// The whole list in one shard.
    pub const ALL: Shard = Shard { k: 1, n: 1 };

    /// Positions of the list this shard evaluates (round robin, so that
    /// neighbouring frames of a trajectory spread over the shards).
    pub fn positions(self, total: usize) -> impl Iterator<Item = usize> {
        (self.k - 1..total).step_by(self.n)
    }

    /// The shard's file name in the output directory.
    pub fn file_name(self) -> String {
        format!("shard-{}-of-{}.jsonl", self.k, self.n)
    }
}

/// First line of a shard file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Always `"shard"`.
    pub record: String,
    /// This shard (1-based).
    pub shard: usize,
    /// Number of shards.
    pub shards: usize,
    /// Cases in the whole list.
    pub cases: usize,
    /// SHA-256 of the list of case paths (one per line), so that shards of
    /// different lists are never merged.
    pub list_sha256: String,
}

/// A contact in a batch record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorstContact {
    /// Position in its case.
    pub index: usize,
    /// Name.
    pub name: String,
    /// Independent ω = sqrt(k A_ii) (rad/s).
    pub omega: f64,
    /// Effective mass (kg), `null` when immobile.
    pub m_eff: Option<f64>,
}

/// One case's line in a shard file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseRecord {
    /// Always `"case"`.
    pub record: String,
    /// Position in the list (0-based).
    pub index: usize,
    /// The case path as listed.
    pub case: String,
    /// `"ok"`, or `"error"` when the case could not be read or analysed.
    pub status: String,
    /// The error message, when `status` is `"error"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The case's title.
    #[serde(default)]
    pub title: String,
    /// Number of contacts.
    #[serde(default)]
    pub contacts: usize,
    /// Fastest independent contact frequency (rad/s).
    #[serde(default)]
    pub independent_omega_max: f64,
    /// Fastest coupled mode (rad/s).
    #[serde(default)]
    pub coupled_omega_max: f64,
    /// Coupled stable explicit step 2/ω_max (s), `null` without contacts.
    #[serde(default)]
    pub stable_dt: Option<f64>,
    /// The independent estimate 2/max ω_i (s).
    #[serde(default)]
    pub independent_dt: Option<f64>,
    /// Claims that did not pass.
    #[serde(default)]
    pub claims_failed: usize,
    /// The fastest contacts (highest independent ω), at most
    /// [`WORST_PER_CASE`].
    #[serde(default)]
    pub worst: Vec<WorstContact>,
}

impl CaseRecord {
    /// The record of a case evaluated with `--contacts worst:N`,
    /// N ≥ [`WORST_PER_CASE`].
    pub fn ok(index: usize, case: &str, report: &Report) -> CaseRecord {
        // The report lists the fastest contacts first (`worst:N`).
        let worst = report
            .contacts
            .iter()
            .take(WORST_PER_CASE)
            .map(|c| WorstContact {
                index: c.index,
                name: c.name.clone(),
                omega: c.omega,
                m_eff: c.m_eff,
            })
            .collect();
        CaseRecord {
            record: "case".into(),
            index,
            case: case.into(),
            status: "ok".into(),
            error: None,
            title: report.title.clone(),
            contacts: report.contacts_total,
            independent_omega_max: report.independent_omega_max,
            coupled_omega_max: report.coupled_omega_max,
            stable_dt: report.stable_dt.coupled,
            independent_dt: report.stable_dt.independent,
            claims_failed: report
                .claims
                .iter()
                .filter(|c| c.passed != Some(true))
                .count(),
            worst,
        }
    }

    /// The record of a case that could not be evaluated.
    pub fn failed(index: usize, case: &str, message: &str) -> CaseRecord {
        CaseRecord {
            record: "case".into(),
            index,
            case: case.into(),
            status: "error".into(),
            error: Some(message.into()),
            title: String::new(),
            contacts: 0,
            independent_omega_max: 0.0,
            coupled_omega_max: 0.0,
            stable_dt: None,
            independent_dt: None,
            claims_failed: 0,
            worst: Vec::new(),
        }
    }
}

/// The list's fingerprint: SHA-256 of the paths, one per line.
pub fn list_sha256(paths: &[String]) -> String {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    for p in paths {
        h.update(p.as_bytes());
        h.update(b"\n");
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// A shard file's text: the header, then the records in list order.
pub fn shard_text(header: &Header, records: &[CaseRecord]) -> String {
    let mut s = serde_json::to_string(header).expect("header serializes");
    s.push('\n');
    for r in records {
        s.push_str(&serde_json::to_string(r).expect("record serializes"));
        s.push('\n');
    }
    s
}

/// Why shards cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeError(pub String);

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The shards of one list, checked and in list order.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// Every case, in list order.
    pub records: Vec<CaseRecord>,
}

/// Reads every `shard-K-of-N.jsonl` in `dir` and checks that they are the
/// N shards of one list, each once, covering every case exactly once.
/// Files larger than `limit` bytes are refused.
pub fn merge(dir: &Path, limit: u64) -> Result<Merged, MergeError> {
    let err = |m: String| MergeError(m);
    let entries =
        std::fs::read_dir(dir).map_err(|e| err(format!("cannot list {}: {e}", dir.display())))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("shard-") && n.ends_with(".jsonl"))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(err(format!(
            "no shard files (shard-K-of-N.jsonl) in {}",
            dir.display()
        )));
    }
    // Every file read and its header checked before anything is sized by
    // what a header claims: the claims are bounded by what is on disk.
    let mut shards: Vec<(String, Header, String)> = Vec::with_capacity(files.len());
    for file in &files {
        let shown = file.display().to_string();
        let meta = std::fs::metadata(file).map_err(|e| err(format!("cannot read {shown}: {e}")))?;
        if !meta.is_file() {
            return Err(err(format!("{shown}: not a regular file")));
        }
        if meta.len() > limit {
            return Err(err(format!(
                "{shown}: {} bytes is more than the input limit ({limit}; --max-input-bytes)",
                meta.len()
            )));
        }
        let text =
            std::fs::read_to_string(file).map_err(|e| err(format!("cannot read {shown}: {e}")))?;
        let header: Header = match text.lines().next() {
            Some(l) => serde_json::from_str(l)
                .map_err(|e| err(format!("{shown}:1:{}: not a shard header: {e}", e.column())))?,
            None => return Err(err(format!("{shown}: empty file"))),
        };
        if header.record != "shard" || header.shard == 0 || header.shard > header.shards {
            return Err(err(format!("{shown}:1:1: not a shard header")));
        }
        shards.push((shown, header, text));
    }
    let h = shards[0].1.clone();
    for (shown, header, _) in &shards[1..] {
        if h.shards != header.shards
            || h.cases != header.cases
            || h.list_sha256 != header.list_sha256
        {
            return Err(err(format!(
                "{shown}: shard {}/{} of a list of {} cases does not belong with shard {}/{} of a list of {} cases (different inputs or shard counts)",
                header.shard, header.shards, header.cases, h.shard, h.shards, h.cases
            )));
        }
    }
    let mut seen_shards = std::collections::BTreeSet::new();
    for (shown, header, _) in &shards {
        if !seen_shards.insert(header.shard) {
            return Err(err(format!(
                "{shown}: shard {} appears twice",
                header.shard
            )));
        }
    }
    if h.shards > shards.len() {
        let missing: Vec<String> = (1..=h.shards)
            .filter(|k| !seen_shards.contains(k))
            .take(10)
            .map(|k| format!("{k}/{}", h.shards))
            .collect();
        let more = h.shards - shards.len() - missing.len();
        return Err(err(format!(
            "missing shard{} {}{} in {}: run them before merging",
            if h.shards - shards.len() == 1 {
                ""
            } else {
                "s"
            },
            missing.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            },
            dir.display()
        )));
    }
    let records: usize = shards.iter().map(|s| s.2.lines().count() - 1).sum();
    if h.cases > records {
        return Err(err(format!(
            "the shards hold {records} case records but their list has {} cases (an interrupted or truncated shard? run it again)",
            h.cases
        )));
    }
    let mut slots: Vec<Option<CaseRecord>> = vec![None; h.cases];
    for (shown, header, text) in &shards {
        let shard = Shard {
            k: header.shard,
            n: header.shards,
        };
        let mut expected = shard.positions(header.cases);
        for (n, line) in text.lines().enumerate().skip(1) {
            let rec: CaseRecord = serde_json::from_str(line).map_err(|e| {
                err(format!(
                    "{shown}:{}:{}: not a case record: {e}",
                    n + 1,
                    e.column()
                ))
            })?;
            if rec.record != "case" || expected.next() != Some(rec.index) {
                return Err(err(format!(
                    "{shown}:{}:1: case record out of place (index {}): the file is not what `meff batch --shard {shard}` writes",
                    n + 1,
                    rec.index
                )));
            }
            let at = rec.index;
            slots[at] = Some(rec);
        }
        if let Some(missing) = expected.next() {
            return Err(err(format!(
                "{shown}: ends before case {missing} (an interrupted or truncated shard? run it again)"
            )));
        }
    }
    let records: Option<Vec<CaseRecord>> = slots.into_iter().collect();
    Ok(Merged {
        records: records.ok_or_else(|| err("the shards do not cover the list".into()))?,
    })
}

/// The merged summary document (`batch.json`).
#[derive(Clone, Debug, Serialize)]
pub struct Summary<'a> {
    /// Cases in the list.
    pub cases: usize,
    /// Cases that could not be evaluated.
    pub errors: usize,
    /// The case with the smallest coupled stable step (the one that sets
    /// a common step for all of them), when any has one.
    pub worst_case: Option<&'a CaseRecord>,
    /// Every case, in list order.
    pub records: &'a [CaseRecord],
}

impl Merged {
    /// The summary with its worst case.
    pub fn summary(&self) -> Summary<'_> {
        let worst_case = self
            .records
            .iter()
            .filter(|r| r.stable_dt.is_some())
            .min_by(|a, b| {
                a.stable_dt
                    .unwrap_or(f64::INFINITY)
                    .total_cmp(&b.stable_dt.unwrap_or(f64::INFINITY))
                    .then(a.index.cmp(&b.index))
            });
        Summary {
            cases: self.records.len(),
            errors: self.records.iter().filter(|r| r.status != "ok").count(),
            worst_case,
            records: &self.records,
        }
    }

    /// `batch.json`.
    pub fn json(&self) -> String {
        let mut s = serde_json::to_string_pretty(&self.summary()).expect("summary serializes");
        s.push('\n');
        s
    }

    /// The Δt-over-cases plot.
    fn plot(&self) -> String {
        let series = crate::render::plot::Series {
            label: "coupled stable Δt".into(),
            points: self
                .records
                .iter()
                .filter_map(|r| r.stable_dt.map(|dt| (r.index as f64, dt)))
                .collect(),
            dashed: false,
            markers: false,
        };
        let independent = crate::render::plot::Series {
            label: "independent estimate 2/max ω_i".into(),
            points: self
                .records
                .iter()
                .filter_map(|r| r.independent_dt.map(|dt| (r.index as f64, dt)))
                .collect(),
            dashed: true,
            markers: false,
        };
        crate::render::plot::line_plot(
            &[series, independent],
            "case (position in the list)",
            "stable explicit Δt (s)",
            crate::render::plot::Scale::Linear,
            crate::render::plot::Scale::Linear,
        )
    }

    /// Rows of the summary table: position, case, title, contacts,
    /// ω_max, Δt, the fastest contact (already escaped by `esc`).
    fn rows(&self, esc: impl Fn(&str) -> String) -> Vec<[String; 7]> {
        use crate::number::{DEFAULT_DIGITS, sig, time};
        self.records
            .iter()
            .map(|r| {
                if r.status != "ok" {
                    let e = r.error.as_deref().unwrap_or("");
                    let first = e.lines().next().unwrap_or("");
                    return [
                        r.index.to_string(),
                        esc(&r.case),
                        format!("error: {}", esc(first)),
                        String::new(),
                        String::new(),
                        String::new(),
                        String::new(),
                    ];
                }
                [
                    r.index.to_string(),
                    esc(&r.case),
                    esc(&r.title),
                    r.contacts.to_string(),
                    sig(r.coupled_omega_max, DEFAULT_DIGITS),
                    r.stable_dt.map_or("–".into(), |t| time(t, DEFAULT_DIGITS)),
                    r.worst.first().map_or(String::new(), |w| esc(&w.name)),
                ]
            })
            .collect()
    }

    /// "Smallest coupled stable step: … in case …" in a markup given by
    /// its emphasis, code span and ω_max.
    fn worst_sentence(
        &self,
        strong: (&str, &str),
        code: impl Fn(&str) -> String,
        omega_max: &str,
    ) -> Option<String> {
        let w = self.summary().worst_case?;
        Some(format!(
            "Smallest coupled stable step: {}{}{} in case {} ({}), {omega_max} = {} rad/s.",
            strong.0,
            crate::number::time(w.stable_dt.unwrap_or(0.0), crate::number::DEFAULT_DIGITS),
            strong.1,
            w.index,
            code(&w.case),
            crate::number::sig(w.coupled_omega_max, crate::number::DEFAULT_DIGITS)
        ))
    }

    /// `batch.md`.
    pub fn markdown(&self) -> String {
        let s = self.summary();
        let mut out = format!(
            "# Batch summary\n\n{} cases, {} could not be evaluated.\n\n",
            s.cases, s.errors
        );
        if let Some(line) =
            self.worst_sentence(("**", "**"), crate::render::safe::markdown_code, "ω_max")
        {
            out.push_str(&format!("{line}\n\n"));
        }
        out.push_str("| # | case | title | contacts | ω_max (rad/s) | Δt | fastest contact |\n|---:|---|---|---:|---:|---:|---|\n");
        for row in self.rows(crate::render::safe::markdown_text) {
            out.push_str(&format!("| {} |\n", row.join(" | ")));
        }
        out
    }

    /// `batch.html`: self-contained, no scripts.
    pub fn html(&self) -> String {
        let s = self.summary();
        let esc = crate::render::safe::html_escape;
        let mut out = String::from(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\"><title>Batch summary</title>\n<style>\n",
        );
        out.push_str(include_str!("../templates/style.css"));
        out.push_str("</style></head><body><main>\n<h1>Batch summary</h1>\n");
        out.push_str(&format!(
            "<p>{} cases, {} could not be evaluated.</p>\n",
            s.cases, s.errors
        ));
        if let Some(line) = self.worst_sentence(
            ("<strong>", "</strong>"),
            |c| format!("<code>{}</code>", esc(c)),
            "ω<sub>max</sub>",
        ) {
            out.push_str(&format!("<p>{line}</p>\n"));
        }
        out.push_str(&self.plot());
        out.push_str("\n<table><tr><th>#</th><th>case</th><th>title</th><th>contacts</th><th>ω<sub>max</sub> (rad/s)</th><th>Δt</th><th>fastest contact</th></tr>\n");
        for row in self.rows(esc) {
            out.push_str("<tr>");
            for (i, cell) in row.iter().enumerate() {
                let class = if matches!(i, 0 | 3 | 4 | 5) {
                    " class=\"num\""
                } else {
                    ""
                };
                out.push_str(&format!("<td{class}>{cell}</td>"));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</table>\n</main></body></html>\n");
        out
    }

    /// The three summary files of `dir`.
    pub fn outputs(&self, dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
        vec![
            (dir.join("batch.json"), self.json().into_bytes()),
            (dir.join("batch.md"), self.markdown().into_bytes()),
            (dir.join("batch.html"), self.html().into_bytes()),
        ]
    }
}
