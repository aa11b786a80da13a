//! The sheet's notation list: the symbols it reserves
//! ([`crate::notation::RESERVED`], shown where the sheet can use them),
//! the case's symbols marked because they collide with one, and the
//! quantities typed as numbers that the closed forms keep as symbols
//! (their "where" line). One view, rendered alike by every format.

use crate::notation::reserved::Shown;
use crate::report::Report;
use serde_json::{Value, json};

/// The notation view the templates render (`notation` in the context).
pub fn view(report: &Report) -> Value {
    let given = &report.symbolic.given;
    let named = !report.symbolic.quantities.is_empty();
    let reserved: Vec<Value> = crate::notation::RESERVED
        .iter()
        .filter(|r| match r.shown {
            Shown::Always => true,
            Shown::Given => given
                .iter()
                .any(|g| g.symbol.starts_with(&format!("{}_", r.latex))),
            Shown::Named => named,
        })
        .map(|r| json!({ "latex": r.latex, "meaning": r.meaning }))
        .collect();
    let marked: Vec<Value> = report
        .inputs
        .iter()
        .filter_map(|p| {
            let (letter, meaning) = p.collides_with.as_ref()?;
            Some(json!({
                "symbol": p.symbol_latex,
                "name": p.name,
                "letter": letter,
                "meaning": meaning,
            }))
        })
        .collect();
    let given: Vec<Value> = given
        .iter()
        .map(|g| json!({ "line": format!("{} = {}", g.symbol, g.latex) }))
        .collect();
    json!({ "reserved": reserved, "marked": marked, "given": given })
}
