//! The engine translation's lines with the case's numbers (LaTeX, one line
//! each), for every format: how each engine's settings give the spring,
//! dashpot and mass estimate the engine tables print, and the settings for
//! the case's own stiffness and damping
//! ([`crate::engines::derivation`] holds the formulas and numbers).

use super::templates::tex_number;
use crate::engines::EngineReport;
use crate::engines::derivation::{Line, Q};
use serde::Serialize;

/// Contacts shown line by line; above, the first only.
pub const FEW: usize = 3;

/// One contact's lines.
#[derive(Serialize)]
pub struct ContactLines {
    /// Contact name.
    pub name: String,
    /// LaTeX, one equation each.
    pub lines: Vec<String>,
}

/// One engine's lines.
#[derive(Serialize)]
pub struct EngineLines {
    /// Lines every contact shares (LaTeX).
    pub engine: Vec<String>,
    /// Per contact shown.
    pub contacts: Vec<ContactLines>,
    /// How many contacts are left out (they follow the same lines).
    pub more: usize,
    /// Whether the lines use the engine's own inverse mass `Â_ii`.
    pub estimate: bool,
}

/// A number with its unit in LaTeX.
pub fn quantity(v: Q, d: usize) -> String {
    let n = tex_number(v.x, d);
    if v.unit.is_empty() {
        n
    } else {
        format!("{n}\\,{}", v.unit)
    }
}

/// The formula with its numbers in place of `@0`, `@1`, … (`None` when the
/// line substitutes nothing).
pub fn substituted(l: &Line, d: usize) -> Option<String> {
    if l.with.is_empty() {
        return None;
    }
    let mut out = String::new();
    let mut rest = l.with.as_str();
    while let Some(i) = rest.find('@') {
        out.push_str(&rest[..i]);
        let tail = &rest[i + 1..];
        let end = tail
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(tail.len());
        match tail[..end]
            .parse::<usize>()
            .ok()
            .and_then(|k| l.values.get(k))
        {
            Some(&v) => out.push_str(&quantity(v, d)),
            None => out.push('@'),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    Some(out)
}

/// `lhs = formula = numbers = result`, leaving out a step that repeats the
/// one before.
pub fn latex(l: &Line, d: usize) -> String {
    let result = quantity(l.result, d);
    let mut parts = vec![l.lhs.clone()];
    if !l.formula.is_empty() {
        parts.push(l.formula.clone());
    }
    if let Some(s) = substituted(l, d).filter(|s| *s != result) {
        parts.push(s);
    }
    parts.push(result);
    parts.join(" = ")
}

/// One engine's lines for the sheet.
pub fn equations(e: &EngineReport, d: usize) -> EngineLines {
    let shown = if e.contacts.len() <= FEW {
        e.contacts.len()
    } else {
        1
    };
    EngineLines {
        estimate: e
            .contacts
            .iter()
            .take(shown)
            .flat_map(|c| &c.lines)
            .any(|l| l.formula.contains("\\hat{A}")),
        engine: e.lines.iter().map(|l| latex(l, d)).collect(),
        contacts: e
            .contacts
            .iter()
            .take(shown)
            .filter(|c| !c.lines.is_empty())
            .map(|c| ContactLines {
                name: c.name.clone(),
                lines: c.lines.iter().map(|l| latex(l, d)).collect(),
            })
            .collect(),
        more: e.contacts.len() - shown,
    }
}
