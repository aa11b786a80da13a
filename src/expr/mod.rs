//! Expressions: the tree every physical value in a case file becomes.
//!
//! Input: a value string (`"m*(w^2 + h^2)/12"`, `"h/2 + 5 mm"`, `"2 kg"`).
//! Output: an [`Expr`] tree whose nodes keep their byte span in the string,
//! plus numeric evaluation with dimension inference ([`eval`]).
//!
//! Steps: [`parse`] lexes and parses (quantity literals are atoms, see
//! `parse.rs`); [`eval`] walks the tree with a parameter lookup, checking
//! dimensions as it goes; `Display` prints text that [`parse`] reads back.
//!
//! Number literals keep their decimal text and unit literals their exact
//! [`Scale`](crate::units::Scale), so an exact (symbolic) evaluator can be
//! written over the same tree. This module knows nothing about bodies,
//! contacts or TOML.

mod parse;
pub mod print;

pub use parse::{MAX_DEPTH, parse};

use crate::units::{Dim, Unit};
use std::ops::Range;

/// An expression node with its byte span in the source string.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What the node is.
    pub kind: ExprKind,
    /// Byte range in the value string.
    pub span: Range<usize>,
}

/// A number literal: its value and its text as typed (for exact arithmetic).
#[derive(Clone, Debug, PartialEq)]
pub struct Number {
    /// The value.
    pub value: f64,
    /// The decimal text, e.g. `1e5` or `0.020`.
    pub text: String,
}

/// The kinds of expression node.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A dimensionless number.
    Number(Number),
    /// A quantity literal such as `5 mm`: number, then unit.
    Quantity(Number, Unit),
    /// A parameter, by name.
    Param(String),
    /// The constant π.
    Pi,
    /// Unary minus.
    Neg(Box<Expr>),
    /// A binary operation.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// A function of one argument.
    Call(Func, Box<Expr>),
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `^`
    Pow,
}

/// Functions of one argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Func {
    /// Square root (halves dimensions).
    Sqrt,
    /// Sine (dimensionless argument).
    Sin,
    /// Cosine.
    Cos,
    /// Tangent.
    Tan,
    /// Exponential.
    Exp,
    /// Natural logarithm.
    Ln,
    /// Arcsine (argument in [−1, 1], result in radians).
    Asin,
    /// Arccosine.
    Acos,
    /// Arctangent.
    Atan,
    /// Absolute value (keeps the dimension).
    Abs,
    /// Decimal logarithm.
    Log10,
}

impl Func {
    /// All functions with their names (`log` is read as `ln`, the natural
    /// logarithm, as in most programming languages; `log10` is decimal).
    pub const ALL: [(Func, &'static str); 11] = [
        (Func::Sqrt, "sqrt"),
        (Func::Sin, "sin"),
        (Func::Cos, "cos"),
        (Func::Tan, "tan"),
        (Func::Exp, "exp"),
        (Func::Ln, "ln"),
        (Func::Asin, "asin"),
        (Func::Acos, "acos"),
        (Func::Atan, "atan"),
        (Func::Abs, "abs"),
        (Func::Log10, "log10"),
    ];

    /// Functions of two arguments, written out when parsed:
    /// `hypot(x, y)` = `sqrt(x^2 + y^2)` and `atan2(y, x)` =
    /// `2*atan(y/(sqrt(x^2 + y^2) + x))` (the half-angle form, exact
    /// except on its branch cut, the negative x axis).
    pub const TWO_ARGUMENTS: [&'static str; 2] = ["hypot", "atan2"];

    /// Every name a call may use.
    pub fn names() -> Vec<&'static str> {
        let mut names: Vec<&'static str> = Func::ALL.iter().map(|(_, n)| *n).collect();
        names.push("log");
        names.extend(Func::TWO_ARGUMENTS);
        names
    }

    /// The name as written in expressions.
    pub fn name(self) -> &'static str {
        Func::ALL
            .iter()
            .find(|(f, _)| *f == self)
            .map(|(_, n)| *n)
            .unwrap_or("?")
    }

    /// Looks a function of one argument up by name.
    pub fn from_name(name: &str) -> Option<Func> {
        if name == "log" {
            return Some(Func::Ln);
        }
        Func::ALL.iter().find(|(_, n)| *n == name).map(|(f, _)| *f)
    }
}

/// A problem in an expression, with the byte range inside the value string.
#[derive(Clone, Debug, PartialEq)]
pub struct ExprError {
    /// Byte range in the value string.
    pub span: Range<usize>,
    /// What is wrong.
    pub message: String,
    /// Suggestions.
    pub hints: Vec<String>,
}

