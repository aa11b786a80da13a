//! Loading a case: files (regular files or standard input, a byte cap,
//! UTF-8 errors at the byte), the columnar reader for large generated
//! files, the ordinary reader, and a case from columns handed over in
//! memory (the Python `Scene`).

use super::read::*;
use super::scene_table::FileAccess;
use super::types::*;
use crate::diag::SourceError;

/// Reads and validates a case file (at most [`MAX_INPUT_BYTES`]).
pub fn load(path: &std::path::Path) -> Result<Case, crate::diag::ReadError> {
    load_limited(path, MAX_INPUT_BYTES)
}

/// Reads and validates a case file of at most `max_bytes`; `-` is standard
/// input. Only regular files are read (a FIFO or device could block or
/// never end); text that is not UTF-8 is an error at its first bad byte.
pub fn load_limited(
    path: &std::path::Path,
    max_bytes: u64,
) -> Result<Case, crate::diag::ReadError> {
    load_confined(path, max_bytes, None)
}

/// [`load_limited`] reading only inside `confine`'s trees (when given):
/// the case file and every file it names.
pub fn load_confined(
    path: &std::path::Path,
    max_bytes: u64,
    confine: Option<&crate::confine::Confine>,
) -> Result<Case, crate::diag::ReadError> {
    load_access(path, max_bytes, confine, None)
}

/// [`load_limited`] keeping only part `part` of an NPZ `[scene]` (read by
/// itself: [`super::scene::part`]; a CSV or dump scene is read whole and
/// `scene.part` is `None`). Claims, sweeps and persons are not read.
pub fn load_part(
    path: &std::path::Path,
    max_bytes: u64,
    part: super::scene::part::PartRequest,
) -> Result<Case, crate::diag::ReadError> {
    load_access(path, max_bytes, None, Some(part))
}

fn load_access(
    path: &std::path::Path,
    max_bytes: u64,
    confine: Option<&crate::confine::Confine>,
    part: Option<super::scene::part::PartRequest>,
) -> Result<Case, crate::diag::ReadError> {
    // Phase timings (MEFF_TIMINGS) count from here, reading included.
    crate::timing::mark("start");
    let shown = crate::diag::escape_controls(&path.display().to_string()).into_owned();
    let io = |message| crate::diag::ReadError::Io {
        path: shown.clone(),
        message,
    };
    let opened = if path.as_os_str() == "-" {
        path.to_path_buf()
    } else {
        crate::confine::admit(confine, path).map_err(io)?
    };
    let bytes = read_bounded(&opened, max_bytes).map_err(io)?;
    let source = text_of(&shown, bytes).map_err(crate::diag::ReadError::Input)?;
    // Scene files are named relative to the case file (to the working
    // directory for standard input).
    let base = if path.as_os_str() == "-" {
        std::path::PathBuf::new()
    } else {
        opened.parent().map(|p| p.to_path_buf()).unwrap_or_default()
    };
    let access = FileAccess {
        base,
        max_bytes,
        confine: confine.cloned(),
        part,
    };
    parse_case_owned(&shown, source, Some(access)).map_err(crate::diag::ReadError::Input)
}

/// The bytes of a regular file (or standard input for `-`), refusing more
/// than `max_bytes` (`meff diff` reads its JSON revisions through it too).
pub fn read_bounded(path: &std::path::Path, max_bytes: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let too_large = || {
        format!(
            "the file is larger than the input limit of {max_bytes} bytes (raise it with --max-input-bytes)"
        )
    };
    let mut bytes = Vec::new();
    if path.as_os_str() == "-" {
        std::io::stdin()
            .lock()
            .take(max_bytes.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|e| e.to_string())?;
    } else {
        let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
        if !meta.is_file() {
            let kind = if meta.is_dir() {
                "a directory"
            } else {
                "not a regular file (a FIFO, socket or device)"
            };
            return Err(format!(
                "{kind}; meff reads case files, or `-` for standard input"
            ));
        }
        if meta.len() > max_bytes {
            return Err(too_large());
        }
        // Sized once: growing by doubling would hold two copies at a time.
        bytes.reserve_exact(usize::try_from(meta.len()).unwrap_or(0).saturating_add(1));
        std::fs::File::open(path)
            .and_then(|f| f.take(max_bytes.saturating_add(1)).read_to_end(&mut bytes))
            .map_err(|e| e.to_string())?;
    }
    if bytes.len() as u64 > max_bytes {
        return Err(too_large());
    }
    Ok(bytes)
}

/// The text of a case file; invalid UTF-8 is an error at the first bad byte.
fn text_of(path: &str, bytes: Vec<u8>) -> Result<String, SourceError> {
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let source = String::from_utf8_lossy(e.as_bytes()).into_owned();
            Err(SourceError {
                path: path.to_string(),
                source,
                diagnostics: vec![
                    Diagnostic::new(at..at + 1, "the file is not valid UTF-8 here")
                        .hint("case files are UTF-8 text; re-save the file as UTF-8"),
                ],
            })
        }
    }
}

