//! The symbolic engine: closed forms over the case's parameter symbols.
//!
//! Input: a validated case. Output: [`Derivation`]: the Delassus matrix as
//! canonical rational functions, a readable form per contact, and the
//! "formula → numbers substituted → result" lines a report shows; plus
//! symbolic claim checks.
//!
//! Steps: every parameter becomes an *atom* (a variable of the polynomials);
//! `sqrt`, trigonometric functions, `exp`, `ln` and π are opaque atoms of
//! their canonicalised arguments ([`Symbols`]). Values become [`Frac`]s,
//! rational functions with exact rational coefficients kept in canonical
//! form by a multivariate polynomial GCD ([`poly`]). The model is assembled
//! by the *same* generic code as the numeric one (`Frac` implements
//! [`Scalar`](crate::model::Scalar)), then A is formed by exact elimination
//! ([`derive`]).
//!
//! The core is written here rather than taken from a CAS crate: symbolica
//! needs a per-user runtime licence and restricts commercial use, and the
//! permissive alternatives are not maintained or lack a multivariate GCD.
//! It is built on num-rational/num-bigint (MIT/Apache).

mod derive;
mod factor;
mod frac;
pub mod given;
mod named;
pub mod poly;
mod print;
mod readable;
mod sensitivity;

pub use crate::notation::{latex_quantity, latex_symbol, latex_unit, symbol_problem};
pub use derive::WORK_BUDGET as DERIVATION_WORK_BUDGET;
pub use derive::{
    ContactDerivation, Derivation, MAX_CONTACTS, MAX_DOFS, TERM_BUDGET, TangentialDerivation,
    derive,
};
pub use factor::factored_text;
pub use frac::{Frac, poly_derivative, with_pythagoras};
pub use given::GivenQuantity;
pub use named::{NamedQuantity, SymForm};
pub use print::Printer;
pub use readable::{Readable, readable, reduce_roots};
pub use sensitivity::{Sensitivity, ZERO_NOMINAL, derivative, sensitivities};

use crate::case::Case;
use crate::expr::{BinOp, Expr, ExprKind, Func};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};
use poly::Q;

/// Work units all the symbolic work of one case may spend (derivation,
/// claims and sensitivities together; each also has its own budget).
pub const CASE_WORK_BUDGET: u64 = 6_000_000;

/// The largest integer power expanded symbolically.
pub const MAX_POWER: i64 = 64;

/// What an atom stands for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// A parameter of the case.
    Param(String),
    /// π.
    Pi,
    /// A function of a canonical argument.
    Call(Func, Frac),
    /// A quantity typed as a number with a unit (its SI value, positive,
    /// and its dimension): kept as a symbol (ℓ₁ = 0.02 m) so that a closed
    /// form stays dimensionally readable instead of baking `1/(0.02 m)²`
    /// into a coefficient 2500 ([`given`]).
    Given(Q, crate::units::Dim),
}

/// The atoms of one derivation. Parameters are registered first, in file
/// order, so printed terms follow the order the case introduces symbols.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    atoms: Vec<Atom>,
    /// Per atom: its numeric value at the case point.
    values: Vec<f64>,
    /// Atom → index (lookups are by hash: a case may have 10⁵ parameters).
    index: std::collections::HashMap<Atom, usize>,
}

/// Why a value has no symbolic form.
#[derive(Clone, Debug, PartialEq)]
pub struct Unsupported(pub String);

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Symbols {
    /// The atoms.
    pub fn atoms(&self) -> &[Atom] {
        &self.atoms
    }

    /// Index of an atom, interning it.
    pub fn intern(&mut self, atom: Atom, value: f64) -> usize {
        if let Some(&i) = self.index.get(&atom) {
            return i;
        }
        self.index.insert(atom.clone(), self.atoms.len());
        self.atoms.push(atom);
        self.values.push(value);
        self.atoms.len() - 1
    }

    /// Index of a parameter atom.
    pub fn param(&self, name: &str) -> Option<usize> {
        self.index.get(&Atom::Param(name.to_string())).copied()
    }

    /// Numeric value of a rational function at the case point.
    pub fn eval(&self, f: &Frac) -> f64 {
        self.eval_with(f, &self.values)
    }

    /// Numeric value with the given atom values.
    pub fn eval_with(&self, f: &Frac, values: &[f64]) -> f64 {
        eval_poly(f.num(), values) / eval_poly(f.den(), values)
    }

    /// Atom values at the case point.
    pub fn values(&self) -> &[f64] {
        &self.values
    }
}

