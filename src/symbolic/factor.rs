//! Square-free factoring, for printing a difference the way a person
//! would write it: `−3(lx² − ly²)²/(…)` rather than the expanded
//! `3(−lx⁴ + 2lx²ly² − ly⁴)/(…)`.
//!
//! A repeated factor of `p` divides `gcd(p, ∂p/∂x)` for every atom `x` it
//! contains, so splitting `p = g · (p/g)` at the first atom with a
//! non-constant `g` and recursing on both parts ends in factors that have no
//! repeated part; equal factors are then merged into powers. This is not a
//! full factorisation into irreducibles (`lx² − ly²` stays whole): it finds
//! the powers, which is what makes a difference readable. Atoms are
//! treated as independent variables (sin and cos of one angle included), so
//! every factorisation found is an identity of polynomials.

use super::poly::{Poly, Q, gcd};
use super::{Frac, Printer};
use num_traits::{One, Signed};

/// Work units the factoring of one printed difference may spend.
const FACTOR_BUDGET: u64 = 200_000;

/// `f` as plain text with repeated factors of its numerator and
/// denominator shown as powers; `None` when nothing repeats (the expanded
/// form says as much) or the budget runs out.
pub fn factored_text(printer: &Printer, f: &Frac) -> Option<String> {
    let (num, den) = super::poly::with_budget(FACTOR_BUDGET, || {
        (square_free(f.num()), square_free(f.den()))
    })?;
    let (cn, fnum) = num?;
    let (cd, fden) = den?;
    if !worth_showing(&fnum) && !worth_showing(&fden) {
        return None;
    }
    let c = cn / cd;
    let product = |c: &Q, factors: &[(Poly, u32)]| -> String {
        let mut parts: Vec<String> = Vec::new();
        if !c.abs().is_one() || factors.is_empty() {
            parts.push(printer.text(&Frac::constant(c.abs())));
        }
        for (g, e) in factors {
            let t = printer.text(&Frac::poly(g.clone()));
            let t = if g.len() > 1 { format!("({t})") } else { t };
            parts.push(if *e > 1 { format!("{t}^{e}") } else { t });
        }
        parts.join("*")
    };
    let sign = if c.is_negative() { "-" } else { "" };
    let top = product(&c, &fnum);
    if fden.is_empty() {
        return Some(format!("{sign}{top}"));
    }
    let bottom = product(&Q::one(), &fden);
    let bottom = if fden.len() > 1 || fden[0].0.len() > 1 || fden[0].1 > 1 {
        format!("({bottom})")
    } else {
        bottom
    };
    Some(format!("{sign}{top}/{bottom}"))
}

/// `p` as `c · ∏ fᵢ^eᵢ` with each `fᵢ` primitive (integer coefficients,
/// positive leading coefficient) and of degree ≥ 1; `None` when the work
/// budget runs out (the caller prints the expanded form).
pub fn square_free(p: &Poly) -> Option<(Q, Vec<(Poly, u32)>)> {
    if p.is_zero() {
        return None;
    }
    let mut factors: Vec<(Poly, u32)> = Vec::new();
    // The monomial content, atom by atom.
    let m = p.monomial_content();
    for (v, &e) in m.iter().enumerate() {
        if e > 0 {
            factors.push((Poly::var(v), e));
        }
    }
    let rest = p.div_monomial(&m);
    let mut parts = Vec::new();
    split(&rest.primitive(), &mut parts, 0)?;
    let mut found: Vec<(Poly, u32)> = Vec::new();
    for f in parts {
        merge(&mut found, f, 1);
    }
    coprime(&mut found)?;
    factors.extend(found);
    factors.retain(|(f, _)| f.as_constant().is_none());
    // The constant: what is left when every factor is divided out.
    let mut left = p.clone();
    for (f, e) in &factors {
        for _ in 0..*e {
            left = left.div_exact(f)?;
        }
    }
    let c = left.as_constant()?;
    if super::poly::exhausted() {
        return None;
    }
    Some((c, factors))
}

