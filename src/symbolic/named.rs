//! Named intermediate quantities of the derivation ("let 𝒟 = …"): the long
//! sums the Delassus forms share, their units, and the parameter values
//! substituted into printed formulas.

use super::poly::Poly;
use super::{Printer, Readable, Symbols};
use crate::case::Case;

/// A closed form as plain text and LaTeX.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SymForm {
    /// Plain text meff's parser reads back.
    pub text: String,
    /// LaTeX.
    pub latex: String,
}

/// A named intermediate quantity ("let D = …"): a long sum that a form's
/// numerator or denominator contains, shown once and referred to by name.
#[derive(Clone, Debug, serde::Serialize)]
pub struct NamedQuantity {
    /// Name in plain text (`D`, `N1`).
    pub name: String,
    /// Symbol in LaTeX (`\mathcal{D}`).
    pub symbol: String,
    /// Its definition over the parameters.
    pub form: SymForm,
    /// The definition with the parameter values substituted.
    pub substituted: SymForm,
    /// Value in SI units.
    pub value: f64,
    /// Its SI unit (`kg m^2`; empty when dimensionless or not known).
    pub unit: String,
    /// The sum itself.
    #[serde(skip)]
    pub poly: Poly,
}

/// Shortest definition printed beside a name: shorter sums stay inline.
const NAME_SHARED: usize = 25;
/// A sum this long gets a name even when it appears once.
const NAME_LONG: usize = 70;

/// Names the long sums of the Delassus forms: a numerator or denominator
/// sum (common factor taken out) that appears in two or more entries and
/// prints longer than [`NAME_SHARED`] characters, or that prints longer than
/// [`NAME_LONG`]. Denominators are `𝒟`, numerators `𝒩` (numbered when
/// there are several).
pub(super) fn name_quantities(
    case: &Case,
    symbols: &Symbols,
    names: &Printer,
    substituted: &Printer,
    forms: &[Vec<Readable>],
) -> Vec<NamedQuantity> {
    // (poly, is denominator, count), in order of first appearance.
    let mut seen: Vec<(Poly, bool, usize)> = Vec::new();
    for (i, row) in forms.iter().enumerate() {
        for r in row.iter().skip(i) {
            let cores = names.cores(r);
            let k = cores.len();
            for (n, p) in cores.into_iter().enumerate() {
                let is_den = n + 1 == k;
                match seen.iter_mut().find(|(q, _, _)| *q == p) {
                    Some(e) => e.2 += 1,
                    None => seen.push((p, is_den, 1)),
                }
            }
        }
    }
    let chosen: Vec<(Poly, bool, String)> = seen
        .into_iter()
        .filter_map(|(p, is_den, count)| {
            let (text, _) = names.poly_forms(&p);
            let keep = (count >= 2 && text.len() > NAME_SHARED) || text.len() > NAME_LONG;
            keep.then_some((p, is_den, text))
        })
        .collect();
    let dens = chosen.iter().filter(|c| c.1).count();
    let nums = chosen.len() - dens;
    let taken = |n: &str| case.parameters.iter().any(|p| p.name == n);
    let (mut di, mut ni) = (0, 0);
    chosen
        .into_iter()
        .map(|(p, is_den, text)| {
            let (letter, cal, count, k) = if is_den {
                di += 1;
                ("D", "\\mathcal{D}", dens, di)
            } else {
                ni += 1;
                ("N", "\\mathcal{N}", nums, ni)
            };
            let (mut name, symbol) = if count == 1 {
                (letter.to_string(), cal.to_string())
            } else {
                (format!("{letter}{k}"), format!("{cal}_{{{k}}}"))
            };
            while taken(&name) {
                name.push('_');
            }
            let (_, latex) = names.poly_forms(&p);
            let (s_text, s_latex) = substituted.poly_forms(&p);
            NamedQuantity {
                name,
                symbol,
                form: SymForm { text, latex },
                substituted: SymForm {
                    text: s_text,
                    latex: s_latex,
                },
                value: super::eval_poly(&p, symbols.values()),
                unit: poly_unit(case, symbols, &p),
                poly: p,
            }
        })
        .collect()
}

/// The SI unit of a sum of parameter monomials, from its first term (the
/// terms of a dimensionally consistent sum share it); empty when
/// dimensionless or an atom has no known dimension.
fn poly_unit(case: &Case, symbols: &Symbols, p: &Poly) -> String {
    use crate::units::Dim;
    let Some((mono, _)) = p.terms().next() else {
        return String::new();
    };
    let mut dim = Dim::NONE;
    for (i, &e) in mono.iter().enumerate() {
        if e == 0 {
            continue;
        }
        let atom_dim = match symbols.atoms().get(i) {
            Some(super::Atom::Param(name)) => {
                match case.parameters.iter().find(|q| &q.name == name) {
                    Some(q) => q.value.dim,
                    None => return String::new(),
                }
            }
            Some(super::Atom::Given(_, d)) => *d,
            Some(_) => Dim::NONE,
            None => return String::new(),
        };
        match i32::try_from(e)
            .ok()
            .and_then(|e| atom_dim.powi(e))
            .and_then(|d| dim.checked_times(d))
        {
            Some(d) => dim = d,
            None => return String::new(),
        }
    }
    if dim.is_none() {
        String::new()
    } else {
        dim.to_string()
    }
}

/// Each parameter the forms use, as `(name, text, LaTeX)` for substituted
/// formulas: as typed when it is a number in SI units; otherwise its SI
/// value, so that every substituted formula is in one unit system and its
/// result follows by hand (`400 mm` shows as `0.4 m`).
pub(super) fn substituted_values(case: &Case, symbols: &Symbols) -> Vec<(String, String, String)> {
    case.parameters
        .iter()
        .filter(|p| symbols.param(&p.name).is_some())
        .map(|p| {
            // As typed when it is a number in SI units; otherwise its SI
            // value, so that every substituted formula is in one unit system
            // and its result follows by hand (`400 mm` shows as `0.4 m`).
            let si_literal = {
                use crate::expr::ExprKind;
                match &p.value.expr.kind {
                    ExprKind::Number(n) | ExprKind::Quantity(n, _) => n.value == p.value.si,
                    ExprKind::Neg(x) => match &x.kind {
                        ExprKind::Number(n) | ExprKind::Quantity(n, _) => -n.value == p.value.si,
                        _ => false,
                    },
                    _ => false,
                }
            };
            let text = if si_literal && p.value.expr.params().is_empty() {
                p.value.text.trim().to_string()
            } else {
                let unit = if p.value.dim.is_none() {
                    String::new()
                } else {
                    format!(" {}", p.value.dim)
                };
                let mut number = crate::number::sig(p.value.si, crate::number::DEFAULT_DIGITS);
                if number.contains('.') && !number.contains('e') {
                    number = number
                        .trim_end_matches('0')
                        .trim_end_matches('.')
                        .to_string();
                }
                format!("{number}{unit}")
            };
            let latex = crate::notation::latex_quantity(&text);
            (p.name.clone(), text, latex)
        })
        .collect()
}