impl ExprError {
    pub(crate) fn new(span: Range<usize>, message: impl Into<String>) -> Self {
        ExprError {
            span,
            message: message.into(),
            hints: Vec::new(),
        }
    }

    pub(crate) fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hints.push(hint.into());
        self
    }
}

/// A numeric value with its dimension. `dim == None` marks a literal zero,
/// which is accepted wherever any quantity is expected (docs/case-format.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Value {
    /// SI value.
    pub si: f64,
    /// Dimension; `None` for a bare zero, compatible with any dimension.
    pub dim: Option<Dim>,
}

impl Value {
    /// A quantity of known dimension.
    pub fn new(si: f64, dim: Dim) -> Self {
        Value { si, dim: Some(dim) }
    }

    /// True when this value may stand where `want` is expected.
    pub fn fits(&self, want: Dim) -> bool {
        self.dim.is_none_or(|d| d == want)
    }
}

impl Expr {
    /// Names of the parameters this expression uses, in order of appearance.
    pub fn params(&self) -> Vec<(&str, Range<usize>)> {
        let mut out = Vec::new();
        self.visit(&mut |e| {
            if let ExprKind::Param(name) = &e.kind {
                out.push((name.as_str(), e.span.clone()));
            }
        });
        out
    }

    /// Calls `f` on every node, parents first.
    pub fn visit<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Neg(a) | ExprKind::Call(_, a) => a.visit(f),
            ExprKind::Binary(_, a, b) => {
                a.visit(f);
                b.visit(f);
            }
            _ => {}
        }
    }

    /// True for a bare literal zero (`0`, `0.0`).
    pub fn is_zero_literal(&self) -> bool {
        matches!(&self.kind, ExprKind::Number(n) if n.value == 0.0)
    }
}

/// Evaluates an expression numerically, inferring and checking dimensions.
/// `lookup` gives the value of a parameter (or `None` for an unknown name).
pub fn eval(expr: &Expr, lookup: &dyn Fn(&str) -> Option<Value>) -> Result<Value, ExprError> {
    eval_inner(expr, lookup)
}

fn eval_inner(expr: &Expr, lookup: &dyn Fn(&str) -> Option<Value>) -> Result<Value, ExprError> {
    let span = expr.span.clone();
    let value = match &expr.kind {
        ExprKind::Number(n) => Value {
            si: n.value,
            dim: if n.value == 0.0 {
                None
            } else {
                Some(Dim::NONE)
            },
        },
        ExprKind::Quantity(n, unit) => Value::new(n.value * unit.scale.to_f64(), unit.dim),
        ExprKind::Param(name) => lookup(name)
            .ok_or_else(|| ExprError::new(span.clone(), format!("unknown parameter `{name}`")))?,
        ExprKind::Pi => Value::new(std::f64::consts::PI, Dim::NONE),
        ExprKind::Neg(a) => {
            let a = eval_inner(a, lookup)?;
            Value { si: -a.si, ..a }
        }
        ExprKind::Binary(op, a, b) => {
            let x = eval_inner(a, lookup)?;
            let y = eval_inner(b, lookup)?;
            binary(*op, x, y, b, &span)?
        }
        ExprKind::Call(func, a) => {
            let x = eval_inner(a, lookup)?;
            call(*func, x, a, &span)?
        }
    };
    if !value.si.is_finite() {
        return Err(ExprError::new(
            span,
            format!("this evaluates to {}, not a finite number", value.si),
        ));
    }
    if value.si != 0.0 && !value.si.is_normal() {
        return Err(ExprError::new(
            span,
            format!(
                "this evaluates to {:e}, below the smallest normal 64-bit float: precision is lost",
                value.si
            ),
        ));
    }
    Ok(value)
}