/// A polynomial's value for the given atom values.
pub fn eval_poly(p: &poly::Poly, values: &[f64]) -> f64 {
    p.terms()
        .map(|(m, q)| {
            let mut t = q.to_f64().unwrap_or(f64::NAN);
            for (i, &e) in m.iter().enumerate() {
                t *= values[i].powi(e as i32);
            }
            t
        })
        .sum()
}

/// Converts expressions to rational functions over a symbol table.
pub struct Converter<'a> {
    /// The atoms.
    pub symbols: &'a mut Symbols,
    /// Parameter definitions by name, used when `expand` is set: then a
    /// parameter defined by an expression of others is replaced by it, so
    /// that equality is decided over the independent parameters.
    pub definitions: &'a [(String, Expr)],
    /// Replace derived parameters by their definitions.
    pub expand: bool,
    /// Expanded parameters already converted (a chain of definitions that
    /// each use the previous one twice is converted once per link).
    pub memo: std::collections::HashMap<String, Frac>,
    /// Keep quantities typed with a unit as [`Atom::Given`] symbols
    /// instead of rational constants.
    pub given: bool,
}

impl<'a> Converter<'a> {
    /// A converter over `symbols` with the parameter `definitions`.
    pub fn new(
        symbols: &'a mut Symbols,
        definitions: &'a [(String, Expr)],
        expand: bool,
    ) -> Converter<'a> {
        Converter {
            symbols,
            definitions,
            expand,
            memo: Default::default(),
            given: false,
        }
    }
}