/// Appends the square-free parts of a primitive `p` (with multiplicity).
fn split(p: &Poly, out: &mut Vec<Poly>, depth: u32) -> Option<()> {
    if depth > 64 || super::poly::exhausted() {
        return None;
    }
    if p.as_constant().is_some() {
        return Some(());
    }
    for v in p.vars() {
        let d = super::frac::poly_derivative(p, v);
        if d.is_zero() {
            continue;
        }
        let g = gcd(p, &d);
        if g.as_constant().is_none() {
            let q = p.div_exact(&g)?;
            split(&g.primitive(), out, depth + 1)?;
            split(&q.primitive(), out, depth + 1)?;
            return Some(());
        }
    }
    out.push(p.clone());
    Some(())
}

/// Refines the factors until no two share a factor: `(a+b)²` and
/// `(a+b)(a−2b)` become `(a+b)³` and `(a−2b)`.
fn coprime(factors: &mut Vec<(Poly, u32)>) -> Option<()> {
    for _ in 0..64 {
        let mut split = None;
        'search: for i in 0..factors.len() {
            for j in i + 1..factors.len() {
                let h = gcd(&factors[i].0, &factors[j].0);
                if super::poly::exhausted() {
                    return None;
                }
                if h.as_constant().is_none() {
                    split = Some((i, j, h));
                    break 'search;
                }
            }
        }
        let Some((i, j, h)) = split else {
            return Some(());
        };
        let (fi, ei) = factors[i].clone();
        let (fj, ej) = factors[j].clone();
        let rest_i = fi.div_exact(&h)?.primitive();
        let rest_j = fj.div_exact(&h)?.primitive();
        factors.remove(j);
        factors.remove(i);
        for (f, e) in [(h, ei + ej), (rest_i, ei), (rest_j, ej)] {
            if f.as_constant().is_none() {
                merge(factors, f, e);
            }
        }
    }
    None
}

/// Adds `f^e` to the list, raising the power of an equal factor.
fn merge(factors: &mut Vec<(Poly, u32)>, f: Poly, e: u32) {
    match factors.iter_mut().find(|(g, _)| *g == f) {
        Some((_, k)) => *k += e,
        None => factors.push((f, e)),
    }
}

/// True when the factoring says more than the expanded form: some factor
/// is repeated, or a common factor other than a number comes out.
pub fn worth_showing(factors: &[(Poly, u32)]) -> bool {
    factors.iter().any(|(f, e)| *e > 1 && f.len() > 1)
}

/// `c · ∏ fᵢ^eᵢ` multiplied back out (for tests).
#[cfg(test)]
pub fn expand(c: &Q, factors: &[(Poly, u32)]) -> Poly {
    let mut p = Poly::constant(c.clone());
    for (f, e) in factors {
        p = p.mul(&f.pow(*e));
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x(i: usize) -> Poly {
        Poly::var(i)
    }

    #[test]
    fn finds_a_squared_difference() {
        // 3(−lx⁴ + 2lx²ly² − ly⁴) = −3(lx² − ly²)².
        let d = x(0).mul(&x(0)).sub(&x(1).mul(&x(1)));
        let p = d.pow(2).scale(&Q::from_integer((-3).into()));
        let (c, f) = square_free(&p).unwrap();
        assert_eq!(c, Q::from_integer((-3).into()));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].1, 2);
        assert_eq!(expand(&c, &f), p);
        assert!(worth_showing(&f));
    }

    #[test]
    fn powers_and_monomials_multiply_back() {
        // 6 a² b (a + b)³ (a − 2b)
        let (a, b) = (x(0), x(1));
        let p = a
            .pow(2)
            .mul(&b)
            .mul(&a.add(&b).pow(3))
            .mul(&a.sub(&b.scale(&Q::from_integer(2.into()))))
            .scale(&Q::from_integer(6.into()));
        let (c, f) = square_free(&p).unwrap();
        assert_eq!(expand(&c, &f), p);
        assert!(f.iter().any(|(g, e)| *e == 3 && *g == a.add(&b)));
    }

    #[test]
    fn a_square_free_sum_stays_whole() {
        let p = x(0).add(&x(1)).add(&Poly::one());
        let (c, f) = square_free(&p).unwrap();
        assert_eq!(f.len(), 1);
        assert!(!worth_showing(&f));
        assert_eq!(expand(&c, &f), p);
    }
}
