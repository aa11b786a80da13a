//! Sparse multivariate polynomials with exact rational coefficients, and
//! their greatest common divisor.
//!
//! A monomial is its exponent vector (variable `i` ↦ exponent, trailing
//! zeros trimmed, so each monomial has one representation); terms live in a
//! `BTreeMap`, ordered lexicographically with variable 0 most significant.
//! The GCD is the classical recursive one: view both polynomials as
//! univariate in their highest variable with polynomial coefficients, split
//! off the contents, and run a primitive pseudo-remainder sequence.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::collections::BTreeMap;

/// Exact rational numbers.
pub type Q = BigRational;

thread_local! {
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static LIMIT: std::cell::Cell<u64> = const { std::cell::Cell::new(u64::MAX) };
    /// Work spent by all budgets since [`case_budget`] started.
    static TOTAL: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static TOTAL_LIMIT: std::cell::Cell<u64> = const { std::cell::Cell::new(u64::MAX) };
}

/// Runs `f` (one case's symbolic work: derivation, claims, sensitivities)
/// with all its budgets drawing on one allowance of `limit` units, so that
/// a case with many expensive claims is bounded as a whole.
pub fn case_budget<R>(limit: u64, f: impl FnOnce() -> R) -> R {
    let (old_total, old_limit) = (TOTAL.get(), TOTAL_LIMIT.get());
    // Restored on a return and on a panic alike.
    let _restore = crate::control::finally(move || {
        TOTAL.set(old_total);
        TOTAL_LIMIT.set(old_limit);
    });
    TOTAL.set(0);
    TOTAL_LIMIT.set(limit);
    f()
}

/// Runs `f` with a budget of `limit` work units. A unit is one operation on
/// a 64-bit word of a coefficient: a product of polynomials costs the sum
/// over term pairs of `(words(p) + words(q))²` (multiplication and the
/// normalising gcd of the rational result), a sum the words it touches, so
/// the budget bounds the *size of the numbers* as well as the number of
/// terms. Degrees above [`MAX_DEGREE`] exhaust it at once. Returns `None`
/// when the budget ran out: then every operation has returned a cheap
/// stand-in and any result of `f` must be discarded. The budget makes "too
/// large for the symbolic engine" a deterministic verdict, reached in
/// bounded time whatever the input.
pub fn with_budget<R>(limit: u64, f: impl FnOnce() -> R) -> Option<R> {
    let (old_work, old_limit) = (WORK.get(), LIMIT.get());
    let remaining = TOTAL_LIMIT.get().saturating_sub(TOTAL.get());
    // On a return and on a panic alike: what this budget spent counts
    // (at most its limit: an exhausted budget's final charge may be a huge
    // estimate that was never performed), and the outer budget is back.
    let restore = crate::control::finally(move || {
        TOTAL.set(TOTAL.get().saturating_add(WORK.get().min(LIMIT.get())));
        WORK.set(old_work);
        LIMIT.set(old_limit);
    });
    WORK.set(0);
    LIMIT.set(limit.min(remaining));
    let r = f();
    let exhausted = exhausted();
    if std::env::var_os("MEFF_DEBUG_WORK").is_some() {
        eprintln!("symbolic work: {}", WORK.get());
    }
    drop(restore);
    (!exhausted).then_some(r)
}

fn spend(units: u64) {
    WORK.set(WORK.get().saturating_add(units));
}

/// Spends the whole budget: the computation cannot finish within it.
fn exhaust() {
    WORK.set(u64::MAX);
}

/// The highest exponent of any variable in a symbolic expression.
pub const MAX_DEGREE: u32 = 256;

/// 64-bit words of a rational coefficient (numerator and denominator).
fn words(q: &Q) -> u64 {
    (q.numer().bits() + q.denom().bits()) / 64 + 1
}

/// The fixed cost of one term operation (a monomial product, a map
/// insertion, a rational normalisation), in word-operation units: measured,
/// it is about three times a one-word coefficient product.
const PAIR_COST: u64 = 12;