fn binary(
    op: BinOp,
    x: Value,
    y: Value,
    b: &Expr,
    span: &Range<usize>,
) -> Result<Value, ExprError> {
    let combine = |f: fn(Dim, Dim) -> Option<Dim>| -> Result<Option<Dim>, ExprError> {
        match (x.dim, y.dim) {
            (Some(p), Some(q)) => f(p, q)
                .map(Some)
                .ok_or_else(|| ExprError::new(span.clone(), "dimension exponent out of range")),
            _ => Ok(None),
        }
    };
    Ok(match op {
        BinOp::Add | BinOp::Sub => {
            let dim = match (x.dim, y.dim) {
                (Some(p), Some(q)) if p != q => {
                    return Err(ExprError::new(
                        span.clone(),
                        format!(
                            "cannot add or subtract quantities of different dimensions: {p} and {q}"
                        ),
                    ));
                }
                (Some(p), _) => Some(p),
                (None, q) => q,
            };
            let si = if op == BinOp::Add {
                x.si + y.si
            } else {
                x.si - y.si
            };
            Value { si, dim }
        }
        BinOp::Mul => Value {
            si: not_underflowed(x.si * y.si, x.si != 0.0 && y.si != 0.0, span)?,
            dim: combine(Dim::checked_times)?,
        },
        BinOp::Div => {
            if y.si == 0.0 {
                return Err(ExprError::new(b.span.clone(), "division by zero"));
            }
            Value {
                si: not_underflowed(x.si / y.si, x.si != 0.0, span)?,
                dim: combine(Dim::checked_per)?,
            }
        }
        BinOp::Pow => {
            if let Some(d) = y.dim
                && !d.is_none()
            {
                return Err(ExprError::new(
                    b.span.clone(),
                    format!("an exponent must be dimensionless, this is {d}"),
                ));
            }
            let dim = match x.dim {
                Some(d) if !d.is_none() => {
                    let n = y.si.round();
                    if (y.si - n).abs() > 1e-12 || n.abs() > 64.0 {
                        return Err(ExprError::new(
                            b.span.clone(),
                            format!(
                                "a quantity with dimension {d} can only be raised to an integer power"
                            ),
                        ));
                    }
                    Some(d.powi(n as i32).ok_or_else(|| {
                        ExprError::new(span.clone(), "dimension exponent out of range")
                    })?)
                }
                other => other.map(|_| Dim::NONE),
            };
            let n = y.si.round();
            let si = if (y.si - n).abs() == 0.0 && n.abs() < 1e9 {
                x.si.powi(n as i32)
            } else {
                x.si.powf(y.si)
            };
            Value {
                si: not_underflowed(si, x.si != 0.0, span)?,
                dim,
            }
        }
    })
}

/// A product, quotient or power of nonzero values that came out as zero
/// has underflowed: an error, never a silent zero.
fn not_underflowed(si: f64, nonzero: bool, span: &Range<usize>) -> Result<f64, ExprError> {
    if si == 0.0 && nonzero {
        return Err(ExprError::new(
            span.clone(),
            "this underflows to zero in 64-bit floating point",
        ));
    }
    Ok(si)
}

