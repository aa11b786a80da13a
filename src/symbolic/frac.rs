//! Rational functions in canonical form: numerator and denominator with
//! their GCD cancelled and the denominator's leading coefficient 1, so that
//! two equal rational functions have identical representations.

use super::poly::{Poly, Q, gcd};
use num_traits::One;
use std::ops::{Add, Div, Mul, Neg, Sub};

thread_local! {
    static TRIG_PAIRS: std::cell::RefCell<Vec<(usize, usize)>> = const { std::cell::RefCell::new(Vec::new()) };
    static PYTHAGORAS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with Pythagoras' identity applied in every new fraction, for
/// the (sin u, cos u) atom pairs registered while it runs
/// ([`register_trig_pair`]): rotated inertia tensors and their inverses
/// then stay small.
pub fn with_pythagoras<R>(f: impl FnOnce() -> R) -> R {
    let old_on = PYTHAGORAS.with(|p| p.replace(true));
    let old = TRIG_PAIRS.with(|p| std::mem::take(&mut *p.borrow_mut()));
    // Restored on a return and on a panic alike.
    let _restore = crate::control::finally(move || {
        TRIG_PAIRS.with(|p| *p.borrow_mut() = old);
        PYTHAGORAS.with(|p| p.set(old_on));
    });
    f()
}

/// `p` with sin² u → 1 − cos² u for the registered pairs (unchanged
/// outside [`with_pythagoras`]).
pub fn reduce_registered(p: &Poly) -> Poly {
    TRIG_PAIRS.with(|pairs| {
        let pairs = pairs.borrow();
        if pairs.is_empty() {
            p.clone()
        } else {
            super::reduce_poly(p, &pairs)
        }
    })
}

/// Registers atoms `sin u` and `cos u` (inside [`with_pythagoras`]).
pub fn register_trig_pair(sin: usize, cos: usize) {
    if PYTHAGORAS.with(std::cell::Cell::get) {
        TRIG_PAIRS.with(|p| {
            let mut p = p.borrow_mut();
            if !p.contains(&(sin, cos)) {
                p.push((sin, cos));
            }
        });
    }
}

/// A rational function `num/den` over the atoms of a [`Symbols`](super::Symbols) table.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Frac {
    num: Poly,
    den: Poly,
}

impl Frac {
    /// `num/den` in canonical form. Panics on a zero denominator (callers
    /// check first; see [`Frac::checked_div`]).
    pub fn new(num: Poly, den: Poly) -> Frac {
        assert!(!den.is_zero(), "zero denominator");
        if num.is_zero() {
            return Frac::zero();
        }
        // Inside [`with_pythagoras`]: sin² u → 1 − cos² u as we go, so that
        // rotated inertia tensors and their inverses stay small.
        let (num, den) = TRIG_PAIRS.with(|p| {
            let pairs = p.borrow();
            if pairs.is_empty() {
                (num, den)
            } else {
                let d = super::reduce_poly(&den, &pairs);
                if d.is_zero() {
                    (num, den)
                } else {
                    (super::reduce_poly(&num, &pairs), d)
                }
            }
        });
        if num.is_zero() {
            return Frac::zero();
        }
        let (mut num, mut den) = if num.len() == 1 || den.len() == 1 {
            // A divisor of a monomial is a monomial: the gcd is the common
            // monomial factor, found without a polynomial gcd.
            let a = num.monomial_content();
            let b = den.monomial_content();
            let g: Vec<u32> = (0..a.len().min(b.len())).map(|i| a[i].min(b[i])).collect();
            (num.div_monomial(&g), den.div_monomial(&g))
        } else {
            let g = gcd(&num, &den);
            // Under an exhausted budget the gcd is a stand-in and may not divide.
            match (num.div_exact(&g), den.div_exact(&g)) {
                (Some(n), Some(d)) => (n, d),
                _ => (num, den),
            }
        };
        let lc = den.leading().map(|(_, q)| q.clone()).expect("nonzero");
        if !lc.is_one() {
            let inv = lc.recip();
            num = num.scale(&inv);
            den = den.scale(&inv);
        }
        Frac { num, den }
    }

    /// A polynomial.
    pub fn poly(p: Poly) -> Frac {
        Frac {
            num: p,
            den: Poly::one(),
        }
    }

    /// A rational constant.
    pub fn constant(q: Q) -> Frac {
        Frac::poly(Poly::constant(q))
    }

    /// An integer constant.
    pub fn int(n: i64) -> Frac {
        Frac::constant(Q::from_integer(n.into()))
    }

    /// Zero.
    pub fn zero() -> Frac {
        Frac::poly(Poly::zero())
    }

    /// The atom with index `i`.
    pub fn var(i: usize) -> Frac {
        Frac::poly(Poly::var(i))
    }

    /// Numerator.
    pub fn num(&self) -> &Poly {
        &self.num
    }

