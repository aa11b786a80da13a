//! Quantities typed as numbers with a unit (a contact point's `0.02 m`, an
//! inertia's `(0.04 m)^2`), kept as symbols of the closed forms.
//!
//! Converted to rational constants, such a number disappears into a
//! coefficient: `1/(2500 J₁)` where 2500 came from `1/(0.02 m)²`, a form
//! no signer can check by its dimensions. The derivation keeps each one as
//! an [`Atom::Given`] (equal SI values and dimensions are one atom), prints
//! it as ℓₙ (a length) or χₙ (any other dimension), and the sheet states
//! their values in a "where" line: `ℓ₁²/J₁`, where ℓ₁ = 0.02 m. Text forms
//! (which meff's parser reads back) print the quantity itself, `(0.02 m)`.
//! Claims are decided over the constants ([`lower`]), as typed.

use super::poly::{Poly, Q};
use super::{Atom, Converter, Frac, Symbols};
use crate::units::Dim;
use num_traits::{One, Signed, ToPrimitive};

/// A typed quantity as a closed form's symbol.
#[derive(Clone, Debug, serde::Serialize)]
pub struct GivenQuantity {
    /// Its symbol in LaTeX (`\ell_{1}`).
    pub symbol: String,
    /// Its SI value and unit as text (`0.02 m`), which meff's parser reads.
    pub text: String,
    /// The same in LaTeX (`0.02\,\mathrm{m}`).
    pub latex: String,
    /// SI value.
    pub value: f64,
    /// SI unit (`m`, `kg m^2`).
    pub unit: String,
    /// The atom.
    #[serde(skip)]
    pub atom: usize,
}

/// The given quantities the printed forms use (the readable forms, and
/// the exact ones the sensitivities print from), numbered in the order
/// the model meets them.
pub(super) fn name_used<'a>(
    symbols: &Symbols,
    read: impl Iterator<Item = &'a super::Readable>,
    exact: impl Iterator<Item = &'a Frac>,
) -> Vec<GivenQuantity> {
    let mut used = Vec::new();
    let polys = (read.flat_map(|r| [&r.num, &r.den])).chain(exact.flat_map(|f| [f.num(), f.den()]));
    for p in polys {
        mark_used(p, symbols, &mut used);
    }
    name_given(symbols, &used)
}

/// The given quantities among `used` atoms (in atom order: the order the
/// model meets them), numbered per letter: lengths ℓ₁, ℓ₂…, others χ₁….
fn name_given(symbols: &Symbols, used: &[bool]) -> Vec<GivenQuantity> {
    let (mut lengths, mut others) = (0, 0);
    symbols
        .atoms()
        .iter()
        .enumerate()
        .filter(|(i, _)| used.get(*i).copied().unwrap_or(false))
        .filter_map(|(i, a)| {
            let Atom::Given(q, dim) = a else { return None };
            let letter = if *dim == Dim::LENGTH {
                lengths += 1;
                format!("\\ell_{{{lengths}}}")
            } else {
                others += 1;
                format!("\\chi_{{{others}}}")
            };
            let text = quantity_text(q, *dim);
            Some(GivenQuantity {
                symbol: letter,
                latex: crate::notation::latex_quantity(&text),
                text,
                value: q.to_f64().unwrap_or(f64::NAN),
                unit: dim.to_string(),
                atom: i,
            })
        })
        .collect()
}

/// `0.02 m`: the exact decimal of an SI value where it has one (every
/// decimal typed in a unit meff knows does), else 10 significant figures.
pub(super) fn quantity_text(q: &Q, dim: Dim) -> String {
    let number =
        exact_decimal(q).unwrap_or_else(|| crate::number::sig(q.to_f64().unwrap_or(f64::NAN), 10));
    format!("{number} {dim}")
}

/// The decimal digits of `q` when its denominator divides a power of ten
/// (at most 30 places).
fn exact_decimal(q: &Q) -> Option<String> {
    let ten = num_bigint::BigInt::from(10);
    let mut scaled = q.clone();
    let mut places = 0usize;
    while !scaled.is_integer() {
        if places == 30 {
            return None;
        }
        scaled *= Q::from_integer(ten.clone());
        places += 1;
    }
    let digits = scaled.to_integer().abs().to_string();
    let sign = if q.is_negative() { "-" } else { "" };
    if places == 0 {
        return Some(format!("{sign}{digits}"));
    }
    let padded = format!("{digits:0>width$}", width = places + 1);
    let (int, frac) = padded.split_at(padded.len() - places);
    Some(format!("{sign}{int}.{frac}"))
}

/// Marks in `used` every atom `f` contains, through function arguments.
fn mark_used(p: &Poly, symbols: &Symbols, used: &mut Vec<bool>) {
    for v in p.vars() {
        if used.len() <= v {
            used.resize(v + 1, false);
        }
        if used[v] {
            continue;
        }
        used[v] = true;
        if let Atom::Call(_, arg) = &symbols.atoms()[v] {
            mark_used(arg.num(), symbols, used);
            mark_used(arg.den(), symbols, used);
        }
    }
}

/// `f` with every given quantity replaced by its exact value (function
/// atoms of arguments that hold one re-interned through `conv`): the form
/// the case's own expressions (claims) convert to.
pub fn lower(f: &Frac, conv: &mut Converter) -> Frac {
    let vars = f.vars();
    let holds_given = |v: usize, symbols: &Symbols| -> bool {
        fn inside(a: &Atom, symbols: &Symbols) -> bool {
            match a {
                Atom::Given(..) => true,
                Atom::Call(_, arg) => arg
                    .vars()
                    .iter()
                    .any(|&w| inside(&symbols.atoms()[w], symbols)),
                _ => false,
            }
        }
        inside(&symbols.atoms()[v], symbols)
    };
    if !vars.iter().any(|&v| holds_given(v, conv.symbols)) {
        return f.clone();
    }
    let num = lower_poly(f.num(), conv);
    let den = lower_poly(f.den(), conv);
    num.checked_div(&den).unwrap_or_else(|| f.clone())
}

fn lower_poly(p: &Poly, conv: &mut Converter) -> Frac {
    let mut out = Frac::zero();
    for (mono, q) in p.terms() {
        let mut term = Frac::constant(q.clone());
        for (v, &e) in mono.iter().enumerate() {
            if e == 0 {
                continue;
            }
            let base = match conv.symbols.atoms()[v].clone() {
                Atom::Given(value, _) => Frac::constant(value),
                Atom::Call(func, arg) => {
                    let lowered = lower(&arg, conv);
                    if lowered == arg {
                        Frac::var(v)
                    } else {
                        conv.call(func, lowered)
                    }
                }
                _ => Frac::var(v),
            };
            let mut power = Frac::constant(Q::one());
            for _ in 0..e {
                power = power * base.clone();
            }
            term = term * power;
        }
        out = out + term;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn si_values_print_as_exact_decimals() {
        let q = |n: i64, d: i64| Q::new(n.into(), d.into());
        assert_eq!(quantity_text(&q(1, 50), Dim::LENGTH), "0.02 m");
        assert_eq!(quantity_text(&q(1, 250), Dim::INERTIA), "0.004 kg m^2");
        assert_eq!(quantity_text(&q(12, 1), Dim::MASS), "12 kg");
        assert_eq!(exact_decimal(&q(127, 5000)).as_deref(), Some("0.0254"));
        assert_eq!(exact_decimal(&q(1, 3)), None);
    }
}