/// Validates the text of a case file; `path` is used in messages only. No
/// other file is read: a `[scene]` is an error here (see [`load`]).
pub fn parse_case(path: &str, source: &str) -> Result<Case, SourceError> {
    parse_case_with(path, source, None)
}

/// Validates the text of a case file, reading the files of a `[scene]`
/// through `files`.
pub fn parse_case_with(
    path: &str,
    source: &str,
    files: Option<FileAccess>,
) -> Result<Case, SourceError> {
    let mut case = read_case(path, source, files)?;
    case.source = source.to_string();
    Ok(case)
}

/// As [`parse_case`], always by the ordinary reader (never table by table
/// into columns): for tests that compare the two.
#[doc(hidden)]
pub fn parse_case_ordinary(path: &str, source: &str) -> Result<Case, SourceError> {
    let mut case = read_ordinary(path, source, None)?;
    case.source = source.to_string();
    Ok(case)
}

/// A case whose bodies and contacts are columns in memory (the Python
/// package's `meff.Scene`): `source` holds the rest of a case (`title`,
/// `space`, `[analysis]`), and `data` is checked by the rules of a
/// `[scene]`'s files; each problem is returned as `table row r, column:
/// message`.
pub fn case_from_columns(
    path: &str,
    source: &str,
    data: super::scene::SceneData,
) -> Result<Case, crate::diag::ReadError> {
    crate::diag::reset_hint_budget();
    let root = DeTable::parse(source)
        .map_err(|e| {
            crate::diag::ReadError::Input(SourceError {
                path: path.to_string(),
                source: source.to_string(),
                diagnostics: vec![Diagnostic::new(
                    e.span().unwrap_or(0..0),
                    format!("invalid TOML: {}", e.message().trim()),
                )],
            })
        })?
        .into_inner();
    let space = match get(&root, "space").map(|n| n.get_ref()) {
        Some(DeValue::String(s)) if s == "3d" => Space::ThreeD,
        _ => Space::Planar,
    };
    let issues = super::scene::validate(&data, space);
    if !issues.is_empty() {
        let diagnostics = issues
            .iter()
            .map(|i| {
                let table = match i.table {
                    super::scene::Table::Bodies => "bodies",
                    super::scene::Table::Contacts => "contacts",
                };
                let row = i.row.map_or(String::new(), |r| format!(" row {r}"));
                Diagnostic::new(0..0, format!("{table}{row}, {}: {}", i.column, i.message))
                    .maybe_hint(i.hint.clone())
            })
            .collect();
        return Err(crate::diag::ReadError::Input(SourceError {
            path: path.to_string(),
            source: String::new(),
            diagnostics,
        }));
    }
    let mut r = Reader::new(source, None);
    r.given_scene = Some(data);
    let case = r.case(path, &root, 0..source.len());
    match case {
        Some(mut c) if r.diags.is_empty() => {
            c.source = source.to_string();
            Ok(c)
        }
        _ => Err(crate::diag::ReadError::Input(SourceError {
            path: path.to_string(),
            source: source.to_string(),
            diagnostics: r.diags,
        })),
    }
}

/// As [`parse_case_with`], keeping `source` in the case without a copy.
fn parse_case_owned(
    path: &str,
    source: String,
    files: Option<FileAccess>,
) -> Result<Case, SourceError> {
    let mut case = read_case(path, &source, files)?;
    case.source = source;
    Ok(case)
}

/// The case of `source`, with `Case::source` left empty for the caller.
fn read_case(path: &str, source: &str, files: Option<FileAccess>) -> Result<Case, SourceError> {
    crate::diag::reset_hint_budget();
    if source.len() >= super::columnar::MIN_BYTES
        && let Some(case) = super::columnar::read(path, source)
    {
        return Ok(case);
    }
    read_ordinary(path, source, files)
}

/// The ordinary reader: the whole TOML tree, a `Val` per value.
fn read_ordinary(path: &str, source: &str, files: Option<FileAccess>) -> Result<Case, SourceError> {
    let fail = |diagnostics| SourceError {
        path: path.to_string(),
        source: source.to_string(),
        diagnostics,
    };
    let root = match DeTable::parse(source) {
        Ok(root) => root,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            let msg = e.message().trim().to_string();
            return Err(fail(vec![Diagnostic::new(
                span,
                format!("invalid TOML: {msg}"),
            )]));
        }
    };
    let mut r = Reader::new(source, files);
    let case = r.case(path, root.get_ref(), root.span());
    if let Some(e) = r.foreign.take() {
        return Err(e);
    }
    if r.diags.is_empty()
        && let Some(case) = case
    {
        Ok(case)
    } else {
        if r.diags.is_empty() {
            r.diags
                .push(Diagnostic::new(0..0, "the case could not be read"));
        }
        Err(fail(r.diags))
    }
}
