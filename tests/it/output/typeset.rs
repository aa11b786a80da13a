//! What a signer reads is what was checked: every expression meff typesets
//! is read back from its LaTeX by an independent reader (below) and must
//! evaluate to the same number as the expression itself — for random
//! expressions with fractions, powers, signs, functions and numbers in
//! exponent notation, not only the examples.

use meff::expr::{BinOp, Expr, ExprKind};

/// Parameter values and the symbols they are typeset as.
const PARAMS: [(&str, &str, f64); 4] = [
    ("a", "a", 1.7),
    ("b", "b_{1}", 0.45),
    ("lx", "l_{x}", 2.3),
    ("Iyy", "I_{yy}", 0.8),
];

fn value(e: &Expr) -> f64 {
    match &e.kind {
        ExprKind::Number(n) => n.value,
        ExprKind::Quantity(n, _) => n.value,
        ExprKind::Param(p) => PARAMS.iter().find(|(n, _, _)| n == p).unwrap().2,
        ExprKind::Pi => std::f64::consts::PI,
        ExprKind::Neg(x) => -value(x),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (value(a), value(b));
            match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a * b,
                BinOp::Div => a / b,
                BinOp::Pow => a.powf(b),
            }
        }
        ExprKind::Call(f, x) => {
            let x = value(x);
            match f.name() {
                "sqrt" => x.sqrt(),
                "sin" => x.sin(),
                "cos" => x.cos(),
                "abs" => x.abs(),
                other => panic!("{other} not generated"),
            }
        }
    }
}

/// A reader of the LaTeX subset meff writes for expressions.
struct Reader<'a> {
    s: &'a str,
}

impl Reader<'_> {
    fn eat(&mut self, t: &str) -> bool {
        let rest = self.s.trim_start();
        if let Some(r) = rest.strip_prefix(t) {
            self.s = r;
            true
        } else {
            false
        }
    }

    fn peek(&self) -> Option<char> {
        self.s.trim_start().chars().next()
    }

    fn expr(&mut self) -> f64 {
        let mut v = self.term();
        loop {
            if self.eat("+") {
                v += self.term();
            } else if self.s.trim_start().starts_with('-') && !self.at_end() {
                self.eat("-");
                v -= self.term();
            } else {
                return v;
            }
        }
    }

    fn at_end(&self) -> bool {
        let r = self.s.trim_start();
        r.is_empty() || r.starts_with('}') || r.starts_with("\\right")
    }

    fn term(&mut self) -> f64 {
        let mut v = self.unary();
        loop {
            if self.eat("\\cdot") || self.eat("\\,") || self.eat("\\times") {
                v *= self.unary();
            } else if !self.at_end() && !matches!(self.peek(), Some('+' | '-')) {
                // Juxtaposition (a symbol after a fraction, …).
                v *= self.unary();
            } else {
                return v;
            }
        }
    }

    fn unary(&mut self) -> f64 {
        if self.eat("-") {
            return -self.unary();
        }
        let base = self.atom();
        if self.eat("^{") {
            let e = self.expr();
            assert!(self.eat("}"), "exponent not closed at {:?}", self.s);
            assert!(
                !self.s.trim_start().starts_with('^'),
                "a double superscript is ambiguous: {:?}",
                self.s
            );
            return base.powf(e);
        }
        base
    }

    fn group(&mut self) -> f64 {
        assert!(self.eat("{"), "expected {{ at {:?}", self.s);
        let v = self.expr();
        assert!(self.eat("}"), "expected }} at {:?}", self.s);
        v
    }

    fn atom(&mut self) -> f64 {
        if self.eat("\\frac") {
            let n = self.group();
            return n / self.group();
        }
        if self.eat("\\sqrt") {
            return self.group().sqrt();
        }
        if self.eat("\\left(") {
            let v = self.expr();
            assert!(self.eat("\\right)"), "unclosed ( at {:?}", self.s);
            return v;
        }
        if self.eat("\\left|") {
            let v = self.expr();
            assert!(self.eat("\\right|"));
            return v.abs();
        }
        if self.eat("\\pi") {
            return std::f64::consts::PI;
        }
        for (f, g) in [("\\sin", f64::sin as fn(f64) -> f64), ("\\cos", f64::cos)] {
            if self.eat(f) {
                assert!(self.eat("\\left("));
                let v = self.expr();
                assert!(self.eat("\\right)"));
                return g(v);
            }
        }
        for (_, symbol, v) in PARAMS {
            // Longest symbols first would matter for prefixes; these have none.
            if self.eat(symbol) {
                return v;
            }
        }
        let rest = self.s.trim_start();
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        assert!(end > 0, "unexpected {rest:?}");
        let v: f64 = rest[..end].parse().unwrap();
        self.s = &rest[end..];
        v
    }
}

