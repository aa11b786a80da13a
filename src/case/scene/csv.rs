//! The CSV form of a scene: a bodies file and a contacts file, each with a
//! header row. Read with the `csv` crate; every problem is shown at its
//! `file.csv:line:col`.

use super::{Issue, MAX_ISSUES, SceneData, SceneError, Table, Units, WORLD};
use crate::case::types::Space;
use crate::diag::{Diagnostic, SourceError};

/// Columns of each table: (name, required).
fn columns(table: Table, space: Space) -> Vec<(&'static str, bool)> {
    let three = space == Space::ThreeD;
    let mut v: Vec<(&str, bool)> = Vec::new();
    match table {
        Table::Bodies => {
            v.extend([("mass", true), ("x", true), ("y", true)]);
            if three {
                v.extend([
                    ("z", true),
                    ("Ixx", true),
                    ("Iyy", true),
                    ("Izz", true),
                    ("Ixy", true),
                    ("Ixz", true),
                    ("Iyz", true),
                ]);
            } else {
                v.push(("I", true));
            }
            v.extend([("name", false), ("fixed", false)]);
        }
        Table::Contacts => {
            v.extend([("body", true), ("other", true), ("px", true), ("py", true)]);
            if three {
                v.push(("pz", true));
            }
            v.extend([("nx", true), ("ny", true)]);
            if three {
                v.push(("nz", true));
            }
            v.extend([
                ("k", true),
                ("c", false),
                ("name", false),
                ("overlap", false),
            ]);
            v.extend([
                ("tangential_stiffness", false),
                ("tangential_ratio", false),
                ("tangential_damping", false),
            ]);
        }
    }
    v
}

pub(super) fn read_text(path: &std::path::Path, max_bytes: u64) -> Result<String, String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() > max_bytes {
        return Err(format!(
            "the file is larger than the input limit of {max_bytes} bytes (raise it with --max-input-bytes)"
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(max_bytes).read_to_end(&mut bytes))
        .map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "the file is not UTF-8 text (at byte {})",
            e.utf8_error().valid_up_to()
        )
    })
}

struct Parsed {
    /// Column index in the file of each known column (`None`: absent).
    at: Vec<Option<usize>>,
    names: Vec<&'static str>,
}

fn header(
    table: Table,
    space: Space,
    head: &::csv::StringRecord,
    issues: &mut Vec<Issue>,
) -> Parsed {
    let cols = columns(table, space);
    let names: Vec<&str> = cols.iter().map(|c| c.0).collect();
    let mut at = vec![None; cols.len()];
    for (i, h) in head.iter().enumerate() {
        let h = h.trim();
        match names.iter().position(|n| *n == h) {
            Some(k) if at[k].is_some() => {
                if issues.len() < MAX_ISSUES {
                    let mut is = Issue::new(
                        table,
                        None,
                        h,
                        format!("the header names column `{h}` twice"),
                    );
                    is.column = format!("#{i}");
                    issues.push(is);
                }
            }
            Some(k) => at[k] = Some(i),
            // Past the cap a header's other problems are not examined (a
            // header of 20,000 unknown names is one problem said 20 times).
            None if issues.len() >= MAX_ISSUES => {}
            None => {
                let hint = match crate::diag::closest(h, names.iter().copied()) {
                    Some(b) => format!("did you mean `{b}`?"),
                    None => format!("the columns are {}", names.join(", ")),
                };
                let mut is = Issue::new(table, None, h, format!("unknown column `{h}`")).hint(hint);
                is.column = format!("#{i}");
                issues.push(is);
            }
        }
    }
    for (k, (name, required)) in cols.iter().enumerate() {
        if *required && at[k].is_none() && issues.len() < MAX_ISSUES {
            issues.push(Issue::new(
                table,
                None,
                name,
                format!("the header has no column `{name}`"),
            ));
        }
    }
    Parsed { at, names }
}

/// Reads both files; problems as diagnostics in the file they are in.
pub(super) fn read(
    bodies: &std::path::Path,
    contacts: &std::path::Path,
    shown: &[String],
    space: Space,
    units: Units,
    max_bytes: u64,
) -> Result<(SceneData, Option<Vec<f64>>), SceneError> {
    if space == Space::Line {
        return Err(SceneError::File {
            file: 0,
            message: "a scene is planar or 3-d".into(),
        });
    }
    let btext =
        read_text(bodies, max_bytes).map_err(|message| SceneError::File { file: 0, message })?;
    let ctext =
        read_text(contacts, max_bytes).map_err(|message| SceneError::File { file: 1, message })?;
    let mut data = SceneData::default();
    let mut issues = Vec::new();
    let fail = |text: &str, file: usize, issues: Vec<Issue>| {
        SceneError::Csv(SourceError {
            path: shown[file].clone(),
            source: text.to_string(),
            diagnostics: issues.iter().map(|i| diagnostic(text, i)).collect(),
        })
    };
    read_bodies(&btext, space, units, &mut data, &mut issues);
    if !issues.is_empty() {
        return Err(fail(&btext, 0, issues));
    }
    let mut overlap = None;
    read_contacts(&ctext, space, units, (&mut data, &mut overlap), &mut issues);
    if issues.is_empty() {
        issues = super::validate(&data, space);
    }
    if !issues.is_empty() {
        return Err(fail(&ctext, 1, issues));
    }
    Ok((data, overlap))
}

