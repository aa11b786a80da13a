//! `[revision]`: the previous revision's JSON, read so that the report can
//! list what changed since (`revision` module). The file is read like a
//! scene's: relative to the case file, only inside the trees the run may
//! read (`--confine`, a book's tree), at most the input byte limit.

use super::read::*;
use crate::diag::Diagnostic;

/// Keys of `[revision]`.
pub const REVISION_KEYS: &[&str] = &["previous"];

/// The previous revision of a calculation.
#[derive(Clone, Debug)]
pub struct Previous {
    /// The file as the case names it.
    pub file: String,
    /// Where it is named.
    pub span: std::ops::Range<usize>,
    /// Its JSON document (an object with a `title`).
    pub document: serde_json::Value,
}

impl Reader<'_> {
    /// `[revision] previous = "reports/x.json"`, read and parsed.
    pub(super) fn previous(&mut self, node: &Node) -> Option<Previous> {
        let table = self.table(node, "`[revision]`")?;
        self.keys(table, REVISION_KEYS, "`[revision]`");
        let n = get(table, "previous")?;
        let file = self.string(n, "`previous`")?;
        let span = n.span();
        let fail = |this: &mut Self, message: String| {
            this.error(Diagnostic::new(span.clone(), message).hint(
                "name the JSON meff wrote for the previous revision (`meff report --format json`), relative to the case file",
            ));
            None
        };
        let Some(access) = self.files.clone() else {
            return fail(
                self,
                "the previous revision is read only for a case file on disk".into(),
            );
        };
        let path = match access.resolve(&file) {
            Ok(p) => p,
            Err(message) => return fail(self, format!("cannot read `{file}`: {message}")),
        };
        let bytes = match super::load::read_bounded(&path, access.max_bytes) {
            Ok(b) => b,
            Err(message) => return fail(self, format!("cannot read `{file}`: {message}")),
        };
        let document: serde_json::Value = match serde_json::from_slice(&bytes) {
            Ok(v) => v,
            Err(e) => {
                return fail(
                    self,
                    format!(
                        "`{file}` is not a JSON document: {e} (line {}, column {})",
                        e.line(),
                        e.column()
                    ),
                );
            }
        };
        if !document
            .get("title")
            .is_some_and(serde_json::Value::is_string)
        {
            return fail(
                self,
                format!("`{file}` is not a meff report's JSON (it has no `title`)"),
            );
        }
        Some(Previous {
            file,
            span,
            document,
        })
    }
}