fn call(func: Func, x: Value, a: &Expr, span: &Range<usize>) -> Result<Value, ExprError> {
    if func == Func::Sqrt {
        if x.si < 0.0 {
            return Err(ExprError::new(
                a.span.clone(),
                "square root of a negative value",
            ));
        }
        let dim = match x.dim {
            Some(d) => Some(d.sqrt().ok_or_else(|| {
                ExprError::new(
                    span.clone(),
                    format!("square root of a quantity with dimension {d} has no dimension"),
                )
            })?),
            None => None,
        };
        return Ok(Value {
            si: x.si.sqrt(),
            dim,
        });
    }
    if func == Func::Abs {
        return Ok(Value {
            si: x.si.abs(),
            dim: x.dim,
        });
    }
    if let Some(d) = x.dim
        && !d.is_none()
    {
        return Err(ExprError::new(
            a.span.clone(),
            format!(
                "the argument of {} must be dimensionless, this is {d}",
                func.name()
            ),
        ));
    }
    if matches!(func, Func::Asin | Func::Acos) && x.si.abs() > 1.0 {
        return Err(ExprError::new(
            a.span.clone(),
            format!("{} of {}, outside [−1, 1]", func.name(), x.si),
        ));
    }
    let si = match func {
        Func::Sin => x.si.sin(),
        Func::Cos => x.si.cos(),
        Func::Tan => x.si.tan(),
        Func::Exp => not_underflowed(x.si.exp(), true, span)?,
        Func::Ln => {
            if x.si <= 0.0 {
                return Err(ExprError::new(
                    a.span.clone(),
                    "logarithm of a value that is not positive",
                ));
            }
            x.si.ln()
        }
        Func::Log10 => {
            if x.si <= 0.0 {
                return Err(ExprError::new(
                    a.span.clone(),
                    "logarithm of a value that is not positive",
                ));
            }
            x.si.log10()
        }
        Func::Asin => x.si.asin(),
        Func::Acos => x.si.acos(),
        Func::Atan => x.si.atan(),
        Func::Sqrt | Func::Abs => unreachable!("handled above"),
    };
    Ok(Value::new(si, Dim::NONE))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(text: &str, params: &[(&str, f64, Dim)]) -> Result<Value, ExprError> {
        let e = parse(text)?;
        eval(&e, &|name| {
            params
                .iter()
                .find(|p| p.0 == name)
                .map(|p| Value::new(p.1, p.2))
        })
    }

    #[test]
    fn literals_and_expressions() {
        assert_eq!(ev("2 kg", &[]).unwrap(), Value::new(2.0, Dim::MASS));
        assert_eq!(
            ev("2*m", &[("m", 3.0, Dim::MASS)]).unwrap(),
            Value::new(6.0, Dim::MASS)
        );
        assert_eq!(
            ev("2 m", &[("m", 3.0, Dim::MASS)]).unwrap(),
            Value::new(2.0, Dim::LENGTH)
        );
        let v = ev("0.02 kg*m^2", &[]).unwrap();
        assert_eq!(v.dim, Some(Dim::INERTIA));
        let v = ev("h/2 + 5 mm", &[("h", 0.1, Dim::LENGTH)]).unwrap();
        assert!((v.si - 0.055).abs() < 1e-15 && v.dim == Some(Dim::LENGTH));
        let v = ev("1e5 N/m", &[]).unwrap();
        assert_eq!(v, Value::new(1e5, Dim::STIFFNESS));
        let v = ev(
            "m*(w^2 + h^2)/12",
            &[
                ("m", 12.0, Dim::MASS),
                ("w", 1.0, Dim::LENGTH),
                ("h", 2.0, Dim::LENGTH),
            ],
        )
        .unwrap();
        assert_eq!(v, Value::new(5.0, Dim::INERTIA));
        let v = ev("r*cos(60 deg)", &[("r", 2.0, Dim::LENGTH)]).unwrap();
        assert!((v.si - 1.0).abs() < 1e-15);
        let v = ev("-2^2", &[]).unwrap();
        assert_eq!(v.si, -4.0);
        let v = ev("2^-1", &[]).unwrap();
        assert_eq!(v.si, 0.5);
        let v = ev(
            "sqrt(k/m)",
            &[("k", 1e5, Dim::STIFFNESS), ("m", 10.0, Dim::MASS)],
        )
        .unwrap();
        assert_eq!(v.dim, Some(Dim::FREQUENCY));
        assert_eq!(ev("0", &[]).unwrap().dim, None);
        assert_eq!(ev("2 pi", &[]).ok(), None, "pi is not a unit");
        assert!((ev("2*pi", &[]).unwrap().si - std::f64::consts::TAU).abs() < 1e-15);
    }

    #[test]
    fn dimension_errors() {
        let e = ev("2 kg + 3 m", &[]).unwrap_err();
        assert!(e.message.contains("different dimensions"), "{e:?}");
        assert!(ev("sin(2 m)", &[]).is_err());
        assert!(ev("sqrt(2 m)", &[]).is_err());
        assert!(ev("(2 m)^0.5", &[]).is_err());
        assert!(ev("1/0", &[]).is_err());
        assert!(ev("1e400", &[]).is_err());
    }

    #[test]
    fn round_trip_print() {
        for text in [
            "1/m + r^2/I",
            "m*I/(I + m*r^2)",
            "-(a - b)^2",
            "a - (b - c)",
            "2 kg + x",
            "(5 mm)^2",
            "a/(b*c)",
            "sqrt(k/m)*2",
            "2^3^2",
            "(-a)^2",
        ] {
            let e = parse(text).unwrap();
            let printed = e.to_string();
            let again = parse(&printed).unwrap();
            assert!(same_shape(&e, &again), "{text} -> {printed}");
        }
    }

    fn same_shape(a: &Expr, b: &Expr) -> bool {
        match (&a.kind, &b.kind) {
            (ExprKind::Number(x), ExprKind::Number(y)) => x.value == y.value,
            (ExprKind::Quantity(x, u), ExprKind::Quantity(y, v)) => {
                x.value == y.value && u.scale == v.scale && u.dim == v.dim
            }
            (ExprKind::Param(x), ExprKind::Param(y)) => x == y,
            (ExprKind::Pi, ExprKind::Pi) => true,
            (ExprKind::Neg(x), ExprKind::Neg(y)) => same_shape(x, y),
            (ExprKind::Binary(o, x1, x2), ExprKind::Binary(p, y1, y2)) => {
                o == p && same_shape(x1, y1) && same_shape(x2, y2)
            }
            (ExprKind::Call(f, x), ExprKind::Call(g, y)) => f == g && same_shape(x, y),
            _ => false,
        }
    }
}
