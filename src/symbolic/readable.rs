//! Readable forms: what a careful hand derivation would write.
//!
//! The canonical form ([`Frac`]) is right for deciding equality but not for
//! reading: Pythagoras' identity is applied in one direction only
//! (`sin² u → 1 − cos² u`) and coefficients are normalised to a monic
//! denominator. For printing, a form is searched that uses the identities a
//! mechanical engineer uses, in both directions:
//!
//! * `sin² u + cos² u = 1`;
//! * angle sums and differences, `sin(u ± v)`, `cos(u ± v)`;
//! * double angles, `sin 2u`, `cos 2u`;
//! * `√x · √x = x`.
//!
//! The search is greedy: from the canonical numerator (and denominator)
//! it repeatedly takes out `c · t^k` for a candidate `t` (a new angle atom
//! such as `sin(q1 − q2)`) and a monomial `c` read off a matching term, and
//! keeps the rewrite that leaves the fewest terms. Then the fraction is
//! scaled to coprime integer coefficients (`12 sin²q1 / (4 m1 + 3 m2 +
//! 9 m2 sin²(q1 − q2))`). Readable forms are for printing only: every
//! comparison uses the canonical form. The search runs in its own work
//! budget; when that runs out the canonical form is printed.

use super::poly::{self, Mono, Poly, Q};
use super::{Atom, Frac, Symbols};
use crate::expr::Func;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// Work units one readable form may spend.
pub const READABLE_BUDGET: u64 = 400_000;

/// A fraction as printed: numerator and denominator, not normalised.
#[derive(Clone, Debug, PartialEq)]
pub struct Readable {
    /// Numerator.
    pub num: Poly,
    /// Denominator.
    pub den: Poly,
}

impl Readable {
    /// The canonical form printed as it is.
    pub fn plain(f: &Frac) -> Readable {
        Readable {
            num: f.num().clone(),
            den: f.den().clone(),
        }
    }

    /// The reciprocal (`m_eff = 1/a` reuses the parts of `a`).
    pub fn recip(&self) -> Option<Readable> {
        (!self.num.is_zero()).then(|| Readable {
            num: self.den.clone(),
            den: self.num.clone(),
        })
    }
}

/// A candidate rewrite: the atom `t`, its power, and `t^k` expanded over
/// the base atoms in canonical form.
struct Pattern {
    atom: usize,
    power: u32,
    expansion: Poly,
}

/// The readable form of `f`. May add angle atoms (`sin(q1 − q2)`) to
/// `symbols`.
pub fn readable(f: &Frac, symbols: &mut Symbols) -> Readable {
    let f = super::reduce_trig(&reduce_roots(f, symbols), symbols);
    let searched = poly::with_budget(READABLE_BUDGET, || {
        let patterns = patterns(&f, symbols);
        let num = rewrite(f.num(), &patterns, symbols);
        let den = rewrite(f.den(), &patterns, symbols);
        (num, den)
    });
    let (num, den) = searched.unwrap_or_else(|| (f.num().clone(), f.den().clone()));
    integer_scaled(num, den)
}

/// `√x^2 → x` wherever a square root atom appears squared.
pub fn reduce_roots(f: &Frac, symbols: &Symbols) -> Frac {
    let roots: Vec<(usize, &Frac)> = symbols
        .atoms()
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Atom::Call(Func::Sqrt, arg) => Some((i, arg)),
            _ => None,
        })
        .collect();
    let squared = |p: &Poly| {
        p.terms().any(|(m, _)| {
            roots
                .iter()
                .any(|(i, _)| m.get(*i).copied().unwrap_or(0) >= 2)
        })
    };
    if roots.is_empty() || !(squared(f.num()) || squared(f.den())) {
        return f.clone();
    }
    let expand = |p: &Poly| -> Frac {
        let mut sum = Frac::zero();
        for (m, q) in p.terms() {
            let mut term = Frac::constant(q.clone());
            let mut rest = m.clone();
            for (i, arg) in &roots {
                let e = rest.get(*i).copied().unwrap_or(0);
                if e >= 2 {
                    rest[*i] = e % 2;
                    if let Some(p) = arg.powi(i64::from(e / 2)) {
                        term = term * p;
                    }
                }
            }
            term = term * Frac::poly(Poly::from_term(trim(rest), Q::one()));
            sum = sum + term;
        }
        sum
    };
    expand(f.num())
        .checked_div(&expand(f.den()))
        .unwrap_or_else(|| f.clone())
}

fn trim(mut m: Mono) -> Mono {
    while m.last() == Some(&0) {
        m.pop();
    }
    m
}

/// The angles `u` that appear as `sin u` or `cos u` in `f`, with the atoms
/// of their sine and cosine (interned when missing).
fn angles(f: &Frac, symbols: &mut Symbols) -> Vec<(Frac, usize, usize)> {
    let mut args: Vec<Frac> = Vec::new();
    let mut used = f.num().vars();
    used.extend(f.den().vars());
    used.sort_unstable();
    used.dedup();
    for v in used {
        if let Atom::Call(Func::Sin | Func::Cos, u) = &symbols.atoms()[v]
            && !args.contains(u)
        {
            args.push(u.clone());
        }
    }
    // In the order the case introduces the symbols: `q1 - q2`, not `q2 - q1`.
    args.sort_by_key(|u| {
        let mut v = u.num().vars();
        v.extend(u.den().vars());
        v
    });
    args.into_iter()
        .map(|u| {
            let x = symbols.eval(&u);
            let s = symbols.intern(Atom::Call(Func::Sin, u.clone()), x.sin());
            let c = symbols.intern(Atom::Call(Func::Cos, u.clone()), x.cos());
            (u, s, c)
        })
        .collect()
}

