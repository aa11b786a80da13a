//! Printing rational functions as plain text (which meff's parser reads
//! back) and as LaTeX.
//!
//! A fraction whose denominator is a single monomial is printed as a sum of
//! simple terms (`1/m + r^2/I`: the physics' sum of inverse inertias);
//! otherwise as one fraction (`m*I/(I + m*r^2)`). Terms come in increasing
//! lexicographic order of their monomials, so the order follows the order in
//! which the case introduces its parameters.

use super::poly::{Mono, Poly, Q};
use super::{Atom, Frac, Readable, Symbols};
use crate::expr::Func;
use crate::notation::latex_symbol;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// How to print each atom, in text and LaTeX.
#[derive(Clone)]
pub struct Printer<'a> {
    symbols: &'a Symbols,
    text_names: Vec<String>,
    latex_names: Vec<String>,
    /// True when atom names are substituted values (printed in parentheses
    /// when raised to a power or multiplied).
    substituted: bool,
    /// Sums printed by name: (sum, text, LaTeX).
    named: Vec<(Poly, String, String)>,
}

/// One monomial term with signed exponents: coefficient × Π atom^e.
#[derive(Clone)]
struct Term {
    coeff: Q,
    exps: Vec<i64>,
}

impl<'a> Printer<'a> {
    /// A printer that writes parameters by name; `latex_overrides` gives a
    /// LaTeX symbol per parameter name where the case sets one.
    pub fn names(symbols: &'a Symbols, latex_overrides: &[(String, String)]) -> Self {
        let by_name: std::collections::HashMap<&str, &str> = latex_overrides
            .iter()
            .map(|(n, s)| (n.as_str(), s.as_str()))
            .collect();
        Self::with(symbols, false, |p| {
            let latex = by_name
                .get(p)
                .map_or_else(|| latex_symbol(p), |s| (*s).to_string());
            (p.to_string(), latex)
        })
    }

    /// A printer that writes each parameter as the given value (text, LaTeX).
    pub fn values(symbols: &'a Symbols, values: &[(String, String, String)]) -> Self {
        Self::with(symbols, true, |p| {
            values.iter().find(|(n, _, _)| n == p).map_or_else(
                || (p.to_string(), p.to_string()),
                |(_, t, l)| (t.clone(), l.clone()),
            )
        })
    }

    /// A printer with (text, LaTeX) for each parameter from `name_of`.
    fn with(
        symbols: &'a Symbols,
        substituted: bool,
        name_of: impl Fn(&str) -> (String, String),
    ) -> Self {
        let (text_names, latex_names) = symbols
            .atoms()
            .iter()
            .map(|a| match a {
                Atom::Param(p) => name_of(p),
                // By value until `with_given` names it.
                Atom::Given(q, dim) => {
                    let t = super::given::quantity_text(q, *dim);
                    let l = crate::notation::latex_quantity(&t);
                    if substituted {
                        (t, l)
                    } else {
                        (format!("({t})"), paren(&l, true))
                    }
                }
                _ => (String::new(), String::new()),
            })
            .unzip();
        Printer {
            symbols,
            text_names,
            latex_names,
            substituted,
            named: Vec::new(),
        }
    }

    /// A printer that writes the typed quantities (`Atom::Given`) by
    /// their symbols (ℓ₁) in LaTeX, or by their values where the printer
    /// substitutes values; text forms always write the value, `(0.02 m)`,
    /// which meff's parser reads back.
    pub fn with_given(mut self, given: &[super::GivenQuantity]) -> Self {
        for g in given {
            if g.atom >= self.text_names.len() {
                continue;
            }
            if self.substituted {
                self.text_names[g.atom] = g.text.clone();
                self.latex_names[g.atom] = g.latex.clone();
            } else {
                self.text_names[g.atom] = format!("({})", g.text);
                self.latex_names[g.atom] = g.symbol.clone();
            }
        }
        self
    }

    /// Plain text.
    pub fn text(&self, f: &Frac) -> String {
        self.render(f.num(), f.den(), false)
    }

    /// A readable form as plain text.
    pub fn readable_text(&self, r: &Readable) -> String {
        self.render(&r.num, &r.den, false)
    }

    /// A readable form in LaTeX.
    pub fn readable_latex(&self, r: &Readable) -> String {
        self.render(&r.num, &r.den, true)
    }

