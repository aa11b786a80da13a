//! The report's closed forms: the symbolic derivation's forms of the
//! listed contacts, or why there are none.

use super::{SymbolicForm, SymbolicReport};

/// A closed form as the report carries it.
pub(super) fn form(f: &crate::symbolic::SymForm) -> SymbolicForm {
    SymbolicForm {
        text: f.text.clone(),
        latex: f.latex.clone(),
    }
}

/// The closed forms of the listed contacts, or why there are none.
pub(super) fn symbolic_report(
    derivation: Result<&crate::symbolic::Derivation, &crate::symbolic::Unsupported>,
    keep: &[usize],
    all: bool,
    sensitivities: Vec<crate::symbolic::Sensitivity>,
) -> SymbolicReport {
    match derivation {
        Ok(d) => SymbolicReport {
            available: true,
            note: None,
            dofs: d.dofs.clone(),
            mass: d
                .mass
                .as_ref()
                .map(|m| m.iter().map(|row| row.iter().map(form).collect()).collect()),
            delassus: all.then(|| {
                d.delassus_forms
                    .iter()
                    .map(|row| row.iter().map(form).collect())
                    .collect()
            }),
            contacts: keep.iter().map(|&i| d.contacts[i].clone()).collect(),
            sensitivities_note: sensitivities
                .iter()
                .any(|s| s.m_eff.is_none())
                .then(|| crate::symbolic::ZERO_NOMINAL.to_string()),
            sensitivities,
            quantities: d.quantities.clone(),
        },
        Err(why) => SymbolicReport {
            available: false,
            note: Some(format!(
                "no closed forms for this case: {why}; the numeric results stand"
            )),
            dofs: Vec::new(),
            mass: None,
            delassus: None,
            contacts: Vec::new(),
            sensitivities: Vec::new(),
            sensitivities_note: None,
            quantities: Vec::new(),
        },
    }
}