/// Cost of adding `p`'s terms into another polynomial.
fn add_cost(p: &Poly) -> u64 {
    let (s, _) = word_sums(p);
    s.saturating_add((p.terms.len() as u64).saturating_mul(PAIR_COST))
}

/// Sum of coefficient words and of their squares.
fn word_sums(p: &Poly) -> (u64, u64) {
    p.terms.values().fold((0, 0), |(s, s2), q| {
        let w = words(q);
        (s.saturating_add(w), s2.saturating_add(w.saturating_mul(w)))
    })
}

/// True once the current budget has run out.
pub fn exhausted() -> bool {
    WORK.get() > LIMIT.get()
}

/// A monomial: exponents by variable index, no trailing zeros.
pub type Mono = Vec<u32>;

/// A polynomial over Q.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Poly {
    terms: BTreeMap<Mono, Q>,
}

fn trim(mut m: Mono) -> Mono {
    while m.last() == Some(&0) {
        m.pop();
    }
    m
}

pub(crate) fn mono_mul(a: &Mono, b: &Mono) -> Mono {
    let n = a.len().max(b.len());
    trim(
        (0..n)
            .map(|i| {
                let e = a
                    .get(i)
                    .copied()
                    .unwrap_or(0)
                    .saturating_add(b.get(i).copied().unwrap_or(0));
                if e > MAX_DEGREE {
                    exhaust();
                }
                e.min(MAX_DEGREE)
            })
            .collect(),
    )
}

/// `a / b` when every exponent of `b` is at most that of `a`.
pub(crate) fn mono_div(a: &Mono, b: &Mono) -> Option<Mono> {
    let n = a.len().max(b.len());
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let (x, y) = (
            a.get(i).copied().unwrap_or(0),
            b.get(i).copied().unwrap_or(0),
        );
        out.push(x.checked_sub(y)?);
    }
    Some(trim(out))
}

impl Poly {
    /// The zero polynomial.
    pub fn zero() -> Poly {
        Poly::default()
    }

    /// A constant.
    pub fn constant(q: Q) -> Poly {
        let mut terms = BTreeMap::new();
        if !q.is_zero() {
            terms.insert(Vec::new(), q);
        }
        Poly { terms }
    }

    /// The constant 1.
    pub fn one() -> Poly {
        Poly::constant(Q::one())
    }

    /// The variable `i`.
    pub fn var(i: usize) -> Poly {
        let mut m = vec![0; i + 1];
        m[i] = 1;
        Poly::from_term(m, Q::one())
    }

    /// A single term.
    pub fn from_term(m: Mono, q: Q) -> Poly {
        let mut terms = BTreeMap::new();
        if !q.is_zero() {
            terms.insert(trim(m), q);
        }
        Poly { terms }
    }

    /// Terms in increasing lexicographic order.
    pub fn terms(&self) -> impl DoubleEndedIterator<Item = (&Mono, &Q)> {
        self.terms.iter()
    }

    /// Number of terms.
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    /// True for the zero polynomial (no terms).
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// True for the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// The value when the polynomial is a constant.
    pub fn as_constant(&self) -> Option<Q> {
        match self.terms.len() {
            0 => Some(Q::zero()),
            1 => self.terms.get(&Vec::new()).cloned(),
            _ => None,
        }
    }

    /// Leading (lexicographically largest) term.
    pub fn leading(&self) -> Option<(&Mono, &Q)> {
        self.terms.iter().next_back()
    }

    /// Highest variable index that occurs, if any.
    pub fn max_var(&self) -> Option<usize> {
        self.terms
            .keys()
            .filter(|m| !m.is_empty())
            .map(|m| m.len() - 1)
            .max()
    }