/// Exact value of a decimal literal such as `1e5`, `0.020`, `2.5E-3`.
pub fn decimal(text: &str) -> Option<Q> {
    let lower = text.to_ascii_lowercase();
    let (mantissa, exp) = match lower.split_once('e') {
        Some((m, e)) => (m.to_string(), e.parse::<i32>().ok()?),
        None => (lower.clone(), 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((&mantissa, ""));
    let digits = format!("{int}{frac}");
    let n: BigInt = if digits.is_empty() {
        BigInt::zero()
    } else {
        digits.parse().ok()?
    };
    let scale = exp - frac.len() as i32;
    Some(Q::from_integer(n) * pow10(scale))
}

fn pow10(e: i32) -> Q {
    let p = Q::from_integer(BigInt::from(10).pow(e.unsigned_abs()));
    if e >= 0 { p } else { p.recip() }
}

impl Converter<'_> {
    /// The rational function of an expression.
    pub fn convert(&mut self, e: &Expr) -> Result<Frac, Unsupported> {
        Ok(match &e.kind {
            ExprKind::Number(n) => Frac::constant(
                decimal(&n.text).ok_or_else(|| Unsupported(format!("number {}", n.text)))?,
            ),
            ExprKind::Quantity(n, unit) => {
                let v =
                    decimal(&n.text).ok_or_else(|| Unsupported(format!("number {}", n.text)))?;
                let s = unit.scale;
                let rational = Q::new(s.num.into(), s.den.into()) * pow10(s.pow10);
                if let Some(f) = self.given_atom(&(v.clone() * &rational), s.pi, unit.dim) {
                    return Ok(f);
                }
                let pi = self
                    .pi()
                    .powi(s.pi.into())
                    .ok_or_else(|| Unsupported("π power".into()))?;
                Frac::constant(v * rational) * pi
            }
            ExprKind::Param(name) => self.param(name)?,
            ExprKind::Pi => self.pi(),
            ExprKind::Neg(a) => -self.convert(a)?,
            ExprKind::Binary(op, a, b) => {
                let x = self.convert(a)?;
                if *op == BinOp::Pow {
                    return self.power(x, b);
                }
                let y = self.convert(b)?;
                match op {
                    BinOp::Add => x + y,
                    BinOp::Sub => x - y,
                    BinOp::Mul => x * y,
                    BinOp::Div => x
                        .checked_div(&y)
                        .ok_or_else(|| Unsupported("division by zero".into()))?,
                    BinOp::Pow => unreachable!(),
                }
            }
            ExprKind::Call(func, a) => {
                let arg = self.convert(a)?;
                self.call(*func, arg)
            }
        })
    }

    /// A typed quantity as an [`Atom::Given`] symbol (signed), when the
    /// converter keeps them and it has a dimension, a rational SI value
    /// and is not zero.
    fn given_atom(&mut self, si: &Q, pi_power: i32, dim: crate::units::Dim) -> Option<Frac> {
        if !self.given || pi_power != 0 || dim.is_none() || si.is_zero() {
            return None;
        }
        let value = si.abs().to_f64().unwrap_or(f64::NAN);
        let atom = Frac::var(self.symbols.intern(Atom::Given(si.abs(), dim), value));
        Some(if si.is_negative() { -atom } else { atom })
    }

    fn pi(&mut self) -> Frac {
        Frac::var(self.symbols.intern(Atom::Pi, std::f64::consts::PI))
    }

    fn param(&mut self, name: &str) -> Result<Frac, Unsupported> {
        let derived = crate::case::is_derived(name);
        if (self.expand || derived)
            && let Some(f) = self.memo.get(name)
        {
            return Ok(f.clone());
        }
        if (self.expand || derived)
            && let Some((_, def)) = self.definitions.iter().rev().find(|(n, _)| n == name)
            && (derived || !def.params().is_empty())
        {
            let def = def.clone();
            let f = self.convert(&def)?;
            self.memo.insert(name.to_string(), f.clone());
            return Ok(f);
        }
        match self.symbols.param(name) {
            Some(i) => Ok(Frac::var(i)),
            None => Err(Unsupported(format!("unknown parameter {name}"))),
        }
    }

    fn power(&mut self, base: Frac, exp: &Expr) -> Result<Frac, Unsupported> {
        let e = self.convert(exp)?;
        let q = e
            .as_constant()
            .ok_or_else(|| Unsupported("a power with a symbolic exponent".into()))?;
        if q.abs() > Q::from_integer(MAX_POWER.into()) {
            return Err(Unsupported(format!("a power above {MAX_POWER}")));
        }
        if q.is_integer() {
            let n = q
                .to_integer()
                .to_i64()
                .ok_or_else(|| Unsupported("huge power".into()))?;
            return base
                .powi(n)
                .ok_or_else(|| Unsupported("zero to a negative power".into()));
        }
        if (&q * Q::from_integer(2.into())).is_integer() {
            // x^(k/2) = sqrt(x)^k
            let k = (q * Q::from_integer(2.into()))
                .to_integer()
                .to_i64()
                .ok_or_else(|| Unsupported("huge power".into()))?;
            let root = self.call(Func::Sqrt, base);
            return root
                .powi(k)
                .ok_or_else(|| Unsupported("zero to a negative power".into()));
        }
        Err(Unsupported("a non-integer power".into()))
    }

    /// `func(arg)`, exact where the value is rational (√ of a square, sin 0…),
    /// otherwise an atom.
    pub fn call(&mut self, func: Func, arg: Frac) -> Frac {
        if matches!(func, Func::Sin | Func::Cos) {
            // sin(−x) = −sin x, cos(−x) = cos x: one atom per angle.
            if let Some((m, q)) = single_term(&arg)
                && q.is_negative()
            {
                let flipped = Frac::poly(poly::Poly::from_term(m, -q));
                let f = self.call(func, flipped);
                return if func == Func::Sin { -f } else { f };
            }
            // Angle sums and small integer multiples are expanded, so that
            // `sin(q1 - q2)` and `sin q1 cos q2 - cos q1 sin q2` have one
            // canonical form.
            if let Some((u, v)) = split_angle(&arg) {
                let su = self.call(Func::Sin, u.clone());
                let cu = self.call(Func::Cos, u);
                let sv = self.call(Func::Sin, v.clone());
                let cv = self.call(Func::Cos, v);
                return if func == Func::Sin {
                    su * cv + cu * sv
                } else {
                    cu * cv - su * sv
                };
            }
        }
        if let Some(c) = arg.as_constant() {
            if c.is_zero() {
                match func {
                    Func::Sqrt | Func::Sin | Func::Tan | Func::Asin | Func::Atan | Func::Abs => {
                        return Frac::zero();
                    }
                    Func::Cos | Func::Exp => return Frac::int(1),
                    Func::Ln | Func::Log10 | Func::Acos => {}
                }
            }
            if func == Func::Abs {
                return Frac::constant(c.abs());
            }
            if func == Func::Log10 && c.is_one() {
                return Frac::zero();
            }
            if func == Func::Ln && c.is_one() {
                return Frac::zero();
            }
            if func == Func::Sqrt
                && !c.is_negative()
                && let (Some(n), Some(d)) = (exact_sqrt(c.numer()), exact_sqrt(c.denom()))
            {
                return Frac::constant(Q::new(n, d));
            }
        }
        let x = self.symbols.eval(&arg);
        let value = match func {
            Func::Sqrt => x.sqrt(),
            Func::Sin => x.sin(),
            Func::Cos => x.cos(),
            Func::Tan => x.tan(),
            Func::Exp => x.exp(),
            Func::Ln => x.ln(),
            Func::Log10 => x.log10(),
            Func::Asin => x.asin(),
            Func::Acos => x.acos(),
            Func::Atan => x.atan(),
            Func::Abs => x.abs(),
        };
        let partner = match func {
            Func::Sin => Some(Func::Cos),
            Func::Cos => Some(Func::Sin),
            _ => None,
        };
        let atom = self.symbols.intern(Atom::Call(func, arg.clone()), value);
        if let Some(p) = partner
            && let Some(&other) = self.symbols.index.get(&Atom::Call(p, arg))
        {
            let (s, c) = if func == Func::Sin {
                (atom, other)
            } else {
                (other, atom)
            };
            frac::register_trig_pair(s, c);
        }
        Frac::var(atom)
    }
}

/// The one term of a polynomial argument (denominator 1), if it has one.
fn single_term(arg: &Frac) -> Option<(poly::Mono, Q)> {
    if !arg.den().as_constant().is_some_and(|q| q.is_one()) || arg.num().len() != 1 {
        return None;
    }
    arg.num().leading().map(|(m, q)| (m.clone(), q.clone()))
}

/// Most terms of an angle expanded by the sum formulas.
const MAX_ANGLE_TERMS: usize = 4;
/// Largest integer multiple of an angle expanded (`sin 2u`, `cos 3u`).
const MAX_ANGLE_MULTIPLE: i64 = 4;

/// `arg = u + v` for the angle-sum formulas: the first term and the rest
/// of a sum of up to [`MAX_ANGLE_TERMS`] terms, or `u + (n−1)u` for a small
/// integer multiple `n·u` of a non-constant term. `None` otherwise.
fn split_angle(arg: &Frac) -> Option<(Frac, Frac)> {
    if !arg.den().as_constant().is_some_and(|q| q.is_one()) {
        return None;
    }
    let n = arg.num().len();
    if (2..=MAX_ANGLE_TERMS).contains(&n) {
        let (m, q) = arg.num().terms().next()?;
        let first = Frac::poly(poly::Poly::from_term(m.clone(), q.clone()));
        let rest = arg.clone() - first.clone();
        return Some((first, rest));
    }
    let (m, q) = single_term(arg)?;
    let k = q.to_integer();
    if m.is_empty() || !q.is_integer() || !(2..=MAX_ANGLE_MULTIPLE).contains(&k.abs().to_i64()?) {
        return None;
    }
    let unit = Frac::poly(poly::Poly::from_term(m, Q::one()));
    let rest = arg.clone() - unit.clone();
    Some((unit, rest))
}

fn exact_sqrt(n: &BigInt) -> Option<BigInt> {
    if n.is_negative() {
        return None;
    }
    let r = n.sqrt();
    (&r * &r == *n).then_some(r)
}

/// A symbol table with the parameters the model and the claims use
/// (directly or through other parameters' definitions) registered in file
/// order, and those parameters' definitions. Unused parameters cost nothing:
/// a case may define thousands.
pub fn symbols_of(case: &Case) -> (Symbols, Vec<(String, Expr)>) {
    let used = crate::model::used_parameters(case);
    let mut symbols = Symbols::default();
    let mut defs = Vec::new();
    for (p, _) in case.parameters.iter().zip(&used).filter(|(_, u)| **u) {
        symbols.intern(Atom::Param(p.name.clone()), p.value.si);
        defs.push((p.name.clone(), p.value.expr.clone()));
    }
    // Named intermediates: always expanded (never atoms of their own).
    defs.extend(
        case.derived
            .iter()
            .map(|d| (d.name.clone(), d.value.expr.clone())),
    );
    (symbols, defs)
}

/// True when the value is exactly one.
pub fn is_one(f: &Frac) -> bool {
    f.as_constant().is_some_and(|q| q.is_one())
}

/// Pairs `(sin u, cos u)` of atoms with the same argument.
pub(crate) fn trig_pairs(symbols: &Symbols) -> Vec<(usize, usize)> {
    let atoms = symbols.atoms();
    let mut pairs = Vec::new();
    for (s, a) in atoms.iter().enumerate() {
        if let Atom::Call(Func::Sin, u) = a
            && let Some(c) = atoms
                .iter()
                .position(|b| matches!(b, Atom::Call(Func::Cos, v) if v == u))
        {
            pairs.push((s, c));
        }
    }
    pairs
}

pub(crate) fn reduce_poly(p: &poly::Poly, pairs: &[(usize, usize)]) -> poly::Poly {
    let mut out = poly::Poly::zero();
    let mut work: Vec<(poly::Mono, Q)> = p.terms().map(|(m, q)| (m.clone(), q.clone())).collect();
    while let Some((m, q)) = work.pop() {
        let hit = pairs
            .iter()
            .find(|(s, _)| m.get(*s).copied().unwrap_or(0) >= 2);
        match hit {
            None => out = out.add(&poly::Poly::from_term(m, q)),
            Some(&(s, c)) => {
                // sin² u = 1 − cos² u
                let mut base = m.clone();
                base[s] -= 2;
                work.push((base.clone(), q.clone()));
                let mut with_cos = base;
                if with_cos.len() <= c {
                    with_cos.resize(c + 1, 0);
                }
                with_cos[c] += 2;
                work.push((with_cos, -q));
            }
        }
    }
    out
}

/// Rewrites `sin² u` as `1 − cos² u` wherever both atoms occur, so that
/// expressions equal by Pythagoras' identity print (and usually compare)
/// alike.
pub fn reduce_trig(f: &Frac, symbols: &Symbols) -> Frac {
    let pairs = trig_pairs(symbols);
    if pairs.is_empty() {
        return f.clone();
    }
    let num = reduce_poly(f.num(), &pairs);
    let den = reduce_poly(f.den(), &pairs);
    if den.is_zero() {
        return f.clone();
    }
    Frac::new(num, den)
}
