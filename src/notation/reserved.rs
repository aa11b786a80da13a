//! The symbols a sheet reserves, in one place, and how a case's own symbol
//! that collides with one of them is printed.
//!
//! A sheet writes `J_c` for a contact's Jacobian row, `A` for the Delassus
//! matrix, `a_c` for a contact's inverse effective mass, `c_c` for its
//! damping, ω for a frequency… A case may name its parameters with the
//! same letters (`J1` an inertia, `a` a length, `c` a height). Such a
//! parameter is printed with a tilde over its letter (`J1` → J̃₁, `a` → ã)
//! everywhere the sheet typesets it, and the sheet's notation list says
//! which parameter it is and what the plain letter means there. The rule
//! is deterministic and depends only on the symbol and the parameter's
//! dimension; JSON keeps the case's names.

use crate::units::Dim;

/// How a reserved symbol claims its letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The letter with any subscript is the sheet's (`J_c`, `A_{ij}`,
    /// `M_{ij}`): every parameter typeset with it collides.
    Family,
    /// The letter names a quantity of this dimension on the sheet (`k_c` a
    /// stiffness): a parameter of another dimension collides, one of the
    /// same dimension is that kind of quantity and does not.
    Quantity(Dim),
    /// Only this exact symbol (`m_{\mathrm{eff}}`).
    Exact,
}

/// When a sheet's notation list shows a reserved symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// On every sheet.
    Always,
    /// When the closed forms keep typed quantities with this letter.
    Given,
    /// When the closed forms name sums (𝒩, 𝒟).
    Named,
}

/// A symbol the sheet uses with one meaning.
#[derive(Clone, Copy, Debug)]
pub struct Reserved {
    /// The symbol in LaTeX: the letter (for [`Claim::Family`] and
    /// [`Claim::Quantity`]) or the whole symbol (for [`Claim::Exact`]).
    pub latex: &'static str,
    /// What it means on a sheet, in words.
    pub meaning: &'static str,
    /// How it claims its letter.
    pub claim: Claim,
    /// When the notation list shows it.
    pub shown: Shown,
}

const VELOCITY: Dim = Dim([0, 1, -1]);
const ACCELERATION: Dim = Dim([0, 1, -2]);
const PRESSURE: Dim = Dim([1, -1, -2]);

