//! A robot program as a CSV table (`[motion] trajectory`): a column `t`
//! (time, s) and one column per joint the program moves, named by joint
//! (hinge values in the motion's angle unit, slide values in m); optional
//! velocity columns `<joint>.v` (per second), one for every joint column.
//! Read with the `csv` crate, the scene reader's helpers; every problem is
//! shown at its `file.csv:line:col` and stops the case.

use super::csv::{raw_record, read_text, reader};
use crate::diag::{Diagnostic, SourceError};
use std::ops::Range;

/// The most samples a program may have (memory: a few dozen bytes per
/// sample and joint).
pub const MAX_SAMPLES: usize = 1_000_000;

/// The most problems reported for one file.
const MAX_PROBLEMS: usize = 20;

/// A joint the table may name: its name, the scale of its column to SI
/// (π/180 for a hinge in degrees) and its range (SI) when the model gives one.
#[derive(Clone, Debug)]
pub(crate) struct JointColumn {
    /// Joint name.
    pub name: String,
    /// Column value × scale = SI value.
    pub scale: f64,
    /// The model's range for the joint (SI), if any.
    pub range: Option<[f64; 2]>,
    /// The joint slides (m), else it turns (rad).
    pub slide: bool,
}

/// The columns of a program, SI.
#[derive(Clone, Debug, Default)]
pub(crate) struct Table {
    /// Sample times (s), strictly increasing.
    pub time: Vec<f64>,
    /// The joints named by the file (indices into the `JointColumn`s given).
    pub joints: Vec<usize>,
    /// Per named joint, its value at every sample (SI).
    pub values: Vec<Vec<f64>>,
    /// Per named joint, its velocity at every sample, when the file gives
    /// velocity columns.
    pub velocities: Option<Vec<Vec<f64>>>,
    /// Values beyond the model's range, each with its place.
    pub warnings: Vec<crate::case::RangeWarning>,
}

/// Why a table could not be read.
#[derive(Debug)]
pub(crate) enum TableError {
    /// The file itself (missing, too large, not UTF-8).
    File(String),
    /// Problems in its text, located.
    Csv(SourceError),
}

struct Problems<'t> {
    text: &'t str,
    list: Vec<Diagnostic>,
}

impl Problems<'_> {
    /// A problem at a cell (`record` 0 is the header).
    fn at(&mut self, record: usize, column: usize, message: String, hint: Option<String>) {
        if self.list.len() >= MAX_PROBLEMS {
            return;
        }
        let span = cell(self.text, record, column);
        self.list
            .push(Diagnostic::new(span, message).maybe_hint(hint));
    }
    fn full(&self) -> bool {
        self.list.len() >= MAX_PROBLEMS
    }
}

/// Byte span of a cell, without blanks around it (the row's end for a
/// cell the row does not have).
fn cell(text: &str, record: usize, column: usize) -> Range<usize> {
    let Some(fields) = raw_record(text, record) else {
        return text.len()..text.len();
    };
    match fields.get(column) {
        Some(r) => {
            let c = &text[r.clone()];
            let lead = c.len() - c.trim_start().len();
            let trail = c.len() - c.trim_end().len();
            if lead + trail < c.len() {
                r.start + lead..r.end - trail
            } else {
                r.clone()
            }
        }
        None => fields.last().map_or(0..0, |r| r.end..r.end),
    }
}

/// `line:col` (1-based, col in characters) of a byte offset.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Where each header column goes.
enum Column {
    Time,
    Value(usize),
    Velocity(usize),
}

/// Reads the program at `path` (shown as `shown`).
pub(crate) fn read(
    path: &std::path::Path,
    shown: &str,
    max_bytes: u64,
    joints: &[JointColumn],
) -> Result<Table, TableError> {
    let text = read_text(path, max_bytes).map_err(TableError::File)?;
    let mut p = Problems {
        text: &text,
        list: Vec::new(),
    };
    let table = parse(&text, shown, joints, &mut p);
    if p.list.is_empty() {
        Ok(table)
    } else {
        Err(TableError::Csv(SourceError {
            path: shown.to_string(),
            source: text.clone(),
            diagnostics: p.list,
        }))
    }
}

