//! Lexer and recursive-descent parser for value strings.
//!
//! Grammar, loosest binding first:
//!
//! ```text
//! expr    := term (('+' | '-') term)*
//! term    := unary (('*' | '/') unary)*
//! unary   := '-' unary | '+' unary | power
//! power   := atom ('^' unary)?                 right-associative
//! atom    := literal | NAME | NAME '(' expr ')' | '(' expr ')'
//! literal := NUMBER [unit]                     "5 mm", "1e5 N/m", "2"
//! ```
//!
//! A number followed by a word is a quantity literal: the word must be a
//! unit, and further unit words separated by a space or `·` (with `^n`
//! powers) and one `/` written without spaces belong to the same unit. A
//! value that is one literal alone may also join unit words with `*`.
//! Trees deeper than [`MAX_DEPTH`] are rejected, so evaluation never
//! overflows the stack.

use super::{BinOp, Expr, ExprError, ExprKind, Func, Number};
use crate::units::{self, is_word_char};

/// The deepest expression tree accepted (nesting of parentheses, operator
/// chains and function calls together).
pub const MAX_DEPTH: usize = 100;

/// The most digits a number literal may have.
pub const MAX_LITERAL_DIGITS: usize = 64;

/// The largest decimal exponent a number literal may be written with.
pub const MAX_LITERAL_EXPONENT: u64 = 400;

/// Parses a value string into an expression tree.
pub fn parse(text: &str) -> Result<Expr, ExprError> {
    if let Some(lit) = literal_alone(text) {
        return lit;
    }
    let mut p = Parser { text, pos: 0 };
    p.skip_ws();
    if p.pos == text.len() {
        return Err(ExprError::new(0..text.len(), "empty value")
            .hint("write a quantity such as \"2 kg\" or an expression"));
    }
    let (expr, _) = p.expr(0)?;
    p.skip_ws();
    if p.pos < text.len() {
        let ch = p.peek().unwrap_or(' ');
        let mut err = ExprError::new(p.pos..p.pos + ch.len_utf8(), format!("unexpected `{ch}`"));
        if ch == '*' || ch == '/' || ch.is_alphabetic() {
            err = err.hint("inside an expression, write units with spaces (`0.02 kg m^2`); `*` always multiplies");
        } else {
            err = err.hint("expected an operator (+ - * / ^) or the end of the value");
        }
        return Err(err);
    }
    Ok(expr)
}

