//! Plain-text printing that [`parse`](super::parse) reads back.
//!
//! Parentheses are added only where precedence or associativity needs them;
//! a quantity literal inside a larger expression is always parenthesised, so
//! that its unit cannot swallow a following `*name`.

use super::{BinOp, Expr, ExprKind};
use std::fmt;

const ADD: u8 = 1;
const MUL: u8 = 2;
const NEG: u8 = 3;
const POW: u8 = 4;
const ATOM: u8 = 5;

fn prec(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Binary(BinOp::Add | BinOp::Sub, ..) => ADD,
        ExprKind::Binary(BinOp::Mul | BinOp::Div, ..) => MUL,
        ExprKind::Neg(_) => NEG,
        ExprKind::Binary(BinOp::Pow, ..) => POW,
        _ => ATOM,
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_expr(self, f)
    }
}

fn write_child(e: &Expr, f: &mut fmt::Formatter<'_>, parens: bool) -> fmt::Result {
    let parens = parens || matches!(e.kind, ExprKind::Quantity(..));
    if parens {
        f.write_str("(")?;
        write_expr(e, f)?;
        f.write_str(")")
    } else {
        write_expr(e, f)
    }
}

fn write_expr(e: &Expr, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match &e.kind {
        ExprKind::Number(n) => f.write_str(&n.text),
        ExprKind::Quantity(n, u) => {
            write!(f, "{} {}", n.text, u.text)
        }
        ExprKind::Param(name) => f.write_str(name),
        ExprKind::Pi => f.write_str("pi"),
        ExprKind::Neg(a) => {
            f.write_str("-")?;
            write_child(a, f, prec(a) < POW)
        }
        ExprKind::Call(func, a) => {
            write!(f, "{}(", func.name())?;
            write_expr(a, f)?;
            f.write_str(")")
        }
        ExprKind::Binary(op, a, b) => {
            let p = match op {
                BinOp::Add | BinOp::Sub => ADD,
                BinOp::Mul | BinOp::Div => MUL,
                BinOp::Pow => POW,
            };
            if *op == BinOp::Pow {
                write_child(a, f, prec(a) < ATOM)?;
                f.write_str("^")?;
                return write_child(b, f, prec(b) < NEG);
            }
            write_child(a, f, prec(a) < p)?;
            f.write_str(match op {
                BinOp::Add => " + ",
                BinOp::Sub => " - ",
                BinOp::Mul => "*",
                BinOp::Div => "/",
                BinOp::Pow => unreachable!(),
            })?;
            write_child(b, f, prec(b) <= p || prec(b) == NEG)
        }
    }
}

/// The expression in LaTeX, as written (no simplification): `/` becomes a
/// fraction, `^` a superscript, parameters their report symbols
/// (`symbol_of`), quantity literals a number with typeset units.
pub fn latex(e: &Expr, symbol_of: &dyn Fn(&str) -> String) -> String {
    latex_prec(e, 0, symbol_of)
}

fn latex_prec(e: &Expr, outer: u8, symbol_of: &dyn Fn(&str) -> String) -> String {
    let mut inner = prec(e);
    let s = match &e.kind {
        ExprKind::Number(n) => {
            let s = crate::notation::latex_quantity(&n.text);
            // `1 × 10⁻³` is a product: (1 × 10⁻³)², never 1 × 10⁻³².
            if s.contains("\\times") {
                inner = MUL;
            } else if s.contains('^') {
                // `10^{3}` squared is (10³)², never 10^{3}^{2}.
                inner = POW;
            }
            s
        }
        // A number with its unit is a product too: (0.02 m)², not 0.02 m².
        ExprKind::Quantity(n, u) => {
            inner = MUL;
            crate::notation::latex_quantity(&format!("{} {}", n.text, u.text))
        }
        ExprKind::Param(p) => symbol_of(p),
        ExprKind::Pi => "\\pi".into(),
        ExprKind::Neg(x) => format!("-{}", latex_prec(x, NEG, symbol_of)),
        ExprKind::Binary(op, a, b) => match op {
            BinOp::Add => format!(
                "{} + {}",
                latex_prec(a, ADD, symbol_of),
                latex_prec(b, ADD, symbol_of)
            ),
            BinOp::Sub => format!(
                "{} - {}",
                latex_prec(a, ADD, symbol_of),
                latex_prec(b, MUL, symbol_of)
            ),
            BinOp::Mul => {
                let (l, r) = (latex_prec(a, MUL, symbol_of), latex_prec(b, MUL, symbol_of));
                // Two numbers side by side would read as one (2 3 → 23).
                if r.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
                    format!("{l} \\cdot {r}")
                } else {
                    format!("{l}\\,{r}")
                }
            }
            // A fraction groups its parts itself; as the base of a power it
            // is parenthesised: (l/2)², never l/2².
            BinOp::Div => {
                let f = format!(
                    "\\frac{{{}}}{{{}}}",
                    latex_prec(a, 0, symbol_of),
                    latex_prec(b, 0, symbol_of)
                );
                return if outer >= POW {
                    format!("\\left({f}\\right)")
                } else {
                    f
                };
            }
            BinOp::Pow => format!(
                "{}^{{{}}}",
                latex_prec(a, ATOM, symbol_of),
                latex_prec(b, 0, symbol_of)
            ),
        },
        ExprKind::Call(func, x) => {
            let arg = latex_prec(x, 0, symbol_of);
            match func.name() {
                "sqrt" => return format!("\\sqrt{{{arg}}}"),
                "abs" => return format!("\\left|{arg}\\right|"),
                "log10" => format!("\\log_{{10}}\\left({arg}\\right)"),
                "asin" => format!("\\arcsin\\left({arg}\\right)"),
                "acos" => format!("\\arccos\\left({arg}\\right)"),
                "atan" => format!("\\arctan\\left({arg}\\right)"),
                name => format!("\\{name}\\left({arg}\\right)"),
            }
        }
    };
    if inner < outer {
        format!("\\left({s}\\right)")
    } else {
        s
    }
}
