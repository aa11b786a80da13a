//! Where a warning points: a span of the case file as `file:line:col`, a
//! contact's input, a scene's row (one rule for every check).

use super::Case;
use std::ops::Range;

/// `file:line:col` with the case file's name (not the path it was run
/// with: the same case gives the same sheet from any directory).
pub(crate) fn at(case: &Case, span: &Range<usize>) -> String {
    let (line, col) = crate::diag::line_col(&case.source, span.start.min(case.source.len()));
    let name = std::path::Path::new(&case.path)
        .file_name()
        .map_or_else(|| case.path.clone(), |n| n.to_string_lossy().into_owned());
    format!("{name}:{line}:{col}")
}

/// Which of a contact's inputs a warning points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ContactField {
    /// The contact's table.
    Table,
    /// Its point (the first component).
    Point,
    /// Its normal (the first component).
    Normal,
}

/// Where contact `ci`'s `field` is written: in the case file for a typed
/// contact (its table when the field has no span of its own), a scene's
/// contacts file and row for a scene's contact (one rule for every check
/// that names a contact).
pub(super) fn contact_at(case: &Case, ci: usize, field: ContactField) -> String {
    use crate::case::ContactGeometry;
    let Some(c) = case.contacts.get(ci) else {
        return scene_row(case, "contacts", ci);
    };
    let span = match (&c.geometry, field) {
        (
            ContactGeometry::Point { point, .. } | ContactGeometry::Link { point, .. },
            ContactField::Point,
        ) => point[0].span.clone(),
        (
            ContactGeometry::Point { normal, .. } | ContactGeometry::Link { normal, .. },
            ContactField::Normal,
        ) => normal[0].span.clone(),
        _ => c.span.clone(),
    };
    at(case, &span)
}

/// Where a scene's row is written: the file (the bodies CSV, the
/// contacts CSV, or the NPZ) and the 1-based data row of the table; the
/// case file's start with the row when it has no scene file.
pub(super) fn scene_row(case: &Case, table: &str, row: usize) -> String {
    let files = case
        .scene
        .as_ref()
        .map(|s| s.files.clone())
        .unwrap_or_default();
    let file = match (table, files.as_slice()) {
        ("contacts", [_, contacts, ..]) => Some(contacts.clone()),
        (_, [first, ..]) => Some(first.clone()),
        _ => None,
    };
    match file {
        Some(f) => format!("{f}: {table} row {}", row + 1),
        None => format!("{} ({table} row {})", at(case, &(0..0)), row + 1),
    }
}
