//! "Changes since revision …": what changed since the previous revision
//! the case names (`[revision] previous`), by the one comparison `meff
//! diff` uses (`revision::diff`).

use super::Report;
use serde::Serialize;

/// The changes since the previous revision.
#[derive(Clone, Debug, Serialize)]
pub struct Changes {
    /// The previous revision's file, as the case names it.
    pub previous: String,
    /// The previous revision's `[document] revision`, when it has one.
    pub previous_revision: Option<String>,
    /// What changed (the previous document is `old`, this one `new`).
    #[serde(flatten)]
    pub diff: crate::revision::Diff,
}

impl Report {
    /// Compares this report with the previous revision's JSON and attaches
    /// the changes (the report as it stands, before this section).
    pub fn set_changes(&mut self, previous: Option<&crate::case::Previous>) {
        let Some(p) = previous else { return };
        let Ok(now) = serde_json::to_value(&*self) else {
            return;
        };
        let Ok(diff) = crate::revision::diff(&p.document, &now, crate::revision::DEFAULT_TOLERANCE)
        else {
            return;
        };
        self.changes = Some(Changes {
            previous: p.file.clone(),
            previous_revision: p.document["document"]["revision"]
                .as_str()
                .map(str::to_string),
            diff,
        });
    }
}
