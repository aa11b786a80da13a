//! Rendering: report data → text for people (and JSON for programs).
//!
//! Input: a [`Report`](crate::report::Report). Output: strings. Renderers
//! format numbers and lay out tables; they compute no physics.

pub mod layout;
pub mod number;
#[cfg(feature = "pdf")]
pub mod pdf;
pub mod plot;
pub mod safe;
pub mod templates;
pub mod text;
#[cfg(feature = "pdf")]
pub mod typ;

/// The report as pretty-printed JSON (docs/json.md), with a final newline.
pub fn json(report: &crate::report::Report) -> String {
    let mut s = serde_json::to_string_pretty(report).expect("report data serializes");
    s.push('\n');
    s
}
