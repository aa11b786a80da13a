//! `[document]`: the title block of a calculation sheet — project, number,
//! revision, date, who prepared, checked and approved it, references. All
//! optional strings, shown as typed (escaped for each format); meff never
//! writes a date of its own (the same case gives the same bytes).

use super::read::*;

/// Keys of `[document]`, in the order the title block shows them.
pub const DOCUMENT_KEYS: &[&str] = &[
    "project",
    "number",
    "revision",
    "date",
    "prepared",
    "checked",
    "approved",
    "references",
];

/// Longest value of one `[document]` field, in characters.
const MAX_FIELD: usize = 500;

/// The title block: `(key, value)` for the fields the case gives, in
/// [`DOCUMENT_KEYS`] order.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Document {
    /// Project.
    pub project: Option<String>,
    /// Document number.
    pub number: Option<String>,
    /// Revision.
    pub revision: Option<String>,
    /// Date, as typed.
    pub date: Option<String>,
    /// Prepared by.
    pub prepared: Option<String>,
    /// Checked by.
    pub checked: Option<String>,
    /// Approved by.
    pub approved: Option<String>,
    /// References (standards, drawings, earlier calculations).
    pub references: Option<String>,
}

impl Document {
    /// Whether no field is given.
    pub fn is_empty(&self) -> bool {
        self.fields().is_empty()
    }

    /// `(label, value)` of the fields given, in title-block order.
    pub fn fields(&self) -> Vec<(&'static str, &str)> {
        [
            ("project", &self.project),
            ("number", &self.number),
            ("revision", &self.revision),
            ("date", &self.date),
            ("prepared", &self.prepared),
            ("checked", &self.checked),
            ("approved", &self.approved),
            ("references", &self.references),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.as_deref().map(|v| (k, v)))
        .collect()
    }
}

impl Reader<'_> {
    /// Reads `[document]`.
    pub(super) fn document(&mut self, node: &Node) -> Document {
        let Some(t) = self.table(node, "`[document]`") else {
            return Document::default();
        };
        self.keys(t, DOCUMENT_KEYS, "`[document]`");
        let mut field = |key: &str| -> Option<String> {
            let n = get(t, key)?;
            let s = self.string(n, &format!("`{key}`"))?;
            if s.chars().count() > MAX_FIELD || s.chars().any(char::is_control) {
                self.error(crate::diag::Diagnostic::new(
                    n.span(),
                    format!("`{key}` must be one line of at most {MAX_FIELD} characters"),
                ));
                return None;
            }
            Some(s)
        };
        Document {
            project: field("project"),
            number: field("number"),
            revision: field("revision"),
            date: field("date"),
            prepared: field("prepared"),
            checked: field("checked"),
            approved: field("approved"),
            references: field("references"),
        }
    }
}