/// Every symbol a sheet reserves. The letters ℓ and χ are the sheet's
/// names for lengths and other quantities typed as numbers in the case's
/// geometry or values (the closed forms' "where" line).
pub const RESERVED: &[Reserved] = &[
    Reserved {
        latex: "J",
        meaning: "contact Jacobian (J_c: the row of contact c)",
        claim: Claim::Family,
        shown: Shown::Always,
    },
    Reserved {
        latex: "M",
        meaning: "generalized mass matrix",
        claim: Claim::Family,
        shown: Shown::Always,
    },
    Reserved {
        latex: "a",
        meaning: "inverse effective mass of a contact, a_c = J_c M⁻¹ J_cᵀ",
        claim: Claim::Family,
        shown: Shown::Always,
    },
    Reserved {
        latex: "A",
        meaning: "Delassus matrix A = J M⁻¹ Jᵀ",
        claim: Claim::Family,
        shown: Shown::Always,
    },
    Reserved {
        latex: "S",
        meaning: "stiffness-weighted Delassus matrix S = K^½ A K^½",
        claim: Claim::Family,
        shown: Shown::Always,
    },
    Reserved {
        latex: "K",
        meaning: "diagonal matrix of the contact stiffnesses",
        claim: Claim::Family,
        shown: Shown::Always,
    },
    Reserved {
        latex: "\\omega",
        meaning: "angular frequency (ω_c of contact c alone, ω_max of the fastest coupled mode)",
        claim: Claim::Family,
        shown: Shown::Always,
    },
    Reserved {
        latex: "\\zeta",
        meaning: "damping ratio",
        claim: Claim::Family,
        shown: Shown::Always,
    },
    Reserved {
        latex: "\\ell",
        meaning: "a length typed as a number in the case (see the “where” line)",
        claim: Claim::Family,
        shown: Shown::Given,
    },
    Reserved {
        latex: "\\chi",
        meaning: "another quantity typed as a number in the case (see the “where” line)",
        claim: Claim::Family,
        shown: Shown::Given,
    },
    Reserved {
        latex: "\\mathcal{N}",
        meaning: "a named numerator sum of the closed forms",
        claim: Claim::Family,
        shown: Shown::Named,
    },
    Reserved {
        latex: "\\mathcal{D}",
        meaning: "a named denominator sum of the closed forms",
        claim: Claim::Family,
        shown: Shown::Named,
    },
    Reserved {
        latex: "m_{\\mathrm{eff}}",
        meaning: "effective mass of a contact, 1/a_c",
        claim: Claim::Exact,
        shown: Shown::Always,
    },
    Reserved {
        latex: "m",
        meaning: "a mass",
        claim: Claim::Quantity(Dim::MASS),
        shown: Shown::Always,
    },
    Reserved {
        latex: "k",
        meaning: "a contact's stiffness",
        claim: Claim::Quantity(Dim::STIFFNESS),
        shown: Shown::Always,
    },
    Reserved {
        latex: "c",
        meaning: "a contact's damping",
        claim: Claim::Quantity(Dim::DAMPING),
        shown: Shown::Always,
    },
    Reserved {
        latex: "F",
        meaning: "a force",
        claim: Claim::Quantity(Dim::FORCE),
        shown: Shown::Always,
    },
    Reserved {
        latex: "v",
        meaning: "a speed",
        claim: Claim::Quantity(VELOCITY),
        shown: Shown::Always,
    },
    Reserved {
        latex: "\\delta",
        meaning: "a contact's overlap",
        claim: Claim::Quantity(Dim::LENGTH),
        shown: Shown::Always,
    },
    Reserved {
        latex: "\\tau",
        meaning: "an impact's duration",
        claim: Claim::Quantity(Dim::TIME),
        shown: Shown::Always,
    },
    Reserved {
        latex: "h",
        meaning: "an engine's time step",
        claim: Claim::Quantity(Dim::TIME),
        shown: Shown::Always,
    },
    Reserved {
        latex: "T",
        meaning: "a time (T_R the Rayleigh time)",
        claim: Claim::Quantity(Dim::TIME),
        shown: Shown::Always,
    },
    Reserved {
        latex: "\\mu",
        meaning: "the reduced mass of a person contact",
        claim: Claim::Quantity(Dim::MASS),
        shown: Shown::Always,
    },
    Reserved {
        latex: "E",
        meaning: "an elastic modulus (E* the contact modulus)",
        claim: Claim::Quantity(PRESSURE),
        shown: Shown::Always,
    },
    Reserved {
        latex: "g",
        meaning: "the gravitational acceleration",
        claim: Claim::Quantity(ACCELERATION),
        shown: Shown::Always,
    },
    Reserved {
        latex: "e",
        meaning: "a coefficient of restitution",
        claim: Claim::Quantity(Dim::NONE),
        shown: Shown::Always,
    },
];

/// The letter a symbol is typeset with (its first atom, scripts aside):
/// `J_{1}` → `J`, `\omega_{2}` → `\omega`, `\mathcal{N}_{1}` →
/// `\mathcal{N}`, `\mathrm{mass}` → `\mathrm{mass}`; with the byte range
/// it spans.
fn base(latex: &str) -> (&str, std::ops::Range<usize>) {
    let b = latex.as_bytes();
    let end = match b.first() {
        Some(b'\\') => {
            let mut i = 1;
            while i < b.len() && b[i].is_ascii_alphabetic() {
                i += 1;
            }
            // A command with a `{…}` argument (`\mathrm{J}`, `\hat{x}`).
            if i < b.len() && b[i] == b'{' {
                latex[i..].find('}').map_or(b.len(), |j| i + j + 1)
            } else {
                i
            }
        }
        Some(b'{') => latex.find('}').map_or(b.len(), |j| j + 1),
        Some(_) => latex.chars().next().map_or(0, char::len_utf8),
        None => 0,
    };
    (&latex[..end], 0..end)
}