fn header(head: &::csv::StringRecord, joints: &[JointColumn], p: &mut Problems) -> Vec<Column> {
    let mut cols = Vec::with_capacity(head.len());
    let mut seen: Vec<&str> = Vec::new();
    let known = || std::iter::once("t").chain(joints.iter().map(|j| j.name.as_str()));
    for (i, h) in head.iter().enumerate() {
        let h = h.trim();
        if seen.contains(&h) {
            p.at(0, i, format!("the header names column `{h}` twice"), None);
        }
        seen.push(h);
        let col = if h == "t" {
            Some(Column::Time)
        } else if let Some(j) = joints.iter().position(|j| j.name == h) {
            Some(Column::Value(j))
        } else {
            h.strip_suffix(".v")
                .and_then(|base| joints.iter().position(|j| j.name == base))
                .map(Column::Velocity)
        };
        match col {
            Some(c) => cols.push(c),
            None => {
                let hint = match crate::diag::closest(h.trim_end_matches(".v"), known()) {
                    Some(b) => format!("did you mean `{b}`?"),
                    None => format!(
                        "the columns are `t`, joint names ({}) and `<joint>.v` for velocities",
                        joints
                            .iter()
                            .map(|j| j.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                p.at(
                    0,
                    i,
                    format!("unknown column `{h}`: the model has no joint of that name"),
                    Some(hint),
                );
                cols.push(Column::Time);
            }
        }
    }
    if !cols.iter().any(|c| matches!(c, Column::Time)) || head.is_empty() {
        p.at(0, 0, "the header has no time column `t`".into(), None);
    }
    let values: Vec<usize> = cols
        .iter()
        .filter_map(|c| match c {
            Column::Value(j) => Some(*j),
            _ => None,
        })
        .collect();
    if values.is_empty() && p.list.is_empty() {
        p.at(
            0,
            0,
            "the header names no joint of the model".into(),
            Some("one column per joint the program moves, named by joint".into()),
        );
    }
    let velocities: Vec<(usize, usize)> = cols
        .iter()
        .enumerate()
        .filter_map(|(i, c)| match c {
            Column::Velocity(j) => Some((i, *j)),
            _ => None,
        })
        .collect();
    if !velocities.is_empty() {
        for (i, j) in &velocities {
            if !values.contains(j) {
                p.at(
                    0,
                    *i,
                    format!(
                        "velocity column `{}.v` without a column `{}`",
                        joints[*j].name, joints[*j].name
                    ),
                    None,
                );
            }
        }
        for j in &values {
            if !velocities.iter().any(|(_, v)| v == j) {
                let i = cols
                    .iter()
                    .position(|c| matches!(c, Column::Value(k) if k == j))
                    .unwrap_or(0);
                p.at(
                    0,
                    i,
                    format!("joint `{}` has no velocity column `{}.v`", joints[*j].name, joints[*j].name),
                    Some("give a velocity column for every joint column, or none (velocities by central differences)".into()),
                );
            }
        }
    }
    cols
}

fn parse(text: &str, shown: &str, joints: &[JointColumn], p: &mut Problems) -> Table {
    let mut rdr = reader(text);
    let head = match rdr.headers() {
        Ok(h) => h.clone(),
        Err(e) => {
            p.at(0, 0, format!("not valid CSV: {e}"), None);
            return Table::default();
        }
    };
    let cols = header(&head, joints, p);
    if !p.list.is_empty() {
        return Table::default();
    }
    let named: Vec<usize> = cols
        .iter()
        .filter_map(|c| match c {
            Column::Value(j) => Some(*j),
            _ => None,
        })
        .collect();
    let with_v = cols.iter().any(|c| matches!(c, Column::Velocity(_)));
    let slot = |j: usize| named.iter().position(|k| *k == j).expect("a named joint");
    let mut t = Table {
        joints: named.clone(),
        values: vec![Vec::new(); named.len()],
        velocities: with_v.then(|| vec![Vec::new(); named.len()]),
        ..Table::default()
    };
    let mut rec = ::csv::StringRecord::new();
    let mut row = 0usize;
    let mut warned = vec![false; joints.len()];
    loop {
        let record = row + 1;
        match rdr.read_record(&mut rec) {
            Ok(true) if row < MAX_SAMPLES => {}
            Ok(true) => {
                p.at(record, 0, format!("more than {MAX_SAMPLES} samples"), None);
                break;
            }
            Ok(false) => break,
            Err(e) => {
                p.at(record, 0, format!("not valid CSV: {e}"), None);
                break;
            }
        }
        if rec.len() != head.len() {
            p.at(
                record,
                rec.len().min(head.len()),
                format!("the row has {} cells, the header {}", rec.len(), head.len()),
                None,
            );
        }
        for (i, c) in cols.iter().enumerate() {
            let Some(text_cell) = rec.get(i).map(str::trim) else {
                continue;
            };
            let x = match text_cell.parse::<f64>() {
                Ok(x) if x.is_finite() => x,
                Ok(_) => {
                    p.at(
                        record,
                        i,
                        format!("`{text_cell}` is not a finite number"),
                        None,
                    );
                    continue;
                }
                Err(_) => {
                    p.at(record, i, format!("`{text_cell}` is not a number"), None);
                    continue;
                }
            };
            match c {
                Column::Time => {
                    if let Some(&prev) = t.time.last()
                        && x <= prev
                    {
                        p.at(
                            record,
                            i,
                            format!("time {x} s does not increase (the row before is at {prev} s)"),
                            Some("the samples of a program are in increasing time".into()),
                        );
                    }
                    t.time.push(x);
                }
                Column::Value(j) => {
                    let si = x * joints[*j].scale;
                    if let Some([lo, hi]) = joints[*j].range
                        && !(lo..=hi).contains(&si)
                        && !warned[*j]
                    {
                        warned[*j] = true;
                        let (line, col) = line_col(text, cell(text, record, i).start);
                        t.warnings.push(crate::case::RangeWarning {
                            joint: joints[*j].name.clone(),
                            location: crate::case::RangeWarning::location_in(
                                shown,
                                &format!(":{line}:{col}"),
                            ),
                            place: format!(
                                "data row {record}, column {} (`{}`)",
                                i + 1,
                                head[i].trim()
                            ),
                            value: si,
                            range: [lo, hi],
                            slide: joints[*j].slide,
                            first_of_many: true,
                        });
                    }
                    t.values[slot(*j)].push(si);
                }
                Column::Velocity(j) => {
                    if let Some(v) = &mut t.velocities {
                        v[slot(*j)].push(x * joints[*j].scale);
                    }
                }
            }
        }
        row += 1;
        if p.full() {
            break;
        }
    }
    if p.list.is_empty() && row < 2 {
        p.at(
            row + 1,
            0,
            format!("a program needs at least two samples, this one has {row}"),
            Some("one row per sample: t and the joint values".into()),
        );
    }
    t
}
