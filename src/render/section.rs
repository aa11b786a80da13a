//! The summary's unit: a heading, a table and notes, which the text
//! summary and the engines' part of it both build.

/// One block of the summary: a heading, a table and notes under it.
#[derive(Clone, Debug, Default)]
pub struct Section {
    /// Heading.
    pub title: String,
    /// Column headers (empty for a section of notes only).
    pub header: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<String>>,
    /// Lines of text under the table.
    pub notes: Vec<String>,
}

/// A number at `digits` significant figures, or `—` when absent.
pub(super) fn opt(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "—".to_string(), |v| super::number::sig(v, digits))
}

/// Cells from string literals.
pub(super) fn strings<const N: usize>(cells: [&str; N]) -> Vec<String> {
    cells.map(String::from).to_vec()
}

/// A section of one row per item (`row` makes its cells).
pub(super) fn table<T>(
    title: &str,
    header: Vec<String>,
    items: impl IntoIterator<Item = T>,
    row: impl FnMut(T) -> Vec<String>,
    notes: Vec<String>,
) -> Section {
    Section {
        title: title.into(),
        header,
        rows: items.into_iter().map(row).collect(),
        notes,
    }
}
