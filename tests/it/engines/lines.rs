//! The engine translation's lines (issue 36): every line a sheet prints
//! under "What the engines do with these settings" recomputes, from the
//! numbers it prints, to the result it prints — for every engine, every
//! form of its settings (MuJoCo standard and direct `solref`, a
//! penetration; Bullet's stiffness and its ERP/CFM; Drake SAP and
//! Hunt–Crossley), and every contact.

use meff::engines::derivation::Line;
use meff::render::engine_eqs::{latex, substituted};

/// Drops `\,\mathrm{…}` (and a following `^{…}`): the units.
fn strip_units(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("\\,\\mathrm{") {
        out.push_str(&rest[..i]);
        let mut j = i + "\\,\\mathrm{".len();
        let mut depth = 1;
        let b = rest.as_bytes();
        while depth > 0 {
            match b[j] {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                _ => {}
            }
            j += 1;
        }
        rest = &rest[j..];
        if let Some(r) = rest.strip_prefix("^{") {
            let end = r.find('}').unwrap();
            rest = &r[end + 1..];
        }
    }
    out.push_str(rest);
    out
}

/// A reader of the LaTeX the lines use: numbers (`1.2\times10^{3}`),
/// `\frac`, `\sqrt`, `\left( \right)`, powers, `\times`, `\pi`, `\max`.
struct Reader<'a> {
    s: &'a str,
}