/// The bodies file into `data` (masses, positions, inertias, `fixed`,
/// names), checked row by row and then as bodies; problems into `issues`.
fn read_bodies(
    btext: &str,
    space: Space,
    units: Units,
    data: &mut SceneData,
    issues: &mut Vec<Issue>,
) {
    let d = space.dim();
    let mut rdr = reader(btext);
    let head = rdr.headers().cloned().unwrap_or_default();
    let p = header(Table::Bodies, space, &head, issues);
    if !issues.is_empty() {
        return;
    }
    let col = |name: &str| p.at[p.names.iter().position(|n| *n == name).expect("known")];
    let (c_name, c_fixed) = (col("name"), col("fixed"));
    let inertia_cols: Vec<&str> = if d == 3 {
        vec!["Ixx", "Iyy", "Izz", "Ixy", "Ixz", "Iyz"]
    } else {
        vec!["I"]
    };
    let mut names: Option<Vec<String>> = c_name.map(|_| Vec::new());
    let mut rec = ::csv::StringRecord::new();
    let mut row = 0usize;
    loop {
        if !next_record(&mut rdr, &mut rec, Table::Bodies, row, issues) {
            break;
        }
        let fixed = match c_fixed.and_then(|i| rec.get(i)).map(str::trim) {
            None | Some("" | "false" | "0" | "False") => false,
            Some("true" | "1" | "True") => true,
            Some(v) => {
                issues.push(Issue::new(
                    Table::Bodies,
                    Some(row),
                    "fixed",
                    format!("`fixed` is true or false, not `{v}`"),
                ));
                false
            }
        };
        short_row(&rec, head.len(), Table::Bodies, row, issues);
        let num = |name: &str, scale: f64, blank_ok: bool, issues: &mut Vec<Issue>| -> f64 {
            // A cell the row does not have is the short row's problem.
            let Some(text) = col(name).map(|i| rec.get(i)) else {
                return 0.0;
            };
            let Some(text) = text.map(str::trim) else {
                return 0.0;
            };
            if text.is_empty() && blank_ok {
                return 0.0;
            }
            match text.parse::<f64>() {
                Ok(v) => in_range(v * scale, text, Table::Bodies, row, name, issues),
                Err(_) => {
                    issues.push(Issue::new(
                        Table::Bodies,
                        Some(row),
                        name,
                        format!("`{text}` is not a number"),
                    ));
                    0.0
                }
            }
        };
        data.mass.push(num("mass", units.mass, fixed, issues));
        for a in ["x", "y", "z"].iter().take(d) {
            data.position.push(num(a, units.length, false, issues));
        }
        let li = units.mass * units.length * units.length;
        for a in &inertia_cols {
            data.inertia.push(num(a, li, fixed, issues));
        }
        data.fixed.push(fixed);
        if let (Some(names), Some(i)) = (&mut names, c_name) {
            names.push(rec.get(i).unwrap_or("").trim().to_string());
        }
        row += 1;
        if issues.len() >= MAX_ISSUES {
            break;
        }
    }
    data.body_names = names;
    issues.extend(
        super::validate(data, space)
            .into_iter()
            .filter(|i| i.table == Table::Bodies),
    );
}