    /// Denominator (leading coefficient 1).
    pub fn den(&self) -> &Poly {
        &self.den
    }

    /// The value when constant.
    pub fn as_constant(&self) -> Option<Q> {
        Some(self.num.as_constant()? / self.den.as_constant()?)
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.num.is_zero()
    }

    /// Number of terms of numerator and denominator (a size measure).
    pub fn size(&self) -> usize {
        self.num.len() + self.den.len()
    }

    /// `self / other`, `None` when `other` is zero.
    pub fn checked_div(&self, other: &Frac) -> Option<Frac> {
        if other.is_zero() {
            return None;
        }
        Some(Frac::new(
            self.num.mul(&other.den),
            self.den.mul(&other.num),
        ))
    }

    /// Integer power (negative powers invert); `None` for 0 to a negative power.
    pub fn powi(&self, e: i64) -> Option<Frac> {
        let n = u32::try_from(e.unsigned_abs()).ok()?;
        let p = Frac {
            num: self.num.pow(n),
            den: self.den.pow(n),
        };
        if e >= 0 {
            // Powers of a canonical fraction stay canonical up to the scale.
            Some(Frac::new(p.num, p.den))
        } else {
            Frac::int(1).checked_div(&Frac::new(p.num, p.den))
        }
    }

    /// Atoms that occur.
    pub fn vars(&self) -> Vec<usize> {
        let mut v = self.num.vars();
        for x in self.den.vars() {
            if !v.contains(&x) {
                v.push(x);
            }
        }
        v.sort_unstable();
        v
    }

    /// Partial derivative with respect to atom `v` (treating every other
    /// atom as independent of it).
    pub fn derivative(&self, v: usize) -> Frac {
        let dn = poly_derivative(&self.num, v);
        let dd = poly_derivative(&self.den, v);
        Frac::new(
            dn.mul(&self.den).sub(&self.num.mul(&dd)),
            self.den.mul(&self.den),
        )
    }
}

/// Partial derivative of a polynomial with respect to atom `v`.
pub fn poly_derivative(p: &Poly, v: usize) -> Poly {
    let mut out = Poly::zero();
    for (m, q) in p.terms() {
        let e = m.get(v).copied().unwrap_or(0);
        if e == 0 {
            continue;
        }
        let mut m2 = m.clone();
        m2[v] -= 1;
        out = out.add(&Poly::from_term(m2, q * Q::from_integer(e.into())));
    }
    out
}

impl Add for Frac {
    type Output = Frac;
    fn add(self, o: Frac) -> Frac {
        if self.den == o.den {
            return Frac::new(self.num.add(&o.num), self.den);
        }
        Frac::new(
            self.num.mul(&o.den).add(&o.num.mul(&self.den)),
            self.den.mul(&o.den),
        )
    }
}

impl Sub for Frac {
    type Output = Frac;
    fn sub(self, o: Frac) -> Frac {
        self + (-o)
    }
}

impl Neg for Frac {
    type Output = Frac;
    fn neg(self) -> Frac {
        Frac {
            num: self.num.neg(),
            den: self.den,
        }
    }
}

impl Mul for Frac {
    type Output = Frac;
    fn mul(self, o: Frac) -> Frac {
        if self.is_zero() || o.is_zero() {
            return Frac::zero();
        }
        Frac::new(self.num.mul(&o.num), self.den.mul(&o.den))
    }
}

impl Div for Frac {
    type Output = Frac;
    /// Panics on division by zero; assembly never divides by a value that
    /// can be zero (masses and inertias are validated positive).
    fn div(self, o: Frac) -> Frac {
        self.checked_div(&o).expect("division by zero")
    }
}

impl crate::model::Numeric for Frac {
    fn numeric(&self) -> Option<f64> {
        use num_traits::ToPrimitive;
        self.as_constant().and_then(|q| q.to_f64())
    }
}

impl crate::model::Scalar for Frac {
    fn zero() -> Self {
        Frac::zero()
    }
    fn one() -> Self {
        Frac::int(1)
    }
    fn is_zero(&self) -> bool {
        self.num.is_zero()
    }
}

impl Default for Frac {
    fn default() -> Self {
        Frac::zero()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms_agree() {
        let (m, i, r) = (Frac::var(0), Frac::var(1), Frac::var(2));
        let one = Frac::int(1);
        let a = one.clone() / m.clone() + r.clone() * r.clone() / i.clone();
        let b = (i.clone() + m.clone() * r.clone() * r.clone()) / (m.clone() * i.clone());
        assert_eq!(a, b);
        let meff = one / a;
        assert_eq!(
            meff,
            m.clone() * i.clone() / (i + m.clone() * r.clone() * r.clone())
        );
        let q = (m.clone() * m.clone() - r.clone() * r.clone()) / (m.clone() - r.clone());
        assert_eq!(q, m + r);
    }
}
