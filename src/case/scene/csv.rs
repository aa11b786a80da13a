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
            v.extend([("k", true), ("c", false), ("name", false)]);
        }
    }
    v
}

fn read_text(path: &std::path::Path, max_bytes: u64) -> Result<String, String> {
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
) -> Result<SceneData, SceneError> {
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
    let d = space.dim();
    let mut data = SceneData::default();
    let mut issues = Vec::new();
    let fail = |text: &str, file: usize, issues: Vec<Issue>| {
        SceneError::Csv(SourceError {
            path: shown[file].clone(),
            source: text.to_string(),
            diagnostics: issues.iter().map(|i| diagnostic(text, i)).collect(),
        })
    };

    // Bodies.
    let mut rdr = reader(&btext);
    let head = rdr.headers().cloned().unwrap_or_default();
    let p = header(Table::Bodies, space, &head, &mut issues);
    if !issues.is_empty() {
        return Err(fail(&btext, 0, issues));
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
        if !next_record(&mut rdr, &mut rec, Table::Bodies, row, &mut issues) {
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
        let num = |name: &str, scale: f64, blank_ok: bool, issues: &mut Vec<Issue>| -> f64 {
            let text = col(name).and_then(|i| rec.get(i)).unwrap_or("").trim();
            if text.is_empty() && blank_ok {
                return 0.0;
            }
            match text.parse::<f64>() {
                Ok(v) => v * scale,
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
        data.mass.push(num("mass", units.mass, fixed, &mut issues));
        for a in ["x", "y", "z"].iter().take(d) {
            data.position.push(num(a, units.length, false, &mut issues));
        }
        let li = units.mass * units.length * units.length;
        for a in &inertia_cols {
            data.inertia.push(num(a, li, fixed, &mut issues));
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
        super::validate(&data, space)
            .into_iter()
            .filter(|i| i.table == Table::Bodies),
    );
    if !issues.is_empty() {
        return Err(fail(&btext, 0, issues));
    }
    let n = data.n_bodies();
    let by_name: Option<std::collections::HashMap<&str, u32>> = data.body_names.as_ref().map(|v| {
        v.iter()
            .enumerate()
            .map(|(i, s)| (s.as_str(), i as u32))
            .collect()
    });

    // Contacts.
    let mut rdr = reader(&ctext);
    let head = rdr.headers().cloned().unwrap_or_default();
    let p = header(Table::Contacts, space, &head, &mut issues);
    if !issues.is_empty() {
        return Err(fail(&ctext, 1, issues));
    }
    let col = |name: &str| p.at[p.names.iter().position(|n| *n == name).expect("known")];
    let (c_damp, c_name) = (col("c"), col("name"));
    let mut damping: Option<Vec<f64>> = c_damp.map(|_| Vec::new());
    let mut names: Option<Vec<String>> = c_name.map(|_| Vec::new());
    let mut row = 0usize;
    loop {
        if !next_record(&mut rdr, &mut rec, Table::Contacts, row, &mut issues) {
            break;
        }
        let num = |name: &str, scale: f64, issues: &mut Vec<Issue>| -> f64 {
            let text = col(name).and_then(|i| rec.get(i)).unwrap_or("").trim();
            match text.parse::<f64>() {
                Ok(v) => v * scale,
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
            data.point.push(num(a, units.length, &mut issues));
        }
        for a in ["nx", "ny", "nz"].iter().take(d) {
            data.normal.push(num(a, 1.0, &mut issues));
        }
        data.stiffness.push(num("k", units.stiffness, &mut issues));
        if let Some(dv) = &mut damping {
            dv.push(num("c", units.damping, &mut issues));
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
    data.contact_names = names;
    if issues.is_empty() {
        issues = super::validate(&data, space);
    }
    if !issues.is_empty() {
        return Err(fail(&ctext, 1, issues));
    }
    Ok(data)
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

fn reader(text: &str) -> ::csv::Reader<&[u8]> {
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

/// Byte span of a cell (header cells for `row == None`).
fn locate(text: &str, issue: &Issue) -> std::ops::Range<usize> {
    let mut rdr = reader(text);
    let Ok(head) = rdr.byte_headers().cloned() else {
        return 0..0;
    };
    let column = |rec: &::csv::ByteRecord| -> Option<usize> {
        if let Some(i) = issue.column.strip_prefix('#') {
            return i.parse().ok();
        }
        head.iter()
            .position(|h| h.trim_ascii() == issue.column.as_bytes())
            .or_else(|| (!rec.is_empty()).then_some(0))
    };
    let span_in = |rec: &::csv::ByteRecord| -> std::ops::Range<usize> {
        let start = rec.position().map_or(0, |p| p.byte() as usize);
        match column(rec).and_then(|i| rec.range(i).map(|r| (i, r))) {
            Some((i, r)) => start + r.start + i..start + r.end + i,
            None => start..start,
        }
    };
    match issue.row {
        None => span_in(&head),
        Some(row) => {
            let mut rec = ::csv::ByteRecord::new();
            for _ in 0..=row {
                match rdr.read_byte_record(&mut rec) {
                    Ok(true) => {}
                    _ => return text.len()..text.len(),
                }
            }
            span_in(&rec)
        }
    }
}