    /// LaTeX.
    pub fn latex(&self, f: &Frac) -> String {
        self.render(f.num(), f.den(), true)
    }

    fn render(&self, num: &Poly, den: &Poly, latex: bool) -> String {
        if let Some((m, q)) = single(den) {
            // Monomial denominator: a sum of simple terms.
            let terms: Vec<Term> = num
                .terms()
                .map(|(n, c)| Term {
                    coeff: c / q,
                    exps: signed_exps(n, m),
                })
                .collect();
            return self.sum(&terms, latex);
        }
        let (num, den) = self.signed_parts(num, den);
        if latex {
            return format!(
                "\\frac{{{}}}{{{}}}",
                self.factored(&num, true),
                self.factored(&den, true)
            );
        }
        let n = self.factored(&num, false);
        let d = self.factored(&den, false);
        let n = if num.len() > 1 && !is_product(&n) {
            format!("({n})")
        } else {
            n
        };
        let d = if den.len() > 1 || d.contains(['*', '/']) {
            format!("({d})")
        } else {
            d
        };
        format!("{n}/{d}")
    }

    /// A sum with its common factor taken out: `12*m2*(a + b)` for
    /// `12*m2*a + 12*m2*b`; a sum that is a named quantity prints as its
    /// name.
    fn factored(&self, terms: &[Term], latex: bool) -> String {
        if terms.len() < 2 {
            return self.sum(terms, latex);
        }
        let (factor, rest) = split_content(terms);
        let inner = self.named_or_sum(&rest, latex);
        let Some(factor) = factor else {
            return inner;
        };
        let factor = if -factor.coeff.clone() == Q::one() && factor.exps.iter().all(|&e| e == 0) {
            "-".to_string()
        } else {
            let mut f = self.term(&factor, latex);
            if latex {
                f.push_str("\\,");
            } else {
                f.push('*');
            }
            f
        };
        let bare = self.is_name(&rest);
        match (latex, bare) {
            // A substituted name is a number: `4 · 0.005851`.
            (true, true) if self.substituted && factor != "-" => {
                format!("{}\\cdot {inner}", factor.trim_end_matches("\\,"))
            }
            (true, true) | (false, true) => format!("{factor}{inner}"),
            (true, false) => format!("{factor}\\left({inner}\\right)"),
            (false, false) => format!("{factor}({inner})"),
        }
    }

    fn is_name(&self, terms: &[Term]) -> bool {
        let p = terms_poly(terms);
        self.named.iter().any(|(q, _, _)| Some(q) == p.as_ref())
    }

    fn named_or_sum(&self, terms: &[Term], latex: bool) -> String {
        if let Some(p) = terms_poly(terms)
            && let Some((_, text, tex)) = self.named.iter().find(|(q, _, _)| *q == p)
        {
            return if latex { tex.clone() } else { text.clone() };
        }
        self.sum(terms, latex)
    }

    /// The sums a fraction prints inside its numerator and denominator once
    /// their common factors are taken out (sign-normalised as printed):
    /// candidates for named quantities. Empty for a sum of simple terms.
    pub fn cores(&self, r: &Readable) -> Vec<Poly> {
        if single(&r.den).is_some() {
            return Vec::new();
        }
        let (num, den) = self.signed_parts(&r.num, &r.den);
        [num, den]
            .iter()
            .filter(|t| t.len() > 1)
            .filter_map(|t| terms_poly(&split_content(t).1))
            .collect()
    }

    /// A printer that prints the given sums by name: (sum, text, LaTeX).
    pub fn with_named(mut self, named: Vec<(Poly, String, String)>) -> Self {
        self.named = named;
        self
    }

    /// A sum in plain text and LaTeX.
    pub fn poly_forms(&self, p: &Poly) -> (String, String) {
        let t = poly_terms(p);
        (self.sum(&t, false), self.sum(&t, true))
    }

    /// Numerator and denominator terms, signs flipped so that the
    /// denominator's first printed term is positive.
    fn signed_parts(&self, num: &Poly, den: &Poly) -> (Vec<Term>, Vec<Term>) {
        let mut num = poly_terms(num);
        let mut den = poly_terms(den);
        let first = den
            .iter()
            .min_by_key(|t| sort_key(t))
            .map(|t| t.coeff.is_negative());
        if first == Some(true) {
            for t in num.iter_mut().chain(den.iter_mut()) {
                t.coeff = -t.coeff.clone();
            }
        }
        (num, den)
    }