/// `"[-]NUMBER unit"` where the unit may use `*`: the one-literal form of docs/case-format.md.
fn literal_alone(text: &str) -> Option<Result<Expr, ExprError>> {
    let trimmed_start = text.len() - text.trim_start().len();
    let body = text.trim_end();
    if trimmed_start >= body.len() {
        return None;
    }
    let mut p = Parser {
        text: body,
        pos: trimmed_start,
    };
    let neg = p.eat('-');
    let sign_pos = trimmed_start;
    p.skip_ws();
    let num_start = p.pos;
    let number = match p.number() {
        Some(Ok(n)) => n,
        Some(Err(e)) => return Some(Err(e)),
        None => return None,
    };
    p.skip_ws();
    let unit_start = p.pos;
    if unit_start == body.len() || !p.peek().is_some_and(is_word_char) {
        return None;
    }
    let unit = units::parse_unit(&body[unit_start..], true).ok()?;
    let lit = Expr {
        kind: ExprKind::Quantity(number, unit),
        span: num_start..body.len(),
    };
    Some(Ok(if neg {
        Expr {
            kind: ExprKind::Neg(Box::new(lit)),
            span: sign_pos..body.len(),
        }
    } else {
        lit
    }))
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<char> {
        self.text.get(self.pos..).and_then(|s| s.chars().next())
    }

    fn peek_at(&self, pos: usize) -> Option<char> {
        self.text.get(pos..).and_then(|s| s.chars().next())
    }

    fn eat(&mut self, ch: char) -> bool {
        if self.peek() == Some(ch) {
            self.pos += ch.len_utf8();
            true
        } else {
            false
        }
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.pos += c.len_utf8();
            } else {
                break;
            }
        }
    }

    fn too_deep(&self, start: usize) -> ExprError {
        ExprError::new(
            start..self.pos.max(start + 1).min(self.text.len()),
            format!("expression nested deeper than {MAX_DEPTH} levels"),
        )
        .hint("split it into parameters")
    }

    /// Returns the tree and its depth.
    fn expr(&mut self, depth: usize) -> Result<(Expr, usize), ExprError> {
        let start = self.pos;
        if depth > MAX_DEPTH {
            return Err(self.too_deep(start));
        }
        let (mut lhs, mut d) = self.term(depth + 1)?;
        loop {
            self.skip_ws();
            let op = match self.peek() {
                Some('+') => BinOp::Add,
                Some('-') => BinOp::Sub,
                _ => break,
            };
            self.pos += 1;
            let (rhs, rd) = self.term(depth + 1)?;
            d = d.max(rd) + 1;
            if d > MAX_DEPTH {
                return Err(self.too_deep(start));
            }
            lhs = binary(op, lhs, rhs);
        }
        Ok((lhs, d))
    }

    fn term(&mut self, depth: usize) -> Result<(Expr, usize), ExprError> {
        let start = self.pos;
        let (mut lhs, mut d) = self.unary(depth + 1)?;
        loop {
            self.skip_ws();
            let op = match self.peek() {
                Some('*') => BinOp::Mul,
                Some('/') => BinOp::Div,
                _ => break,
            };
            self.pos += 1;
            let (rhs, rd) = self.unary(depth + 1)?;
            d = d.max(rd) + 1;
            if d > MAX_DEPTH {
                return Err(self.too_deep(start));
            }
            lhs = binary(op, lhs, rhs);
        }
        Ok((lhs, d))
    }

    fn unary(&mut self, depth: usize) -> Result<(Expr, usize), ExprError> {
        self.skip_ws();
        let start = self.pos;
        if depth > MAX_DEPTH {
            return Err(self.too_deep(start));
        }
        if self.eat('-') {
            let (inner, d) = self.unary(depth + 1)?;
            let span = start..inner.span.end;
            return Ok((
                Expr {
                    kind: ExprKind::Neg(Box::new(inner)),
                    span,
                },
                d + 1,
            ));
        }
        if self.eat('+') {
            return self.unary(depth + 1);
        }
        self.power(depth + 1)
    }

    fn power(&mut self, depth: usize) -> Result<(Expr, usize), ExprError> {
        let (base, d) = self.atom(depth + 1)?;
        self.skip_ws();
        if self.eat('^') {
            let (exp, ed) = self.unary(depth + 1)?;
            return Ok((binary(BinOp::Pow, base, exp), d.max(ed) + 1));
        }
        Ok((base, d))
    }

    fn atom(&mut self, depth: usize) -> Result<(Expr, usize), ExprError> {
        self.skip_ws();
        let start = self.pos;
        if depth > MAX_DEPTH {
            return Err(self.too_deep(start));
        }
        let Some(ch) = self.peek() else {
            return Err(ExprError::new(start..start, "unexpected end of value")
                .hint("expected a number, a parameter or `(`"));
        };
        if ch == '(' {
            self.pos += 1;
            let (inner, d) = self.expr(depth + 1)?;
            self.skip_ws();
            if !self.eat(')') {
                return Err(
                    ExprError::new(start..start + 1, "unclosed `(`").hint("add the matching `)`")
                );
            }
            return Ok((inner, d + 1));
        }
        if ch.is_ascii_digit() || ch == '.' {
            return self.literal().map(|e| (e, 1));
        }
        if is_word_char(ch) {
            let name = self.word();
            let span = start..self.pos;
            let save = self.pos;
            self.skip_ws();
            if self.peek() == Some('(') && Func::TWO_ARGUMENTS.contains(&name) {
                return self.two_argument_call(name, start, depth);
            }
            if self.peek() == Some('(') {
                let Some(func) = Func::from_name(name) else {
                    let mut err = ExprError::new(span, format!("unknown function `{name}`"));
                    let names = Func::names();
                    err = match crate::diag::closest(name, names.iter().copied()) {
                        Some(best) => err.hint(format!("did you mean `{best}`?")),
                        None => err.hint(format!("functions: {}", names.join(", "))),
                    };
                    return Err(err);
                };
                self.pos += 1;
                let (arg, d) = self.expr(depth + 1)?;
                self.skip_ws();
                if !self.eat(')') {
                    return Err(ExprError::new(
                        start..self.pos,
                        format!("missing `)` after the argument of {name}"),
                    ));
                }
                return Ok((
                    Expr {
                        kind: ExprKind::Call(func, Box::new(arg)),
                        span: start..self.pos,
                    },
                    d + 1,
                ));
            }
            self.pos = save;
            let kind = if name == "pi" || name == "π" {
                ExprKind::Pi
            } else {
                ExprKind::Param(name.to_string())
            };
            return Ok((Expr { kind, span }, 1));
        }
        Err(
            ExprError::new(start..start + ch.len_utf8(), format!("unexpected `{ch}`"))
                .hint("expected a number, a parameter or `(`"),
        )
    }

    /// `hypot(x, y)` and `atan2(y, x)`, written out as expressions of one
    /// argument functions (see [`Func::TWO_ARGUMENTS`]); every node carries
    /// the call's span.
    fn two_argument_call(
        &mut self,
        name: &str,
        start: usize,
        depth: usize,
    ) -> Result<(Expr, usize), ExprError> {
        self.pos += 1;
        let (first, d1) = self.expr(depth + 1)?;
        self.skip_ws();
        if !self.eat(',') {
            return Err(ExprError::new(
                start..self.pos,
                format!("`{name}` takes two arguments separated by `,`"),
            ));
        }
        let (second, d2) = self.expr(depth + 1)?;
        self.skip_ws();
        if !self.eat(')') {
            return Err(ExprError::new(
                start..self.pos,
                format!("missing `)` after the arguments of {name}"),
            ));
        }
        let span = start..self.pos;
        let node = |kind: ExprKind| Expr {
            kind,
            span: span.clone(),
        };
        let bin =
            |op: BinOp, a: Expr, b: Expr| node(ExprKind::Binary(op, Box::new(a), Box::new(b)));
        let two = || {
            node(ExprKind::Number(super::Number {
                value: 2.0,
                text: "2".into(),
            }))
        };
        let (x, y) = if name == "hypot" {
            (first, second)
        } else {
            (second, first)
        };
        let radius = node(ExprKind::Call(
            Func::Sqrt,
            Box::new(bin(
                BinOp::Add,
                bin(BinOp::Pow, x.clone(), two()),
                bin(BinOp::Pow, y.clone(), two()),
            )),
        ));
        let out = if name == "hypot" {
            radius
        } else {
            let half = bin(BinOp::Div, y, bin(BinOp::Add, radius, x));
            bin(
                BinOp::Mul,
                two(),
                node(ExprKind::Call(Func::Atan, Box::new(half))),
            )
        };
        let d = d1.max(d2) + 4;
        if depth + d > MAX_DEPTH {
            return Err(ExprError::new(
                span,
                format!("expression nested deeper than {MAX_DEPTH} levels"),
            ));
        }
        Ok((out, d))
    }

    fn word(&mut self) -> &'a str {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if is_word_char(c) || (c.is_ascii_digit() && self.pos > start) {
                self.pos += c.len_utf8();
            } else {
                break;
            }
        }
        &self.text[start..self.pos]
    }

    /// A number, without unit. `None` when there is no number here.
    fn number(&mut self) -> Option<Result<Number, ExprError>> {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let mut i = self.pos;
        let digits = |i: &mut usize| {
            let s = *i;
            while *i < bytes.len() && bytes[*i].is_ascii_digit() {
                *i += 1;
            }
            *i > s
        };
        let int = digits(&mut i);
        let mut frac = false;
        if i < bytes.len() && bytes[i] == b'.' {
            i += 1;
            frac = digits(&mut i);
        }
        if !int && !frac {
            return None;
        }
        if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
            let mut j = i + 1;
            if j < bytes.len() && (bytes[j] == b'+' || bytes[j] == b'-') {
                j += 1;
            }
            if digits(&mut j) {
                i = j;
            }
        }
        self.pos = i;
        let text = &self.text[start..i];
        let value: f64 = match text.parse() {
            Ok(v) => v,
            Err(_) => {
                return Some(Err(ExprError::new(
                    start..i,
                    format!("`{text}` is not a number"),
                )));
            }
        };
        if !value.is_finite() {
            return Some(Err(ExprError::new(
                start..i,
                format!("`{text}` is too large for a 64-bit float"),
            )));
        }
        // Literals are also read exactly (the symbolic engine): bound the
        // digits and the exponent so that no literal costs more than a
        // few hundred decimal digits of exact arithmetic.
        let (mantissa, exponent) = match text.find(['e', 'E']) {
            Some(k) => (&text[..k], text[k + 1..].parse::<i64>().unwrap_or(i64::MAX)),
            None => (text, 0),
        };
        let digit_count = mantissa.bytes().filter(u8::is_ascii_digit).count();
        if digit_count > MAX_LITERAL_DIGITS {
            return Some(Err(ExprError::new(
                start..i,
                format!("`{text}` has more than {MAX_LITERAL_DIGITS} digits"),
            )));
        }
        let nonzero = mantissa.bytes().any(|b| (b'1'..=b'9').contains(&b));
        if exponent.unsigned_abs() > MAX_LITERAL_EXPONENT || (nonzero && !value.is_normal()) {
            return Some(Err(ExprError::new(
                start..i,
                format!(
                    "`{text}` is outside the range of a 64-bit float (about 2.2e-308 to 1.8e308)"
                ),
            )));
        }
        Some(Ok(Number {
            value,
            text: text.to_string(),
        }))
    }

    /// A number and, if a unit word follows, its unit.
    fn literal(&mut self) -> Result<Expr, ExprError> {
        let start = self.pos;
        let Some(number) = self.number() else {
            return Err(ExprError::new(start..start + 1, "expected a number")
                .hint("write decimals with a digit after the point, such as `0.5`"));
        };
        let number = number?;
        let num_end = self.pos;
        // Look for a unit: a word after optional spaces.
        let mut q = num_end;
        while let Some(c) = self.peek_at(q) {
            if c.is_whitespace() {
                q += c.len_utf8();
            } else {
                break;
            }
        }
        // `1/kg`, `1/s`: a reciprocal unit written with a leading one.
        let reciprocal = self.text[q..].starts_with("1/")
            && q > num_end
            && units::is_unit_word(
                self.text[q + 2..]
                    .split(|c: char| !is_word_char(c))
                    .next()
                    .unwrap_or(""),
            );
        if !reciprocal && !self.peek_at(q).is_some_and(is_word_char) {
            return Ok(Expr {
                kind: ExprKind::Number(number),
                span: start..num_end,
            });
        }
        let unit_start = q;
        let unit_end = if reciprocal {
            self.unit_extent_reciprocal(q + 2)?
        } else {
            self.unit_extent(unit_start)?
        };
        let unit_text = &self.text[unit_start..unit_end];
        let unit = units::parse_unit(unit_text, false).map_err(|e| {
            let mut err = ExprError::new(
                unit_start + e.span.start..unit_start + e.span.end,
                e.message,
            );
            if let Some(h) = e.hint {
                err = err.hint(h);
            }
            err
        })?;
        self.pos = unit_end;
        Ok(Expr {
            kind: ExprKind::Quantity(number, unit),
            span: start..unit_end,
        })
    }

    /// The end of the unit that starts at `start`: unit words separated by
    /// spaces or `·`, powers, and one `/` written without spaces.
    /// The end of `1/unit`: the words after the slash, all in the
    /// denominator (no second `/`).
    fn unit_extent_reciprocal(&self, start: usize) -> Result<usize, ExprError> {
        let end = self.unit_extent(start)?;
        Ok(self.text[start..end].find('/').map_or(end, |k| start + k))
    }

    fn unit_extent(&self, start: usize) -> Result<usize, ExprError> {
        let mut pos = start;
        let mut slash = false;
        let mut first = true;
        loop {
            // One word with optional power.
            let word_start = pos;
            while let Some(c) = self.peek_at(pos) {
                if is_word_char(c) {
                    pos += c.len_utf8();
                } else {
                    break;
                }
            }
            let word = &self.text[word_start..pos];
            if !units::is_unit_word(word) {
                if first {
                    let mut err = ExprError::new(word_start..pos, format!("unknown unit `{word}`"));
                    if let Some(h) = units::unknown_unit_hint(word)
                        && !h.starts_with("known units")
                    {
                        err = err.hint(h);
                    }
                    return Err(err.hint(format!(
                        "a number followed by a word is a quantity; to multiply by a parameter write `*{word}`"
                    )));
                }
                // Not a unit: it was not part of this literal.
                return Ok(word_start);
            }
            first = false;
            let after_word = pos;
            if self.peek_at(pos) == Some('^') {
                let mut q = pos + 1;
                if matches!(self.peek_at(q), Some('-' | '+')) {
                    q += 1;
                }
                let digits_start = q;
                while self.peek_at(q).is_some_and(|c| c.is_ascii_digit()) {
                    q += 1;
                }
                if q > digits_start {
                    pos = q;
                } else {
                    // `^` followed by something else: leave it to the expression.
                    return Ok(after_word);
                }
            }
            let end_of_factor = pos;
            // What follows: `/word` (no spaces), `·word`, ` word`.
            match self.peek_at(pos) {
                Some('/') if !slash && self.peek_at(pos + 1).is_some_and(is_word_char) => {
                    if !units::is_unit_word(
                        self.text[pos + 1..]
                            .split(|c: char| !is_word_char(c))
                            .next()
                            .unwrap_or(""),
                    ) {
                        return Ok(end_of_factor);
                    }
                    slash = true;
                    pos += 1;
                }
                Some('·') => {
                    pos += '·'.len_utf8();
                    while self.peek_at(pos).is_some_and(char::is_whitespace) {
                        pos += 1;
                    }
                }
                Some(c) if c.is_whitespace() => {
                    let mut q = pos;
                    while self.peek_at(q).is_some_and(char::is_whitespace) {
                        q += 1;
                    }
                    let next_word = self.text[q..]
                        .split(|c: char| !is_word_char(c))
                        .next()
                        .unwrap_or("");
                    // A following word is part of the unit only if it is a
                    // unit and not a function call.
                    let call = self.text[q + next_word.len()..]
                        .trim_start()
                        .starts_with('(');
                    if !next_word.is_empty() && units::is_unit_word(next_word) && !call {
                        pos = q;
                    } else {
                        return Ok(end_of_factor);
                    }
                }
                _ => return Ok(end_of_factor),
            }
        }
    }
}

fn binary(op: BinOp, a: Expr, b: Expr) -> Expr {
    let span = a.span.start..b.span.end;
    Expr {
        kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
        span,
    }
}
