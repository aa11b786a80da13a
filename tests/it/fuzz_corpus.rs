//! Replays the fuzzers' minimized corpora and every input they found a
//! problem with (`fuzz/regressions/`), so CI checks them without a fuzzer:
//! no input may panic (the budgets keep each one short).

use crate::root;

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

/// The targets added in round 3 (scenes, engines, books, the PDF's Typst
/// translation): their seeds and minimized corpora.
#[test]
fn round_three_corpora_replay() {
    for (target, seeds) in [
        ("scene", "seeds-scene"),
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