    /// Variables that occur.
    pub fn vars(&self) -> Vec<usize> {
        let mut seen: Vec<usize> = Vec::new();
        for m in self.terms.keys() {
            for (i, &e) in m.iter().enumerate() {
                if e > 0 && !seen.contains(&i) {
                    seen.push(i);
                }
            }
        }
        seen.sort_unstable();
        seen
    }

    fn add_term(&mut self, m: Mono, q: Q) {
        if q.is_zero() {
            return;
        }
        use std::collections::btree_map::Entry;
        match self.terms.entry(m) {
            Entry::Vacant(e) => {
                e.insert(q);
            }
            Entry::Occupied(mut e) => {
                *e.get_mut() += q;
                if e.get().is_zero() {
                    e.remove();
                }
            }
        }
    }

    /// Sum.
    pub fn add(&self, other: &Poly) -> Poly {
        if exhausted() {
            return Poly::one();
        }
        spend(add_cost(other));
        let mut out = self.clone();
        for (m, q) in &other.terms {
            out.add_term(m.clone(), q.clone());
        }
        out
    }

    /// Difference.
    pub fn sub(&self, other: &Poly) -> Poly {
        if exhausted() {
            return Poly::one();
        }
        spend(add_cost(other));
        let mut out = self.clone();
        for (m, q) in &other.terms {
            out.add_term(m.clone(), -q.clone());
        }
        out
    }

    /// Negation.
    pub fn neg(&self) -> Poly {
        Poly {
            terms: self
                .terms
                .iter()
                .map(|(m, q)| (m.clone(), -q.clone()))
                .collect(),
        }
    }

    /// Product.
    pub fn mul(&self, other: &Poly) -> Poly {
        if exhausted() {
            return Poly::one();
        }
        // Σ over pairs of (PAIR_COST + (w_a + w_b)²)
        //   = n_a n_b PAIR_COST + n_b Σw_a² + 2 Σw_a Σw_b + n_a Σw_b².
        let ((sa, sa2), (sb, sb2)) = (word_sums(self), word_sums(other));
        let (na, nb) = (self.terms.len() as u64, other.terms.len() as u64);
        spend(
            na.saturating_mul(nb)
                .saturating_mul(PAIR_COST)
                .saturating_add(nb.saturating_mul(sa2))
                .saturating_add(sa.saturating_mul(sb).saturating_mul(2))
                .saturating_add(na.saturating_mul(sb2)),
        );
        if exhausted() {
            return Poly::one();
        }
        let mut out = Poly::zero();
        for (a, p) in &self.terms {
            for (b, q) in &other.terms {
                out.add_term(mono_mul(a, b), p * q);
            }
        }
        out
    }

    /// Product with a constant.
    pub fn scale(&self, q: &Q) -> Poly {
        if q.is_zero() {
            return Poly::zero();
        }
        let (s, s2) = word_sums(self);
        let w = words(q);
        spend(
            s2.saturating_add(s.saturating_mul(w).saturating_mul(2))
                .saturating_add((self.terms.len() as u64).saturating_mul(w * w)),
        );
        if exhausted() {
            return Poly::one();
        }
        Poly {
            terms: self.terms.iter().map(|(m, c)| (m.clone(), c * q)).collect(),
        }
    }

    /// Integer power.
    pub fn pow(&self, e: u32) -> Poly {
        if e > MAX_DEGREE && self.as_constant().is_none() {
            exhaust();
        }
        if exhausted() {
            return Poly::one();
        }
        let mut out = Poly::one();
        let mut base = self.clone();
        let mut e = e;
        while e > 0 {
            if e & 1 == 1 {
                out = out.mul(&base);
            }
            e >>= 1;
            if e > 0 {
                base = base.mul(&base);
            }
        }
        out
    }

    /// Degree in variable `v`.
    pub fn degree_in(&self, v: usize) -> u32 {
        self.terms
            .keys()
            .map(|m| m.get(v).copied().unwrap_or(0))
            .max()
            .unwrap_or(0)
    }