    fn sum(&self, terms: &[Term], latex: bool) -> String {
        if terms.is_empty() {
            return "0".into();
        }
        let mut order: Vec<&Term> = terms.iter().collect();
        order.sort_by_key(|t| sort_key(t));
        let order_len = order.len();
        let mut out = String::new();
        for (i, t) in order.into_iter().enumerate() {
            let negative = t.coeff.is_negative();
            let nonzero: Vec<usize> = (0..t.exps.len()).filter(|&i| t.exps[i] != 0).collect();
            let body = if t.coeff.abs().is_one()
                && order_len > 1
                && nonzero.len() == 1
                && t.exps[nonzero[0]] == 1
            {
                // A lone atom in a sum needs no parentheses (`30 deg - 75 deg`).
                self.atom(nonzero[0], latex)
            } else {
                self.term(
                    &Term {
                        coeff: t.coeff.abs(),
                        exps: t.exps.clone(),
                    },
                    latex,
                )
            };
            match (i, negative) {
                (0, true) => out.push('-'),
                (0, false) => {}
                (_, true) => out.push_str(" - "),
                (_, false) => out.push_str(" + "),
            }
            out.push_str(&body);
        }
        out
    }

    /// One positive term.
    fn term(&self, t: &Term, latex: bool) -> String {
        let (p, q) = (t.coeff.numer().clone(), t.coeff.denom().clone());
        let mut up: Vec<String> = Vec::new();
        let mut down: Vec<String> = Vec::new();
        if !p.is_one() {
            up.push(p.to_string());
        }
        if !q.is_one() {
            down.push(q.to_string());
        }
        for (i, &e) in t.exps.iter().enumerate() {
            if e > 0 {
                up.push(self.power(i, e, latex));
            } else if e < 0 {
                down.push(self.power(i, -e, latex));
            }
        }
        let sep = if latex { "\\," } else { "*" };
        let top = if up.is_empty() {
            "1".to_string()
        } else {
            up.join(sep)
        };
        if down.is_empty() {
            return top;
        }
        if latex {
            return format!("\\frac{{{top}}}{{{}}}", down.join(sep));
        }
        let bottom = if down.len() > 1 {
            format!("({})", down.join("*"))
        } else {
            down.join("*")
        };
        format!("{top}/{bottom}")
    }

    fn power(&self, atom: usize, e: i64, latex: bool) -> String {
        let base = self.atom(atom, latex);
        let compound = self.substituted
            && matches!(self.symbols.atoms()[atom], Atom::Param(_) | Atom::Given(..));
        if e == 1 {
            return if compound { paren(&base, latex) } else { base };
        }
        let base = if compound { paren(&base, latex) } else { base };
        if latex {
            format!("{base}^{{{e}}}")
        } else {
            format!("{base}^{e}")
        }
    }

    fn atom(&self, i: usize, latex: bool) -> String {
        match &self.symbols.atoms()[i] {
            Atom::Param(_) | Atom::Given(..) => {
                if latex {
                    self.latex_names[i].clone()
                } else {
                    self.text_names[i].clone()
                }
            }
            Atom::Pi => (if latex { "\\pi" } else { "pi" }).into(),
            Atom::Call(func, arg) => {
                let mut inner = self.render(arg.num(), arg.den(), latex);
                // `sin(30 deg)`, not `sin((30 deg))`.
                if arg.num().len() == 1
                    && arg.den().as_constant().is_some_and(|q| q.is_one())
                    && arg
                        .num()
                        .terms()
                        .all(|(m, q)| q.is_one() && m.iter().sum::<u32>() == 1)
                {
                    let (open, close) = if latex {
                        ("\\left(", "\\right)")
                    } else {
                        ("(", ")")
                    };
                    if let Some(bare) = inner.strip_prefix(open).and_then(|s| s.strip_suffix(close))
                    {
                        inner = bare.to_string();
                    }
                }
                if latex {
                    match func {
                        Func::Sqrt => format!("\\sqrt{{{inner}}}"),
                        Func::Abs => format!("\\left|{inner}\\right|"),
                        Func::Log10 => format!("\\log_{{10}}\\left({inner}\\right)"),
                        Func::Asin => format!("\\arcsin\\left({inner}\\right)"),
                        Func::Acos => format!("\\arccos\\left({inner}\\right)"),
                        Func::Atan => format!("\\arctan\\left({inner}\\right)"),
                        _ => format!("\\{}\\left({inner}\\right)", func.name()),
                    }
                } else {
                    format!("{}({inner})", func.name())
                }
            }
        }
    }
}