/// The contacts file into `data` (points, normals, stiffnesses, dampings,
/// the bodies by index or name, names) and `overlap` (the optional
/// column, in the length unit); problems into `issues`.
fn read_contacts(
    ctext: &str,
    space: Space,
    units: Units,
    (data, overlap): (&mut SceneData, &mut Option<Vec<f64>>),
    issues: &mut Vec<Issue>,
) {
    let d = space.dim();
    let n = data.n_bodies();
    let by_name: Option<std::collections::HashMap<&str, u32>> = data.body_names.as_ref().map(|v| {
        v.iter()
            .enumerate()
            .map(|(i, s)| (s.as_str(), i as u32))
            .collect()
    });
    let mut rdr = reader(ctext);
    let head = rdr.headers().cloned().unwrap_or_default();
    let p = header(Table::Contacts, space, &head, issues);
    if !issues.is_empty() {
        return;
    }
    let col = |name: &str| p.at[p.names.iter().position(|n| *n == name).expect("known")];
    let (c_damp, c_name) = (col("c"), col("name"));
    let mut damping: Option<Vec<f64>> = c_damp.map(|_| Vec::new());
    let mut overlaps: Option<Vec<f64>> = col("overlap").map(|_| Vec::new());
    let tangential = [
        "tangential_stiffness",
        "tangential_ratio",
        "tangential_damping",
    ];
    let mut t_cols: [Option<Vec<f64>>; 3] = tangential.map(|name| col(name).map(|_| Vec::new()));
    let t_scale = [units.stiffness, 1.0, units.damping];
    let mut names: Option<Vec<String>> = c_name.map(|_| Vec::new());
    let mut rec = ::csv::StringRecord::new();
    let mut row = 0usize;
    loop {
        if !next_record(&mut rdr, &mut rec, Table::Contacts, row, issues) {
            break;
        }
        short_row(&rec, head.len(), Table::Contacts, row, issues);
        let num = |name: &str, scale: f64, issues: &mut Vec<Issue>| -> f64 {
            let Some(text) = col(name).map(|i| rec.get(i)) else {
                return 0.0;
            };
            let Some(text) = text.map(str::trim) else {
                return 0.0;
            };
            match text.parse::<f64>() {
                Ok(v) => in_range(v * scale, text, Table::Contacts, row, name, issues),
                Err(_) => {
                    issues.push(Issue::new(
                        Table::Contacts,
                        Some(row),
                        name,
                        format!("`{text}` is not a number"),
                    ));
                    0.0
                }
            }
        };
        for a in ["px", "py", "pz"].iter().take(d) {
            data.point.push(num(a, units.length, issues));
        }
        for a in ["nx", "ny", "nz"].iter().take(d) {
            data.normal.push(num(a, 1.0, issues));
        }
        data.stiffness.push(num("k", units.stiffness, issues));
        if let Some(dv) = &mut damping {
            dv.push(num("c", units.damping, issues));
        }
        if let Some(ov) = &mut overlaps {
            ov.push(num("overlap", units.length, issues));
        }
        for ((v, name), scale) in t_cols.iter_mut().zip(tangential).zip(t_scale) {
            if let Some(v) = v {
                v.push(num(name, scale, issues));
            }
        }
        for (name, world_ok) in [("body", false), ("other", true)] {
            let text = col(name).and_then(|i| rec.get(i)).unwrap_or("").trim();
            let idx = match text.parse::<i64>() {
                Ok(-1) if world_ok => Some(WORLD),
                Ok(x) if x >= 0 && (x as usize) < n => Some(x as u32),
                Ok(x) => {
                    issues.push(super::out_of_range(row, name, x, n, world_ok));
                    None
                }
                Err(_) if world_ok && text == "world" => Some(WORLD),
                Err(_) => match by_name.as_ref().and_then(|m| m.get(text)) {
                    Some(&i) => Some(i),
                    None => {
                        issues.push(
                            Issue::new(Table::Contacts, Some(row), name, format!("unknown body `{text}`"))
                                .hint("a body is its row index in the bodies file (from 0; −1 is the world) or its name"),
                        );
                        None
                    }
                },
            };
            let v = if name == "body" {
                &mut data.body
            } else {
                &mut data.other
            };
            v.push(idx.unwrap_or(0));
        }
        if let (Some(names), Some(i)) = (&mut names, c_name) {
            names.push(rec.get(i).unwrap_or("").trim().to_string());
        }
        row += 1;
        if issues.len() >= MAX_ISSUES {
            break;
        }
    }
    data.damping = damping;
    *overlap = overlaps;
    data.contact_names = names;
    let [kt, kr, ct] = t_cols;
    match super::tangential_columns(kt, kr, ct, space) {
        Ok(t) => data.tangential = t,
        Err(i) => issues.push(i),
    }
}

/// A row with fewer fields than the header: one issue at the row's end
/// (not one per missing cell).
fn short_row(
    rec: &::csv::StringRecord,
    columns: usize,
    table: Table,
    row: usize,
    issues: &mut Vec<Issue>,
) {
    if rec.len() < columns {
        issues.push(Issue::new(
            table,
            Some(row),
            &format!("#{}", rec.len()),
            format!(
                "this row has {} field{}, the header {columns}",
                rec.len(),
                if rec.len() == 1 { "" } else { "s" }
            ),
        ));
    }
}