impl Reader<'_> {
    fn eat(&mut self, t: &str) -> bool {
        let rest = self.s.trim_start();
        match rest.strip_prefix(t) {
            Some(r) => {
                self.s = r;
                true
            }
            None => false,
        }
    }
    fn expr(&mut self) -> f64 {
        let mut v = self.term();
        loop {
            if self.eat("+") {
                v += self.term();
            } else if self.eat("-") {
                v -= self.term();
            } else {
                return v;
            }
        }
    }
    fn term(&mut self) -> f64 {
        let mut v = self.unary();
        loop {
            if self.eat("\\times") {
                v *= self.unary();
            } else {
                let r = self.s.trim_start();
                if r.starts_with("\\pi") || r.starts_with("\\frac") || r.starts_with("\\sqrt") {
                    v *= self.unary();
                } else {
                    return v;
                }
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
        if self.eat("\\max\\left(") {
            let a = self.expr();
            assert!(self.eat(","), "expected , at {:?}", self.s);
            let b = self.expr();
            assert!(self.eat("\\right)"));
            return a.max(b);
        }
        if self.eat("\\left(") {
            let v = self.expr();
            assert!(self.eat("\\right)"), "unclosed ( at {:?}", self.s);
            return v;
        }
        if self.eat("\\pi") {
            return std::f64::consts::PI;
        }
        let rest = self.s.trim_start();
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        assert!(end > 0, "unexpected {rest:?}");
        let mut v: f64 = rest[..end].parse().unwrap();
        self.s = &rest[end..];
        if self.eat("\\times10^{") {
            let e = self.expr();
            assert!(self.eat("}"));
            v *= 10f64.powf(e);
        }
        v
    }
}

fn read(latex: &str) -> f64 {
    let text = strip_units(latex);
    let mut r = Reader { s: &text };
    let v = r.expr();
    assert!(r.s.trim().is_empty(), "left over {:?} in {latex}", r.s);
    v
}

/// Every line of every engine of a case, with the contact it belongs to.
fn lines(ev: &meff::Evaluated) -> Vec<(String, Line)> {
    let mut out = Vec::new();
    for e in &ev.report.engines {
        for l in &e.lines {
            out.push((format!("{} (shared)", e.name), l.clone()));
        }
        for c in &e.contacts {
            for l in &c.lines {
                out.push((format!("{} {}", e.name, c.name), l.clone()));
            }
        }
    }
    out
}

/// The printed numbers give the printed result: to round-off at 12 digits
/// (the formula shown is the one computed), and to the sheet's precision
/// at its 4 digits (what a signer recomputes by hand).
fn recompute(ev: &meff::Evaluated, what: &str) -> usize {
    let all = lines(ev);
    let mut checked = 0;
    for (whose, l) in &all {
        let Some(_) = substituted(l, 4) else {
            continue;
        };
        for (d, tol) in [(12, 1e-9), (4, 2e-3)] {
            let text = substituted(l, d).unwrap();
            let got = read(&text);
            let want = l.result.x;
            assert!(
                (got - want).abs() <= tol * want.abs(),
                "{what}, {whose}: {} reads {got}, the sheet says {want} (d = {d})",
                latex(l, d)
            );
        }
        checked += 1;
    }
    checked
}

fn case(name: &str) -> String {
    std::fs::read_to_string(crate::support::root().join("cases").join(name)).unwrap()
}

#[test]
fn every_bundled_engine_line_recomputes_from_its_printed_numbers() {
    let mut total = 0;
    for name in [
        "engine-mujoco-arm.toml",
        "engine-box2d-stack.toml",
        "engine-bullet-table.toml",
        "engine-drake-near-rigid.toml",
        "engine-rapier-ball.toml",
    ] {
        let ev = crate::support::evaluate_path(&crate::support::root().join("cases").join(name));
        let n = recompute(&ev, name);
        assert!(n >= 2, "{name}: only {n} lines with numbers");
        total += n;
    }
    assert!(total >= 40, "{total}");
}

#[test]
fn the_mujoco_lines_give_the_tables_k_and_the_recommended_solref() {
    let ev =
        crate::support::evaluate_path(&crate::support::root().join("cases/engine-mujoco-arm.toml"));
    let e = &ev.report.engines[0];
    let c = &e.contacts[0];
    let get = |lhs: &str| {
        c.lines
            .iter()
            .chain(&e.lines)
            .find(|l| l.lhs == lhs)
            .unwrap_or_else(|| panic!("no line for {lhs}"))
            .result
            .x
    };
    let rel = |a: f64, b: f64| ((a - b) / b).abs();
    assert!(rel(get("k"), c.k.unwrap()) < 1e-12);
    assert!(rel(get("c"), c.c.unwrap()) < 1e-12);
    assert!(rel(get("\\hat{m}"), c.m_engine.unwrap()) < 1e-12);
    // The recommended solref as the settings table prints it (6 digits).
    let solref = &c.inverse.iter().find(|(k, _)| k == "solref").unwrap().1;
    let printed: Vec<f64> = solref
        .trim_matches(|c| c == '[' || c == ']')
        .split(", ")
        .map(|x| x.parse().unwrap())
        .collect();
    assert!(rel(get("\\mathrm{solref}_{0}^{*}"), printed[0]) < 1e-5);
    assert!(rel(get("\\mathrm{solref}_{1}^{*}"), printed[1]) < 1e-5);
    // And the sheet prints them, in every format.
    let t = meff::render::templates::Templates::load(None).unwrap();
    let md = t.report_md(&ev.report, 4).unwrap();
    assert!(md.contains("Contact tip:"), "{md}");
    assert!(md.contains("\\frac{d\\,K}{A_{ii} + R}"), "{md}");
    let html = t.report_html(&ev.report, 4).unwrap();
    assert!(html.contains("<p>Contact tip:</p>"));
    let (typ, _) = t.report_typ(&ev.report, 4).unwrap();
    assert!(typ.contains("Contact tip:"));
}

#[test]
fn other_forms_of_each_engines_settings_recompute_too() {
    let stack = case("engine-box2d-stack.toml");
    let table = case("engine-bullet-table.toml");
    let rigid = case("engine-drake-near-rigid.toml");
    let variants = [
        // MuJoCo on four coupled contacts, direct solref, at a penetration.
        (
            "mujoco direct",
            "\\frac{-\\mathrm{solref}_{0}}{d_{w}^{2}}",
            stack.replace(
                "[engine.box2d]",
                "[engine.mujoco]\nsolref = [-20000, -30]\npenetration = \"0.2 mm\"\n\n[engine.box2d]",
            ),
        ),
        // MuJoCo standard solref with refsafe raising the time constant.
        (
            "mujoco refsafe",
            "\\frac{2}{d_{w}\\,\\mathrm{solref}_{0}}",
            stack.replace(
                "[engine.box2d]",
                "[engine.mujoco]\nsolref = [0.001, 0.7]\n\n[engine.box2d]",
            ),
        ),
        // Bullet from ERP and CFM.
        (
            "bullet erp",
            "\\frac{\\mathrm{erp}}{h\\,\\mathrm{cfm}}",
            format!(
                "{}[engine.bullet]\nerp = 0.3\ncfm = 1e-5\n",
                table.split("[engine.bullet]").next().unwrap()
            ),
        ),
        // Drake Hunt–Crossley with a preload.
        (
            "drake hunt-crossley",
            "d\\,F_{0}",
            rigid.replace(
                "approximation = \"sap\"",
                "approximation = \"lagged\"\ndissipation = \"0.5 s/m\"\npreload = \"30 N\"",
            ),
        ),
    ];
    for (what, form, text) in variants {
        let ev = crate::support::evaluate_str(&text);
        let n = recompute(&ev, what);
        assert!(n >= 2, "{what}: {n} lines");
        assert!(
            lines(&ev).iter().any(|(_, l)| l.formula == form),
            "{what}: no line {form}"
        );
    }
}