/// The reserved symbol a case's symbol collides with, if any. `dim` is
/// the parameter's dimension.
pub fn collision(latex: &str, dim: Dim) -> Option<&'static Reserved> {
    let latex = latex.trim();
    let (letter, _) = base(latex);
    RESERVED.iter().find(|r| match r.claim {
        Claim::Exact => r.latex == latex,
        Claim::Family => r.latex == letter,
        Claim::Quantity(d) => r.latex == letter && d != dim,
    })
}

/// A case's symbol as the sheet prints it: with a tilde over its letter
/// when it collides with a symbol the sheet reserves (`J_{1}` →
/// `\tilde{J}_{1}`), else unchanged.
pub fn marked(latex: &str, dim: Dim) -> String {
    let latex = latex.trim();
    if collision(latex, dim).is_none() {
        return latex.to_string();
    }
    let (letter, span) = base(latex);
    format!("\\tilde{{{letter}}}{}", &latex[span.end..])
}

/// A parameter's symbol as the sheet prints it: the case's `symbol` or the
/// one made from its name ([`latex_symbol`](super::latex_symbol)), marked
/// where it collides ([`marked`]). Every place that typesets a parameter
/// calls this.
pub fn parameter_symbol(name: &str, symbol: Option<&str>, dim: Dim) -> String {
    let latex = symbol.map_or_else(|| super::latex_symbol(name), str::to_string);
    marked(&latex, dim)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colliding_names_are_marked_and_others_kept() {
        let inertia = Dim::INERTIA;
        assert_eq!(parameter_symbol("J1", None, inertia), "\\tilde{J}_{1}");
        assert_eq!(parameter_symbol("a", None, Dim::LENGTH), "\\tilde{a}");
        assert_eq!(parameter_symbol("A", None, Dim::LENGTH), "\\tilde{A}");
        assert_eq!(parameter_symbol("M", None, Dim::MASS), "\\tilde{M}");
        assert_eq!(
            parameter_symbol("omega", None, Dim::FREQUENCY),
            "\\tilde{\\omega}"
        );
        // A height named c is not a damping; a damping named c is.
        assert_eq!(parameter_symbol("c", None, Dim::LENGTH), "\\tilde{c}");
        assert_eq!(parameter_symbol("c", None, Dim::DAMPING), "c");
        assert_eq!(parameter_symbol("k", None, Dim::STIFFNESS), "k");
        assert_eq!(parameter_symbol("k2", None, Dim::LENGTH), "\\tilde{k}_{2}");
        assert_eq!(parameter_symbol("m1", None, Dim::MASS), "m_{1}");
        assert_eq!(
            parameter_symbol("m_eff", None, Dim::MASS),
            "\\tilde{m}_{\\mathrm{eff}}"
        );
        // A symbol the case sets is held to the same rule.
        assert_eq!(
            parameter_symbol("n1", Some("\\mathcal{N}_1"), Dim::NONE),
            "\\tilde{\\mathcal{N}}_1"
        );
        for kept in ["mass", "r", "theta", "Ixx", "b", "x"] {
            let s = parameter_symbol(kept, None, Dim::LENGTH);
            assert_eq!(s, super::super::latex_symbol(kept), "{kept}");
        }
        // Every marked symbol is one every format typesets alike.
        for r in RESERVED {
            let own = match r.claim {
                Claim::Exact => r.latex.to_string(),
                _ => format!("{}_{{2}}", r.latex),
            };
            let s = marked(&own, Dim([3, 3, 3]));
            assert!(s.starts_with("\\tilde{"), "{s}");
            assert_eq!(super::super::symbol_problem(&s), None, "{s}");
        }
    }
}