/// A seeded random expression in meff's input syntax.
fn random_expr(rng: &mut u64, depth: u32) -> String {
    fn next(rng: &mut u64) -> u64 {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        *rng
    }
    let pick = next(rng) % if depth == 0 { 4 } else { 12 };
    match pick {
        0 => ["a", "b", "lx", "Iyy"][(next(rng) % 4) as usize].to_string(),
        1 => ["2", "0.5", "3", "1e-3", "2.5e2", "1e3"][(next(rng) % 6) as usize].to_string(),
        2 => "pi".into(),
        3 => ["a", "b"][(next(rng) % 2) as usize].to_string(),
        4 => format!(
            "({} + {})",
            random_expr(rng, depth - 1),
            random_expr(rng, depth - 1)
        ),
        5 => format!(
            "({} - {})",
            random_expr(rng, depth - 1),
            random_expr(rng, depth - 1)
        ),
        6 => format!(
            "{} * {}",
            random_expr(rng, depth - 1),
            random_expr(rng, depth - 1)
        ),
        7 => format!(
            "{} / {}",
            random_expr(rng, depth - 1),
            random_expr(rng, depth - 1)
        ),
        8 => format!(
            "({})^{}",
            random_expr(rng, depth - 1),
            ["2", "3", "-1", "0.5"][(next(rng) % 4) as usize]
        ),
        9 => format!("-{}", random_expr(rng, depth - 1)),
        10 => format!(
            "{}({})",
            ["sqrt", "sin", "cos", "abs"][(next(rng) % 4) as usize],
            random_expr(rng, depth - 1)
        ),
        _ => format!("{}^2", random_expr(rng, depth - 1)),
    }
}

fn check(text: &str) {
    let e = meff::expr::parse(text).unwrap_or_else(|err| panic!("{text}: {err:?}"));
    let want = value(&e);
    if !want.is_finite() || want.abs() > 1e12 || want.abs() < 1e-12 {
        return;
    }
    let latex = meff::expr::print::latex(&e, &|p| {
        PARAMS
            .iter()
            .find(|(n, _, _)| *n == p)
            .unwrap()
            .1
            .to_string()
    });
    let mut r = Reader { s: &latex };
    let got = r.expr();
    assert!(
        r.s.trim().is_empty(),
        "{text}: left over {:?} in {latex}",
        r.s
    );
    assert!(
        (got - want).abs() <= 1e-9 * want.abs(),
        "{text} = {want}, but its LaTeX {latex} reads {got}"
    );
}

#[test]
fn typeset_expressions_read_back_to_the_same_value() {
    // The forms a signer met wrong: a fraction squared, a number in
    // exponent notation squared, numbers side by side.
    for text in [
        "1/a + (lx/2)^2/Iyy",
        "(b/2)^2",
        "1e-3^2",
        "(1e3)^2",
        "2*3*a",
        "2.5e2*1e-3",
        "-(a + b)^2",
        "(-a)^2",
        "a - -b",
        "a/(b/lx)",
        "sqrt(a/b)^2",
    ] {
        check(text);
    }
    let mut rng = 0x6d65_6666_u64;
    for _ in 0..3000 {
        let text = random_expr(&mut rng, 4);
        check(&text);
    }
}

#[test]
fn quantities_are_grouped_as_powers_bases() {
    let e = meff::expr::parse("(0.02 m)^2/Iyy").unwrap();
    let latex = meff::expr::print::latex(&e, &|p| p.to_string());
    assert!(
        latex.contains("\\left(0.02\\,\\mathrm{m}\\right)^{2}"),
        "{latex}"
    );
}
