//! The report's closed forms: the symbolic derivation's forms of the
//! listed contacts, or why there are none.

use super::SymbolicForm;
use serde::Serialize;

/// The symbolic derivation for reports.
#[derive(Clone, Debug, Serialize)]
pub struct SymbolicReport {
    /// False when the symbolic engine skipped this case.
    pub available: bool,
    /// Why it was skipped.
    pub note: Option<String>,
    /// Names of the generalized velocities.
    pub dofs: Vec<String>,
    /// Mass matrix (small systems only).
    pub mass: Option<Vec<Vec<SymbolicForm>>>,
    /// A, row-major, in readable form.
    pub delassus: Option<Vec<Vec<SymbolicForm>>>,
    /// Per contact: Jacobian entries, a (readable, one fraction,
    /// substituted) and m_eff.
    pub contacts: Vec<crate::symbolic::ContactDerivation>,
    /// Elasticities of m_eff and ω with respect to each independent
    /// parameter.
    pub sensitivities: Vec<crate::symbolic::Sensitivity>,
    /// Why some elasticities are `null` (a parameter at a nominal value
    /// of 0), when any is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sensitivities_note: Option<String>,
    /// Named intermediate quantities ("let 𝒟 = …") that the LaTeX forms
    /// refer to; the text forms never do.
    pub quantities: Vec<crate::symbolic::NamedQuantity>,
    /// Quantities typed as numbers that the forms keep as symbols
    /// (`\ell_{1}` = 0.02 m): the "where" line.
    pub given: Vec<crate::symbolic::GivenQuantity>,
}

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
            given: d.given.clone(),
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
            given: Vec::new(),
        },
    }
}
