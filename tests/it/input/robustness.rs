//! No input makes meff panic: seeded random strings through the expression
//! parser and evaluator, seeded mutations of real case files through the
//! case reader and the whole pipeline, and the fuzzers' minimized corpora
//! and every input they found a problem with (`fuzz/regressions*/`),
//! replayed so CI checks them without a fuzzer (the budgets keep each short).

use crate::support::{bundled_case_paths, root};
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
    for path in bundled_case_paths() {
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

fn inputs(dir: &str) -> Vec<(String, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(root().join(dir)) else {
        return Vec::new();
    };
    let mut out: Vec<(String, Vec<u8>)> = entries
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn reader_corpus_replays() {
    let corpus = inputs("fuzz/corpus/case_reader");
    assert!(corpus.len() > 100, "the reader corpus is committed");
    for (_, bytes) in corpus {
        if let Ok(text) = std::str::from_utf8(&bytes) {
            meff::fuzz::read_case(text);
        }
    }
}

#[test]
fn pipeline_corpus_and_regressions_replay() {
    let mut all = inputs("fuzz/corpus/case_pipeline");
    assert!(all.len() > 20, "the pipeline corpus is committed");
    all.extend(inputs("fuzz/regressions"));
    for (_, bytes) in all {
        if let Ok(text) = std::str::from_utf8(&bytes) {
            meff::fuzz::run_case(text);
        }
    }
}

#[test]
fn model_corpus_replays() {
    let mut all = inputs("fuzz/corpus/model_reader");
    assert!(all.len() > 100, "the model corpus is committed");
    all.extend(inputs("fuzz/seeds-models"));
    for (_, bytes) in all {
        if let Ok(text) = std::str::from_utf8(&bytes) {
            meff::fuzz::read_model(text);
        }
    }
}

/// The scene, engine, book and Typst-text targets (the PDF's translation):
/// their seeds and minimized corpora.
#[test]
fn scene_engine_book_and_typst_corpora_replay() {
    for (target, seeds) in [
        ("scene", "seeds-scene"),
        ("dump", "seeds-dump"),
        ("engine", "seeds-engine"),
        ("book", "seeds-book"),
        ("typst_text", "seeds-typst"),
    ] {
        let mut all = inputs(&format!("fuzz/corpus/{target}"));
        // Inputs that once failed (a finding each).
        all.extend(inputs(&format!("fuzz/regressions-{target}")));
        let seeded = inputs(&format!("fuzz/{seeds}"));
        assert!(!seeded.is_empty(), "fuzz/{seeds} is committed");
        all.extend(seeded);
        for (_, bytes) in all {
            match target {
                "scene" => meff::fuzz::run_scene(&bytes),
                "dump" => meff::fuzz::run_dump(&bytes),
                _ => {
                    let Ok(text) = std::str::from_utf8(&bytes) else {
                        continue;
                    };
                    match target {
                        "engine" => meff::fuzz::run_engine(text),
                        "book" => meff::fuzz::run_book(text),
                        _ => meff::fuzz::typst_text(text),
                    }
                }
            }
        }
    }
}
