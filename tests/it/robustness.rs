//! No input makes meff panic: seeded random strings through the expression
//! parser and evaluator, and seeded mutations of real case files through the
//! case reader and the whole pipeline.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const PIECES: &[&str] = &[
    "1",
    "0",
    ".",
    "e",
    "5",
    "2.5e3",
    "^4000000000",
    "^99",
    " ",
    "kg",
    "m",
    "s",
    "N",
    "/",
    "*",
    "^",
    "-",
    "+",
    "(",
    ")",
    "sqrt",
    "sin",
    "ln",
    "pi",
    "x",
    "deg",
    "·",
    "µ",
    "^2",
    "^-1",
    "1e400",
    ",",
    "mm",
    "kg m^2",
    "0.0",
    "e-",
    "\"",
    "#",
];

#[test]
fn random_expressions_never_panic() {
    let mut rng = StdRng::seed_from_u64(7);
    let x = meff::expr::Value::new(0.3, meff::units::Dim::LENGTH);
    for _ in 0..20_000 {
        let n = rng.random_range(0..12);
        let text: String = (0..n)
            .map(|_| PIECES[rng.random_range(0..PIECES.len())])
            .collect();
        if let Ok(e) = meff::expr::parse(&text) {
            let _ = meff::expr::eval(&e, &|name| (name == "x").then_some(x));
            let printed = e.to_string();
            assert!(
                meff::expr::parse(&printed).is_ok(),
                "{text:?} printed as {printed:?} does not parse"
            );
        }
    }
}

#[test]
fn mutated_case_files_never_panic() {
    let mut rng = StdRng::seed_from_u64(8);
    let mut sources = Vec::new();
    for path in crate::bundled_case_paths() {
        sources.push(std::fs::read_to_string(path).unwrap());
    }
    sources.sort();
    let tokens = [
        "\"",
        "[",
        "]",
        "=",
        "0",
        "-",
        "kg",
        "x",
        "\n",
        "[[body]]\n",
        "1e999",
        "nan",
        "{",
        "}",
        ",",
        "\"0 m\"",
    ];
    for i in 0..600 {
        let mut s: Vec<char> = sources[i % sources.len()].chars().collect();
        for _ in 0..rng.random_range(1..4) {
            let pos = rng.random_range(0..=s.len());
            match rng.random_range(0..3) {
                0 if pos < s.len() => {
                    s.remove(pos);
                }
                _ => {
                    let t = tokens[rng.random_range(0..tokens.len())];
                    for (k, ch) in t.chars().enumerate() {
                        s.insert(pos + k, ch);
                    }
                }
            }
        }
        let text: String = s.into_iter().collect();
        if let Ok(case) = meff::case::parse_case("mutant.toml", &text) {
            let _ = meff::evaluate(case);
        } else if let Err(e) = meff::case::parse_case("mutant.toml", &text) {
            assert!(!e.diagnostics.is_empty());
            let _ = meff::diag::render("mutant.toml", &text, &e.diagnostics, false);
        }
    }
}