    /// Coefficients as a polynomial in `v`: `(exponent, coefficient)`.
    pub fn coeffs_in(&self, v: usize) -> BTreeMap<u32, Poly> {
        let mut out: BTreeMap<u32, Poly> = BTreeMap::new();
        for (m, q) in &self.terms {
            let e = m.get(v).copied().unwrap_or(0);
            let mut rest = m.clone();
            if v < rest.len() {
                rest[v] = 0;
            }
            out.entry(e).or_default().add_term(trim(rest), q.clone());
        }
        out
    }

    /// The coefficient of the highest power of `v`.
    pub fn lead_coeff_in(&self, v: usize) -> Poly {
        let d = self.degree_in(v);
        self.coeffs_in(v).remove(&d).unwrap_or_default()
    }

    fn times_var_pow(&self, v: usize, e: u32) -> Poly {
        if e == 0 {
            return self.clone();
        }
        let mut m = vec![0; v + 1];
        m[v] = e;
        self.mul(&Poly::from_term(m, Q::one()))
    }

    /// The largest monomial dividing every term (with coefficient 1).
    pub fn monomial_content(&self) -> Mono {
        let mut it = self.terms.keys();
        let Some(first) = it.next() else {
            return Vec::new();
        };
        let mut g = first.clone();
        for m in it {
            g.truncate(m.len());
            for (i, e) in g.iter_mut().enumerate() {
                *e = (*e).min(m[i]);
            }
        }
        trim(g)
    }

    /// Divides every term by a monomial that divides all of them.
    pub fn div_monomial(&self, m: &Mono) -> Poly {
        Poly {
            terms: self
                .terms
                .iter()
                .map(|(t, q)| {
                    (
                        mono_div(t, m).expect("monomial divides every term"),
                        q.clone(),
                    )
                })
                .collect(),
        }
    }

    /// Exact division; `None` when `other` does not divide `self`.
    pub fn div_exact(&self, other: &Poly) -> Option<Poly> {
        if other.is_zero() {
            return None;
        }
        if let Some(c) = other.as_constant() {
            return Some(self.scale(&c.recip()));
        }
        let (lm, lc) = other.leading().map(|(m, q)| (m.clone(), q.clone()))?;
        let mut rem = self.clone();
        let mut quo = Poly::zero();
        while let Some((m, q)) = rem.leading().map(|(m, q)| (m.clone(), q.clone())) {
            let tm = mono_div(&m, &lm)?;
            let t = Poly::from_term(tm, q / &lc);
            rem = rem.sub(&t.mul(other));
            quo = quo.add(&t);
        }
        Some(quo)
    }

    /// Pseudo-remainder of `self` by `b` as polynomials in `v`.
    fn prem(&self, b: &Poly, v: usize) -> Poly {
        let db = b.degree_in(v);
        let lb = b.lead_coeff_in(v);
        let mut r = self.clone();
        while !r.is_zero() && r.degree_in(v) >= db && !exhausted() {
            let dr = r.degree_in(v);
            let lr = r.lead_coeff_in(v);
            r = r.mul(&lb).sub(&b.mul(&lr).times_var_pow(v, dr - db));
        }
        r
    }

    /// Content in `v`: the GCD of the coefficients of `self` seen as a
    /// polynomial in `v`.
    fn content_in(&self, v: usize) -> Poly {
        let mut g = Poly::zero();
        for c in self.coeffs_in(v).into_values() {
            g = gcd(&g, &c);
            if g.as_constant().is_some_and(|q| !q.is_zero()) {
                return Poly::one();
            }
        }
        g
    }