fn var(i: usize) -> Poly {
    Poly::var(i)
}

/// Candidate rewrites for the angles of `f`.
fn patterns(f: &Frac, symbols: &mut Symbols) -> Vec<Pattern> {
    let angles = angles(f, symbols);
    let pairs = super::trig_pairs(symbols);
    let canon = |p: Poly| super::reduce_poly(&p, &pairs);
    let mut out = Vec::new();
    let add =
        |out: &mut Vec<Pattern>, symbols: &mut Symbols, func: Func, arg: Frac, expansion: Poly| {
            let x = symbols.eval(&arg);
            let value = if func == Func::Sin { x.sin() } else { x.cos() };
            let atom = symbols.intern(Atom::Call(func, arg), value);
            for power in [1, 2] {
                out.push(Pattern {
                    atom,
                    power,
                    expansion: canon(expansion.pow(power)),
                });
            }
        };
    for (u, s, c) in &angles {
        // sin² u = 1 − cos² u (the canonical form has only cos²).
        out.push(Pattern {
            atom: *s,
            power: 2,
            expansion: canon(var(*s).pow(2)),
        });
        let two = Frac::int(2) * u.clone();
        add(
            &mut out,
            symbols,
            Func::Sin,
            two.clone(),
            var(*s).mul(&var(*c)).scale(&Q::from_integer(2.into())),
        );
        add(
            &mut out,
            symbols,
            Func::Cos,
            two,
            var(*c)
                .pow(2)
                .scale(&Q::from_integer(2.into()))
                .sub(&Poly::one()),
        );
    }
    for (i, (u, su, cu)) in angles.iter().enumerate() {
        for (v, sv, cv) in &angles[i + 1..] {
            let (su, cu, sv, cv) = (var(*su), var(*cu), var(*sv), var(*cv));
            let sc = su.mul(&cv);
            let cs = cu.mul(&sv);
            let cc = cu.mul(&cv);
            let ss = su.mul(&sv);
            add(
                &mut out,
                symbols,
                Func::Sin,
                u.clone() - v.clone(),
                sc.sub(&cs),
            );
            add(
                &mut out,
                symbols,
                Func::Cos,
                u.clone() - v.clone(),
                cc.add(&ss),
            );
            add(
                &mut out,
                symbols,
                Func::Sin,
                u.clone() + v.clone(),
                sc.add(&cs),
            );
            add(
                &mut out,
                symbols,
                Func::Cos,
                u.clone() + v.clone(),
                cc.sub(&ss),
            );
        }
    }
    out
}

/// Greedy rewriting of one polynomial: returns a polynomial over the base
/// and pattern atoms equal to `p` under the identities, with as few terms
/// as the search finds.
fn rewrite(p: &Poly, patterns: &[Pattern], symbols: &Symbols) -> Poly {
    if patterns.is_empty() || p.len() < 2 {
        return p.clone();
    }
    let pairs = super::trig_pairs(symbols);
    let canon = |q: Poly| super::reduce_poly(&q, &pairs);
    let mut rest = p.clone();
    let mut taken = Poly::zero();
    let cost = |rest: &Poly, taken: &Poly| rest.add(taken).len();
    let mut best_cost = cost(&rest, &taken);
    loop {
        let mut best: Option<(usize, Poly, Poly)> = None;
        for pat in patterns {
            let mut tried: Vec<(Mono, Q)> = Vec::new();
            for (tm, tq) in rest.terms() {
                for (sm, sq) in pat.expansion.terms() {
                    let Some(cm) = poly::mono_div(tm, sm) else {
                        continue;
                    };
                    let cq = tq / sq;
                    if tried.iter().any(|(m, q)| *m == cm && *q == cq) {
                        continue;
                    }
                    tried.push((cm.clone(), cq.clone()));
                    let c = Poly::from_term(cm, cq);
                    let new_rest = canon(rest.sub(&c.mul(&pat.expansion)));
                    let mut tm = vec![0; pat.atom + 1];
                    tm[pat.atom] = pat.power;
                    let new_taken = taken.add(&c.mul(&Poly::from_term(tm, Q::one())));
                    let k = cost(&new_rest, &new_taken);
                    if k < best_cost && best.as_ref().is_none_or(|(b, _, _)| k < *b) {
                        best = Some((k, new_rest, new_taken));
                    }
                }
            }
            if poly::exhausted() {
                return p.clone();
            }
        }
        match best {
            Some((k, r, t)) => {
                best_cost = k;
                rest = r;
                taken = t;
            }
            None => break,
        }
    }
    rest.add(&taken)
}

/// Numerator and denominator scaled by one positive rational so that all
/// their coefficients are coprime integers (the printer puts the signs
/// right).
fn integer_scaled(num: Poly, den: Poly) -> Readable {
    let coeffs: Vec<&Q> = num.terms().chain(den.terms()).map(|(_, q)| q).collect();
    if coeffs.is_empty() {
        return Readable { num, den };
    }
    let mut lcm = BigInt::one();
    let mut g = BigInt::zero();
    for q in &coeffs {
        lcm = lcm.lcm(q.denom());
    }
    for q in &coeffs {
        g = g.gcd(&(q.numer() * (&lcm / q.denom())));
    }
    if g.is_zero() {
        return Readable { num, den };
    }
    let factor = Q::new(lcm, g.abs());
    Readable {
        num: num.scale(&factor),
        den: den.scale(&factor),
    }
}