/// A value in SI units that 64-bit floating point holds as a normal
/// number (0 allowed); otherwise an issue at the cell (a subnormal mass
/// made `J M⁻¹ Jᵀ` overflow with no place to point at).
fn in_range(
    v: f64,
    text: &str,
    table: Table,
    row: usize,
    name: &str,
    issues: &mut Vec<Issue>,
) -> f64 {
    if v == 0.0 || v.is_normal() {
        return v;
    }
    issues.push(Issue::new(
        table,
        Some(row),
        name,
        format!(
            "`{text}` is outside the range of 64-bit floating point (normal numbers, in SI units)"
        ),
    ));
    0.0
}

/// Reads the next record; false at the end, on invalid CSV or past
/// [`super::MAX_ROWS`] (the last two noted as issues).
fn next_record(
    rdr: &mut ::csv::Reader<&[u8]>,
    rec: &mut ::csv::StringRecord,
    table: Table,
    row: usize,
    issues: &mut Vec<Issue>,
) -> bool {
    match rdr.read_record(rec) {
        Ok(true) if row < super::MAX_ROWS => true,
        Ok(true) => {
            issues.push(Issue::new(table, Some(row), "#0", "too many rows"));
            false
        }
        Ok(false) => false,
        Err(e) => {
            issues.push(Issue::new(
                table,
                Some(row),
                "#0",
                format!("not valid CSV: {e}"),
            ));
            false
        }
    }
}

pub(super) fn reader(text: &str) -> ::csv::Reader<&[u8]> {
    ::csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .comment(Some(b'#'))
        .from_reader(text.as_bytes())
}

/// The diagnostic of an issue, at its cell.
fn diagnostic(text: &str, issue: &Issue) -> Diagnostic {
    let span = locate(text, issue);
    let mut d = Diagnostic::new(span, issue.message.clone());
    if let Some(h) = &issue.hint {
        d = d.hint(h.clone());
    }
    d
}

/// Byte span of a cell (header cells for `row == None`), found in the raw
/// text as the reader reads it: blank lines and `#` comment lines skipped,
/// quoted fields holding commas, doubled quotes and newlines. (The CSV
/// reader's own record positions drift after blank lines, and its field
/// ranges are of the unquoted contents.)
fn locate(text: &str, issue: &Issue) -> std::ops::Range<usize> {
    let mut rdr = reader(text);
    let Ok(head) = rdr.byte_headers().cloned() else {
        return 0..0;
    };
    let Some(fields) = raw_record(text, issue.row.map_or(0, |r| r + 1)) else {
        return text.len()..text.len();
    };
    let column = if let Some(i) = issue.column.strip_prefix('#') {
        i.parse().ok()
    } else {
        head.iter()
            .position(|h| h.trim_ascii() == issue.column.as_bytes())
            .or(Some(0))
    };
    match column {
        Some(i) if i < fields.len() => {
            let r = fields[i].clone();
            // Without the blanks around the value.
            let cell = &text[r.clone()];
            let lead = cell.len() - cell.trim_start().len();
            let trail = cell.len() - cell.trim_end().len();
            if lead + trail < cell.len() {
                r.start + lead..r.end - trail
            } else {
                r
            }
        }
        // A cell the row does not have: the row's end.
        _ => fields.last().map_or(0..0, |r| r.end..r.end),
    }
}

/// The byte ranges of the fields of record `index` (0: the header).
pub(super) fn raw_record(text: &str, index: usize) -> Option<Vec<std::ops::Range<usize>>> {
    let b = text.as_bytes();
    let mut pos = 0;
    let mut k = 0;
    while pos < b.len() {
        match b[pos] {
            b'\n' => {
                pos += 1;
                continue;
            }
            b'\r' if b.get(pos + 1) == Some(&b'\n') => {
                pos += 2;
                continue;
            }
            b'#' => {
                pos = b[pos..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |n| pos + n + 1);
                continue;
            }
            _ => {}
        }
        let mut fields = Vec::new();
        let mut start = pos;
        let mut quoted = false;
        loop {
            if pos >= b.len() {
                fields.push(start..pos);
                break;
            }
            let c = b[pos];
            if quoted {
                if c == b'"' {
                    if b.get(pos + 1) == Some(&b'"') {
                        pos += 2;
                        continue;
                    }
                    quoted = false;
                }
                pos += 1;
                continue;
            }
            match c {
                b'"' => {
                    quoted = true;
                    pos += 1;
                }
                b',' => {
                    fields.push(start..pos);
                    pos += 1;
                    start = pos;
                }
                b'\n' => {
                    let end = if pos > start && b[pos - 1] == b'\r' {
                        pos - 1
                    } else {
                        pos
                    };
                    fields.push(start..end);
                    pos += 1;
                    break;
                }
                _ => pos += 1,
            }
        }
        if k == index {
            return Some(fields);
        }
        k += 1;
    }
    None
}