/// Simplest terms first; among equals, the one whose symbols the case
/// introduced first (`I + m*r^2`, `q1 - q2`, `1/m1 + 1/m2`).
fn sort_key(t: &Term) -> (i64, Vec<usize>, Vec<i64>) {
    let degree: i64 = t.exps.iter().map(|e| e.abs()).sum();
    let vars: Vec<usize> = (0..t.exps.len()).filter(|&i| t.exps[i] != 0).collect();
    (degree, vars, t.exps.iter().map(|e| -e).collect())
}

/// The common factor of a sum (positive integer content × common monomial;
/// `None` when it is 1) and the sum divided by it.
fn split_content(terms: &[Term]) -> (Option<Term>, Vec<Term>) {
    let mut g = num_bigint::BigInt::zero();
    for t in terms {
        g = g.gcd(t.coeff.numer());
    }
    let n = terms.iter().map(|t| t.exps.len()).max().unwrap_or(0);
    let mono: Vec<i64> = (0..n)
        .map(|i| {
            terms
                .iter()
                .map(|t| t.exps.get(i).copied().unwrap_or(0).max(0))
                .min()
                .unwrap_or(0)
        })
        .collect();
    if g.is_zero() {
        return (None, terms.to_vec());
    }
    // Only an integer content is taken out (`12*(…)`, never `1/7*(…)`);
    // a sum whose terms are all negative gives its sign to the factor.
    let g = if terms.iter().all(|t| t.coeff.denom().is_one()) {
        g
    } else {
        num_bigint::BigInt::one()
    };
    let content = if terms.iter().all(|t| t.coeff.is_negative()) {
        -Q::from_integer(g)
    } else {
        Q::from_integer(g)
    };
    if content.is_one() && mono.iter().all(|&e| e == 0) {
        return (None, terms.to_vec());
    }
    let rest = terms
        .iter()
        .map(|t| Term {
            coeff: &t.coeff / &content,
            exps: (0..n)
                .map(|i| t.exps.get(i).copied().unwrap_or(0) - mono[i])
                .collect(),
        })
        .collect();
    (
        Some(Term {
            coeff: content,
            exps: mono,
        }),
        rest,
    )
}

/// The polynomial of terms with nonnegative exponents.
fn terms_poly(terms: &[Term]) -> Option<Poly> {
    let mut p = Poly::zero();
    for t in terms {
        let m: Vec<u32> = t
            .exps
            .iter()
            .map(|&e| u32::try_from(e).ok())
            .collect::<Option<_>>()?;
        let mut m = m;
        while m.last() == Some(&0) {
            m.pop();
        }
        p = p.add(&Poly::from_term(m, t.coeff.clone()));
    }
    Some(p)
}

/// True for `c*(…)`: a product whose last factor is parenthesised.
fn is_product(s: &str) -> bool {
    s.ends_with(')') && s.contains("*(") && {
        // The parenthesis closing at the end opens after the last top-level `*`.
        let mut depth = 0;
        let mut top_star = false;
        for c in s.chars() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                '+' | '-' if depth == 0 => return false,
                '*' if depth == 0 => top_star = true,
                _ => {}
            }
        }
        top_star
    }
}

fn paren(s: &str, latex: bool) -> String {
    if latex {
        format!("\\left({s}\\right)")
    } else {
        format!("({s})")
    }
}

fn single(p: &Poly) -> Option<(&Mono, &Q)> {
    if p.len() == 1 { p.leading() } else { None }
}

fn signed_exps(num: &Mono, den: &Mono) -> Vec<i64> {
    let n = num.len().max(den.len());
    (0..n)
        .map(|i| {
            i64::from(num.get(i).copied().unwrap_or(0))
                - i64::from(den.get(i).copied().unwrap_or(0))
        })
        .collect()
}

fn poly_terms(p: &Poly) -> Vec<Term> {
    p.terms()
        .map(|(m, q)| Term {
            coeff: q.clone(),
            exps: m.iter().map(|&e| i64::from(e)).collect(),
        })
        .collect()
}
