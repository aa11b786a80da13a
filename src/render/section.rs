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