    /// Scales to integer coefficients with gcd 1 and a positive leading
    /// coefficient (a canonical representative up to a rational factor).
    pub fn primitive(&self) -> Poly {
        if self.is_zero() {
            return Poly::zero();
        }
        let mut lcm = BigInt::one();
        for q in self.terms.values() {
            spend((lcm.bits() / 64 + 1) * (q.denom().bits() / 64 + 1));
            lcm = lcm.lcm(q.denom());
        }
        let mut g = BigInt::zero();
        for q in self.terms.values() {
            let n = q.numer() * (&lcm / q.denom());
            spend((n.bits() / 64 + 1) * (lcm.bits() / 64 + 1));
            g = g.gcd(&n);
        }
        let mut factor = Q::new(lcm, g);
        if self.leading().is_some_and(|(_, q)| q.is_negative()) {
            factor = -factor;
        }
        self.scale(&factor)
    }
}

/// Greatest common divisor, primitive with a positive leading coefficient;
/// `gcd(0, 0) = 0`.
pub fn gcd(a: &Poly, b: &Poly) -> Poly {
    if exhausted() {
        // The caller's result is discarded (see `with_budget`).
        return Poly::one();
    }
    if a.is_zero() {
        return b.primitive();
    }
    if b.is_zero() {
        return a.primitive();
    }
    if a.as_constant().is_some() || b.as_constant().is_some() {
        return Poly::one();
    }
    let v = a.max_var().max(b.max_var()).expect("non-constant");
    let (da, db) = (a.degree_in(v), b.degree_in(v));
    if da == 0 {
        return gcd(a, &b.content_in(v));
    }
    if db == 0 {
        return gcd(&a.content_in(v), b);
    }
    let (ca, cb) = (a.content_in(v), b.content_in(v));
    let c = gcd(&ca, &cb);
    let mut p = a.div_exact(&ca).unwrap_or_else(|| a.clone()).primitive();
    let mut q = b.div_exact(&cb).unwrap_or_else(|| b.clone()).primitive();
    if p.degree_in(v) < q.degree_in(v) {
        std::mem::swap(&mut p, &mut q);
    }
    while !q.is_zero() {
        if exhausted() {
            return Poly::one();
        }
        let r = p.prem(&q, v);
        p = q;
        q = if r.is_zero() {
            r
        } else {
            let cr = r.content_in(v);
            r.div_exact(&cr).unwrap_or_else(|| r.clone()).primitive()
        };
        if q.degree_in(v) == 0 && !q.is_zero() {
            // A nonzero remainder free of v: the primitive parts are coprime in v.
            return c.primitive();
        }
    }
    let pp = p.div_exact(&p.content_in(v)).unwrap_or_else(|| p.clone());
    pp.mul(&c).primitive()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_inside_a_budget_leaves_the_outer_one() {
        case_budget(1000, || {
            let before = (WORK.get(), LIMIT.get(), TOTAL_LIMIT.get());
            let caught = std::panic::catch_unwind(|| {
                with_budget(10, || -> () { panic!("a derivation fails") })
            });
            assert!(caught.is_err());
            assert_eq!((WORK.get(), LIMIT.get(), TOTAL_LIMIT.get()), before);
        });
        assert_eq!(TOTAL_LIMIT.get(), u64::MAX, "no case budget outside");
    }

    fn q(n: i64) -> Q {
        Q::from_integer(n.into())
    }

    #[test]
    fn gcd_of_difference_of_squares() {
        let (m, r) = (Poly::var(0), Poly::var(1));
        let a = m.mul(&m).sub(&r.mul(&r));
        let b = m.sub(&r);
        assert_eq!(gcd(&a, &b), b);
        assert_eq!(a.div_exact(&b).unwrap(), m.add(&r));
    }

    #[test]
    fn gcd_multivariate() {
        let (x, y, z) = (Poly::var(0), Poly::var(1), Poly::var(2));
        let f = x.mul(&y).add(&z.scale(&q(3)));
        let g1 = x.add(&y).pow(2).mul(&f);
        let g2 = x.sub(&z).mul(&f).scale(&q(6));
        assert_eq!(gcd(&g1, &g2), f.primitive());
        let coprime = gcd(&x.add(&y), &x.sub(&y));
        assert_eq!(coprime, Poly::one());
    }
}
