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
