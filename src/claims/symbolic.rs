//! The symbolic check of an expression claim: both sides as exact rational
//! functions of the independent parameters, compared by their canonical
//! forms.

use super::SymbolicVerdict;
use crate::expr::Func;
use crate::symbolic::{
    Atom, Converter, Derivation, Frac, Printer, poly, reduce_trig, with_pythagoras,
};

/// The symbolic verdict on an expression claim: compares canonical forms
/// over the independent parameters. `None` when the claim is about a
/// quantity without a closed form here (coupled modes) or cannot be
/// converted.
pub fn claim_verdict(d: &Derivation, claim: &crate::case::Claim) -> Option<SymbolicVerdict> {
    poly::with_budget(crate::symbolic::DERIVATION_WORK_BUDGET, || {
        // Both sides reduced by Pythagoras as they form, as the derivation
        // was: trigonometric claims then cancel instead of growing.
        with_pythagoras(|| claim_verdict_within_budget(d, claim))
    })
    .flatten()
}

fn claim_verdict_within_budget(
    d: &Derivation,
    claim: &crate::case::Claim,
) -> Option<SymbolicVerdict> {
    use crate::case::{ClaimRhs, Quantity};
    let ClaimRhs::Expression(expr) = &claim.rhs else {
        return None;
    };
    let mut symbols = d.symbols.clone();
    let mut conv = Converter::new(&mut symbols, &d.definitions, true);
    conv.memo = d.expansions.clone();
    // The derivation keeps typed quantities as symbols (ℓ₁ = 0.02 m); the
    // claim's own numbers convert to constants: compare over constants.
    use crate::symbolic::given::lower;
    let lhs = match claim.of {
        Quantity::A(i) => lower(&d.expanded[i][i], &mut conv),
        Quantity::Delassus(i, j) => lower(&d.expanded[i][j], &mut conv),
        Quantity::MEff(i) => Frac::int(1).checked_div(&lower(&d.expanded[i][i], &mut conv))?,
        Quantity::Omega(i) => {
            let k = lower(&d.stiffness_expanded[i], &mut conv);
            let ka = k * lower(&d.expanded[i][i], &mut conv);
            conv.call(Func::Sqrt, ka)
        }
        // Frequencies in cycles and coupled modes: probing decides.
        // Impacts: probing decides.
        Quantity::ModeOmega(_) | Quantity::F(_) | Quantity::ModeF(_) | Quantity::Impact(..) => {
            return None;
        }
    };
    let rhs = conv.convert(expr).ok()?;
    let difference = reduce_trig(&(lhs - rhs), &symbols);
    if difference.is_zero() {
        return Some(SymbolicVerdict::Equal);
    }
    let opaque = difference
        .vars()
        .iter()
        .any(|&v| matches!(symbols.atoms()[v], Atom::Call(..)));
    let printer = Printer::names(&symbols, &[]);
    let text = crate::symbolic::factored_text(&printer, &difference)
        .unwrap_or_else(|| printer.text(&difference));
    Some(SymbolicVerdict::Differs {
        difference: text,
        opaque,
    })
}
